//! Production (CONTRACT 5.12, 6.2, 6.7; DOMAIN "Postings"): work centers with printers as
//! their resources, routings per product, and production orders `WO-YYYY-NNNN` with their
//! operations, materials, spools and serial numbers. Releasing an order snapshots its BOM and
//! routing and reserves its components; starting it issues the components (1210 WIP / 1200
//! Raw); filament is consumed from named spools; completing it receives the finished goods at
//! actual cost (1220 FG / 1210 WIP) and books the scrapped share (5020 / 1210). Every step
//! posts stock and its journal entry in one database transaction.

pub mod detail;
pub mod floor;
pub mod graphql;
pub mod inspections;
pub mod live;
pub mod loaders;
pub mod model;
pub mod rest;
pub mod routing;
pub mod rules;
pub mod variants;
