//! Cross-site request forgery defence for cookie sessions.
//!
//! A browser attaches the session cookies to any request to this site, including a form
//! another site submits (`application/x-www-form-urlencoded` is CORS-simple: no preflight),
//! and `SameSite=Lax` does not cover every case (sibling sites, top-level POST navigations
//! in some browsers). So an unsafe request (anything but GET, HEAD, OPTIONS, TRACE) to
//! `/api/v1` or `/graphql` that is authenticated by a session cookie (no `Authorization`
//! header, an `access_token` or `refresh_token` cookie) must show where it comes from:
//! `Sec-Fetch-Site: same-origin`, or an `Origin` that is in `ALLOWED_ORIGINS` or is the
//! request's own host. Otherwise it is refused with 403 before any handler runs.
//!
//! Bearer requests pass: a cross-site page cannot add an `Authorization` header without a
//! CORS preflight, which CORS refuses for foreign origins. Sign-in and first-run setup are
//! not authenticated by a cookie, so a stale cookie does not get in their way.
//!
//! A WebSocket handshake (`/graphql/ws`) is a GET but is guarded the same way: the socket it
//! opens acts for the user, and a browser sends the cookies with any page's WebSocket.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::platform::config::Config;
use crate::platform::error::AppError;

/// The message of the 403.
pub const CSRF_REFUSED: &str =
    "Cross-site request refused: a cookie-authenticated request must come from an allowed origin";

/// Unsafe routes that no cookie authenticates.
const NOT_COOKIE_AUTHENTICATED: &[&str] = &["/api/v1/auth/login", "/api/v1/setup/initial-admin"];

/// The session cookies.
const SESSION_COOKIES: &[&str] = &["access_token", "refresh_token"];

/// Which origins may send cookie-authenticated unsafe requests.
#[derive(Debug, Clone)]
pub struct CsrfPolicy {
    /// `ALLOWED_ORIGINS`, normalised (lowercase, no trailing slash).
    allowed: Vec<String>,
    /// `ALLOWED_ORIGINS=*` (development only): every origin.
    any: bool,
}

impl CsrfPolicy {
    /// The policy of a configuration.
    pub fn from_config(config: &Config) -> CsrfPolicy {
        CsrfPolicy::new(&config.allowed_origins)
    }

    /// A policy allowing `origins` (a `*` among them allows every origin).
    pub fn new(origins: &[String]) -> CsrfPolicy {
        CsrfPolicy {
            allowed: origins.iter().map(|o| normalise(o)).collect(),
            any: origins.iter().any(|o| o.trim() == "*"),
        }
    }

    /// Whether a request with `method`, `path` and `headers` may proceed.
    pub fn permits(&self, method: &Method, path: &str, headers: &HeaderMap) -> bool {
        if (is_safe(method) && !is_websocket_handshake(headers))
            || !guarded_path(path)
            || NOT_COOKIE_AUTHENTICATED.contains(&path.trim_end_matches('/'))
            || headers.contains_key(header::AUTHORIZATION)
            || !has_session_cookie(headers)
        {
            return true;
        }
        if header_text(headers, "sec-fetch-site")
            .is_some_and(|v| v.eq_ignore_ascii_case("same-origin"))
        {
            return true;
        }
        let Some(origin) = header_text(headers, header::ORIGIN.as_str()) else {
            return false;
        };
        let origin = normalise(origin);
        if origin == "null" {
            return false;
        }
        self.any || self.allowed.contains(&origin) || same_host(&origin, headers)
    }
}

/// The middleware: 403 `{"detail": ...}` for a cross-site cookie-authenticated request.
pub async fn guard(State(policy): State<CsrfPolicy>, request: Request, next: Next) -> Response {
    if policy.permits(request.method(), request.uri().path(), request.headers()) {
        return next.run(request).await;
    }
    tracing::warn!(
        method = %request.method(),
        path = request.uri().path(),
        origin = header_text(request.headers(), header::ORIGIN.as_str()).unwrap_or("-"),
        "refused a cookie-authenticated request from a foreign or unknown origin"
    );
    AppError::forbidden(CSRF_REFUSED).into_response()
}

fn is_safe(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

fn guarded_path(path: &str) -> bool {
    path == "/graphql"
        || path.starts_with("/graphql/")
        || path == "/api/v1"
        || path.starts_with("/api/v1/")
}

/// A WebSocket handshake is a GET, but what it opens acts for the user (cross-site WebSocket
/// hijacking: a browser sends the cookies with any page's WebSocket), so it is guarded like
/// an unsafe request.
fn is_websocket_handshake(headers: &HeaderMap) -> bool {
    header_text(headers, header::UPGRADE.as_str())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

fn header_text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
}

fn has_session_cookie(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| {
            SESSION_COOKIES.contains(&name.trim()) && !value.trim().trim_matches('"').is_empty()
        })
}

fn normalise(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// True when `origin` (`scheme://host[:port]`) names the host the request was sent to.
/// When `Host` carries no port (nginx forwards `$host`, which drops it), the origin's port
/// is not compared: cookies are shared by every port of a host anyway.
fn same_host(origin: &str, headers: &HeaderMap) -> bool {
    let Some(host) = header_text(headers, header::HOST.as_str()) else {
        return false;
    };
    let Some((_, authority)) = origin.split_once("://") else {
        return false;
    };
    if authority.eq_ignore_ascii_case(host) {
        return true;
    }
    let has_port = |h: &str| {
        h.rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
            && !h.ends_with(']')
    };
    !has_port(host)
        && has_port(authority)
        && authority
            .rsplit_once(':')
            .is_some_and(|(name, _)| name.eq_ignore_ascii_case(host))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).expect("header"));
        }
        h
    }

    fn policy() -> CsrfPolicy {
        CsrfPolicy::new(&["https://erp.example.com".to_string()])
    }

    #[test]
    fn cookie_posts_need_an_allowed_origin() {
        let p = policy();
        let post = Method::POST;
        let path = "/api/v1/items";
        let cookie = ("cookie", "access_token=abc");
        assert!(!p.permits(&post, path, &headers(&[cookie])));
        assert!(!p.permits(
            &post,
            path,
            &headers(&[cookie, ("origin", "https://evil.example")])
        ));
        assert!(!p.permits(&post, path, &headers(&[cookie, ("origin", "null")])));
        assert!(!p.permits(
            &post,
            path,
            &headers(&[cookie, ("sec-fetch-site", "same-site")])
        ));
        assert!(p.permits(
            &post,
            path,
            &headers(&[cookie, ("origin", "https://ERP.example.com/")])
        ));
        assert!(p.permits(
            &post,
            path,
            &headers(&[cookie, ("sec-fetch-site", "same-origin")])
        ));
        assert!(p.permits(
            &post,
            path,
            &headers(&[
                cookie,
                ("origin", "http://strata.local:8000"),
                ("host", "strata.local:8000")
            ])
        ));
        let from = |origin: &'static str, host: &'static str| {
            headers(&[cookie, ("origin", origin), ("host", host)])
        };
        assert!(
            p.permits(
                &post,
                path,
                &from("http://strata.local:8080", "strata.local")
            ),
            "a proxy that forwards the host without its port"
        );
        assert!(!p.permits(&post, path, &from("http://evil.local:8080", "strata.local")));
        assert!(!p.permits(
            &post,
            path,
            &from("http://strata.local:8080", "strata.local:8000")
        ));
        assert!(!p.permits(
            &post,
            path,
            &from("http://evil.strata.local", "strata.local")
        ));
        assert!(
            p.permits(&post, "/graphql", &headers(&[("cookie", "refresh_token=")])),
            "empty cookie"
        );
        assert!(!p.permits(
            &Method::DELETE,
            "/graphql",
            &headers(&[("cookie", "a=1; refresh_token=x")])
        ));
    }

    #[test]
    fn bearer_safe_methods_sign_in_and_other_paths_pass() {
        let p = policy();
        let cookie = ("cookie", "access_token=abc");
        let foreign = ("origin", "https://evil.example");
        assert!(p.permits(
            &Method::POST,
            "/api/v1/items",
            &headers(&[cookie, foreign, ("authorization", "Bearer x")])
        ));
        assert!(p.permits(&Method::GET, "/api/v1/items", &headers(&[cookie, foreign])));
        assert!(p.permits(
            &Method::POST,
            "/api/v1/auth/login",
            &headers(&[cookie, foreign])
        ));
        assert!(p.permits(&Method::POST, "/elsewhere", &headers(&[cookie, foreign])));
        assert!(
            p.permits(&Method::POST, "/api/v1/items", &headers(&[foreign])),
            "no cookie"
        );
        assert!(CsrfPolicy::new(&["*".to_string()]).permits(
            &Method::POST,
            "/graphql",
            &headers(&[cookie, foreign])
        ));
    }
}
