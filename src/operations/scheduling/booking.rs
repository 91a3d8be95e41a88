//! Booking operations on machines: move one (another time, printer or resource), take one
//! off the schedule, place one at the next free time, auto-schedule one order or the whole
//! shop. Every write checks the engine's rules against the machine's current bookings and
//! maintenance windows, its work center's hours, the routing's order and the material, and
//! runs under one advisory lock, so two requests never book the same time twice.

use std::collections::HashMap;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, ToPrimitive};
use chrono::{DateTime, Duration, Timelike, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::{OperationStatus, OrderStatus};
use crate::operations::scheduling::engine::{self, BusyKind, Job, JobOp, LaneKey, Refusal, Span};
use crate::operations::scheduling::lanes::{self, FINISHED, Shop};
use crate::platform::db::schema::{
    printers, production_order_operations, production_orders, resources,
};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Timestamp;

/// Minutes an operation takes when its routing says nothing (FilaOps's default).
pub const DEFAULT_MINUTES: i64 = 120;

/// One advisory lock for every booking write: bookings are rare and must never overlap.
const BOOKING_LOCK: i64 = 0x5343_4845_4455; // "SCHEDU"

/// Takes the booking lock for the rest of the transaction.
pub async fn lock_bookings(conn: &mut AsyncPgConnection) -> AppResult<()> {
    diesel::sql_query(format!("SELECT pg_advisory_xact_lock({BOOKING_LOCK})"))
        .execute(conn)
        .await?;
    Ok(())
}

/// An operation as booking needs it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = production_order_operations, check_for_backend(diesel::pg::Pg))]
pub struct OpRow {
    /// Id.
    pub id: i64,
    /// Its order.
    pub production_order_id: i64,
    /// Routing order.
    pub sequence: i32,
    /// Work center.
    pub work_center_id: i64,
    /// Status.
    pub status: OperationStatus,
    /// Booked printer.
    pub printer_id: Option<i64>,
    /// Booked resource.
    pub resource_id: Option<i64>,
    /// Booked start.
    pub scheduled_start: Option<DateTime<Utc>>,
    /// Booked end.
    pub scheduled_end: Option<DateTime<Utc>>,
    /// Planned set-up minutes.
    pub planned_setup_minutes: BigDecimal,
    /// Planned run minutes.
    pub planned_run_minutes: BigDecimal,
    /// Code.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
}

impl OpRow {
    fn minutes(v: &BigDecimal) -> i64 {
        v.to_f64().map(|m| m.ceil() as i64).unwrap_or(0).max(0)
    }

    /// Set-up plus run minutes, or the default when the routing gives none.
    pub fn duration_minutes(&self) -> i64 {
        let total =
            Self::minutes(&self.planned_setup_minutes) + Self::minutes(&self.planned_run_minutes);
        if total > 0 { total } else { DEFAULT_MINUTES }
    }

    /// The machine it is booked on.
    pub fn lane(&self) -> Option<LaneKey> {
        self.printer_id
            .map(LaneKey::Printer)
            .or(self.resource_id.map(LaneKey::Resource))
    }

    /// Not started yet: it may be moved.
    pub fn movable(&self) -> bool {
        matches!(
            self.status,
            OperationStatus::Pending | OperationStatus::Queued
        )
    }
}

/// An order's operations in routing order, locked for the transaction.
pub async fn lock_order_ops(conn: &mut AsyncPgConnection, order_id: i64) -> AppResult<Vec<OpRow>> {
    Ok(production_order_operations::table
        .filter(production_order_operations::production_order_id.eq(order_id))
        .order((
            production_order_operations::sequence,
            production_order_operations::id,
        ))
        .for_update()
        .select(OpRow::as_select())
        .load(conn)
        .await?)
}

/// The operation of an order (404s in FilaOps's words).
pub async fn op_of(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
) -> AppResult<(OpRow, Vec<OpRow>)> {
    let exists: Option<i64> = production_orders::table
        .find(order_id)
        .select(production_orders::id)
        .first(conn)
        .await
        .optional()?;
    if exists.is_none() {
        return Err(AppError::not_found("Production order not found"));
    }
    let ops = lock_order_ops(conn, order_id).await?;
    match ops.iter().find(|o| o.id == op_id) {
        Some(op) => Ok((op.clone(), ops)),
        None => {
            let elsewhere: Option<i64> = production_order_operations::table
                .find(op_id)
                .select(production_order_operations::id)
                .first(conn)
                .await
                .optional()?;
            Err(AppError::not_found(match elsewhere {
                Some(_) => {
                    format!("Operation {op_id} does not belong to production order {order_id}")
                }
                None => "Operation not found".to_string(),
            }))
        }
    }
}

/// Checks a printer or resource exists (404 otherwise).
pub async fn machine_exists(conn: &mut AsyncPgConnection, key: LaneKey) -> AppResult<()> {
    let found: Option<i64> = match key {
        LaneKey::Printer(id) => printers::table
            .find(id)
            .select(printers::id)
            .first(conn)
            .await
            .optional()?,
        LaneKey::Resource(id) => resources::table
            .find(id)
            .select(resources::id)
            .first(conn)
            .await
            .optional()?,
    };
    match (found, key) {
        (Some(_), _) => Ok(()),
        (None, LaneKey::Printer(_)) => Err(AppError::not_found("Printer not found")),
        (None, LaneKey::Resource(_)) => Err(AppError::not_found("Resource not found")),
    }
}

/// The latest end of the unfinished operations before `op` in its routing, or the sequence
/// of one that is not booked yet.
pub fn predecessor_end(op: &OpRow, siblings: &[OpRow]) -> Result<Option<DateTime<Utc>>, i32> {
    let mut end = None;
    for s in siblings
        .iter()
        .filter(|s| s.sequence < op.sequence && s.id != op.id && !FINISHED.contains(&s.status))
    {
        match s.scheduled_end {
            Some(e) => end = end.max(Some(e)),
            None => return Err(s.sequence),
        }
    }
    Ok(end)
}

/// An operation on a machine, as conflicts report it.
#[derive(Debug, Clone, SimpleObject)]
pub struct ConflictingOperation {
    /// The operation.
    pub operation_id: i64,
    /// Its order.
    pub production_order_id: i64,
    /// The order's code.
    pub production_order_code: Option<String>,
    /// The operation's code.
    pub operation_code: Option<String>,
    /// Booked start.
    pub scheduled_start: Option<Timestamp>,
    /// Booked end.
    pub scheduled_end: Option<Timestamp>,
}

/// Conflicting operations with their orders' codes.
pub async fn describe_conflicts(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<ConflictingOperation>> {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        i64,
        i64,
        String,
        String,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
    )> = production_order_operations::table
        .inner_join(production_orders::table)
        .filter(production_order_operations::id.eq_any(ids))
        .order(production_order_operations::scheduled_start)
        .select((
            production_order_operations::id,
            production_orders::id,
            production_orders::code,
            production_order_operations::operation_code,
            production_order_operations::scheduled_start,
            production_order_operations::scheduled_end,
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(
            |(id, order, code, op_code, start, end)| ConflictingOperation {
                operation_id: id,
                production_order_id: order,
                production_order_code: Some(code),
                operation_code: Some(op_code),
                scheduled_start: start.map(Timestamp),
                scheduled_end: end.map(Timestamp),
            },
        )
        .collect())
}

/// A later operation a move would overtake.
#[derive(Debug, Clone, SimpleObject)]
pub struct SuccessorConflict {
    /// The operation.
    pub operation_id: i64,
    /// Its code.
    pub operation_code: Option<String>,
    /// Its name.
    pub operation_name: Option<String>,
    /// Its routing order.
    pub sequence: i32,
    /// Its booked start.
    pub scheduled_start: Option<Timestamp>,
    /// The soonest it could start now (the moved operation's new end).
    pub earliest_valid_start: Option<Timestamp>,
}

/// Where to move an operation (FilaOps's `RescheduleRequest`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct RescheduleInput {
    /// The printer or resource (default: where it is booked now).
    pub resource_id: Option<i64>,
    /// `resourceId` is a printer (default false).
    pub is_printer: Option<bool>,
    /// The new start (default: its booked start).
    pub scheduled_start: Option<Timestamp>,
    /// The new end (default: start plus set-up and run minutes, 120 without them).
    pub scheduled_end: Option<Timestamp>,
}

/// What a move did or why it was refused (FilaOps's `RescheduleResponse`; a refusal is an
/// answer, not an error, so the board can show it on the bar).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct RescheduleResult {
    /// Moved.
    pub success: bool,
    /// The operation.
    pub operation_id: Option<i64>,
    /// Its start now.
    pub scheduled_start: Option<Timestamp>,
    /// Its end now.
    pub scheduled_end: Option<Timestamp>,
    /// Why it was refused, for people.
    pub message: Option<String>,
    /// Operations in the way.
    pub conflicts: Vec<ConflictingOperation>,
    /// `resource` (another booking), `maintenance`, `predecessor`, `successor`, `hours`
    /// (outside the work center's hours) or `compatibility` (work center or material).
    pub conflict_type: Option<String>,
    /// The soonest a predecessor allows.
    pub earliest_valid_start: Option<Timestamp>,
    /// The next free slot on that machine.
    pub next_available_start: Option<Timestamp>,
    /// Its end.
    pub next_available_end: Option<Timestamp>,
    /// Later operations the move would overtake.
    pub successor_conflicts: Vec<SuccessorConflict>,
}

/// How far ahead a free slot is looked for.
const SEARCH_DAYS: i64 = 60;

/// Loads the shop around a span (the search window for free slots included).
pub async fn shop_around(
    conn: &mut AsyncPgConnection,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> AppResult<Shop> {
    let window = Span::new(from - Duration::days(1), to + Duration::days(SEARCH_DAYS))
        .ok_or_else(|| AppError::internal("empty window"))?;
    lanes::load(conn, window).await
}

fn refusal_kind(r: &Refusal) -> &'static str {
    match r {
        Refusal::Overlap { .. } => "resource",
        Refusal::Maintenance { .. } => "maintenance",
        Refusal::BeforePredecessor { .. } => "predecessor",
        Refusal::OutsideHours => "hours",
        Refusal::WrongWorkCenter | Refusal::Incompatible(_) => "compatibility",
    }
}

/// Moves an operation, or answers why it cannot move there.
pub async fn reschedule(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    input: RescheduleInput,
) -> AppResult<RescheduleResult> {
    lock_bookings(conn).await?;
    let (op, siblings) = op_of(conn, order_id, op_id).await?;
    if !op.movable() {
        return Err(AppError::bad_request(format!(
            "Operation {op_id} has status '{}'; only pending/queued operations can be rescheduled",
            op.status
        )));
    }
    if input.resource_id.is_none() && input.scheduled_start.is_none() {
        return Err(AppError::bad_request(
            "Provide at least one of resource_id or scheduled_start",
        ));
    }
    let lane = match input.resource_id {
        Some(id) => lanes::key(id, input.is_printer.unwrap_or(false)),
        None => op.lane().ok_or_else(|| {
            AppError::bad_request("Operation has no current resource; provide resource_id")
        })?,
    };
    machine_exists(conn, lane).await?;
    let start = match (&input.scheduled_start, op.scheduled_start) {
        (Some(s), _) => s.0,
        (None, Some(s)) => s,
        (None, None) => {
            return Err(AppError::bad_request(
                "Operation has no current start time; provide scheduled_start",
            ));
        }
    };
    let end = input
        .scheduled_end
        .map(|e| e.0)
        .unwrap_or(start + Duration::minutes(op.duration_minutes()));
    let span = Span::new(start, end).ok_or_else(|| {
        AppError::invalid_field(
            "scheduled_end",
            "scheduled_end must be after scheduled_start",
        )
    })?;
    let shop = shop_around(conn, start, end).await?;
    let target = shop
        .lane(lane)
        .ok_or_else(|| AppError::bad_request("That machine is inactive"))?;
    let needs = lanes::order_needs(conn, &[order_id])
        .await?
        .remove(&order_id)
        .unwrap_or_default();
    let needs = lanes::needs_on(&shop, op.work_center_id, &needs);
    let predecessor = predecessor_end(&op, &siblings);
    let refusals = engine::check_booking(
        target,
        span,
        op.work_center_id,
        &needs,
        predecessor.ok().flatten(),
        Some(op.id),
    );
    if let Err(sequence) = predecessor {
        return Ok(RescheduleResult {
            message: Some(format!(
                "Operation {sequence} before it is not scheduled yet"
            )),
            conflict_type: Some("predecessor".into()),
            ..Default::default()
        });
    }
    if !refusals.is_empty() {
        let after = predecessor.ok().flatten().map_or(start, |p| p.max(start));
        return refused(conn, target, &op, &refusals, after, start).await;
    }
    let overtaken = overtaken_by(&op, &siblings, end);
    if !overtaken.is_empty() {
        return Ok(RescheduleResult {
            message: Some(format!(
                "Moving this operation would violate {} successor operation(s) that are already scheduled",
                overtaken.len()
            )),
            conflict_type: Some("successor".into()),
            successor_conflicts: overtaken,
            ..Default::default()
        });
    }
    book(conn, op.id, lane, span).await?;
    Ok(RescheduleResult {
        success: true,
        operation_id: Some(op.id),
        scheduled_start: Some(Timestamp(span.start)),
        scheduled_end: Some(Timestamp(span.end)),
        ..Default::default()
    })
}

/// Writes one booking (a pending operation becomes queued) and the order's envelope.
pub async fn book(
    conn: &mut AsyncPgConnection,
    op_id: i64,
    lane: LaneKey,
    span: Span,
) -> AppResult<()> {
    let (printer, resource) = match lane {
        LaneKey::Printer(id) => (Some(id), None),
        LaneKey::Resource(id) => (None, Some(id)),
    };
    let order: i64 = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::printer_id.eq(printer),
            production_order_operations::resource_id.eq(resource),
            production_order_operations::scheduled_start.eq(span.start),
            production_order_operations::scheduled_end.eq(span.end),
            production_order_operations::status.eq(diesel::dsl::sql::<diesel::sql_types::Text>(
                "CASE WHEN status = 'pending' THEN 'queued' ELSE status END",
            )),
        ))
        .returning(production_order_operations::production_order_id)
        .get_result(conn)
        .await?;
    envelopes(conn, &[order]).await
}

/// Sets each order's scheduled start and end to its booked operations' first start and last end.
pub async fn envelopes(conn: &mut AsyncPgConnection, orders: &[i64]) -> AppResult<()> {
    diesel::sql_query(
        "UPDATE production_orders o SET scheduled_start = b.s, scheduled_end = b.e \
         FROM (SELECT production_order_id, min(scheduled_start) AS s, max(scheduled_end) AS e \
               FROM production_order_operations WHERE production_order_id = ANY($1) GROUP BY production_order_id) b \
         WHERE o.id = b.production_order_id",
    )
    .bind::<diesel::sql_types::Array<diesel::sql_types::BigInt>, _>(orders)
    .execute(conn)
    .await?;
    Ok(())
}

/// What taking an operation off the schedule did.
#[derive(Debug, Clone, SimpleObject)]
pub struct UnscheduleResult {
    /// Done.
    pub success: bool,
    /// The operation.
    pub operation_id: i64,
    /// What happened, for people.
    pub message: String,
}

/// Takes an operation off the schedule: no machine, no times, pending again.
pub async fn unschedule(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
) -> AppResult<UnscheduleResult> {
    lock_bookings(conn).await?;
    let (op, _) = op_of(conn, order_id, op_id).await?;
    if !op.movable() {
        return Err(AppError::bad_request(format!(
            "Operation {op_id} has status '{}'; only pending/queued operations can be unscheduled",
            op.status
        )));
    }
    diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::printer_id.eq(None::<i64>),
            production_order_operations::resource_id.eq(None::<i64>),
            production_order_operations::scheduled_start.eq(None::<DateTime<Utc>>),
            production_order_operations::scheduled_end.eq(None::<DateTime<Utc>>),
            production_order_operations::status.eq(OperationStatus::Pending),
        ))
        .execute(conn)
        .await?;
    envelopes(conn, &[order_id]).await?;
    Ok(UnscheduleResult {
        success: true,
        operation_id: op_id,
        message: format!(
            "Operation {} ({}) unscheduled; returned to pending",
            op.sequence, op.operation_code
        ),
    })
}

/// Orders whose operations may be scheduled.
pub const SCHEDULABLE: [OrderStatus; 2] = [OrderStatus::Released, OrderStatus::InProgress];

/// The jobs to place: each schedulable order's unbooked, unfinished operations from the
/// first unbooked one on, not before its booked predecessors end.
pub async fn jobs(
    conn: &mut AsyncPgConnection,
    shop: &Shop,
    only: Option<i64>,
    now: DateTime<Utc>,
) -> AppResult<Vec<Job>> {
    let mut q = production_orders::table
        .filter(production_orders::status.eq_any(SCHEDULABLE))
        .into_boxed();
    if let Some(id) = only {
        q = q.filter(production_orders::id.eq(id));
    }
    let orders: Vec<(i64, String, i32, Option<chrono::NaiveDate>)> = q
        .select((
            production_orders::id,
            production_orders::code,
            production_orders::priority,
            production_orders::due_date,
        ))
        .load(conn)
        .await?;
    let ids: Vec<i64> = orders.iter().map(|o| o.0).collect();
    let ops: Vec<OpRow> = production_order_operations::table
        .filter(production_order_operations::production_order_id.eq_any(&ids))
        .filter(production_order_operations::status.ne_all(FINISHED))
        .order((
            production_order_operations::production_order_id,
            production_order_operations::sequence,
        ))
        .select(OpRow::as_select())
        .load(conn)
        .await?;
    let needs = lanes::order_needs(conn, &ids).await?;
    let mut by_order: HashMap<i64, Vec<OpRow>> = HashMap::new();
    for op in ops {
        by_order.entry(op.production_order_id).or_default().push(op);
    }
    let mut out = Vec::new();
    for (id, code, priority, due) in orders {
        let ops = by_order.remove(&id).unwrap_or_default();
        let Some(first) = ops.iter().position(|o| o.scheduled_start.is_none()) else {
            continue;
        };
        let booked_end = ops.iter().take(first).filter_map(|o| o.scheduled_end).max();
        let order_needs = needs.get(&id).cloned().unwrap_or_default();
        out.push(Job {
            order_id: id,
            code,
            priority,
            due: due
                .and_then(|d| d.and_hms_opt(23, 59, 59))
                .map(|d| d.and_utc()),
            not_before: booked_end.map_or(now, |e| e.max(now)),
            ops: ops
                .get(first..)
                .unwrap_or_default()
                .iter()
                .map(|o| {
                    let setup = OpRow::minutes(&o.planned_setup_minutes);
                    let run = OpRow::minutes(&o.planned_run_minutes);
                    // Without routing times an operation takes the default, like a move.
                    let run = if setup + run == 0 {
                        DEFAULT_MINUTES
                    } else {
                        run
                    };
                    JobOp {
                        op_id: o.id,
                        sequence: o.sequence,
                        work_center_id: o.work_center_id,
                        setup_minutes: setup,
                        run_minutes: run,
                        needs: lanes::needs_on(shop, o.work_center_id, &order_needs),
                        setup_key: order_needs.1.clone(),
                    }
                })
                .collect(),
        });
    }
    Ok(out)
}

/// Rounds up to the next quarter hour (bookings start on a 15-minute grid).
pub fn next_quarter(t: DateTime<Utc>) -> DateTime<Utc> {
    let t = t
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(t);
    let over = i64::from(t.minute() % 15);
    if over == 0 {
        t
    } else {
        t + Duration::minutes(15 - over)
    }
}

/// Writes many bookings in one statement (pending operations become queued).
pub async fn book_all(conn: &mut AsyncPgConnection, bookings: &[engine::Booking]) -> AppResult<()> {
    use diesel::sql_types::{Array, BigInt, Nullable, Timestamptz};
    if bookings.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = bookings.iter().map(|b| b.op_id).collect();
    let printer: Vec<Option<i64>> = bookings
        .iter()
        .map(|b| match b.lane {
            LaneKey::Printer(id) => Some(id),
            LaneKey::Resource(_) => None,
        })
        .collect();
    let resource: Vec<Option<i64>> = bookings
        .iter()
        .map(|b| match b.lane {
            LaneKey::Resource(id) => Some(id),
            LaneKey::Printer(_) => None,
        })
        .collect();
    let starts: Vec<DateTime<Utc>> = bookings.iter().map(|b| b.span.start).collect();
    let ends: Vec<DateTime<Utc>> = bookings.iter().map(|b| b.span.end).collect();
    diesel::sql_query(
        "UPDATE production_order_operations o SET printer_id = v.p, resource_id = v.r, \
         scheduled_start = v.s, scheduled_end = v.e, \
         status = CASE WHEN o.status = 'pending' THEN 'queued' ELSE o.status END \
         FROM unnest($1, $2, $3, $4, $5) AS v(id, p, r, s, e) WHERE o.id = v.id",
    )
    .bind::<Array<BigInt>, _>(&ids)
    .bind::<Array<Nullable<BigInt>>, _>(&printer)
    .bind::<Array<Nullable<BigInt>>, _>(&resource)
    .bind::<Array<Timestamptz>, _>(&starts)
    .bind::<Array<Timestamptz>, _>(&ends)
    .execute(conn)
    .await?;
    let mut orders: Vec<i64> = bookings.iter().map(|b| b.order_id).collect();
    orders.sort_unstable();
    orders.dedup();
    envelopes(conn, &orders).await
}

/// The operations booked on a lane in the shop, for describing what is in the way.
pub fn operations_on(shop: &Shop, lane: LaneKey) -> Vec<i64> {
    shop.lane(lane)
        .map(|l| {
            l.busy
                .iter()
                .filter_map(|b| match b.kind {
                    BusyKind::Operation { op_id, .. } => Some(op_id),
                    BusyKind::Maintenance { .. } => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The answer to a refused move: every reason, the operations in the way and the next free
/// slot on that machine from `after`.
async fn refused(
    conn: &mut AsyncPgConnection,
    target: &engine::Lane,
    op: &OpRow,
    refusals: &[Refusal],
    after: DateTime<Utc>,
    start: DateTime<Utc>,
) -> AppResult<RescheduleResult> {
    let next = engine::earliest_fit(
        target,
        after,
        op.duration_minutes(),
        start + Duration::days(SEARCH_DAYS),
        Some(op.id),
    );
    let overlapping: Vec<i64> = refusals
        .iter()
        .filter_map(|r| match r {
            Refusal::Overlap { op_id, .. } => Some(*op_id),
            _ => None,
        })
        .collect();
    let earliest = refusals.iter().find_map(|r| match r {
        Refusal::BeforePredecessor { earliest } => Some(Timestamp(*earliest)),
        _ => None,
    });
    Ok(RescheduleResult {
        message: Some(
            refusals
                .iter()
                .map(Refusal::message)
                .collect::<Vec<_>>()
                .join("; "),
        ),
        conflicts: describe_conflicts(conn, &overlapping).await?,
        conflict_type: <[_]>::first(refusals).map(|r| refusal_kind(r).into()),
        earliest_valid_start: earliest,
        next_available_start: next.map(|s| Timestamp(s.start)),
        next_available_end: next.map(|s| Timestamp(s.end)),
        ..Default::default()
    })
}

/// The later operations of the routing already booked to start before `end`.
fn overtaken_by(op: &OpRow, siblings: &[OpRow], end: DateTime<Utc>) -> Vec<SuccessorConflict> {
    siblings
        .iter()
        .filter(|s| s.sequence > op.sequence && !FINISHED.contains(&s.status))
        .filter(|s| s.scheduled_start.is_some_and(|st| st < end))
        .map(|s| SuccessorConflict {
            operation_id: s.id,
            operation_code: Some(s.operation_code.clone()),
            operation_name: Some(s.operation_name.clone()),
            sequence: s.sequence,
            scheduled_start: s.scheduled_start.map(Timestamp),
            earliest_valid_start: Some(Timestamp(end)),
        })
        .collect()
}
