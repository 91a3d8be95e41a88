//! Planning (issue 32): MRP over every open order, with planned orders, exceptions, the
//! supply and demand of an item over time, and a live buy list. The calculation is the pure
//! [`netting`], proven with property tests; the rest loads its inputs, stores its results
//! and serves them. The shop schedule is its own area, `scheduling`.

pub mod analysis;
pub mod buy_list;
pub mod graphql;
pub mod inputs;
pub mod model;
pub mod mrp;
pub mod netting;
pub mod rest;
