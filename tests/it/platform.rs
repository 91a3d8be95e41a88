//! The platform: health, GraphQL endpoint, request ids, security headers, CORS, limits.

use crate::common::TestApp;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::json;

#[tokio::test]
async fn health_reports_the_database_and_version() {
    let app = TestApp::spawn().await;
    let res = app.get("/health").await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(
        res.json(),
        json!({"status": "healthy", "checks": {"database": "ok"}, "version": strata::VERSION})
    );
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::spawn().await;
    for path in ["/health", "/api/v1/does-not-exist", "/graphql", "/nowhere"] {
        let res = app.get(path).await;
        assert_eq!(res.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(res.header("x-xss-protection"), Some("1; mode=block"));
        assert_eq!(
            res.header("referrer-policy"),
            Some("strict-origin-when-cross-origin")
        );
        assert_eq!(
            res.header("permissions-policy"),
            Some("geolocation=(), microphone=(), camera=()")
        );
        assert_eq!(
            res.header("strict-transport-security"),
            None,
            "HSTS only in production"
        );
    }
}

#[tokio::test]
async fn production_adds_hsts() {
    let app = TestApp::spawn_with(&[
        ("ENVIRONMENT", "production"),
        ("ALLOWED_ORIGINS", "https://erp.example.com"),
    ])
    .await;
    let res = app.get("/health").await;
    assert_eq!(
        res.header("strict-transport-security"),
        Some("max-age=31536000; includeSubDomains")
    );
}

#[tokio::test]
async fn request_ids_are_kept_when_safe_and_generated_otherwise() {
    let app = TestApp::spawn().await;
    let sent = |id: &'static str| {
        Request::builder()
            .uri("/health")
            .header("x-request-id", id)
            .body(Body::empty())
            .expect("request")
    };
    let res = app.request(sent("client-id-42")).await;
    assert_eq!(res.header("x-request-id"), Some("client-id-42"));

    let res = app.request(sent("<script>alert(1)</script>")).await;
    let replaced = res.header("x-request-id").expect("id");
    assert!(uuid::Uuid::parse_str(replaced).is_ok());

    let res = app.get("/health").await;
    let generated = uuid::Uuid::parse_str(res.header("x-request-id").expect("id")).expect("uuid");
    assert_eq!(generated.get_version_num(), 4);
}

#[tokio::test]
async fn unknown_api_paths_answer_404_with_a_detail() {
    let app = TestApp::spawn().await;
    let res = app.get("/api/v1/nothing-here/").await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(res.json(), json!({"detail": "Not Found"}));
}

#[tokio::test]
async fn cors_allows_exactly_the_configured_origins_with_credentials() {
    let app = TestApp::spawn().await;
    let preflight = |origin: &'static str| {
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/graphql")
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header(
                "access-control-request-headers",
                "content-type,authorization",
            )
            .body(Body::empty())
            .expect("request")
    };
    let res = app.request(preflight("https://erp.example.com")).await;
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://erp.example.com")
    );
    assert_eq!(res.header("access-control-allow-credentials"), Some("true"));

    let res = app.request(preflight("https://evil.example.net")).await;
    assert_eq!(res.header("access-control-allow-origin"), None);
}

#[tokio::test]
async fn graphql_answers_the_version_and_serves_the_playground() {
    let app = TestApp::spawn().await;
    let body = app.graphql("{ version tier }", json!({})).await;
    assert_eq!(body["data"]["version"], strata::VERSION);
    assert_eq!(body["data"]["tier"], "community");

    let res = app.get("/graphql").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.text().contains("graphiql"), "GraphiQL page");
}

#[tokio::test]
async fn graphql_errors_carry_a_code() {
    let app = TestApp::spawn().await;
    let body = app.graphql("{ noSuchField }", json!({})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
    let body = app.graphql("{ version", json!({})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
}

#[tokio::test]
async fn graphql_depth_and_complexity_are_limited() {
    let app = TestApp::spawn().await;
    // Introspection gives a self-referencing type graph to nest deeply.
    let mut query = String::from("{ __schema { types { fields { type ");
    for _ in 0..20 {
        query.push_str("{ ofType ");
    }
    query.push_str("{ name }");
    for _ in 0..20 {
        query.push_str(" }");
    }
    query.push_str(" } } } }");
    let body = app.graphql(&query, json!({})).await;
    let message = body["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("nested too deep"), "{body}");

    let wide: String = (0..2100).map(|i| format!("v{i}: version ")).collect();
    let body = app.graphql(&format!("{{ {wide} }}"), json!({})).await;
    let message = body["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("too complex"), "{body}");
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413() {
    let app = TestApp::spawn_with(&[("MAX_BODY_BYTES", "2048")]).await;
    let big = json!({ "query": format!("{{ version }} #{}", "x".repeat(10_000)) });
    let res = app.send_json(Method::POST, "/graphql", &big).await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[test]
fn schema_graphql_matches_the_code() {
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.graphql"))
        .expect("schema.graphql exists at the repository root");
    let generated = strata::application::areas::sdl();
    assert!(
        committed == generated,
        "schema.graphql is out of date: run `cargo run -q -- schema > schema.graphql` and commit it"
    );
}
