//! Builds the plain [`RequestMeta`] that GraphQL resolvers see from an HTTP request.

use std::collections::HashMap;
use std::net::IpAddr;

use axum::http::{HeaderMap, header};

use crate::platform::auth::RequestMeta;
use crate::platform::http::RequestId;

/// The request's id, client address, user agent, bearer token, cookies and forwarded scheme.
pub fn request_meta(headers: &HeaderMap, client_ip: IpAddr, request_id: &RequestId) -> RequestMeta {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| token.trim().to_string())
        })
        .filter(|t| !t.is_empty());
    let mut cookies = HashMap::new();
    for value in headers.get_all(header::COOKIE) {
        let Ok(text) = value.to_str() else { continue };
        for pair in text.split(';') {
            if let Some((k, v)) = pair.trim().split_once('=') {
                cookies.insert(k.trim().to_string(), v.trim().trim_matches('"').to_string());
            }
        }
    }
    let mut meta = RequestMeta::anonymous(request_id.0.clone(), client_ip);
    meta.user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    meta.bearer = bearer;
    meta.forwarded_proto = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .filter(|v| v == "http" || v == "https");
    meta.cookies = cookies;
    meta
}
