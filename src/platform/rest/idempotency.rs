//! `Idempotency-Key` for declared write routes: the first request with a key claims it, runs,
//! and stores its answer; a repeat by the same user within 24 hours gets that answer back
//! (with 200) and changes nothing. Kept in PostgreSQL, so it holds across restarts and
//! replicas.
//!
//! A claim without an answer is a request in flight: a concurrent repeat gets 409. A failed
//! request (any non-2xx) releases its claim so the client can retry. A claim left by a process
//! that died mid-request is taken over once it is older than [`STALE_CLAIM`].

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use sha2::{Digest, Sha256};

use super::respond::Answer;
use crate::platform::db::DbPool;
use crate::platform::db::schema::idempotency_keys as keys;
use crate::platform::error::{AppError, AppResult, FieldError};

/// How long an answer is replayed.
pub const RETENTION: Duration = Duration::hours(24);
/// After this long without an answer a claim is considered abandoned.
pub const STALE_CLAIM: Duration = Duration::minutes(2);
/// The request header.
pub const HEADER: &str = "idempotency-key";

/// What the key store says about a request.
pub enum Claim {
    /// The key is new: run the request, then [`finish`] or [`release`].
    Fresh,
    /// The key was used for this request before: answer this.
    Replay(Answer),
}

/// The key of a request, when it sent a usable one.
pub fn key_of(headers: &HeaderMap) -> Result<Option<String>, AppError> {
    let Some(value) = headers.get(HEADER) else {
        return Ok(None);
    };
    let key = value.to_str().map(str::trim).unwrap_or_default();
    if key.is_empty() || key.len() > 255 || key.chars().any(char::is_control) {
        return Err(AppError::validation(vec![
            FieldError::new(
                "header.idempotency-key",
                "Idempotency-Key must be 1 to 255 visible characters",
            )
            .with_kind("value_error"),
        ]));
    }
    Ok(Some(key.to_string()))
}

/// A digest of what the request asks for: the same key with another request is refused.
pub fn fingerprint(method: &str, path: &str, query: Option<&str>, body: &Bytes) -> String {
    let mut hasher = Sha256::new();
    hasher.update(method.as_bytes());
    hasher.update([0]);
    hasher.update(path.trim_end_matches('/').as_bytes());
    hasher.update([0]);
    hasher.update(query.unwrap_or_default().as_bytes());
    hasher.update([0]);
    hasher.update(body);
    hex::encode(hasher.finalize())
}

type Stored = (
    String,
    Option<i16>,
    Option<String>,
    Option<Vec<u8>>,
    Option<String>,
    chrono::DateTime<Utc>,
);

/// Claims `key` for this user and request, or finds its earlier answer.
pub async fn claim(pool: &DbPool, user_id: i64, key: &str, fingerprint: &str) -> AppResult<Claim> {
    let mut conn = pool.get().await?;
    for _ in 0..3 {
        let inserted = diesel::insert_into(keys::table)
            .values((
                keys::user_id.eq(user_id),
                keys::key.eq(key),
                keys::request_fingerprint.eq(fingerprint),
            ))
            .on_conflict((keys::user_id, keys::key))
            .do_nothing()
            .execute(&mut conn)
            .await?;
        if inserted == 1 {
            return Ok(Claim::Fresh);
        }
        let found: Option<Stored> = keys::table
            .find((user_id, key))
            .select((
                keys::request_fingerprint,
                keys::status,
                keys::content_type,
                keys::response_body,
                keys::location,
                keys::created_at,
            ))
            .first(&mut conn)
            .await
            .optional()?;
        let Some((stored_fingerprint, status, content_type, body, location, created_at)) = found
        else {
            continue; // released meanwhile: claim again
        };
        let age = Utc::now() - created_at;
        let expired = age > RETENTION || (status.is_none() && age > STALE_CLAIM);
        if expired {
            diesel::delete(
                keys::table
                    .find((user_id, key))
                    .filter(keys::created_at.eq(created_at)),
            )
            .execute(&mut conn)
            .await?;
            continue;
        }
        if stored_fingerprint != fingerprint {
            return Err(AppError::validation(vec![
                FieldError::new(
                    "header.idempotency-key",
                    "This Idempotency-Key was already used for a different request",
                )
                .with_kind("idempotency_key_reused"),
            ]));
        }
        let Some(status) = status else {
            return Err(AppError::conflict(
                "A request with this Idempotency-Key is still being processed",
            ));
        };
        let original =
            StatusCode::from_u16(u16::try_from(status).unwrap_or(200)).unwrap_or(StatusCode::OK);
        let mut headers = HeaderMap::new();
        if let Some(v) = location.and_then(|l| HeaderValue::from_str(&l).ok()) {
            headers.insert(header::LOCATION, v);
        }
        headers.insert(
            header::HeaderName::from_static("idempotent-replayed"),
            HeaderValue::from_static("true"),
        );
        // A replay changes nothing, so it is a 200 even when the first answer was a 201; a
        // 204 stays bodiless.
        let status = if original == StatusCode::NO_CONTENT {
            original
        } else {
            StatusCode::OK
        };
        return Ok(Claim::Replay(Answer {
            status,
            body: Bytes::from(body.unwrap_or_default()),
            content_type: if content_type.as_deref() == Some("application/json")
                || content_type.is_none()
            {
                "application/json"
            } else {
                "text/plain; charset=utf-8"
            },
            headers,
        }));
    }
    Err(AppError::conflict(
        "A request with this Idempotency-Key is still being processed",
    ))
}

/// Stores the answer of a claimed key (successful answers only: see [`release`]).
pub async fn finish(pool: &DbPool, user_id: i64, key: &str, answer: &Answer) -> AppResult<()> {
    let mut conn = pool.get().await?;
    let location = answer
        .headers
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    diesel::update(keys::table.find((user_id, key)))
        .set((
            keys::status.eq(Some(i16::try_from(answer.status.as_u16()).unwrap_or(200))),
            keys::content_type.eq(Some(answer.content_type)),
            keys::response_body.eq(Some(answer.body.to_vec())),
            keys::location.eq(location),
        ))
        .execute(&mut conn)
        .await?;
    // Expired answers go as new ones arrive (the index on created_at keeps this cheap).
    diesel::delete(keys::table.filter(keys::created_at.lt(Utc::now() - RETENTION)))
        .execute(&mut conn)
        .await?;
    Ok(())
}

/// Gives a claimed key back after a failed request, so a retry runs again.
pub async fn release(pool: &DbPool, user_id: i64, key: &str) {
    let result = async {
        let mut conn = pool.get().await?;
        diesel::delete(
            keys::table
                .find((user_id, key))
                .filter(keys::status.is_null()),
        )
        .execute(&mut conn)
        .await?;
        Ok::<_, AppError>(())
    }
    .await;
    if let Err(e) = result {
        tracing::warn!(error = %e.message, "could not release an idempotency key");
    }
}
