//! Bills of materials: the rows (which are also the GraphQL `Bom` and `BomLine`), the one
//! field list of each, the closed sets and the queries.

use async_graphql::SimpleObject;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::bom::rules::{CODE_MAX, NAME_MAX, NOTES_MAX, REVISION_MAX};
use crate::platform::db::like_pattern;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::{bom_lines, boms, items};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// When a line's component leaves stock.
    pub enum ConsumeStage {
        /// When the production order consumes its materials (the default).
        Production,
        /// When the order ships (boxes, labels, inserts).
        Shipping,
    }
}

crate::text_enum! {
    /// The columns BOMs can be sorted by (default `code`).
    pub enum BomSort {
        /// Code.
        Code,
        /// Name.
        Name,
        /// Version.
        Version,
        /// The product's SKU.
        ProductSku,
        /// Component cost per unit.
        MaterialCost,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// A bill of materials: what one unit of a product is made of. A product keeps every
/// version; at most one is active (the one production uses).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = boms, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Bom", complex)]
pub struct BomRow {
    /// Id.
    pub id: i64,
    /// The product it makes.
    pub product_id: i64,
    /// Code (upper case), e.g. `BOM-WIDGET-V1`.
    pub code: String,
    /// Name.
    pub name: String,
    /// Version number (unique per product).
    pub version: i32,
    /// Engineering revision label, e.g. `B`.
    pub revision: Option<String>,
    /// Whether production uses it (one per product).
    pub active: bool,
    /// Assembly time per unit, in minutes.
    pub assembly_time_minutes: Option<Decimal>,
    /// From when it applies.
    pub effective_date: Option<NaiveDate>,
    /// Notes.
    pub notes: Option<String>,
    /// Labour and machine cost per unit, entered by hand.
    pub process_cost: Decimal,
    /// Component cost per unit as of the last change or recalculation (served as
    /// `recalculatedMaterialCost`; `materialCost` is computed live).
    #[graphql(skip)]
    pub material_cost: Decimal,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

crate::input_forms! {
    table = boms;
    /// A new bill of materials (its lines come beside it).
    create BomCreateInput;
    /// Changes to a BOM's header: omitted fields keep their value, `null` clears a clearable one.
    update BomUpdateInput;
    /// A BOM's writable columns, checked by `rules::check_bom`.
    form BomForm;
    {
        /// The product it makes.
        product_id: required i64,
        /// Code (default `BOM-<SKU>-V<version>`).
        [directive = length::apply(CODE_MAX)]
        code: optional String,
        /// Name (default the product's name).
        [directive = length::apply(NAME_MAX)]
        name: optional String,
        /// Version (default the product's highest + 1).
        version: optional i32,
        /// Engineering revision label.
        [directive = length::apply(REVISION_MAX)]
        revision: clearable String,
        /// Whether production uses it (default true; activating one deactivates the others).
        active: optional bool,
        /// Assembly time per unit, in minutes.
        assembly_time_minutes: clearable Decimal,
        /// From when it applies.
        effective_date: clearable NaiveDate,
        /// Notes.
        [directive = length::apply(NOTES_MAX)]
        notes: clearable String,
        /// Labour and machine cost per unit (default 0).
        process_cost: optional Decimal,
    }
}

/// One component of a BOM.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = bom_lines, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "BomLine", complex)]
pub struct BomLineRow {
    /// Id.
    pub id: i64,
    /// The BOM.
    pub bom_id: i64,
    /// The component item.
    pub component_id: i64,
    /// Quantity per unit of the product, in `unit`.
    pub quantity: Decimal,
    /// The unit of `quantity` (the component's unit or one of its class: G for a KG item).
    pub unit: String,
    /// Order on the BOM.
    pub sequence: i32,
    /// When the component leaves stock.
    pub consume_stage: ConsumeStage,
    /// Counted in the cost but never issued from stock (e.g. electricity).
    pub is_cost_only: bool,
    /// Expected loss, in percent (0 to under 100): the quantity needed is
    /// `quantity × (1 + scrap_factor / 100)`.
    pub scrap_factor: Decimal,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

crate::input_forms! {
    table = bom_lines;
    /// A new BOM line.
    create BomLineCreateInput;
    /// Changes to a BOM line.
    update BomLineUpdateInput;
    /// A line's writable columns, checked by `rules::check_line`.
    form BomLineForm;
    {
        /// The component item.
        component_id: required i64,
        /// Quantity per unit of the product (more than 0).
        quantity: required Decimal,
        /// Unit of the quantity (default the component's unit; must convert to it).
        unit: optional String,
        /// Order on the BOM (default after the last line).
        sequence: optional i32,
        /// When the component leaves stock (default production).
        consume_stage: optional ConsumeStage,
        /// Counted in the cost but never issued (default false).
        is_cost_only: optional bool,
        /// Expected loss in percent, 0 to under 100 (default 0).
        scrap_factor: optional Decimal,
        /// Notes.
        [directive = length::apply(NOTES_MAX)]
        notes: clearable String,
    }
}

/// How BOMs are listed.
#[derive(Debug, Clone, Default)]
pub struct BomFilter {
    /// Only this product's BOMs.
    pub product_id: Option<i64>,
    /// Only active BOMs.
    pub active_only: bool,
    /// Code, name, product SKU or product name contains (case-insensitive).
    pub search: Option<String>,
    /// Sort column (default code).
    pub sort_by: Option<BomSort>,
    /// Sort direction (default ascending).
    pub sort_order: Option<SortOrder>,
}

/// One page of BOMs and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &BomFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<BomRow>, i64)> {
    let build = || {
        let mut q = boms::table
            .inner_join(items::table)
            .select((BomRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(p) = filter.product_id {
            q = q.filter(boms::product_id.eq(p));
        }
        if filter.active_only {
            q = q.filter(boms::active.eq(true));
        }
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = like_pattern(s);
            q = q.filter(
                boms::code
                    .ilike(p.clone())
                    .or(boms::name.ilike(p.clone()))
                    .or(items::sku.ilike(p.clone()))
                    .or(items::name.ilike(p)),
            );
        }
        let order = filter.sort_order.unwrap_or(SortOrder::Asc);
        let id = boms::id;
        match filter.sort_by.unwrap_or(BomSort::Code) {
            BomSort::Code => paging::sorted(q, boms::code, id, order),
            BomSort::Name => paging::sorted(q, boms::name, id, order),
            BomSort::Version => paging::sorted(q, boms::version, id, order),
            BomSort::ProductSku => paging::sorted(q, items::sku, id, order),
            BomSort::MaterialCost => paging::sorted(q, boms::material_cost, id, order),
            BomSort::CreatedAt => paging::sorted(q, boms::created_at, id, order),
            BomSort::UpdatedAt => paging::sorted(q, boms::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The BOM with this id, or a 404.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<BomRow> {
    paging::find_or_404(
        conn,
        boms::table.find(id).select(BomRow::as_select()),
        "BOM not found",
    )
    .await
}

/// The BOMs with these ids.
pub async fn by_ids(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<BomRow>> {
    Ok(boms::table
        .filter(boms::id.eq_any(ids))
        .select(BomRow::as_select())
        .load(conn)
        .await?)
}

/// The active BOM of each of these products (at most one each).
pub async fn active_of(conn: &mut AsyncPgConnection, products: &[i64]) -> AppResult<Vec<BomRow>> {
    Ok(boms::table
        .filter(boms::product_id.eq_any(products))
        .filter(boms::active.eq(true))
        .select(BomRow::as_select())
        .load(conn)
        .await?)
}

/// The lines of these BOMs, by BOM, sequence and id.
pub async fn lines_of(conn: &mut AsyncPgConnection, bom_ids: &[i64]) -> AppResult<Vec<BomLineRow>> {
    Ok(bom_lines::table
        .filter(bom_lines::bom_id.eq_any(bom_ids))
        .order((bom_lines::bom_id, bom_lines::sequence, bom_lines::id))
        .select(BomLineRow::as_select())
        .load(conn)
        .await?)
}

/// One line of a BOM, or a 404.
pub async fn find_line(
    conn: &mut AsyncPgConnection,
    bom_id: i64,
    line_id: i64,
) -> AppResult<BomLineRow> {
    paging::find_or_404(
        conn,
        bom_lines::table
            .filter(bom_lines::id.eq(line_id))
            .filter(bom_lines::bom_id.eq(bom_id))
            .select(BomLineRow::as_select()),
        "BOM line not found",
    )
    .await
}

/// Every line (with its BOM) that uses this component, active BOMs first.
pub async fn where_used(
    conn: &mut AsyncPgConnection,
    component_id: i64,
    active_only: bool,
) -> AppResult<Vec<(BomLineRow, BomRow)>> {
    let mut q = bom_lines::table
        .inner_join(boms::table)
        .filter(bom_lines::component_id.eq(component_id))
        .select((BomLineRow::as_select(), BomRow::as_select()))
        .order((boms::active.desc(), boms::code, bom_lines::id))
        .into_boxed();
    if active_only {
        q = q.filter(boms::active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// The item facts a BOM needs about a product or component.
#[derive(Debug, Clone, Queryable)]
pub struct Part {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Stocking unit.
    pub unit: String,
    /// The item type (finished_good, component, material...).
    pub item_type: String,
    /// fifo, average or standard.
    pub cost_method: String,
    /// Standard cost per stocking unit.
    pub standard_cost: Option<bigdecimal::BigDecimal>,
    /// Moving average cost.
    pub average_cost: Option<bigdecimal::BigDecimal>,
    /// Last receipt cost.
    pub last_cost: Option<bigdecimal::BigDecimal>,
    /// Active.
    pub active: bool,
}

/// [`Part`]s of these items.
pub async fn parts(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<Part>> {
    Ok(items::table
        .filter(items::id.eq_any(ids))
        .select((
            items::id,
            items::sku,
            items::name,
            items::unit,
            items::item_type,
            items::cost_method,
            items::standard_cost,
            items::average_cost,
            items::last_cost,
            items::active,
        ))
        .load(conn)
        .await?)
}

/// The highest version of a product's BOMs (0 when it has none).
pub async fn highest_version(conn: &mut AsyncPgConnection, product_id: i64) -> AppResult<i32> {
    let v: Option<i32> = boms::table
        .filter(boms::product_id.eq(product_id))
        .select(diesel::dsl::max(boms::version))
        .first(conn)
        .await?;
    Ok(v.unwrap_or(0))
}

/// Whether the product already has a BOM with this version.
pub async fn version_exists(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    version: i32,
) -> AppResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        boms::table
            .filter(boms::product_id.eq(product_id))
            .filter(boms::version.eq(version)),
    ))
    .get_result(conn)
    .await?)
}

/// The highest line sequence of a BOM (0 when empty).
pub async fn highest_sequence(conn: &mut AsyncPgConnection, bom_id: i64) -> AppResult<i32> {
    let v: Option<i32> = bom_lines::table
        .filter(bom_lines::bom_id.eq(bom_id))
        .select(diesel::dsl::max(bom_lines::sequence))
        .first(conn)
        .await?;
    Ok(v.unwrap_or(0))
}

/// Locks the product's row so two saves of its BOMs (activation, cycle checks) take turns.
pub async fn lock_product(conn: &mut AsyncPgConnection, product_id: i64) -> AppResult<bool> {
    Ok(items::table
        .find(product_id)
        .select(items::id)
        .for_update()
        .first::<i64>(conn)
        .await
        .optional()?
        .is_some())
}

/// Deactivates every other BOM of the product.
pub async fn deactivate_others(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    keep: i64,
) -> AppResult<()> {
    diesel::update(
        boms::table
            .filter(boms::product_id.eq(product_id))
            .filter(boms::id.ne(keep))
            .filter(boms::active.eq(true)),
    )
    .set(boms::active.eq(false))
    .execute(conn)
    .await?;
    Ok(())
}

/// Inserts a checked BOM header.
pub async fn insert(conn: &mut AsyncPgConnection, form: &BomForm) -> AppResult<BomRow> {
    Ok(diesel::insert_into(boms::table)
        .values(form)
        .returning(BomRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a BOM header with a checked form (an empty change answers the row as it is).
pub async fn update(conn: &mut AsyncPgConnection, id: i64, form: &BomForm) -> AppResult<BomRow> {
    let result = diesel::update(boms::table.find(id))
        .set(form)
        .returning(BomRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("BOM not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id).await,
        other => Ok(other?),
    }
}

/// Stores a recalculated component cost.
pub async fn set_material_cost(
    conn: &mut AsyncPgConnection,
    id: i64,
    cost: &bigdecimal::BigDecimal,
) -> AppResult<BomRow> {
    Ok(diesel::update(boms::table.find(id))
        .set(boms::material_cost.eq(cost))
        .returning(BomRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Deletes a BOM and its lines.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> AppResult<usize> {
    Ok(diesel::delete(boms::table.find(id)).execute(conn).await?)
}

/// Inserts checked lines into a BOM.
pub async fn insert_lines(
    conn: &mut AsyncPgConnection,
    bom_id: i64,
    forms: &[BomLineForm],
) -> AppResult<Vec<BomLineRow>> {
    if forms.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<_> = forms
        .iter()
        .map(|f| (bom_lines::bom_id.eq(bom_id), f))
        .collect();
    Ok(diesel::insert_into(bom_lines::table)
        .values(rows)
        .returning(BomLineRow::as_returning())
        .get_results(conn)
        .await?)
}

/// Updates a line with a checked form.
pub async fn update_line(
    conn: &mut AsyncPgConnection,
    line_id: i64,
    form: &BomLineForm,
) -> AppResult<BomLineRow> {
    let result = diesel::update(bom_lines::table.find(line_id))
        .set(form)
        .returning(BomLineRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("BOM line not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => Ok(bom_lines::table
            .find(line_id)
            .select(BomLineRow::as_select())
            .first(conn)
            .await?),
        other => Ok(other?),
    }
}

/// Deletes a line.
pub async fn delete_line(conn: &mut AsyncPgConnection, line_id: i64) -> AppResult<usize> {
    Ok(diesel::delete(bom_lines::table.find(line_id))
        .execute(conn)
        .await?)
}

/// Touches the BOM's `updated_at` (a line changed).
pub async fn touch(conn: &mut AsyncPgConnection, bom_id: i64) -> AppResult<()> {
    diesel::update(boms::table.find(bom_id))
        .set(boms::updated_at.eq(diesel::dsl::now))
        .execute(conn)
        .await?;
    Ok(())
}

/// An active BOM that needs someone's eye (CONTRACT 5.1 `pending_bom_reviews`), with why.
#[derive(Debug, Clone, QueryableByName, SimpleObject)]
pub struct BomReview {
    /// The BOM.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub bom_id: i64,
    /// Its code.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub bom_code: String,
    /// The product's SKU.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub product_sku: String,
    /// The product's name.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub product_name: String,
    /// Component cost plus process cost, as last rolled up.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_cost: Decimal,
    /// How many lines it has.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub line_count: i64,
    /// Created.
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    pub created_at: Timestamp,
    /// Why it needs review: `no_lines`, `discontinued_component` or `no_cost`.
    #[diesel(sql_type = diesel::sql_types::Array<diesel::sql_types::Text>)]
    pub reasons: Vec<String>,
    /// How many BOMs need review in all (the same on every row).
    #[graphql(skip)]
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub total: i64,
}

/// Active BOMs that cannot be trusted as they are, newest first: no lines, a component that
/// is discontinued (it can no longer be bought or made), or no cost at all (quotes and COGS
/// would price the product at zero). One statement; `total` counts them all.
pub async fn needing_review(conn: &mut AsyncPgConnection, limit: i64) -> AppResult<Vec<BomReview>> {
    const SQL: &str = "\
        WITH flagged AS ( \
            SELECT b.id AS bom_id, b.code AS bom_code, p.sku AS product_sku, p.name AS product_name, \
                   (b.material_cost + b.process_cost) AS total_cost, count(l.id) AS line_count, \
                   b.created_at, \
                   array_remove(ARRAY[ \
                       CASE WHEN count(l.id) = 0 THEN 'no_lines' END, \
                       CASE WHEN bool_or(NOT c.active) THEN 'discontinued_component' END, \
                       CASE WHEN count(l.id) > 0 AND b.material_cost + b.process_cost = 0 THEN 'no_cost' END \
                   ], NULL) AS reasons \
            FROM boms b \
            JOIN items p ON p.id = b.product_id \
            LEFT JOIN bom_lines l ON l.bom_id = b.id \
            LEFT JOIN items c ON c.id = l.component_id \
            WHERE b.active \
            GROUP BY b.id, p.sku, p.name) \
        SELECT f.*, count(*) OVER () AS total FROM flagged f \
        WHERE cardinality(f.reasons) > 0 \
        ORDER BY f.created_at DESC, f.bom_id DESC LIMIT $1";
    Ok(diesel::sql_query(SQL)
        .bind::<diesel::sql_types::BigInt, _>(limit)
        .load(conn)
        .await?)
}
