//! Layer 6, the application: what assembles the service from every area. The areas
//! registry (schema roots, routes, loaders, job kinds), the GraphQL fields one area adds
//! to another's object, the axum router and its state, and the command line.

pub mod app;
pub mod areas;
pub mod cli;
pub mod fields;
pub mod hooks;
