//! Materials in the schema (admins only, spec 4.5): material types and colours, and the
//! materials and inventory CSV imports.

use async_graphql::{Context, Object, Upload};

use crate::auth::Access;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::graphql::context;
use crate::materials::import::{self, MaterialImportReport};
use crate::materials::model::{self, ColorRow, MaterialTypeRow};
use crate::materials::stock_import::{self, InventoryImportReport};

/// The upload's bytes when its name ends in `.csv`; otherwise a 400 "File must be a CSV"
/// (CONTRACT 5.11).
pub fn read_csv(ctx: &Context<'_>, file: Upload) -> AppResult<Vec<u8>> {
    let value = file.value(ctx).map_err(|e| {
        AppError::validation(vec![crate::error::FieldError::new("file", e.to_string())])
    })?;
    if !value.filename.to_ascii_lowercase().ends_with(".csv") {
        return Err(AppError::new(ErrorCode::BadRequest, "File must be a CSV"));
    }
    crate::catalog::files::read_upload(ctx, file)
}

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

/// Material mutations (admins).
#[derive(Default)]
pub struct MaterialsMutation;

#[Object]
impl MaterialsMutation {
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
        let user = crate::auth::viewer::current_user(ctx).await?.id;
        let bytes = read_csv(ctx, file)?;
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
        let user = crate::auth::viewer::current_user(ctx).await?.id;
        let bytes = read_csv(ctx, file)?;
        let mut conn = context::conn(ctx).await?;
        stock_import::import_inventory(&mut conn, &bytes, user).await
    }
}
