//! Partners: vendors (spec 2.5, CONTRACT 5.14) and customers (spec 2.6, CONTRACT 5.5).
//!
//! [`model`] holds the rows and queries, [`vendor`] and [`customer`] the rules (checks,
//! numbering, delete-or-deactivate), [`import`] the customer CSV import, [`graphql`] the
//! schema fields and [`rest`] the REST declarations that run them.

pub mod customer;
pub mod fields;
pub mod graphql;
pub mod import;
pub mod model;
pub mod rest;
pub mod vendor;
