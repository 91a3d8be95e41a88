//! REST route of the security audit log: a declaration only.

use crate::auth::Access::Admin;
use crate::rest::Route;

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
)];
