//! REST routes of the materials and inventory imports (CONTRACT 5.11, onboarding step 6;
//! admins only, spec 4.5): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/materials/import/template", stored_op!("material_import_template.graphql"), "materialImportTemplate")
        .access(Admin)
        .raw("text/csv; charset=utf-8")
        .summary("The materials CSV template"),
    Route::post("/materials/import/", stored_op!("material_import.graphql"), "materialImport")
        .body(Body::Multipart)
        .access(Admin)
        .idempotent()
        .summary("Import materials from a CSV (multipart `file` ending in .csv, else 400; `update_existing`, `import_categories`): `{total_rows, created, updated, skipped, errors}`; on-hand grams post as opening stock at MAIN"),
    Route::get("/admin/import/inventory/template", stored_op!("inventory_import_template.graphql"), "inventoryImportTemplate")
        .access(Admin)
        .raw("text/csv; charset=utf-8")
        .summary("The inventory CSV template"),
    Route::post("/admin/import/inventory", stored_op!("inventory_import.graphql"), "inventoryImport")
        .body(Body::Multipart)
        .access(Admin)
        .idempotent()
        .summary("Import stock from a CSV (multipart `file`; `SKU`, `Quantity`, `Location` default MAIN, `Lot Number`, `Mode` set|add): `{created, updated, errors, total_processed}`, booked as opening balances"),
];
