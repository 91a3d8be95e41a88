//! The database's current snapshot (`pg_current_snapshot()`), read once for every request
//! that asks at about the same time.
//!
//! What a caller gets is a snapshot taken *after* its call began: it names a state that
//! includes every commit made before the caller arrived, which is all a read needs to be
//! current. Calls that overlap share one statement: while one caller reads, the others wait
//! for it; each then takes the shared answer if that statement started after it arrived, or
//! reads again itself. Statements are numbered as they start, which is how "after" is told.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::DbPool;

/// Shares snapshot reads between concurrent callers. Cheap to clone.
#[derive(Clone, Default)]
pub struct SnapshotReader {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    /// How many reads have started.
    started: AtomicU64,
    /// Held by the caller that reads; the others queue on it.
    reading: tokio::sync::Mutex<()>,
    /// The newest read: its number and its snapshot (`None`: the database did not answer).
    latest: std::sync::Mutex<(u64, Option<Arc<str>>)>,
}

impl SnapshotReader {
    /// A snapshot taken after this call began, or `None` when the database cannot be read
    /// (the caller then goes the ordinary way, which reports the outage).
    pub async fn current(&self, pool: &DbPool) -> Option<Arc<str>> {
        // Reads numbered up to this one may have started before we arrived.
        let need = self.inner.started.load(Ordering::SeqCst) + 1;
        if let Some(shared) = self.shared_since(need) {
            return shared;
        }
        // A reader that was cancelled mid-read releases the lock without an answer; the next
        // in the queue then reads itself.
        let _reading = self.inner.reading.lock().await;
        if let Some(shared) = self.shared_since(need) {
            return shared;
        }
        let number = self.inner.started.fetch_add(1, Ordering::SeqCst) + 1;
        let snapshot = read(pool).await;
        if let Ok(mut latest) = self.inner.latest.lock() {
            *latest = (number, snapshot.clone());
        }
        snapshot
    }

    /// The newest read's answer when that read is number `need` or later.
    fn shared_since(&self, need: u64) -> Option<Option<Arc<str>>> {
        let latest = self.inner.latest.lock().ok()?;
        (latest.0 >= need).then(|| latest.1.clone())
    }
}

diesel::define_sql_function! {
    /// `pg_current_snapshot()` as text (migration `2026-12-02-110000_current_snapshot`): a
    /// function, so statements that read it stay prepared.
    fn strata_current_snapshot() -> Text;
}

async fn read(pool: &DbPool) -> Option<Arc<str>> {
    // Here only: its `load` would shadow the atomics' above.
    use diesel_async::RunQueryDsl;
    let mut conn = pool.get().await.ok()?;
    let snapshot: String = diesel::select(strata_current_snapshot())
        .get_result(&mut conn)
        .await
        .ok()?;
    Some(snapshot.into())
}
