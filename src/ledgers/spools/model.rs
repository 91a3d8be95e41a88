//! Spool rows (each is also the GraphQL object), their closed sets and the queries on them.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::paging;
use crate::platform::db::schema::{spool_usage, spools};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Where a spool stands (CONTRACT 6.7).
    pub enum SpoolStatus {
        /// In use or ready for use.
        Active,
        /// Used up.
        Empty,
        /// Past its shelf life.
        Expired,
        /// Damaged (wet, tangled, broken).
        Damaged,
    }
}

/// A physical roll of a material item, weighed in grams.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = spools, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Spool", complex)]
pub struct SpoolRow {
    /// Id.
    pub id: i64,
    /// The spool's number (unique ignoring case), e.g. `SP-0001`.
    pub spool_number: String,
    /// The material item it is a roll of.
    pub product_id: i64,
    /// Filament on the spool when it was received, in grams.
    #[diesel(column_name = initial_weight_g)]
    pub initial_weight_grams: Decimal,
    /// Filament left on the spool, in grams.
    #[diesel(column_name = current_weight_g)]
    pub current_weight_grams: Decimal,
    /// Where it stands.
    pub status: SpoolStatus,
    /// When it was received.
    pub received_date: NaiveDate,
    /// When it expires.
    pub expiry_date: Option<NaiveDate>,
    /// Where it is stored (its stock sits at this location).
    pub location_id: Option<i64>,
    /// The supplier's lot number.
    pub supplier_lot_number: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Who created it.
    pub created_by: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// What one production order (or one manual use) took from a spool.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = spool_usage, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "SpoolUsage")]
pub struct SpoolUsageRow {
    /// Id.
    pub id: i64,
    /// The spool.
    pub spool_id: i64,
    /// The production order that used it.
    pub production_order_id: Option<i64>,
    /// That order's code (`WO-YYYY-NNNN`), when known.
    pub production_order_code: Option<String>,
    /// Grams consumed.
    #[diesel(column_name = weight_consumed_g)]
    pub weight_consumed_grams: Decimal,
    /// The consumption it posted in the stock ledger.
    pub inventory_transaction_id: Option<i64>,
    /// Who recorded it.
    pub created_by: Option<i64>,
    /// When.
    pub created_at: Timestamp,
}

/// How spools are listed (newest first).
#[derive(Debug, Clone, Default)]
pub struct SpoolFilter {
    /// Only spools of this item.
    pub product_id: Option<i64>,
    /// Only this status.
    pub status: Option<SpoolStatus>,
    /// Only spools at this location.
    pub location_id: Option<i64>,
    /// Only active spools below the low-weight threshold.
    pub low_weight: bool,
}

/// One page of spools and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &SpoolFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<SpoolRow>, i64)> {
    let build = || {
        let mut q = spools::table
            .select((SpoolRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(v) = filter.product_id {
            q = q.filter(spools::product_id.eq(v));
        }
        if let Some(v) = filter.status {
            q = q.filter(spools::status.eq(v));
        }
        if let Some(v) = filter.location_id {
            q = q.filter(spools::location_id.eq(v));
        }
        if filter.low_weight {
            // The rule of `rules::is_low`, in SQL.
            q =
                q.filter(spools::status.eq(SpoolStatus::Active))
                    .filter(spools::current_weight_g.lt(spools::initial_weight_g
                        * crate::ledgers::spools::rules::low_weight_fraction()));
        }
        q.order((spools::created_at.desc(), spools::id.desc()))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The spool with this id, or a 404.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<SpoolRow> {
    paging::find_or_404(
        conn,
        spools::table.find(id).select(SpoolRow::as_select()),
        "Spool not found",
    )
    .await
}

/// Spools by id.
pub async fn by_ids(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<SpoolRow>> {
    Ok(spools::table
        .filter(spools::id.eq_any(ids))
        .order(spools::id)
        .select(SpoolRow::as_select())
        .load(conn)
        .await?)
}

/// The spool with this id, locked for the rest of the transaction.
pub async fn lock(conn: &mut AsyncPgConnection, id: i64) -> QueryResult<Option<SpoolRow>> {
    spools::table
        .find(id)
        .select(SpoolRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// Whether a spool number is taken (ignoring case), by another spool than `except`.
pub async fn number_taken(
    conn: &mut AsyncPgConnection,
    number: &str,
    except: Option<i64>,
) -> QueryResult<bool> {
    let mut q = spools::table
        .filter(crate::platform::db::text::code_matches(
            spools::spool_number,
            number,
        ))
        .select(spools::id)
        .into_boxed();
    if let Some(id) = except {
        q = q.filter(spools::id.ne(id));
    }
    Ok(q.first::<i64>(conn).await.optional()?.is_some())
}

/// The spools of an item that can still be used: active with filament left, oldest expiry
/// first (then the oldest received), so the first is the one to use first.
pub async fn available_for(
    conn: &mut AsyncPgConnection,
    product_id: i64,
) -> AppResult<Vec<SpoolRow>> {
    Ok(spools::table
        .filter(spools::product_id.eq(product_id))
        .filter(spools::status.eq(SpoolStatus::Active))
        .filter(spools::current_weight_g.ge(crate::ledgers::spools::rules::empty_below()))
        .order((
            spools::expiry_date.asc().nulls_last(),
            spools::received_date.asc(),
            spools::id.asc(),
        ))
        .select(SpoolRow::as_select())
        .load(conn)
        .await?)
}

/// A spool that production orders run on a printer consumed.
#[derive(Debug, Clone)]
pub struct PrinterSpool {
    /// The printer.
    pub printer_id: i64,
    /// The spool.
    pub spool: SpoolRow,
}

/// The spools consumed by production orders that have an operation on these printers, each
/// once per printer (the data model records consumption per order, not per operation, and
/// has no "loaded on printer" relation).
pub async fn consumed_on_printers(
    conn: &mut AsyncPgConnection,
    printer_ids: &[i64],
) -> AppResult<Vec<PrinterSpool>> {
    use crate::platform::db::schema::{
        production_order_operations as ops, production_order_spools as pos,
    };
    let rows: Vec<(i64, SpoolRow)> = pos::table
        .inner_join(spools::table)
        .inner_join(ops::table.on(ops::production_order_id.eq(pos::production_order_id)))
        .filter(ops::printer_id.assume_not_null().eq_any(printer_ids))
        .select((ops::printer_id.assume_not_null(), SpoolRow::as_select()))
        .distinct()
        .order((ops::printer_id, spools::id))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(printer_id, spool)| PrinterSpool { printer_id, spool })
        .collect())
}

/// The usage of these spools, oldest first.
pub async fn usage_of(
    conn: &mut AsyncPgConnection,
    spool_ids: &[i64],
) -> AppResult<Vec<SpoolUsageRow>> {
    Ok(spool_usage::table
        .filter(spool_usage::spool_id.eq_any(spool_ids))
        .order((spool_usage::spool_id, spool_usage::id))
        .select(SpoolUsageRow::as_select())
        .load(conn)
        .await?)
}

/// A spool to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = spools)]
pub struct NewSpool {
    /// Number.
    pub spool_number: String,
    /// Item.
    pub product_id: i64,
    /// Initial grams.
    pub initial_weight_g: BigDecimal,
    /// Current grams.
    pub current_weight_g: BigDecimal,
    /// Status.
    pub status: SpoolStatus,
    /// Received.
    pub received_date: NaiveDate,
    /// Expires.
    pub expiry_date: Option<NaiveDate>,
    /// Location.
    pub location_id: Option<i64>,
    /// Supplier lot.
    pub supplier_lot_number: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Author.
    pub created_by: Option<i64>,
}

/// Changes to a spool (`None` keeps a value; `Some(None)` clears a nullable one).
#[derive(Debug, Clone, Default, AsChangeset)]
#[diesel(table_name = spools)]
pub struct SpoolChanges {
    /// Current grams.
    pub current_weight_g: Option<BigDecimal>,
    /// Status.
    pub status: Option<SpoolStatus>,
    /// Location.
    pub location_id: Option<Option<i64>>,
    /// Notes.
    pub notes: Option<Option<String>>,
}

/// A usage row to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = spool_usage)]
pub struct NewUsage {
    /// Spool.
    pub spool_id: i64,
    /// Production order.
    pub production_order_id: Option<i64>,
    /// Its code.
    pub production_order_code: Option<String>,
    /// Grams.
    pub weight_consumed_g: BigDecimal,
    /// The ledger row.
    pub inventory_transaction_id: Option<i64>,
    /// Author.
    pub created_by: Option<i64>,
}
