//! Request correlation (spec 1.3): every request gets an `X-Request-ID` (the client's when it
//! is safe, otherwise a new UUID4), a `request` span that carries it into every log line, and
//! one access-log entry with method, path, status and latency.

use std::time::Instant;

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

/// The header that carries the request id both ways.
pub const REQUEST_ID_HEADER: &str = "x-request-id";
/// Longest client-supplied request id that is kept.
pub const MAX_REQUEST_ID_LEN: usize = 128;

/// The id of the request being served; available as a request extension and in GraphQL data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub String);

impl RequestId {
    /// Keeps a client's id only when it is short and made of safe characters, so it can
    /// neither forge log lines nor smuggle markup; anything else is replaced.
    pub fn from_client(value: Option<&HeaderValue>) -> RequestId {
        value
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| is_safe_request_id(v))
            .map(|v| RequestId(v.to_string()))
            .unwrap_or_else(RequestId::generate)
    }

    /// A fresh UUID4.
    pub fn generate() -> RequestId {
        RequestId(uuid::Uuid::new_v4().to_string())
    }
}

/// 1 to 128 characters from `A-Z a-z 0-9 - _ . : / + =`.
pub fn is_safe_request_id(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= MAX_REQUEST_ID_LEN
        && v.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':' | b'/' | b'+' | b'=')
        })
}

/// Paths can carry one-time tokens (password-reset links); the access log must not.
pub fn loggable_path(path: &str) -> String {
    path.split('/')
        .map(|seg| if looks_like_token(seg) { "***" } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

fn looks_like_token(seg: &str) -> bool {
    seg.len() >= 20
        && seg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && uuid::Uuid::parse_str(seg).is_err()
        && seg.bytes().any(|b| b.is_ascii_digit())
        && seg.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The outermost middleware: assigns the id, opens the span, logs the access entry and
/// returns the id in the response headers.
pub async fn request_context(mut req: Request, next: Next) -> Response {
    let id = RequestId::from_client(req.headers().get(REQUEST_ID_HEADER));
    req.extensions_mut().insert(id.clone());
    let method = req.method().clone();
    let path = loggable_path(req.uri().path());
    let span = tracing::info_span!("request", request_id = %id.0);
    let started = Instant::now();

    let mut response = next.run(req).instrument(span.clone()).await;

    let latency_ms = (started.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0;
    let status = response.status().as_u16();
    span.in_scope(|| {
        tracing::info!(
            target: "strata::access",
            method = %method,
            path = %path,
            status,
            latency_ms,
            "{method} {path} {status}"
        );
    });
    if let Ok(value) = HeaderValue::from_str(&id.0) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_ids_are_kept_and_others_replaced() {
        let keep = HeaderValue::from_static("abc-123_x.y:z");
        assert_eq!(RequestId::from_client(Some(&keep)).0, "abc-123_x.y:z");
        for bad in ["has space", "<script>", "a\"b", ""] {
            let v = HeaderValue::from_str(bad).expect("header");
            let got = RequestId::from_client(Some(&v)).0;
            assert_ne!(got, bad);
            assert!(uuid::Uuid::parse_str(&got).is_ok());
        }
        let long = HeaderValue::from_str(&"a".repeat(129)).expect("header");
        assert_eq!(RequestId::from_client(Some(&long)).0.len(), 36);
        assert_eq!(
            uuid::Uuid::parse_str(&RequestId::from_client(None).0)
                .expect("uuid")
                .get_version_num(),
            4
        );
    }

    #[test]
    fn tokens_in_paths_are_redacted() {
        assert_eq!(
            loggable_path("/api/v1/auth/password-reset/status/Xk3_9aQ2vLm8PzR1tYw4bN6cD0eF5gH7"),
            "/api/v1/auth/password-reset/status/***"
        );
        assert_eq!(loggable_path("/api/v1/items/42"), "/api/v1/items/42");
        assert_eq!(
            loggable_path("/api/v1/items/8c0f1b0e-6a43-4f5e-9f5a-2b1f6f8e9a10"),
            "/api/v1/items/8c0f1b0e-6a43-4f5e-9f5a-2b1f6f8e9a10"
        );
        assert_eq!(
            loggable_path("/api/v1/admin/inventory/transactions"),
            "/api/v1/admin/inventory/transactions"
        );
    }
}
