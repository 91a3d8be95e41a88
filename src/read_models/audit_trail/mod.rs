//! The audit trail (CONTRACT 5.17, admins only): the inventory ledger and the books read
//! together with the orders they moved for. A read model: it imports the ledgers and the
//! orders, and nothing imports it. Its REST routes (`/admin/audit/...`) are declared in
//! `crate::ledgers::accounting::rest`, beside the other accounting routes FilaOps groups
//! them with, and run [`graphql::AuditTrailQuery`]'s fields.

pub mod graphql;
pub mod model;
pub mod rest;
