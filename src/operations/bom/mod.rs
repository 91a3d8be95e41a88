//! Bills of materials (CONTRACT 5.7, DOMAIN "BOM"): what one unit of a product is made of,
//! in versions of which one is active; lines with quantity, unit, scrap factor and the stage
//! that consumes them; multi-level (a component may have its own BOM). Explosion, cost
//! roll-up, where-used and validation walk the structure loaded level by level
//! ([`tree::Tree`]), never a query per line. Items' standard costs are recomputed from the
//! roll-up or their latest purchase price ([`costing`]).

pub mod costing;
pub mod graphql;
pub mod loaders;
pub mod model;
pub mod rest;
pub mod rules;
pub mod tree;
