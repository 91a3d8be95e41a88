//! Printers (CONTRACT 5.13): the farm's machines, for any signed-in user. GraphQL fields in
//! [`graphql`], rules in [`rules`], REST declarations in [`rest`].

pub mod brands;
pub mod compat;
pub mod graphql;
pub mod import;
pub mod loaders;
pub mod maintenance;
pub mod model;
pub mod rest;
pub mod rules;
