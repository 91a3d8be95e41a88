//! Reporting for report builders (issue 16): bulk exports, a GraphQL query run as a
//! background job for the user who asked, its rows written to a file that expires. The
//! nested report reads themselves are fields of their own areas (sales order line ->
//! product, operation -> printer -> spools) batched by those areas' loaders. GraphQL fields
//! in [`graphql`], the query's planning in [`rules`], the jobs in [`export`], the download
//! route in [`rest`].

pub mod export;
pub mod graphql;
pub mod model;
pub mod order_costs;
pub mod rest;
pub mod rules;
