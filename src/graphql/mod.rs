//! The one GraphQL schema: the Query (and later Mutation) roots merged from every business
//! area, with depth and complexity limits on from day one.
//!
//! REST routes run operations against this same schema in-process, so a rule enforced here
//! holds for both APIs.

pub mod errors;
mod system;

use async_graphql::{EmptyMutation, EmptySubscription, MergedObject, Schema};

use std::sync::Arc;

use crate::config::Config;
use crate::db::DbPool;

pub use system::SystemQuery;

/// Deepest selection nesting a query may have.
pub const MAX_DEPTH: usize = 16;
/// Largest total complexity (roughly, fields times list multipliers) a query may have.
pub const MAX_COMPLEXITY: usize = 2_000;

/// The Query root: one field group per business area.
#[derive(MergedObject, Default)]
#[graphql(name = "Query")]
pub struct QueryRoot(SystemQuery);

/// The schema type shared by `/graphql` and the REST facade.
pub type AppSchema = Schema<QueryRoot, EmptyMutation, EmptySubscription>;

/// Builds the schema with its shared data (the pool and the configuration). Per-request data (the request id, the
/// viewer) is attached to each request by the handlers.
pub fn build_schema(pool: Option<DbPool>, config: Option<Arc<Config>>) -> AppSchema {
    let mut builder = Schema::build(QueryRoot::default(), EmptyMutation, EmptySubscription)
        .limit_depth(MAX_DEPTH)
        .limit_complexity(MAX_COMPLEXITY)
        .limit_recursive_depth(32)
        .extension(errors::ErrorCodes);
    if let Some(pool) = pool {
        builder = builder.data(pool);
    }
    if let Some(config) = config {
        builder = builder.data(config);
    }
    builder.finish()
}

/// The SDL that `strata schema` prints and `schema.graphql` holds.
pub fn sdl() -> String {
    build_schema(None, None).sdl()
}
