//! The durable job queue: typed jobs stored in PostgreSQL's `jobs` table and run by a
//! worker that `strata serve` starts.
//!
//! Why a table of our own and not a queue crate: the point of the queue is the outbox
//! guarantee, "the job exists exactly when the business row exists". That needs the job to
//! be written by the same diesel-async transaction as the row. The crates that fit otherwise
//! (apalis-sql/apalis-postgres, graphile_worker, ishikari) speak PostgreSQL through sqlx, a
//! second driver whose connections cannot join a diesel transaction; apalis-diesel-postgres
//! is synchronous diesel over r2d2/libpq (which this service deliberately avoids) and
//! targets an apalis release candidate. The mechanics here are small and standard:
//! `FOR UPDATE SKIP LOCKED` claims, a lease that hands a crashed worker's job to the next
//! one, exponential backoff, and a bounded number of attempts.
//!
//! Delivery is at least once: a job whose worker dies after the side effect but before the
//! acknowledgement runs again when its lease ends, so jobs must tolerate a repeat.

pub mod kv;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use diesel::OptionalExtension;
use diesel::sql_types::{BigInt, Integer, Jsonb, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::platform::auth::rate_limit::RateLimits;
use crate::platform::auth::tokens::TokenKeys;
use crate::platform::config::Config;
use crate::platform::db::DbPool;
use crate::platform::error::{AppError, AppResult};
use crate::platform::mail::Mailer;

/// Attempts before a job is given up (with the default backoff: about 4 hours in all).
pub const DEFAULT_MAX_ATTEMPTS: i32 = 10;

/// A kind of background work. The payload is the value itself, stored as JSON.
#[async_trait::async_trait]
pub trait Job: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The stable name stored with each job (never rename one that may be queued).
    const KIND: &'static str;
    /// Attempts before the job is marked failed.
    const MAX_ATTEMPTS: i32 = DEFAULT_MAX_ATTEMPTS;

    /// Does the work once.
    async fn run(self, ctx: &JobContext) -> Result<(), JobError>;
}

/// Why an attempt failed, and whether another attempt can help.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A passing failure (a server down, a timeout): try again later.
    #[error("{0}")]
    Retry(String),
    /// The job can never succeed (a bad payload or address): stop.
    #[error("{0}")]
    Permanent(String),
}

impl JobError {
    /// A failure worth retrying.
    pub fn retry(e: impl std::fmt::Display) -> JobError {
        JobError::Retry(e.to_string())
    }

    /// A failure that no retry can fix.
    pub fn permanent(e: impl std::fmt::Display) -> JobError {
        JobError::Permanent(e.to_string())
    }
}

impl From<AppError> for JobError {
    fn from(e: AppError) -> JobError {
        // Database trouble passes; the job is tried again.
        JobError::Retry(e.message)
    }
}

/// What a running job can use.
pub struct JobContext {
    /// The database pool.
    pub pool: DbPool,
    /// The configuration.
    pub config: Arc<Config>,
    /// The mail transport.
    pub mailer: Mailer,
    /// Token keys (for jobs that go through the identity services).
    pub keys: TokenKeys,
    /// Rate limits (jobs are not rate limited; the identity services expect them).
    pub limits: RateLimits,
    /// The `/graphql` schema, for jobs that run a query as a user (bulk exports); set by
    /// [`start_for`].
    pub schema: Option<crate::platform::graphql::AppSchema>,
    /// The schema that validates without executing (a bulk export's query); set by
    /// [`start_for`].
    pub validator: Option<crate::platform::graphql::AppSchema>,
}

impl JobContext {
    /// The context for a configuration and pool.
    pub fn new(config: Arc<Config>, pool: DbPool) -> JobContext {
        JobContext {
            mailer: Mailer::from_config(&config.smtp),
            keys: TokenKeys::new(config.secret_key.expose()),
            limits: RateLimits::default(),
            schema: None,
            validator: None,
            pool,
            config,
        }
    }
}

/// Writes a job. Pass the connection of the transaction that writes the business rows: the
/// job is then committed (or rolled back) together with them. Returns the job's id.
pub async fn enqueue<J: Job>(conn: &mut AsyncPgConnection, job: &J) -> AppResult<i64> {
    #[derive(diesel::QueryableByName)]
    struct Inserted {
        #[diesel(sql_type = BigInt)]
        id: i64,
    }
    let payload = serde_json::to_value(job)
        .map_err(|e| AppError::internal(format!("job {} cannot be encoded: {e}", J::KIND)))?;
    let row: Inserted = diesel::sql_query(
        "INSERT INTO jobs (kind, payload, max_attempts) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind::<Text, _>(J::KIND)
    .bind::<Jsonb, _>(payload)
    .bind::<Integer, _>(J::MAX_ATTEMPTS)
    .get_result(conn)
    .await?;
    tracing::debug!(job_id = row.id, kind = J::KIND, "job enqueued");
    Ok(row.id)
}

/// Writes a job that is not due before `run_at` (an expiry, a reminder), like [`enqueue`].
pub async fn enqueue_at<J: Job>(
    conn: &mut AsyncPgConnection,
    job: &J,
    run_at: chrono::DateTime<chrono::Utc>,
) -> AppResult<i64> {
    let id = enqueue(conn, job).await?;
    diesel::sql_query("UPDATE jobs SET run_at = $2 WHERE id = $1")
        .bind::<BigInt, _>(id)
        .bind::<diesel::sql_types::Timestamptz, _>(run_at)
        .execute(conn)
        .await?;
    Ok(id)
}

type Handler = Arc<
    dyn Fn(serde_json::Value, Arc<JobContext>) -> BoxFuture<'static, Result<(), JobError>>
        + Send
        + Sync,
>;

/// The job kinds a worker runs.
#[derive(Clone, Default)]
pub struct Registry {
    handlers: HashMap<&'static str, Handler>,
}

impl Registry {
    /// Adds one job kind.
    pub fn register<J: Job>(mut self) -> Registry {
        let handler: Handler = Arc::new(|payload, ctx| {
            Box::pin(async move {
                let job: J = serde_json::from_value(payload)
                    .map_err(|e| JobError::permanent(format!("payload does not decode: {e}")))?;
                job.run(&ctx).await
            })
        });
        self.handlers.insert(J::KIND, handler);
        self
    }
}

/// How the worker paces itself.
#[derive(Debug, Clone, Copy)]
pub struct WorkerOptions {
    /// Pause between looks at an empty queue.
    pub poll_interval: Duration,
    /// Delay before the first retry; doubled for each further attempt.
    pub retry_base: Duration,
    /// Longest delay between attempts.
    pub retry_cap: Duration,
    /// How long a claimed job belongs to its worker. An attempt is cut off before this, and a
    /// crashed worker's job is taken up again after it.
    pub lease: Duration,
}

impl Default for WorkerOptions {
    fn default() -> WorkerOptions {
        WorkerOptions {
            poll_interval: Duration::from_millis(500),
            retry_base: Duration::from_secs(10),
            retry_cap: Duration::from_secs(3600),
            lease: Duration::from_secs(120),
        }
    }
}

impl WorkerOptions {
    /// The delay after failed attempt number `attempt` (1-based): base, 2x base, 4x base...
    /// up to the cap.
    pub fn backoff(&self, attempt: i32) -> Duration {
        let exponent = u32::try_from(attempt.saturating_sub(1))
            .unwrap_or(0)
            .min(20);
        self.retry_base
            .saturating_mul(2u32.saturating_pow(exponent))
            .min(self.retry_cap)
    }
}

/// A running worker. [`WorkerHandle::shutdown`] lets the current job finish; dropping the
/// handle stops the worker at once (like a crash: a claimed job is retried after its lease).
pub struct WorkerHandle {
    stop: tokio::sync::watch::Sender<bool>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl WorkerHandle {
    /// Stops after the job in hand.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

/// Starts a worker for a server's state (its configuration, pool and schema) with these job
/// kinds (the application's registry: `crate::application::areas::jobs`): over the
/// key-value store when `KVSTORE_URL` is set ([`kv`]), polling the table otherwise.
pub fn start_for(
    state: &crate::platform::http::state::AppState,
    registry: Registry,
    options: WorkerOptions,
) -> WorkerHandle {
    let mut ctx = JobContext::new(state.config.clone(), state.pool.clone());
    ctx.schema = Some(state.schema.clone());
    ctx.validator = Some(state.validator.clone());
    match &state.config.kvstore_url {
        Some(url) => kv::start(Arc::new(ctx), registry, options, url.expose().to_string()),
        None => start(Arc::new(ctx), registry, options),
    }
}

/// Starts a worker on the current runtime.
pub fn start(ctx: Arc<JobContext>, registry: Registry, options: WorkerOptions) -> WorkerHandle {
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(async move {
        tracing::info!("job worker started");
        loop {
            if *stopped.borrow() {
                break;
            }
            let worked = match claim(&ctx.pool, options.lease).await {
                Ok(Some(job)) => {
                    run_one(&ctx, &registry, &options, job).await;
                    true
                }
                Ok(None) => false,
                Err(e) => {
                    tracing::warn!(error = %e.message, "job queue unreachable; retrying");
                    false
                }
            };
            if !worked {
                tokio::select! {
                    _ = tokio::time::sleep(options.poll_interval) => {}
                    _ = stopped.changed() => {}
                }
            }
        }
        tracing::info!("job worker stopped");
    });
    WorkerHandle {
        stop,
        task: Some(task),
    }
}

/// Stops an attempt when the worker stops waiting for it (its time ran out, or the worker
/// was dropped): a stopped worker leaves nothing running behind.
struct AbortOnDrop(tokio::task::JoinHandle<Result<(), JobError>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[derive(diesel::QueryableByName)]
struct Claimed {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Jsonb)]
    payload: serde_json::Value,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Integer)]
    max_attempts: i32,
}

/// Takes the oldest due job that no live worker holds, and counts the attempt.
async fn claim(pool: &DbPool, lease: Duration) -> AppResult<Option<Claimed>> {
    let mut conn = pool.get().await?;
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    let claimed: Option<Claimed> = diesel::sql_query(
        "UPDATE jobs SET attempts = attempts + 1, \
                locked_until = now() + make_interval(secs => $1::double precision / 1000) \
         WHERE id = (SELECT id FROM jobs \
                     WHERE failed_at IS NULL AND run_at <= now() \
                       AND (locked_until IS NULL OR locked_until < now()) \
                     ORDER BY run_at, id \
                     FOR UPDATE SKIP LOCKED LIMIT 1) \
         RETURNING id, kind, payload, attempts, max_attempts",
    )
    .bind::<BigInt, _>(lease_ms)
    .get_result(&mut conn)
    .await
    .optional()?;
    Ok(claimed)
}

async fn run_one(
    ctx: &Arc<JobContext>,
    registry: &Registry,
    options: &WorkerOptions,
    job: Claimed,
) {
    let outcome = match registry.handlers.get(job.kind.as_str()) {
        // Possibly a job of a newer release during a rolling update: leave it for a worker
        // that knows it.
        None => Err(JobError::retry(format!(
            "no handler for job kind `{}`",
            job.kind
        ))),
        Some(handler) => {
            // Its own task, so a panic in a job is one failed attempt, not a dead worker;
            // bounded by the lease, so no other worker takes the job while it still runs.
            let mut attempt = AbortOnDrop(tokio::spawn(handler(job.payload.clone(), ctx.clone())));
            let limit = options.lease.mul_f64(0.9);
            match tokio::time::timeout(limit, &mut attempt.0).await {
                Ok(Ok(result)) => result,
                Ok(Err(join)) if join.is_panic() => Err(JobError::retry("the job panicked")),
                Ok(Err(join)) => Err(JobError::retry(join)),
                Err(_) => Err(JobError::retry(format!(
                    "the attempt took longer than {} s",
                    limit.as_secs()
                ))),
            }
        }
    };
    if let Err(e) = settle(&ctx.pool, options, &job, outcome).await {
        // The lease runs out and the job is tried again: at least once, never lost.
        tracing::warn!(job_id = job.id, error = %e.message, "job outcome not recorded");
    }
}

/// Records an attempt's outcome: done jobs are deleted, failed ones rescheduled or given up.
async fn settle(
    pool: &DbPool,
    options: &WorkerOptions,
    job: &Claimed,
    outcome: Result<(), JobError>,
) -> AppResult<()> {
    let mut conn = pool.get().await?;
    match outcome {
        Ok(()) => {
            diesel::sql_query("DELETE FROM jobs WHERE id = $1")
                .bind::<BigInt, _>(job.id)
                .execute(&mut conn)
                .await?;
            tracing::info!(job_id = job.id, kind = %job.kind, attempt = job.attempts, "job done");
        }
        Err(e) if matches!(e, JobError::Retry(_)) && job.attempts < job.max_attempts => {
            let delay = options.backoff(job.attempts);
            let delay_ms = i64::try_from(delay.as_millis()).unwrap_or(i64::MAX);
            diesel::sql_query(
                // `relayed_at` cleared: over the key-value store, it is handed over again
                // when it is due.
                "UPDATE jobs SET locked_until = NULL, last_error = $2, relayed_at = NULL, \
                        run_at = now() + make_interval(secs => $3::double precision / 1000) \
                 WHERE id = $1",
            )
            .bind::<BigInt, _>(job.id)
            .bind::<Text, _>(e.to_string())
            .bind::<BigInt, _>(delay_ms)
            .execute(&mut conn)
            .await?;
            tracing::warn!(
                job_id = job.id,
                kind = %job.kind,
                attempt = job.attempts,
                max_attempts = job.max_attempts,
                retry_in_ms = delay_ms,
                error = %e,
                "job attempt failed; will retry"
            );
        }
        Err(e) => {
            diesel::sql_query(
                "UPDATE jobs SET locked_until = NULL, last_error = $2, failed_at = now() \
                 WHERE id = $1",
            )
            .bind::<BigInt, _>(job.id)
            .bind::<Text, _>(e.to_string())
            .execute(&mut conn)
            .await?;
            tracing::error!(
                job_id = job.id,
                kind = %job.kind,
                attempt = job.attempts,
                error = %e,
                "job failed for good"
            );
            crate::platform::error::tracking::capture_server_error(
                "job",
                &format!("job {} ({}) failed for good: {e}", job.id, job.kind),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let o = WorkerOptions {
            retry_base: Duration::from_secs(10),
            retry_cap: Duration::from_secs(60),
            ..WorkerOptions::default()
        };
        assert_eq!(o.backoff(1), Duration::from_secs(10));
        assert_eq!(o.backoff(2), Duration::from_secs(20));
        assert_eq!(o.backoff(3), Duration::from_secs(40));
        assert_eq!(o.backoff(4), Duration::from_secs(60));
        assert_eq!(o.backoff(1000), Duration::from_secs(60));
    }
}
