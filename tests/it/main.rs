//! The integration tests: one binary (one link instead of one per area), a module per area
//! or concern, sharing the harness in [`common`] (a real PostgreSQL with a database per
//! test, an in-process SMTP server, Redis, the app in process). `tests/logging.rs` and
//! `tests/error_tracking.rs` stay binaries of their own: they install process-wide state
//! (the log subscriber; the error-tracking client and its panic hook).

// A test may unwrap, expect and panic: a failed assumption there is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod common;

mod accounting_journals;
mod amendments;
mod answer_cache;
mod authz_matrix;
mod bom;
mod catalog;
mod cli;
mod client_fidelity;
mod closed_sets;
mod contract_fidelity;
mod contract_gaps;
mod contract_truth;
mod documented_limits;
mod edge_database;
mod edge_graphql;
mod edge_outage;
mod edge_overload;
mod flat_resolution;
mod health_outage;
mod identity;
mod input_text;
mod inventory;
mod invoices;
mod items_upkeep;
mod kv_jobs;
mod ledger_properties;
mod live_updates;
mod locations;
mod mail_outbox;
mod material_import;
mod messages;
mod null_sweep;
mod order_detail;
mod order_import;
mod partners;
mod planning;
mod platform;
mod pricing;
mod printer_maintenance;
mod printer_tools;
mod printers;
mod production;
mod purchasing;
mod quality;
mod receivables;
mod reporting;
mod rest_engine;
mod rest_facade;
mod routing_properties;
mod routings;
mod sales;
mod scheduling;
mod scheduling_machines;
mod scrap_reasons;
mod sessions_security;
mod settings;
mod settings_security;
mod sorting;
mod spools;
mod tax_rates;
mod traceability;
mod traceability_records;
mod variants;
