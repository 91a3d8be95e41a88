//! Traceability (CONTRACT 5.19, 6.7): the genealogy from vendors, purchase orders, lots and
//! spools through production orders and finished units to sales orders and customers.
//!
//! Every link is a row of the `trace_edges` view, so a forward ("where did this spool go?")
//! or backward ("what is this unit made of?") trace is one recursive query at any depth
//! ([`model::walk`]); the reports of CONTRACT 5.19 ([`report`]) load what a walk reached
//! with one statement per kind of record. Shipping gives each shipment its finished units
//! ([`rules::assign_shipped_units`]), which closes the chain from spool to customer.

pub mod graphql;
pub mod model;
pub mod records;
pub mod report;
pub mod rest;
pub mod rules;
