//! REST routes of pricing: FilaOps's `/price-levels` (a bare array by name; delete
//! deactivates and answers the level), the level's own item prices (Strata's), and
//! FilaOps's price suggestions under `/items`.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/price-levels", stored_op!("price_levels_list.graphql", "price_level"), "priceLevels")
        .summary("Price levels by name, inactive ones too (`active_only=true` for the active); a bare array"),
    Route::post("/price-levels", stored_op!("price_level_create.graphql", "price_level"), "priceLevelCreate.priceLevel")
        .body(Body::Input("input"))
        .status(201)
        .access(Admin)
        .summary("Add a price level (`name`, `discount_percent` 0-100); a duplicate name is 400"),
    Route::patch("/price-levels/{id}", stored_op!("price_level_update.graphql", "price_level"), "priceLevelUpdate.priceLevel")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a price level"),
    Route::delete("/price-levels/{id}", stored_op!("price_level_delete.graphql", "price_level"), "priceLevelDelete.priceLevel")
        .access(Admin)
        .summary("Deactivate a price level (answers it)"),
    Route::get("/price-levels/{id}/items", stored_op!("price_level_items.graphql"), "priceLevel.itemPrices")
        .summary("A level's own item prices, by SKU"),
    Route::put("/price-levels/{id}/items/{item_id}", stored_op!("price_level_item_set.graphql", "price_level"), "priceLevelSetItemPrice.priceLevel")
        .body(Body::Fields)
        .access(Admin)
        .summary("Set a level's own price for an item (`unit_price`, 0 or more)"),
    Route::delete("/price-levels/{id}/items/{item_id}", stored_op!("price_level_item_remove.graphql"), "priceLevelSetItemPrice")
        .status(204)
        .access(Admin)
        .summary("Remove a level's own price for an item (the discount applies again)"),
    Route::get("/items/price-candidates", stored_op!("price_candidates.graphql"), "priceCandidates")
        .summary("Items whose price can be suggested from their cost (`item_type`, `category_id`, `margin_percent`); a bare array"),
    Route::post("/items/apply-suggested-prices", stored_op!("apply_suggested_prices.graphql"), "applySuggestedPrices")
        .body(Body::Fields)
        .summary("Set the chosen items' selling prices (`items: [{id, selling_price}]`): `{updated, skipped, items}`"),
];
