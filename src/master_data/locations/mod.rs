//! Stock locations (CONTRACT 5.9): a tree of warehouses, shelves and bins, admins only
//! (spec 4.5). GraphQL fields in [`graphql`], rules in [`rules`], REST declarations in
//! [`rest`].

pub mod graphql;
pub mod model;
pub mod rest;
pub mod rules;
