//! Pricing (issue 34): price levels, named tiers (wholesale, distributor) with a discount
//! off the items' selling prices and, for chosen items, a price of their own, assigned to
//! customers and applied when an order is created ([`rules::price_for`]); and price
//! suggestions, selling prices from the items' costs at a target margin, applied to the
//! items a user picks. Any signed-in user reads levels; admins change them.

pub mod graphql;
pub mod model;
pub mod rest;
pub mod rules;
