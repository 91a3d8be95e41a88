//! Sales (CONTRACT 5.2-5.4, 6.1, 6.4; DOMAIN "Postings"): quotes `Q-YYYY-NNNN`, sales orders
//! `SO-YYYY-NNNN` with lines priced from the items' selling prices and tax from the company
//! settings, the status flow of CONTRACT 6.1 with its messages, and payments `PAY-YYYY-NNNN`.
//! Confirming an order reserves finished goods through the stock ledger and creates
//! production orders (through the production area's own create rule) for what is short;
//! cancelling releases the reservations. The fulfillment state, percent and priority are
//! stored generated columns kept right by a trigger on the lines, so the list filters and
//! sorts on them. Payments post 1000 Cash / 1100 AR (refunds the reverse). Shipments are in
//! `crate::operations::shipping`. Orders come in from shops' CSV exports through [`import`].

pub mod blockers;
pub mod documents;
pub mod events;
pub mod graphql;
pub mod import;
pub mod invoices;
pub mod loaders;
pub mod messages;
pub mod model;
pub mod payments;
pub mod quote_images;
pub mod quotes;
pub mod readiness;
pub mod rest;
pub mod rules;
pub mod shipments;
