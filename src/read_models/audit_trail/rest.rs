//! The audit trail declares no routes of its own: `/admin/audit/transactions` and
//! `/admin/audit/transactions/order/{id}` are declared with the accounting routes
//! (`crate::ledgers::accounting::rest`), in the order and under the tag clients know them by,
//! and run this area's GraphQL fields.

use crate::platform::rest::Route;

/// No routes (see the module documentation).
pub const ROUTES: &[Route] = &[];
