//! REST routes of item variants (FilaOps's `/items/{id}/variants*` and the order material
//! swap): declarations only. Any signed-in user.

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/items/{id}/variants", stored_op!("item_variants.graphql", "variant"), "itemVariants")
        .summary("A template's variants by SKU (active and inactive), with material, colour, costs and on-hand stock"),
    Route::get("/items/{id}/variant-matrix", stored_op!("item_variant_matrix.graphql", "variant"), "itemVariantMatrix")
        .summary("A template's variable materials, its variants, and every material x colour of those materials' types (`already_exists`, `variant_id`, `has_material`)"),
    Route::post("/items/{id}/variants", stored_op!("item_variant_create.graphql", "variant_created"), "itemVariantCreate.variant")
        .body(Body::Input("input"))
        .status(201)
        .summary("Make a variant (`material_type_id`, `color_id`, `selling_price`): SKU `{TEMPLATE}-{TYPE}-{COLOR}`, the BOM and routing copied with the variable materials swapped; an existing SKU is 409"),
    Route::post("/items/{id}/variants/bulk", stored_op!("item_variants_bulk.graphql", "variant_created"), "itemVariantsBulk.variants")
        .body(Body::Fields)
        .status(201)
        .summary("Make many variants (`selections: [{material_type_id, color_id}]`) in one transaction: an existing one is `skipped`; one that cannot be made refuses them all (nothing is made)"),
    Route::post("/items/{id}/variants/sync-routing", stored_op!("item_variants_sync.graphql"), "itemVariantsSyncRouting.result")
        .summary("Rewrite every variant's routing from the template's (`dry_run=true` only previews): `{synced, total, errors, variants: [{variant_id, sku, changes}]}`"),
    Route::delete("/items/{id}/variants/{variant_id}", stored_op!("item_variant_delete.graphql"), "itemVariantDelete.result")
        .summary("Delete a variant with its BOM and routing (409 when it has stock or orders: deactivate it instead)"),
    Route::patch("/production-orders/{id}/materials/{material_id}/component", stored_op!("material_swap.graphql", "production_material"), "productionOrderMaterialSwap.material")
        .body(Body::Fields)
        .summary("Swap an order's material for a variant of it (`new_component_id`, `reason`) before any is consumed; the reservation moves with it"),
];
