//! REST routes of the service's own facts (CONTRACT 4: `/system/version`, `/system/health`, `/system/info`).

use crate::auth::Access::{Public, User};
use crate::rest::Route;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/system/version", include_str!("rest/version.graphql"), "system")
        .access(Public)
        .summary("The service version and build date, `{version, build_date}` (the SPA footer; public like `/health`)"),
    Route::get("/system/health", include_str!("rest/health.graphql"), "systemHealth")
        .access(Public)
        .summary("`{status: healthy|degraded, version, timestamp, database_connected, services, error}`; always 200 (use `/health` for a 503 when the database is down)"),
    Route::get("/system/info", include_str!("rest/info.graphql"), "systemInfo")
        .access(User)
        .summary("The service version, build date, edition tier and environment"),
];
