//! REST routes of vendors (CONTRACT 5.14) and customers (CONTRACT 5.5): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Export, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get(
        "/vendors/",
        stored_op!("vendors_list.graphql", "vendor"),
        "vendors",
    )
    .summary("Vendors by name (`search`, `active_only`, `limit` up to 500, `offset`)"),
    Route::post(
        "/vendors/",
        stored_op!("vendor_create.graphql", "vendor"),
        "vendorCreate.vendor",
    )
    .body(Body::Input("input"))
    .status(201)
    .location("/api/v1/vendors/{id}")
    .idempotent()
    .summary("Create a vendor (blank code: `VND-NNN`)"),
    Route::get(
        "/vendors/{id}",
        stored_op!("vendor_get.graphql", "vendor"),
        "vendor",
    )
    .summary("One vendor"),
    Route::put(
        "/vendors/{id}",
        stored_op!("vendor_update.graphql", "vendor"),
        "vendorUpdate.vendor",
    )
    .body(Body::Input("input"))
    .summary("Change a vendor"),
    Route::delete(
        "/vendors/{id}",
        stored_op!("vendor_delete.graphql"),
        "vendorDelete",
    )
    .summary("Delete a vendor (one with purchase orders is deactivated)"),
    Route::get(
        "/admin/customers/",
        stored_op!("customers_list.graphql", "customer"),
        "customers.nodes",
    )
    .access(Admin)
    .export(Export {
        rows: "",
        limit: "limit",
        offset: "skip",
        page_size: 200,
    })
    .summary("Customers, newest first (`search`, `status`, `include_inactive`, `skip`, `limit` up to 200)"),
    Route::get(
        "/admin/customers/search",
        stored_op!("customers_search.graphql"),
        "customerSearch",
    )
    .access(Admin)
    .summary("Quick search of active customers (`q`, `limit`)"),
    Route::get(
        "/admin/customers/import/template",
        stored_op!("customer_import_template.graphql"),
        "customerImportTemplate",
    )
    .raw("text/csv; charset=utf-8")
    .access(Admin)
    .summary("The customer CSV template"),
    Route::post(
        "/admin/customers/import/preview",
        stored_op!("customer_preview.graphql"),
        "customerImport",
    )
    .body(Body::Multipart)
    .access(Admin)
    .summary("Check a customer CSV (multipart `file`) without importing"),
    Route::post(
        "/admin/customers/import",
        stored_op!("customer_import.graphql"),
        "customerImport",
    )
    .body(Body::Multipart)
    .access(Admin)
    .summary("Import a customer CSV (multipart `file`)"),
    Route::post(
        "/admin/customers/",
        stored_op!("customer_create.graphql", "customer"),
        "customerCreate.customer",
    )
    .body(Body::Input("input"))
    .status(201)
    .location("/api/v1/admin/customers/{id}")
    .idempotent()
    .access(Admin)
    .summary("Create a customer"),
    Route::get(
        "/admin/customers/{id}",
        stored_op!("customer_get.graphql", "customer"),
        "customer",
    )
    .access(Admin)
    .summary("One customer"),
    Route::patch(
        "/admin/customers/{id}",
        stored_op!("customer_update.graphql", "customer"),
        "customerUpdate.customer",
    )
    .body(Body::Input("input"))
    .access(Admin)
    .summary("Change a customer"),
    Route::delete(
        "/admin/customers/{id}",
        stored_op!("customer_delete.graphql"),
        "customerDelete",
    )
    .status(204)
    .access(Admin)
    .summary("Delete a customer (one with orders becomes inactive)"),
];
