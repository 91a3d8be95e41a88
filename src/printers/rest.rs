//! REST routes of printers (CONTRACT 5.13; any signed-in user): declarations only.

use crate::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/printers/", stored_op!("printers_list.graphql", "printer"), "printers")
        .summary("Printers by code as `{items, total, page, page_size, total_pages}` (`search`, `brand`, `status`, `active_only`, `page`, `page_size` up to 200)"),
    Route::post("/printers/", stored_op!("printer_create.graphql", "printer"), "printerCreate.printer")
        .body(Body::Input("input"))
        .status(201)
        .summary("Add a printer (`code`, `name` and `model` required; a duplicate code is 400)"),
    Route::get("/printers/brands/info", include_str!("rest/brands_info.graphql"), "printerBrands")
        .summary("Facts per printer brand: protocol, default port, AMS and camera support, connection fields"),
    Route::get("/printers/generate-code", include_str!("rest/generate_code.graphql"), "printerCodeSuggestion")
        .summary("Suggest the next free code for a `prefix` (default PRT), e.g. `{\"code\": \"PRT-004\"}`"),
    Route::get("/printers/{id}", stored_op!("printer_get.graphql", "printer"), "printer")
        .summary("One printer"),
    Route::put("/printers/{id}", stored_op!("printer_update.graphql", "printer"), "printerUpdate.printer")
        .body(Body::Input("input"))
        .summary("Change a printer"),
    Route::patch("/printers/{id}/status", stored_op!("printer_status.graphql", "printer"), "printerUpdateStatus.printer")
        .body(Body::Fields)
        .summary("Set a printer's `status`"),
    Route::delete("/printers/{id}", include_str!("rest/printer_delete.graphql"), "printerDelete")
        .summary("Delete (deactivate) a printer"),
];
