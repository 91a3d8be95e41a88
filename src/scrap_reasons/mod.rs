//! Scrap reasons (CONTRACT 5.12): why produced parts were thrown away. Any signed-in user
//! reads them (operators pick one when scrapping); admins add, change and deactivate them.
//! GraphQL fields in [`graphql`], REST declarations in [`rest`].

pub mod graphql;
pub mod model;
pub mod rest;
