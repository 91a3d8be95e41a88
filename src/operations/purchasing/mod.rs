//! Purchasing (CONTRACT 5.14, 6.3, 6.7; DOMAIN "Postings"): purchase orders `PO-YYYY-NNN`
//! with lines bought in a purchase unit, their status flow and events, and receiving: a
//! receipt posts stock at unit cost through the stock ledger (moving average), creates
//! material lots and spools, and books 1200 Raw materials / 2000 Accounts payable, all in one
//! database transaction and never twice for the same goods. Also replenishment (low stock,
//! draft orders from it) and what each vendor sells and how it performs.

pub mod documents;
pub mod graphql;
pub mod item_demand;
pub mod loaders;
pub mod model;
pub mod pdf;
pub mod replenish;
pub mod rest;
pub mod rules;
