//! PostgreSQL access: the connection pool, the diesel schema and the embedded migrations.
//!
//! Everything speaks the wire protocol through diesel-async and tokio-postgres, so the
//! server needs no libpq at run time.

pub mod errors;
pub mod forms;
pub mod fragment;
pub mod migrations;
pub mod paging;
pub mod scale;
pub mod schema;
pub mod snapshot;
pub mod text;
pub mod types;

use std::time::Duration;

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::AsyncDieselConnectionManager;
use diesel_async::pooled_connection::deadpool::{self, Object};

use crate::platform::config::DatabaseConfig;

/// The pool of async PostgreSQL connections shared by every request.
pub type DbPool = deadpool::Pool<AsyncPgConnection>;
/// A connection checked out of the pool.
pub type DbConn = Object<AsyncPgConnection>;
/// Why a connection could not be had.
pub type PoolError = deadpool::PoolError;

/// How long a request waits for a free connection or for a new one to be opened. Bounded so
/// that a dead database turns into a fast 503, never a hung request.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Longest a single SQL statement may run before PostgreSQL cancels it (set per connection,
/// at connect time, through the startup `options`: no extra round trip). Shorter than the
/// default `REQUEST_TIMEOUT_SECONDS` (30), so a runaway query is cancelled in the database
/// and answered as a 503 instead of running on after its request timed out.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(25);

/// `url` with the connection options every pooled connection runs with
/// ([`STATEMENT_TIMEOUT`]).
pub fn session_url(url: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    format!(
        "{url}{separator}options=-c%20statement_timeout%3D{}",
        STATEMENT_TIMEOUT.as_millis()
    )
}

/// Builds the pool. No connection is opened until the first checkout.
pub fn build_pool(config: &DatabaseConfig) -> anyhow::Result<DbPool> {
    build_pool_with(
        config,
        AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(
            session_url(config.url.expose()),
            manager_config(),
        ),
    )
}

/// Connections are recycled without a test query: a `SELECT 1` on every checkout was a third
/// of a typical request's statements. A connection that died meanwhile fails its first
/// statement instead, which is answered as a 503 (and diesel-async marks it broken, so the
/// pool drops it).
fn manager_config() -> diesel_async::pooled_connection::ManagerConfig<AsyncPgConnection> {
    let mut config = diesel_async::pooled_connection::ManagerConfig::default();
    config.recycling_method = diesel_async::pooled_connection::RecyclingMethod::Fast;
    config
}

/// Like [`build_pool`], counting the SQL statements its connections run in `counter`
/// (how tests prove a request's statement count does not grow with its page size).
pub fn build_pool_counting(
    config: &DatabaseConfig,
    counter: std::sync::Arc<std::sync::atomic::AtomicU64>,
) -> anyhow::Result<DbPool> {
    use diesel::connection::{Instrumentation, InstrumentationEvent};
    use diesel_async::AsyncConnection;
    use futures_util::FutureExt;

    struct Counting(std::sync::Arc<std::sync::atomic::AtomicU64>);
    impl Instrumentation for Counting {
        fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
            // Connection set-up is not the request's statements (pool checks would be, and
            // there are none: see `manager_config`).
            if let InstrumentationEvent::StartQuery { query, .. } = event {
                let sql = query.to_string();
                if !sql.starts_with("SET ") && !sql.starts_with("SELECT $1 -- ") {
                    tracing::debug!(target: "strata::sql", %sql, "statement");
                    self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            }
        }
    }
    let mut manager_config = manager_config();
    manager_config.custom_setup = Box::new(move |url| {
        let counter = counter.clone();
        async move {
            let mut conn = AsyncPgConnection::establish(url).await?;
            conn.set_instrumentation(Counting(counter));
            Ok(conn)
        }
        .boxed()
    });
    build_pool_with(
        config,
        AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(
            session_url(config.url.expose()),
            manager_config,
        ),
    )
}

fn build_pool_with(
    config: &DatabaseConfig,
    manager: AsyncDieselConnectionManager<AsyncPgConnection>,
) -> anyhow::Result<DbPool> {
    let pool = deadpool::Pool::builder(manager)
        .max_size(config.max_connections())
        .wait_timeout(Some(CONNECT_TIMEOUT))
        .create_timeout(Some(CONNECT_TIMEOUT))
        .recycle_timeout(Some(CONNECT_TIMEOUT))
        .runtime(::deadpool::Runtime::Tokio1)
        .build()?;
    Ok(pool)
}

/// True for diesel's refusal to build an UPDATE with nothing to set (an empty PATCH):
/// callers answer with the row as it is instead.
pub fn is_empty_update(e: &diesel::result::Error) -> bool {
    matches!(e, diesel::result::Error::QueryBuilderError(b) if b.to_string().contains("no changes"))
}

/// `%text%` for ILIKE, with `%`, `_` and `\` escaped so they match themselves (the one
/// search-pattern helper of every list).
pub fn like_pattern(text: &str) -> String {
    format!(
        "%{}%",
        text.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    )
}

/// `n` next values of a sequence in one round trip (numbering for multi-row inserts:
/// imports). Gap-tolerant like every `nextval`: a rolled-back import leaves a gap.
pub async fn next_values(
    conn: &mut AsyncPgConnection,
    sequence: &str,
    n: usize,
) -> diesel::QueryResult<Vec<i64>> {
    use diesel::sql_types::{BigInt, Text};
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Next {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let rows: Vec<Next> =
        diesel::sql_query("SELECT nextval($1::regclass) AS n FROM generate_series(1, $2::bigint)")
            .bind::<Text, _>(sequence)
            .bind::<BigInt, _>(i64::try_from(n).unwrap_or(i64::MAX))
            .load(conn)
            .await?;
    Ok(rows.into_iter().map(|r| r.n).collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn like_patterns_match_wildcards_literally() {
        assert_eq!(super::like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
