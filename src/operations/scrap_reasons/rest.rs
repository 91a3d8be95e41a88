//! REST routes of scrap reasons (CONTRACT 5.12 "Scrap reasons"): declarations only. The
//! spec's path is `/scrap-reasons/`; the original's `/production-orders/scrap-reasons`
//! answers too. Reading is for any signed-in user, changes are for admins.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get(
        "/scrap-reasons/",
        include_str!("rest/scrap_reasons_active.graphql"),
        "scrapReasons",
    )
    .aliases(&["/production-orders/scrap-reasons"])
    .summary("Active scrap reasons as `{reasons, details, descriptions}`"),
    Route::get(
        "/scrap-reasons/all",
        stored_op!("scrap_reasons_all.graphql", "scrap_reason"),
        "scrapReasons.nodes",
    )
    .aliases(&["/production-orders/scrap-reasons/all"])
    .summary("Every scrap reason, inactive ones too (a bare array)"),
    Route::post(
        "/scrap-reasons/",
        stored_op!("scrap_reason_create.graphql", "scrap_reason"),
        "scrapReasonCreate.scrapReason",
    )
    .aliases(&["/production-orders/scrap-reasons"])
    .body(Body::Input("input"))
    .status(201)
    .access(Admin)
    .summary("Add a scrap reason (`code` 1-50, `name` 1-100; a duplicate code is 400)"),
    Route::put(
        "/scrap-reasons/{id}",
        stored_op!("scrap_reason_update.graphql", "scrap_reason"),
        "scrapReasonUpdate.scrapReason",
    )
    .aliases(&["/production-orders/scrap-reasons/{id}"])
    .body(Body::Input("input"))
    .access(Admin)
    .summary("Change a scrap reason's name, description, active state or sequence"),
    Route::delete(
        "/scrap-reasons/{id}",
        include_str!("rest/scrap_reason_delete.graphql"),
        "scrapReasonDelete",
    )
    .aliases(&["/production-orders/scrap-reasons/{id}"])
    .access(Admin)
    .summary("Deactivate a scrap reason"),
];
