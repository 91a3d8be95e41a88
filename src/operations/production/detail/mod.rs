//! An order in detail: what it costs against its estimate ([`cost`]), whether its materials
//! are there ([`availability`]), whether they can print on its machines ([`compat`]), what it
//! waits for ([`required`]), redoing its operations from the routing ([`rework`]) and
//! scrapping at an operation with the cascade of what is lost ([`scrap`]). [`graphql`] puts
//! them in the schema; [`rest`] declares FilaOps's paths.

pub mod availability;
pub mod compat;
pub mod cost;
pub mod facts;
pub mod graphql;
pub mod required;
pub mod rest;
