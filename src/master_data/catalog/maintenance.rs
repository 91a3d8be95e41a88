//! Catalog upkeep in the schema (CONTRACT 5.6, 5.11): changing many items at once and
//! the admin products CSV import (the items import's engine in the original's
//! `{created, updated, errors, total_processed}` shape). The rules are in
//! [`crate::master_data::catalog::rules`]. Creating a material item is the materials'
//! (`crate::ledgers::materials::items`), recosting the BOMs' (`crate::operations::bom::costing`).

use async_graphql::{Context, InputObject, MaybeUndefined, Object, SimpleObject, Upload};

use crate::master_data::catalog::graphql::{ItemType, ProcurementType, StockingPolicy};
use crate::master_data::catalog::import;
use crate::master_data::catalog::model::ItemForm;
use crate::master_data::catalog::rules;
use crate::platform::auth::Access;
use crate::platform::db::forms::patch;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::UserError;

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
        let bytes = crate::platform::graphql::upload::read_csv(ctx, file)?;
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
