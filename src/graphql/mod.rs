//! The one GraphQL schema: the Query and Mutation roots merged from every business area
//! (registered in [`crate::areas`]), with depth and complexity limits on from day one.
//!
//! Two instances of the same schema run in a process. `/graphql` executes what clients send,
//! with full validation and the limits. The REST facade executes only its stored operations,
//! which are parsed and validated once at start-up ([`validate_stored`]); its instance skips
//! the per-request validation rules and the limits. Both see the same types, resolvers,
//! guards and data, so a rule enforced here holds for both APIs.
//!
//! No async-graphql extension is registered: any extension makes async-graphql resolve every
//! field through its slow path (a registry lookup and a hook chain per field). Errors get
//! their `extensions.code` after execution instead ([`execute`]).

pub mod context;
pub mod cost;
pub mod errors;
pub mod flat;
pub mod flow;
pub mod limits;
pub mod live;
pub mod pagination;
pub mod scalars;
pub mod text;
pub mod user_error;

use std::sync::Arc;

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextExecute};
use async_graphql::{Schema, ValidationMode};

use crate::auth::rate_limit::RateLimits;
use crate::auth::tokens::TokenKeys;
use crate::config::Config;
use crate::db::DbPool;
use crate::mail::Mailer;

pub use crate::areas::{MutationRoot, QueryRoot, SubscriptionRoot};

/// Deepest selection nesting a query may have.
pub const MAX_DEPTH: usize = 16;
/// Largest total complexity (roughly, fields times list multipliers) a query may have.
pub const MAX_COMPLEXITY: usize = 2_000;

/// The schema type shared by `/graphql` and the REST facade.
pub type AppSchema = Schema<QueryRoot, MutationRoot, SubscriptionRoot>;

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
    /// The fan-out of live updates to subscribers.
    pub live: live::LiveHub,
}

type Builder = async_graphql::SchemaBuilder<QueryRoot, MutationRoot, SubscriptionRoot>;

fn builder(data: Option<SchemaData>) -> Builder {
    let mut builder = Schema::build(
        QueryRoot::default(),
        MutationRoot::default(),
        SubscriptionRoot::default(),
    );
    if let Some(d) = data {
        builder = builder
            .data(d.pool)
            .data(d.config)
            .data(d.token_keys)
            .data(d.mailer)
            .data(d.rate_limits)
            .data(d.live);
    }
    builder
}

/// The schema `/graphql` serves: every request is parsed, validated and costed.
pub fn build_schema(data: Option<SchemaData>) -> AppSchema {
    builder(data)
        .limit_depth(MAX_DEPTH)
        .limit_complexity(MAX_COMPLEXITY)
        .limit_recursive_depth(32)
        .finish()
}

/// The schema the REST facade runs its stored operations on. They were validated against
/// [`build_schema`]'s rules at start-up, so each request only runs the cheap checks
/// (`ValidationMode::Fast`) and no limits: the resolvers still bound every page size.
pub fn build_trusted_schema(data: Option<SchemaData>) -> AppSchema {
    builder(data).validation_mode(ValidationMode::Fast).finish()
}

/// Runs a request and gives every error its `extensions.code` (see [`errors::classify`]).
pub async fn execute(
    schema: &AppSchema,
    request: async_graphql::Request,
) -> async_graphql::Response {
    // Outside tokio's cooperative budget: with it, a page of fifty objects whose resolvers
    // each await a loader exhausts the budget half way through one poll, the request task is
    // made to yield, and the DataLoader batch starts with only the keys registered so far
    // (a nested BOM report then cost ten times the statements). The task still yields
    // whenever it waits for the database.
    let mut response = tokio::task::unconstrained(schema.execute(request)).await;
    for error in &mut response.errors {
        errors::classify(error);
    }
    response
}

/// Attaches what lives for one request: every area's DataLoaders (each with a per-request
/// cache, so a key is loaded at most once per request and nothing stale outlives it).
/// `/graphql` and the REST facade both call this.
pub fn per_request(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    crate::areas::loaders(request, pool)
}

/// Validates a stored operation against the full rules and limits of `/graphql`, without
/// running any resolver: the errors, if any (an empty list means it is valid).
pub async fn validate_stored(schema: &AppSchema, document: &str) -> Vec<String> {
    let response = schema.execute(async_graphql::Request::new(document)).await;
    response
        .errors
        .into_iter()
        .filter(|e| e.message != DRY_RUN)
        .map(|e| e.message)
        .collect()
}

/// The validation errors of a request run on [`build_validation_schema`] (empty: valid).
pub async fn validation_errors(schema: &AppSchema, request: async_graphql::Request) -> Vec<String> {
    schema
        .execute(request)
        .await
        .errors
        .into_iter()
        .filter(|e| e.message != DRY_RUN)
        .map(|e| e.message)
        .collect()
}

/// A schema that parses and validates (all rules, all limits) but never executes: the check
/// every stored operation passes at start-up.
pub fn build_validation_schema() -> AppSchema {
    builder(None)
        .limit_depth(MAX_DEPTH)
        .limit_complexity(MAX_COMPLEXITY)
        .limit_recursive_depth(32)
        .extension(DryRun)
        .finish()
}

const DRY_RUN: &str = "validated; not executed";

/// Stops a request after validation.
struct DryRun;

impl ExtensionFactory for DryRun {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(DryRun)
    }
}

#[async_trait::async_trait]
impl Extension for DryRun {
    async fn execute(
        &self,
        _ctx: &ExtensionContext<'_>,
        _operation_name: Option<&str>,
        _next: NextExecute<'_>,
    ) -> async_graphql::Response {
        async_graphql::Response::from_errors(vec![async_graphql::ServerError::new(DRY_RUN, None)])
    }
}

/// The SDL that `strata schema` prints and `schema.graphql` holds.
pub fn sdl() -> String {
    build_schema(None).sdl()
}
