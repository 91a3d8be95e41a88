//! The catalog: items (spec 2.4, CONTRACT 5.6), item categories (a tree), units of measure
//! (CONTRACT 6.6), files attached to items, the product CSV import and the onboarding
//! example data, and catalog upkeep (material items, bulk changes, recosting, the admin
//! products import).

pub mod example_data;
pub mod files;
pub mod graphql;
pub mod images;
pub mod import;
pub mod items;
pub mod loaders;
pub mod maintenance;
pub mod model;
pub mod rest;
pub mod rules;
pub mod stats;
pub mod uom;
