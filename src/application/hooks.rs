//! What a lower area calls in a higher one without naming it: the lower area declares the
//! function type it needs (in its rules), the higher area provides the function, and this
//! module puts them in the schema's data once, at assembly. Each resolver that needs one
//! takes it from its context and hands it to its rules.
//!
//! - A sales order moved to `shipped` by a status change ships through the shipping area
//!   ([`sales::rules::Shipper`]).
//! - Filament consumed from a spool names a production order that must be open
//!   ([`spools::rules::ProductionOrderCheck`]).
//! - An order about to complete asks quality management's inspection gate
//!   ([`production::rules::CompletionGate`]).
//! - A production order whose QC completes its sales order's production moves the sales
//!   order on ([`production::rules::SalesOrderPassedQc`]).

use async_graphql::SchemaBuilder;

use crate::application::areas::{MutationRoot, QueryRoot, SubscriptionRoot};
use crate::ledgers::spools;
use crate::operations::{production, quality, sales, shipping};

/// Adds every hook to a schema being assembled.
pub fn attach(
    builder: SchemaBuilder<QueryRoot, MutationRoot, SubscriptionRoot>,
) -> SchemaBuilder<QueryRoot, MutationRoot, SubscriptionRoot> {
    builder
        .data(sales::rules::Shipper(shipping::rules::ship_with_defaults))
        .data(spools::rules::ProductionOrderCheck(
            production::rules::open_for_consumption,
        ))
        .data(production::rules::SalesOrderPassedQc(
            sales::rules::production_passed_qc,
        ))
        .data(production::rules::CompletionGate(
            quality::gate::before_completion,
        ))
}
