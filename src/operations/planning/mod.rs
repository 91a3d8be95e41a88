//! Planning (issue 32): MRP over every open order with planned orders, exceptions and a
//! live buy list, and a finite-capacity scheduler for the whole shop with its board. The
//! calculations are pure ([`netting`], `schedule::engine`) and proven with property tests;
//! the rest loads their inputs, stores their results and serves them.

pub mod netting;
pub mod schedule;
