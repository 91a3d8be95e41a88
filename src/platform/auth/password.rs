//! Passwords: argon2id hashing off the async threads, constant-effort verification, and
//! the strength rules of spec 5.5 with the messages of CONTRACT section 2.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::platform::error::{AppError, AppResult};

/// Characters that count as "special" (CONTRACT 2).
pub const SPECIAL_CHARACTERS: &str = "!@#$%^&*(),.?\":{}|<>_-+=[]\\/`~';";

/// Longest password accepted (argon2 takes any length; this bounds the work per request).
pub const MAX_PASSWORD_LEN: usize = 128;

fn argon2() -> Argon2<'static> {
    // OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Checks the strength rules in the contract's order; the first failing rule's message.
pub fn check_strength(password: &str) -> Result<(), &'static str> {
    if password.chars().count() < 8 {
        return Err("Password must be at least 8 characters");
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err("Password must be at most 128 characters");
    }
    if !password.chars().any(|c| c.is_ascii_uppercase()) {
        return Err("Password must contain at least one uppercase letter");
    }
    if !password.chars().any(|c| c.is_ascii_lowercase()) {
        return Err("Password must contain at least one lowercase letter");
    }
    if !password.chars().any(|c| c.is_ascii_digit()) {
        return Err("Password must contain at least one number");
    }
    if !password.chars().any(|c| SPECIAL_CHARACTERS.contains(c)) {
        return Err("Password must contain at least one special character (!@#$%^&*etc)");
    }
    Ok(())
}

/// How long a hash or verification waits for a free slot before the request is answered
/// 503: long enough to ride out a burst, short enough that a flood does not queue.
pub const PASSWORD_WORK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The message of the 503 a request gets when every password slot stays busy.
pub const PASSWORD_BUSY: &str = "The server is busy checking passwords; please retry shortly";

/// Bounds concurrent argon2 work. Each hash holds 19 MiB and a core for about 50 ms;
/// without a cap, a burst of sign-ins would queue on the blocking pool without bound and
/// take memory and every core with it.
pub struct PasswordGate {
    slots: Semaphore,
    wait: std::time::Duration,
}

impl PasswordGate {
    /// A gate of `slots` concurrent hashes; callers wait at most `wait` for one.
    pub fn new(slots: usize, wait: std::time::Duration) -> PasswordGate {
        PasswordGate {
            slots: Semaphore::new(slots.max(1)),
            wait,
        }
    }

    /// A slot, or 503 with `Retry-After` when none frees up in time.
    pub async fn enter(&self) -> AppResult<SemaphorePermit<'_>> {
        match tokio::time::timeout(self.wait, self.slots.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => {
                tracing::warn!(
                    "every password hashing slot stayed busy; answering 503 instead of queueing"
                );
                Err(AppError {
                    retry_after: Some(1),
                    ..AppError::unavailable(PASSWORD_BUSY)
                })
            }
        }
    }

    /// Takes every slot (tests use this to simulate a server at capacity).
    pub async fn occupy_all(&self, slots: u32) -> Option<SemaphorePermit<'_>> {
        self.slots.acquire_many(slots).await.ok()
    }
}

/// The process-wide gate: one slot per core (at least two), since argon2 is CPU-bound.
pub fn gate() -> &'static PasswordGate {
    static GATE: std::sync::OnceLock<PasswordGate> = std::sync::OnceLock::new();
    GATE.get_or_init(|| PasswordGate::new(gate_slots(), PASSWORD_WORK_WAIT))
}

/// How many hashes may run at once.
pub fn gate_slots() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(2)
        .max(2)
}

/// Hashes a password with argon2id on a blocking thread (at most [`gate_slots`] at once; 503
/// when no slot frees up in time).
pub async fn hash(password: &str) -> AppResult<String> {
    let _slot = gate().enter().await?;
    let password = password.to_owned();
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _entered = span.enter();
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        argon2()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(AppError::internal)
    })
    .await
    .map_err(AppError::internal)?
}

/// Verifies a password against a stored hash on a blocking thread. With no stored hash (an
/// unknown e-mail) it verifies against a fixed dummy hash so both cases take the same time.
/// Shares the gate of [`hash`]: 503 when no slot frees up in time.
pub async fn verify(password: &str, stored: Option<&str>) -> AppResult<bool> {
    let _slot = gate().enter().await?;
    let password = password.to_owned();
    let stored = stored.map(str::to_owned);
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _entered = span.enter();
        let dummy;
        let hash_text = match &stored {
            Some(h) => h.as_str(),
            None => {
                dummy = dummy_hash();
                dummy.as_str()
            }
        };
        let matched = PasswordHash::new(hash_text)
            .map(|parsed| {
                argon2()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false);
        matched && stored.is_some()
    })
    .await
    .map_err(AppError::internal)
}

fn dummy_hash() -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| {
            let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
            argon2()
                .hash_password(b"not-a-real-password-Aa1!", &salt)
                .map(|h| h.to_string())
                .unwrap_or_default()
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_in_contract_order() {
        assert_eq!(
            check_strength("Aa1!"),
            Err("Password must be at least 8 characters")
        );
        assert_eq!(
            check_strength("abcdefg1!"),
            Err("Password must contain at least one uppercase letter")
        );
        assert_eq!(
            check_strength("ABCDEFG1!"),
            Err("Password must contain at least one lowercase letter")
        );
        assert_eq!(
            check_strength("Abcdefgh!"),
            Err("Password must contain at least one number")
        );
        assert_eq!(
            check_strength("Abcdefgh1"),
            Err("Password must contain at least one special character (!@#$%^&*etc)")
        );
        assert_eq!(check_strength("Abcdefg1!"), Ok(()));
    }

    #[tokio::test]
    async fn hash_and_verify() {
        let h = hash("Sup3r-secret").await.expect("hash");
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("Sup3r-secret", Some(&h)).await.expect("verify"));
        assert!(!verify("wrong", Some(&h)).await.expect("verify"));
        assert!(!verify("Sup3r-secret", None).await.expect("verify"));
        assert!(!verify("x", Some("garbage")).await.expect("verify"));
    }

    #[tokio::test]
    async fn a_full_gate_answers_503_with_retry_after_after_a_short_wait() {
        let gate = PasswordGate::new(2, std::time::Duration::from_millis(50));
        let held = gate.occupy_all(2).await.expect("both slots");
        let err = gate.enter().await.expect_err("no slot");
        assert_eq!(err.code, crate::platform::error::ErrorCode::Unavailable);
        assert_eq!(err.retry_after, Some(1));
        drop(held);
        assert!(gate.enter().await.is_ok(), "a freed slot is taken at once");
    }
}
