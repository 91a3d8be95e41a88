//! REST routes of locations (CONTRACT 5.9; admins only, spec 4.5): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/admin/locations", stored_op!("locations_list.graphql", "location"), "locations.nodes")
        .access(Admin)
        .summary("Locations by code, a bare array (`include_inactive`, `search`, `type`, `parent_id`, `limit` up to 1000, `offset`)"),
    Route::post("/admin/locations", stored_op!("location_create.graphql", "location"), "locationCreate.location")
        .body(Body::Input("input"))
        .status(201)
        .access(Admin)
        .summary("Create a location (`type` defaults to warehouse; a duplicate code is 400)"),
    Route::get("/admin/locations/{id}", stored_op!("location_get.graphql", "location"), "location")
        .access(Admin)
        .summary("One location"),
    Route::put("/admin/locations/{id}", stored_op!("location_update.graphql", "location"), "locationUpdate.location")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a location (a parent that would close a cycle is refused)"),
    Route::delete("/admin/locations/{id}", include_str!("rest/location_delete.graphql"), "locationDelete")
        .access(Admin)
        .summary("Delete a location; the main warehouse and locations in use are deactivated instead, one holding stock is refused"),
];
