//! Maintenance windows: planned downtime of one printer or one resource, which the scheduler
//! treats as busy time. The row (which is also the GraphQL `MaintenanceWindow`), its closed
//! set of statuses, the inputs and the queries. Rules are in `rules/windows.rs`.

use async_graphql::{InputObject, SimpleObject};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::printers::maintenance::MaintenanceType;
use crate::operations::scheduling::model::{CLOSED_ORDER, OPEN_OPERATION};
use crate::operations::scheduling::rules::{PERFORMED_BY_MAX, REASON_MAX};
use crate::platform::db::paging;
use crate::platform::db::schema::{
    maintenance_windows, production_order_operations, production_orders,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Where a maintenance window stands.
    pub enum MaintenanceWindowStatus {
        /// Planned (the default).
        Scheduled,
        /// Under way.
        InProgress,
        /// Done (a printer's window wrote a maintenance log).
        Completed,
        /// Called off.
        Cancelled,
    }
}

/// The statuses of a window that still blocks its machine.
pub const BLOCKING: [MaintenanceWindowStatus; 2] = [
    MaintenanceWindowStatus::Scheduled,
    MaintenanceWindowStatus::InProgress,
];

/// Planned downtime of one printer or one resource: the stored row, served as is.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = maintenance_windows, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "MaintenanceWindow")]
pub struct MaintenanceWindowRow {
    /// Id.
    pub id: i64,
    /// The printer it blocks (or null when it blocks a resource).
    pub printer_id: Option<i64>,
    /// The resource it blocks (or null when it blocks a printer).
    pub resource_id: Option<i64>,
    /// When the machine goes down.
    pub starts_at: Timestamp,
    /// When the machine is back (after `startsAt`).
    pub ends_at: Timestamp,
    /// Why the machine is down.
    pub reason: Option<String>,
    /// Where it stands.
    pub status: MaintenanceWindowStatus,
    /// The maintenance log written when a printer's window was completed.
    pub maintenance_log_id: Option<i64>,
    /// The e-mail of the user who planned it.
    pub created_by: Option<String>,
    /// Planned.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// A maintenance window to plan: exactly one of `printerId` and `resourceId`.
#[derive(Debug, Clone, InputObject)]
pub struct MaintenanceWindowCreateInput {
    /// The printer to take down (not with `resourceId`).
    pub printer_id: Option<i64>,
    /// The resource to take down (not with `printerId`).
    pub resource_id: Option<i64>,
    /// When the machine goes down.
    pub starts_at: Timestamp,
    /// When the machine is back (after `startsAt`).
    pub ends_at: Timestamp,
    /// Why the machine is down (up to 255 characters).
    #[graphql(directive = length::apply(REASON_MAX))]
    pub reason: Option<String>,
}

/// What completing a window records on the printer's maintenance log (a resource's window
/// just closes).
#[derive(Debug, Clone, Default, InputObject)]
pub struct MaintenanceWindowCompleteInput {
    /// What kind of maintenance (default routine).
    pub maintenance_type: Option<MaintenanceType>,
    /// Who did it (up to 100 characters; default: the e-mail of the user completing it).
    #[graphql(directive = length::apply(PERFORMED_BY_MAX))]
    pub performed_by: Option<String>,
    /// When it is due again (after the time it was performed).
    pub next_due_at: Option<Timestamp>,
    /// What it cost (at least 0, at most two decimals).
    pub cost: Option<Decimal>,
    /// Notes.
    #[graphql(directive = length::apply(crate::operations::printers::rules::NOTES_MAX))]
    pub notes: Option<String>,
}

/// How maintenance windows are listed (by start, then id).
#[derive(Debug, Clone, Default)]
pub struct WindowFilter {
    /// Only this printer's windows.
    pub printer_id: Option<i64>,
    /// Only this resource's windows.
    pub resource_id: Option<i64>,
    /// Only windows ending after this time.
    pub start: Option<DateTime<Utc>>,
    /// Only windows starting before this time.
    pub end: Option<DateTime<Utc>>,
    /// Completed and cancelled windows too (otherwise only the blocking ones).
    pub include_finished: bool,
}

/// One page of maintenance windows and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &WindowFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<MaintenanceWindowRow>, i64)> {
    let build = || {
        let mut q = maintenance_windows::table
            .select((MaintenanceWindowRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(p) = filter.printer_id {
            q = q.filter(maintenance_windows::printer_id.eq(p));
        }
        if let Some(r) = filter.resource_id {
            q = q.filter(maintenance_windows::resource_id.eq(r));
        }
        if !filter.include_finished {
            q = q.filter(maintenance_windows::status.eq_any(BLOCKING));
        }
        if let Some(s) = filter.start {
            q = q.filter(maintenance_windows::ends_at.gt(s));
        }
        if let Some(e) = filter.end {
            q = q.filter(maintenance_windows::starts_at.lt(e));
        }
        q.order((maintenance_windows::starts_at, maintenance_windows::id))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The window with this id, locked for the rest of the transaction (`None` when there is
/// none).
pub async fn lock(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Option<MaintenanceWindowRow>> {
    Ok(maintenance_windows::table
        .find(id)
        .select(MaintenanceWindowRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?)
}

/// The machine a window blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Machine {
    /// A printer, by id.
    Printer(i64),
    /// A resource, by id.
    Resource(i64),
}

/// The first blocking window of a machine that overlaps `[starts, ends)`.
pub async fn first_overlap(
    conn: &mut AsyncPgConnection,
    machine: Machine,
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
) -> AppResult<Option<MaintenanceWindowRow>> {
    let mut q = maintenance_windows::table
        .select(MaintenanceWindowRow::as_select())
        .filter(maintenance_windows::status.eq_any(BLOCKING))
        .filter(maintenance_windows::starts_at.lt(ends))
        .filter(maintenance_windows::ends_at.gt(starts))
        .order((maintenance_windows::starts_at, maintenance_windows::id))
        .into_boxed();
    q = match machine {
        Machine::Printer(p) => q.filter(maintenance_windows::printer_id.eq(p)),
        Machine::Resource(r) => q.filter(maintenance_windows::resource_id.eq(r)),
    };
    Ok(q.first(conn).await.optional()?)
}

/// The ids of the operations booked on a machine over `[starts, ends)` that are not done.
pub async fn booked_operations(
    conn: &mut AsyncPgConnection,
    machine: Machine,
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
) -> AppResult<Vec<i64>> {
    let mut q = production_order_operations::table
        .inner_join(production_orders::table)
        .filter(production_order_operations::status.eq_any(OPEN_OPERATION))
        .filter(production_orders::status.ne_all(CLOSED_ORDER))
        .filter(production_order_operations::scheduled_start.lt(ends))
        .filter(production_order_operations::scheduled_end.gt(starts))
        .select(production_order_operations::id)
        .order(production_order_operations::id)
        .into_boxed();
    q = match machine {
        Machine::Printer(p) => q.filter(production_order_operations::printer_id.eq(p)),
        Machine::Resource(r) => q.filter(production_order_operations::resource_id.eq(r)),
    };
    Ok(q.load(conn).await?)
}

/// A new window, as checked by the rules.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = maintenance_windows)]
pub struct NewWindow {
    /// The printer it blocks.
    pub printer_id: Option<i64>,
    /// The resource it blocks.
    pub resource_id: Option<i64>,
    /// When the machine goes down.
    pub starts_at: DateTime<Utc>,
    /// When the machine is back.
    pub ends_at: DateTime<Utc>,
    /// Why.
    pub reason: Option<String>,
    /// Who planned it.
    pub created_by: Option<String>,
}

/// Inserts a checked window (status scheduled).
pub async fn insert(
    conn: &mut AsyncPgConnection,
    window: &NewWindow,
) -> AppResult<MaintenanceWindowRow> {
    Ok(diesel::insert_into(maintenance_windows::table)
        .values(window)
        .returning(MaintenanceWindowRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Sets a window's status (and the maintenance log it wrote, when given).
pub async fn close(
    conn: &mut AsyncPgConnection,
    id: i64,
    status: MaintenanceWindowStatus,
    maintenance_log_id: Option<i64>,
) -> AppResult<MaintenanceWindowRow> {
    Ok(diesel::update(maintenance_windows::table.find(id))
        .set((
            maintenance_windows::status.eq(status),
            maintenance_log_id.map(|l| maintenance_windows::maintenance_log_id.eq(Some(l))),
        ))
        .returning(MaintenanceWindowRow::as_returning())
        .get_result(conn)
        .await?)
}
