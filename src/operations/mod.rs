//! Layer 4, operations: the work that moves the ledgers. Bills of materials, printers,
//! scrap reasons, purchasing, production, sales, traceability (lots and serials, recorded
//! as goods move), shipping, planning (MRP) and scheduling (the shop's machines and their bookings).

pub mod bom;
pub mod planning;
pub mod printers;
pub mod production;
pub mod purchasing;
pub mod quality;
pub mod sales;
pub mod scheduling;
pub mod scrap_reasons;
pub mod shipping;
pub mod traceability;
