//! REST routes of the service's own facts (CONTRACT 4: `/system/version`, `/system/health`,
//! `/system/info`) and the typed settings (CONTRACT 5.16, NEW: `/system/settings`,
//! `/system/settings/{key}`; the fields are in `settings::registry`).

use crate::platform::auth::Access::{Admin, Public};
use crate::platform::rest::{Body, Route};
use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/system/version", include_str!("rest/version.graphql"), "system")
        .access(Public)
        .summary("The service version and build date, `{version, build_date}` (the SPA footer; public like `/health`)"),
    Route::get("/system/health", include_str!("rest/health.graphql"), "systemHealth")
        .access(Public)
        .summary("`{status: healthy|degraded, version, timestamp, database_connected, services, error}`; always 200 (use `/health` for a 503 when the database is down)"),
    Route::get("/system/info", include_str!("rest/info.graphql"), "systemInfo")
        .access(Public)
        .summary("What a client needs before sign-in (public, as in FilaOps): `{tier, features_enabled, version, build_date, install_method, smtp_configured}`"),
    Route::get("/system/settings", stored_op!("settings_list.graphql", "setting"), "systemSettings")
        .access(Admin)
        .summary("Every setting under its key (`section` filter: company, ai, mail, security): `[{key, section, type, value, is_set, masked, read_only, source, env_var, nullable, options, description}]`; secrets are masked (`********`)"),
    Route::get("/system/settings/{key}", stored_op!("setting_get.graphql", "setting"), "systemSetting")
        .access(Admin)
        .summary("One setting in the list's shape; an unknown key is 404 naming the known keys"),
    Route::put("/system/settings/{key}", stored_op!("setting_update.graphql", "setting"), "systemSettingUpdate.setting")
        .body(Body::Fields)
        .access(Admin)
        .summary("Set one setting, body `{value}` (required) typed by the key (`\"\"` clears a clearable one): the setting in the list's shape; 422 with `value` errors when the type or the section's rules refuse it, 400 for a setting from the environment, 404 for an unknown key; audited like PATCH /settings/company and /settings/ai"),
];
