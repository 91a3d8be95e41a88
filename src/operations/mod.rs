//! Layer 4, operations: the work that moves the ledgers. Bills of materials, printers,
//! scrap reasons, purchasing, production, sales, traceability (lots and serials, recorded
//! as goods move) and shipping.

pub mod bom;
pub mod printers;
pub mod production;
pub mod purchasing;
pub mod sales;
pub mod scrap_reasons;
pub mod shipping;
pub mod traceability;
