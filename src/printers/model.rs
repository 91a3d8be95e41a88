//! Printer rows and the queries on them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use crate::db::like_pattern;
use crate::db::schema::printers;
use crate::error::{AppError, AppResult};

/// A stored printer.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = printers)]
pub struct PrinterRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique ignoring case).
    pub code: String,
    /// Name.
    pub name: String,
    /// Model, e.g. `X1 Carbon`.
    pub model: String,
    /// bambulab, klipper, octoprint, prusa, creality or generic.
    pub brand: String,
    /// Serial number.
    pub serial_number: Option<String>,
    /// Network address.
    pub ip_address: Option<String>,
    /// MQTT topic.
    pub mqtt_topic: Option<String>,
    /// Where it stands (free text).
    pub location: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// offline, idle, printing, paused, error or maintenance.
    pub status: String,
    /// How to reach it (a JSON object).
    pub connection_config: Value,
    /// What it can do (a JSON object).
    pub capabilities: Value,
    /// When it was last heard from.
    pub last_seen: Option<DateTime<Utc>>,
    /// Active (deleting a printer deactivates it).
    pub active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
    /// The work center it belongs to.
    pub work_center_id: Option<i64>,
}

/// A printer's values: `None` leaves a column as it is (update) or at its default (insert);
/// `Some(None)` clears a nullable column.
#[derive(Debug, Clone, Default, AsChangeset)]
#[diesel(table_name = printers)]
pub struct PrinterValues {
    /// Code.
    pub code: Option<String>,
    /// Name.
    pub name: Option<String>,
    /// Model.
    pub model: Option<String>,
    /// Brand.
    pub brand: Option<String>,
    /// Serial number.
    pub serial_number: Option<Option<String>>,
    /// Network address.
    pub ip_address: Option<Option<String>>,
    /// MQTT topic.
    pub mqtt_topic: Option<Option<String>>,
    /// Where it stands.
    pub location: Option<Option<String>>,
    /// Notes.
    pub notes: Option<Option<String>>,
    /// Status.
    pub status: Option<String>,
    /// Connection settings.
    pub connection_config: Option<Value>,
    /// Capabilities.
    pub capabilities: Option<Value>,
    /// Last heard from.
    pub last_seen: Option<Option<DateTime<Utc>>>,
    /// Active.
    pub active: Option<bool>,
    /// Work center.
    pub work_center_id: Option<Option<i64>>,
}

/// How printers are listed.
#[derive(Debug, Clone, Default)]
pub struct PrinterFilter {
    /// Code, name, model, serial number, address or location contains (case-insensitive).
    pub search: Option<String>,
    /// Only this brand.
    pub brand: Option<String>,
    /// Only this status.
    pub status: Option<String>,
    /// Only active printers.
    pub active_only: bool,
}

/// One page of printers (by code) and the total.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &PrinterFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<PrinterRow>, i64)> {
    let build = || {
        let mut q = printers::table.into_boxed();
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = like_pattern(s);
            q = q.filter(
                printers::code
                    .ilike(p.clone())
                    .or(printers::name.ilike(p.clone()))
                    .or(printers::model.ilike(p.clone()))
                    .or(printers::serial_number.ilike(p.clone()))
                    .or(printers::ip_address.ilike(p.clone()))
                    .or(printers::location.ilike(p)),
            );
        }
        if let Some(b) = &filter.brand {
            q = q.filter(printers::brand.eq(b.clone()));
        }
        if let Some(s) = &filter.status {
            q = q.filter(printers::status.eq(s.clone()));
        }
        if filter.active_only {
            q = q.filter(printers::active.eq(true));
        }
        q
    };
    let total = build().count().get_result(conn).await?;
    let rows = build()
        .order((printers::code.asc(), printers::id.asc()))
        .limit(limit)
        .offset(offset)
        .select(PrinterRow::as_select())
        .load(conn)
        .await?;
    Ok((rows, total))
}

/// The printer with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<PrinterRow>> {
    Ok(printers::table
        .find(id)
        .select(PrinterRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The printer with this code (any case).
pub async fn find_by_code(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> AppResult<Option<PrinterRow>> {
    Ok(printers::table
        .filter(
            diesel::dsl::sql::<Bool>("upper(code) = upper(")
                .bind::<Text, _>(code.trim().to_string())
                .sql(")"),
        )
        .select(PrinterRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Inserts a printer.
pub async fn insert(conn: &mut AsyncPgConnection, v: &PrinterValues) -> AppResult<PrinterRow> {
    let empty = || Value::Object(Default::default());
    Ok(diesel::insert_into(printers::table)
        .values((
            printers::code.eq(v.code.clone().unwrap_or_default()),
            printers::name.eq(v.name.clone().unwrap_or_default()),
            printers::model.eq(v.model.clone().unwrap_or_default()),
            printers::brand.eq(v.brand.clone().unwrap_or_else(|| "generic".into())),
            printers::serial_number.eq(v.serial_number.clone().flatten()),
            printers::ip_address.eq(v.ip_address.clone().flatten()),
            printers::mqtt_topic.eq(v.mqtt_topic.clone().flatten()),
            printers::location.eq(v.location.clone().flatten()),
            printers::notes.eq(v.notes.clone().flatten()),
            printers::status.eq(v.status.clone().unwrap_or_else(|| "offline".into())),
            printers::connection_config.eq(v.connection_config.clone().unwrap_or_else(empty)),
            printers::capabilities.eq(v.capabilities.clone().unwrap_or_else(empty)),
            printers::last_seen.eq(v.last_seen.flatten()),
            printers::active.eq(v.active.unwrap_or(true)),
            printers::work_center_id.eq(v.work_center_id.flatten()),
        ))
        .returning(PrinterRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a printer (an empty change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    v: &PrinterValues,
) -> AppResult<PrinterRow> {
    let result = diesel::update(printers::table.find(id))
        .set(v)
        .returning(PrinterRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("Printer not found")),
        Err(e) if crate::db::is_empty_update(&e) => find(conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Printer not found")),
        other => Ok(other?),
    }
}

#[derive(QueryableByName)]
struct Highest {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// The highest number used by codes of the form `PREFIX-<digits>` (0 when none).
/// `prefix` must be plain letters, digits, `_` and `-` (it becomes part of a pattern).
pub async fn highest_code_number(conn: &mut AsyncPgConnection, prefix: &str) -> AppResult<i64> {
    let found: Highest = diesel::sql_query(
        "SELECT COALESCE(MAX(substring(upper(code) FROM '^' || $1 || '-([0-9]{1,9})$')::bigint), 0) AS n \
         FROM printers",
    )
    .bind::<Text, _>(prefix)
    .get_result(conn)
    .await?;
    Ok(found.n)
}
