//! ERRORTRACK_DSN: a 5xx (and a panic) is reported to a Sentry-protocol endpoint (here a tiny HTTP server
//! in the test) with the request id, and without the request's body or credentials.
//!
//! A binary of its own, like `tests/logging.rs`: it starts the process's one error-tracking
//! client and its panic hook, which in a shared process would also take every other test's
//! 5xx and panics (and drop events when its queue is full).

// A test may unwrap, expect and panic: a failed assumption there is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "it/common/mod.rs"]
mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::common::TestApp;

/// Accepts HTTP requests and keeps each one (head and body) as text.
async fn collector() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let store = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let store = store.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 8192];
                loop {
                    let Ok(n) = socket.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf).to_string();
                    if let Some(head_end) = text.find("\r\n\r\n") {
                        let length = text[..head_end]
                            .lines()
                            .find_map(|l| {
                                let (k, v) = l.split_once(':')?;
                                k.eq_ignore_ascii_case("content-length")
                                    .then(|| v.trim().parse::<usize>().ok())?
                            })
                            .unwrap_or(0);
                        if buf.len() >= head_end + 4 + length {
                            break;
                        }
                    }
                }
                store
                    .lock()
                    .expect("lock")
                    .push(String::from_utf8_lossy(&buf).to_string());
                let _ = socket
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}")
                    .await;
            });
        }
    });
    (port, seen)
}

// On worker threads: the client's transport thread waits for the collector's answers when
// the guard is dropped, and a runtime blocked in that drop would never give them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_reaches_the_error_tracker_with_its_request_id() {
    let (port, seen) = collector().await;
    let dsn = format!("http://public@127.0.0.1:{port}/42");
    // The app's configuration accepts the DSN; the client is started as `strata` does.
    let app = TestApp::spawn_with(&[("ERRORTRACK_DSN", &dsn)]).await;
    let _guard =
        strata::platform::error::tracking::init(&app.state.config).expect("error tracking is on");

    // Break the database under the app: the login query now fails with an internal error.
    {
        let mut conn = app.db.connect().await;
        diesel_async::RunQueryDsl::execute(
            diesel::sql_query("ALTER TABLE users RENAME TO users_gone"),
            &mut conn,
        )
        .await
        .expect("rename");
    }
    let res = app
        .request(
            Request::builder()
                .method(Method::POST)
                .uri("/api/v1/auth/login")
                .header("content-type", "application/json")
                .header("x-request-id", "trace-me-42")
                .header("authorization", "Bearer very-secret-bearer")
                .body(Body::from(
                    json!({"username": "ada@example.com", "password": "Sup3r-Secret-Pw!"})
                        .to_string(),
                ))
                .expect("request"),
        )
        .await;
    assert_eq!(
        res.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        res.text()
    );
    assert_eq!(res.headers["x-request-id"], "trace-me-42");

    let event = wait_for_event(&seen, "trace-me-42").await;
    assert!(event.starts_with("POST /api/42/envelope/"), "{event}");
    assert!(event.contains("\"request_id\":\"trace-me-42\""), "{event}");
    assert!(event.contains("users"), "the cause is reported: {event}");
    for secret in ["Sup3r-Secret-Pw!", "very-secret-bearer"] {
        assert!(!event.contains(secret), "{secret} leaked: {event}");
    }

    // A panic is reported too (the client's panic integration), with the scope's request id.
    // On the blocking pool, not a joined thread, for the same reason: the panic hook hands
    // the event to the client's queue, which may wait on the collector.
    let panicked = tokio::task::spawn_blocking(|| {
        let hub = Arc::new(sentry::Hub::new_from_top(sentry::Hub::main()));
        sentry::Hub::run(hub, || {
            sentry::configure_scope(|scope| scope.set_tag("request_id", "panic-req-7"));
            panic!("a handler bug");
        })
    })
    .await;
    assert!(panicked.is_err());
    let event = wait_for_event(&seen, "panic-req-7").await;
    assert!(event.contains("a handler bug"), "{event}");
}

async fn wait_for_event(seen: &Arc<Mutex<Vec<String>>>, needle: &str) -> String {
    for _ in 0..100 {
        if let Some(e) = seen
            .lock()
            .expect("lock")
            .iter()
            .find(|e| e.contains(needle))
        {
            return e.clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no event with {needle}: {:?}", seen.lock());
}
