//! Auto-scheduling one order or the whole shop with the engine's finite-capacity heuristic,
//! and committing a dispatch suggestion (one operation on one printer, now), with the same
//! rules as every other booking.

use async_graphql::{InputObject, SimpleObject};
use chrono::{Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::printers::model::PrinterStatus;
use crate::operations::scheduling::booking::{self, lock_bookings};
use crate::operations::scheduling::engine::{self, LaneKey, Span};
use crate::operations::scheduling::lanes;
use crate::platform::db::schema::{printers, production_orders};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Timestamp;

/// What to auto-schedule.
#[derive(Debug, Clone, Default, InputObject)]
pub struct AutoScheduleInput {
    /// One order (FilaOps's `order_id`); without it, every released or in-progress order.
    pub order_id: Option<i64>,
    /// Start no earlier than this (default now; rounded up to the quarter hour).
    pub preferred_start: Option<Timestamp>,
    /// Days ahead to fill (1-90, default 14).
    pub horizon_days: Option<i32>,
}

/// An operation that could not be placed, and why.
#[derive(Debug, Clone, SimpleObject)]
pub struct UnplacedOperation {
    /// The operation.
    pub operation_id: i64,
    /// Why, for people.
    pub reason: String,
}

/// One order's planned finish against its due date.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderPlan {
    /// The order.
    pub order_id: i64,
    /// Its code.
    pub order_code: String,
    /// When its last booked operation ends.
    pub planned_finish: Option<Timestamp>,
    /// Its due date.
    pub due_date: Option<NaiveDate>,
    /// Finishes after its due date, or some operation could not be placed.
    pub late: bool,
    /// Operations not placed.
    pub unplaced: Vec<UnplacedOperation>,
}

/// What an auto-schedule did. For one order the first booking is also given in FilaOps's
/// shape (`order_id`, `resource_id`, `scheduled_start`...).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct AutoScheduleResult {
    /// Operations booked.
    pub scheduled_operations: i32,
    /// Each order considered, in scheduling order.
    pub orders: Vec<OrderPlan>,
    /// How many of them are late.
    pub late_orders: i32,
    /// The order (one-order runs).
    pub order_id: Option<i64>,
    /// Its code.
    pub order_code: Option<String>,
    /// The machine of its first booking.
    pub resource_id: Option<i64>,
    /// That machine is a printer.
    pub is_printer: Option<bool>,
    /// Its code.
    pub resource_code: Option<String>,
    /// Its name.
    pub resource_name: Option<String>,
    /// The order's first booked start.
    pub scheduled_start: Option<Timestamp>,
    /// The order's last booked end.
    pub scheduled_end: Option<Timestamp>,
}

/// Auto-schedules and writes the bookings. One order that cannot be placed at all is a 409
/// with the reason (FilaOps's answer).
pub async fn auto_schedule(
    conn: &mut AsyncPgConnection,
    input: AutoScheduleInput,
) -> AppResult<AutoScheduleResult> {
    let days = input.horizon_days.unwrap_or(14);
    if !(1..=90).contains(&days) {
        return Err(AppError::invalid_field(
            "horizon_days",
            "horizon_days must be between 1 and 90",
        ));
    }
    lock_bookings(conn).await?;
    if let Some(id) = input.order_id {
        let found: Option<i64> = production_orders::table
            .find(id)
            .select(production_orders::id)
            .first(conn)
            .await
            .optional()?;
        if found.is_none() {
            return Err(AppError::not_found("Production order not found"));
        }
    }
    let now = booking::next_quarter(
        input
            .preferred_start
            .map_or_else(Utc::now, |p| p.0.max(Utc::now())),
    );
    let horizon_end = now + Duration::days(i64::from(days));
    let window = Span::new(now - Duration::days(1), horizon_end)
        .ok_or_else(|| AppError::internal("empty horizon"))?;
    let shop = lanes::load(conn, window).await?;
    let jobs = booking::jobs(conn, &shop, input.order_id, now).await?;
    let plan = engine::auto_schedule(&shop.lanes, &jobs, now, horizon_end);
    booking::book_all(conn, &plan.bookings).await?;
    let orders: Vec<OrderPlan> = plan
        .outcomes
        .iter()
        .map(|o| OrderPlan {
            order_id: o.order_id,
            order_code: o.code.clone(),
            planned_finish: o.planned_finish.map(Timestamp),
            due_date: o.due.map(|d| d.date_naive()),
            late: o.late,
            unplaced: o
                .unplaced
                .iter()
                .map(|(id, reason)| UnplacedOperation {
                    operation_id: *id,
                    reason: reason.clone(),
                })
                .collect(),
        })
        .collect();
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    let mut result = AutoScheduleResult {
        scheduled_operations: count(plan.bookings.len()),
        late_orders: count(orders.iter().filter(|o| o.late).count()),
        orders,
        ..Default::default()
    };
    if let Some(id) = input.order_id {
        let mine: Vec<&engine::Booking> =
            plan.bookings.iter().filter(|b| b.order_id == id).collect();
        let Some(first) = <[_]>::first(&mine) else {
            let reason = plan
                .outcomes
                .iter()
                .find(|o| o.order_id == id)
                .and_then(|o| <[_]>::first(&o.unplaced).map(|u| u.1.clone()))
                .unwrap_or_else(|| "The order has no operations left to schedule".into());
            return Err(AppError::conflict(reason));
        };
        let info = shop.info.get(&first.lane);
        let (machine, is_printer) = match first.lane {
            LaneKey::Printer(p) => (p, true),
            LaneKey::Resource(r) => (r, false),
        };
        result.order_id = Some(id);
        result.order_code = plan
            .outcomes
            .iter()
            .find(|o| o.order_id == id)
            .map(|o| o.code.clone());
        result.resource_id = Some(machine);
        result.is_printer = Some(is_printer);
        result.resource_code = info.map(|i| i.code.clone());
        result.resource_name = info.map(|i| i.name.clone());
        result.scheduled_start = Some(Timestamp(first.span.start));
        result.scheduled_end = mine.iter().map(|b| b.span.end).max().map(Timestamp);
    }
    Ok(result)
}

/// A committed dispatch (FilaOps's `AssignResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct DispatchAssignment {
    /// The operation.
    pub operation_id: i64,
    /// The printer.
    pub printer_id: i64,
    /// Its code.
    pub printer_code: String,
    /// The order's code.
    pub production_order_code: String,
    /// Booked start (now).
    pub scheduled_start: Timestamp,
    /// Booked end.
    pub scheduled_end: Timestamp,
    /// The operation's status now (`queued`: on a printer, not started).
    pub operation_status: String,
}

/// Books an operation on a printer from now, with every booking rule (409 when one fails).
pub async fn assign(
    conn: &mut AsyncPgConnection,
    operation_id: i64,
    printer_id: i64,
) -> AppResult<DispatchAssignment> {
    lock_bookings(conn).await?;
    let order_id: i64 = crate::platform::db::schema::production_order_operations::table
        .find(operation_id)
        .select(crate::platform::db::schema::production_order_operations::production_order_id)
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::bad_request(format!("Operation {operation_id} not found")))?;
    let (op, siblings) = booking::op_of(conn, order_id, operation_id).await?;
    if !op.movable() {
        return Err(AppError::bad_request(format!(
            "Operation {operation_id} is '{}', not pending",
            op.status
        )));
    }
    let printer: Option<(String, PrinterStatus)> = printers::table
        .find(printer_id)
        .select((printers::code, printers::status))
        .first(conn)
        .await
        .optional()?;
    let Some((printer_code, status)) = printer else {
        return Err(AppError::bad_request(format!(
            "Printer {printer_id} not found"
        )));
    };
    if status == PrinterStatus::Maintenance {
        return Err(AppError::bad_request(format!(
            "Printer {printer_code} is in maintenance"
        )));
    }
    let now = Utc::now();
    let span = Span::new(now, now + Duration::minutes(op.duration_minutes()))
        .ok_or_else(|| AppError::internal("empty span"))?;
    let shop = booking::shop_around(conn, span.start, span.end).await?;
    let lane = shop
        .lane(LaneKey::Printer(printer_id))
        .ok_or_else(|| AppError::bad_request(format!("Printer {printer_code} is inactive")))?;
    let needs = lanes::order_needs(conn, &[order_id])
        .await?
        .remove(&order_id)
        .unwrap_or_default();
    let needs = lanes::needs_on(&shop, op.work_center_id, &needs);
    let predecessor = booking::predecessor_end(&op, &siblings).map_err(|seq| {
        AppError::conflict(format!("Operation {seq} before it is not scheduled yet"))
    })?;
    let refusals = engine::check_booking(
        lane,
        span,
        op.work_center_id,
        &needs,
        predecessor,
        Some(op.id),
    );
    if !refusals.is_empty() {
        return Err(AppError::conflict(
            refusals
                .iter()
                .map(engine::Refusal::message)
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    booking::book(conn, op.id, LaneKey::Printer(printer_id), span).await?;
    let code: String = production_orders::table
        .find(order_id)
        .select(production_orders::code)
        .first(conn)
        .await?;
    Ok(DispatchAssignment {
        operation_id,
        printer_id,
        printer_code,
        production_order_code: code,
        scheduled_start: Timestamp(span.start),
        scheduled_end: Timestamp(span.end),
        operation_status: "queued".into(),
    })
}
