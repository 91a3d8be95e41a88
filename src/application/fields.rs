//! Fields one area's GraphQL object gets from areas above it, merged here at schema
//! assembly. An object's computed fields are one `#[ComplexObject]` block, and an area may
//! not import the areas above it, so such an object's block lives here and each field
//! calls the area that owns it:
//!
//! - an item (`crate::master_data::catalog`) shows its category and files (the catalog),
//!   its stock (`crate::ledgers::inventory`) and its bill of materials
//!   (`crate::operations::bom`).

use async_graphql::{ComplexObject, Context};

use crate::ledgers::inventory;
use crate::master_data::catalog;
use crate::master_data::catalog::graphql::{Item, ItemCategory, ItemFile};
use crate::operations::bom;
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;

#[ComplexObject]
impl Item {
    /// The category.
    async fn category(&self, ctx: &Context<'_>) -> AppResult<Option<ItemCategory>> {
        catalog::graphql::item_category(self, ctx).await
    }

    /// The category's name.
    async fn category_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        catalog::graphql::item_category_name(self, ctx).await
    }

    /// The category's path from the root, e.g. `Filament > PLA`.
    async fn category_path(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        catalog::graphql::item_category_path(self, ctx).await
    }

    /// Files attached to the item (3MF, STL...).
    async fn files(&self, ctx: &Context<'_>) -> AppResult<Vec<ItemFile>> {
        catalog::graphql::item_files(self, ctx).await
    }

    /// Quantity on hand over all locations.
    async fn on_hand_qty(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            inventory::graphql::item_stock(ctx, self).await?.on_hand,
        ))
    }

    /// On hand minus allocated.
    async fn available_qty(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            inventory::graphql::item_stock(ctx, self).await?.available,
        ))
    }

    /// Reserved for open orders.
    async fn allocated_qty(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            inventory::graphql::item_stock(ctx, self).await?.allocated,
        ))
    }

    /// True when the item has a reorder point and its available stock is at or below it.
    async fn needs_reorder(&self, ctx: &Context<'_>) -> AppResult<bool> {
        inventory::graphql::item_needs_reorder(ctx, self).await
    }

    /// Stock by location (only locations where the item ever moved).
    async fn stock(&self, ctx: &Context<'_>) -> AppResult<Vec<inventory::model::BalanceRow>> {
        inventory::graphql::item_balances(ctx, self.id).await
    }

    /// Whether an active bill of materials makes it.
    async fn has_bom(&self, ctx: &Context<'_>) -> AppResult<bool> {
        if let Some(has) = self.extras.has_bom {
            return Ok(has);
        }
        Ok(bom::graphql::bom_of_item(ctx, self.id).await?.is_some())
    }

    /// Its active bill of materials (lines, components and their BOMs, to any depth).
    async fn bom(&self, ctx: &Context<'_>) -> AppResult<Option<bom::model::BomRow>> {
        bom::graphql::bom_of_item(ctx, self.id).await
    }
}
