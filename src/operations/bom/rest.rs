//! REST routes of bills of materials (CONTRACT 5.7; staff, i.e. any signed-in user):
//! declarations only.

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/admin/bom/", stored_op!("boms_list.graphql", "bom"), "boms.nodes")
        .summary("BOMs by code, a bare array (`product_id`, `active_only` default true, `search`, `sort_by`, `sort_order`, `limit` up to 100, `skip`)"),
    Route::post("/admin/bom/", stored_op!("bom_create.graphql", "bom", "bom_line"), "bomCreate.bom")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Create a BOM with its `lines` (the product's next version; active unless `active: false`, which keeps the current one)"),
    Route::get("/admin/bom/product/{product_id}", stored_op!("bom_for_product.graphql", "bom", "bom_line"), "bomForProduct")
        .summary("The active BOM of a product with its lines (404 when it has none)"),
    Route::get("/admin/bom/where-used/{product_id}", include_str!("rest/bom_where_used.graphql"), "bomWhereUsed")
        .summary("The BOMs that use an item as a component (`active_only`, default false)"),
    Route::get("/admin/bom/{bom_id}", stored_op!("bom_get.graphql", "bom", "bom_line"), "bom")
        .summary("One BOM with its lines: component facts, live costs, stock and shortage per line"),
    Route::patch("/admin/bom/{bom_id}", stored_op!("bom_update.graphql", "bom", "bom_line"), "bomUpdate.bom")
        .body(Body::Input("input"))
        .summary("Change a BOM's header (activating it deactivates the product's other versions)"),
    Route::delete("/admin/bom/{bom_id}", include_str!("rest/bom_delete.graphql"), "bomDelete")
        .summary("Delete a BOM and its lines"),
    Route::post("/admin/bom/{bom_id}/lines", stored_op!("bom_line_add.graphql", "bom_line"), "bomLineAdd.line")
        .body(Body::Input("input"))
        .status(201)
        .summary("Add a line (unit defaults to the component's; a component whose structure holds this product is refused)"),
    Route::patch("/admin/bom/{bom_id}/lines/{line_id}", stored_op!("bom_line_update.graphql", "bom_line"), "bomLineUpdate.line")
        .body(Body::Input("input"))
        .summary("Change a line"),
    Route::delete("/admin/bom/{bom_id}/lines/{line_id}", include_str!("rest/bom_line_delete.graphql"), "bomLineDelete.line")
        .summary("Remove a line"),
    Route::post("/admin/bom/{bom_id}/copy", stored_op!("bom_copy.graphql", "bom", "bom_line"), "bomCopy.bom")
        .body(Body::Fields)
        .status(201)
        .summary("Copy a BOM as the next version of its product or of `target_product_id` (`include_lines`, default true)"),
    Route::post("/admin/bom/{bom_id}/recalculate", stored_op!("bom_recalculate.graphql", "bom"), "bomRecalculate.bom")
        .summary("Recompute and store the BOM's component cost (multi-level roll-up)"),
    Route::get("/admin/bom/{bom_id}/explode", include_str!("rest/bom_explode.graphql"), "bomExplode")
        .summary("Every line below the BOM, depth first, for `quantity` units (default 1), with extended quantities and costs"),
    Route::get("/admin/bom/{bom_id}/cost-rollup", include_str!("rest/bom_cost_rollup.graphql"), "bomCostRollup")
        .summary("The BOM's cost per unit, line by line, sub-assemblies rolled up through their own BOMs"),
    Route::post("/admin/bom/{bom_id}/validate", include_str!("rest/bom_validate.graphql"), "bomValidate")
        .summary("Check the BOM and everything below it: `{is_valid, errors, warnings}`"),
];
