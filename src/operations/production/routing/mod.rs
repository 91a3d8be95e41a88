//! Routings: how a product is made, step by step. A routing (or a template, a routing
//! without a product) has ordered steps at work centers, each of an operation type and with
//! the materials it consumes; [`steps`] saves routings whole or a step at a time,
//! [`materials`] the step materials, [`types`] the operation types, [`templates`] the
//! standard flows, and [`graphql`] puts them in the schema with their costs and the
//! manufacturing BOM. Production orders copy a routing's steps and materials when released
//! ([`crate::operations::production::rules::release`]).

pub mod classify;
pub mod graphql;
pub mod materials;
pub mod rest;
pub mod steps;
pub mod templates;
pub mod types;
