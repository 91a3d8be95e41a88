//! Partners: vendors (spec 2.5, CONTRACT 5.14) and customers (spec 2.6, CONTRACT 5.5).

pub mod fields;
pub mod graphql;
pub mod import;
pub mod model;
pub mod rest;
