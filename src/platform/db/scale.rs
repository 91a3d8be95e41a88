//! The decimal places the books keep (DOMAIN invariant 5): four for unit costs and
//! quantities, two for money (`accounting::ledger::cents`). Declared once so every area
//! rounds alike.

/// Decimal places of a unit cost.
pub const COST_SCALE: i64 = 4;
/// Decimal places of a quantity (the stock ledger stores four).
pub const QUANTITY_SCALE: i64 = 4;
