//! Tax rates (issue 34): named rates with one default, rates for shipping regions, and the
//! resolution every quote, order and invoice goes through ([`rules::resolve`]): the
//! customer's exemption, then a rate chosen for the document, the customer's rate, the rate
//! of the shipping region, the default rate, and last the company settings' single rate.
//! Any signed-in user reads the rates (a quote form offers them); admins change them.

pub mod graphql;
pub mod model;
pub mod rest;
pub mod rules;
