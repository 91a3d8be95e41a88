//! Catalog upkeep in the schema (CONTRACT 5.6, 5.11): creating a filament material item for a
//! material type and colour, changing many items at once, recomputing standard costs, and
//! the admin products CSV import (the items import's engine in the original's
//! `{created, updated, errors, total_processed}` shape). The rules are in
//! [`crate::catalog::rules`].

use async_graphql::{Context, InputObject, MaybeUndefined, Object, SimpleObject, Upload};
use bigdecimal::BigDecimal;
use diesel_async::AsyncConnection;

use crate::auth::Access;
use crate::catalog::graphql::{Item, ItemType, ProcurementType, StockingPolicy};
use crate::catalog::import;
use crate::catalog::model::ItemForm;
use crate::catalog::rules::{self, CostSource, MaterialItemForm, RecostScope, Recosted};
use crate::db::forms::patch;
use crate::error::{AppError, AppResult};
use crate::graphql::context;
use crate::graphql::scalars::Decimal;
use crate::graphql::user_error::UserError;

/// A filament material item to create for a material type and colour.
#[derive(Debug, Clone, InputObject)]
pub struct ItemMaterialInput {
    /// The material type's code, e.g. `PLA_MATTE` (any case).
    pub material_type_code: String,
    /// The colour's code, e.g. `CHARCOAL` (any case).
    pub color_code: String,
    /// Cost per kilogram; the standard cost per gram is this / 1000.
    pub cost_per_kg: Option<Decimal>,
    /// Selling price.
    pub selling_price: Option<Decimal>,
    /// Opening stock in kilograms (default 0), posted at MAIN as an opening balance.
    pub initial_qty_kg: Option<Decimal>,
    /// Category.
    pub category_id: Option<i64>,
}

/// The result of creating a material item.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemMaterialPayload {
    /// The new item.
    pub item: Option<Item>,
    /// Stock transactions its opening stock posted (0 or 1).
    pub inventory_transactions: i64,
    /// The journal entry that booked the opening stock, if any value moved.
    pub journal_entry_id: Option<i64>,
    /// Rule violations (nothing was written when present).
    pub user_errors: Vec<UserError>,
}

/// The same changes for many items. Omitted fields keep their values.
#[derive(Debug, Clone, InputObject)]
pub struct ItemBulkUpdateInput {
    /// The items (at most 500; every one must exist).
    pub item_ids: Vec<i64>,
    /// New category; `null` or 0 clears it.
    pub category_id: MaybeUndefined<i64>,
    /// Active or not.
    pub is_active: Option<bool>,
    /// Synonym of `isActive`.
    pub active: Option<bool>,
    /// New type.
    pub item_type: Option<ItemType>,
    /// New procurement type.
    pub procurement_type: Option<ProcurementType>,
    /// New stocking policy.
    pub stocking_policy: Option<StockingPolicy>,
    /// New reorder point; `null` clears it.
    pub reorder_point: MaybeUndefined<Decimal>,
}

/// One item a bulk change could not change (kept for the original's shape: a bulk change is
/// all or nothing, so a successful one lists none).
#[derive(Debug, Clone, SimpleObject)]
pub struct ItemBulkUpdateError {
    /// The item.
    pub item_id: i64,
    /// Why.
    pub error: String,
}

/// The result of a bulk change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemBulkUpdatePayload {
    /// Items changed.
    pub updated_count: i64,
    /// Items not changed (always 0: any problem refuses the whole change).
    pub error_count: i64,
    /// Items not changed (always empty, see `errorCount`).
    pub errors: Vec<ItemBulkUpdateError>,
    /// A one-line summary.
    pub message: String,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// An item's recomputed standard cost.
#[derive(Debug, Clone, SimpleObject)]
pub struct ItemRecost {
    /// The item.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// The standard cost before.
    pub old_cost: Option<Decimal>,
    /// The standard cost now.
    pub new_cost: Decimal,
    /// Where it came from.
    pub cost_source: CostSource,
    /// The active BOM, when the item has one.
    pub bom_id: Option<i64>,
    /// The BOM's cost roll-up per unit (components, sub-assemblies, process cost).
    pub bom_cost: Option<Decimal>,
    /// The latest purchase price per stocking unit (else the last receipt's cost).
    pub purchase_cost: Option<Decimal>,
    /// Whether the standard cost changed.
    pub changed: bool,
    /// A one-line summary.
    pub message: String,
}

impl From<Recosted> for ItemRecost {
    fn from(r: Recosted) -> Self {
        let changed = r.changed();
        let old = r
            .old_cost
            .as_ref()
            .map_or_else(|| "none".to_string(), BigDecimal::to_string);
        ItemRecost {
            message: format!("Standard cost of {}: {old} -> {}", r.sku, r.new_cost),
            id: r.id,
            sku: r.sku,
            name: r.name,
            old_cost: r.old_cost.map(Decimal),
            new_cost: Decimal(r.new_cost),
            cost_source: r.source,
            bom_id: r.bom_id,
            bom_cost: r.bom_cost.map(Decimal),
            purchase_cost: r.purchase_cost.map(Decimal),
            changed,
        }
    }
}

/// The result of recosting one item.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemRecostPayload {
    /// The new cost.
    pub recost: Option<ItemRecost>,
    /// Why it could not be recosted (no BOM or purchase history, a circular BOM).
    pub user_errors: Vec<UserError>,
}

/// What recosting every item in scope did.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemRecostAllReport {
    /// Items whose standard cost changed.
    pub updated: i64,
    /// Items recomputed whose cost was already right.
    pub unchanged: i64,
    /// Items without a BOM or purchase history, with a circular BOM, or costing zero.
    pub skipped: i64,
    /// The items that changed, by SKU.
    pub items: Vec<ItemRecost>,
    /// Items that could not be costed and why (circular BOMs; the first 100).
    pub errors: Vec<String>,
    /// A one-line summary.
    pub message: String,
}

/// What the admin products import did (the original's shape).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ProductImportReport {
    /// Items created.
    pub created: i64,
    /// Items updated (their SKU existed).
    pub updated: i64,
    /// Row problems, `Row N: ...` (rows with problems are skipped; the first 200).
    pub errors: Vec<String>,
    /// Data rows read.
    pub total_processed: i64,
}

/// The template of the admin products import (CONTRACT 5.11's columns).
pub const PRODUCT_TEMPLATE: &str = "SKU,Name,Description,Item Type,Procurement Type,Unit,Standard Cost,Selling Price,Reorder Point,Active\n\
FG-100,Articulated Dragon,Print-in-place articulated dragon,finished_good,make,EA,3.20,24.99,5,true\n";

/// Catalog upkeep queries.
#[derive(Default)]
pub struct CatalogMaintenanceQuery;

#[Object]
impl CatalogMaintenanceQuery {
    /// The CSV template of the admin products import (admins).
    #[graphql(guard = "Access::Admin")]
    async fn product_import_template(&self) -> &'static str {
        PRODUCT_TEMPLATE
    }
}

/// Catalog upkeep mutations.
#[derive(Default)]
pub struct CatalogMaintenanceMutation;

#[Object]
impl CatalogMaintenanceMutation {
    /// Creates the filament item of a material type and colour (SKU `MAT-<TYPE>-<COLOR>`,
    /// stocked in G, bought in KG) with its opening stock, in one transaction.
    #[graphql(guard = "Access::User")]
    async fn item_material_create(
        &self,
        ctx: &Context<'_>,
        input: ItemMaterialInput,
    ) -> AppResult<ItemMaterialPayload> {
        let user = crate::auth::viewer::current_user(ctx).await?.id;
        let form = MaterialItemForm {
            material_type_code: input.material_type_code,
            color_code: input.color_code,
            cost_per_kg: input.cost_per_kg.map(|d| d.0),
            selling_price: input.selling_price.map(|d| d.0),
            initial_qty_kg: input.initial_qty_kg.map(|d| d.0).unwrap_or_default(),
            category_id: input.category_id,
        };
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::create_material(conn, form, user)) {
                Ok(created) => ItemMaterialPayload {
                    item: Some(created.item.into()),
                    inventory_transactions: created.inventory_transactions,
                    journal_entry_id: created.journal_entry_id,
                    user_errors: vec![],
                },
                Err(user_errors) => ItemMaterialPayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Changes the category, active flag, type, procurement type, stocking policy or reorder
    /// point of up to 500 items in one transaction: all of them or none.
    #[graphql(guard = "Access::User")]
    async fn item_bulk_update(
        &self,
        ctx: &Context<'_>,
        input: ItemBulkUpdateInput,
    ) -> AppResult<ItemBulkUpdatePayload> {
        let values = ItemForm {
            // Category 0 is the SPA's "no category", as null is.
            category_id: patch(input.category_id).map(|id| id.filter(|&id| id != 0)),
            active: input.is_active.or(input.active),
            item_type: input.item_type,
            procurement_type: input.procurement_type,
            stocking_policy: input.stocking_policy,
            reorder_point: patch(input.reorder_point),
            ..Default::default()
        };
        let ids = input.item_ids;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::bulk_update(conn, &ids, &values)) {
                Ok(n) => ItemBulkUpdatePayload {
                    updated_count: n as i64,
                    message: format!("{n} items updated"),
                    ..Default::default()
                },
                Err(user_errors) => ItemBulkUpdatePayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Recomputes an item's standard cost from its active BOM's roll-up (made items) or its
    /// latest purchase price (bought items), and stores it (admins).
    #[graphql(guard = "Access::Admin")]
    async fn item_recost(&self, ctx: &Context<'_>, id: i64) -> AppResult<ItemRecostPayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::recost(conn, id)) {
                Ok(r) => ItemRecostPayload {
                    recost: Some(r.into()),
                    user_errors: vec![],
                },
                Err(user_errors) => ItemRecostPayload {
                    recost: None,
                    user_errors,
                },
            },
        )
    }

    /// Recomputes the standard cost of every active item in scope (type, category with its
    /// descendants, cost source) in one transaction; items without a BOM or purchase
    /// history are skipped (admins).
    #[graphql(guard = "Access::Admin")]
    async fn item_recost_all(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only items of this type.")] item_type: Option<ItemType>,
        #[graphql(desc = "Only this category and its descendants.")] category_id: Option<i64>,
        #[graphql(desc = "Only items costed from this source.")] cost_source: Option<CostSource>,
    ) -> AppResult<ItemRecostAllReport> {
        let scope = RecostScope {
            item_type,
            category_id,
            cost_source,
        };
        let mut conn = context::conn(ctx).await?;
        let report = conn
            .transaction::<_, AppError, _>(async move |conn| rules::recost_all(conn, scope).await)
            .await?;
        let updated = report.changed.len() as i64;
        Ok(ItemRecostAllReport {
            message: format!(
                "Recosted {updated} items ({} unchanged, {} skipped)",
                report.unchanged, report.skipped
            ),
            updated,
            unchanged: report.unchanged,
            skipped: report.skipped,
            items: report.changed.into_iter().map(ItemRecost::from).collect(),
            errors: report.errors,
        })
    }

    /// Imports products from a CSV file (`.csv`; columns `SKU, Name, Description, Item Type,
    /// Procurement Type, Unit, Standard Cost, Selling Price, Reorder Point, Active`): new SKUs
    /// are created, existing ones updated, through the items import's engine in one
    /// transaction (admins).
    #[graphql(guard = "Access::Admin")]
    async fn product_import(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The CSV file (its name must end in .csv).")] file: Upload,
    ) -> AppResult<ProductImportReport> {
        let bytes = crate::materials::graphql::read_csv(ctx, file)?;
        let mut conn = context::conn(ctx).await?;
        let report =
            import::import_items(&mut conn, &bytes, true, ItemType::FinishedGood, false).await?;
        Ok(ProductImportReport {
            created: report.created,
            updated: report.updated,
            errors: report
                .errors
                .into_iter()
                .map(|e| match e.field {
                    Some(field) => format!("Row {} ({field}): {}", e.row, e.reason),
                    None => format!("Row {}: {}", e.row, e.reason),
                })
                .collect(),
            total_processed: report.total_rows,
        })
    }
}
