//! Sessions: a login issues an access JWT and a refresh JWT; the refresh token is stored
//! hashed and rotated on every use. All tokens of one login share a family, which is the
//! session: its id travels in every token (`sid`), and the viewer accepts an access token
//! only while its family has a live refresh token, so logout (or a password reset) ends
//! the access tokens at once. A rotated token presented again within [`ROTATION_GRACE`]
//! (two tabs refreshing together) gets the same successor; after that it means the token
//! leaked, so the whole family is revoked and the event is audited.

use async_graphql::Context;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::identity::model::{self, UserRow};
use crate::platform::auth::RequestMeta;
use crate::platform::auth::tokens::{Claims, REFRESH_TOKEN_TTL, TokenKeys, TokenType, sha256_hex};
use crate::platform::config::{AuthMode, Config};
use crate::platform::db::schema::refresh_tokens;
use crate::platform::error::{AppError, AppResult};

/// The message of every refresh failure (CONTRACT 1.3).
pub const INVALID_REFRESH: &str = "Invalid refresh token";

/// A freshly issued token pair.
#[derive(Debug, Clone)]
pub struct TokenPair {
    /// The access JWT.
    pub access_token: String,
    /// The refresh JWT.
    pub refresh_token: String,
}

/// How long a rotated refresh token is still accepted: two tabs (or a retry after a lost
/// response) refreshing with one token within this window both get the same successor. Only
/// a use after it counts as reuse and revokes the family.
pub const ROTATION_GRACE: chrono::Duration = chrono::Duration::seconds(10);

#[derive(Insertable)]
#[diesel(table_name = refresh_tokens)]
struct NewRefreshToken<'a> {
    user_id: i64,
    token_hash: &'a str,
    family_id: uuid::Uuid,
    expires_at: DateTime<Utc>,
    user_agent: Option<&'a str>,
    ip_address: Option<String>,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = refresh_tokens)]
struct RefreshRow {
    id: i64,
    user_id: i64,
    family_id: uuid::Uuid,
    expires_at: DateTime<Utc>,
    revoked: bool,
    revoked_at: Option<DateTime<Utc>>,
    replaced_by_id: Option<i64>,
}

fn access_ttl(config: &Config) -> chrono::Duration {
    chrono::Duration::from_std(config.access_token_ttl)
        .unwrap_or_else(|_| chrono::Duration::minutes(30))
}

/// Stores the hash of a refresh token of `family_id`; returns its row id.
async fn store_refresh(
    conn: &mut AsyncPgConnection,
    user_id: i64,
    raw: &str,
    family_id: uuid::Uuid,
    expires_at: DateTime<Utc>,
    meta: Option<&RequestMeta>,
) -> AppResult<i64> {
    let hash = sha256_hex(raw);
    Ok(diesel::insert_into(refresh_tokens::table)
        .values(&NewRefreshToken {
            user_id,
            token_hash: &hash,
            family_id,
            expires_at,
            user_agent: meta
                .and_then(|m| m.user_agent.as_deref())
                .map(|ua| &ua[..ua.floor_char_boundary(512)]),
            ip_address: meta.map(|m| m.client_ip.to_string()),
        })
        .returning(refresh_tokens::id)
        .get_result(conn)
        .await?)
}

/// Starts a new session (a new family) for `user`: records the login and drops the user's
/// expired tokens. Returns the pair and the session id.
pub async fn start(
    conn: &mut AsyncPgConnection,
    keys: &TokenKeys,
    config: &Config,
    user: &UserRow,
    meta: Option<&RequestMeta>,
) -> AppResult<(TokenPair, uuid::Uuid)> {
    diesel::delete(
        refresh_tokens::table
            .filter(refresh_tokens::user_id.eq(user.id))
            .filter(refresh_tokens::expires_at.lt(diesel::dsl::now)),
    )
    .execute(conn)
    .await?;
    model::touch_last_login(conn, user.id).await?;
    let session_id = uuid::Uuid::new_v4();
    let access_token = keys.issue(
        user.id,
        user.session_version,
        session_id,
        TokenType::Access,
        access_ttl(config),
    )?;
    let refresh_token = keys.issue(
        user.id,
        user.session_version,
        session_id,
        TokenType::Refresh,
        REFRESH_TOKEN_TTL,
    )?;
    store_refresh(
        conn,
        user.id,
        &refresh_token,
        session_id,
        Utc::now() + REFRESH_TOKEN_TTL,
        meta,
    )
    .await?;
    Ok((
        TokenPair {
            access_token,
            refresh_token,
        },
        session_id,
    ))
}

/// Why a refresh was refused (all answer 401 `Invalid refresh token`).
enum Refused {
    Invalid,
    Reused { user_id: i64, family_id: uuid::Uuid },
}

/// Rotates a refresh token: the presented token dies and a new pair of the same family is
/// issued. The successor is derived from the presented token and the rotation instant, so
/// presenting the same token again within [`ROTATION_GRACE`] returns the same successor
/// (while it is still live). A rotated token presented after that revokes its family.
pub async fn rotate(
    conn: &mut AsyncPgConnection,
    keys: &TokenKeys,
    config: &Config,
    raw: &str,
    meta: Option<&RequestMeta>,
) -> AppResult<(UserRow, TokenPair)> {
    let claims = keys
        .verify(raw, TokenType::Refresh)
        .ok_or_else(|| AppError::unauthenticated(INVALID_REFRESH))?;
    let hash = sha256_hex(raw);
    let rotation = Rotation {
        keys,
        config,
        raw,
        meta,
    };
    let outcome = conn
        .transaction::<_, AppError, _>(async move |conn| {
            rotation.in_transaction(conn, &hash, &claims).await
        })
        .await?;
    match outcome {
        Ok(done) => Ok(done),
        Err(Refused::Invalid) => Err(AppError::unauthenticated(INVALID_REFRESH)),
        Err(Refused::Reused { user_id, family_id }) => {
            audit_reuse(conn, meta, user_id, family_id).await?;
            Err(AppError::unauthenticated(INVALID_REFRESH))
        }
    }
}

/// What one rotation works with: the keys, the configuration, the presented refresh token
/// and the request it came with.
#[derive(Clone, Copy)]
struct Rotation<'a> {
    keys: &'a TokenKeys,
    config: &'a Config,
    raw: &'a str,
    meta: Option<&'a RequestMeta>,
}

impl Rotation<'_> {
    /// The rotation's transaction: locks the presented token's row, then refuses it,
    /// answers the successor of a token rotated just now, or rotates it.
    async fn in_transaction(
        self,
        conn: &mut AsyncPgConnection,
        hash: &str,
        claims: &Claims,
    ) -> AppResult<Result<(UserRow, TokenPair), Refused>> {
        // Locks the row: a concurrent rotation of the same token waits here and then
        // sees it rotated (the grace path).
        let row: Option<RefreshRow> = refresh_tokens::table
            .filter(refresh_tokens::token_hash.eq(hash))
            .select(RefreshRow::as_select())
            .for_update()
            .first(conn)
            .await
            .optional()?;
        let Some(row) = row else {
            return Ok(Err(Refused::Invalid));
        };
        if row.user_id.to_string() != claims.sub {
            return Ok(Err(Refused::Invalid));
        }
        let now = Utc::now();
        if row.revoked {
            return self.presented_again(conn, &row, now).await;
        }
        if row.expires_at <= now {
            return Ok(Err(Refused::Invalid));
        }
        let Some(user) = model::find(conn, row.user_id).await? else {
            return Ok(Err(Refused::Invalid));
        };
        if !user.is_active() || user.session_version != claims.sv {
            return Ok(Err(Refused::Invalid));
        }
        Ok(Ok(self.issue_successor(conn, &row, user, now).await?))
    }

    /// A token already rotated: within [`ROTATION_GRACE`] the same successor (while it is
    /// live); otherwise a rotated token is reuse and its family is revoked, and a revoked
    /// one is invalid.
    async fn presented_again(
        self,
        conn: &mut AsyncPgConnection,
        row: &RefreshRow,
        now: DateTime<Utc>,
    ) -> AppResult<Result<(UserRow, TokenPair), Refused>> {
        if let (Some(successor_id), Some(rotated_at)) = (row.replaced_by_id, row.revoked_at)
            && now < rotated_at + ROTATION_GRACE
            && let Some(pair) = successor_within_grace(
                conn,
                self.keys,
                self.config,
                self.raw,
                row,
                successor_id,
                rotated_at,
            )
            .await?
        {
            return Ok(Ok(pair));
        }
        if row.replaced_by_id.is_some() {
            revoke_family(conn, row.family_id).await?;
            return Ok(Err(Refused::Reused {
                user_id: row.user_id,
                family_id: row.family_id,
            }));
        }
        Ok(Err(Refused::Invalid))
    }

    /// Stores the successor of the presented token, marks the presented one rotated into
    /// it, and answers the new pair.
    async fn issue_successor(
        self,
        conn: &mut AsyncPgConnection,
        row: &RefreshRow,
        user: UserRow,
        now: DateTime<Utc>,
    ) -> AppResult<(UserRow, TokenPair)> {
        // Whole seconds: the JWT's `iat` and the stored `revoked_at` must agree exactly so
        // that the grace path derives the very same successor.
        let rotated_at = DateTime::<Utc>::from_timestamp(now.timestamp(), 0).unwrap_or(now);
        let refresh_token = self.keys.successor_refresh(
            self.raw,
            user.id,
            user.session_version,
            row.family_id,
            rotated_at.timestamp(),
        )?;
        let new_id = store_refresh(
            conn,
            user.id,
            &refresh_token,
            row.family_id,
            rotated_at + REFRESH_TOKEN_TTL,
            self.meta,
        )
        .await?;
        diesel::update(refresh_tokens::table.find(row.id))
            .set((
                refresh_tokens::revoked.eq(true),
                refresh_tokens::revoked_at.eq(Some(rotated_at)),
                refresh_tokens::replaced_by_id.eq(Some(new_id)),
            ))
            .execute(conn)
            .await?;
        let access_token = self.keys.issue(
            user.id,
            user.session_version,
            row.family_id,
            TokenType::Access,
            access_ttl(self.config),
        )?;
        Ok((
            user,
            TokenPair {
                access_token,
                refresh_token,
            },
        ))
    }
}

/// Audits a rotated refresh token presented again (its family is revoked by now) and
/// warns in the log.
async fn audit_reuse(
    conn: &mut AsyncPgConnection,
    meta: Option<&RequestMeta>,
    user_id: i64,
    family_id: uuid::Uuid,
) -> AppResult<()> {
    let email = model::find(conn, user_id)
        .await?
        .map(|u| u.email)
        .unwrap_or_default();
    crate::master_data::audit::record_in(
        conn,
        meta,
        &AuditEvent::new("refresh_token_reuse", Outcome::Denied)
            .user(user_id, email)
            .details(
                serde_json::json!({ "family_id": family_id, "action": "session family revoked" }),
            ),
    )
    .await?;
    tracing::warn!(user_id, %family_id, "a rotated refresh token was presented again; its session family is revoked");
    Ok(())
}

/// The pair for a token presented again within the grace window: the same successor
/// refresh token (re-derived, and only while that row is still live) and a fresh access
/// token. `None` when the successor is gone (rotated on, or revoked): then it is reuse.
async fn successor_within_grace(
    conn: &mut AsyncPgConnection,
    keys: &TokenKeys,
    config: &Config,
    raw: &str,
    row: &RefreshRow,
    successor_id: i64,
    rotated_at: DateTime<Utc>,
) -> AppResult<Option<(UserRow, TokenPair)>> {
    let Some(user) = model::find(conn, row.user_id).await? else {
        return Ok(None);
    };
    if !user.is_active() {
        return Ok(None);
    }
    let refresh_token = keys.successor_refresh(
        raw,
        user.id,
        user.session_version,
        row.family_id,
        rotated_at.timestamp(),
    )?;
    let live: bool = diesel::select(diesel::dsl::exists(
        refresh_tokens::table
            .find(successor_id)
            .filter(refresh_tokens::token_hash.eq(sha256_hex(&refresh_token)))
            .filter(refresh_tokens::revoked.eq(false))
            .filter(refresh_tokens::expires_at.gt(diesel::dsl::now)),
    ))
    .get_result(conn)
    .await?;
    if !live {
        return Ok(None);
    }
    let access_token = keys.issue(
        user.id,
        user.session_version,
        row.family_id,
        TokenType::Access,
        access_ttl(config),
    )?;
    Ok(Some((
        user,
        TokenPair {
            access_token,
            refresh_token,
        },
    )))
}

/// Revokes every live refresh token of a session family; the family's access tokens stop
/// working at once (the viewer checks the family). Returns how many tokens were live.
async fn revoke_family(conn: &mut AsyncPgConnection, family_id: uuid::Uuid) -> AppResult<usize> {
    Ok(diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::family_id.eq(family_id))
            .filter(refresh_tokens::revoked.eq(false)),
    )
    .set((
        refresh_tokens::revoked.eq(true),
        refresh_tokens::revoked_at.eq(diesel::dsl::now),
    ))
    .execute(conn)
    .await?)
}

/// Ends sessions (logout): the family of the presented refresh token, and the session an
/// access token names. Either credential alone ends its whole session, so a client that
/// only sends its bearer token leaves no refresh token alive. Returns the user of each
/// session that was live.
pub async fn end_sessions(
    conn: &mut AsyncPgConnection,
    keys: &TokenKeys,
    refresh_raw: Option<&str>,
    access_raw: Option<&str>,
) -> AppResult<Vec<i64>> {
    let mut families: Vec<(i64, uuid::Uuid)> = Vec::new();
    if let Some(raw) = refresh_raw {
        let found: Option<(i64, uuid::Uuid)> = refresh_tokens::table
            .filter(refresh_tokens::token_hash.eq(sha256_hex(raw)))
            .select((refresh_tokens::user_id, refresh_tokens::family_id))
            .first(conn)
            .await
            .optional()?;
        families.extend(found);
    }
    if let Some(claims) = access_raw.and_then(|raw| keys.verify(raw, TokenType::Access))
        && let (Ok(user_id), Some(sid)) = (claims.sub.parse::<i64>(), claims.sid)
    {
        families.push((user_id, sid));
    }
    families.sort_unstable();
    families.dedup();
    let mut ended = Vec::new();
    for (user_id, family_id) in families {
        let revoked = diesel::update(
            refresh_tokens::table
                .filter(refresh_tokens::family_id.eq(family_id))
                .filter(refresh_tokens::user_id.eq(user_id))
                .filter(refresh_tokens::revoked.eq(false)),
        )
        .set((
            refresh_tokens::revoked.eq(true),
            refresh_tokens::revoked_at.eq(diesel::dsl::now),
        ))
        .execute(conn)
        .await?;
        if revoked > 0 {
            ended.push(user_id);
        }
    }
    Ok(ended)
}

/// Revokes every live refresh token of a user (password reset, deactivation).
pub async fn revoke_all(conn: &mut AsyncPgConnection, user_id: i64) -> AppResult<usize> {
    Ok(diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::user_id.eq(user_id))
            .filter(refresh_tokens::revoked.eq(false)),
    )
    .set((
        refresh_tokens::revoked.eq(true),
        refresh_tokens::revoked_at.eq(diesel::dsl::now),
    ))
    .execute(conn)
    .await?)
}

fn cookie(name: &str, value: &str, path: &str, max_age: i64, secure: bool) -> String {
    format!(
        "{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The path of the refresh cookie: only the auth endpoints ever see it.
pub const REFRESH_COOKIE_PATH: &str = "/api/v1/auth";

/// In cookie mode, sets the session cookies (httpOnly, SameSite=Lax, Secure in production).
/// The access cookie's path is `/` so that `/graphql` sees it as well as `/api`.
pub fn set_cookies(ctx: &Context<'_>, config: &Config, access: &str, refresh: Option<&str>) {
    let secure = config.is_production();
    let access_age = config.access_token_ttl.as_secs() as i64;
    ctx.append_http_header(
        "Set-Cookie",
        cookie("access_token", access, "/", access_age, secure),
    );
    if let Some(refresh) = refresh {
        ctx.append_http_header(
            "Set-Cookie",
            cookie(
                "refresh_token",
                refresh,
                REFRESH_COOKIE_PATH,
                REFRESH_TOKEN_TTL.num_seconds(),
                secure,
            ),
        );
    }
}

/// The cookie that marks a device which signed in to an account successfully before.
pub const DEVICE_COOKIE: &str = "strata_device";

/// How long a device stays known: a year.
const DEVICE_COOKIE_SECONDS: i64 = 365 * 24 * 3600;

/// After a successful sign-in, marks the device (in either auth mode: browsers keep it,
/// other clients may): its later sign-ins to this account skip the per-account slow-down.
pub fn remember_device(
    ctx: &Context<'_>,
    config: &Config,
    keys: &crate::platform::auth::tokens::TokenKeys,
    email: &str,
) {
    let account = crate::platform::auth::rate_limit::account_key(email);
    match keys.device_token(&account) {
        Ok(value) => {
            ctx.append_http_header(
                "Set-Cookie",
                cookie(
                    DEVICE_COOKIE,
                    &value,
                    "/",
                    DEVICE_COOKIE_SECONDS,
                    config.is_production(),
                ),
            );
        }
        Err(e) => tracing::warn!(error = %e.message, "could not mint a device cookie"),
    }
}

/// Deletes both session cookies (same paths as when they were set).
pub fn clear_cookies(ctx: &Context<'_>, config: &Config) {
    let secure = config.is_production();
    ctx.append_http_header("Set-Cookie", cookie("access_token", "", "/", 0, secure));
    ctx.append_http_header(
        "Set-Cookie",
        cookie("refresh_token", "", REFRESH_COOKIE_PATH, 0, secure),
    );
}

/// True when sessions travel in cookies.
pub fn cookie_mode(config: &Config) -> bool {
    config.auth_mode == AuthMode::Cookie
}

/// The one message of every failed sign-in (unknown e-mail or wrong password).
pub const BAD_CREDENTIALS: &str = "Incorrect email or password";

/// Checks e-mail and password. Every attempt is counted before the password is checked
/// (per account and address, per address, per account: see
/// [`LoginThrottle`](crate::platform::auth::rate_limit::LoginThrottle)); over a limit the caller gets
/// a 429 with `Retry-After` and no argon2 work is done. Unknown e-mails cost the same argon2
/// work as known ones. Inactive accounts are refused after the password check (CONTRACT 1.2).
pub async fn authenticate(
    d: &crate::master_data::identity::Deps<'_>,
    email: &str,
    password: &str,
) -> AppResult<UserRow> {
    let account_key = crate::platform::auth::rate_limit::account_key(email);
    let known_device = d
        .meta
        .and_then(|m| m.cookies.get(DEVICE_COOKIE))
        .is_some_and(|v| d.keys.is_device_of(v, &account_key));
    let counted = if known_device {
        d.limits
            .login
            .attempt_from_known_device(&account_key, d.client_ip())
    } else {
        d.limits.login.attempt(&account_key, d.client_ip())
    };
    if let Err(wait) = counted {
        d.audit(
            AuditEvent::new("login_throttled", Outcome::Denied)
                .email(account_key.clone())
                .details(serde_json::json!({ "retry_after_seconds": wait })),
        )
        .await;
        return Err(AppError::rate_limited(
            "Too many failed login attempts. Please try again later.",
            wait,
        ));
    }
    let user = model::find_by_email(&mut *d.conn().await?, &account_key).await?;
    let ok = crate::platform::auth::password::verify(
        password,
        user.as_ref().map(|u| u.password_hash.as_str()),
    )
    .await?;
    let user = match (ok, user) {
        (true, Some(user)) => user,
        (_, user) => {
            let mut event =
                AuditEvent::new("login_failed", Outcome::Failure).email(account_key.clone());
            if let Some(u) = &user {
                event = event.user(u.id, u.email.clone());
            }
            d.audit(event.details(serde_json::json!({
                "reason": if user.is_some() { "wrong password" } else { "unknown account" }
            })))
            .await;
            return Err(AppError::unauthenticated(BAD_CREDENTIALS));
        }
    };
    if !user.is_active() {
        d.audit(
            AuditEvent::new("login_failed", Outcome::Denied)
                .user(user.id, user.email.clone())
                .details(serde_json::json!({ "reason": "account inactive" })),
        )
        .await;
        return Err(AppError::forbidden("User account is inactive"));
    }
    d.limits.login.succeeded(&account_key, d.client_ip());
    d.audit(AuditEvent::new("login", Outcome::Success).user(user.id, user.email.clone()))
        .await;
    Ok(user)
}
