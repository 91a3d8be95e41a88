//! REST routes of tax rates (FilaOps's `/tax-rates`): declarations only. Reading is for
//! any signed-in user (FilaOps's quote form lists them); changes are for admins. Deleting a
//! rate deactivates it (204).

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/tax-rates", stored_op!("tax_rates_list.graphql", "tax_rate"), "taxRates")
        .summary("The active tax rates, the default first (`include_inactive=true` for all); a bare array"),
    Route::get("/tax-rates/{id}", stored_op!("tax_rate_get.graphql", "tax_rate"), "taxRate")
        .summary("One tax rate"),
    Route::post("/tax-rates", stored_op!("tax_rate_create.graphql", "tax_rate"), "taxRateCreate.taxRate")
        .body(Body::Input("input"))
        .status(201)
        .access(Admin)
        .summary("Add a tax rate (`name`, `rate_percent` 0-100; `is_default` takes the default from the rate that had it)"),
    Route::patch("/tax-rates/{id}", stored_op!("tax_rate_update.graphql", "tax_rate"), "taxRateUpdate.taxRate")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a tax rate"),
    Route::delete("/tax-rates/{id}", include_str!("rest/tax_rate_delete.graphql"), "taxRateDelete")
        .status(204)
        .access(Admin)
        .summary("Deactivate a tax rate (documents that charged it keep it)"),
];
