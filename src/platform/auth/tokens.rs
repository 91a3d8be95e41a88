//! JSON Web Tokens (HS256, CONTRACT 1.4) and opaque random tokens.

use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::platform::error::{AppError, AppResult};

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
    /// The session (refresh-token family) the token belongs to; logging out revokes the
    /// family, which ends its access tokens too. Tokens without one are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<uuid::Uuid>,
}

/// Signs and checks tokens with the configured `SECRET_KEY`.
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    /// The raw key, for deriving successor token ids (HMAC-SHA256).
    secret: std::sync::Arc<[u8]>,
}

impl TokenKeys {
    /// Keys from the hexadecimal secret (its bytes are the HMAC key).
    pub fn new(secret_hex: &str) -> TokenKeys {
        let bytes = hex::decode(secret_hex).unwrap_or_else(|_| secret_hex.as_bytes().to_vec());
        TokenKeys {
            encoding: EncodingKey::from_secret(&bytes),
            decoding: DecodingKey::from_secret(&bytes),
            secret: bytes.into(),
        }
    }

    /// Issues a token of `token_type` for `user_id` in session `session_id`, valid for `ttl`.
    pub fn issue(
        &self,
        user_id: i64,
        session_version: i32,
        session_id: uuid::Uuid,
        token_type: TokenType,
        ttl: chrono::Duration,
    ) -> AppResult<String> {
        let now = chrono::Utc::now();
        self.encode(&Claims {
            sub: user_id.to_string(),
            token_type,
            exp: (now + ttl).timestamp(),
            iat: now.timestamp(),
            jti: uuid::Uuid::new_v4().to_string(),
            sv: session_version,
            sid: Some(session_id),
        })
    }

    /// The refresh token that replaces `predecessor`, issued at `issued_at` (whole seconds
    /// since the epoch). Deterministic: the same predecessor and instant always give the
    /// same token (its id is an HMAC of the predecessor under the secret), so two callers
    /// racing with one refresh token can both be handed the one successor.
    pub fn successor_refresh(
        &self,
        raw_predecessor: &str,
        user_id: i64,
        session_version: i32,
        session_id: uuid::Uuid,
        issued_at: i64,
    ) -> AppResult<String> {
        use hmac::Mac;
        let mut mac =
            hmac::Hmac::<Sha256>::new_from_slice(&self.secret).map_err(AppError::internal)?;
        mac.update(b"strata-refresh-successor\0");
        mac.update(raw_predecessor.as_bytes());
        let digest = mac.finalize().into_bytes();
        let mut id = [0u8; 16];
        id.copy_from_slice(&digest[..16]);
        self.encode(&Claims {
            sub: user_id.to_string(),
            token_type: TokenType::Refresh,
            exp: issued_at + REFRESH_TOKEN_TTL.num_seconds(),
            iat: issued_at,
            jti: uuid::Builder::from_random_bytes(id).into_uuid().to_string(),
            sv: session_version,
            sid: Some(session_id),
        })
    }

    fn device_mac(&self, account: &str, nonce: &str) -> AppResult<hmac::Hmac<Sha256>> {
        use hmac::Mac;
        let mut mac =
            hmac::Hmac::<Sha256>::new_from_slice(&self.secret).map_err(AppError::internal)?;
        mac.update(b"strata-device\0");
        mac.update(account.as_bytes());
        mac.update(b"\0");
        mac.update(nonce.as_bytes());
        Ok(mac)
    }

    /// A device cookie's value for `account`: `<nonce>.<HMAC of account and nonce>`. A
    /// device that signed in successfully carries it; see [`TokenKeys::is_device_of`].
    pub fn device_token(&self, account: &str) -> AppResult<String> {
        use hmac::Mac;
        let nonce = random_token();
        let tag = self.device_mac(account, &nonce)?.finalize().into_bytes();
        Ok(format!(
            "{nonce}.{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(tag)
        ))
    }

    /// Whether `value` is a device cookie this server issued for `account` (compared in
    /// constant time).
    pub fn is_device_of(&self, value: &str, account: &str) -> bool {
        use hmac::Mac;
        let Some((nonce, tag)) = value.split_once('.') else {
            return false;
        };
        let Ok(tag) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(tag) else {
            return false;
        };
        self.device_mac(account, nonce)
            .is_ok_and(|mac| mac.verify_slice(&tag).is_ok())
    }

    fn encode(&self, claims: &Claims) -> AppResult<String> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
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
        let sid = uuid::Uuid::new_v4();
        let t = keys
            .issue(7, 0, sid, TokenType::Access, chrono::Duration::minutes(5))
            .expect("issue");
        let c = keys.verify(&t, TokenType::Access).expect("valid");
        assert_eq!(c.sub, "7");
        assert_eq!(c.sid, Some(sid));
        assert!(uuid::Uuid::parse_str(&c.jti).is_ok());
        assert!(keys.verify(&t, TokenType::Refresh).is_none(), "wrong kind");
        assert!(
            TokenKeys::new(&KEY.replace('0', "1"))
                .verify(&t, TokenType::Access)
                .is_none()
        );
        let expired = keys
            .issue(7, 0, sid, TokenType::Access, chrono::Duration::seconds(-5))
            .expect("issue");
        assert!(keys.verify(&expired, TokenType::Access).is_none());
    }

    #[test]
    fn successors_are_deterministic_per_predecessor() {
        let keys = TokenKeys::new(KEY);
        let sid = uuid::Uuid::new_v4();
        let raw = keys
            .issue(7, 0, sid, TokenType::Refresh, chrono::Duration::minutes(5))
            .expect("issue");
        let claims = keys.verify(&raw, TokenType::Refresh).expect("valid");
        let now = chrono::Utc::now().timestamp();
        let a = keys.successor_refresh(&raw, 7, 0, sid, now).expect("a");
        let b = keys.successor_refresh(&raw, 7, 0, sid, now).expect("b");
        assert_eq!(a, b);
        let next = keys
            .verify(&a, TokenType::Refresh)
            .expect("valid successor");
        assert_eq!(next.sid, Some(sid));
        assert_ne!(next.jti, claims.jti);
        let other = keys
            .issue(7, 0, sid, TokenType::Refresh, chrono::Duration::minutes(5))
            .expect("issue");
        assert_ne!(
            keys.successor_refresh(&other, 7, 0, sid, now).expect("c"),
            a
        );
    }

    #[test]
    fn random_tokens_are_unique_and_hashed() {
        let a = random_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, random_token());
        assert_eq!(sha256_hex("abc").len(), 64);
    }
}
