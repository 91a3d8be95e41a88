//! Company settings (CONTRACT 5.16): a singleton row (id 1) with the company's details,
//! tax, quote defaults and working hours. Any signed-in user reads them; admins change them,
//! and each change is recorded in the security audit log. The logo lives in [`logo`], the AI
//! assistant's settings in [`ai`] (its connection test in [`ai_test`]), the typed key/value
//! view over all of them (`/system/settings`, declared in `system::rest`) in [`registry`].
//! GraphQL fields in [`graphql`], rules in [`rules`], REST declarations in [`rest`].

pub mod ai;
pub mod ai_test;
pub mod graphql;
pub mod logo;
pub mod model;
pub mod registry;
pub mod rest;
pub mod rules;
