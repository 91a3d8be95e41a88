//! What every handler can reach: the state the application assembles at start-up
//! (`crate::application::app` builds it from the configuration, the pool and every area).

use std::sync::Arc;

use futures_util::future::BoxFuture;

use crate::platform::auth::RequestMeta;
use crate::platform::auth::rate_limit::RateLimits;
use crate::platform::auth::tokens::TokenKeys;
use crate::platform::config::Config;
use crate::platform::db::DbPool;
use crate::platform::graphql::AppSchema;

/// Told when a route's declared rate limit refuses a request: the pool, the request, the
/// limit's name and the path. The application records it in the security audit log.
pub type RateLimitedHook =
    for<'a> fn(&'a DbPool, &'a RequestMeta, &'static str, &'a str) -> BoxFuture<'a, ()>;

/// What every handler can reach. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// The configuration, read once at start-up.
    pub config: Arc<Config>,
    /// The database pool.
    pub pool: DbPool,
    /// The GraphQL schema `/graphql` serves (full validation and limits on every request).
    pub schema: AppSchema,
    /// The same schema as the REST facade runs it: only stored operations, validated once at
    /// start-up.
    pub rest_schema: AppSchema,
    /// The schema that validates without executing (bulk exports' queries).
    pub validator: AppSchema,
    /// The token signing keys (the facade checks a route's access before reading its body).
    pub token_keys: TokenKeys,
    /// The in-process rate limits (shared with the schema's resolvers).
    pub rate_limits: Arc<RateLimits>,
    /// Answers to signed-in reads, exact to the database snapshot (REST and `/graphql`).
    pub answers: crate::platform::http::answer_cache::AnswerCache,
    /// Viewers already read, reused while the database is unchanged (REST and `/graphql`).
    pub viewers: Arc<crate::platform::auth::viewer::KnownViewers>,
    /// Records a request a rate limit refused.
    pub on_rate_limited: RateLimitedHook,
}
