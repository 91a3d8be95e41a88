//! The general ledger (DOMAIN invariant 4, CONTRACT 5.18 and 6.8): the chart of accounts,
//! fiscal periods, journal entries posted in the same database transaction as the business
//! event that causes them ([`ledger::post`]), and the reports read from them (trial balance,
//! account ledger, inventory valuation), the journals and reports of a date window
//! ([`journals`]: sales and payments journals, tax summary, COGS, dashboard). The audit
//! trail that reads them with the orders is a read model: `crate::read_models::audit_trail`.

pub mod graphql;
pub mod journals;
pub mod ledger;
pub mod model;
pub mod payment_kinds;
pub mod rest;
pub mod rules;
