//! Scrap reasons (CONTRACT 5.12): why produced parts were thrown away. Any signed-in user
//! reads them (operators pick one when scrapping); admins add, change and deactivate them.
//! Field rules in [`rules`], GraphQL fields in [`graphql`], REST declarations in [`rest`].

pub mod graphql;
pub mod model;
pub mod rest;
pub mod rules;
