//! The inspection gate: in `full` mode, with the gate at `warn` or `block`, an order whose
//! operation failed its last inspection does not complete unnoticed, and a sales order
//! whose production has not passed QC does not ship unnoticed. `block` refuses; `warn` lets
//! the action go ahead and says what is missing (on the order's notes, or in the answer).

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::settings::model::QualityGateAction;
use crate::operations::production::inspections::InspectionResult;
use crate::operations::production::model::{OrderStatus, QcStatus};
use crate::operations::quality::policy;
use crate::platform::db::schema::{production_order_operations, production_orders, qc_inspections};
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// `Err` in `block` mode, the message in `warn` mode.
fn verdict(gate: QualityGateAction, field: &str, message: String) -> Result<Option<String>, Stop> {
    if gate == QualityGateAction::Block {
        Err(Stop::refuse(field, UserErrorCode::NotAllowed, message))
    } else {
        Ok(Some(message))
    }
}

/// Before an order completes (production's
/// [`crate::operations::production::rules::CompletionGate`]): the operations whose latest
/// inspection failed. `Ok(Some(warning))` in `warn` mode, a refusal in `block` mode.
pub fn before_completion(
    conn: &mut AsyncPgConnection,
    order_id: i64,
) -> futures_util::future::BoxFuture<'_, Result<Option<String>, Stop>> {
    Box::pin(async move {
        let policy = policy::current(conn).await?;
        if !policy.gate_enforced {
            return Ok(None);
        }
        // Each operation's inspections, newest first: the first seen per operation decides.
        let rows: Vec<(i64, InspectionResult, String)> = qc_inspections::table
            .inner_join(
                production_order_operations::table.on(qc_inspections::production_operation_id
                    .eq(production_order_operations::id.nullable())),
            )
            .filter(qc_inspections::production_order_id.eq(order_id))
            .order((
                qc_inspections::production_operation_id,
                qc_inspections::id.desc(),
            ))
            .select((
                production_order_operations::id,
                qc_inspections::result,
                production_order_operations::operation_code,
            ))
            .load(conn)
            .await?;
        let mut seen = Vec::new();
        let mut failed = Vec::new();
        for (op, result, code) in rows {
            if seen.contains(&op) {
                continue;
            }
            seen.push(op);
            if result == InspectionResult::Failed {
                failed.push(code);
            }
        }
        if failed.is_empty() {
            return Ok(None);
        }
        verdict(
            policy.gate_action,
            "id",
            format!(
                "Quality gate: operation(s) {} failed their last inspection; record a passing inspection (or waive it) before completing",
                failed.join(", ")
            ),
        )
    })
}

/// Before a sales order ships: its complete production orders whose QC is pending or failed.
/// The warnings in `warn` mode (empty when all is well), a refusal in `block` mode.
pub async fn before_shipping(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
) -> Result<Vec<String>, Stop> {
    let policy = policy::current(conn).await?;
    if !policy.gate_enforced {
        return Ok(Vec::new());
    }
    let open: Vec<(String, QcStatus)> = production_orders::table
        .filter(production_orders::sales_order_id.eq(sales_order_id))
        .filter(production_orders::status.eq(OrderStatus::Complete))
        .filter(production_orders::qc_status.eq_any([QcStatus::Pending, QcStatus::Failed]))
        .order(production_orders::code)
        .select((production_orders::code, production_orders::qc_status))
        .load(conn)
        .await?;
    if open.is_empty() {
        return Ok(Vec::new());
    }
    let list: Vec<String> = open.iter().map(|(c, s)| format!("{c} ({s})")).collect();
    Ok(verdict(
        policy.gate_action,
        "salesOrderId",
        format!(
            "Quality gate: production order(s) {} have not passed QC",
            list.join(", ")
        ),
    )?
    .into_iter()
    .collect())
}
