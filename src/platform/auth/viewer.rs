//! Who is asking: the request's metadata and the lazily resolved [`Viewer`].
//!
//! The credential is read from the `Authorization: Bearer` header or the `access_token`
//! cookie (CONTRACT 1.5). It is only decoded, and the user only loaded, when a field asks:
//! public fields never fail because of a stale cookie.

use std::collections::HashMap;
use std::net::IpAddr;

use async_graphql::Context;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use tokio::sync::OnceCell;

use crate::platform::auth::roles::{AccountType, UserStatus};
use crate::platform::auth::tokens::{TokenKeys, TokenType};
use crate::platform::db::DbPool;
use crate::platform::db::schema::{refresh_tokens, users};
use crate::platform::error::{AppError, AppResult};

/// Facts about the HTTP request an operation runs for (attached by `/graphql` and the REST
/// facade; plain data, no HTTP types).
#[derive(Debug, Clone)]
pub struct RequestMeta {
    /// The request id (spec 1.3).
    pub request_id: String,
    /// The client address (the peer, or the forwarded client behind a trusted proxy).
    pub client_ip: IpAddr,
    /// The `User-Agent` header.
    pub user_agent: Option<String>,
    /// The bearer token of the `Authorization` header.
    pub bearer: Option<String>,
    /// Request cookies by name.
    pub cookies: HashMap<String, String>,
    /// The resolved viewer, computed at most once per request.
    pub viewer: std::sync::Arc<OnceCell<Viewer>>,
    /// The database snapshot (`pg_current_snapshot()`) the viewer was read at, for an active
    /// signed-in viewer: what [`crate::platform::http::answer_cache`] keys answers by.
    pub snapshot: std::sync::Arc<std::sync::OnceLock<String>>,
    /// A rate limit the HTTP layer already counted for this request (so the resolver does
    /// not count it twice).
    pub counted_limit: Option<&'static str>,
    /// The scheme a reverse proxy says the client used (`X-Forwarded-Proto`: `http` or
    /// `https`; anything else is ignored). Only a hint: a client can send it too.
    pub forwarded_proto: Option<String>,
}

impl RequestMeta {
    /// Metadata for a request from `client_ip` with no credentials (tests, internal calls).
    pub fn anonymous(request_id: impl Into<String>, client_ip: IpAddr) -> RequestMeta {
        RequestMeta {
            request_id: request_id.into(),
            client_ip,
            user_agent: None,
            bearer: None,
            cookies: HashMap::new(),
            viewer: Default::default(),
            snapshot: Default::default(),
            counted_limit: None,
            forwarded_proto: None,
        }
    }

    /// The access credential: the bearer header wins over the cookie (an explicit header is
    /// what API clients mean; the SPA in cookie mode sends no header).
    pub fn access_token(&self) -> Option<&str> {
        self.bearer
            .as_deref()
            .or_else(|| self.cookies.get("access_token").map(String::as_str))
            .filter(|t| !t.is_empty())
    }
}

/// The authenticated user of a request, as the guards see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrentUser {
    /// The user's id.
    pub id: i64,
    /// The user's e-mail.
    pub email: String,
    /// The role.
    pub account_type: AccountType,
    /// Whether the account may sign in.
    pub status: UserStatus,
}

impl CurrentUser {
    /// True for administrators.
    pub fn is_admin(&self) -> bool {
        self.account_type == AccountType::Admin
    }
}

/// The outcome of reading the credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Viewer {
    /// No credential was sent.
    Anonymous,
    /// A credential was sent but is invalid, expired, of the wrong kind, for an unknown user
    /// or from before the user's sessions were ended.
    Invalid,
    /// A valid credential.
    User(CurrentUser),
}

impl Viewer {
    /// The user, or the contract's 401/403 for a missing, invalid or inactive account.
    pub fn require_user(&self) -> AppResult<&CurrentUser> {
        match self {
            Viewer::Anonymous => Err(AppError::unauthenticated("Not authenticated")),
            Viewer::Invalid => Err(AppError::unauthenticated("Could not validate credentials")),
            Viewer::User(u) if u.status != UserStatus::Active => {
                Err(AppError::forbidden("User account is inactive"))
            }
            Viewer::User(u) => Ok(u),
        }
    }
}

/// Resolves (once per request) and returns the viewer of the current operation.
pub async fn viewer(ctx: &Context<'_>) -> AppResult<Viewer> {
    let Some(meta) = ctx.data_opt::<RequestMeta>() else {
        return Ok(Viewer::Anonymous);
    };
    let keys = ctx
        .data::<TokenKeys>()
        .map_err(|e| AppError::internal(e.message))?;
    let pool = ctx
        .data::<DbPool>()
        .map_err(|e| AppError::internal(e.message))?;
    meta.viewer
        .get_or_try_init(|| resolve(meta, keys, pool))
        .await
        .cloned()
}

/// Resolves (once) the viewer of a request outside GraphQL: the REST facade checks a route's
/// declared access before it reads the body, and the resolvers then reuse the same viewer.
pub async fn resolve_meta(
    meta: &RequestMeta,
    keys: &TokenKeys,
    pool: &DbPool,
) -> AppResult<Viewer> {
    meta.viewer
        .get_or_try_init(|| resolve(meta, keys, pool))
        .await
        .cloned()
}

/// Viewers already read, by access token, each with the snapshot it was read at: under load
/// a request whose token was seen lately costs a share of one snapshot read instead of the
/// viewer's statement.
///
/// Exact for the same reason as the answer cache (`http::answer_cache`): the viewer's row
/// and session can only change by a commit, and a commit changes the snapshot. A request
/// reuses a viewer only when a snapshot taken after it arrived ([`SnapshotReader`]) equals
/// the one the viewer was read at, and at most [`crate::platform::http::answer_cache::TTL`] after (a
/// session's expiry is a time, not a commit). The token itself is verified on every request.
/// When no other lookup is in flight the viewer is simply read: a lone request would not
/// share the snapshot read, and reading the viewer costs the same one statement.
///
/// [`SnapshotReader`]: crate::platform::db::snapshot::SnapshotReader
pub struct KnownViewers {
    snapshots: crate::platform::db::snapshot::SnapshotReader,
    entries: Option<quick_cache::sync::Cache<Box<str>, KnownViewer>>,
    in_flight: std::sync::atomic::AtomicUsize,
}

#[derive(Clone)]
struct KnownViewer {
    snapshot: std::sync::Arc<str>,
    viewer: Viewer,
    stored: std::time::Instant,
}

/// Counts a lookup in flight while it lives.
struct InFlight<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl KnownViewers {
    /// Room for `capacity` signed-in tokens (0: every request reads its viewer).
    pub fn new(capacity: usize) -> KnownViewers {
        KnownViewers {
            snapshots: Default::default(),
            entries: (capacity > 0).then(|| quick_cache::sync::Cache::new(capacity)),
            in_flight: Default::default(),
        }
    }

    /// Resolves (once per request) the viewer of a request, reusing a known one when the
    /// database has not changed since it was read (see the type's documentation).
    pub async fn resolve(
        &self,
        meta: &RequestMeta,
        keys: &TokenKeys,
        pool: &DbPool,
    ) -> AppResult<Viewer> {
        meta.viewer
            .get_or_try_init(|| self.lookup(meta, keys, pool))
            .await
            .cloned()
    }

    async fn lookup(
        &self,
        meta: &RequestMeta,
        keys: &TokenKeys,
        pool: &DbPool,
    ) -> AppResult<Viewer> {
        use std::sync::atomic::Ordering;
        let Some(entries) = &self.entries else {
            return resolve(meta, keys, pool).await;
        };
        let others = self.in_flight.fetch_add(1, Ordering::SeqCst);
        let _in_flight = InFlight(&self.in_flight);
        let token = meta.access_token();
        if others > 0
            && let Some(token) = token
            && keys.verify(token, TokenType::Access).is_some()
            && let Some(known) = entries.get(token)
            && known.stored.elapsed() < crate::platform::http::answer_cache::TTL
            && let Some(now) = self.snapshots.current(pool).await
            && *now == *known.snapshot
        {
            let _ = meta.snapshot.set(now.to_string());
            return Ok(known.viewer);
        }
        let viewer = resolve(meta, keys, pool).await?;
        if let (Some(token), Viewer::User(_), Some(snapshot)) =
            (token, &viewer, meta.snapshot.get())
        {
            entries.insert(
                token.into(),
                KnownViewer {
                    snapshot: snapshot.as_str().into(),
                    viewer: viewer.clone(),
                    stored: std::time::Instant::now(),
                },
            );
        }
        Ok(viewer)
    }
}

/// The authenticated, active user of the current operation (401/403 otherwise).
pub async fn current_user(ctx: &Context<'_>) -> AppResult<CurrentUser> {
    viewer(ctx).await?.require_user().cloned()
}

async fn resolve(meta: &RequestMeta, keys: &TokenKeys, pool: &DbPool) -> AppResult<Viewer> {
    let Some(token) = meta.access_token() else {
        return Ok(Viewer::Anonymous);
    };
    let Some(claims) = keys.verify(token, TokenType::Access) else {
        return Ok(Viewer::Invalid);
    };
    let Ok(user_id) = claims.sub.parse::<i64>() else {
        return Ok(Viewer::Invalid);
    };
    let Some(session_id) = claims.sid else {
        return Ok(Viewer::Invalid);
    };
    let mut conn = pool.get().await?;
    // One statement: the user, whether the token's session is still live (a logout or a
    // password reset revokes every refresh token of the family; an access token outlives its
    // session by no more than this query), and the snapshot it read (the answer cache's key).
    let live_session = diesel::dsl::exists(
        refresh_tokens::table
            .filter(refresh_tokens::family_id.eq(session_id))
            .filter(refresh_tokens::user_id.eq(users::id))
            .filter(refresh_tokens::revoked.eq(false))
            .filter(refresh_tokens::expires_at.gt(diesel::dsl::now)),
    );
    let snapshot = crate::platform::db::snapshot::strata_current_snapshot();
    let row: Option<(i64, String, AccountType, UserStatus, i32, bool, String)> = users::table
        .find(user_id)
        .select((
            users::id,
            users::email,
            users::account_type,
            users::status,
            users::session_version,
            live_session,
            snapshot,
        ))
        .first(&mut conn)
        .await
        .optional()?;
    Ok(match row {
        // An inactive account keeps its own answer (403 "User account is inactive") even
        // though deactivation also ended its sessions.
        Some((id, email, account_type, status, version, live, snapshot))
            if version == claims.sv && (live || status != UserStatus::Active) =>
        {
            if status == UserStatus::Active {
                // Set once: the cell is fresh with the viewer's.
                let _ = meta.snapshot.set(snapshot);
            }
            Viewer::User(CurrentUser {
                id,
                email,
                account_type,
                status,
            })
        }
        _ => Viewer::Invalid,
    })
}
