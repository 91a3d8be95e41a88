//! Sessions: a login issues an access JWT and a refresh JWT; the refresh token is stored
//! hashed and rotated on every use. All tokens of one login share a family: presenting a
//! token that was already rotated means it leaked, so the whole family is revoked and the
//! event is audited.

use async_graphql::Context;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::audit::{AuditEvent, Outcome};
use crate::auth::RequestMeta;
use crate::auth::tokens::{REFRESH_TOKEN_TTL, TokenKeys, TokenType, sha256_hex};
use crate::config::{AuthMode, Config};
use crate::db::schema::refresh_tokens;
use crate::error::{AppError, AppResult};
use crate::identity::model::{self, UserRow};

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
    replaced_by_id: Option<i64>,
}

/// Issues a pair for `user` in `family` and stores the refresh token's hash.
async fn issue(
    conn: &mut AsyncPgConnection,
    keys: &TokenKeys,
    config: &Config,
    user: &UserRow,
    family_id: uuid::Uuid,
    meta: Option<&RequestMeta>,
) -> AppResult<(TokenPair, i64)> {
    let access_ttl = chrono::Duration::from_std(config.access_token_ttl)
        .unwrap_or_else(|_| chrono::Duration::minutes(30));
    let access_token = keys.issue(user.id, user.session_version, TokenType::Access, access_ttl)?;
    let refresh_token = keys.issue(
        user.id,
        user.session_version,
        TokenType::Refresh,
        REFRESH_TOKEN_TTL,
    )?;
    let hash = sha256_hex(&refresh_token);
    let id: i64 = diesel::insert_into(refresh_tokens::table)
        .values(&NewRefreshToken {
            user_id: user.id,
            token_hash: &hash,
            family_id,
            expires_at: Utc::now() + REFRESH_TOKEN_TTL,
            user_agent: meta
                .and_then(|m| m.user_agent.as_deref())
                .map(|ua| &ua[..ua.floor_char_boundary(512)]),
            ip_address: meta.map(|m| m.client_ip.to_string()),
        })
        .returning(refresh_tokens::id)
        .get_result(conn)
        .await?;
    Ok((
        TokenPair {
            access_token,
            refresh_token,
        },
        id,
    ))
}

/// Starts a new session (a new family) for `user`: records the login and drops the user's
/// expired tokens.
pub async fn start(
    conn: &mut AsyncPgConnection,
    keys: &TokenKeys,
    config: &Config,
    user: &UserRow,
    meta: Option<&RequestMeta>,
) -> AppResult<TokenPair> {
    diesel::delete(
        refresh_tokens::table
            .filter(refresh_tokens::user_id.eq(user.id))
            .filter(refresh_tokens::expires_at.lt(diesel::dsl::now)),
    )
    .execute(conn)
    .await?;
    model::touch_last_login(conn, user.id).await?;
    let (pair, _) = issue(conn, keys, config, user, uuid::Uuid::new_v4(), meta).await?;
    Ok(pair)
}

/// Why a refresh was refused (all answer 401 `Invalid refresh token`).
enum Refused {
    Invalid,
    Reused { user_id: i64, family_id: uuid::Uuid },
}

/// Rotates a refresh token: the presented token dies and a new pair of the same family is
/// issued. A token that was already rotated revokes its family.
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
    let outcome = conn
        .transaction::<_, AppError, _>(async move |conn| {
            let row: Option<RefreshRow> = refresh_tokens::table
                .filter(refresh_tokens::token_hash.eq(&hash))
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
            if row.revoked {
                if row.replaced_by_id.is_some() {
                    diesel::update(
                        refresh_tokens::table
                            .filter(refresh_tokens::family_id.eq(row.family_id))
                            .filter(refresh_tokens::revoked.eq(false)),
                    )
                    .set((
                        refresh_tokens::revoked.eq(true),
                        refresh_tokens::revoked_at.eq(diesel::dsl::now),
                    ))
                    .execute(conn)
                    .await?;
                    return Ok(Err(Refused::Reused {
                        user_id: row.user_id,
                        family_id: row.family_id,
                    }));
                }
                return Ok(Err(Refused::Invalid));
            }
            if row.expires_at <= Utc::now() {
                return Ok(Err(Refused::Invalid));
            }
            let Some(user) = model::find(conn, row.user_id).await? else {
                return Ok(Err(Refused::Invalid));
            };
            if !user.is_active() || user.session_version != claims.sv {
                return Ok(Err(Refused::Invalid));
            }
            let (pair, new_id) = issue(conn, keys, config, &user, row.family_id, meta).await?;
            diesel::update(refresh_tokens::table.find(row.id))
                .set((
                    refresh_tokens::revoked.eq(true),
                    refresh_tokens::revoked_at.eq(diesel::dsl::now),
                    refresh_tokens::replaced_by_id.eq(Some(new_id)),
                ))
                .execute(conn)
                .await?;
            Ok(Ok((user, pair)))
        })
        .await?;
    match outcome {
        Ok(done) => Ok(done),
        Err(Refused::Invalid) => Err(AppError::unauthenticated(INVALID_REFRESH)),
        Err(Refused::Reused { user_id, family_id }) => {
            let email = model::find(conn, user_id)
                .await?
                .map(|u| u.email)
                .unwrap_or_default();
            crate::audit::record_in(
                conn,
                meta,
                &AuditEvent::new("refresh_token_reuse", Outcome::Denied)
                    .user(user_id, email)
                    .details(serde_json::json!({ "family_id": family_id, "action": "session family revoked" })),
            )
            .await?;
            tracing::warn!(user_id, %family_id, "a rotated refresh token was presented again; its session family is revoked");
            Err(AppError::unauthenticated(INVALID_REFRESH))
        }
    }
}

/// Revokes one refresh token (logout); returns its user when it was live.
pub async fn revoke(conn: &mut AsyncPgConnection, raw: &str) -> AppResult<Option<i64>> {
    let user: Option<i64> = diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::token_hash.eq(sha256_hex(raw)))
            .filter(refresh_tokens::revoked.eq(false)),
    )
    .set((
        refresh_tokens::revoked.eq(true),
        refresh_tokens::revoked_at.eq(diesel::dsl::now),
    ))
    .returning(refresh_tokens::user_id)
    .get_result(conn)
    .await
    .optional()?;
    Ok(user)
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

/// Checks e-mail and password. Unknown e-mails cost the same argon2 work as known ones;
/// failures are counted per client address and per account, and over the threshold the
/// caller gets a 429 until the window passes. Inactive accounts are refused after the
/// password check (CONTRACT 1.2).
pub async fn authenticate(
    d: &crate::identity::Deps<'_>,
    email: &str,
    password: &str,
) -> AppResult<UserRow> {
    let account_key = email.trim().to_lowercase();
    let ip_key = d.client_ip().to_string();
    let throttles = [
        (&d.limits.login_failures_by_ip, ip_key.as_str()),
        (&d.limits.login_failures_by_account, account_key.as_str()),
    ];
    if let Some(wait) = throttles.iter().filter_map(|(t, k)| t.blocked_for(k)).max() {
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
    let ok =
        crate::auth::password::verify(password, user.as_ref().map(|u| u.password_hash.as_str()))
            .await;
    let user = match (ok, user) {
        (true, Some(user)) => user,
        (_, user) => {
            for (t, k) in &throttles {
                t.record_failure(k);
            }
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
    d.limits.login_failures_by_account.clear(&account_key);
    d.audit(AuditEvent::new("login", Outcome::Success).user(user.id, user.email.clone()))
        .await;
    Ok(user)
}
