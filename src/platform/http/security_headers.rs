//! The security headers of CONTRACT section 0 on every response (HSTS in production only).

use axum::http::{HeaderMap, HeaderName, HeaderValue};

const HEADERS: &[(&str, &str)] = &[
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("x-xss-protection", "1; mode=block"),
    ("referrer-policy", "strict-origin-when-cross-origin"),
    (
        "permissions-policy",
        "geolocation=(), microphone=(), camera=()",
    ),
];

const HSTS: &str = "max-age=31536000; includeSubDomains";

/// Adds the headers to a response's header map.
pub fn apply(headers: &mut HeaderMap, production: bool) {
    for (name, value) in HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    if production {
        headers.insert(
            axum::http::header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
}
