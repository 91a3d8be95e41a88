//! Shipping (CONTRACT "POST /shipments/", 5.2 ship; DOMAIN "Postings"): shipments
//! `SHP-YYYY-NNNN` of sales orders. Shipping an order issues its finished goods (using up its
//! reservations) and the packaging of its products' shipping-stage BOM lines through the stock
//! ledger, books the cost (5000 COGS / 1220 FG, 5010 / 1230 for packaging) and the invoice
//! (1100 AR / 4000 Sales + 2100 tax + 4200 shipping), records carrier, service and tracking
//! and moves the order to `shipped`, all in one database transaction. The shipment rows it writes are
//! `crate::operations::sales::shipments`, where the order reads them.

pub mod graphql;
pub mod rest;
pub mod rules;
