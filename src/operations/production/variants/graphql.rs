//! Variants in the schema (any signed-in user, as FilaOps's items routes).

use async_graphql::{Context, Object, SimpleObject};

use crate::operations::production::model::MaterialRow;
use crate::operations::production::variants::rules::{
    self, VariantCreated, VariantDeleted, VariantInput, VariantMatrix, VariantSelection,
    VariantSyncResult, VariantView,
};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{Stop, UserError};

async fn user_id(ctx: &Context<'_>) -> AppResult<i64> {
    Ok(crate::platform::auth::viewer::current_user(ctx).await?.id)
}

/// Variant queries.
#[derive(Default)]
pub struct VariantsQuery;

#[Object]
impl VariantsQuery {
    /// A template's variants by SKU, with their stock.
    #[graphql(guard = "Access::User")]
    async fn item_variants(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The template item.")] id: i64,
    ) -> AppResult<Vec<VariantView>> {
        Stop::into_app(rules::list(&mut *context::conn(ctx).await?, id).await)
    }

    /// A template's variant matrix: its variable materials, its variants, and every
    /// material and colour it could come in.
    #[graphql(guard = "Access::User")]
    async fn item_variant_matrix(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The template item.")] id: i64,
    ) -> AppResult<VariantMatrix> {
        Stop::into_app(rules::matrix(&mut *context::conn(ctx).await?, id).await)
    }
}

/// The result of making variants.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VariantsCreatedPayload {
    /// One per selection, in order (`created` or `skipped`).
    pub variants: Option<Vec<VariantCreated>>,
    /// Rule violations (nothing was made).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(VariantsCreatedPayload {
    variants: Vec<VariantCreated>
});

/// The result of making one variant.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VariantCreatedPayload {
    /// The variant made.
    pub variant: Option<VariantCreated>,
    /// Rule violations (nothing was made).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(VariantCreatedPayload {
    variant: VariantCreated
});

/// The result of a routing sync.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VariantSyncPayload {
    /// What was (or would be) changed.
    pub result: Option<VariantSyncResult>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(VariantSyncPayload {
    result: VariantSyncResult
});

/// The result of deleting a variant.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VariantDeletePayload {
    /// What was deleted.
    pub result: Option<VariantDeleted>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(VariantDeletePayload {
    result: VariantDeleted
});

/// The result of swapping an order's material.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MaterialSwapPayload {
    /// The material line after the swap.
    pub material: Option<MaterialRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(MaterialSwapPayload {
    material: MaterialRow
});

/// Variant mutations.
#[derive(Default)]
pub struct VariantsMutation;

#[Object]
impl VariantsMutation {
    /// Makes one variant of a template in a material and colour (its BOM and routing copied,
    /// the variable materials swapped).
    #[graphql(guard = "Access::User")]
    async fn item_variant_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The template item.")] id: i64,
        input: VariantInput,
    ) -> AppResult<VariantCreatedPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::create_one(conn, id, input)).into())
    }

    /// Makes variants for many materials and colours in one transaction: one that cannot be
    /// made refuses them all; one that exists is skipped.
    #[graphql(guard = "Access::User")]
    async fn item_variants_bulk(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The template item.")] id: i64,
        #[graphql(desc = "The materials and colours.")] selections: Vec<VariantSelection>,
    ) -> AppResult<VariantsCreatedPayload> {
        let inputs = selections
            .into_iter()
            .map(|s| VariantInput {
                material_type_id: s.material_type_id,
                color_id: s.color_id,
                selling_price: None,
            })
            .collect();
        Ok(crate::in_transaction!(ctx, |conn| rules::create(conn, id, inputs)).into())
    }

    /// Rewrites every variant's routing from the template's (variable materials swapped);
    /// with `dryRun`, only says what would change.
    #[graphql(guard = "Access::User")]
    async fn item_variants_sync_routing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The template item.")] id: i64,
        #[graphql(desc = "Only preview the changes.", default = false)] dry_run: bool,
    ) -> AppResult<VariantSyncPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::sync_routing(conn, id, dry_run)).into())
    }

    /// Deletes a variant with its BOM and routing (refused when it has stock or orders).
    #[graphql(guard = "Access::User")]
    async fn item_variant_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The template item.")] id: i64,
        #[graphql(desc = "The variant.")] variant_id: i64,
    ) -> AppResult<VariantDeletePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::delete(conn, id, variant_id)).into())
    }

    /// Swaps an order's material for a variant of it, before any was consumed (the
    /// reservation moves with it).
    #[graphql(guard = "Access::User")]
    async fn production_order_material_swap(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
        #[graphql(desc = "The order's material line.")] material_id: i64,
        #[graphql(desc = "The variant to use instead.")] new_component_id: i64,
        #[graphql(desc = "Why (kept in the stock movement's notes).")] reason: Option<String>,
    ) -> AppResult<MaterialSwapPayload> {
        let _ = reason;
        let user = user_id(ctx).await?;
        Ok(crate::in_transaction!(ctx, |conn| rules::swap_component(
            conn,
            id,
            material_id,
            new_component_id,
            user
        ))
        .into())
    }
}
