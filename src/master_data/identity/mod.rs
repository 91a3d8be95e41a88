//! Identity: staff users, first-run setup, login sessions, admin-approved password reset and
//! team management. GraphQL fields in [`graphql`], REST declarations in [`rest`].

pub mod graphql;
pub mod loaders;
pub mod model;
pub mod password_reset;
pub mod rest;
pub mod sessions;
pub mod setup;
pub mod team;

use async_graphql::Context;

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::platform::auth::RequestMeta;
use crate::platform::auth::rate_limit::RateLimits;
use crate::platform::auth::tokens::TokenKeys;
use crate::platform::config::Config;
use crate::platform::db::{DbConn, DbPool};
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::mail::Mailer;

pub use crate::platform::email::Email;

/// What the identity flows need from the schema's data, borrowed from one request.
pub struct Deps<'a> {
    /// The pool.
    pub pool: &'a DbPool,
    /// The configuration.
    pub config: &'a Config,
    /// The token keys.
    pub keys: &'a TokenKeys,
    /// The mailer.
    pub mailer: &'a Mailer,
    /// The rate limits.
    pub limits: &'a RateLimits,
    /// The request (absent for internal calls).
    pub meta: Option<&'a RequestMeta>,
}

impl<'a> Deps<'a> {
    /// Borrows everything from a job's context, for an internal (request-less) call.
    pub fn of_job(ctx: &'a crate::platform::jobs::JobContext) -> Deps<'a> {
        Deps {
            pool: &ctx.pool,
            config: &ctx.config,
            keys: &ctx.keys,
            mailer: &ctx.mailer,
            limits: &ctx.limits,
            meta: None,
        }
    }

    /// Borrows everything from a resolver's context.
    pub fn from_ctx(ctx: &'a Context<'_>) -> AppResult<Deps<'a>> {
        Ok(Deps {
            pool: context::pool(ctx)?,
            config: context::config(ctx)?,
            keys: context::token_keys(ctx)?,
            mailer: context::mailer(ctx)?,
            limits: context::rate_limits(ctx)?,
            meta: context::meta(ctx),
        })
    }

    /// A pooled connection.
    pub async fn conn(&self) -> AppResult<DbConn> {
        Ok(self.pool.get().await?)
    }

    /// The client address (loopback for internal calls).
    pub fn client_ip(&self) -> std::net::IpAddr {
        self.meta
            .map(|m| m.client_ip)
            .unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]))
    }

    /// Counts one request against the named limit (unless the REST facade already did); a
    /// refusal is audited and returned as the 429.
    pub async fn limit(&self, name: &'static str, action: &str) -> AppResult<()> {
        if self.meta.is_some_and(|m| m.counted_limit == Some(name)) {
            return Ok(());
        }
        let Some(limit) = self.limits.named(name) else {
            return Ok(());
        };
        if let Err(e) = limit.check(self.client_ip()) {
            self.audit(
                AuditEvent::new("rate_limited", Outcome::Denied)
                    .details(serde_json::json!({ "action": action })),
            )
            .await;
            return Err(e);
        }
        Ok(())
    }

    /// Records a security event on its own connection (never fails the request).
    pub async fn audit(&self, event: AuditEvent) {
        crate::master_data::audit::record(self.pool, self.meta, event).await;
    }
}
