//! The job queue over the key-value store (`KVSTORE_URL`, any server of the Redis protocol).
//!
//! PostgreSQL stays the outbox and the record: a job is still written by the business
//! transaction into `jobs` (so it exists exactly when its rows do), and its attempts, errors
//! and failure are still recorded there. The store takes over *delivery*: workers block on a
//! list instead of polling the table, and a dead worker's job comes back as soon as its
//! heartbeat stops.
//!
//! - **Relay.** Each worker, between jobs, moves the ids of due jobs from the table onto the
//!   ready list, inside the transaction that stamps them `relayed_at`. A crash between the
//!   push and the commit pushes them again (a repeat is harmless, see the claim) and never
//!   loses one. A job handed over more than a lease ago that no worker holds is handed over
//!   again, so a store that loses its lists (a restart without persistence) loses no job.
//! - **Claim.** `BLMOVE ready -> processing:<worker>` gives one id to one worker atomically;
//!   the worker then claims the job in PostgreSQL with the same lease and attempt count as the
//!   polling worker. An id whose job is done, failed or held by another worker is dropped. The
//!   id leaves the processing list once the attempt is settled.
//! - **Heartbeats.** Each worker renews `alive:<worker>` (it expires after three beats) from a
//!   task of its own, also during a long job. Any worker hands the processing list of a worker
//!   whose heartbeat has expired back to the ready list.
//!
//! Delivery stays at least once, as with the polling worker.

use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, RunQueryDsl};
use redis::aio::MultiplexedConnection;

use super::{Claimed, JobContext, Registry, WorkerHandle, WorkerOptions};
use crate::platform::db::DbPool;
use crate::platform::error::{AppError, AppResult};

/// The list of job ids ready to run.
pub const READY: &str = "strata:jobs:ready";
/// The set of worker ids that may hold jobs.
pub const WORKERS: &str = "strata:jobs:workers";
/// Most job ids moved onto the ready list by one relay.
const RELAY_BATCH: i64 = 100;

/// The list of the job ids a worker holds.
pub fn processing(worker: &str) -> String {
    format!("strata:jobs:processing:{worker}")
}

/// The key that exists while a worker is alive.
pub fn alive(worker: &str) -> String {
    format!("strata:jobs:alive:{worker}")
}

/// Checks a `KVSTORE_URL` (scheme, host, database) without connecting.
pub fn check_url(url: &str) -> Result<(), String> {
    redis::Client::open(url)
        .map(drop)
        .map_err(|e| format!("not a key-value store URL: {e}"))
}

/// Starts a worker that takes its jobs from the key-value store at `url`.
pub fn start(
    ctx: Arc<JobContext>,
    registry: Registry,
    options: WorkerOptions,
    url: String,
) -> WorkerHandle {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(async move {
        let worker = uuid::Uuid::new_v4().simple().to_string();
        tracing::info!(worker = %worker, "job worker started (key-value store)");
        let client = match redis::Client::open(url.as_str()) {
            Ok(client) => client,
            Err(e) => {
                tracing::error!(error = %e, "job worker: KVSTORE_URL is unusable; no jobs run");
                return;
            }
        };
        // Its own task and connection: a blocked BLMOVE or a long job never delays a beat.
        let beats = tokio::spawn(heartbeat(
            client.clone(),
            ctx.pool.clone(),
            worker.clone(),
            options,
        ));
        let _beats = AbortOnDrop(beats);
        consume(&ctx, &registry, &options, &client, &worker, stopped).await;
        tracing::info!(worker = %worker, "job worker stopped");
    });
    WorkerHandle {
        stop,
        task: Some(task),
    }
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// How long a beat lasts: the poll interval, but at least a second (the store is not a
/// clock to hammer).
fn beat(options: &WorkerOptions) -> Duration {
    options.poll_interval.max(Duration::from_secs(1))
}

async fn connect(
    client: &redis::Client,
    block: Duration,
) -> redis::RedisResult<MultiplexedConnection> {
    let config = redis::AsyncConnectionConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(5)))
        // A blocking command's answer may take its whole block.
        .set_response_timeout(Some(block + Duration::from_secs(5)));
    client
        .get_multiplexed_async_connection_with_config(&config)
        .await
}

/// Waits for the next try after a failure: the pause grows to 30 s, or the worker stops.
async fn pause(pause: &mut Duration, stopped: &mut tokio::sync::watch::Receiver<bool>) {
    tokio::select! {
        _ = tokio::time::sleep(*pause) => {}
        _ = stopped.changed() => {}
    }
    *pause = (*pause * 2).min(Duration::from_secs(30));
}

async fn consume(
    ctx: &Arc<JobContext>,
    registry: &Registry,
    options: &WorkerOptions,
    client: &redis::Client,
    worker: &str,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) {
    let block = options.poll_interval.max(Duration::from_millis(10));
    let mine = processing(worker);
    let mut backoff = Duration::from_millis(250);
    let mut conn: Option<MultiplexedConnection> = None;
    let mut last_relay: Option<Instant> = None;
    while !*stopped.borrow() {
        let store = match conn.as_mut() {
            Some(store) => store,
            None => match connect(client, block).await {
                Ok(fresh) => conn.insert(fresh),
                Err(e) => {
                    tracing::warn!(error = %e, "job worker: key-value store unreachable; retrying");
                    pause(&mut backoff, &mut stopped).await;
                    continue;
                }
            },
        };
        if last_relay.is_none_or(|at| at.elapsed() >= options.poll_interval) {
            last_relay = Some(Instant::now());
            if let Err(e) = relay(&ctx.pool, store, options.lease).await {
                tracing::warn!(error = %e.message, "job relay failed; retrying");
            }
        }
        let taken: redis::RedisResult<Option<String>> = redis::cmd("BLMOVE")
            .arg(READY)
            .arg(&mine)
            .arg("RIGHT")
            .arg("LEFT")
            .arg(block.as_secs_f64())
            .query_async(store)
            .await;
        let id = match taken {
            Ok(Some(id)) => id,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(error = %e, "job worker: key-value store lost; reconnecting");
                conn = None;
                pause(&mut backoff, &mut stopped).await;
                continue;
            }
        };
        backoff = Duration::from_millis(250);
        if let Ok(job_id) = id.parse::<i64>() {
            match claim(&ctx.pool, job_id, options.lease).await {
                Ok(Some(job)) => super::run_one(ctx, registry, options, job).await,
                // Done, failed, or held by another worker: this copy of the id is spent.
                Ok(None) => {}
                // The id stays in the processing list; the reaper or the relay brings it back.
                Err(e) => {
                    tracing::warn!(job_id, error = %e.message, "job not claimed; left for later");
                    pause(&mut backoff, &mut stopped).await;
                    continue;
                }
            }
        }
        let removed: redis::RedisResult<i64> = redis::cmd("LREM")
            .arg(&mine)
            .arg(1)
            .arg(&id)
            .query_async(store)
            .await;
        if let Err(e) = removed {
            tracing::warn!(error = %e, "job worker: a settled job stayed in the processing list");
            conn = None;
        }
    }
}

/// Moves the ids of due jobs that need handing over onto the ready list, in the transaction
/// that stamps them (see the module documentation). Returns how many were handed over.
pub async fn relay(
    pool: &DbPool,
    store: &mut MultiplexedConnection,
    lease: Duration,
) -> AppResult<usize> {
    #[derive(diesel::QueryableByName)]
    struct Due {
        #[diesel(sql_type = BigInt)]
        id: i64,
    }
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    let mut conn = pool.get().await?;
    conn.transaction::<usize, AppError, _>(async move |conn| {
        {
            let due: Vec<Due> = diesel::sql_query(
                "UPDATE jobs SET relayed_at = now() \
                 WHERE id IN (SELECT id FROM jobs \
                     WHERE failed_at IS NULL AND run_at <= now() \
                       AND (locked_until IS NULL OR locked_until < now()) \
                       AND (relayed_at IS NULL \
                            OR relayed_at < now() - make_interval(secs => $1::double precision / 1000)) \
                     ORDER BY run_at, id \
                     FOR UPDATE SKIP LOCKED LIMIT $2) \
                 RETURNING id",
            )
            .bind::<BigInt, _>(lease_ms)
            .bind::<BigInt, _>(RELAY_BATCH)
            .load(conn)
            .await?;
            if due.is_empty() {
                return Ok(0);
            }
            // Oldest first out: BLMOVE takes from the right, so they go in from the left in
            // the order they are due.
            let mut push = redis::cmd("LPUSH");
            push.arg(READY);
            for job in &due {
                push.arg(job.id);
            }
            push.query_async::<i64>(store)
                .await
                .map_err(|e| AppError::unavailable(format!("key-value store: {e}")))?;
            Ok(due.len())
        }
    })
    .await
}

/// Claims one job handed over by the store, like the polling worker's claim: due, not failed,
/// held by no live worker; counts the attempt and starts the lease.
async fn claim(pool: &DbPool, id: i64, lease: Duration) -> AppResult<Option<Claimed>> {
    use diesel::OptionalExtension;
    let mut conn = pool.get().await?;
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    Ok(diesel::sql_query(
        "UPDATE jobs SET attempts = attempts + 1, \
                locked_until = now() + make_interval(secs => $2::double precision / 1000) \
         WHERE id = $1 AND failed_at IS NULL AND run_at <= now() \
           AND (locked_until IS NULL OR locked_until < now()) \
         RETURNING id, kind, payload, attempts, max_attempts",
    )
    .bind::<BigInt, _>(id)
    .bind::<BigInt, _>(lease_ms)
    .get_result::<Claimed>(&mut conn)
    .await
    .optional()?)
}

/// Renews this worker's heartbeat and hands dead workers' jobs back, every beat.
async fn heartbeat(client: redis::Client, pool: DbPool, worker: String, options: WorkerOptions) {
    let every = beat(&options);
    let mut conn: Option<MultiplexedConnection> = None;
    loop {
        if conn.is_none() {
            conn = connect(&client, Duration::ZERO).await.ok();
        }
        if let Some(store) = conn.as_mut()
            && let Err(e) = beat_once(store, &pool, &worker, every).await
        {
            tracing::warn!(error = %e, "job worker: heartbeat failed");
            conn = None;
        }
        tokio::time::sleep(every).await;
    }
}

async fn beat_once(
    store: &mut MultiplexedConnection,
    pool: &DbPool,
    worker: &str,
    every: Duration,
) -> redis::RedisResult<()> {
    let ttl_ms = u64::try_from((every * 3).as_millis()).unwrap_or(u64::MAX);
    redis::pipe()
        .cmd("SET")
        .arg(alive(worker))
        .arg(1)
        .arg("PX")
        .arg(ttl_ms)
        .ignore()
        .cmd("SADD")
        .arg(WORKERS)
        .arg(worker)
        .ignore()
        .query_async::<()>(store)
        .await?;
    reap(store, pool).await.map(drop)
}

/// Hands the jobs of every worker whose heartbeat has expired back to the ready list, ends
/// their leases (the worker is gone; at least once allows the repeat if it was only cut off
/// from the store), and forgets those workers. Returns how many job ids came back.
pub async fn reap(store: &mut MultiplexedConnection, pool: &DbPool) -> redis::RedisResult<usize> {
    let workers: Vec<String> = redis::cmd("SMEMBERS")
        .arg(WORKERS)
        .query_async(store)
        .await?;
    let mut returned = 0;
    for worker in workers {
        let living: bool = redis::cmd("EXISTS")
            .arg(alive(&worker))
            .query_async(store)
            .await?;
        if living {
            continue;
        }
        let list = processing(&worker);
        // The leases end before the ids are handed back: a live worker blocked on the ready
        // list takes an id the moment it arrives, and a job whose lease still runs would
        // not be claimable then; it would sit in that worker's list until the relay's next
        // pass (a whole lease later).
        let held: Vec<String> = redis::cmd("LRANGE")
            .arg(&list)
            .arg(0)
            .arg(-1)
            .query_async(store)
            .await?;
        for id in held.iter().filter_map(|id| id.parse::<i64>().ok()) {
            if let Err(e) = end_lease(pool, id).await {
                // Its lease still ends on time; the job only comes back later.
                tracing::warn!(job_id = id, error = %e.message, "a dead worker's lease was not ended");
            }
        }
        let mut back = 0;
        loop {
            let moved: Option<String> = redis::cmd("LMOVE")
                .arg(&list)
                .arg(READY)
                .arg("RIGHT")
                .arg("RIGHT")
                .query_async(store)
                .await?;
            if moved.is_none() {
                break;
            }
            back += 1;
        }
        redis::cmd("SREM")
            .arg(WORKERS)
            .arg(&worker)
            .query_async::<i64>(store)
            .await?;
        if back > 0 {
            tracing::warn!(worker = %worker, jobs = back, "a dead worker's jobs were handed back");
        }
        returned += back;
    }
    Ok(returned)
}

/// Ends the lease of a job whose worker is dead, so the next worker may claim it now.
async fn end_lease(pool: &DbPool, id: i64) -> AppResult<()> {
    let mut conn = pool.get().await?;
    diesel::sql_query("UPDATE jobs SET locked_until = NULL WHERE id = $1 AND failed_at IS NULL")
        .bind::<BigInt, _>(id)
        .execute(&mut conn)
        .await?;
    Ok(())
}
