//! Catalog rows and the queries on them: items, item categories, units of measure, files.

use bigdecimal::BigDecimal;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::{
    bom_lines, boms, inventory_balances, item_categories, item_files, items, units_of_measure,
};
use diesel::sql_types::{Jsonb, Nullable, Text};

use crate::master_data::catalog::rules::{DESCRIPTION_MAX, NAME_MAX, SKU_MAX, UPC_MAX, URL_MAX};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::Decimal;

/// A stored item.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = items)]
pub struct ItemRow {
    /// Id.
    pub id: i64,
    /// Upper-case SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Category.
    pub category_id: Option<i64>,
    /// finished_good, component, material, consumable (and supply, service, packaging).
    pub item_type: ItemType,
    /// make, buy or make_or_buy.
    pub procurement_type: ProcurementType,
    /// Stocking unit code.
    pub unit: String,
    /// Purchase unit code.
    pub purchase_uom: String,
    /// Stocking units per purchase unit.
    pub purchase_factor: BigDecimal,
    /// fifo, average or standard.
    pub cost_method: CostMethod,
    /// Standard cost per stocking unit.
    pub standard_cost: Option<BigDecimal>,
    /// Average cost.
    pub average_cost: Option<BigDecimal>,
    /// Last purchase cost.
    pub last_cost: Option<BigDecimal>,
    /// Selling price.
    pub selling_price: Option<BigDecimal>,
    /// Weight in ounces.
    pub weight_oz: Option<BigDecimal>,
    /// Length in inches.
    pub length_in: Option<BigDecimal>,
    /// Width in inches.
    pub width_in: Option<BigDecimal>,
    /// Height in inches.
    pub height_in: Option<BigDecimal>,
    /// Lead time.
    pub lead_time_days: Option<i32>,
    /// Minimum order quantity.
    pub min_order_qty: Option<BigDecimal>,
    /// Reorder point.
    pub reorder_point: Option<BigDecimal>,
    /// Reorder quantity.
    pub reorder_qty: Option<BigDecimal>,
    /// Stock kept back for surprises: MRP plans so the projected balance never falls below it.
    pub safety_stock: BigDecimal,
    /// stocked or on_demand.
    pub stocking_policy: StockingPolicy,
    /// UPC / barcode.
    pub upc: Option<String>,
    /// The SKU in a previous system.
    pub legacy_sku: Option<String>,
    /// Picture URL.
    pub image_url: Option<String>,
    /// Whether it is a raw material.
    pub is_raw_material: bool,
    /// Lot tracking.
    pub track_lots: bool,
    /// Serial tracking.
    pub track_serials: bool,
    /// Active (soft delete clears it).
    pub active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
    /// The template it is a variant of.
    pub parent_product_id: Option<i64>,
    /// Whether it has variants (a template).
    pub is_template: bool,
}

crate::text_enum! {
    /// What an item is.
    pub enum ItemType {
        /// Sold to customers.
        FinishedGood,
        /// Goes into finished goods.
        Component,
        /// Raw material (filament, resin), stocked in grams.
        Material,
        /// Used up in production.
        Consumable,
        /// Shop supplies.
        Supply,
        /// A service (not stocked).
        Service,
        /// Packaging.
        Packaging,
    }
}

crate::text_enum! {
    /// How an item is obtained.
    pub enum ProcurementType {
        /// Bought from vendors.
        Buy,
        /// Made in house.
        Make,
        /// Either.
        MakeOrBuy,
    }
}

crate::text_enum! {
    /// Whether stock is kept.
    pub enum StockingPolicy {
        /// Made or bought when needed.
        OnDemand,
        /// Kept in stock.
        Stocked,
    }
}

crate::text_enum! {
    /// How cost is computed.
    pub enum CostMethod {
        /// Moving average (recomputed on each receipt).
        Average,
        /// First in, first out.
        Fifo,
        /// A fixed standard cost.
        Standard,
    }
}

crate::input_forms! {
    table = items;
    /// A new item. Blank SKUs are generated from the type (`FG-001`, `MAT-002`...).
    create ItemCreateInput;
    /// Changes to an item: omitted fields keep their value, `null` clears a clearable one.
    update ItemUpdateInput;
    /// An item's writable columns, checked and completed by `items::check`.
    form ItemForm;
    {
        /// SKU (blank on create: generated).
        [directive = length::apply(SKU_MAX)]
        sku: optional String,
        /// Name.
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// Description.
        [directive = length::apply(DESCRIPTION_MAX)]
        description: clearable String,
        /// Category.
        category_id: clearable i64,
        /// Type (default finished_good).
        item_type: optional ItemType,
        /// Procurement (default buy).
        procurement_type: optional ProcurementType,
        /// Stocking unit code (default EA; G for materials).
        unit: optional String,
        /// Purchase unit code (default EA; KG for materials).
        purchase_uom: optional String,
        /// Stocking units per purchase unit.
        purchase_factor: optional Decimal,
        /// Cost method (default average).
        cost_method: optional CostMethod,
        /// Standard cost.
        standard_cost: clearable Decimal,
        /// Selling price.
        selling_price: clearable Decimal,
        /// Weight in ounces.
        weight_oz: clearable Decimal,
        /// Length in inches.
        length_in: clearable Decimal,
        /// Width in inches.
        width_in: clearable Decimal,
        /// Height in inches.
        height_in: clearable Decimal,
        /// Lead time in days.
        lead_time_days: clearable i32,
        /// Minimum order quantity.
        min_order_qty: clearable Decimal,
        /// Reorder point.
        reorder_point: clearable Decimal,
        /// Reorder quantity.
        reorder_qty: clearable Decimal,
        /// Safety stock in the stocking unit (at least 0, default 0): MRP keeps the projected
        /// balance at or above it.
        safety_stock: optional Decimal,
        /// Stocking policy (default on_demand).
        stocking_policy: optional StockingPolicy,
        /// UPC / barcode.
        [directive = length::apply(UPC_MAX)]
        upc: clearable String,
        /// SKU in a previous system.
        [directive = length::apply(SKU_MAX)]
        legacy_sku: clearable String,
        /// Picture URL.
        [directive = length::apply(URL_MAX)]
        image_url: clearable String,
        /// Raw material.
        is_raw_material: optional bool,
        /// Track lots.
        track_lots: optional bool,
        /// Track serial numbers.
        track_serials: optional bool,
        /// Active (default true).
        active: optional bool,
    }
    inputs {
        /// Synonym of `active` (the spec's name); wins when both are given.
        is_active: Option<bool>,
    }
}

impl ItemCreateInput {
    /// The form, with `isActive` folded into `active`.
    pub fn into_form(self) -> ItemForm {
        let is_active = self.is_active;
        let mut form = ItemForm::from(self);
        form.active = is_active.or(form.active);
        form
    }
}

impl ItemUpdateInput {
    /// The form, with `isActive` folded into `active`.
    pub fn into_form(self) -> ItemForm {
        let is_active = self.is_active;
        let mut form = ItemForm::from(self);
        form.active = is_active.or(form.active);
        form
    }
}

crate::text_enum! {
    /// The columns items can be sorted by (default `sku`).
    pub enum ItemSort {
        /// SKU.
        Sku,
        /// Name.
        Name,
        /// Item type.
        ItemType,
        /// Procurement type.
        ProcurementType,
        /// Stocking unit.
        Unit,
        /// Standard cost.
        StandardCost,
        /// Selling price.
        SellingPrice,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// How items are listed.
#[derive(Debug, Clone, Default)]
pub struct ItemFilter {
    /// SKU, name or UPC contains (case-insensitive).
    pub search: Option<String>,
    /// Only this type.
    pub item_type: Option<ItemType>,
    /// Only this procurement type.
    pub procurement_type: Option<ProcurementType>,
    /// Only this category and its descendants (found by a recursive query in the same
    /// statement).
    pub category_tree: Option<i64>,
    /// Only active (true), only inactive (false) or both (None).
    pub active: Option<bool>,
    /// Sort column (default SKU).
    pub sort_by: Option<ItemSort>,
    /// Sort direction (default ascending).
    pub sort_order: Option<crate::platform::db::paging::SortOrder>,
}

pub use crate::platform::db::like_pattern;

/// Which relations an item read brings along in its own statement (what the GraphQL
/// operation selects), so a read is one statement however many relations it shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemIncludes {
    /// The category's name and path.
    pub category: bool,
    /// The files.
    pub files: bool,
    /// Stock totals over every location (on hand, allocated).
    pub stock: bool,
    /// Whether it has an active BOM.
    pub bom: bool,
}

impl ItemIncludes {
    /// What either of two selections needs.
    pub fn or(self, other: ItemIncludes) -> ItemIncludes {
        ItemIncludes {
            category: self.category || other.category,
            files: self.files || other.files,
            stock: self.stock || other.stock,
            bom: self.bom || other.bom,
        }
    }
}

/// The relations an item read brought along (`None`: not read, ask the loaders).
#[derive(Debug, Clone, Default)]
pub struct ItemExtras {
    /// The category's name and its path from the root (`Filament > PLA`).
    pub category: Option<(Option<String>, Option<String>)>,
    /// The files, oldest first.
    pub files: Option<Vec<ItemFileRow>>,
    /// Stock totals over every location.
    pub stock: Option<StockTotals>,
    /// Whether it has an active BOM.
    pub has_bom: Option<bool>,
}

/// The category's name, from the join of [`items_with_category`]. (A join, not a correlated
/// subquery per column: on a page of 50 the subqueries cost PostgreSQL as much as the page.)
const CATEGORY_NAME_SQL: &str = "item_categories.name";
/// The category's path from the root, kept on the category by triggers.
const CATEGORY_PATH_SQL: &str = "item_categories.path";
/// The files as one JSON array.
const FILES_SQL: &str = "(SELECT COALESCE(jsonb_agg(to_jsonb(f) ORDER BY f.id), '[]'::jsonb) \
     FROM item_files f WHERE f.item_id = items.id)";

/// On hand and allocated over every location (index lookups on the balances' key).
const ON_HAND_SQL: &str =
    "(SELECT SUM(b.on_hand_quantity) FROM inventory_balances b WHERE b.item_id = items.id)";
const ALLOCATED_SQL: &str =
    "(SELECT SUM(b.allocated_quantity) FROM inventory_balances b WHERE b.item_id = items.id)";

/// Whether an active BOM makes the item (the partial unique index answers it).
const HAS_BOM_SQL: &str =
    "EXISTS (SELECT 1 FROM boms m WHERE m.product_id = items.id AND m.active)";

type TextColumn = crate::platform::db::fragment::Fixed<Nullable<Text>>;
type JsonColumn = crate::platform::db::fragment::Fixed<Nullable<Jsonb>>;
type NumericColumn = crate::platform::db::fragment::Fixed<Nullable<diesel::sql_types::Numeric>>;
type BoolColumn = crate::platform::db::fragment::Fixed<Nullable<diesel::sql_types::Bool>>;
type ItemWithExtras = (
    ItemRow,
    Option<String>,
    Option<String>,
    Option<serde_json::Value>,
    Option<bigdecimal::BigDecimal>,
    Option<bigdecimal::BigDecimal>,
    Option<bool>,
);

/// Items with their category joined (PostgreSQL drops the join when nothing reads it).
fn items_with_category() -> diesel::dsl::LeftJoin<items::table, item_categories::table> {
    items::table.left_join(item_categories::table)
}

/// The row plus the relation columns `include` asks for (NULL for the others, so the
/// statement has one shape).
#[allow(clippy::type_complexity)]
fn with_extras(
    include: ItemIncludes,
) -> (
    TextColumn,
    TextColumn,
    JsonColumn,
    NumericColumn,
    NumericColumn,
    BoolColumn,
) {
    let pick = |wanted: bool, sql: &'static str| if wanted { sql } else { "NULL" };
    (
        crate::platform::db::fragment::fixed(pick(include.category, CATEGORY_NAME_SQL)),
        crate::platform::db::fragment::fixed(pick(include.category, CATEGORY_PATH_SQL)),
        crate::platform::db::fragment::fixed(pick(include.files, FILES_SQL)),
        crate::platform::db::fragment::fixed(pick(include.stock, ON_HAND_SQL)),
        crate::platform::db::fragment::fixed(pick(include.stock, ALLOCATED_SQL)),
        crate::platform::db::fragment::fixed(pick(include.bom, HAS_BOM_SQL)),
    )
}

fn split_extras(include: ItemIncludes, row: ItemWithExtras) -> AppResult<(ItemRow, ItemExtras)> {
    let (item, name, path, files, on_hand, allocated, has_bom) = row;
    let stock = include.stock.then(|| {
        let on_hand = on_hand.unwrap_or_default();
        let allocated = allocated.unwrap_or_default();
        StockTotals {
            available: &on_hand - &allocated,
            on_hand,
            allocated,
        }
    });
    let files = match files {
        Some(json) if include.files => Some(
            serde_json::from_value::<Vec<ItemFileRow>>(json)
                .map_err(|e| AppError::internal(format!("item files: {e}")))?,
        ),
        _ => None,
    };
    Ok((
        item,
        ItemExtras {
            category: include.category.then_some((name, path)),
            files,
            stock,
            has_bom: if include.bom { has_bom } else { None },
        },
    ))
}

/// One page of items (by SKU unless sorted otherwise) with the relations `include` asks for,
/// and the total: two statements. (One statement with `COUNT(*) OVER()` makes PostgreSQL
/// sort every matching row, wide, before the limit: 8 ms instead of 2 on 10,000 items. The
/// count alone is a narrow scan, and the page reads its rows in index order.)
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &ItemFilter,
    include: ItemIncludes,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<(ItemRow, ItemExtras)>, i64)> {
    use crate::platform::db::paging::{self, SortOrder};
    let filtered = || {
        let mut q = items_with_category().into_boxed();
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = like_pattern(s);
            q = q.filter(
                items::sku
                    .ilike(p.clone())
                    .or(items::name.ilike(p.clone()))
                    .or(items::upc.ilike(p)),
            );
        }
        if let Some(t) = &filter.item_type {
            q = q.filter(items::item_type.eq(*t));
        }
        if let Some(t) = &filter.procurement_type {
            q = q.filter(items::procurement_type.eq(*t));
        }
        if let Some(root) = filter.category_tree {
            q = q.filter(crate::platform::db::fragment::fixed_bind::<
                diesel::sql_types::Bool,
                diesel::sql_types::BigInt,
                _,
            >(
                "items.category_id IN (WITH RECURSIVE tree(id) AS (\
                     SELECT id FROM item_categories WHERE id = ",
                root,
                " UNION SELECT c.id FROM item_categories c JOIN tree ON c.parent_id = tree.id) \
                     SELECT id FROM tree)",
            ));
        }
        // Written as a constant, not a bound parameter: PostgreSQL matches a partial index
        // (`items_active_sku`) only against constants, and prepared statements are planned
        // generically, so `active = $1` would count by scanning every row.
        match filter.active {
            Some(true) => q = q.filter(items::active),
            Some(false) => q = q.filter(diesel::dsl::not(items::active)),
            None => {}
        }
        q
    };
    let total: i64 = filtered().count().get_result(conn).await?;
    if total == 0 || offset >= total {
        return Ok((Vec::new(), total));
    }
    let page = {
        let (name, path, files, on_hand, allocated, has_bom) = with_extras(include);
        let q = filtered().select((
            ItemRow::as_select(),
            name,
            path,
            files,
            on_hand,
            allocated,
            has_bom,
        ));
        let order = filter.sort_order.unwrap_or(SortOrder::Asc);
        let id = items::id;
        match filter.sort_by.unwrap_or(ItemSort::Sku) {
            ItemSort::Sku => paging::sorted(q, items::sku, id, order),
            ItemSort::Name => paging::sorted(q, items::name, id, order),
            ItemSort::ItemType => paging::sorted(q, items::item_type, id, order),
            ItemSort::ProcurementType => paging::sorted(q, items::procurement_type, id, order),
            ItemSort::Unit => paging::sorted(q, items::unit, id, order),
            ItemSort::StandardCost => paging::sorted(q, items::standard_cost, id, order),
            ItemSort::SellingPrice => paging::sorted(q, items::selling_price, id, order),
            ItemSort::CreatedAt => paging::sorted(q, items::created_at, id, order),
            ItemSort::UpdatedAt => paging::sorted(q, items::updated_at, id, order),
        }
    };
    let rows: Vec<ItemWithExtras> = page.limit(limit).offset(offset).load(conn).await?;
    let rows = rows
        .into_iter()
        .map(|row| split_extras(include, row))
        .collect::<AppResult<Vec<_>>>()?;
    Ok((rows, total))
}

/// The item with this id and the relations `include` asks for, in one statement.
pub async fn find_with(
    conn: &mut AsyncPgConnection,
    id: i64,
    include: ItemIncludes,
) -> AppResult<(ItemRow, ItemExtras)> {
    let (name, path, files, on_hand, allocated, has_bom) = with_extras(include);
    let row: ItemWithExtras = crate::platform::db::paging::find_or_404(
        conn,
        items_with_category().filter(items::id.eq(id)).select((
            ItemRow::as_select(),
            name,
            path,
            files,
            on_hand,
            allocated,
            has_bom,
        )),
        "Item not found",
    )
    .await?;
    split_extras(include, row)
}

/// Whether an item exists.
pub async fn exists(conn: &mut AsyncPgConnection, id: i64) -> AppResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(items::table.find(id)))
        .get_result(conn)
        .await?)
}

/// The item with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<ItemRow>> {
    Ok(items::table
        .find(id)
        .select(ItemRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The item with this SKU (any case: SKUs are stored upper-case).
pub async fn find_by_sku(conn: &mut AsyncPgConnection, sku: &str) -> AppResult<Option<ItemRow>> {
    Ok(items::table
        .filter(items::sku.eq(sku.trim().to_uppercase()))
        .select(ItemRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Inserts an item.
pub async fn insert(conn: &mut AsyncPgConnection, form: &ItemForm) -> AppResult<ItemRow> {
    Ok(diesel::insert_into(items::table)
        .values(form)
        .returning(ItemRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates an item.
pub async fn update(conn: &mut AsyncPgConnection, id: i64, form: &ItemForm) -> AppResult<ItemRow> {
    let result = diesel::update(items::table.find(id))
        .set(form)
        .returning(ItemRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id)
            .await?
            .ok_or_else(|| crate::platform::error::AppError::not_found("Item not found")),
        other => Ok(other?),
    }
}

/// The next generated SKU for a prefix (`FG-001`, `MAT-002`, ...): the shared sequence
/// guarantees uniqueness under concurrency; a collision with a hand-typed SKU skips ahead.
pub async fn next_sku(conn: &mut AsyncPgConnection, prefix: &str) -> AppResult<String> {
    loop {
        let n: i64 = diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
            "nextval('item_sku_seq')",
        ))
        .get_result(conn)
        .await?;
        let sku = format!("{prefix}-{n:03}");
        if find_by_sku(conn, &sku).await?.is_none() {
            return Ok(sku);
        }
    }
}

/// What still uses an item (stock on hand, active BOMs): a non-empty list refuses a delete.
pub async fn usage(conn: &mut AsyncPgConnection, item_id: i64) -> AppResult<Vec<String>> {
    let mut uses = Vec::new();
    let stock = totals_of(conn, &[item_id]).await?;
    if let Some((_, totals)) = <[_]>::first(&stock)
        && !bigdecimal::Zero::is_zero(&totals.on_hand)
    {
        uses.push(format!("{} on hand", totals.on_hand.normalized()));
    }
    let (as_component, as_product) = uses_of_item(conn, item_id).await?;
    if as_component > 0 {
        uses.push(format!("a component of {as_component} active BOM(s)"));
    }
    if as_product > 0 {
        uses.push("an active BOM".to_string());
    }
    Ok(uses)
}

/// A stored category.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = item_categories)]
pub struct CategoryRow {
    /// Id.
    pub id: i64,
    /// Short code.
    pub code: String,
    /// Name.
    pub name: String,
    /// Parent category.
    pub parent_id: Option<i64>,
    /// Description.
    pub description: Option<String>,
    /// Order among siblings.
    pub sort_order: i32,
    /// Active.
    pub active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = item_categories;
    /// A new category.
    create ItemCategoryCreateInput;
    /// Changes to a category: omitted fields keep their value; a `null` parent makes it a root.
    update ItemCategoryUpdateInput;
    /// A category's writable columns, checked and normalised by `rules::save_category` (which
    /// also makes a new category's code from its name when none is given).
    form CategoryForm;
    {
        /// Short code (unique ignoring case; default: the name upper-cased).
        code: optional String,
        /// Name.
        name: required String,
        /// Parent category (null: a root).
        parent_id: clearable i64,
        /// Description (null clears it).
        description: clearable String,
        /// Order among siblings (default 0).
        sort_order: optional i32,
        /// Active (default true).
        active: optional bool,
    }
}

/// Every category (the tree is small), ordered for display.
pub async fn categories(conn: &mut AsyncPgConnection) -> AppResult<Vec<CategoryRow>> {
    Ok(item_categories::table
        .order((
            item_categories::sort_order.asc(),
            item_categories::name.asc(),
        ))
        .select(CategoryRow::as_select())
        .load(conn)
        .await?)
}

/// Categories by id (the DataLoader's batch).
pub async fn categories_by_ids(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<CategoryRow>> {
    Ok(item_categories::table
        .filter(item_categories::id.eq_any(ids))
        .select(CategoryRow::as_select())
        .load(conn)
        .await?)
}

/// A category and all its descendants.
pub fn with_descendants(all: &[CategoryRow], root: i64) -> Vec<i64> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let parent = out[i];
        out.extend(
            all.iter()
                .filter(|c| c.parent_id == Some(parent))
                .map(|c| c.id),
        );
        i += 1;
    }
    out
}

/// `Filament > PLA`: the names from the root down.
pub fn path(all: &[CategoryRow], id: i64) -> String {
    let mut names = Vec::new();
    let mut current = Some(id);
    while let Some(c) = current.and_then(|cid| all.iter().find(|c| c.id == cid)) {
        names.push(c.name.clone());
        current = c.parent_id;
        if names.len() > 64 {
            break;
        }
    }
    names.reverse();
    names.join(" > ")
}

/// Inserts a category (its code is set: `rules::save_category` makes one from the name).
pub async fn insert_category(
    conn: &mut AsyncPgConnection,
    form: &CategoryForm,
) -> AppResult<CategoryRow> {
    Ok(diesel::insert_into(item_categories::table)
        .values(form)
        .returning(CategoryRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a category.
pub async fn update_category(
    conn: &mut AsyncPgConnection,
    id: i64,
    form: &CategoryForm,
) -> AppResult<CategoryRow> {
    let result = diesel::update(item_categories::table.find(id))
        .set(form)
        .returning(CategoryRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => Ok(item_categories::table
            .find(id)
            .select(CategoryRow::as_select())
            .first(conn)
            .await?),
        other => Ok(other?),
    }
}

/// A unit of measure.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = units_of_measure)]
pub struct UomRow {
    /// Id.
    pub id: i64,
    /// Code (EA, G, KG...).
    pub code: String,
    /// Name.
    pub name: String,
    /// Symbol.
    pub symbol: String,
    /// quantity, weight, length, time or volume.
    pub uom_class: String,
    /// The base unit of the class (None for a base unit).
    pub base_unit_code: Option<String>,
    /// Factor to the base unit.
    pub to_base_factor: BigDecimal,
    /// Active.
    pub active: bool,
}

/// Every unit of measure, by class and code.
pub async fn units(conn: &mut AsyncPgConnection) -> AppResult<Vec<UomRow>> {
    Ok(units_of_measure::table
        .order((
            units_of_measure::uom_class.asc(),
            units_of_measure::code.asc(),
        ))
        .select(UomRow::as_select())
        .load(conn)
        .await?)
}

/// A file attached to an item (also read from JSON when it comes along with its item).
#[derive(Debug, Clone, Queryable, Selectable, serde::Deserialize)]
#[diesel(table_name = item_files)]
pub struct ItemFileRow {
    /// Id.
    pub id: i64,
    /// The item.
    pub item_id: i64,
    /// The name it was uploaded with.
    pub original_name: String,
    /// The generated name under the uploads directory.
    pub stored_name: String,
    /// Detected content type.
    pub content_type: String,
    /// Size.
    pub size_bytes: i64,
    /// SHA-256 of the content.
    pub sha256: String,
    /// Who uploaded it.
    pub uploaded_by: Option<i64>,
    /// When.
    pub created_at: DateTime<Utc>,
}

/// Files of these items (the DataLoader's batch).
pub async fn files_of(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
) -> AppResult<Vec<ItemFileRow>> {
    Ok(item_files::table
        .filter(item_files::item_id.eq_any(item_ids))
        .order(item_files::id.asc())
        .select(ItemFileRow::as_select())
        .load(conn)
        .await?)
}

/// Stock totals of one item over every location (read from the inventory ledger's
/// balances: with the item, by the inventory loader, or for the delete guard).
#[derive(Debug, Clone, Default)]
pub struct StockTotals {
    /// On hand.
    pub on_hand: BigDecimal,
    /// Allocated.
    pub allocated: BigDecimal,
    /// Available.
    pub available: BigDecimal,
}

/// On hand, allocated and available of these items over every location (items without
/// stock are missing from the answer).
pub async fn totals_of(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
) -> AppResult<Vec<(i64, StockTotals)>> {
    use diesel::dsl::sum;
    let rows: Vec<(i64, Option<BigDecimal>, Option<BigDecimal>)> = inventory_balances::table
        .filter(inventory_balances::item_id.eq_any(item_ids))
        .group_by(inventory_balances::item_id)
        .select((
            inventory_balances::item_id,
            sum(inventory_balances::on_hand_quantity),
            sum(inventory_balances::allocated_quantity),
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, on_hand, allocated)| {
            let on_hand = on_hand.unwrap_or_default();
            let allocated = allocated.unwrap_or_default();
            let available = &on_hand - &allocated;
            (
                id,
                StockTotals {
                    on_hand,
                    allocated,
                    available,
                },
            )
        })
        .collect())
}

/// How many active BOMs use the item as a component or make it (the item delete guard).
pub async fn uses_of_item(conn: &mut AsyncPgConnection, item_id: i64) -> AppResult<(i64, i64)> {
    let as_component: i64 = bom_lines::table
        .inner_join(boms::table)
        .filter(bom_lines::component_id.eq(item_id))
        .filter(boms::active.eq(true))
        .count()
        .get_result(conn)
        .await?;
    let as_product: i64 = boms::table
        .filter(boms::product_id.eq(item_id))
        .filter(boms::active.eq(true))
        .count()
        .get_result(conn)
        .await?;
    Ok((as_component, as_product))
}
