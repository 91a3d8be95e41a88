//! Error tracking (spec 1.1 `ERRORTRACK_DSN`): when set, 5xx errors, panics and jobs that
//! fail for good are sent to a Sentry-protocol service with the `sentry` crate.
//!
//! Each request runs on its own hub (`sentry::integrations::tower::NewSentryLayer`, added in
//! `app::router`) whose scope carries the request id as the `request_id` tag, so an event
//! can be matched with the log lines of the same request. Nothing secret leaves the process:
//! no request bodies, cookies, query strings or credential headers, and one-time tokens in
//! paths are masked as in the access log. Without a DSN every call here is a no-op.

use std::sync::Arc;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use sentry::protocol::Event;

use crate::platform::config::Config;
use crate::platform::http::RequestId;
use crate::platform::http::request_context::loggable_path;

/// Request headers that may go with an event (all others, credentials included, are
/// dropped).
const SAFE_HEADERS: &[&str] = &[
    "accept",
    "content-length",
    "content-type",
    "host",
    "user-agent",
    "x-request-id",
];

/// Starts the client when `ERRORTRACK_DSN` is set. Keep the guard for the life of the
/// process: dropping it flushes queued events.
pub fn init(config: &Config) -> Option<sentry::ClientInitGuard> {
    let dsn = config.errortrack_dsn.as_ref()?;
    let dsn = match dsn.expose().parse::<sentry::types::Dsn>() {
        Ok(dsn) => dsn,
        Err(e) => {
            // The configuration check refuses a bad DSN; this only guards a direct call.
            tracing::error!(error = %e, "ERRORTRACK_DSN is not a valid DSN; error tracking is off");
            return None;
        }
    };
    let guard = init_with_dsn(dsn, config.environment.as_str());
    tracing::info!("error tracking is on");
    Some(guard)
}

/// Starts the client for a DSN (tests use this directly).
pub fn init_with_dsn(dsn: sentry::types::Dsn, environment: &str) -> sentry::ClientInitGuard {
    let mut options = sentry::ClientOptions::new();
    options.dsn = Some(dsn);
    options.release = Some(crate::VERSION.into());
    options.environment = Some(environment.to_string().into());
    options.send_default_pii = false;
    options.max_request_body_size = sentry::MaxRequestBodySize::None;
    options.before_send = Some(Arc::new(scrub));
    sentry::init(options)
}

/// True when a DSN is set up (so callers can skip building event text).
fn enabled() -> bool {
    sentry::Hub::current().client().is_some()
}

/// Middleware (inside `NewSentryLayer`): tags the request's scope with its id.
pub async fn tag_request(req: Request, next: Next) -> Response {
    if let Some(id) = req.extensions().get::<RequestId>() {
        let id = id.0.clone();
        sentry::configure_scope(|scope| scope.set_tag("request_id", id));
    }
    next.run(req).await
}

/// Reports a server-side failure (a 5xx) of the current request or job.
pub fn capture_server_error(kind: &str, cause: &dyn std::fmt::Display) {
    if !enabled() {
        return;
    }
    sentry::with_scope(
        |scope| scope.set_tag("error_kind", kind),
        || sentry::capture_message(&cause.to_string(), sentry::Level::Error),
    );
}

/// Removes what must never leave the process from an event's request data.
fn scrub(mut event: Event<'static>) -> Option<Event<'static>> {
    if let Some(request) = event.request.as_mut() {
        request.data = None;
        request.cookies = None;
        request.query_string = None;
        request.env.clear();
        request
            .headers
            .retain(|name, _| SAFE_HEADERS.contains(&name.to_ascii_lowercase().as_str()));
        if let Some(url) = request.url.as_mut() {
            url.set_query(None);
            url.set_fragment(None);
            let _ = url.set_password(None);
            let _ = url.set_username("");
            let masked = loggable_path(url.path());
            url.set_path(&masked);
        }
    }
    Some(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_lose_bodies_credentials_and_tokens() {
        let mut request = sentry::protocol::Request {
            url: "https://erp.example.com/api/v1/auth/password-reset/status/abcDEF1234567890xyzQRS?token=t0p"
                .parse()
                .ok(),
            data: Some("{\"password\":\"hunter2\"}".into()),
            cookies: Some("refresh_token=r".into()),
            query_string: Some("token=t0p".into()),
            ..Default::default()
        };
        request
            .headers
            .insert("Authorization".into(), "Bearer x".into());
        request.headers.insert("User-Agent".into(), "curl".into());
        let event = Event {
            request: Some(request),
            ..Default::default()
        };
        let scrubbed = scrub(event).expect("kept");
        let text = serde_json::to_string(&scrubbed).expect("json");
        for secret in [
            "hunter2",
            "refresh_token",
            "t0p",
            "Bearer",
            "abcDEF1234567890xyzQRS",
        ] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert!(text.contains("curl"));
    }
}
