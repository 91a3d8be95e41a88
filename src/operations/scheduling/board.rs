//! Reading the schedule: the board a Gantt view draws in one request (lanes per machine
//! with their bookings, maintenance windows and utilisation, and the queue of orders not yet
//! scheduled), and the capacity questions FilaOps's scheduler asks (is this time free, which
//! gaps are free, what is in the way, when is the next free slot). A handful of statements
//! whatever the size of the window.

use std::collections::HashMap;

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::{OperationStatus, OrderStatus};
use crate::operations::scheduling::booking::{self, SCHEDULABLE};
use crate::operations::scheduling::engine::{self, BusyKind, LaneKey, Span};
use crate::operations::scheduling::lanes::{self, FINISHED};
use crate::platform::db::schema::{items, production_order_operations, production_orders};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::{Decimal, Timestamp};

/// A booked operation on the board.
#[derive(Debug, Clone, SimpleObject)]
pub struct BoardOperation {
    /// The operation.
    pub id: i64,
    /// Its code.
    pub operation_code: String,
    /// Its name.
    pub operation_name: String,
    /// Routing order.
    pub sequence: i32,
    /// Its status.
    pub status: OperationStatus,
    /// Booked start.
    pub scheduled_start: Timestamp,
    /// Booked end.
    pub scheduled_end: Timestamp,
    /// Planned set-up minutes.
    pub planned_setup_minutes: Decimal,
    /// Planned run minutes.
    pub planned_run_minutes: Decimal,
    /// Its order.
    pub production_order_id: i64,
    /// The order's code.
    pub production_order_code: String,
    /// The order's status (bars are coloured by it).
    pub production_order_status: OrderStatus,
    /// The product.
    pub product_name: String,
    /// The order's quantity.
    pub quantity: Decimal,
    /// The order's due date.
    pub due_date: Option<NaiveDate>,
    /// It ends after the order's due date.
    pub late: bool,
}

/// A maintenance window on the board.
#[derive(Debug, Clone, SimpleObject)]
pub struct BoardWindow {
    /// The window.
    pub id: i64,
    /// Start.
    pub starts_at: Timestamp,
    /// End.
    pub ends_at: Timestamp,
    /// Why.
    pub reason: Option<String>,
    /// scheduled or in_progress.
    pub status: String,
}

/// One machine's lane.
#[derive(Debug, Clone, SimpleObject)]
pub struct BoardLane {
    /// `printer-{id}` or `resource-{id}`.
    pub key: String,
    /// `printer` or `resource`.
    pub kind: String,
    /// The printer's or resource's id.
    pub id: i64,
    /// Code.
    pub code: String,
    /// Name.
    pub name: String,
    /// Status.
    pub status: String,
    /// Its work center's code.
    pub work_center_code: Option<String>,
    /// Share of the window taken by bookings (0-100, one decimal).
    pub utilization_percent: f64,
    /// Bookings in the window, by start.
    pub operations: Vec<BoardOperation>,
    /// Blocking maintenance windows in the window.
    pub windows: Vec<BoardWindow>,
}

/// The first operation of a queued order, what the scheduler dialog needs.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(name = "BoardQueuedOperation")]
pub struct QueuedOperation {
    /// The operation.
    pub id: i64,
    /// Code.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Routing order.
    pub sequence: i32,
    /// Status.
    pub status: OperationStatus,
    /// Planned set-up minutes.
    pub planned_setup_minutes: Decimal,
    /// Planned run minutes.
    pub planned_run_minutes: Decimal,
}

/// An order with operations not yet booked.
#[derive(Debug, Clone, SimpleObject)]
pub struct UnscheduledOrder {
    /// The order.
    pub production_order_id: i64,
    /// Its code.
    pub production_order_code: String,
    /// Its status.
    pub production_order_status: OrderStatus,
    /// The product.
    pub product_name: String,
    /// Quantity.
    pub quantity: Decimal,
    /// 1 (most urgent) to 5.
    pub priority: i32,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// Operations not booked.
    pub unscheduled_operation_count: i32,
    /// The first of them.
    pub first_unscheduled_operation: QueuedOperation,
}

/// The board for a window.
#[derive(Debug, Clone, SimpleObject)]
pub struct Board {
    /// Window start.
    pub start: Timestamp,
    /// Window end.
    pub end: Timestamp,
    /// Printers, then resources, by code.
    pub lanes: Vec<BoardLane>,
    /// Orders waiting for a booking, most urgent first.
    pub unscheduled: Vec<UnscheduledOrder>,
}

type OpLine = (
    (
        i64,
        String,
        String,
        i32,
        OperationStatus,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        BigDecimal,
        BigDecimal,
    ),
    (i64, String, OrderStatus, BigDecimal, Option<NaiveDate>, i32),
    String,
    (Option<i64>, Option<i64>),
);

async fn operations(
    conn: &mut AsyncPgConnection,
    window: Option<Span>,
    unbooked: bool,
) -> AppResult<Vec<OpLine>> {
    let mut q = production_order_operations::table
        .inner_join(production_orders::table.inner_join(items::table))
        .filter(production_order_operations::status.ne_all(FINISHED))
        .into_boxed();
    if let Some(w) = window {
        q = q
            .filter(production_order_operations::scheduled_start.lt(w.end))
            .filter(production_order_operations::scheduled_end.gt(w.start));
    }
    if unbooked {
        q = q
            .filter(production_order_operations::scheduled_start.is_null())
            .filter(production_orders::status.eq_any(SCHEDULABLE));
    }
    Ok(q.order((
        production_orders::priority,
        production_orders::due_date.asc().nulls_last(),
        production_orders::id,
        production_order_operations::sequence,
    ))
    .select((
        (
            production_order_operations::id,
            production_order_operations::operation_code,
            production_order_operations::operation_name,
            production_order_operations::sequence,
            production_order_operations::status,
            production_order_operations::scheduled_start,
            production_order_operations::scheduled_end,
            production_order_operations::planned_setup_minutes,
            production_order_operations::planned_run_minutes,
        ),
        (
            production_orders::id,
            production_orders::code,
            production_orders::status,
            production_orders::quantity_ordered,
            production_orders::due_date,
            production_orders::priority,
        ),
        items::name,
        (
            production_order_operations::printer_id,
            production_order_operations::resource_id,
        ),
    ))
    .load(conn)
    .await?)
}

/// The board from `start` to `end` (at most 92 days).
pub async fn board(
    conn: &mut AsyncPgConnection,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
) -> AppResult<Board> {
    let window = Span::new(start, end)
        .ok_or_else(|| AppError::invalid_field("end_date", "end_date must be after start_date"))?;
    if window.end - window.start > Duration::days(92) {
        return Err(AppError::invalid_field(
            "end_date",
            "The window can be at most 92 days",
        ));
    }
    let shop = lanes::load(conn, window).await?;
    let mut by_lane: HashMap<LaneKey, Vec<BoardOperation>> = HashMap::new();
    for (
        (id, code, name, sequence, status, s, e, setup, run),
        (order, order_code, order_status, qty, due, _),
        product,
        (printer, resource),
    ) in operations(conn, Some(window), false).await?
    {
        let (Some(lane), Some(s), Some(e)) = (
            printer
                .map(LaneKey::Printer)
                .or(resource.map(LaneKey::Resource)),
            s,
            e,
        ) else {
            continue;
        };
        let late = due
            .and_then(|d| d.and_hms_opt(23, 59, 59))
            .is_some_and(|d| e > d.and_utc());
        by_lane.entry(lane).or_default().push(BoardOperation {
            id,
            operation_code: code,
            operation_name: name,
            sequence,
            status,
            scheduled_start: Timestamp(s),
            scheduled_end: Timestamp(e),
            planned_setup_minutes: Decimal(setup),
            planned_run_minutes: Decimal(run),
            production_order_id: order,
            production_order_code: order_code,
            production_order_status: order_status,
            product_name: product,
            quantity: Decimal(qty),
            due_date: due,
            late,
        });
    }
    let windows = windows_in(conn, window).await?;
    let mut lanes_out = Vec::new();
    for lane in &shop.lanes {
        let Some(info) = shop.info.get(&lane.key) else {
            continue;
        };
        let (kind, id) = match lane.key {
            LaneKey::Printer(id) => ("printer", id),
            LaneKey::Resource(id) => ("resource", id),
        };
        let mut ops = by_lane.remove(&lane.key).unwrap_or_default();
        ops.sort_by_key(|o| o.scheduled_start.0);
        lanes_out.push(BoardLane {
            key: format!("{kind}-{id}"),
            kind: kind.into(),
            id,
            code: info.code.clone(),
            name: info.name.clone(),
            status: info.status.clone(),
            work_center_code: info.work_center_code.clone(),
            utilization_percent: engine::utilisation_percent(lane, window),
            operations: ops,
            windows: windows.get(&lane.key).cloned().unwrap_or_default(),
        });
    }
    Ok(Board {
        start: Timestamp(start),
        end: Timestamp(end),
        lanes: lanes_out,
        unscheduled: queue(conn).await?,
    })
}

async fn windows_in(
    conn: &mut AsyncPgConnection,
    window: Span,
) -> AppResult<HashMap<LaneKey, Vec<BoardWindow>>> {
    let mut out: HashMap<LaneKey, Vec<BoardWindow>> = HashMap::new();
    for w in lanes::blocking_windows(conn, window).await? {
        let (id, printer, resource, s, e, reason, status) = (
            w.id,
            w.printer_id,
            w.resource_id,
            w.starts_at.0,
            w.ends_at.0,
            w.reason,
            w.status.to_string(),
        );
        if let Some(lane) = printer
            .map(LaneKey::Printer)
            .or(resource.map(LaneKey::Resource))
        {
            out.entry(lane).or_default().push(BoardWindow {
                id,
                starts_at: Timestamp(s),
                ends_at: Timestamp(e),
                reason,
                status,
            });
        }
    }
    Ok(out)
}

/// Released and in-progress orders with operations not booked, most urgent first.
async fn queue(conn: &mut AsyncPgConnection) -> AppResult<Vec<UnscheduledOrder>> {
    let mut out: Vec<UnscheduledOrder> = Vec::new();
    for (
        (id, code, name, sequence, status, _, _, setup, run),
        (order, order_code, order_status, qty, due, priority),
        product,
        _,
    ) in operations(conn, None, true).await?
    {
        if let Some(last) = out.last_mut().filter(|o| o.production_order_id == order) {
            last.unscheduled_operation_count += 1;
            continue;
        }
        out.push(UnscheduledOrder {
            production_order_id: order,
            production_order_code: order_code,
            production_order_status: order_status,
            product_name: product,
            quantity: Decimal(qty),
            priority,
            due_date: due,
            unscheduled_operation_count: 1,
            first_unscheduled_operation: QueuedOperation {
                id,
                operation_code: code,
                operation_name: name,
                sequence,
                status,
                planned_setup_minutes: Decimal(setup),
                planned_run_minutes: Decimal(run),
            },
        });
    }
    Ok(out)
}

/// Something in the way of a proposed booking (FilaOps's `ConflictInfo`).
#[derive(Debug, Clone, SimpleObject)]
pub struct CapacityConflict {
    /// `operation` or `maintenance`.
    #[graphql(name = "type")]
    pub kind: String,
    /// The operation's order.
    pub order_id: Option<i64>,
    /// Its code.
    pub order_code: Option<String>,
    /// The operation.
    pub operation_id: Option<i64>,
    /// Its code (or the window's reason).
    pub operation_code: Option<String>,
    /// The maintenance window.
    pub window_id: Option<i64>,
    /// Start.
    pub start_time: Timestamp,
    /// End.
    pub end_time: Timestamp,
    /// The product (or the window's reason).
    pub product_name: String,
}

/// Whether a machine is free for a span (FilaOps's `CapacityCheckResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct CapacityCheck {
    /// The machine.
    pub resource_id: i64,
    /// Its code.
    pub resource_code: String,
    /// Its name.
    pub resource_name: String,
    /// Start asked.
    pub start_time: Timestamp,
    /// End asked.
    pub end_time: Timestamp,
    /// Nothing in the way and inside working hours.
    pub has_capacity: bool,
    /// The span lies inside the work center's hours.
    pub within_working_hours: bool,
    /// What is in the way.
    pub conflicts: Vec<CapacityConflict>,
}

/// What is in the way on a machine between `start` and `end`.
pub async fn conflicts(
    conn: &mut AsyncPgConnection,
    machine: LaneKey,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    exclude_op: Option<i64>,
) -> AppResult<(CapacityCheck, lanes::Shop)> {
    booking::machine_exists(conn, machine).await?;
    let span = Span::new(start, end)
        .ok_or_else(|| AppError::invalid_field("end_time", "end_time must be after start_time"))?;
    let shop = booking::shop_around(conn, start, end).await?;
    let info = shop.info.get(&machine).cloned();
    let lane = shop.lane(machine);
    let mut out = Vec::new();
    let mut op_ids = Vec::new();
    for busy in lane
        .map(|l| l.busy.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|b| b.span.overlaps(&span))
    {
        match &busy.kind {
            BusyKind::Operation { op_id, .. } if Some(*op_id) != exclude_op => op_ids.push(*op_id),
            BusyKind::Maintenance { window_id } => out.push(CapacityConflict {
                kind: "maintenance".into(),
                order_id: None,
                order_code: None,
                operation_id: None,
                operation_code: Some("Scheduled downtime".into()),
                window_id: Some(*window_id),
                start_time: Timestamp(busy.span.start),
                end_time: Timestamp(busy.span.end),
                product_name: "Scheduled downtime".into(),
            }),
            BusyKind::Operation { .. } => {}
        }
    }
    let products = products_of(conn, &op_ids).await?;
    for c in booking::describe_conflicts(conn, &op_ids).await? {
        out.push(CapacityConflict {
            kind: "operation".into(),
            order_id: Some(c.production_order_id),
            product_name: products
                .get(&c.operation_id)
                .cloned()
                .unwrap_or_else(|| "N/A".into()),
            order_code: c.production_order_code,
            operation_id: Some(c.operation_id),
            operation_code: c.operation_code,
            window_id: None,
            start_time: c.scheduled_start.unwrap_or(Timestamp(start)),
            end_time: c.scheduled_end.unwrap_or(Timestamp(end)),
        });
    }
    out.sort_by_key(|c| c.start_time.0);
    let within = lane.is_some_and(|l| l.calendar.contains(span));
    let id = match machine {
        LaneKey::Printer(id) | LaneKey::Resource(id) => id,
    };
    Ok((
        CapacityCheck {
            resource_id: id,
            resource_code: info.as_ref().map(|i| i.code.clone()).unwrap_or_default(),
            resource_name: info.map(|i| i.name).unwrap_or_default(),
            start_time: Timestamp(start),
            end_time: Timestamp(end),
            has_capacity: out.is_empty() && within,
            within_working_hours: within,
            conflicts: out,
        },
        shop,
    ))
}

async fn products_of(
    conn: &mut AsyncPgConnection,
    op_ids: &[i64],
) -> AppResult<HashMap<i64, String>> {
    let rows: Vec<(i64, String)> = production_order_operations::table
        .inner_join(production_orders::table.inner_join(items::table))
        .filter(production_order_operations::id.eq_any(op_ids))
        .select((production_order_operations::id, items::name))
        .load(conn)
        .await?;
    Ok(rows.into_iter().collect())
}

/// A free gap on a machine.
#[derive(Debug, Clone, SimpleObject)]
pub struct FreeSlot {
    /// Start.
    pub start_time: Timestamp,
    /// End.
    pub end_time: Timestamp,
    /// Length in hours.
    pub duration_hours: f64,
}

/// Free gaps of at least `hours` on a machine (inside working hours, not booked, not in
/// maintenance).
pub async fn free_slots(
    conn: &mut AsyncPgConnection,
    machine: LaneKey,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    hours: f64,
) -> AppResult<Vec<FreeSlot>> {
    booking::machine_exists(conn, machine).await?;
    let window = Span::new(start, end)
        .ok_or_else(|| AppError::invalid_field("end_date", "end_date must be after start_date"))?;
    if !(0.0..=24.0 * 92.0).contains(&hours) {
        return Err(AppError::invalid_field(
            "duration_hours",
            "duration_hours must be between 0 and 2208",
        ));
    }
    let shop = lanes::load(conn, window).await?;
    let Some(lane) = shop.lane(machine) else {
        return Ok(Vec::new());
    };
    let minutes = (hours * 60.0).ceil() as i64;
    Ok(engine::free_slots(lane, window, minutes.max(1))
        .into_iter()
        .map(|s| FreeSlot {
            start_time: Timestamp(s.start),
            end_time: Timestamp(s.end),
            duration_hours: s.minutes() as f64 / 60.0,
        })
        .collect())
}

/// The next free slot (FilaOps's `NextAvailableSlotResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct NextSlot {
    /// Its start.
    pub next_available: Timestamp,
    /// Its end (start plus the duration asked).
    pub suggested_end: Timestamp,
}

/// The first free slot of `minutes` on a machine at or after `after` (default now), within 60 days.
pub async fn next_slot(
    conn: &mut AsyncPgConnection,
    machine: LaneKey,
    minutes: i64,
    after: Option<DateTime<Utc>>,
) -> AppResult<NextSlot> {
    booking::machine_exists(conn, machine).await?;
    if !(1..=60 * 24 * 60).contains(&minutes) {
        return Err(AppError::invalid_field(
            "duration_minutes",
            "duration_minutes must be between 1 and 86400",
        ));
    }
    let after = after.unwrap_or_else(Utc::now);
    let shop = booking::shop_around(conn, after, after).await?;
    let lane = shop
        .lane(machine)
        .ok_or_else(|| AppError::bad_request("That machine is inactive"))?;
    let slot = engine::earliest_fit(lane, after, minutes, after + Duration::days(60), None)
        .ok_or_else(|| AppError::conflict("No free slot in the next 60 days"))?;
    Ok(NextSlot {
        next_available: Timestamp(slot.start),
        suggested_end: Timestamp(slot.end),
    })
}

/// A resource's bookings (FilaOps's `ResourceScheduleResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct ResourceSchedule {
    /// The resource.
    pub resource_id: i64,
    /// Its code.
    pub resource_code: Option<String>,
    /// Its name.
    pub resource_name: Option<String>,
    /// Its bookings, by start.
    pub operations: Vec<ResourceBooking>,
}

/// One booking of a resource.
#[derive(Debug, Clone, SimpleObject)]
pub struct ResourceBooking {
    /// The operation.
    pub operation_id: i64,
    /// Its order.
    pub production_order_id: i64,
    /// The order's code.
    pub production_order_code: Option<String>,
    /// The operation's code.
    pub operation_code: Option<String>,
    /// Its name.
    pub operation_name: Option<String>,
    /// Start.
    pub scheduled_start: Option<Timestamp>,
    /// End.
    pub scheduled_end: Option<Timestamp>,
    /// Status.
    pub status: OperationStatus,
}

/// A resource's bookings ending after `start` and starting before `end` (both optional).
pub async fn resource_schedule(
    conn: &mut AsyncPgConnection,
    resource_id: i64,
    start: Option<DateTime<Utc>>,
    end: Option<DateTime<Utc>>,
) -> AppResult<ResourceSchedule> {
    use crate::platform::db::schema::resources;
    let found: Option<(String, String)> = resources::table
        .find(resource_id)
        .select((resources::code, resources::name))
        .first(conn)
        .await
        .optional()?;
    let Some((code, name)) = found else {
        return Err(AppError::not_found("Resource not found"));
    };
    let mut q = production_order_operations::table
        .inner_join(production_orders::table)
        .filter(production_order_operations::resource_id.eq(resource_id))
        .filter(production_order_operations::scheduled_start.is_not_null())
        .into_boxed();
    if let Some(s) = start {
        q = q.filter(production_order_operations::scheduled_end.gt(s));
    }
    if let Some(e) = end {
        q = q.filter(production_order_operations::scheduled_start.lt(e));
    }
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        i64,
        i64,
        String,
        String,
        String,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        OperationStatus,
    )> = q
        .order(production_order_operations::scheduled_start)
        .select((
            production_order_operations::id,
            production_orders::id,
            production_orders::code,
            production_order_operations::operation_code,
            production_order_operations::operation_name,
            production_order_operations::scheduled_start,
            production_order_operations::scheduled_end,
            production_order_operations::status,
        ))
        .load(conn)
        .await?;
    Ok(ResourceSchedule {
        resource_id,
        resource_code: Some(code),
        resource_name: Some(name),
        operations: rows
            .into_iter()
            .map(
                |(id, order, order_code, op_code, op_name, s, e, status)| ResourceBooking {
                    operation_id: id,
                    production_order_id: order,
                    production_order_code: Some(order_code),
                    operation_code: Some(op_code),
                    operation_name: Some(op_name),
                    scheduled_start: s.map(Timestamp),
                    scheduled_end: e.map(Timestamp),
                    status,
                },
            )
            .collect(),
    })
}

/// What is in the way on a resource (FilaOps's `ConflictCheckResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct ResourceConflictCheck {
    /// Anything is in the way.
    pub has_conflicts: bool,
    /// Operations in the way.
    pub conflicts: Vec<booking::ConflictingOperation>,
    /// Maintenance windows in the way.
    pub maintenance_windows: Vec<BoardWindow>,
}

/// Operations (but `exclude_op`) and maintenance windows on a resource between two instants.
pub async fn resource_conflicts(
    conn: &mut AsyncPgConnection,
    resource_id: i64,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    exclude_op: Option<i64>,
) -> AppResult<ResourceConflictCheck> {
    let (check, _) =
        conflicts(conn, LaneKey::Resource(resource_id), start, end, exclude_op).await?;
    let ops: Vec<i64> = check
        .conflicts
        .iter()
        .filter_map(|c| c.operation_id)
        .collect();
    let window = Span::new(start, end)
        .ok_or_else(|| AppError::invalid_field("end", "end must be after start"))?;
    let windows = windows_in(conn, window)
        .await?
        .remove(&LaneKey::Resource(resource_id))
        .unwrap_or_default();
    let conflicts = booking::describe_conflicts(conn, &ops).await?;
    Ok(ResourceConflictCheck {
        has_conflicts: !conflicts.is_empty() || !windows.is_empty(),
        conflicts,
        maintenance_windows: windows,
    })
}

/// A resource's availability over a window (FilaOps's `MachineAvailabilityResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct MachineAvailability {
    /// The resource.
    pub resource_id: i64,
    /// Its code.
    pub resource_code: String,
    /// Its name.
    pub resource_name: String,
    /// Its work center.
    pub work_center_id: i64,
    /// The work center's code.
    pub work_center_code: Option<String>,
    /// Its status.
    pub status: String,
    /// Hours in the window.
    pub total_hours: f64,
    /// Hours booked (overlaps once).
    pub scheduled_hours: f64,
    /// Hours neither booked nor in maintenance.
    pub available_hours: f64,
    /// Booked share of the window (0-100).
    pub utilization_percent: f64,
    /// Orders with a booking on it.
    pub scheduled_order_count: i32,
}

/// Every active resource's availability (of one work center when asked) over a window.
pub async fn machine_availability(
    conn: &mut AsyncPgConnection,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    work_center_id: Option<i64>,
) -> AppResult<Vec<MachineAvailability>> {
    let window = Span::new(start, end)
        .ok_or_else(|| AppError::invalid_field("end_date", "end_date must be after start_date"))?;
    let shop = lanes::load(conn, window).await?;
    let total = window.minutes() as f64 / 60.0;
    let mut out = Vec::new();
    for lane in &shop.lanes {
        let (LaneKey::Resource(id), Some(info)) = (lane.key, shop.info.get(&lane.key)) else {
            continue;
        };
        if work_center_id.is_some() && info.work_center_id != work_center_id {
            continue;
        }
        let utilisation = engine::utilisation_percent(lane, window);
        let free: i64 = engine::free_slots(lane, window, 1)
            .iter()
            .map(Span::minutes)
            .sum();
        let mut orders: Vec<i64> = lane
            .busy
            .iter()
            .filter_map(|b| match b.kind {
                BusyKind::Operation { order_id, .. } => Some(order_id),
                BusyKind::Maintenance { .. } => None,
            })
            .collect();
        orders.sort_unstable();
        orders.dedup();
        out.push(MachineAvailability {
            resource_id: id,
            resource_code: info.code.clone(),
            resource_name: info.name.clone(),
            work_center_id: info.work_center_id.unwrap_or_default(),
            work_center_code: info.work_center_code.clone(),
            status: info.status.clone(),
            total_hours: total,
            scheduled_hours: total * utilisation / 100.0,
            available_hours: free as f64 / 60.0,
            utilization_percent: utilisation,
            scheduled_order_count: i32::try_from(orders.len()).unwrap_or(i32::MAX),
        });
    }
    Ok(out)
}
