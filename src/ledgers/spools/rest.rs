//! REST routes of spools (CONTRACT 5.10; admins only, spec 4.5): declarations only. As in
//! the original, creating and changing a spool take query parameters, and the `*_kg`
//! fields carry grams.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/spools/", stored_op!("spools_list.graphql", "spool"), "spools")
        .flatten(&["page"])
        .summary("Spools newest first as `{items, total, offset, limit}` (`product_id`, `status`, `location_id`, `low_weight` (< 10 % left), `limit` up to 500, `offset`); weights in grams"),
    Route::post("/spools/", stored_op!("spool_create.graphql"), "spoolCreate")
        .body(Body::Fields)
        .access(Admin)
        .idempotent()
        .flatten(&["spool"])
        .summary("Register a spool from a JSON body or, as older clients send them, query parameters (`spool_number`, `product_id`, `initial_weight_kg` in grams, `current_weight_kg?`, `location_id?`, `supplier_lot_number?`, `expiry_date?`, `notes?`): `{id, spool_number, message}`"),
    Route::get("/spools/product/{product_id}/available", stored_op!("spools_available.graphql", "spool"), "spoolsAvailableForProduct")
        .summary("The usable spools of a material (active, filament left), oldest expiry first"),
    Route::get("/spools/{id}", stored_op!("spool_get.graphql", "spool"), "spool")
        .summary("One spool with its `usage_history`"),
    Route::patch("/spools/{id}", stored_op!("spool_update.graphql", "spool"), "spoolUpdate.result")
        .access(Admin)
        .idempotent()
        .flatten(&["spool"])
        .summary("Change a spool from query parameters (`current_weight_g`, `status`, `location_id`, `notes`, `reason`); a weight change needs `reason` (400 otherwise) and posts a `spool_adjustment` with its journal entry"),
    Route::post("/spools/{id}/consume", stored_op!("spool_consume.graphql", "spool"), "spoolConsume.result")
        .idempotent()
        .flatten(&["spool"])
        .summary("Record filament a production order used (`production_order_id`, `weight_consumed_g`, `production_order_code?`): a consumption and its journal entry (1210 WIP / 1200)"),
];
