//! Recording an inspection: the order's verdict (through production's QC rule) or an
//! in-process inspection of one of its operations, with quantities, a defect reason,
//! measurements and, in `full` mode, the check against the product's quality plan. The
//! record is appended to the history ([`crate::operations::production::inspections`]) in
//! the same transaction as the verdict.

use std::str::FromStr;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::optional_text;
use crate::master_data::settings::model::QualityGateAction;
use crate::operations::production::inspections::{InspectionResult, InspectionRow, within};
use crate::operations::production::model::{self, OrderStatus, QcStatus};
use crate::operations::production::rules::{self as production, QC_NOTES_MAX, SalesOrderPassedQc};
use crate::operations::quality::defects;
use crate::operations::quality::plans::{self, CharacteristicType, QualityCharacteristic};
use crate::operations::quality::policy::{self, QualityPolicy};
use crate::platform::db::schema::{
    production_order_operations, qc_inspections, qc_measurements, quality_plan_characteristics,
    quality_plans,
};
use crate::platform::db::text;
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// Longest characteristic name of a measurement.
pub const CHARACTERISTIC_MAX: usize = 100;
/// Longest unit.
pub const UNIT_MAX: usize = 20;
/// Longest characteristic code.
pub const CODE_MAX: usize = 50;

/// One measurement taken at an inspection.
#[derive(Debug, Clone, Default, InputObject)]
#[graphql(name = "QcMeasurementInput")]
pub struct MeasurementInput {
    /// What was measured (required).
    #[graphql(directive = length::apply(CHARACTERISTIC_MAX))]
    pub characteristic: String,
    /// Target value.
    pub nominal: Option<Decimal>,
    /// Lower limit.
    pub lower_limit: Option<Decimal>,
    /// Upper limit (not below the lower).
    pub upper_limit: Option<Decimal>,
    /// The value measured.
    pub measured_value: Option<Decimal>,
    /// Unit.
    #[graphql(directive = length::apply(UNIT_MAX))]
    pub unit: Option<String>,
    /// Display order (default: its place in the list).
    pub sequence: Option<i32>,
    /// The plan characteristic it answers.
    pub quality_plan_characteristic_id: Option<i64>,
    /// The characteristic's stable code (taken from the plan when it is linked).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub characteristic_code: Option<String>,
    /// The pass/fail answer of an attribute.
    pub conforms: Option<bool>,
}

/// An inspection being recorded.
#[derive(Debug, Clone, Default, InputObject)]
#[graphql(name = "QcInspectionInput")]
pub struct InspectionInput {
    /// `passed`, `failed`, `waived` (say why in `notes`), `conditional` (accepted with a
    /// deviation, said in `notes`), or `pending` (a failed order goes back for another
    /// inspection; nothing is recorded).
    pub result: String,
    /// Units that passed (default: all, unless the result is `failed`).
    pub quantity_passed: Option<Decimal>,
    /// Units that failed (default: all when `failed`, else none).
    pub quantity_failed: Option<Decimal>,
    /// Why the failed units were rejected.
    #[graphql(directive = length::apply(QC_NOTES_MAX))]
    pub failure_reason: Option<String>,
    /// Notes.
    #[graphql(directive = length::apply(QC_NOTES_MAX))]
    pub notes: Option<String>,
    /// The defect found (not with `passed`).
    pub defect_reason_id: Option<i64>,
    /// The operation inspected (an in-process inspection while the order runs; on a
    /// complete order, the verdict is attributed to it).
    pub operation_id: Option<i64>,
    /// The measurements taken.
    pub measurements: Option<Vec<MeasurementInput>>,
}

/// What recording an inspection did.
#[derive(Debug, Clone, SimpleObject)]
pub struct QcRecorded {
    /// The order.
    pub production_order_id: i64,
    /// The order's code.
    pub production_order_code: String,
    /// The inspection appended (none for `pending`, which records nothing).
    pub inspection_id: Option<i64>,
    /// The inspection, whole.
    pub inspection: Option<InspectionRow>,
    /// The order's QC status now.
    pub qc_status: QcStatus,
    /// The order's QC notes.
    pub qc_notes: Option<String>,
    /// Who inspected the order last.
    pub qc_inspected_by: Option<i64>,
    /// When.
    pub qc_inspected_at: Option<Timestamp>,
    /// The defect recorded.
    pub defect_reason_id: Option<i64>,
    /// Whether the sales order moved on (to `ready_to_ship`).
    pub sales_order_updated: bool,
    /// The sales order's status after, when it moved.
    pub sales_order_status: Option<String>,
    /// What happened, for people.
    pub message: String,
    /// What the inspection gate found but let through (`warn`).
    pub warnings: Vec<String>,
}

fn not_allowed(field: &str, message: impl Into<String>) -> Stop {
    Stop::refuse(field, UserErrorCode::NotAllowed, message)
}

fn checked(input: &mut InspectionInput) -> Result<(), Stop> {
    let mut errors: Vec<UserError> = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, QC_NOTES_MAX);
    optional_text(
        &mut errors,
        "failureReason",
        &mut input.failure_reason,
        QC_NOTES_MAX,
    );
    for (field, q) in [
        ("quantityPassed", &input.quantity_passed),
        ("quantityFailed", &input.quantity_failed),
    ] {
        if q.as_ref().is_some_and(|q| q.0 < BigDecimal::zero()) {
            errors.push(invalid(field, "Input should be greater than or equal to 0"));
        }
    }
    for (i, m) in input.measurements.iter_mut().flatten().enumerate() {
        let at = |f: &str| format!("measurements.{i}.{f}");
        let mut name = Some(std::mem::take(&mut m.characteristic));
        text::required(
            &mut errors,
            &at("characteristic"),
            &mut name,
            true,
            CHARACTERISTIC_MAX,
        );
        m.characteristic = name.unwrap_or_default();
        optional_text(&mut errors, &at("unit"), &mut m.unit, UNIT_MAX);
        optional_text(
            &mut errors,
            &at("characteristicCode"),
            &mut m.characteristic_code,
            CODE_MAX,
        );
        if let (Some(lo), Some(hi)) = (&m.lower_limit, &m.upper_limit)
            && lo.0 > hi.0
        {
            errors.push(invalid(
                &at("lowerLimit"),
                "lower_limit cannot be greater than upper_limit",
            ));
        }
        if m.sequence.is_none() {
            m.sequence = Some(i32::try_from(i).unwrap_or(i32::MAX));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Stop::Refused(errors))
    }
}

/// What the plan's characteristics lack in these measurements: the names not answered and
/// the names out of specification (a variable outside the plan's limits, an attribute
/// answered "does not conform"). Empty when everything is shown.
pub fn plan_findings(
    characteristics: &[QualityCharacteristic],
    measurements: &[MeasurementInput],
) -> (Vec<String>, Vec<String>) {
    let mut missing = Vec::new();
    let mut failing = Vec::new();
    for c in characteristics {
        let answers: Vec<Option<bool>> = measurements
            .iter()
            .filter(|m| m.quality_plan_characteristic_id == Some(c.id))
            .map(|m| match c.characteristic_type {
                CharacteristicType::Attribute => m.conforms,
                CharacteristicType::Variable => m.measured_value.as_ref().map(|v| {
                    within(
                        Some(&v.0),
                        c.lower_limit.as_ref().map(|d| &d.0),
                        c.upper_limit.as_ref().map(|d| &d.0),
                    )
                    .unwrap_or(true)
                }),
            })
            .collect();
        let name = c.code.clone().unwrap_or_else(|| c.characteristic.clone());
        if answers.contains(&Some(false)) {
            failing.push(name);
        } else if !answers.contains(&Some(true)) {
            missing.push(name);
        }
    }
    (missing, failing)
}

/// The sentence the gate says about a plan's findings.
fn findings_message(plan_code: &str, missing: &[String], failing: &[String]) -> String {
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!(
            "{} unmeasured ({})",
            missing.len(),
            missing.join(", ")
        ));
    }
    if !failing.is_empty() {
        parts.push(format!(
            "{} out of spec/nonconforming ({})",
            failing.len(),
            failing.join(", ")
        ));
    }
    format!(
        "Inspection does not satisfy plan {plan_code}: {}",
        parts.join("; ")
    )
}

/// Checks a passing inspection against the product's active plan when the policy says so:
/// `Ok((plan id, findings))`, or the refusal in `block` mode.
async fn gate_on_plan(
    conn: &mut AsyncPgConnection,
    policy: &QualityPolicy,
    product_id: i64,
    routing_step: Option<Option<i64>>,
    measurements: &[MeasurementInput],
) -> Result<(Option<i64>, Vec<String>), Stop> {
    if !policy.plan_driven {
        return Ok((None, Vec::new()));
    }
    let Some(plan) = plans::active_for(conn, product_id).await? else {
        return Ok((None, Vec::new()));
    };
    let mut characteristics = plans::characteristics_of(conn, &[plan.id]).await?;
    // An operation's inspection answers the characteristics checked at its routing step;
    // the order's final inspection answers all of them.
    if let Some(step) = routing_step {
        characteristics
            .retain(|c| c.routing_operation_id.is_some() && c.routing_operation_id == step);
    }
    let (missing, failing) = plan_findings(&characteristics, measurements);
    if missing.is_empty() && failing.is_empty() || !policy.gate_enforced {
        return Ok((Some(plan.id), Vec::new()));
    }
    let message = findings_message(&plan.code, &missing, &failing);
    if policy.gate_action == QualityGateAction::Block {
        return Err(not_allowed("measurements", message));
    }
    Ok((Some(plan.id), vec![message]))
}

/// The plan characteristics (code, which product's plan) the measurements name; any that is
/// not a characteristic of this product's plans is refused.
async fn linked_characteristics(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    measurements: &[MeasurementInput],
) -> Result<Vec<(i64, Option<String>)>, Stop> {
    let ids: Vec<i64> = measurements
        .iter()
        .filter_map(|m| m.quality_plan_characteristic_id)
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let found: Vec<(i64, Option<String>)> = quality_plan_characteristics::table
        .inner_join(quality_plans::table)
        .filter(quality_plan_characteristics::id.eq_any(&ids))
        .filter(quality_plans::product_id.eq(product_id))
        .select((
            quality_plan_characteristics::id,
            quality_plan_characteristics::code,
        ))
        .load(conn)
        .await?;
    let mut unknown: Vec<i64> = ids
        .into_iter()
        .filter(|id| !found.iter().any(|(f, _)| f == id))
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    if !unknown.is_empty() {
        return Err(not_allowed(
            "measurements",
            format!(
                "quality_plan_characteristic_id(s) not found in this product's quality plans: {unknown:?}"
            ),
        ));
    }
    Ok(found)
}

/// Records an inspection of an order (see [`InspectionInput`]).
pub async fn record(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    mut input: InspectionInput,
    user: i64,
    passed_qc: SalesOrderPassedQc,
) -> Result<QcRecorded, Stop> {
    let result = input.result.trim().to_ascii_lowercase();
    if result == "pending" {
        let done = production::qc(conn, order_id, "pending", input.notes, user, passed_qc).await?;
        return Ok(QcRecorded {
            production_order_id: done.production_order_id,
            production_order_code: done.production_order_code,
            inspection_id: None,
            inspection: None,
            qc_status: done.qc_status,
            qc_notes: done.qc_notes,
            qc_inspected_by: done.qc_inspected_by,
            qc_inspected_at: done.qc_inspected_at,
            defect_reason_id: None,
            sales_order_updated: done.sales_order_updated,
            sales_order_status: done.sales_order_status,
            message: done.message,
            warnings: Vec::new(),
        });
    }
    let Ok(result) = InspectionResult::from_str(&result) else {
        return Err(not_allowed(
            "result",
            "QC result must be 'passed', 'failed', 'waived', 'conditional' or 'pending'",
        ));
    };
    checked(&mut input)?;
    if matches!(
        result,
        InspectionResult::Waived | InspectionResult::Conditional
    ) && input.notes.is_none()
    {
        return Err(Stop::Refused(vec![invalid(
            "notes",
            if result == InspectionResult::Waived {
                "Say why QC is waived"
            } else {
                "Say what deviation is accepted"
            },
        )]));
    }
    let order = model::lock(conn, order_id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Production order not found"))?;
    if let Some(d) = input.defect_reason_id {
        if result == InspectionResult::Passed {
            return Err(not_allowed(
                "defectReasonId",
                "A defect reason is recorded only when something failed, was waived or accepted with a deviation",
            ));
        }
        if !defects::find(conn, d).await?.is_some_and(|r| r.active) {
            return Err(not_allowed(
                "defectReasonId",
                format!("Defect reason {d} not found or inactive"),
            ));
        }
    }
    let operation = match input.operation_id {
        Some(op) => Some(
            production_order_operations::table
                .find(op)
                .filter(production_order_operations::production_order_id.eq(order_id))
                .select(production_order_operations::routing_operation_id)
                .first::<Option<i64>>(conn)
                .await
                .optional()?
                .ok_or_else(|| {
                    not_allowed(
                        "operationId",
                        format!(
                            "Operation {op} does not belong to production order {}",
                            order.code
                        ),
                    )
                })?,
        ),
        None => None,
    };
    let measurements = input.measurements.take().unwrap_or_default();
    let linked = linked_characteristics(conn, order.product_id, &measurements).await?;
    let policy = policy::current(conn).await?;
    let final_inspection = order.status == OrderStatus::Complete;
    let in_process = operation.is_some()
        && matches!(
            order.status,
            OrderStatus::Released | OrderStatus::InProgress
        );
    if !final_inspection && !in_process {
        return Err(not_allowed(
            "id",
            format!(
                "QC can only be recorded on a complete production order, or on an operation of a released or in-progress one (status is '{}')",
                order.status
            ),
        ));
    }
    let (plan_id, warnings) = if result == InspectionResult::Passed {
        let step = if final_inspection { None } else { operation };
        gate_on_plan(conn, &policy, order.product_id, step, &measurements).await?
    } else {
        (None, Vec::new())
    };
    // The order's verdict: a deviation accepted is a pass for the order.
    let (verdict, message) = if final_inspection {
        let to = match result {
            InspectionResult::Conditional => InspectionResult::Passed,
            other => other,
        };
        let notes = input.notes.clone();
        let done = production::qc(conn, order_id, to.as_ref(), notes, user, passed_qc).await?;
        (Some(done.clone()), done.message)
    } else {
        (
            None,
            format!(
                "Inspection of an operation of {} recorded: {result}",
                order.code
            ),
        )
    };
    let whole = if order.quantity_completed.0 > BigDecimal::zero() {
        order.quantity_completed.0.clone()
    } else {
        order.quantity_ordered.0.clone()
    };
    let (passed, failed) = match (
        input.quantity_passed.map(|d| d.0),
        input.quantity_failed.map(|d| d.0),
    ) {
        (None, None) if result == InspectionResult::Failed => (BigDecimal::zero(), whole),
        (None, None) => (whole, BigDecimal::zero()),
        (Some(p), None) => {
            let f = (&whole - &p).max(BigDecimal::zero());
            (p, f)
        }
        (None, Some(f)) => ((&whole - &f).max(BigDecimal::zero()), f),
        (Some(p), Some(f)) => (p, f),
    };
    let inspection: InspectionRow = diesel::insert_into(qc_inspections::table)
        .values((
            qc_inspections::production_order_id.eq(order_id),
            qc_inspections::production_operation_id.eq(input.operation_id),
            qc_inspections::result.eq(result),
            qc_inspections::quantity_passed.eq(Some(passed)),
            qc_inspections::quantity_failed.eq(Some(failed)),
            qc_inspections::failure_reason.eq(&input.failure_reason),
            qc_inspections::notes.eq(&input.notes),
            qc_inspections::defect_reason_id.eq(input.defect_reason_id),
            qc_inspections::quality_plan_id.eq(plan_id),
            qc_inspections::inspector_user_id.eq(Some(user)),
            qc_inspections::waiver_user_id.eq((result == InspectionResult::Waived).then_some(user)),
            qc_inspections::gate_findings.eq(&warnings),
        ))
        .returning(InspectionRow::as_returning())
        .get_result(conn)
        .await?;
    let rows: Vec<_> = measurements
        .into_iter()
        .map(|m| {
            let plan_code = m.quality_plan_characteristic_id.and_then(|id| {
                linked
                    .iter()
                    .find(|(c, _)| *c == id)
                    .and_then(|(_, code)| code.clone())
            });
            (
                qc_measurements::qc_inspection_id.eq(inspection.id),
                qc_measurements::quality_plan_characteristic_id
                    .eq(m.quality_plan_characteristic_id),
                qc_measurements::characteristic_code.eq(plan_code.or(m.characteristic_code)),
                qc_measurements::characteristic.eq(m.characteristic),
                qc_measurements::nominal.eq(m.nominal.map(|d| d.0)),
                qc_measurements::lower_limit.eq(m.lower_limit.map(|d| d.0)),
                qc_measurements::upper_limit.eq(m.upper_limit.map(|d| d.0)),
                qc_measurements::measured_value.eq(m.measured_value.map(|d| d.0)),
                qc_measurements::unit.eq(m.unit),
                qc_measurements::conforms.eq(m.conforms),
                qc_measurements::sequence.eq(m.sequence.unwrap_or(0)),
            )
        })
        .collect();
    if !rows.is_empty() {
        diesel::insert_into(qc_measurements::table)
            .values(rows)
            .execute(conn)
            .await?;
    }
    let order_now = match &verdict {
        Some(v) => v.order.clone(),
        None => order,
    };
    Ok(QcRecorded {
        production_order_id: order_now.id,
        production_order_code: order_now.code.clone(),
        inspection_id: Some(inspection.id),
        defect_reason_id: inspection.defect_reason_id,
        inspection: Some(inspection),
        qc_status: order_now.qc_status,
        qc_notes: order_now.qc_notes.clone(),
        qc_inspected_by: order_now.qc_inspected_by,
        qc_inspected_at: order_now.qc_inspected_at,
        sales_order_updated: verdict.as_ref().is_some_and(|v| v.sales_order_updated),
        sales_order_status: verdict.and_then(|v| v.sales_order_status),
        message,
        warnings,
    })
}
