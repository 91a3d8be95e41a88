//! Invoices `INV-YYYY-NNNN` (issue 34): what a customer is billed for a sales order, on the
//! customer's terms, with a due date, a PDF and an e-mail. Shipping writes one for what the
//! order has not been billed yet (its receivable posting); an admin can write one by hand,
//! whole or as a deposit. Payments stay on the order and apply to its invoices oldest first
//! ([`rules::apply_payments`]); void mirrors the posting and is refused once paid.

pub mod graphql;
pub mod model;
pub mod rest;
pub mod rules;
