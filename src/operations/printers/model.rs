//! Printers: the row (which is also the GraphQL `Printer`), the one field list of the
//! writable columns, the closed sets and the queries.

use async_graphql::SimpleObject;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use crate::operations::printers::rules::{CODE_MAX, NAME_MAX, NOTES_MAX, SERIAL_MAX, TEXT_MAX};
use crate::platform::db::like_pattern;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::printers;
use crate::platform::db::text::code_matches;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::Timestamp;

crate::text_enum! {
    /// Who made the printer, which decides how Strata talks to it.
    pub enum PrinterBrand {
        /// Bambu Lab (MQTT, optional AMS).
        Bambulab,
        /// Klipper (Moonraker).
        Klipper,
        /// OctoPrint.
        Octoprint,
        /// Prusa (PrusaLink / Connect).
        Prusa,
        /// Creality.
        Creality,
        /// Anything else.
        Generic,
    }
}

crate::text_enum! {
    /// What a printer is doing.
    pub enum PrinterStatus {
        /// Not reachable (the default).
        Offline,
        /// Ready for a job.
        Idle,
        /// Printing.
        Printing,
        /// A job is paused.
        Paused,
        /// Stopped with an error.
        Error,
        /// Taken out of service for maintenance.
        Maintenance,
    }
}

crate::text_enum! {
    /// The columns printers can be sorted by (default `code`).
    pub enum PrinterSort {
        /// Code.
        Code,
        /// Name.
        Name,
        /// Model.
        Model,
        /// Brand.
        Brand,
        /// Status.
        Status,
        /// Where it stands.
        Location,
        /// When it was last heard from.
        LastSeen,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// A 3D printer of the farm: the stored row, served as is (computed fields in
/// `graphql.rs`).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = printers, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Printer", complex)]
pub struct PrinterRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique ignoring case), e.g. `PRT-001`.
    pub code: String,
    /// Name.
    pub name: String,
    /// Model, e.g. `X1 Carbon`.
    pub model: String,
    /// Brand.
    pub brand: PrinterBrand,
    /// Serial number.
    pub serial_number: Option<String>,
    /// IP address or host name.
    pub ip_address: Option<String>,
    /// MQTT topic (Bambu Lab).
    pub mqtt_topic: Option<String>,
    /// Where it stands (free text, e.g. `Rack 2, shelf 3`).
    pub location: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// What it is doing.
    pub status: PrinterStatus,
    /// How to reach it (a JSON object: access codes, API keys, ports...). Served by the
    /// `connectionConfig` resolver, which shows these secrets to admins only.
    #[graphql(skip)]
    pub connection_config: Value,
    /// What it can do (a JSON object, e.g. `{"ams": true, "camera": true}`).
    pub capabilities: Value,
    /// When it was last heard from.
    pub last_seen: Option<Timestamp>,
    /// Active (deleting a printer deactivates it).
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// The work center it belongs to.
    pub work_center_id: Option<i64>,
}

crate::input_forms! {
    table = printers;
    /// A new printer.
    create PrinterCreateInput;
    /// Changes to a printer: omitted fields keep their value, `null` clears a clearable one.
    update PrinterUpdateInput;
    /// A printer's writable columns, checked by `rules::check_fields`.
    form PrinterForm;
    {
        /// Code (unique ignoring case; stored upper case).
        [directive = length::apply(CODE_MAX)]
        code: required String,
        /// Name.
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// Model.
        [directive = length::apply(NAME_MAX)]
        model: required String,
        /// Brand (default generic).
        brand: optional PrinterBrand,
        /// Serial number.
        [directive = length::apply(SERIAL_MAX)]
        serial_number: clearable String,
        /// IP address or host name.
        [directive = length::apply(TEXT_MAX)]
        ip_address: clearable String,
        /// MQTT topic.
        [directive = length::apply(TEXT_MAX)]
        mqtt_topic: clearable String,
        /// Where it stands.
        [directive = length::apply(TEXT_MAX)]
        location: clearable String,
        /// The work center it belongs to.
        work_center_id: clearable i64,
        /// Notes.
        [directive = length::apply(NOTES_MAX)]
        notes: clearable String,
        /// Active (default true).
        active: optional bool,
        /// Status (default offline).
        status: optional PrinterStatus,
        /// How to reach it (a JSON object; default `{}`; replaces the whole object).
        connection_config: optional Value,
        /// What it can do (a JSON object; default `{}`; replaces the whole object).
        capabilities: optional Value,
    }
}

/// How printers are listed.
#[derive(Debug, Clone, Default)]
pub struct PrinterFilter {
    /// Code, name, model, serial number, address or location contains (case-insensitive).
    pub search: Option<String>,
    /// Only this brand.
    pub brand: Option<PrinterBrand>,
    /// Only this status.
    pub status: Option<PrinterStatus>,
    /// Only active printers.
    pub active_only: bool,
    /// Sort column (default code).
    pub sort_by: Option<PrinterSort>,
    /// Sort direction (default ascending).
    pub sort_order: Option<SortOrder>,
}

/// One page of printers and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &PrinterFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<PrinterRow>, i64)> {
    let build = || {
        let mut q = printers::table
            .select((PrinterRow::as_select(), paging::total_count()))
            .into_boxed();
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
        if let Some(b) = filter.brand {
            q = q.filter(printers::brand.eq(b));
        }
        if let Some(s) = filter.status {
            q = q.filter(printers::status.eq(s));
        }
        if filter.active_only {
            q = q.filter(printers::active.eq(true));
        }
        let order = filter.sort_order.unwrap_or(SortOrder::Asc);
        let id = printers::id;
        match filter.sort_by.unwrap_or(PrinterSort::Code) {
            PrinterSort::Code => paging::sorted(q, printers::code, id, order),
            PrinterSort::Name => paging::sorted(q, printers::name, id, order),
            PrinterSort::Model => paging::sorted(q, printers::model, id, order),
            PrinterSort::Brand => paging::sorted(q, printers::brand, id, order),
            PrinterSort::Status => paging::sorted(q, printers::status, id, order),
            PrinterSort::Location => paging::sorted(q, printers::location, id, order),
            PrinterSort::LastSeen => paging::sorted(q, printers::last_seen, id, order),
            PrinterSort::CreatedAt => paging::sorted(q, printers::created_at, id, order),
            PrinterSort::UpdatedAt => paging::sorted(q, printers::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The printer with this id, or a 404.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<PrinterRow> {
    paging::find_or_404(
        conn,
        printers::table.find(id).select(PrinterRow::as_select()),
        "Printer not found",
    )
    .await
}

/// The printer with this code (any case).
pub async fn find_by_code(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> AppResult<Option<PrinterRow>> {
    Ok(printers::table
        .filter(code_matches(printers::code, code))
        .select(PrinterRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Inserts a checked printer; `last_seen` is set by the status rule.
pub async fn insert(
    conn: &mut AsyncPgConnection,
    form: &PrinterForm,
    last_seen: Option<DateTime<Utc>>,
) -> AppResult<PrinterRow> {
    Ok(diesel::insert_into(printers::table)
        .values((form, printers::last_seen.eq(last_seen)))
        .returning(PrinterRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a printer with a checked form (an empty change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    form: &PrinterForm,
    last_seen: Option<DateTime<Utc>>,
) -> AppResult<PrinterRow> {
    let result = diesel::update(printers::table.find(id))
        .set((form, last_seen.map(|seen| printers::last_seen.eq(seen))))
        .returning(PrinterRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("Printer not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id).await,
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

/// Every address a printer is registered with (to leave them out of a scan).
pub async fn ip_addresses(conn: &mut AsyncPgConnection) -> AppResult<Vec<String>> {
    Ok(printers::table
        .filter(printers::ip_address.is_not_null())
        .select(printers::ip_address.assume_not_null())
        .load(conn)
        .await?)
}
