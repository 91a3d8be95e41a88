//! Spec 1.3: JSON log lines, and every line of one request carries that request's id, the
//! same as the response's `X-Request-ID`. This binary owns the global subscriber.

// A test may unwrap, expect and panic: a failed assumption there is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "it/common/mod.rs"]
mod common;

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Method, Request};
use common::TestApp;
use serde_json::{Value, json};
use tracing_subscriber::fmt::MakeWriter;

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Capture {
    type Writer = Capture;
    fn make_writer(&'a self) -> Capture {
        self.clone()
    }
}

impl Capture {
    fn lines(&self) -> Vec<Value> {
        let text = String::from_utf8(self.0.lock().expect("lock").clone()).expect("utf8");
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}")))
            .collect()
    }
}

#[tokio::test]
async fn every_line_of_a_request_carries_its_request_id() {
    let capture = Capture::default();
    strata::platform::telemetry::init_with_writer(
        strata::platform::config::LogLevel::Debug,
        strata::platform::config::LogFormat::Json,
        capture.clone(),
    );
    let app = TestApp::spawn().await;

    // A GraphQL request that fails validation logs from deep inside the GraphQL stack.
    let body = json!({"query": "{ version }", "operationName": null}).to_string();
    let res = app
        .request(
            Request::builder()
                .method(Method::POST)
                .uri("/graphql")
                .header("content-type", "application/json")
                .header("x-request-id", "trace-me-123")
                .body(Body::from(body))
                .expect("request"),
        )
        .await;
    assert_eq!(res.header("x-request-id"), Some("trace-me-123"));
    let res2 = app.get("/health").await;
    let generated = res2.header("x-request-id").expect("id").to_string();

    // A DataLoader batch runs in a task of its own; its lines carry the request's id too.
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let admin = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada"}),
        )
        .await
        .json();
    let token = admin["access_token"].as_str().expect("token").to_string();
    let create = json!({
        "query": "mutation { itemCreate(input: {sku: \"LOG-1\", name: \"Logged\"}) { item { files { id } } userErrors { message } } }"
    });
    let res = app
        .request(
            Request::builder()
                .method(Method::POST)
                .uri("/graphql")
                .header("content-type", "application/json")
                .header("authorization", format!("Bearer {token}"))
                .header("x-request-id", "trace-loader-1")
                .body(Body::from(create.to_string()))
                .expect("request"),
        )
        .await
        .json();
    assert!(
        res["data"]["itemCreate"]["item"]["files"].is_array(),
        "{res}"
    );
    let lines = capture.lines();
    assert!(
        lines
            .iter()
            .any(|l| l["message"] == "loading item files" && l["request_id"] == "trace-loader-1"),
        "the loader's line carries the request id: {lines:#?}"
    );

    let mine: Vec<&Value> = lines
        .iter()
        .filter(|l| l["request_id"] == "trace-me-123")
        .collect();
    assert!(
        mine.len() >= 2,
        "the operation log and the access log: {lines:#?}"
    );
    assert!(
        mine.iter().any(|l| l["logger"] == "strata::access"
            && l["method"] == "POST"
            && l["path"] == "/graphql"
            && l["status"] == 200
            && l["latency_ms"].is_number()),
        "one access entry with method, path, status, latency: {mine:#?}"
    );
    assert!(
        mine.iter().any(|l| l["logger"] != "strata::access"),
        "a line from inside the handler"
    );
    for line in &lines {
        for field in ["timestamp", "level", "logger", "message", "request_id"] {
            assert!(line.get(field).is_some(), "{field} missing in {line}");
        }
    }
    assert!(
        lines
            .iter()
            .any(|l| l["request_id"] == generated.as_str() && l["logger"] == "strata::access"),
        "generated ids are logged too"
    );
}
