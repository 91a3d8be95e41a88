//! The one GraphQL schema: the Query (and later Mutation) roots merged from every business
//! area, with depth and complexity limits on from day one.
//!
//! REST routes run operations against this same schema in-process, so a rule enforced here
//! holds for both APIs.

pub mod context;
pub mod errors;
pub mod pagination;
pub mod scalars;
mod system;
pub mod user_error;

use async_graphql::dataloader::DataLoader;
use async_graphql::{EmptySubscription, MergedObject, Schema};

use std::sync::Arc;

use crate::audit::graphql::AuditQuery;
use crate::auth::rate_limit::RateLimits;
use crate::auth::tokens::TokenKeys;
use crate::config::Config;
use crate::db::DbPool;
use crate::identity::graphql::{IdentityMutation, IdentityQuery};
use crate::mail::Mailer;

pub use system::SystemQuery;

/// Deepest selection nesting a query may have.
pub const MAX_DEPTH: usize = 16;
/// Largest total complexity (roughly, fields times list multipliers) a query may have.
pub const MAX_COMPLEXITY: usize = 2_000;

/// The Query root: one field group per business area.
#[derive(MergedObject, Default)]
#[graphql(name = "Query")]
pub struct QueryRoot(
    SystemQuery,
    IdentityQuery,
    AuditQuery,
    crate::catalog::graphql::CatalogQuery,
    crate::partners::graphql::PartnersQuery,
    crate::locations::graphql::LocationsQuery,
    crate::printers::graphql::PrintersQuery,
    crate::scrap_reasons::graphql::ScrapReasonsQuery,
    crate::settings::graphql::SettingsQuery,
);

/// The Mutation root: one field group per business area.
#[derive(MergedObject, Default)]
#[graphql(name = "Mutation")]
pub struct MutationRoot(
    IdentityMutation,
    crate::catalog::graphql::CatalogMutation,
    crate::partners::graphql::PartnersMutation,
    crate::locations::graphql::LocationsMutation,
    crate::printers::graphql::PrintersMutation,
    crate::scrap_reasons::graphql::ScrapReasonsMutation,
    crate::settings::graphql::SettingsMutation,
);

/// The schema type shared by `/graphql` and the REST facade.
pub type AppSchema = Schema<QueryRoot, MutationRoot, EmptySubscription>;

/// What every resolver may reach, shared by all requests of a process.
#[derive(Clone)]
pub struct SchemaData {
    /// The database pool.
    pub pool: DbPool,
    /// The configuration.
    pub config: Arc<Config>,
    /// The token signing keys.
    pub token_keys: TokenKeys,
    /// Outgoing mail.
    pub mailer: Mailer,
    /// The in-process rate limits.
    pub rate_limits: Arc<RateLimits>,
}

/// Builds the schema with its shared data. Per-request data (the request's metadata and
/// its viewer) is attached to each request by `/graphql` and the REST facade.
pub fn build_schema(data: Option<SchemaData>) -> AppSchema {
    let mut builder = Schema::build(
        QueryRoot::default(),
        MutationRoot::default(),
        EmptySubscription,
    )
    .limit_depth(MAX_DEPTH)
    .limit_complexity(MAX_COMPLEXITY)
    .limit_recursive_depth(32)
    .extension(errors::ErrorCodes);
    if let Some(d) = data {
        builder = builder
            .data(d.pool)
            .data(d.config)
            .data(d.token_keys)
            .data(d.mailer)
            .data(d.rate_limits);
    }
    builder.finish()
}

/// Attaches what lives for one request: the DataLoaders (with a per-request cache, so a
/// key is loaded at most once per request and nothing stale outlives it). `/graphql` and
/// the REST facade both call this.
pub fn per_request(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    use async_graphql::dataloader::HashMapCache;
    request
        .data(DataLoader::with_cache(
            crate::catalog::loaders::CategoryTreeLoader { pool: pool.clone() },
            tokio::spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            crate::catalog::loaders::ItemFilesLoader { pool: pool.clone() },
            tokio::spawn,
            HashMapCache::default(),
        ))
}

/// The SDL that `strata schema` prints and `schema.graphql` holds.
pub fn sdl() -> String {
    build_schema(None).sdl()
}
