//! REST routes of the company settings (CONTRACT 5.16): declarations only. The spec's path
//! is `/settings/`; the original's `/settings/company` answers too.

use crate::platform::auth::Access::{Admin, Public};
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/settings/", stored_op!("settings_get.graphql", "settings"), "companySettings")
        .aliases(&["/settings/company"])
        .summary("The company settings (tax rate as a fraction and as `tax_rate_percent`)"),
    Route::patch("/settings/", stored_op!("settings_update.graphql", "settings"), "companySettingsUpdate.settings")
        .aliases(&["/settings/company"])
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change the company settings (every field optional; tax as `tax_rate_percent` 0-100); audited"),
    Route::get("/settings/company/logo", include_str!("rest/logo_get.graphql"), "companyLogo")
        .download()
        .access(Public)
        .summary("The company logo's bytes with its content type (404 when none is stored)"),
    Route::post("/settings/company/logo", stored_op!("logo_upload.graphql", "settings"), "companyLogoUpload")
        .body(Body::Multipart)
        .access(Admin)
        .summary("Store the company logo (multipart `file`, PNG or JPEG by content); audited"),
    Route::delete("/settings/company/logo", stored_op!("logo_delete.graphql", "settings"), "companyLogoDelete")
        .access(Admin)
        .summary("Remove the company logo (404 when none is stored); audited"),
    Route::get(
        "/settings/ai",
        concat!(include_str!("rest/ai_get.graphql"), include_str!("rest/fragment_ai.graphql")),
        "aiSettings",
    )
    .summary("The AI assistant settings (`enabled` false until an admin turns it on)"),
    Route::patch(
        "/settings/ai",
        concat!(include_str!("rest/ai_update.graphql"), include_str!("rest/fragment_ai.graphql")),
        "aiSettingsUpdate.settings",
    )
    .body(Body::Input("input"))
    .access(Admin)
    .summary("Change the AI assistant settings (`enabled`, `provider`, `model`, `ollama_url`); audited"),
    Route::post("/settings/ai/test", stored_op!("ai_test.graphql"), "aiSettingsTest.result")
        .access(Admin)
        .summary("Test the stored AI provider configuration: `{success, message, provider, latency_ms}` (200 even when the provider does not answer; 400 when no provider, no `ANTHROPIC_API_KEY` or no usable `ollama_url` is configured). One GET, 5 s limit; Ollama may be on this host or the LAN, link-local and cloud metadata addresses are refused; audited"),
];
