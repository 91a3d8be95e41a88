//! Strata: the back office for small manufacturers (3D print farms first).
//!
//! One GraphQL schema is the single source of truth; the REST API under `/api/v1` is
//! generated from stored operations on it. See `ARCHITECTURE.md` for the map.

#![recursion_limit = "256"]

pub mod accounting;
pub mod app;
pub mod areas;
pub mod audit;
pub mod auth;
pub mod bom;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod dashboard;
pub mod db;
pub mod documents;
pub mod error;
pub mod graphql;
pub mod health;
pub mod http;
pub mod identity;
pub mod import;
pub mod inventory;
pub mod jobs;
pub mod locations;
pub mod mail;
pub mod materials;
pub mod outbound;
pub mod partners;
pub mod printers;
pub mod production;
pub mod purchasing;
pub mod reporting;
pub mod rest;
pub mod sales;
pub mod scrap_reasons;
pub mod settings;
pub mod shipping;
pub mod spools;
pub mod system;
pub mod telemetry;
pub mod traceability;

/// The service version reported by `/health` and GraphQL.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The day this binary was built (`YYYY-MM-DD`, UTC), reported by `/system/version`.
pub const BUILD_DATE: &str = env!("STRATA_BUILD_DATE");
