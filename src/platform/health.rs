//! `GET /health` (spec 1.2): 200 when the database answers, 503 when it does not. A
//! production server without mail also shows a `checks.mail` warning, which does not count. Always
//! answers within about two seconds, and recovers by itself when the database comes back
//! (a fresh connection is opened for each check while the old ones are broken).

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use diesel_async::RunQueryDsl;
use serde::Serialize;

use crate::platform::http::state::AppState;

/// Longest time the database check may take before the answer is "failed".
pub const CHECK_TIMEOUT: Duration = Duration::from_millis(1500);

/// The health body of CONTRACT "Health".
#[derive(Debug, Serialize)]
pub struct HealthBody {
    /// `healthy` or `unhealthy`.
    pub status: &'static str,
    /// One entry per dependency.
    pub checks: Checks,
    /// The service version.
    pub version: &'static str,
}

/// The dependency checks.
#[derive(Debug, Serialize)]
pub struct Checks {
    /// `ok` or `failed`.
    pub database: &'static str,
    /// `warning: ...` in production without mail (a warning never fails the check);
    /// absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mail: Option<String>,
}

/// Runs `SELECT 1` on a pooled connection, bounded by [`CHECK_TIMEOUT`].
pub async fn database_ok(pool: &crate::platform::db::DbPool) -> bool {
    let check = async {
        let mut conn = pool.get().await.ok()?;
        diesel::sql_query("SELECT 1").execute(&mut conn).await.ok()
    };
    matches!(
        tokio::time::timeout(CHECK_TIMEOUT, check).await,
        Ok(Some(_))
    )
}

/// The handler.
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<HealthBody>) {
    let ok = database_ok(&state.pool).await;
    if !ok {
        tracing::warn!("health check failed: database unreachable");
    }
    (
        if ok {
            StatusCode::OK
        } else {
            StatusCode::SERVICE_UNAVAILABLE
        },
        Json(HealthBody {
            status: if ok { "healthy" } else { "unhealthy" },
            checks: Checks {
                database: if ok { "ok" } else { "failed" },
                mail: crate::platform::mail::production_warning(&state.config)
                    .map(|w| format!("warning: {w}")),
            },
            version: crate::VERSION,
        }),
    )
}
