//! Passwords: argon2id hashing off the async threads, constant-effort verification, and
//! the strength rules of spec 5.5 with the messages of CONTRACT section 2.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::{AppError, AppResult};

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

/// Hashes a password with argon2id on a blocking thread.
pub async fn hash(password: &str) -> AppResult<String> {
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
pub async fn verify(password: &str, stored: Option<&str>) -> bool {
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
    .unwrap_or(false)
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
        assert!(verify("Sup3r-secret", Some(&h)).await);
        assert!(!verify("wrong", Some(&h)).await);
        assert!(!verify("Sup3r-secret", None).await);
        assert!(!verify("x", Some("garbage")).await);
    }
}
