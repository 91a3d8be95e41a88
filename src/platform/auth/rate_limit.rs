//! Rate limits keyed by client address (governor's GCRA, in memory), and the sign-in
//! throttle per (account, address), per address and per account.
//!
//! Every limit counts first and lets the request through after (governor's check is one
//! atomic step per key), so parallel requests cannot all pass a check made before their
//! failures were recorded. IPv6 clients are keyed by their /64 network: one host usually
//! owns a whole /64 and could otherwise rotate addresses at will.
//!
//! Keyed state is pruned on a timer ([`RateLimiter::retain_recent`] drops keys whose state
//! is indistinguishable from a fresh one), so a spray of distinct keys costs memory only for
//! as long as the keys matter, and never resets the throttle of another key.
//!
//! In-memory state is per process: with several API replicas each enforces its own limit.
//! The key-value store (`KVSTORE_URL`) is where shared limits go when Strata runs multi-node.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::platform::error::AppError;

/// How often keyed limiter state is pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// Longest account key kept (an e-mail address is at most 254 characters).
const MAX_ACCOUNT_KEY_BYTES: usize = 320;

/// The key a client address is counted under: IPv4 (and IPv4-mapped IPv6) as it is, other
/// IPv6 addresses by their /64 network.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The key an account is counted under: its e-mail as the login lookup sees it.
pub fn account_key(email: &str) -> String {
    let key = email.trim().to_lowercase();
    key[..key.floor_char_boundary(MAX_ACCOUNT_KEY_BYTES)].to_string()
}

fn seconds_until<K: Hash + Eq + Clone>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
) -> Result<(), u64> {
    limiter.check_key(key).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        (wait.as_secs_f64().ceil() as u64).max(1)
    })
}

/// Something whose keyed state can be pruned.
trait Prune: Send + Sync {
    fn prune(&self);
}

impl<K: Hash + Eq + Clone + Send + Sync> Prune for DefaultKeyedRateLimiter<K> {
    fn prune(&self) {
        self.retain_recent();
        self.shrink_to_fit();
    }
}

/// One "N requests per minute per client address" limit.
pub struct PerMinuteLimit {
    per_minute: u32,
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl PerMinuteLimit {
    /// A limit of `per_minute` requests a minute for each address.
    pub fn new(per_minute: u32) -> PerMinuteLimit {
        let n = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
        PerMinuteLimit {
            per_minute: n.get(),
            limiter: Arc::new(RateLimiter::keyed(Quota::per_minute(n))),
        }
    }

    /// Counts one request from `ip`; over the limit, the contract's 429 with `Retry-After`.
    pub fn check(&self, ip: IpAddr) -> Result<(), AppError> {
        seconds_until(&self.limiter, &address_key(ip)).map_err(|wait| {
            AppError::rate_limited(
                format!("Rate limit exceeded: {} per 1 minute", self.per_minute),
                wait,
            )
        })
    }

    fn prunable(&self) -> Weak<dyn Prune> {
        let weak: Weak<DefaultKeyedRateLimiter<IpAddr>> = Arc::downgrade(&self.limiter);
        weak
    }
}

/// A GCRA quota: `burst` at once, then one more every `period`.
#[derive(Debug, Clone, Copy)]
pub struct AttemptQuota {
    /// Attempts allowed at once.
    pub burst: u32,
    /// One more attempt is allowed each period.
    pub period: Duration,
}

impl AttemptQuota {
    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.period.max(Duration::from_millis(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst)
    }
}

/// The sign-in generation of each (account, address) pair (see [`LoginThrottle`]).
struct Generations {
    current: Mutex<HashMap<(String, IpAddr), (u32, Instant)>>,
    /// How long until a generation's quota has fully replenished.
    ttl: Duration,
}

impl Prune for Generations {
    fn prune(&self) {
        if let Ok(mut map) = self.current.lock() {
            map.retain(|_, (_, at)| at.elapsed() < self.ttl);
            map.shrink_to_fit();
        }
    }
}

/// The sign-in throttle. Every attempt is counted before the password is checked, against
/// three keys:
///
/// - (account, address): a handful of attempts, then one every few minutes. This is what
///   stops a guesser, and it never touches the owner signing in from elsewhere. A
///   successful sign-in renews the pair's budget, so the owner's own sign-ins never use it
///   up.
/// - address: a few dozen attempts (an office behind one NAT signs in from one address),
///   which stops one address from spraying many accounts.
/// - account: a much higher ceiling, reached only by a guesser spread over many addresses;
///   past it every attempt waits its turn (seconds, not a lockout), so the owner is slowed,
///   never locked out.
pub struct LoginThrottle {
    /// Keyed by (account, address, generation): a successful sign-in starts a new
    /// generation, so the owner's own sign-ins never use up their budget.
    by_account_and_address: Arc<DefaultKeyedRateLimiter<(String, IpAddr, u32)>>,
    /// The current generation of each (account, address) that signed in successfully, and
    /// when; only real sign-ins create entries, and they are dropped once a generation's
    /// quota has fully replenished (then generation 0 is as fresh as any).
    generations: Arc<Generations>,
    by_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    by_account: Arc<DefaultKeyedRateLimiter<String>>,
}

/// The quotas of the sign-in throttle.
#[derive(Debug, Clone, Copy)]
pub struct LoginQuotas {
    /// Per (account, address).
    pub per_account_and_address: AttemptQuota,
    /// Per address.
    pub per_address: AttemptQuota,
    /// Per account, from every address together.
    pub per_account: AttemptQuota,
}

impl Default for LoginQuotas {
    fn default() -> Self {
        LoginQuotas {
            // 5 attempts, then one every 3 minutes (5 per 15 minutes).
            per_account_and_address: AttemptQuota {
                burst: 5,
                period: Duration::from_secs(180),
            },
            // 60 attempts, then one every 10 seconds (successful sign-ins count too: an
            // office behind one NAT signs in from one address).
            per_address: AttemptQuota {
                burst: 60,
                period: Duration::from_secs(10),
            },
            // 100 attempts, then one every 6 seconds (10 a minute across all addresses).
            per_account: AttemptQuota {
                burst: 100,
                period: Duration::from_secs(6),
            },
        }
    }
}

impl LoginThrottle {
    /// A throttle with `quotas`.
    pub fn new(quotas: LoginQuotas) -> LoginThrottle {
        LoginThrottle {
            by_account_and_address: Arc::new(RateLimiter::keyed(
                quotas.per_account_and_address.quota(),
            )),
            generations: Arc::new(Generations {
                current: Mutex::default(),
                ttl: quotas
                    .per_account_and_address
                    .period
                    .saturating_mul(quotas.per_account_and_address.burst.max(1)),
            }),
            by_address: Arc::new(RateLimiter::keyed(quotas.per_address.quota())),
            by_account: Arc::new(RateLimiter::keyed(quotas.per_account.quota())),
        }
    }

    /// Counts one sign-in attempt for `account` from `ip`. `Err(seconds)` when a limit is
    /// reached: the attempt must not reach the password check.
    ///
    /// The address is counted first, so one address spraying accounts spends only its own
    /// budget and creates no per-account state past it.
    pub fn attempt(&self, account: &str, ip: IpAddr) -> Result<(), u64> {
        let address = address_key(ip);
        seconds_until(&self.by_address, &address)?;
        let generation = self.generation(account, address);
        seconds_until(
            &self.by_account_and_address,
            &(account.to_string(), address, generation),
        )?;
        seconds_until(&self.by_account, &account.to_string())
    }

    /// Counts one attempt from a device that signed in to `account` before (it carries the
    /// signed device cookie, OWASP's "device cookies"): the per-address and per-(account,
    /// address) budgets apply, the per-account slow-down does not, so a storm of wrong
    /// passwords from many addresses cannot keep the owner out.
    pub fn attempt_from_known_device(&self, account: &str, ip: IpAddr) -> Result<(), u64> {
        let address = address_key(ip);
        seconds_until(&self.by_address, &address)?;
        let generation = self.generation(account, address);
        seconds_until(
            &self.by_account_and_address,
            &(account.to_string(), address, generation),
        )
    }

    /// Records a successful sign-in: the (account, address) pair starts with a full budget
    /// again. The per-address and per-account limits are not reset.
    pub fn succeeded(&self, account: &str, ip: IpAddr) {
        if let Ok(mut map) = self.generations.current.lock() {
            let entry = map
                .entry((account.to_string(), address_key(ip)))
                .or_insert((0, Instant::now()));
            *entry = (entry.0.wrapping_add(1), Instant::now());
        }
    }

    fn generation(&self, account: &str, address: IpAddr) -> u32 {
        self.generations
            .current
            .lock()
            .ok()
            .and_then(|map| map.get(&(account.to_string(), address)).map(|g| g.0))
            .unwrap_or(0)
    }

    fn prunables(&self) -> Vec<Weak<dyn Prune>> {
        let a: Weak<DefaultKeyedRateLimiter<(String, IpAddr, u32)>> =
            Arc::downgrade(&self.by_account_and_address);
        let b: Weak<DefaultKeyedRateLimiter<IpAddr>> = Arc::downgrade(&self.by_address);
        let c: Weak<DefaultKeyedRateLimiter<String>> = Arc::downgrade(&self.by_account);
        let d: Weak<Generations> = Arc::downgrade(&self.generations);
        vec![a, b, c, d]
    }

    /// How many keys the throttle currently holds (all three limiters).
    pub fn tracked_keys(&self) -> usize {
        self.by_account_and_address.len() + self.by_address.len() + self.by_account.len()
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
    /// Sign-in attempts.
    pub login: LoginThrottle,
}

impl RateLimits {
    /// Limits with the given sign-in quotas (the per-minute limits are fixed by the spec).
    pub fn with_login_quotas(quotas: LoginQuotas) -> RateLimits {
        let limits = RateLimits {
            initial_admin: PerMinuteLimit::new(3),
            reset_request: PerMinuteLimit::new(3),
            reset_review: PerMinuteLimit::new(10),
            refresh: PerMinuteLimit::new(10),
            login: LoginThrottle::new(quotas),
        };
        limits.spawn_pruner();
        limits
    }

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

    /// Drops stale keys now (the timer does this every minute).
    pub fn prune(&self) {
        for limiter in self.prunables().iter().filter_map(Weak::upgrade) {
            limiter.prune();
        }
    }

    fn prunables(&self) -> Vec<Weak<dyn Prune>> {
        let mut all = vec![
            self.initial_admin.prunable(),
            self.reset_request.prunable(),
            self.reset_review.prunable(),
            self.refresh.prunable(),
        ];
        all.extend(self.login.prunables());
        all
    }

    /// Prunes every limiter each minute on the current Tokio runtime (none outside one). The
    /// task holds weak references only and ends when the limits are dropped.
    fn spawn_pruner(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let limiters = self.prunables();
        runtime.spawn(async move {
            let mut tick = tokio::time::interval(PRUNE_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                let live: Vec<Arc<dyn Prune>> = limiters.iter().filter_map(Weak::upgrade).collect();
                if live.len() < limiters.len() {
                    return;
                }
                for limiter in live {
                    limiter.prune();
                }
            }
        });
    }
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits::with_login_quotas(LoginQuotas::default())
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
    fn ipv6_is_keyed_by_its_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().expect("ip");
        let other: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(other));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().expect("ip");
        assert_eq!(
            address_key(mapped),
            "192.0.2.7".parse::<IpAddr>().expect("ip")
        );

        let limit = PerMinuteLimit::new(1);
        assert!(limit.check(a).is_ok());
        assert!(limit.check(b).is_err(), "same /64, same budget");
        assert!(limit.check(other).is_ok());
    }

    fn small() -> LoginQuotas {
        LoginQuotas {
            per_account_and_address: AttemptQuota {
                burst: 2,
                period: Duration::from_secs(600),
            },
            per_address: AttemptQuota {
                burst: 5,
                period: Duration::from_secs(600),
            },
            per_account: AttemptQuota {
                burst: 4,
                period: Duration::from_secs(600),
            },
        }
    }

    #[test]
    fn login_throttle_is_per_account_and_address_first() {
        let t = LoginThrottle::new(small());
        let attacker: IpAddr = "198.51.100.1".parse().expect("ip");
        let owner: IpAddr = "203.0.113.5".parse().expect("ip");
        assert!(t.attempt("a@x", attacker).is_ok());
        assert!(t.attempt("a@x", attacker).is_ok());
        let wait = t.attempt("a@x", attacker).expect_err("third is throttled");
        assert!(wait >= 1);
        assert!(
            t.attempt("a@x", owner).is_ok(),
            "the owner elsewhere is not"
        );
        assert!(t.attempt("b@x", attacker).is_ok(), "another account is not");
    }

    #[test]
    fn a_known_device_is_not_slowed_by_a_storm_on_its_account() {
        let t = LoginThrottle::new(small());
        for i in 0..4u8 {
            let ip = IpAddr::from(std::net::Ipv4Addr::new(198, 51, 100, i));
            assert!(t.attempt("a@x", ip).is_ok());
        }
        let stranger: IpAddr = "192.0.2.9".parse().expect("ip");
        assert!(t.attempt("a@x", stranger).is_err(), "the account is slowed");
        let owner: IpAddr = "203.0.113.5".parse().expect("ip");
        assert!(t.attempt_from_known_device("a@x", owner).is_ok());
        assert!(t.attempt_from_known_device("a@x", owner).is_ok());
        assert!(
            t.attempt_from_known_device("a@x", owner).is_err(),
            "its own pair's budget still holds"
        );
    }

    #[test]
    fn a_successful_sign_in_renews_only_its_own_pair() {
        let t = LoginThrottle::new(small());
        let office: IpAddr = "192.0.2.50".parse().expect("ip");
        assert!(t.attempt("a@x", office).is_ok());
        assert!(t.attempt("a@x", office).is_ok());
        t.succeeded("a@x", office);
        assert!(
            t.attempt("a@x", office).is_ok(),
            "a fresh budget after signing in"
        );
        assert!(t.attempt("a@x", office).is_ok());
        assert!(t.attempt("a@x", office).is_err());
        t.succeeded("b@x", office);
        assert!(
            t.attempt("a@x", office).is_err(),
            "another account's success is not ours"
        );
    }

    #[test]
    fn a_key_spray_never_resets_another_key() {
        let t = LoginThrottle::new(small());
        let attacker: IpAddr = "198.51.100.1".parse().expect("ip");
        assert!(t.attempt("victim@x", attacker).is_ok());
        assert!(t.attempt("victim@x", attacker).is_ok());
        for i in 0..2000u32 {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            let _ = t.attempt(&format!("spray{i}@x"), ip);
        }
        assert!(
            t.tracked_keys() > 2000,
            "every sprayed key is tracked, none evicted"
        );
        for limiter in t.prunables().iter().filter_map(Weak::upgrade) {
            limiter.prune();
        }
        assert!(
            t.attempt("victim@x", attacker).is_err(),
            "still throttled after the spray and a prune"
        );
    }

    #[test]
    fn the_account_ceiling_catches_a_distributed_guesser() {
        let t = LoginThrottle::new(small());
        for i in 0..4u8 {
            assert!(t.attempt("a@x", IpAddr::from([192, 0, 2, i])).is_ok());
        }
        assert!(t.attempt("a@x", IpAddr::from([192, 0, 2, 99])).is_err());
    }
}
