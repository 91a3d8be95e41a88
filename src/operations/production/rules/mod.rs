//! Every rule of production: the status tables of CONTRACT 6.2 with their exact messages,
//! what creating, releasing, starting, completing, scrapping and inspecting an order does,
//! and how operations move. Postings go through the stock ledger
//! ([`crate::ledgers::inventory::ledger`]) and the general ledger ([`crate::ledgers::accounting::ledger`]) in
//! the caller's database transaction (DOMAIN "Postings"):
//!
//! - release: a `reservation` of each BOM component (no journal entry);
//! - start: a `consumption` of each component that is not filament, 1210 WIP / 1200 Raw;
//! - spool consumption: through [`crate::ledgers::spools::rules::consume`] (1210 WIP / 1200 Raw);
//! - completion: whatever was not consumed yet is backflushed from stock, then the finished
//!   goods are received at actual cost (the value in WIP for the order), 1220 FG / 1210 WIP,
//!   and the scrapped units' share goes to 5020 Scrap / 1210 WIP;
//! - scrap and cancel: the order's WIP value goes to 5020 Scrap / 1210 WIP and the
//!   reservations are released.

//!
//! By resource: [`orders`] (create, change, release, start, hold, cancel), [`completion`]
//! (spools, completion, serials, QC, scrap, split), [`operations`] (the routing steps of an
//! order) and [`work_centers`] (work centers and routings). Shared helpers and the status
//! tables are here.

use std::str::FromStr;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{
    NOTES_MAX, QUANTITY_SCALE, default_location, optional_text, today,
};
use crate::master_data::catalog::model::ItemType;
use crate::operations::bom::model::ConsumeStage;
use crate::operations::bom::tree::Tree;
use crate::operations::printers::model::PrinterStatus;
use crate::operations::production::model::{
    self, MaterialRow, NewMaterial, NewOperation, NewOrder, OperationRow, OperationStatus,
    OrderRow, OrderSource, OrderStatus, OrderType, QcStatus,
};
use crate::platform::db::schema::{
    inventory_transactions, items, printers, production_order_materials,
    production_order_operations, production_order_spools, production_orders, scrap_reasons,
    serial_numbers,
};
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Records a production scrap (the order, the operation when it was scrapped at one, the
/// reason's code, the units and the value written off to 5020 Scrap) for the quality
/// dashboard's scrap rate and cost by reason. Written in the scrap's own transaction.
pub(crate) async fn record_scrap(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    operation_id: Option<i64>,
    reason: Option<&str>,
    quantity: &BigDecimal,
    cost: &BigDecimal,
    user: Option<i64>,
) -> Result<(), Stop> {
    use crate::platform::db::schema::scrap_records;
    diesel::insert_into(scrap_records::table)
        .values((
            scrap_records::production_order_id.eq(order_id),
            scrap_records::production_operation_id.eq(operation_id),
            scrap_records::reason_code.eq(reason),
            scrap_records::quantity.eq(quantity.with_scale_round(4, RoundingMode::HalfUp)),
            scrap_records::total_cost.eq(cost.with_scale_round(2, RoundingMode::HalfUp)),
            scrap_records::created_by.eq(user),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// Longest QC note (CONTRACT 5.12).
pub const QC_NOTES_MAX: usize = 2000;
/// Longest assignee.
pub const ASSIGNEE_MAX: usize = 255;

use crate::platform::graphql::user_error::invalid;

fn not_allowed(message: impl Into<String>) -> Stop {
    Stop::Refused(vec![UserError::general(UserErrorCode::NotAllowed, message)])
}

fn now() -> DateTime<Utc> {
    Utc::now()
}

/// The statuses an order may move to from `from` (CONTRACT 6.2, with NEW's `short`).
pub fn allowed_transitions(from: OrderStatus) -> &'static [OrderStatus] {
    use OrderStatus::*;
    match from {
        Draft => &[Released, Cancelled],
        Released => &[InProgress, OnHold, Cancelled, Split],
        InProgress => &[OnHold, Complete, Cancelled, Split, Short],
        OnHold => &[Released, InProgress, Cancelled],
        Short => &[Complete, Cancelled],
        Complete | Cancelled | Split | Scrapped => &[],
    }
}

/// `Invalid production order status transition: 'X' -> 'Y'. Allowed: [...]` (or
/// `none (terminal state)`), or `None` when the move is allowed.
pub fn transition_error(from: OrderStatus, to: OrderStatus) -> Option<String> {
    let allowed = allowed_transitions(from);
    if allowed.contains(&to) {
        return None;
    }
    let list = crate::platform::graphql::flow::allowed_list(allowed);
    Some(format!(
        "Invalid production order status transition: '{from}' -> '{to}'. Allowed: {list}"
    ))
}

fn check_transition(from: OrderStatus, to: OrderStatus) -> Result<(), Stop> {
    match transition_error(from, to) {
        Some(message) => Err(not_allowed(message)),
        None => Ok(()),
    }
}

/// The statuses an operation may move to (CONTRACT 6.2).
pub fn operation_transitions(from: OperationStatus) -> &'static [OperationStatus] {
    use OperationStatus::*;
    match from {
        Pending => &[Queued, Skipped],
        Queued => &[Running, Skipped],
        Running => &[Complete, Queued],
        Complete | Skipped => &[],
    }
}

/// `Invalid operation status transition: 'X' -> 'Y'. Allowed: [...]`, or `None`.
pub fn operation_transition_error(from: OperationStatus, to: OperationStatus) -> Option<String> {
    let allowed = operation_transitions(from);
    if allowed.contains(&to) {
        return None;
    }
    let list = crate::platform::graphql::flow::allowed_list(allowed);
    Some(format!(
        "Invalid operation status transition: '{from}' -> '{to}'. Allowed: {list}"
    ))
}

/// QC may move from `from` to `to` (CONTRACT 6.2: pending -> passed, failed or waived;
/// failed -> pending). A failed order may also be re-inspected straight to passed or failed
/// (the unit was reworked and checked again).
pub fn qc_transition_allowed(from: QcStatus, to: QcStatus) -> bool {
    matches!(
        (from, to),
        (
            QcStatus::Pending,
            QcStatus::Passed | QcStatus::Failed | QcStatus::Waived
        ) | (
            QcStatus::Failed,
            QcStatus::Pending | QcStatus::Passed | QcStatus::Failed
        )
    )
}

/// Units left to make: none once the order is closed (complete, also short or with units
/// scrapped, cancelled, scrapped, split: what is still wanted is another order's).
pub fn quantity_remaining(order: &OrderRow) -> BigDecimal {
    if matches!(
        order.status,
        OrderStatus::Complete | OrderStatus::Cancelled | OrderStatus::Scrapped | OrderStatus::Split
    ) {
        return BigDecimal::zero();
    }
    let left = &order.quantity_ordered.0 - &order.quantity_completed.0;
    if left < BigDecimal::zero() {
        BigDecimal::zero()
    } else {
        left
    }
}

/// Completed share of the ordered quantity, in percent, one decimal.
pub fn completion_percent(order: &OrderRow) -> f64 {
    if order.quantity_ordered.0 <= BigDecimal::zero() {
        return 0.0;
    }
    let pct = (&order.quantity_completed.0 * BigDecimal::from(100) / &order.quantity_ordered.0)
        .with_scale_round(1, RoundingMode::HalfUp);
    pct.to_string().parse().unwrap_or(0.0)
}

/// Actual over planned minutes, in percent (planned / actual × 100: above 100 is faster than
/// planned), when the operation has actual minutes.
pub fn efficiency_percent(op: &OperationRow) -> Option<f64> {
    let planned = &op.planned_setup_minutes.0 + &op.planned_run_minutes.0;
    let actual = op
        .actual_setup_minutes
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default()
        + op.actual_run_minutes
            .as_ref()
            .map(|d| d.0.clone())
            .unwrap_or_default();
    if actual <= BigDecimal::zero() || planned <= BigDecimal::zero() {
        return None;
    }
    let pct = (planned * BigDecimal::from(100) / actual).with_scale_round(1, RoundingMode::HalfUp);
    pct.to_string().parse().ok()
}

/// A serial number `BLB-YYYYMMDD-NNNN` (CONTRACT 6.7) from a sequence value.
pub fn serial_number(date: NaiveDate, n: i64) -> String {
    format!(
        "BLB-{:04}{:02}{:02}-{n:04}",
        date.year(),
        date.month(),
        date.day()
    )
}

mod completion;
mod operations;
mod orders;
mod rework;
mod work_centers;

pub use completion::*;
pub use operations::*;
pub use orders::*;
pub use rework::*;
pub use work_centers::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_follow_the_contract() {
        assert!(transition_error(OrderStatus::Draft, OrderStatus::Released).is_none());
        assert_eq!(
            transition_error(OrderStatus::Draft, OrderStatus::Complete).unwrap(),
            "Invalid production order status transition: 'draft' -> 'complete'. Allowed: ['released', 'cancelled']"
        );
        assert_eq!(
            transition_error(OrderStatus::Complete, OrderStatus::Released).unwrap(),
            "Invalid production order status transition: 'complete' -> 'released'. Allowed: none (terminal state)"
        );
        assert!(
            operation_transition_error(OperationStatus::Running, OperationStatus::Queued).is_none()
        );
        assert!(
            operation_transition_error(OperationStatus::Pending, OperationStatus::Running)
                .is_some()
        );
        assert!(qc_transition_allowed(QcStatus::Failed, QcStatus::Pending));
        assert!(!qc_transition_allowed(QcStatus::Passed, QcStatus::Failed));
        assert!(qc_transition_allowed(QcStatus::Failed, QcStatus::Passed));
        assert!(!qc_transition_allowed(QcStatus::Failed, QcStatus::Waived));
        assert_eq!(
            serial_number(NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(), 7),
            "BLB-20261124-0007"
        );
    }
}
