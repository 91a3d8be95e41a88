//! REST routes of the company settings (CONTRACT 5.16): declarations only. The spec's path
//! is `/settings/`; the original's `/settings/company` answers too.

use crate::auth::Access::Admin;
use crate::rest::{Body, Route};

/// A stored operation with the settings fragment.
macro_rules! op {
    ($file:literal) => {
        concat!(
            include_str!(concat!("rest/", $file)),
            include_str!("rest/fragment_settings.graphql")
        )
    };
}

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/settings/", op!("settings_get.graphql"), "companySettings")
        .aliases(&["/settings/company"])
        .summary("The company settings (tax rate as a fraction and as `tax_rate_percent`)"),
    Route::patch("/settings/", op!("settings_update.graphql"), "companySettingsUpdate.settings")
        .aliases(&["/settings/company"])
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change the company settings (every field optional; tax as `tax_rate_percent` 0-100); audited"),
];
