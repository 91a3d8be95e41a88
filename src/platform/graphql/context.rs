//! Typed access to the data every resolver may need (pool, config, request metadata...).

use std::sync::Arc;

use async_graphql::Context;

use crate::platform::auth::RequestMeta;
use crate::platform::auth::rate_limit::RateLimits;
use crate::platform::auth::tokens::TokenKeys;
use crate::platform::config::Config;
use crate::platform::db::{DbConn, DbPool};
use crate::platform::error::{AppError, AppResult};
use crate::platform::mail::Mailer;

/// Data the schema or the request carries (a loader, a hook), or an internal error naming
/// the missing type.
pub fn data<'a, T: Send + Sync + 'static>(ctx: &'a Context<'_>) -> AppResult<&'a T> {
    ctx.data::<T>().map_err(|_| {
        AppError::internal(format!(
            "schema data missing: {}",
            std::any::type_name::<T>()
        ))
    })
}

/// The database pool.
pub fn pool<'a>(ctx: &'a Context<'_>) -> AppResult<&'a DbPool> {
    data::<DbPool>(ctx)
}

/// A pooled connection (503 when the database is unreachable).
pub async fn conn(ctx: &Context<'_>) -> AppResult<DbConn> {
    Ok(pool(ctx)?.get().await?)
}

/// The configuration.
pub fn config<'a>(ctx: &'a Context<'_>) -> AppResult<&'a Arc<Config>> {
    data::<Arc<Config>>(ctx)
}

/// The request's metadata (address, user agent, cookies); absent for internal calls.
pub fn meta<'a>(ctx: &'a Context<'_>) -> Option<&'a RequestMeta> {
    ctx.data_opt::<RequestMeta>()
}

/// The token signing keys.
pub fn token_keys<'a>(ctx: &'a Context<'_>) -> AppResult<&'a TokenKeys> {
    data::<TokenKeys>(ctx)
}

/// The mailer.
pub fn mailer<'a>(ctx: &'a Context<'_>) -> AppResult<&'a Mailer> {
    data::<Mailer>(ctx)
}

/// The rate limits.
pub fn rate_limits<'a>(ctx: &'a Context<'_>) -> AppResult<&'a Arc<RateLimits>> {
    data::<Arc<RateLimits>>(ctx)
}

/// The client address, for rate limits (loopback for internal calls).
pub fn client_ip(ctx: &Context<'_>) -> std::net::IpAddr {
    meta(ctx)
        .map(|m| m.client_ip)
        .unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]))
}

/// Times a batch task steps aside before its window opens (see [`spawn_in_current_span`]).
const BATCH_YIELDS: usize = 64;

/// The spawner every DataLoader is built with: the batch runs on its own task, inside the
/// span of the request that asked for it, so its log lines (and the errors it maps) carry
/// that request's id.
///
/// The task first steps aside a few times. A list resolves its items through
/// `FuturesUnordered`, which yields after every 32 items it polls; without stepping aside,
/// a batch whose 1 ms window had already passed (a slow poll, a debug build) ran with the
/// keys of the first 32 items only, the rest formed batches of their own, and the pieces
/// drifted further apart at every nested level (a three-level BOM report of 50 products cost
/// eight times the statements of one). Each step lets the request task register the keys of
/// its next 32 items first; a step costs well under a microsecond when nothing else waits.
pub fn spawn_in_current_span(
    batch: futures_util::future::BoxFuture<'static, ()>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(tracing::Instrument::in_current_span(async move {
        for _ in 0..BATCH_YIELDS {
            tokio::task::yield_now().await;
        }
        batch.await
    }))
}

/// Declares a DataLoader of the rows that belong to each of many parents (the lines of
/// orders, the operations of production orders): `$load(conn, parent_ids)` reads every
/// parent's rows in one statement and `row.$key` names the parent. A parent without rows
/// gets an empty list, so a resolver never mistakes "none" for "not loaded".
///
/// ```text
/// grouped_loader!(
///     /// The lines of sales orders, by line number.
///     LinesLoader, SalesOrderLineRow, model::lines_of, sales_order_id
/// );
/// ```
#[macro_export]
macro_rules! grouped_loader {
    ($(#[$doc:meta])* $name:ident, $row:ty, $load:path, $key:ident) => {
        $(#[$doc])*
        pub struct $name {
            /// The pool.
            pub pool: $crate::platform::db::DbPool,
        }

        impl ::async_graphql::dataloader::Loader<i64> for $name {
            type Value = Vec<$row>;
            type Error = $crate::platform::error::AppError;
            async fn load(
                &self,
                keys: &[i64],
            ) -> Result<::std::collections::HashMap<i64, Vec<$row>>, $crate::platform::error::AppError> {
                let mut conn = self.pool.get().await?;
                let mut out: ::std::collections::HashMap<i64, Vec<$row>> =
                    keys.iter().map(|k| (*k, Vec::new())).collect();
                for row in $load(&mut conn, keys).await? {
                    out.entry(row.$key).or_default().push(row);
                }
                Ok(out)
            }
        }
    };
}
