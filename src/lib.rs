//! Strata: the back office for small manufacturers (3D print farms first).
//!
//! One GraphQL schema is the single source of truth; the REST API under `/api/v1` is
//! generated from stored operations on it. See `docs/ARCHITECTURE.md` for the map.
//!
//! The source is grouped by layer, lowest first. A module may import its own layer's
//! modules and the layers below it, never one above; between business areas the order is
//! the one in `docs/layers.txt`, which `scripts/check-layers` enforces.

#![recursion_limit = "512"]

pub mod platform;

pub mod master_data;

pub mod ledgers;

pub mod operations;

pub mod read_models;

pub mod application;

/// The service version reported by `/health` and GraphQL.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The day this binary was built (`YYYY-MM-DD`, UTC), reported by `/system/version`.
pub const BUILD_DATE: &str = env!("STRATA_BUILD_DATE");
