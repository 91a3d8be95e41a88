//! Printer maintenance logs (the original's `/maintenance/` routes): the row (which is also
//! the GraphQL `PrinterMaintenanceLog`), its one field list, the closed set of kinds and the
//! queries. Rules are in `rules.rs` (`check_maintenance`, `save_maintenance`, `due`).

use async_graphql::SimpleObject;
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::paging;
use crate::platform::db::schema::{printer_maintenance, printers};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// What kind of maintenance was done.
    pub enum MaintenanceType {
        /// Scheduled upkeep (lubrication, inspection).
        Routine,
        /// Fixing something broken.
        Repair,
        /// Bed levelling, flow, input shaping, vibration compensation.
        Calibration,
        /// Cleaning the bed, the nozzle, the enclosure.
        Cleaning,
        /// A new nozzle or hotend.
        NozzleChange,
        /// Belts checked or re-tensioned.
        BeltTension,
        /// Firmware updated.
        FirmwareUpdate,
        /// Anything else.
        Other,
    }
}

/// One maintenance log entry of a printer: the stored row, served as is (the printer's code
/// and name are computed fields in `graphql.rs`).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = printer_maintenance, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "PrinterMaintenanceLog", complex)]
pub struct MaintenanceLogRow {
    /// Id.
    pub id: i64,
    /// The printer it was done on.
    pub printer_id: i64,
    /// What kind of maintenance.
    pub maintenance_type: MaintenanceType,
    /// What was done.
    pub description: String,
    /// Who did it (free text: a person or a service company).
    pub performed_by: Option<String>,
    /// When it was done (never in the future).
    pub performed_at: Timestamp,
    /// When it is due again (after `performedAt`); the printer's latest log decides whether
    /// it is due (`printerMaintenanceDue`).
    pub next_due_at: Option<Timestamp>,
    /// What it cost (at least 0, two decimals).
    pub cost: Option<Decimal>,
    /// How long the printer was out of service, in minutes (at least 0).
    pub downtime_minutes: Option<i32>,
    /// Parts used (free text).
    pub parts_used: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// The user who recorded it.
    pub created_by: Option<i64>,
    /// Recorded.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

crate::input_forms! {
    table = printer_maintenance;
    /// A new maintenance log entry (the printer comes from the route).
    create PrinterMaintenanceCreateInput;
    /// Changes to a maintenance log entry: omitted fields keep their value, `null` clears a
    /// clearable one.
    update PrinterMaintenanceUpdateInput;
    /// A maintenance log's writable columns, checked by `rules::check_maintenance`.
    form MaintenanceForm;
    {
        /// What kind of maintenance.
        maintenance_type: required MaintenanceType,
        /// What was done (1-1000 characters).
        description: required String,
        /// Who did it (up to 100 characters; default: the name of the user recording it).
        performed_by: clearable String,
        /// When it was done (default now; not in the future).
        performed_at: optional Timestamp,
        /// When it is due again (after `performedAt`).
        next_due_at: clearable Timestamp,
        /// What it cost (at least 0, at most two decimals).
        cost: clearable Decimal,
        /// Minutes out of service (at least 0).
        downtime_minutes: clearable i32,
        /// Parts used (up to 2000 characters).
        parts_used: clearable String,
        /// Notes (up to 5000 characters).
        notes: clearable String,
    }
}

/// How maintenance logs are listed (newest first).
#[derive(Debug, Clone, Default)]
pub struct MaintenanceFilter {
    /// Only this printer's logs.
    pub printer_id: Option<i64>,
    /// Only this kind.
    pub maintenance_type: Option<MaintenanceType>,
    /// Performed on or after this day (UTC).
    pub start_date: Option<NaiveDate>,
    /// Performed on or before this day (UTC).
    pub end_date: Option<NaiveDate>,
}

/// Midnight UTC at the start of a day.
fn day_start(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}

/// One page of maintenance logs (newest first, ties by id) and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &MaintenanceFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<MaintenanceLogRow>, i64)> {
    let build = || {
        let mut q = printer_maintenance::table
            .select((MaintenanceLogRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(p) = filter.printer_id {
            q = q.filter(printer_maintenance::printer_id.eq(p));
        }
        if let Some(t) = filter.maintenance_type {
            q = q.filter(printer_maintenance::maintenance_type.eq(t));
        }
        if let Some(d) = filter.start_date {
            q = q.filter(printer_maintenance::performed_at.ge(day_start(d)));
        }
        if let Some(d) = filter.end_date.and_then(|d| d.succ_opt()) {
            q = q.filter(printer_maintenance::performed_at.lt(day_start(d)));
        }
        q.order((
            printer_maintenance::performed_at.desc(),
            printer_maintenance::id.desc(),
        ))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The log with this id, or a 404.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<MaintenanceLogRow> {
    paging::find_or_404(
        conn,
        printer_maintenance::table
            .find(id)
            .select(MaintenanceLogRow::as_select()),
        "Maintenance log not found",
    )
    .await
}

/// Inserts a checked log.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    printer_id: i64,
    form: &MaintenanceForm,
    created_by: Option<i64>,
) -> AppResult<MaintenanceLogRow> {
    Ok(diesel::insert_into(printer_maintenance::table)
        .values((
            form,
            printer_maintenance::printer_id.eq(printer_id),
            printer_maintenance::created_by.eq(created_by),
        ))
        .returning(MaintenanceLogRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a log with a checked form (an empty change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    form: &MaintenanceForm,
) -> AppResult<MaintenanceLogRow> {
    let result = diesel::update(printer_maintenance::table.find(id))
        .set(form)
        .returning(MaintenanceLogRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => {
            Err(AppError::not_found("Maintenance log not found"))
        }
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id).await,
        other => Ok(other?),
    }
}

/// Deletes a log; false when there was none.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> AppResult<bool> {
    let n = diesel::delete(printer_maintenance::table.find(id))
        .execute(conn)
        .await?;
    Ok(n > 0)
}

/// The latest log of an active printer (by `performed_at`, then id), as `/maintenance/due`
/// reads it.
#[derive(Debug, Clone, Queryable)]
pub struct LatestLog {
    /// The printer.
    pub printer_id: i64,
    /// Its code.
    pub printer_code: String,
    /// Its name.
    pub printer_name: String,
    /// When its latest maintenance was done.
    pub performed_at: DateTime<Utc>,
    /// What kind it was.
    pub maintenance_type: MaintenanceType,
    /// When the latest log says it is due again.
    pub next_due_at: Option<DateTime<Utc>>,
}

/// The latest log of every active printer that has one (one statement, `DISTINCT ON`).
pub async fn latest_per_printer(conn: &mut AsyncPgConnection) -> AppResult<Vec<LatestLog>> {
    Ok(printer_maintenance::table
        .inner_join(printers::table)
        .filter(printers::active.eq(true))
        .distinct_on(printer_maintenance::printer_id)
        .order((
            printer_maintenance::printer_id,
            printer_maintenance::performed_at.desc(),
            printer_maintenance::id.desc(),
        ))
        .select((
            printers::id,
            printers::code,
            printers::name,
            printer_maintenance::performed_at,
            printer_maintenance::maintenance_type,
            printer_maintenance::next_due_at,
        ))
        .load(conn)
        .await?)
}
