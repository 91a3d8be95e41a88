//! REST route of the security audit log: a declaration only.

use crate::auth::Access::Admin;
use crate::rest::Route;

/// A stored operation with the scan fragments.
macro_rules! scan_op {
    ($file:literal) => {
        concat!(
            include_str!(concat!("rest/", $file)),
            include_str!("rest/fragment_scan.graphql")
        )
    };
}

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
    Route::get("/security/audit", scan_op!("scan.graphql"), "securityScan")
        .access(Admin)
        .summary("The configuration security scan of this deployment (CONTRACT 5.17)"),
    Route::get("/security/audit/export", scan_op!("scan_export.graphql"), "securityScanExport")
        .access(Admin)
        .summary("The security scan as a file (`format=json`, `Content-Disposition: attachment`)"),
    Route::get("/security/status", include_str!("rest/scan_status.graphql"), "securityScan.summary")
        .access(Admin)
        .summary("The security scan's summary (counts and overall status)"),
];
