//! Facts about the running service (version, edition, build), for the SPA's footer and for
//! support. GraphQL fields in [`graphql`], REST declarations in [`rest`].

pub mod graphql;
pub mod rest;
