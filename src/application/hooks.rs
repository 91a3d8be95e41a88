//! What a lower area calls in a higher one without naming it: the lower area declares the
//! function type it needs (in its rules), the higher area provides the function, and this
//! module attaches them to every request, as loaders are attached. Each resolver that needs
//! one takes it from the request's data and hands it to its rules.
//!
//! - A sales order moved to `shipped` by a status change ships through the shipping area
//!   ([`sales::rules::Shipper`]).
//! - A production order whose QC completes its sales order's production moves the sales
//!   order on ([`production::rules::SalesOrderPassedQc`]).

use crate::operations::{production, sales, shipping};
use crate::platform::db::DbPool;

/// Attaches every hook to a request.
pub fn attach(request: async_graphql::Request, _pool: &DbPool) -> async_graphql::Request {
    request
        .data(sales::rules::Shipper(shipping::rules::ship_with_defaults))
        .data(production::rules::SalesOrderPassedQc(
            sales::rules::production_passed_qc,
        ))
}
