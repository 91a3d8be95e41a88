//! The inventory ledger (DOMAIN invariants 1-3, CONTRACT 5.8 and 6.5): append-only stock
//! transactions, balances per item and location kept in the same database transaction as
//! each ledger row, moving-average costs, reservations, and the routes on top of it (manual
//! transactions, the inventory summary and cycle counts).
//!
//! Other areas move stock only through [`ledger::post`], [`ledger::reserve`] and
//! [`ledger::release`], inside their own database transaction, and book the value through
//! [`crate::ledgers::accounting::ledger::post`] in the same one.

pub mod graphql;
pub mod ledger;
pub mod loaders;
pub mod model;
pub mod rest;
pub mod rules;
