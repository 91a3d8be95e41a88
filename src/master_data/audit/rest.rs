//! REST routes of the security audit log, the configuration scan and its remediation
//! guidance: declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::Route;
use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[Route::get(
    "/security/audit-log/",
    include_str!("rest/audit_log.graphql"),
    "securityAuditLog",
)
.flatten(&["page"])
.access(Admin)
.summary(
    "Security events, newest first (`limit`, `offset`, `event_type`, `user_id`, `since`, `until`)",
),
    Route::get("/security/audit", stored_op!("scan.graphql", "scan"), "securityScan")
        .access(Admin)
        .summary("The configuration security scan of this deployment (CONTRACT 5.17)"),
    Route::get("/security/audit/export", stored_op!("scan_export.graphql", "scan"), "securityScanExport")
        .access(Admin)
        .summary("The security scan as a file (`format=json`, `Content-Disposition: attachment`)"),
    Route::get("/security/status", include_str!("rest/scan_status.graphql"), "securityScan.summary")
        .access(Admin)
        .summary("The security scan's summary (counts and overall status)"),
    Route::get("/security/remediate/check-caddy", include_str!("rest/remediate_check_caddy.graphql"), "securityProxyCheck")
        .access(Admin)
        .summary("Whether this request came through a TLS-terminating reverse proxy (from `X-Forwarded-Proto`; guidance only): `{check_id, title, severity, status, proxy_detected, tls, forwarded_proto, trusted_proxies_configured, message, steps, commands, docs, automated: false}`; audited"),
    Route::post("/security/remediate/fix-dependencies", stored_op!("remediate_fix_dependencies.graphql", "remediation"), "securityRemediationRequest.remediation")
        .access(Admin)
        .summary("How to keep dependencies current (a new release, not a host change): `{check_id, title, severity, status, steps, commands, docs, automated: false, applied: false, message}`; nothing is applied; audited"),
    Route::post("/security/remediate/fix-dotfile-blocking", stored_op!("remediate_fix_dotfile_blocking.graphql", "remediation"), "securityRemediationRequest.remediation")
        .access(Admin)
        .summary("How hidden files (`.env`) stay unserved (the nginx of docker/): the remediation shape with `applied: false`; audited"),
    Route::post("/security/remediate/fix-rate-limiting", stored_op!("remediate_fix_rate_limiting.graphql", "remediation"), "securityRemediationRequest.remediation")
        .access(Admin)
        .summary("The built-in rate limits and `TRUSTED_PROXIES`: the remediation shape with `applied: false`; audited"),
    Route::post("/security/remediate/generate-secret-key", include_str!("rest/remediate_generate_secret_key.graphql"), "securitySecretKeyGenerate.result")
        .access(Admin)
        .summary("A fresh random key for `SECRET_KEY` (32 CSPRNG bytes as 64 hex characters; not stored, logged or applied; `Cache-Control: no-store`): `{secret_key, encoding, bits, env_var, steps, applied: false, message}`; audited without the key"),
    Route::post("/security/remediate/open-env-file", stored_op!("remediate_open_env_file.graphql", "remediation"), "securityRemediationRequest.remediation")
        .access(Admin)
        .summary("How to edit the deployment's environment (docker/.env) on the host; Strata opens nothing: the remediation shape with `applied: false`; audited"),
    Route::post("/security/remediate/open-restart-terminal", stored_op!("remediate_open_restart_terminal.graphql", "remediation"), "securityRemediationRequest.remediation")
        .access(Admin)
        .summary("How to restart after a configuration change; Strata starts no program: the remediation shape with `applied: false`; audited"),
    Route::post("/security/remediate/setup-https", stored_op!("remediate_setup_https.graphql", "remediation"), "securityRemediationRequest.remediation")
        .access(Admin)
        .summary("How to serve Strata behind a TLS terminator: the remediation shape with `applied: false`; audited"),
    Route::post("/security/remediate/update-secret-key", include_str!("rest/remediate_update_secret_key.graphql"), "securitySecretKeyUpdate.remediation")
        .access(Admin)
        .summary("Always 400: `SECRET_KEY` comes from the environment at start-up and is not changed from a request (the answer says how to change it); audited as denied"),
    Route::get("/security/remediate/{check_id}", stored_op!("remediate_check.graphql"), "securityRemediation")
        .access(Admin)
        .summary("How to fix one check of the scan (its `id`): `{check_id, title, severity, status, steps, commands, docs, automated: false}`; 404 for an id the scan does not have; audited"),
];
