//! Finished answers, and a process's cache of the answers to signed-in reads, exact to the
//! database snapshot.
//!
//! **Why it is exact.** Resolving a signed-in viewer is one statement per request anyway (the
//! session must still be live); that statement also returns `pg_current_snapshot()`. A
//! snapshot is the database's committed state by name: two snapshots are equal only when no
//! transaction committed between them (a commit either leaves the in-progress list or was
//! given an id at or past `xmax`, so either part changes). An answer is stored under the
//! snapshot read *before* its data was read, and served only to a request whose own snapshot
//! is identical: the same credential, the same operation and variables, on the same database
//! state. Any write anywhere, by this process, another replica, a job or `psql`, changes the
//! snapshot, so nothing is invalidated by hand and no replica can serve another's stale data.
//! A read that itself writes (an audit row) is never served from here either: its own commit
//! changes the snapshot.
//!
//! **What else an answer may depend on** is the clock (`now()`: due, overdue, expired) and the
//! odd in-memory fact; an entry lives at most [`TTL`], so such answers are at most that old.
//! The key is the access token itself (not only the user): an answer that names the caller's
//! own session is never shared between two sessions of one user.
//!
//! Busy databases mostly miss (every commit changes the snapshot), which costs one hash lookup;
//! quiet ones (dashboards, lists paged through, reports re-run) answer without running the
//! operation at all. Entries are weighed by their bytes, within `RESPONSE_CACHE_MB`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// How long an entry may be served, however quiet the database: bounds how old a
/// clock-dependent answer can be.
pub const TTL: Duration = Duration::from_secs(1);

/// Answers larger than this are not kept (a full export page would evict everything else).
const MAX_ENTRY_BYTES: usize = 1 << 20;

/// A finished answer before it becomes an HTTP response (what idempotent replays and the
/// answer cache store).
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status.
    pub status: StatusCode,
    /// The body (empty for 204).
    pub body: Bytes,
    /// The content type of the body.
    pub content_type: &'static str,
    /// Headers set by resolvers (cookies) and the engine (`Location`).
    pub headers: HeaderMap,
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let mut response = if self.status == StatusCode::NO_CONTENT {
            self.status.into_response()
        } else {
            (
                self.status,
                [(header::CONTENT_TYPE, self.content_type)],
                self.body,
            )
                .into_response()
        };
        for (name, value) in &self.headers {
            response.headers_mut().append(name.clone(), value.clone());
        }
        response
    }
}

/// What an answer is the answer to: one credential's one operation with its variables.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AnswerKey {
    /// The access token the request was authenticated with.
    credential: Box<str>,
    /// The operation and its variables, unambiguously joined.
    request: Box<str>,
}

impl AnswerKey {
    /// The key of `request` (an operation and its variables, written so that no two differ
    /// only in where one part ends) asked with `credential`.
    pub fn new(credential: &str, request: String) -> AnswerKey {
        AnswerKey {
            credential: credential.into(),
            request: request.into_boxed_str(),
        }
    }
}

#[derive(Clone)]
struct Entry {
    snapshot: Arc<str>,
    stored: Instant,
    answer: Answer,
}

#[derive(Clone)]
struct ByBytes;

impl quick_cache::Weighter<AnswerKey, Entry> for ByBytes {
    fn weight(&self, key: &AnswerKey, entry: &Entry) -> u64 {
        (key.credential.len() + key.request.len() + entry.answer.body.len() + 256) as u64
    }
}

/// The process's answers to signed-in reads (see the module documentation). Cheap to clone.
#[derive(Clone)]
pub struct AnswerCache {
    entries: Option<Arc<quick_cache::sync::Cache<AnswerKey, Entry, ByBytes>>>,
}

impl AnswerCache {
    /// A cache of at most `megabytes` (0: nothing is ever kept).
    pub fn new(megabytes: u64) -> AnswerCache {
        let bytes = megabytes.saturating_mul(1 << 20);
        AnswerCache {
            entries: (bytes > 0).then(|| {
                // About 4 kB per answer is a 50-row page; the estimate only sizes the table.
                let estimate = usize::try_from(bytes / 4096).unwrap_or(usize::MAX).max(16);
                Arc::new(quick_cache::sync::Cache::with_weighter(
                    estimate, bytes, ByBytes,
                ))
            }),
        }
    }

    /// True when answers are kept at all (`RESPONSE_CACHE_MB` above 0): callers skip building
    /// a key otherwise.
    pub fn is_on(&self) -> bool {
        self.entries.is_some()
    }

    /// The stored answer to `key`, when it was read at exactly `snapshot` less than [`TTL`] ago.
    pub fn get(&self, key: &AnswerKey, snapshot: &str) -> Option<Answer> {
        let entry = self.entries.as_ref()?.get(key)?;
        (*entry.snapshot == *snapshot && entry.stored.elapsed() < TTL).then_some(entry.answer)
    }

    /// Keeps a successful answer read at `snapshot` (errors and large bodies are not kept).
    pub fn put(&self, key: AnswerKey, snapshot: &str, answer: &Answer) {
        let Some(entries) = &self.entries else { return };
        if answer.status != StatusCode::OK || answer.body.len() > MAX_ENTRY_BYTES {
            return;
        }
        entries.insert(
            key,
            Entry {
                snapshot: snapshot.into(),
                stored: Instant::now(),
                answer: answer.clone(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(body: &'static str) -> Answer {
        Answer {
            status: StatusCode::OK,
            body: Bytes::from_static(body.as_bytes()),
            content_type: "application/json",
            headers: HeaderMap::new(),
        }
    }

    #[test]
    fn an_answer_is_served_only_at_the_snapshot_it_was_read_at() {
        let cache = AnswerCache::new(1);
        let key = AnswerKey::new("token", "GET /items\n{}".into());
        cache.put(key.clone(), "10:12:", &ok("[1]"));
        assert_eq!(
            cache.get(&key, "10:12:").map(|a| a.body),
            Some(Bytes::from_static(b"[1]"))
        );
        assert!(cache.get(&key, "10:13:").is_none(), "a commit happened");
        assert!(
            cache
                .get(&AnswerKey::new("other", "GET /items\n{}".into()), "10:12:")
                .is_none(),
            "another credential"
        );
    }

    #[test]
    fn errors_and_a_disabled_cache_keep_nothing() {
        let key = AnswerKey::new("token", "GET /items\n{}".into());
        let cache = AnswerCache::new(1);
        let mut missing = ok("{}");
        missing.status = StatusCode::NOT_FOUND;
        cache.put(key.clone(), "1:1:", &missing);
        assert!(cache.get(&key, "1:1:").is_none());
        let off = AnswerCache::new(0);
        off.put(key.clone(), "1:1:", &ok("[]"));
        assert!(off.get(&key, "1:1:").is_none());
    }
}
