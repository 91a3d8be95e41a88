//! JSON Web Tokens (HS256, CONTRACT 1.4) and opaque random tokens.

use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{AppError, AppResult};

/// Refresh tokens live seven days.
pub const REFRESH_TOKEN_TTL: chrono::Duration = chrono::Duration::days(7);

/// Which kind of token a JWT is; an access token cannot refresh and a refresh token cannot
/// call APIs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenType {
    /// Calls the API.
    Access,
    /// Obtains a new token pair.
    Refresh,
}

/// The claims of both token kinds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user id, as a string.
    pub sub: String,
    /// access or refresh.
    #[serde(rename = "type")]
    pub token_type: TokenType,
    /// Expiry (seconds since the epoch).
    pub exp: i64,
    /// Issued at (seconds since the epoch).
    pub iat: i64,
    /// A unique id (UUID4).
    pub jti: String,
    /// The user's session version when issued; a password reset bumps it, which ends every
    /// session at once, access tokens included.
    pub sv: i32,
}

/// Signs and checks tokens with the configured `SECRET_KEY`.
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl TokenKeys {
    /// Keys from the hexadecimal secret (its bytes are the HMAC key).
    pub fn new(secret_hex: &str) -> TokenKeys {
        let bytes = hex::decode(secret_hex).unwrap_or_else(|_| secret_hex.as_bytes().to_vec());
        TokenKeys {
            encoding: EncodingKey::from_secret(&bytes),
            decoding: DecodingKey::from_secret(&bytes),
        }
    }

    /// Issues a token of `token_type` for `user_id`, valid for `ttl`.
    pub fn issue(
        &self,
        user_id: i64,
        session_version: i32,
        token_type: TokenType,
        ttl: chrono::Duration,
    ) -> AppResult<String> {
        let now = chrono::Utc::now();
        let claims = Claims {
            sub: user_id.to_string(),
            token_type,
            exp: (now + ttl).timestamp(),
            iat: now.timestamp(),
            jti: uuid::Uuid::new_v4().to_string(),
            sv: session_version,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(AppError::internal)
    }

    /// Checks signature, expiry and kind; `None` for anything invalid.
    pub fn verify(&self, token: &str, expected: TokenType) -> Option<Claims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).ok()?;
        (data.claims.token_type == expected).then_some(data.claims)
    }
}

/// 32 random bytes, URL-safe base64 without padding (43 characters).
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// SHA-256 of a token as lowercase hex: what the database stores instead of the token.
pub fn sha256_hex(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn issue_and_verify() {
        let keys = TokenKeys::new(KEY);
        let t = keys
            .issue(7, 0, TokenType::Access, chrono::Duration::minutes(5))
            .expect("issue");
        let c = keys.verify(&t, TokenType::Access).expect("valid");
        assert_eq!(c.sub, "7");
        assert!(uuid::Uuid::parse_str(&c.jti).is_ok());
        assert!(keys.verify(&t, TokenType::Refresh).is_none(), "wrong kind");
        assert!(
            TokenKeys::new(&KEY.replace('0', "1"))
                .verify(&t, TokenType::Access)
                .is_none()
        );
        let expired = keys
            .issue(7, 0, TokenType::Access, chrono::Duration::seconds(-5))
            .expect("issue");
        assert!(keys.verify(&expired, TokenType::Access).is_none());
    }

    #[test]
    fn random_tokens_are_unique_and_hashed() {
        let a = random_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, random_token());
        assert_eq!(sha256_hex("abc").len(), 64);
    }
}
