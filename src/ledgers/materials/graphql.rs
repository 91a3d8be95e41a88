//! Materials in the schema (admins only, spec 4.5): material types and colours, and the
//! materials and inventory CSV imports.

use async_graphql::{Context, Object, SimpleObject, Upload};

pub use crate::ledgers::materials::catalogue::{MaterialCatalogueMutation, MaterialCatalogueQuery};
use crate::ledgers::materials::import::{self, MaterialImportReport};
pub use crate::ledgers::materials::items::MaterialItemsMutation;
use crate::ledgers::materials::model::{
    self, ColorRow, MaterialTypeCreateInput, MaterialTypeRow, MaterialTypeUpdateInput,
};
use crate::ledgers::materials::rules;
use crate::ledgers::materials::stock_import::{self, InventoryImportReport};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::UserError;

/// Material queries (admins).
#[derive(Default)]
pub struct MaterialsQuery;

#[Object]
impl MaterialsQuery {
    /// Every material type, by code.
    #[graphql(guard = "Access::Admin")]
    async fn material_types(&self, ctx: &Context<'_>) -> AppResult<Vec<MaterialTypeRow>> {
        model::material_types(&mut *context::conn(ctx).await?).await
    }

    /// Every material colour, by code.
    #[graphql(guard = "Access::Admin")]
    async fn material_colors(&self, ctx: &Context<'_>) -> AppResult<Vec<ColorRow>> {
        model::colors(&mut *context::conn(ctx).await?).await
    }

    /// The CSV template of the materials import (header and one example row).
    #[graphql(guard = "Access::Admin")]
    async fn material_import_template(&self) -> &'static str {
        import::TEMPLATE
    }

    /// The CSV template of the inventory import (header and one example row).
    #[graphql(guard = "Access::Admin")]
    async fn inventory_import_template(&self) -> &'static str {
        stock_import::TEMPLATE
    }
}

/// The result of a material type change.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialTypePayload {
    /// The material type after the change.
    pub material_type: Option<MaterialTypeRow>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(MaterialTypePayload {
    material_type: MaterialTypeRow
});

/// Material mutations (admins).
#[derive(Default)]
pub struct MaterialsMutation;

#[Object]
impl MaterialsMutation {
    /// Adds a material type, with what it asks of a printer (enclosure, nozzle and bed
    /// temperatures) for the scheduler.
    #[graphql(guard = "Access::Admin")]
    async fn material_type_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material type.")] input: MaterialTypeCreateInput,
    ) -> AppResult<MaterialTypePayload> {
        let form = input.into();
        Ok(crate::in_transaction!(ctx, |conn| rules::save_material_type(conn, None, form)).into())
    }

    /// Changes a material type (its code is fixed once created).
    #[graphql(guard = "Access::Admin")]
    async fn material_type_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material type's id.")] id: i64,
        #[graphql(desc = "What changes.")] input: MaterialTypeUpdateInput,
    ) -> AppResult<MaterialTypePayload> {
        let form = input.into();
        Ok(
            crate::in_transaction!(ctx, |conn| rules::save_material_type(conn, Some(id), form))
                .into(),
        )
    }

    /// Imports materials from a CSV file (`.csv`): items, material types, colours,
    /// categories under "Filament" and opening stock at MAIN, in one database transaction.
    #[graphql(guard = "Access::Admin")]
    async fn material_import(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The CSV file (its name must end in .csv).")] file: Upload,
        #[graphql(
            desc = "Update materials whose SKU exists (otherwise they are skipped).",
            default = false
        )]
        update_existing: bool,
        #[graphql(
            desc = "Create missing categories under \"Filament\" (otherwise only existing ones are used).",
            default = true
        )]
        import_categories: bool,
    ) -> AppResult<MaterialImportReport> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let bytes = crate::platform::graphql::upload::read_csv(ctx, file)?;
        let mut conn = context::conn(ctx).await?;
        import::import_materials(&mut conn, &bytes, update_existing, import_categories, user).await
    }

    /// Imports stock from a CSV file (`SKU`, `Quantity`, `Location`, `Lot Number`, `Mode`
    /// set|add) as opening balances, in one database transaction with one journal entry.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_import(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The CSV file (its name must end in .csv).")] file: Upload,
    ) -> AppResult<InventoryImportReport> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let bytes = crate::platform::graphql::upload::read_csv(ctx, file)?;
        let mut conn = context::conn(ctx).await?;
        stock_import::import_inventory(&mut conn, &bytes, user).await
    }
}
