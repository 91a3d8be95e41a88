//! Rate limits keyed by client address (governor's GCRA, in memory), and the failed-login
//! throttle per address and per account.
//!
//! In-memory state is per process: with several API replicas each enforces its own limit.
//! The key-value store (`KVSTORE_URL`) is where shared limits go when Strata runs multi-node.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::AppError;

/// One "N requests per minute per client IP" limit.
pub struct PerMinuteLimit {
    per_minute: u32,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
}

impl PerMinuteLimit {
    /// A limit of `per_minute` requests a minute for each address.
    pub fn new(per_minute: u32) -> PerMinuteLimit {
        let n = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        PerMinuteLimit {
            per_minute: n.get(),
            limiter: RateLimiter::keyed(Quota::per_minute(n)),
        }
    }

    /// Counts one request from `ip`; over the limit, the contract's 429 with `Retry-After`.
    pub fn check(&self, ip: IpAddr) -> Result<(), AppError> {
        self.limiter.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            AppError::rate_limited(
                format!("Rate limit exceeded: {} per 1 minute", self.per_minute),
                wait.as_secs_f64().ceil() as u64,
            )
        })
    }
}

/// Counts failed logins in a sliding window, by key (an address or an e-mail).
pub struct FailureThrottle {
    max_failures: usize,
    window: Duration,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl FailureThrottle {
    /// At most `max_failures` failures per `window` for each key.
    pub fn new(max_failures: usize, window: Duration) -> FailureThrottle {
        FailureThrottle {
            max_failures,
            window,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// Seconds until `key` may try again, when it is blocked now.
    pub fn blocked_for(&self, key: &str) -> Option<u64> {
        let now = Instant::now();
        let mut map = self.failures.lock().ok()?;
        let entries = map.get_mut(key)?;
        while entries
            .front()
            .is_some_and(|t| now.duration_since(*t) > self.window)
        {
            entries.pop_front();
        }
        if entries.len() >= self.max_failures {
            let oldest = *entries.front()?;
            let wait = self.window.saturating_sub(now.duration_since(oldest));
            Some(wait.as_secs().max(1))
        } else {
            None
        }
    }

    /// Records a failure for `key`.
    pub fn record_failure(&self, key: &str) {
        if let Ok(mut map) = self.failures.lock() {
            // Bound memory under a spray of distinct keys.
            if map.len() > 100_000 {
                map.clear();
            }
            map.entry(key.to_string())
                .or_default()
                .push_back(Instant::now());
        }
    }

    /// Forgets the failures of `key` (after a successful login).
    pub fn clear(&self, key: &str) {
        if let Ok(mut map) = self.failures.lock() {
            map.remove(key);
        }
    }
}

/// Every limit of the service, shared by all requests of a process.
pub struct RateLimits {
    /// `POST /setup/initial-admin`: 3 a minute per address (spec 8).
    pub initial_admin: PerMinuteLimit,
    /// Password-reset requests: 3 a minute per address.
    pub reset_request: PerMinuteLimit,
    /// Approve and deny: 10 a minute per address.
    pub reset_review: PerMinuteLimit,
    /// Token refresh: 10 a minute per address.
    pub refresh: PerMinuteLimit,
    /// Failed logins per address: 10 in 15 minutes.
    pub login_failures_by_ip: FailureThrottle,
    /// Failed logins per account: 5 in 15 minutes.
    pub login_failures_by_account: FailureThrottle,
}

impl RateLimits {
    /// A per-minute limit by its name (what REST route declarations refer to).
    pub fn named(&self, name: &str) -> Option<&PerMinuteLimit> {
        match name {
            "initial_admin" => Some(&self.initial_admin),
            "reset_request" => Some(&self.reset_request),
            "reset_review" => Some(&self.reset_review),
            "refresh" => Some(&self.refresh),
            _ => None,
        }
    }
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            initial_admin: PerMinuteLimit::new(3),
            reset_request: PerMinuteLimit::new(3),
            reset_review: PerMinuteLimit::new(10),
            refresh: PerMinuteLimit::new(10),
            login_failures_by_ip: FailureThrottle::new(10, Duration::from_secs(15 * 60)),
            login_failures_by_account: FailureThrottle::new(5, Duration::from_secs(15 * 60)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_per_minute_then_429_with_retry_after() {
        let limit = PerMinuteLimit::new(3);
        let ip: IpAddr = "192.0.2.1".parse().expect("ip");
        for _ in 0..3 {
            assert!(limit.check(ip).is_ok());
        }
        let err = limit.check(ip).expect_err("fourth is refused");
        assert_eq!(err.message, "Rate limit exceeded: 3 per 1 minute");
        assert!(err.retry_after.is_some_and(|s| (1..=60).contains(&s)));
        assert!(
            limit.check("192.0.2.2".parse().expect("ip")).is_ok(),
            "per address"
        );
    }

    #[test]
    fn failure_throttle_blocks_after_the_limit_and_clears() {
        let t = FailureThrottle::new(2, Duration::from_secs(60));
        assert!(t.blocked_for("a").is_none());
        t.record_failure("a");
        t.record_failure("a");
        assert!(t.blocked_for("a").is_some());
        assert!(t.blocked_for("b").is_none());
        t.clear("a");
        assert!(t.blocked_for("a").is_none());
    }
}
