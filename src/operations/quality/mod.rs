//! Quality management: the company's quality policy (off, basic, full; the inspection gate
//! off, warn, block), a defect taxonomy, quality plans per product (variable
//! characteristics with nominal and limits, attribute characteristics judged pass/fail),
//! inspections per order or operation (append-only, with measurements, defects, waivers and
//! photos), the gate that warns about or blocks completion and shipment, and the quality
//! dashboard (inspection queue, first-pass yield, scrap rate and cost by reason, trends).
//!
//! Quality sits above production: it records its verdicts through production's QC rule
//! ([`crate::operations::production::rules::qc`]) and production asks it, through the
//! [`crate::operations::production::rules::CompletionGate`] hook, before an order completes.
//! Shipping asks [`gate::before_shipping`] directly.

pub mod dashboard;
pub mod defects;
pub mod gate;
pub mod graphql;
pub mod inspections;
pub mod photos;
pub mod plans;
pub mod policy;
pub mod rest;
