//! Material spools (CONTRACT 5.10, 6.7; admins only, spec 4.5): physical rolls of a
//! material item tracked in grams, their weight corrections and what production consumed
//! from them. A spool tracks stock the inventory ledger already holds (received by a
//! purchase or an import); a weight correction posts a `spool_adjustment` through the
//! ledger with its journal entry, and consumption posts a `consumption` (DOMAIN "Postings":
//! 1210 WIP / 1200 Raw materials), both in the same database transaction as the spool.

pub mod graphql;
pub mod loaders;
pub mod model;
pub mod rest;
pub mod rules;
