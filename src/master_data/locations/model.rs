//! Location rows and the queries on them.

use bigdecimal::BigDecimal;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::locations::rules::{CODE_MAX, KIND_MAX, NAME_MAX};
use crate::platform::db::like_pattern;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::locations;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;

/// The code of the seeded main warehouse: never deleted, only deactivated.
pub const MAIN_CODE: &str = "MAIN";

/// A stored location.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = locations)]
pub struct LocationRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique ignoring case).
    pub code: String,
    /// Name.
    pub name: String,
    /// The kind of place (warehouse, shelf, bin, ...).
    pub kind: String,
    /// The location this one is inside of.
    pub parent_id: Option<i64>,
    /// Active (deleting a location that is in use deactivates it).
    pub active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = locations;
    /// A new location.
    create LocationCreateInput;
    /// Changes to a location: omitted fields keep their value; a `null` parent makes it a root.
    update LocationUpdateInput;
    /// A location's writable columns, checked and normalised by `rules::save`.
    form LocationForm;
    {
        /// Code (unique ignoring case; stored upper case).
        [directive = length::apply(CODE_MAX)]
        code: required String,
        /// Name.
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// The kind of place: warehouse (the default), shelf, bin, ...
        [name = "type", directive = length::apply(KIND_MAX)]
        kind: optional String,
        /// The location it is inside of (null: none).
        parent_id: clearable i64,
        /// Active (default true; refused while it holds stock).
        active: optional bool,
    }
}

/// How locations are listed.
#[derive(Debug, Clone, Default)]
pub struct LocationFilter {
    /// Code or name contains (case-insensitive).
    pub search: Option<String>,
    /// Only this kind.
    pub kind: Option<String>,
    /// Only the direct children of this location.
    pub parent_id: Option<i64>,
    /// Inactive rows too.
    pub include_inactive: bool,
    /// Sort column (default code).
    pub sort_by: Option<LocationSort>,
    /// Sort direction (default ascending).
    pub sort_order: Option<SortOrder>,
}

crate::text_enum! {
    /// The columns locations can be sorted by (default `code`).
    pub enum LocationSort {
        /// Code.
        Code,
        /// Name.
        Name,
        /// Kind of place.
        Type,
        /// Parent location.
        ParentId,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// One page of locations (by code) and the total.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &LocationFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<LocationRow>, i64)> {
    let build = || {
        let mut q = locations::table
            .select((LocationRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = like_pattern(s);
            q = q.filter(
                locations::code
                    .ilike(p.clone())
                    .or(locations::name.ilike(p)),
            );
        }
        if let Some(k) = &filter.kind {
            q = q.filter(locations::kind.eq(k.clone()));
        }
        if let Some(p) = filter.parent_id {
            q = q.filter(locations::parent_id.eq(p));
        }
        if !filter.include_inactive {
            q = q.filter(locations::active.eq(true));
        }
        let order = filter.sort_order.unwrap_or(SortOrder::Asc);
        let id = locations::id;
        match filter.sort_by.unwrap_or(LocationSort::Code) {
            LocationSort::Code => paging::sorted(q, locations::code, id, order),
            LocationSort::Name => paging::sorted(q, locations::name, id, order),
            LocationSort::Type => paging::sorted(q, locations::kind, id, order),
            LocationSort::ParentId => paging::sorted(q, locations::parent_id, id, order),
            LocationSort::CreatedAt => paging::sorted(q, locations::created_at, id, order),
            LocationSort::UpdatedAt => paging::sorted(q, locations::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The location with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<LocationRow>> {
    Ok(locations::table
        .find(id)
        .select(LocationRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The location with this id, locked for the rest of the transaction.
pub async fn find_for_update(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Option<LocationRow>> {
    Ok(locations::table
        .find(id)
        .select(LocationRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?)
}

/// The location with this code (any case).
pub async fn find_by_code(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> AppResult<Option<LocationRow>> {
    Ok(locations::table
        .filter(crate::platform::db::text::code_matches(
            locations::code,
            code,
        ))
        .select(LocationRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Inserts a location (omitted columns take the database's defaults).
pub async fn insert(conn: &mut AsyncPgConnection, v: &LocationForm) -> AppResult<LocationRow> {
    Ok(diesel::insert_into(locations::table)
        .values(v)
        .returning(LocationRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a location (an empty change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    v: &LocationForm,
) -> AppResult<LocationRow> {
    let result = diesel::update(locations::table.find(id))
        .set(v)
        .returning(LocationRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Location not found")),
        other => Ok(other?),
    }
}

/// Deletes a location row for good (only when nothing refers to it).
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> AppResult<()> {
    diesel::delete(locations::table.find(id))
        .execute(conn)
        .await?;
    Ok(())
}

#[derive(QueryableByName)]
struct Flag {
    #[diesel(sql_type = Bool)]
    flag: bool,
}

/// True when `candidate` is `id` itself or one of its ancestors' chain reaches `id`, that
/// is: making `candidate` the parent of `id` would close a cycle.
pub async fn would_cycle(conn: &mut AsyncPgConnection, id: i64, candidate: i64) -> AppResult<bool> {
    if id == candidate {
        return Ok(true);
    }
    // Walk up from the candidate; UNION (not UNION ALL) stops even on a damaged tree.
    let found: Flag = diesel::sql_query(
        "WITH RECURSIVE up(id, parent_id) AS ( \
             SELECT id, parent_id FROM locations WHERE id = $1 \
             UNION \
             SELECT l.id, l.parent_id FROM locations l JOIN up ON l.id = up.parent_id \
         ) SELECT EXISTS (SELECT 1 FROM up WHERE id = $2) AS flag",
    )
    .bind::<BigInt, _>(candidate)
    .bind::<BigInt, _>(id)
    .get_result(conn)
    .await?;
    Ok(found.flag)
}

/// Serialises changes to the location tree (two concurrent moves could otherwise close a
/// cycle that neither saw). Held until the transaction ends.
pub async fn lock_tree(conn: &mut AsyncPgConnection) -> AppResult<()> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext('strata.locations.tree'))")
        .execute(conn)
        .await?;
    Ok(())
}

#[derive(QueryableByName)]
struct ForeignKey {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
}

/// What refers to a location: the names of the tables (`locations` for sub-locations) with
/// rows that point at it. Read from the database's own foreign keys, so tables added by
/// later modules (stock, spools, receipts) are covered without touching this function.
pub async fn references(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Vec<String>> {
    let keys: Vec<ForeignKey> = diesel::sql_query(
        "SELECT c.conrelid::regclass::text AS table_name, quote_ident(a.attname) AS column_name \
         FROM pg_constraint c \
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] \
         WHERE c.contype = 'f' AND c.confrelid = 'locations'::regclass \
           AND array_length(c.conkey, 1) = 1 \
         ORDER BY 1, 2",
    )
    .load(conn)
    .await?;
    let mut out = Vec::new();
    for key in keys {
        // Both names come from the catalog, already quoted where needed.
        let used: Flag = diesel::sql_query(format!(
            "SELECT EXISTS (SELECT 1 FROM {} WHERE {} = $1) AS flag",
            key.table_name, key.column_name
        ))
        .bind::<BigInt, _>(id)
        .get_result(conn)
        .await?;
        if used.flag && !out.contains(&key.table_name) {
            out.push(key.table_name);
        }
    }
    Ok(out)
}

/// Stock on hand at a location, over all items (the inventory ledger's balances): a
/// location holding stock is neither deleted nor deactivated.
pub async fn stock_at_location(
    conn: &mut AsyncPgConnection,
    location_id: i64,
) -> AppResult<BigDecimal> {
    use crate::platform::db::schema::inventory_balances;
    use diesel::dsl::sum;
    let total: Option<BigDecimal> = inventory_balances::table
        .filter(inventory_balances::location_id.eq(location_id))
        .filter(inventory_balances::on_hand_quantity.gt(BigDecimal::from(0)))
        .select(sum(inventory_balances::on_hand_quantity))
        .first(conn)
        .await?;
    Ok(total.unwrap_or_default())
}
