//! PostgreSQL access: the connection pool, the diesel schema and the embedded migrations.
//!
//! Everything speaks the wire protocol through diesel-async and tokio-postgres, so the
//! server needs no libpq at run time.

pub mod migrations;
pub mod schema;

use std::time::Duration;

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::AsyncDieselConnectionManager;
use diesel_async::pooled_connection::deadpool::{self, Object};

use crate::config::DatabaseConfig;

/// The pool of async PostgreSQL connections shared by every request.
pub type DbPool = deadpool::Pool<AsyncPgConnection>;
/// A connection checked out of the pool.
pub type DbConn = Object<AsyncPgConnection>;
/// Why a connection could not be had.
pub type PoolError = deadpool::PoolError;

/// How long a request waits for a free connection or for a new one to be opened. Bounded so
/// that a dead database turns into a fast 503, never a hung request.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Builds the pool. No connection is opened until the first checkout.
pub fn build_pool(config: &DatabaseConfig) -> anyhow::Result<DbPool> {
    let manager =
        AsyncDieselConnectionManager::<AsyncPgConnection>::new(config.url.expose().to_string());
    let pool = deadpool::Pool::builder(manager)
        .max_size(config.max_connections())
        .wait_timeout(Some(CONNECT_TIMEOUT))
        .create_timeout(Some(CONNECT_TIMEOUT))
        .recycle_timeout(Some(CONNECT_TIMEOUT))
        .runtime(::deadpool::Runtime::Tokio1)
        .build()?;
    Ok(pool)
}
