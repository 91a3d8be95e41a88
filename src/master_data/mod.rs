//! Layer 2, master data: what the business is and who works in it. The system's own
//! information, identity (staff accounts, sessions), the security audit log, company
//! settings, the catalog (items, categories, units), tax rates, pricing (price levels, price suggestions), partners (customers, vendors) and
//! locations. These areas import the platform and each other in the declared order.

pub mod audit;
pub mod catalog;
pub mod identity;
pub mod locations;
pub mod partners;
pub mod pricing;
pub mod settings;
pub mod system;
pub mod tax;
