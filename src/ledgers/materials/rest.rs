//! REST routes of the materials and inventory imports (CONTRACT 5.11, onboarding step 6;
//! admins only, spec 4.5) and of the material catalogue FilaOps's pickers read (staff;
//! changes for admins): declarations only.

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
    Route::get("/materials/types", stored_op!("material_types.graphql", "material_type"), "materialCatalog")
        .summary("Material types as `{materials: [...]}` with what they ask of a printer (`requires_enclosure`, temperatures, `filament_diameter`, `is_abrasive`, `density`); `include_inactive`"),
    Route::patch("/materials/types/{code}", stored_op!("material_type_update.graphql", "material_type"), "materialTypeUpdateByCode.materialType")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a material type by code (`name`, `description`, `requires_enclosure`, `nozzle_temp_c`, `bed_temp_c`, `density_g_cm3`, `filament_diameter_mm`, `is_abrasive`, `active`)"),
    Route::get("/materials/types/{code}/colors", stored_op!("material_type_colors.graphql"), "materialTypeColors")
        .summary("The active colours of a material type: `{material_type, colors: [{code, name, hex}]}` (404 for an unknown type)"),
    Route::post("/materials/types/{code}/colors", stored_op!("material_color_add.graphql"), "materialColorAdd.added")
        .body(Body::Input("input"))
        .access(Admin)
        .flatten(&["color"])
        .summary("Add a colour to a material type (`name`, `code` default from the name, `hex_code` #RRGGBB); an existing colour code is linked; one already linked is 400"),
    Route::get("/materials/for-bom", stored_op!("materials_for_bom.graphql"), "materialsForBom")
        .summary("The material items (a type in a colour) with cost and stock, `{items: [...]}`, for BOM and routing-step pickers"),
    Route::get("/materials/for-order", stored_op!("materials_for_order.graphql"), "materialsForOrder")
        .summary("The material items a sales order line can name (`in_stock_only`, default false): `{items: [{id, sku, name, material_type_code, material_type_name, color_code, color_name, color_hex, cost_per_kg, in_stock, quantity_kg}]}`"),
    Route::get("/materials/options", stored_op!("material_options.graphql"), "materialOptions")
        .summary("Active material types with their colours and stock: `{materials: [{code, name, description, base_material, requires_enclosure, colors: [{code, name, hex, in_stock, quantity_kg}]}]}`"),
    Route::get("/materials/pricing/{code}", stored_op!("material_pricing.graphql"), "materialPricing")
        .summary("A material type's printing and pricing facts: density, average cost per kg of its items, temperatures, enclosure, abrasive, diameter"),
];
