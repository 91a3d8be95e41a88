//! REST routes of the catalog (CONTRACT 5.6, 6.6, 5.11 items import; spec 4.4): declarations
//! only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Export, Route};

/// Item lists export page by page (`?format=csv|ndjson`).
const ITEM_EXPORT: Export = Export {
    rows: "items",
    limit: "limit",
    offset: "offset",
    page_size: 250,
};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::post("/admin/uploads/product-image", stored_op!("product_image_upload.graphql"), "productImageUpload")
        .body(Body::Multipart)
        .summary("Upload a product image (multipart `file`: .jpg, .jpeg, .png, .webp or .gif, the content checked, at most 5 MB): `{filename, url, size}`; `url` goes into the item's `image_url`"),
    Route::get("/admin/uploads/product-image/{filename}", stored_op!("product_image_download.graphql"), "productImage")
        .download()
        .refuses()
        .summary("A stored product image (400 for a name that was not generated here, 404 when missing)"),
    Route::delete("/admin/uploads/product-image/{filename}", stored_op!("product_image_delete.graphql"), "productImageDelete")
        .summary("Delete a stored product image: `{message}` (400 for a name that was not generated here, 404 when missing)"),
    Route::get("/items", stored_op!("items_list.graphql", "item_list"), "items")
        .export(ITEM_EXPORT)
        .summary("Items by SKU (`search` SKU/name/UPC, `item_type`, `procurement_type`, `category_id` with descendants, `active_only`, `limit`, `offset`)"),
    Route::post("/items", stored_op!("item_create.graphql", "item", "item_list"), "itemCreate.item")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/items/{id}")
        .idempotent()
        .summary("Create an item (blank SKU: generated)"),
    Route::get("/items/sku/{sku}", stored_op!("item_by_sku.graphql", "item", "item_list"), "itemBySku")
        .summary("One item by SKU"),
    Route::get("/items/categories", stored_op!("categories_list.graphql", "category"), "itemCategories")
        .summary("Item categories (flat, with paths)"),
    Route::post("/items/categories", stored_op!("category_create.graphql", "category"), "itemCategoryCreate.category")
        .body(Body::Input("input"))
        .status(201)
        .access(Admin)
        .summary("Create an item category"),
    Route::patch("/items/categories/{id}", stored_op!("category_update.graphql", "category"), "itemCategoryUpdate.category")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change an item category (cycles are refused)"),
    Route::put("/items/categories/{id}", stored_op!("category_update.graphql", "category"), "itemCategoryUpdate.category")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change an item category (cycles are refused)"),
    Route::get("/items/import/template", stored_op!("import_template.graphql"), "itemImportTemplate")
        .raw("text/csv; charset=utf-8")
        .summary("The product CSV template"),
    Route::post("/items/import/preview", stored_op!("item_preview.graphql"), "itemImport")
        .body(Body::Multipart)
        .summary("Check a product CSV (multipart `file`) without importing"),
    Route::post("/items/import", stored_op!("item_import.graphql"), "itemImport")
        .body(Body::Multipart)
        .summary("Import a product CSV (multipart `file`; `update_existing`, `default_item_type`)"),
    Route::post("/items/material", stored_op!("item_material_create.graphql", "item", "item_list"), "itemMaterialCreate.item")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/items/{id}")
        .idempotent()
        .summary("Create the filament item of a material type and colour (`material_type_code`, `color_code`, `cost_per_kg`, `selling_price`, `initial_qty_kg` posted at MAIN as opening stock, `category_id`); SKU `MAT-<TYPE>-<COLOR>`, stocked in G, bought in KG"),
    Route::post("/items/bulk-update", stored_op!("item_bulk_update.graphql"), "itemBulkUpdate")
        .body(Body::Input("input"))
        .summary("Change up to 500 items at once, all or none (`item_ids`; `category_id` (0 or null clears), `is_active`, `item_type`, `procurement_type`, `stocking_policy`, `reorder_point`): `{message, updated_count, error_count, errors}`"),
    Route::post("/items/recost-all", stored_op!("item_recost_all.graphql", "item_recost"), "itemRecostAll")
        .access(Admin)
        .summary("Recompute the standard cost of every active item (`item_type`, `category_id` with descendants, `cost_source` manufactured|purchased) from its BOM roll-up or latest purchase price: `{updated, unchanged, skipped, items, errors, message}`"),
    Route::post("/items/{id}/recost", stored_op!("item_recost.graphql", "item_recost"), "itemRecost.recost")
        .access(Admin)
        .summary("Recompute an item's standard cost from its active BOM's roll-up (made) or latest purchase price (bought): old and new cost, source"),
    Route::get("/admin/import/products/template", stored_op!("product_import_template.graphql"), "productImportTemplate")
        .access(Admin)
        .raw("text/csv; charset=utf-8")
        .summary("The products CSV template"),
    Route::post("/admin/import/products", stored_op!("product_import.graphql"), "productImport")
        .body(Body::Multipart)
        .access(Admin)
        .idempotent()
        .summary("Import products from a CSV (multipart `file` ending in .csv; `SKU, Name, Description, Item Type, Procurement Type, Unit, Standard Cost, Selling Price, Reorder Point, Active`): new SKUs created, existing ones updated, `{created, updated, errors, total_processed}`"),
    Route::get("/items/{id}/demand-summary", include_str!("rest/item_demand_summary.graphql"), "itemDemandSummary")
        .summary("Where an item's stock is going and coming from, in its stocking unit: `on_hand`, `allocated`, `available`, open `sales_demand` and `production_demand` (each with its unreserved part), `in_production`, `on_order`, `projected` and `shortage`"),
    Route::get("/items/{id}", stored_op!("item_get.graphql", "item", "item_list"), "item")
        .summary("One item"),
    Route::patch("/items/{id}", stored_op!("item_update.graphql", "item", "item_list"), "itemUpdate.item")
        .body(Body::Input("input"))
        .summary("Change an item"),
    Route::delete("/items/{id}", stored_op!("item_delete.graphql"), "itemDelete")
        .summary("Delete (deactivate) an item; refused while stock or a BOM uses it"),
    Route::get("/items/{id}/files", stored_op!("item_files.graphql", "file"), "item.files")
        .summary("Files attached to an item"),
    Route::post("/items/{id}/files", stored_op!("item_file_upload.graphql", "file"), "itemFileUpload.file")
        .body(Body::Multipart)
        .status(201)
        .summary("Attach a file (3MF, STL, OBJ, STEP, G-code, PNG, JPEG, PDF; multipart `file`)"),
    Route::get("/items/{id}/files/{file_id}/download", stored_op!("item_file_download.graphql"), "itemFile")
        .download()
        .summary("The file's bytes, with its content type and name (`Content-Disposition: attachment`)"),
    Route::delete("/items/{id}/files/{file_id}", stored_op!("item_file_delete.graphql"), "itemFileDelete")
        .summary("Remove a file from an item"),
    Route::get("/products", stored_op!("products_list.graphql"), "items")
        .summary("Items in the original's product shape (dropdowns)"),
    Route::get("/admin/uom/", stored_op!("uom_list.graphql"), "unitsOfMeasure")
        .summary("Units of measure"),
    Route::post("/setup/seed-example-data", stored_op!("seed_example_data.graphql"), "seedExampleData")
        .access(Admin)
        .summary("Load example data (fresh installations; running it twice changes nothing)"),
    Route::get("/items/stats", stored_op!("item_stats.graphql"), "itemStats")
        .flatten(&["counts"])
        .summary("Item counts: total, active, inactive, active per type, low stock, categories"),
    Route::get("/items/low-stock", stored_op!("low_stock.graphql"), "lowStockReport")
        .summary("Active items whose available stock is at or below their reorder point"),
    Route::get("/items/categories/tree", stored_op!("category_tree.graphql"), "itemCategoryTree")
        .summary("The category tree, nested `children` (nine levels; `include_inactive`)"),
    Route::get("/items/categories/{id}", stored_op!("category_get.graphql", "category"), "itemCategory")
        .summary("One item category with its path"),
    Route::delete("/items/categories/{id}", stored_op!("category_delete.graphql"), "itemCategoryDelete")
        .access(Admin)
        .summary("Delete an item category; refused (400) while items or sub-categories use it"),
    Route::post("/items/{id}/duplicate", stored_op!("item_duplicate.graphql", "item", "item_list"), "itemDuplicate.item")
        .body(Body::Fields)
        .status(201)
        .location("/api/v1/items/{id}")
        .summary("Copy an item (`new_sku`, `new_name` optional: generated SKU, name with ` (Copy)`)"),
    Route::get("/admin/uom/classes", stored_op!("uom_classes.graphql"), "unitClasses")
        .summary("Unit classes with their base unit and unit codes"),
    Route::get("/admin/uom/{code}", stored_op!("uom_get.graphql"), "unitOfMeasure")
        .summary("One unit of measure by code (any case)"),
    Route::post("/admin/uom/convert", stored_op!("uom_convert.graphql"), "convertUnits")
        .body(Body::Fields)
        .summary("Convert `quantity` from `from_unit` to `to_unit` (same class, else 400)"),
    Route::post("/admin/uom/", stored_op!("uom_create.graphql", "uom"), "unitOfMeasureCreate.unit")
        .body(Body::Input("input"))
        .status(201)
        .access(Admin)
        .summary("Add a unit (`code` 1-10, `name`, `symbol`, `uom_class`, `to_base_factor` > 0 against `base_unit_code`, any unit of the class; the first unit of a new class is its base): a taken code is 400"),
    Route::patch("/admin/uom/{code}", stored_op!("uom_update.graphql", "uom"), "unitOfMeasureUpdate.unit")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a unit's `name`, `symbol`, `to_base_factor` (a base unit's stays 1) or `active` (a base unit with active units stays active)"),
];
