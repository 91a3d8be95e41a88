//! The catalog in the schema: items, categories, units of measure and item files.

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::BigDecimal;

use crate::master_data::catalog::loaders::{AllCategories, CategoryTree, ItemFiles};
use crate::master_data::catalog::model::{
    self, CategoryForm, CategoryRow, ItemCategoryCreateInput, ItemCategoryUpdateInput, ItemFilter,
    ItemRow, UomRow,
};
use crate::master_data::catalog::{files, import, items};
use crate::platform::auth::Access;
use crate::platform::db::paging::SortOrder;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::flat::Flat;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::UserError;

pub use crate::master_data::catalog::model::{
    CostMethod, ItemCreateInput, ItemType, ItemUpdateInput, ProcurementType, StockingPolicy,
};

fn dec(v: Option<BigDecimal>) -> Option<Decimal> {
    v.map(Decimal)
}

/// A product, component, material or supply.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct Item {
    /// Id.
    pub id: i64,
    /// Stock keeping unit (upper case, unique ignoring case).
    pub sku: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Category id.
    pub category_id: Option<i64>,
    /// What the item is.
    pub item_type: ItemType,
    /// How it is obtained.
    pub procurement_type: ProcurementType,
    /// Stocking unit (a unit-of-measure code).
    pub unit: String,
    /// Purchase unit.
    pub purchase_uom: String,
    /// Stocking units per purchase unit (1000 for materials bought in KG, stocked in G).
    pub purchase_factor: Decimal,
    /// How cost is computed.
    pub cost_method: CostMethod,
    /// Standard cost per stocking unit.
    pub standard_cost: Option<Decimal>,
    /// Moving average cost.
    pub average_cost: Option<Decimal>,
    /// Last purchase cost.
    pub last_cost: Option<Decimal>,
    /// Selling price.
    pub selling_price: Option<Decimal>,
    /// Weight in ounces.
    pub weight_oz: Option<Decimal>,
    /// Length in inches.
    pub length_in: Option<Decimal>,
    /// Width in inches.
    pub width_in: Option<Decimal>,
    /// Height in inches.
    pub height_in: Option<Decimal>,
    /// Lead time in days.
    pub lead_time_days: Option<i32>,
    /// Minimum order quantity.
    pub min_order_qty: Option<Decimal>,
    /// Reorder point.
    pub reorder_point: Option<Decimal>,
    /// Reorder quantity.
    pub reorder_qty: Option<Decimal>,
    /// Safety stock (stocking unit): MRP keeps the projected balance at or above it.
    pub safety_stock: Decimal,
    /// Whether stock is kept.
    pub stocking_policy: StockingPolicy,
    /// UPC / barcode.
    pub upc: Option<String>,
    /// The SKU in a previous system.
    pub legacy_sku: Option<String>,
    /// The template it is a variant of.
    pub parent_product_id: Option<i64>,
    /// Whether it has variants (a template).
    pub is_template: bool,
    /// Picture URL.
    pub image_url: Option<String>,
    /// Whether it is a raw material.
    pub is_raw_material: bool,
    /// Whether lots are tracked.
    pub track_lots: bool,
    /// Whether serial numbers are tracked.
    pub track_serials: bool,
    /// Active (deleting an item deactivates it).
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// Relations read in the item's own statement (the loaders answer the rest).
    #[graphql(skip)]
    pub extras: model::ItemExtras,
}

impl Item {
    /// An item with the relations its statement brought along.
    pub fn with_extras((row, extras): (ItemRow, model::ItemExtras)) -> Item {
        Item {
            extras,
            ..Item::from(row)
        }
    }
}

/// The relations of an item the current field's selection shows.
fn item_includes(field: async_graphql::SelectionField<'_>) -> model::ItemIncludes {
    model::ItemIncludes {
        category: ["categoryName", "categoryPath"]
            .iter()
            .any(|f| field.selection_set().any(|s| s.name() == *f)),
        files: field.selection_set().any(|s| s.name() == "files"),
        stock: ["onHandQty", "availableQty", "allocatedQty", "needsReorder"]
            .iter()
            .any(|f| field.selection_set().any(|s| s.name() == *f)),
        bom: field.selection_set().any(|s| s.name() == "hasBom"),
    }
}

impl From<ItemRow> for Item {
    fn from(r: ItemRow) -> Self {
        Item {
            id: r.id,
            sku: r.sku,
            name: r.name,
            description: r.description,
            category_id: r.category_id,
            item_type: r.item_type,
            procurement_type: r.procurement_type,
            unit: r.unit,
            purchase_uom: r.purchase_uom,
            purchase_factor: Decimal(r.purchase_factor),
            cost_method: r.cost_method,
            standard_cost: dec(r.standard_cost),
            average_cost: dec(r.average_cost),
            last_cost: dec(r.last_cost),
            selling_price: dec(r.selling_price),
            weight_oz: dec(r.weight_oz),
            length_in: dec(r.length_in),
            width_in: dec(r.width_in),
            height_in: dec(r.height_in),
            lead_time_days: r.lead_time_days,
            min_order_qty: dec(r.min_order_qty),
            reorder_point: dec(r.reorder_point),
            reorder_qty: dec(r.reorder_qty),
            safety_stock: Decimal(r.safety_stock),
            stocking_policy: r.stocking_policy,
            upc: r.upc,
            legacy_sku: r.legacy_sku,
            image_url: r.image_url,
            parent_product_id: r.parent_product_id,
            is_template: r.is_template,
            is_raw_material: r.is_raw_material,
            track_lots: r.track_lots,
            track_serials: r.track_serials,
            active: r.active,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
            extras: model::ItemExtras::default(),
        }
    }
}

async fn all_categories(ctx: &Context<'_>) -> AppResult<std::sync::Arc<Vec<CategoryRow>>> {
    let loader = ctx
        .data::<CategoryTree>()
        .map_err(|e| AppError::internal(e.message))?;
    Ok(loader.load_one(AllCategories).await?.unwrap_or_default())
}

// The item's own computed fields: `crate::application::fields` serves them, beside the
// fields the areas above the catalog add to an item (stock, BOM).

/// The category.
pub async fn item_category(item: &Item, ctx: &Context<'_>) -> AppResult<Option<ItemCategory>> {
    let Some(id) = item.category_id else {
        return Ok(None);
    };
    let all = all_categories(ctx).await?;
    Ok(all
        .iter()
        .find(|c| c.id == id)
        .map(|c| ItemCategory::new(c, &all)))
}

/// The category's name.
pub async fn item_category_name(item: &Item, ctx: &Context<'_>) -> AppResult<Option<String>> {
    if let Some((name, _)) = &item.extras.category {
        return Ok(name.clone());
    }
    let Some(id) = item.category_id else {
        return Ok(None);
    };
    Ok(all_categories(ctx)
        .await?
        .iter()
        .find(|c| c.id == id)
        .map(|c| c.name.clone()))
}

/// The category's path from the root, e.g. `Filament > PLA`.
pub async fn item_category_path(item: &Item, ctx: &Context<'_>) -> AppResult<Option<String>> {
    if let Some((_, path)) = &item.extras.category {
        return Ok(path.clone());
    }
    let Some(id) = item.category_id else {
        return Ok(None);
    };
    Ok(Some(model::path(&all_categories(ctx).await?, id)))
}

/// Files attached to the item (3MF, STL...).
pub async fn item_files(item: &Item, ctx: &Context<'_>) -> AppResult<Vec<ItemFile>> {
    if let Some(files) = &item.extras.files {
        return Ok(files.iter().cloned().map(ItemFile::from).collect());
    }
    let loader = ctx
        .data::<ItemFiles>()
        .map_err(|e| AppError::internal(e.message))?;
    Ok(loader
        .load_one(item.id)
        .await?
        .unwrap_or_default()
        .into_iter()
        .map(ItemFile::from)
        .collect())
}

/// A node of the category tree.
#[derive(Debug, Clone, SimpleObject)]
pub struct ItemCategory {
    /// Id.
    pub id: i64,
    /// Short code (unique ignoring case).
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
    /// Path from the root, e.g. `Filament > PLA`.
    pub path: String,
    /// Depth in the tree (0 for a root).
    pub depth: i32,
}

impl ItemCategory {
    fn new(c: &CategoryRow, all: &[CategoryRow]) -> ItemCategory {
        let path = model::path(all, c.id);
        ItemCategory {
            id: c.id,
            code: c.code.clone(),
            name: c.name.clone(),
            parent_id: c.parent_id,
            description: c.description.clone(),
            sort_order: c.sort_order,
            active: c.active,
            depth: path.matches(" > ").count() as i32,
            path,
        }
    }
}

/// A unit of measure.
#[derive(Debug, Clone, SimpleObject)]
pub struct UnitOfMeasure {
    /// Id.
    pub id: i64,
    /// Code (EA, G, KG, ...).
    pub code: String,
    /// Name.
    pub name: String,
    /// Symbol.
    pub symbol: String,
    /// quantity, weight, length, time or volume.
    pub uom_class: String,
    /// The base unit of its class (null for a base unit).
    pub base_unit_code: Option<String>,
    /// Multiply by this to convert to the base unit.
    pub to_base_factor: Decimal,
    /// Active.
    pub active: bool,
}

impl From<UomRow> for UnitOfMeasure {
    fn from(u: UomRow) -> Self {
        UnitOfMeasure {
            id: u.id,
            code: u.code,
            name: u.name,
            symbol: u.symbol,
            uom_class: u.uom_class,
            base_unit_code: u.base_unit_code,
            to_base_factor: Decimal(u.to_base_factor),
            active: u.active,
        }
    }
}

/// A file attached to an item.
#[derive(Debug, Clone, SimpleObject)]
pub struct ItemFile {
    /// Id.
    pub id: i64,
    /// The item.
    pub item_id: i64,
    /// The name it was uploaded with.
    pub filename: String,
    /// Detected content type.
    pub content_type: String,
    /// Size in bytes.
    pub size_bytes: i64,
    /// SHA-256 of the content (hex).
    pub sha256: String,
    /// When it was uploaded.
    pub created_at: Timestamp,
    /// Where to fetch the bytes: `/api/v1/items/{item_id}/files/{id}/download`.
    pub download_url: String,
    /// Where the bytes are kept under the uploads directory (what the download route reads).
    pub storage_key: String,
}

impl From<model::ItemFileRow> for ItemFile {
    fn from(f: model::ItemFileRow) -> Self {
        ItemFile {
            download_url: format!("/api/v1/items/{}/files/{}/download", f.item_id, f.id),
            storage_key: f.stored_name,
            id: f.id,
            item_id: f.item_id,
            filename: f.original_name,
            content_type: f.content_type,
            size_bytes: f.size_bytes,
            sha256: f.sha256,
            created_at: Timestamp(f.created_at),
        }
    }
}

crate::text_enum! {
    /// The columns item categories can be sorted by (default `path`).
    pub enum CategorySort {
        /// The path from the root (`Filament > PLA`).
        Path,
        /// Code.
        Code,
        /// Name.
        Name,
        /// Display order.
        SortOrder,
    }
}

crate::text_enum! {
    /// The columns units of measure can be sorted by (default `uom_class`, then code).
    pub enum UomSort {
        /// Class (quantity, weight...).
        UomClass,
        /// Code.
        Code,
        /// Name.
        Name,
    }
}

/// The largest page of items (CONTRACT 5.6: `limit` up to 2000).
pub const MAX_ITEM_PAGE: i64 = 2000;

crate::connection!(
    /// A page of items.
    ItemConnection,
    Item
);

/// Catalog queries.
#[derive(Default)]
pub struct CatalogQuery;

#[Object]
impl CatalogQuery {
    /// Items by SKU, with search and filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn items(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-2000, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 2000))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "SKU, name or UPC contains this (case-insensitive).")] search: Option<
            String,
        >,
        #[graphql(desc = "Only this type.")] item_type: Option<ItemType>,
        #[graphql(desc = "Only this procurement type.")] procurement_type: Option<ProcurementType>,
        #[graphql(desc = "Only this category and its descendants.")] category_id: Option<i64>,
        #[graphql(
            desc = "true: active only (default); false: inactive only; null: both.",
            default_with = "Some(true)"
        )]
        active_only: Option<bool>,
        #[graphql(desc = "Sort column (default sku); ties are broken by id.")] sort_by: Option<
            model::ItemSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<SortOrder>,
    ) -> AppResult<ItemConnection> {
        let page = Page::with_max(first, offset, MAX_ITEM_PAGE)?;
        let filter = ItemFilter {
            search,
            item_type,
            procurement_type,
            category_tree: category_id,
            active: active_only,
            sort_by,
            sort_order,
        };
        // The page, its total and the relations the operation shows come from one statement.
        let include = ctx
            .look_ahead()
            .selection_fields()
            .into_iter()
            .flat_map(|f| {
                f.selection_set()
                    .filter(|s| s.name() == "nodes")
                    .collect::<Vec<_>>()
            })
            .map(item_includes)
            .fold(model::ItemIncludes::default(), model::ItemIncludes::or);
        let (rows, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            include,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(ItemConnection {
            total_count: total,
            nodes: rows.into_iter().map(Item::with_extras).collect(),
            page_info: page.info(total),
        })
    }

    /// One item by id (with its category and files in the same statement when asked for).
    #[graphql(guard = "Access::User")]
    async fn item(&self, ctx: &Context<'_>, id: i64) -> AppResult<Flat<Item>> {
        let include = ctx
            .look_ahead()
            .selection_fields()
            .into_iter()
            .map(item_includes)
            .fold(model::ItemIncludes::default(), model::ItemIncludes::or);
        Ok(Flat(Item::with_extras(
            model::find_with(&mut *context::conn(ctx).await?, id, include).await?,
        )))
    }

    /// One file of an item.
    #[graphql(guard = "Access::User")]
    async fn item_file(
        &self,
        ctx: &Context<'_>,
        item_id: i64,
        file_id: i64,
    ) -> AppResult<ItemFile> {
        model::files_of(&mut *context::conn(ctx).await?, &[item_id])
            .await?
            .into_iter()
            .find(|f| f.id == file_id)
            .map(ItemFile::from)
            .ok_or_else(|| AppError::not_found("File not found"))
    }

    /// One item by SKU (any case).
    #[graphql(guard = "Access::User")]
    async fn item_by_sku(&self, ctx: &Context<'_>, sku: String) -> AppResult<Item> {
        model::find_by_sku(&mut *context::conn(ctx).await?, &sku)
            .await?
            .map(Item::from)
            .ok_or_else(|| AppError::not_found("Item not found"))
    }

    /// Every item category, flat, with paths (the tree by `parentId`).
    #[graphql(guard = "Access::User")]
    async fn item_categories(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include inactive categories.", default = false)] include_inactive: bool,
        #[graphql(desc = "Sort column (default path); ties are broken by id.")] sort_by: Option<
            CategorySort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<SortOrder>,
    ) -> AppResult<Vec<ItemCategory>> {
        let all = all_categories(ctx).await?;
        let mut out: Vec<ItemCategory> = all
            .iter()
            .filter(|c| include_inactive || c.active)
            .map(|c| ItemCategory::new(c, &all))
            .collect();
        // The tree is small and paths are computed, so it is sorted here, not in SQL.
        out.sort_by(|a, b| {
            let by = match sort_by.unwrap_or(CategorySort::Path) {
                CategorySort::Path => a.path.cmp(&b.path),
                CategorySort::Code => a.code.cmp(&b.code),
                CategorySort::Name => a.name.cmp(&b.name),
                CategorySort::SortOrder => a.sort_order.cmp(&b.sort_order),
            }
            .then(a.id.cmp(&b.id));
            match sort_order.unwrap_or(SortOrder::Asc) {
                SortOrder::Asc => by,
                SortOrder::Desc => by.reverse(),
            }
        });
        Ok(out)
    }

    /// Every unit of measure.
    #[graphql(guard = "Access::User")]
    async fn units_of_measure(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Sort column (default uom_class, then code).")] sort_by: Option<UomSort>,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<SortOrder>,
    ) -> AppResult<Vec<UnitOfMeasure>> {
        let mut out: Vec<UnitOfMeasure> = model::units(&mut *context::conn(ctx).await?)
            .await?
            .into_iter()
            .map(UnitOfMeasure::from)
            .collect();
        // Sixteen rows: sorted here; codes are unique, so they break ties.
        out.sort_by(|a, b| {
            let by = match sort_by.unwrap_or(UomSort::UomClass) {
                UomSort::UomClass => a.uom_class.cmp(&b.uom_class),
                UomSort::Code => std::cmp::Ordering::Equal,
                UomSort::Name => a.name.cmp(&b.name),
            }
            .then(a.code.cmp(&b.code));
            match sort_order.unwrap_or(SortOrder::Asc) {
                SortOrder::Asc => by,
                SortOrder::Desc => by.reverse(),
            }
        });
        Ok(out)
    }

    /// The CSV template of the product import (header and one example row).
    #[graphql(guard = "Access::User")]
    async fn item_import_template(&self) -> &'static str {
        import::TEMPLATE
    }
}

/// The result of an item change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemPayload {
    /// The item after the change.
    pub item: Option<Item>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// The result of a category change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemCategoryPayload {
    /// The category after the change.
    pub category: Option<ItemCategory>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

fn item_result(r: Result<ItemRow, Vec<UserError>>) -> ItemPayload {
    match r {
        Ok(row) => ItemPayload {
            item: Some(row.into()),
            ..Default::default()
        },
        Err(user_errors) => ItemPayload {
            user_errors,
            ..Default::default()
        },
    }
}

/// Catalog mutations.
#[derive(Default)]
pub struct CatalogMutation;

#[Object]
impl CatalogMutation {
    /// Creates an item.
    #[graphql(guard = "Access::User")]
    async fn item_create(
        &self,
        ctx: &Context<'_>,
        input: ItemCreateInput,
    ) -> AppResult<ItemPayload> {
        let mut conn = context::conn(ctx).await?;
        let mut values = input.into_form();
        let errors = items::check(&mut conn, &mut values, None).await?;
        if !errors.is_empty() {
            return Ok(item_result(Err(errors)));
        }
        let created = items::taken_on_conflict(
            model::insert(&mut conn, &values).await,
            values.sku.as_deref(),
        )?;
        Ok(item_result(created))
    }

    /// Changes an item.
    #[graphql(guard = "Access::User")]
    async fn item_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: ItemUpdateInput,
    ) -> AppResult<ItemPayload> {
        let mut conn = context::conn(ctx).await?;
        let existing = model::find(&mut conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Item not found"))?;
        let mut values = input.into_form();
        let errors = items::check(&mut conn, &mut values, Some(&existing)).await?;
        if !errors.is_empty() {
            return Ok(item_result(Err(errors)));
        }
        let updated = items::taken_on_conflict(
            model::update(&mut conn, id, &values).await,
            values.sku.as_deref(),
        )?;
        Ok(item_result(updated))
    }

    /// Deletes (deactivates) an item; refused while stock or a BOM uses it.
    #[graphql(guard = "Access::User")]
    async fn item_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<ItemPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(match items::delete(&mut conn, id).await? {
            Ok(row) => ItemPayload {
                message: Some(format!("Item {} deleted", row.sku)),
                item: Some(row.into()),
                user_errors: vec![],
            },
            Err(e) => ItemPayload {
                user_errors: vec![e],
                ..Default::default()
            },
        })
    }

    /// Creates an item category (admins).
    #[graphql(guard = "Access::Admin")]
    async fn item_category_create(
        &self,
        ctx: &Context<'_>,
        input: ItemCategoryCreateInput,
    ) -> AppResult<ItemCategoryPayload> {
        category_save(ctx, None, input.into()).await
    }

    /// Changes an item category; a parent that would close a cycle is refused (admins).
    #[graphql(guard = "Access::Admin")]
    async fn item_category_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: ItemCategoryUpdateInput,
    ) -> AppResult<ItemCategoryPayload> {
        category_save(ctx, Some(id), input.into()).await
    }

    /// Uploads a file (3MF, STL, OBJ, STEP, G-code, image or PDF) to an item.
    #[graphql(guard = "Access::User")]
    async fn item_file_upload(
        &self,
        ctx: &Context<'_>,
        item_id: i64,
        file: async_graphql::Upload,
    ) -> AppResult<ItemFilePayload> {
        files::upload(ctx, item_id, file).await
    }

    /// Removes a file from an item.
    #[graphql(guard = "Access::User")]
    async fn item_file_delete(
        &self,
        ctx: &Context<'_>,
        item_id: i64,
        file_id: i64,
    ) -> AppResult<ItemFilePayload> {
        files::delete(ctx, item_id, file_id).await
    }

    /// Imports products from a CSV file (marketplace exports welcome). With `dryRun` it
    /// only reports what would happen.
    #[graphql(guard = "Access::User")]
    async fn item_import(
        &self,
        ctx: &Context<'_>,
        file: async_graphql::Upload,
        #[graphql(
            desc = "Update items whose SKU exists (otherwise they are skipped).",
            default = false
        )]
        update_existing: bool,
        #[graphql(
            desc = "The type of rows that do not say.",
            default_with = "ItemType::FinishedGood"
        )]
        default_item_type: ItemType,
        #[graphql(desc = "Only check and report; change nothing.", default = false)] dry_run: bool,
    ) -> AppResult<import::ImportReport> {
        let bytes = crate::platform::graphql::upload::read(ctx, file)?;
        let mut conn = context::conn(ctx).await?;
        import::import_items(
            &mut conn,
            &bytes,
            update_existing,
            default_item_type,
            dry_run,
        )
        .await
    }

    /// Loads example items, categories and materials for onboarding (admins, fresh
    /// installations). Running it twice changes nothing the second time.
    #[graphql(guard = "Access::Admin")]
    async fn seed_example_data(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<crate::master_data::catalog::example_data::SeedReport> {
        let mut conn = context::conn(ctx).await?;
        crate::master_data::catalog::example_data::seed(&mut conn).await
    }
}

/// The result of a file change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemFilePayload {
    /// The file.
    pub file: Option<ItemFile>,
    /// What happened.
    pub message: Option<String>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

async fn category_save(
    ctx: &Context<'_>,
    id: Option<i64>,
    form: CategoryForm,
) -> AppResult<ItemCategoryPayload> {
    let mut conn = context::conn(ctx).await?;
    let row = match crate::master_data::catalog::rules::save_category(&mut conn, id, form).await? {
        Ok(row) => row,
        Err(user_errors) => {
            return Ok(ItemCategoryPayload {
                category: None,
                user_errors,
            });
        }
    };
    let all = model::categories(&mut conn).await?;
    Ok(ItemCategoryPayload {
        category: Some(ItemCategory::new(&row, &all)),
        user_errors: vec![],
    })
}

pub use super::images::{ProductImageMutation, ProductImageQuery};
pub use super::maintenance::{CatalogMaintenanceMutation, CatalogMaintenanceQuery};
pub use super::stats::{CatalogStatsMutation, CatalogStatsQuery};
pub use super::uom::{CatalogUomMutation, CatalogUomQuery};
