//! The dashboard (CONTRACT 5.1): counts of quotes, orders and production, recent orders, and
//! the sales, shipping and profit trends for WTD, MTD, QTD, YTD and ALL (the last 365 days),
//! each from a few statements (grouped counts; the window's rows summed per day), never a
//! query per order. The production and purchasing trends
//! are served by their own areas.

pub mod accounting;
pub mod graphql;
pub mod model;
pub mod rest;
