//! The GraphQL engine: the one schema as the platform runs it ([`AppSchema`]), assembled by
//! the application from every business area's roots (`crate::application::areas`), with
//! depth and complexity limits on from day one.
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
pub mod upload;
pub mod user_error;

use std::sync::Arc;

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextExecute};
use async_graphql::{ObjectType, Schema, SubscriptionType, ValidationMode};
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;

use crate::platform::auth::rate_limit::RateLimits;
use crate::platform::auth::tokens::TokenKeys;
use crate::platform::config::Config;
use crate::platform::db::DbPool;
use crate::platform::mail::Mailer;

/// Deepest selection nesting a query may have.
pub const MAX_DEPTH: usize = 16;
/// Largest total complexity (roughly, fields times list multipliers) a query may have.
pub const MAX_COMPLEXITY: usize = 2_000;

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
    /// The schema that validates without executing ([`Mode::Validation`]), for resolvers
    /// that check a document a user hands in (bulk exports).
    pub validator: Option<AppSchema>,
}

/// The schema that validates without executing, as resolvers find it in their context.
#[derive(Clone)]
pub struct Validator(pub AppSchema);

/// Attaches the request's DataLoaders: every area's, as the application registers them.
pub type Loaders = fn(async_graphql::Request, &DbPool) -> async_graphql::Request;

/// How an assembled schema checks what it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `/graphql`: every request is parsed, validated and costed.
    Served,
    /// The REST facade's stored operations: validated against [`Mode::Served`]'s rules at
    /// start-up, so each request only runs the cheap checks (`ValidationMode::Fast`) and
    /// no limits (the resolvers still bound every page size).
    Trusted,
    /// Parses and validates (all rules, all limits) but never executes: the check every
    /// stored operation passes at start-up, and a bulk export's query.
    Validation,
}

/// The one schema as the platform sees it. The application assembles it from every area's
/// roots ([`assemble`]); the platform runs it without knowing them, so no platform module
/// names a business area. Cheap to clone.
#[derive(Clone)]
pub struct AppSchema {
    schema: Arc<dyn ErasedSchema>,
    loaders: Loaders,
}

/// What the platform asks of a schema, whatever its roots.
trait ErasedSchema: Send + Sync {
    fn execute(
        &self,
        request: async_graphql::Request,
    ) -> BoxFuture<'static, async_graphql::Response>;
    fn execute_stream(
        &self,
        request: async_graphql::Request,
        session: Option<Arc<async_graphql::Data>>,
    ) -> BoxStream<'static, async_graphql::Response>;
    fn sdl(&self) -> String;
}

impl<Q, M, S> ErasedSchema for Schema<Q, M, S>
where
    Q: ObjectType + 'static,
    M: ObjectType + 'static,
    S: SubscriptionType + 'static,
{
    fn execute(
        &self,
        request: async_graphql::Request,
    ) -> BoxFuture<'static, async_graphql::Response> {
        let schema = self.clone();
        Box::pin(async move { schema.execute(request).await })
    }

    fn execute_stream(
        &self,
        request: async_graphql::Request,
        session: Option<Arc<async_graphql::Data>>,
    ) -> BoxStream<'static, async_graphql::Response> {
        async_graphql::Executor::execute_stream(self, request, session)
    }

    fn sdl(&self) -> String {
        Schema::sdl(self)
    }
}

impl AppSchema {
    /// Runs a request (without the error codes: see [`execute`]).
    pub async fn execute(&self, request: async_graphql::Request) -> async_graphql::Response {
        self.schema.execute(request).await
    }

    /// The schema in SDL, as `strata schema` prints it and `schema.graphql` holds it.
    pub fn sdl(&self) -> String {
        self.schema.sdl()
    }

    /// Attaches what lives for one request: every area's DataLoaders (each with a
    /// per-request cache, so a key is loaded at most once per request and nothing stale
    /// outlives it). `/graphql`, the REST facade and the export job all call this.
    pub fn per_request(
        &self,
        request: async_graphql::Request,
        pool: &DbPool,
    ) -> async_graphql::Request {
        (self.loaders)(request, pool)
    }
}

/// The subscriptions socket (`async_graphql_axum::GraphQLWebSocket`) runs on it.
impl async_graphql::Executor for AppSchema {
    async fn execute(&self, request: async_graphql::Request) -> async_graphql::Response {
        self.schema.execute(request).await
    }

    fn execute_stream(
        &self,
        request: async_graphql::Request,
        session_data: Option<Arc<async_graphql::Data>>,
    ) -> BoxStream<'static, async_graphql::Response> {
        self.schema.execute_stream(request, session_data)
    }
}

/// What the application adds to the schema's data besides [`SchemaData`]: the hooks one
/// area calls in another (process-wide constants, so once per schema, not per request).
pub type Extend<Q, M, S> =
    fn(async_graphql::SchemaBuilder<Q, M, S>) -> async_graphql::SchemaBuilder<Q, M, S>;

/// Builds the schema of these roots (the application's merged Query, Mutation and
/// Subscription) for one [`Mode`], with the process's data when given.
pub fn assemble<Q, M, S>(
    mode: Mode,
    data: Option<SchemaData>,
    loaders: Loaders,
    extend: Extend<Q, M, S>,
) -> AppSchema
where
    Q: ObjectType + Default + 'static,
    M: ObjectType + Default + 'static,
    S: SubscriptionType + Default + 'static,
{
    let mut builder = Schema::build(Q::default(), M::default(), S::default());
    if let Some(d) = data {
        builder = builder
            .data(d.pool)
            .data(d.config)
            .data(d.token_keys)
            .data(d.mailer)
            .data(d.rate_limits)
            .data(d.live);
        if let Some(validator) = d.validator {
            builder = builder.data(Validator(validator));
        }
    }
    let builder = extend(builder);
    let schema = match mode {
        Mode::Served => builder
            .limit_depth(MAX_DEPTH)
            .limit_complexity(MAX_COMPLEXITY)
            .limit_recursive_depth(32)
            .finish(),
        Mode::Trusted => builder.validation_mode(ValidationMode::Fast).finish(),
        Mode::Validation => builder
            .limit_depth(MAX_DEPTH)
            .limit_complexity(MAX_COMPLEXITY)
            .limit_recursive_depth(32)
            .extension(DryRun)
            .finish(),
    };
    AppSchema {
        schema: Arc::new(schema),
        loaders,
    }
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

/// The validation errors of a request run on a [`Mode::Validation`] schema (empty: valid).
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
