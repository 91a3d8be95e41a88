//! The REST facade engine, checked against the route table and the schema:
//!
//! - every stored operation parses and validates against the schema;
//! - the route table is consistent (one declaration per method and path, every path
//!   parameter binds to a variable, bodies and responses name what the operation has);
//! - the OpenAPI document matches `tests/snapshots/openapi.json` (`UPDATE_SNAPSHOTS=1`
//!   rewrites it) and the docs page answers;
//! - the facade's own behaviours: both trailing-slash spellings, the 422 shape of CONTRACT 8
//!   for query strings and bodies, 404 for unknown paths, resolver cookies on the response.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};

use async_graphql::parser::types::{BaseType, DocumentOperations, Selection, Type};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Map, Value, json};

use crate::common::routes;
use crate::common::{TestApp, TestResponse};
use strata::platform::auth::RequestMeta;
use strata::platform::rest::types::{TypeInfo, camel_case};
use strata::platform::rest::{Body as RouteBody, Method as RouteMethod, Route, parse_operation};

const ADMIN_EMAIL: &str = "admin@example.com";
const ADMIN_PASSWORD: &str = "Admin-pass1!";

fn route_name(route: &Route) -> String {
    format!("{} {}", route.method.as_str(), route.path)
}

fn types() -> TypeInfo {
    TypeInfo::from_sdl(&strata::application::areas::sdl()).expect("the SDL parses")
}

fn named(ty: &Type) -> &str {
    match &ty.base {
        BaseType::List(inner) => named(inner),
        BaseType::Named(n) => n.as_str(),
    }
}

/// A valid GraphQL variable value of `ty` (camelCase input fields, required ones only).
fn variable_value(types: &TypeInfo, ty: &Type, depth: usize) -> Value {
    assert!(depth < 16, "input types nest too deep");
    match &ty.base {
        BaseType::List(inner) => Value::Array(vec![variable_value(types, inner, depth + 1)]),
        BaseType::Named(name) => {
            let name = name.as_str();
            if let Some(values) = types.enum_values(name) {
                return json!(values.first().cloned().unwrap_or_default());
            }
            if let Some(fields) = types.input_fields(name) {
                let mut map = Map::new();
                for f in fields.iter().filter(|f| !f.ty.nullable && !f.has_default) {
                    map.insert(f.name.clone(), variable_value(types, &f.ty, depth + 1));
                }
                return Value::Object(map);
            }
            match name {
                "Int" => json!(1),
                "Float" => json!(1.5),
                "Boolean" => json!(false),
                "ID" | "Decimal" => json!("1"),
                "DateTime" => json!("2026-01-01T00:00:00Z"),
                "Date" => json!("2026-01-01"),
                "JSON" => json!({}),
                _ => json!("x"),
            }
        }
    }
}

/// A request from a client address of its own (rate limits are per address).
struct Client<'a> {
    app: &'a TestApp,
    next: AtomicU32,
}

impl<'a> Client<'a> {
    fn new(app: &'a TestApp) -> Self {
        Client {
            app,
            next: AtomicU32::new(1),
        }
    }

    async fn send(
        &self,
        method: Method,
        uri: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> TestResponse {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let peer: SocketAddr = format!("198.18.{}.{}:40000", (n >> 8) & 255, n & 255)
            .parse()
            .expect("peer");
        let mut b = Request::builder().method(method).uri(uri);
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        let mut req = b
            .body(body.map_or_else(Body::empty, |s| Body::from(s.to_string())))
            .expect("request");
        req.extensions_mut().insert(ConnectInfo(peer));
        self.app.request(req).await
    }

    async fn json(&self, method: Method, uri: &str, token: &str, body: &str) -> TestResponse {
        let auth = format!("Bearer {token}");
        self.send(
            method,
            uri,
            &[
                ("authorization", auth.as_str()),
                ("content-type", "application/json"),
            ],
            Some(body),
        )
        .await
    }
}

/// A header-mode app with the first admin; returns the admin's access token.
async fn admin_app() -> (TestApp, String) {
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada Admin"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let token = res.json()["access_token"]
        .as_str()
        .expect("access_token")
        .to_string();
    (app, token)
}

// ------------------------------------------------------------- (a) operations validate

/// Errors async-graphql raised before running any resolver (parse, validation, variable
/// coercion, limits): they carry no `path`. Guard and resolver errors always do.
fn validation_errors(response: &async_graphql::Response) -> Vec<String> {
    response
        .errors
        .iter()
        .filter(|e| e.path.is_empty())
        .map(|e| {
            let code = e
                .extensions
                .as_ref()
                .and_then(|x| x.get("code"))
                .map(|c| c.to_string())
                .unwrap_or_default();
            format!("{code} {}", e.message)
        })
        .collect()
}

async fn execute_anonymously(
    app: &TestApp,
    text: &str,
    variables: Map<String, Value>,
    uploads: &[String],
    n: u32,
) -> async_graphql::Response {
    let ip = std::net::IpAddr::from([198, 19, (n >> 8) as u8, n as u8]);
    let mut request = async_graphql::Request::new(text)
        .variables(async_graphql::Variables::from_json(Value::Object(
            variables,
        )))
        .data(RequestMeta::anonymous(format!("validate-{n}"), ip));
    for name in uploads {
        let mut file = tempfile::tempfile().expect("temporary file");
        std::io::Write::write_all(&mut file, b"x\n").expect("write");
        std::io::Seek::rewind(&mut file).expect("rewind");
        request.set_upload(
            &format!("variables.{name}"),
            async_graphql::UploadValue {
                filename: "dummy.csv".into(),
                content_type: Some("text/csv".into()),
                content: file,
            },
        );
    }
    strata::platform::graphql::execute(&app.state.schema, request).await
}

#[tokio::test]
async fn every_stored_operation_validates_against_the_schema() {
    let app = TestApp::spawn().await;
    let types = types();

    // The checker itself: validation errors are told apart from guard errors.
    let broken = execute_anonymously(
        &app,
        "query Broken($unused: Int) { version nope }",
        Map::new(),
        &[],
        0,
    )
    .await;
    let found = validation_errors(&broken);
    assert!(
        found.iter().any(|e| e.contains("nope")) && found.iter().any(|e| e.contains("unused")),
        "an unknown field and an unused variable are validation errors: {found:?}"
    );
    assert!(
        found.iter().all(|e| e.starts_with("\"BAD_USER_INPUT\"")),
        "{found:?}"
    );
    let guarded = execute_anonymously(&app, "query { me { id } }", Map::new(), &[], 0).await;
    assert!(validation_errors(&guarded).is_empty());
    assert_eq!(guarded.errors.len(), 1, "{:?}", guarded.errors);

    let mut failures = Vec::new();
    for (n, route) in routes().iter().enumerate() {
        let (variables, _) = match parse_operation(route.operation) {
            Ok(parsed) => parsed,
            Err(e) => {
                failures.push(format!("{}: does not parse: {e}", route_name(route)));
                continue;
            }
        };
        let mut values = Map::new();
        let mut uploads = Vec::new();
        for var in &variables {
            if named(&var.ty) == "Upload" {
                values.insert(var.name.clone(), Value::Null);
                uploads.push(var.name.clone());
            } else if !var.ty.nullable && !var.has_default {
                values.insert(var.name.clone(), variable_value(&types, &var.ty, 0));
            }
        }
        let n = u32::try_from(n + 1).expect("few routes");
        let response = execute_anonymously(&app, route.operation, values, &uploads, n).await;
        let errors = validation_errors(&response);
        if !errors.is_empty() {
            failures.push(format!(
                "{}: the stored operation does not validate: {}",
                route_name(route),
                errors.join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// --------------------------------------------------------------- (b) the route table

/// The response keys (aliases or names) of an operation's root selection.
fn root_response_keys(text: &str) -> Vec<String> {
    let doc = async_graphql::parser::parse_query(text).expect("parses");
    let op = match &doc.operations {
        DocumentOperations::Single(op) => op.node.clone(),
        DocumentOperations::Multiple(ops) => ops.values().next().expect("one").node.clone(),
    };
    op.selection_set
        .node
        .items
        .iter()
        .filter_map(|s| match &s.node {
            Selection::Field(f) => Some(
                f.node
                    .alias
                    .as_ref()
                    .map_or_else(|| f.node.name.node.to_string(), |a| a.node.to_string()),
            ),
            _ => None,
        })
        .collect()
}

fn params(path: &str) -> Vec<&str> {
    path.split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .collect()
}

#[test]
fn the_route_table_is_consistent() {
    let types = types();
    let all = routes();
    let mut failures = Vec::new();
    // Method + path with the slash trimmed and parameters unnamed: what the router matches.
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    for route in &all {
        let name = route_name(route);
        let (variables, _) = parse_operation(route.operation)
            .unwrap_or_else(|e| panic!("{name}: does not parse: {e}"));
        let var_names: BTreeSet<&str> = variables.iter().map(|v| v.name.as_str()).collect();
        let canonical_params = params(route.path);
        for path in route.all_paths() {
            if !path.starts_with('/') || path.contains("//") || path.contains('?') {
                failures.push(format!("{name}: malformed path {path:?}"));
            }
            let trimmed = path.trim_end_matches('/');
            if ["/openapi.json", "/docs"].contains(&trimmed) {
                failures.push(format!("{name}: {path} is the facade's own"));
            }
            let shape: Vec<&str> = trimmed
                .split('/')
                .map(|s| if s.starts_with('{') { "{}" } else { s })
                .collect();
            let key = (route.method.as_str().to_string(), shape.join("/"));
            if let Some(first) = seen.insert(key, format!("{name} ({path})")) {
                failures.push(format!(
                    "{} {path} is declared twice: {first} and {name}",
                    route.method.as_str()
                ));
            }
            for p in params(path) {
                if !var_names.contains(camel_case(p).as_str()) {
                    failures.push(format!(
                        "{name}: path parameter {{{p}}} of {path} binds to no variable (${})",
                        camel_case(p)
                    ));
                }
            }
            let mut mine = params(path);
            let mut theirs = canonical_params.clone();
            mine.sort_unstable();
            theirs.sort_unstable();
            if mine != theirs {
                failures.push(format!(
                    "{name}: alias {path} has other path parameters than the canonical path"
                ));
            }
        }
        match route.body {
            RouteBody::Input(input) => match variables.iter().find(|v| v.name == input) {
                Some(v) if types.input_fields(named(&v.ty)).is_some() => {}
                Some(_) => failures.push(format!(
                    "{name}: body variable ${input} is not an input object"
                )),
                None => failures.push(format!("{name}: body variable ${input} is not declared")),
            },
            RouteBody::Multipart => {
                if !variables.iter().any(|v| named(&v.ty) == "Upload") {
                    failures.push(format!("{name}: multipart body without an Upload variable"));
                }
            }
            RouteBody::None | RouteBody::Fields => {
                if let Some(v) = variables.iter().find(|v| named(&v.ty) == "Upload") {
                    failures.push(format!(
                        "{name}: ${} is a file but the body is not multipart",
                        v.name
                    ));
                }
            }
        }
        if route.method == RouteMethod::Get && !matches!(route.body, RouteBody::None) {
            failures.push(format!("{name}: a GET route reads no body"));
        }
        let root = route.response.split('.').next().unwrap_or_default();
        if !root_response_keys(route.operation)
            .iter()
            .any(|k| k == root)
        {
            failures.push(format!(
                "{name}: the response {} is not a root field of the operation",
                route.response
            ));
        }
        if !(200..300).contains(&route.status) {
            failures.push(format!("{name}: success status {}", route.status));
        }
        if route.summary.is_empty() {
            failures.push(format!("{name}: no summary for the API documentation"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ------------------------------------------------------------------ (c) the document

fn snapshot_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/openapi.json")
}

/// JSON pointers where `a` and `b` differ (at most `limit`).
fn differences(a: &Value, b: &Value, at: &str, out: &mut Vec<String>, limit: usize) {
    if out.len() >= limit || a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(l), Some(r)) => differences(l, r, &here, out, limit),
                    (Some(_), None) => out.push(format!("{here}: only in the served document")),
                    (None, Some(_)) => out.push(format!("{here}: only in the snapshot")),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (l, r)) in x.iter().zip(y).enumerate() {
                differences(l, r, &format!("{at}/{i}"), out, limit);
            }
        }
        _ => out.push(format!("{at}: served {a}, snapshot {b}")),
    }
}

#[tokio::test]
async fn the_openapi_document_matches_the_snapshot() {
    let app = TestApp::spawn().await;
    let res = app.get("/api/v1/openapi.json").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(
        res.header("content-type")
            .is_some_and(|c| c.starts_with("application/json")),
        "{:?}",
        res.header("content-type")
    );
    let served = res.json();
    assert_eq!(served["openapi"], "3.1.0");
    assert_eq!(served["info"]["version"], strata::VERSION);

    // Every declared path is documented, with its path parameters, and operation ids are
    // unique (OpenAPI requires it; client generators name functions after them).
    let paths = served["paths"].as_object().expect("paths");
    let mut ids = BTreeSet::new();
    for route in routes() {
        for path in route.all_paths() {
            let op = &paths
                .get(path)
                .unwrap_or_else(|| panic!("{path} is not documented"))
                [route.method.as_str().to_ascii_lowercase()];
            assert!(
                op.is_object(),
                "{} {path} is not documented",
                route.method.as_str()
            );
            let documented: BTreeSet<&str> = op["parameters"]
                .as_array()
                .expect("parameters")
                .iter()
                .filter(|p| p["in"] == "path")
                .filter_map(|p| p["name"].as_str())
                .collect();
            let declared: BTreeSet<&str> = params(path).into_iter().collect();
            assert_eq!(
                documented,
                declared,
                "{} {path}: path parameters",
                route.method.as_str()
            );
            let id = op["operationId"].as_str().expect("operationId").to_string();
            assert!(ids.insert(id.clone()), "operationId {id} is used twice");
        }
    }

    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(&served).expect("serialise")
    );
    let path = snapshot_path();
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("snapshot directory");
        std::fs::write(&path, &text).expect("write the snapshot");
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with UPDATE_SNAPSHOTS=1 cargo test --test it rest_facade::",
            path.display()
        )
    });
    let stored: Value = serde_json::from_str(&stored).expect("the snapshot is JSON");
    let mut diff = Vec::new();
    differences(&served, &stored, "", &mut diff, 30);
    assert!(
        diff.is_empty(),
        "GET /api/v1/openapi.json differs from {}:\n  {}\nIf the change is intended, review it and run \
         UPDATE_SNAPSHOTS=1 cargo test --test it rest_facade::the_openapi_document_matches_the_snapshot",
        path.display(),
        diff.join("\n  ")
    );
}

#[tokio::test]
async fn the_docs_page_answers_html() {
    let app = TestApp::spawn().await;
    let res = app.get("/api/v1/docs").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(
        res.header("content-type")
            .is_some_and(|c| c.starts_with("text/html")),
        "{:?}",
        res.header("content-type")
    );
    let page = res.text();
    assert!(
        page.contains("<html") && page.contains("openapi.json"),
        "{page}"
    );
}

// ----------------------------------------------------------------- (d) behaviours

/// A body with the volatile `timestamp` of error bodies removed.
fn comparable(res: &TestResponse) -> Value {
    match serde_json::from_slice::<Value>(&res.body) {
        Ok(mut v) => {
            // When an answer was made is not part of what it says.
            if let Some(obj) = v.as_object_mut() {
                obj.remove("timestamp");
                obj.remove("generated_at");
                obj.remove("as_of");
            }
            v
        }
        Err(_) => Value::String(res.text()),
    }
}

#[tokio::test]
async fn both_trailing_slash_spellings_answer_alike_without_redirects() {
    let (app, token) = admin_app().await;
    let client = Client::new(&app);
    let auth = format!("Bearer {token}");
    let mut checked = 0;
    for route in routes().iter().filter(|r| r.method == RouteMethod::Get) {
        let (variables, _) = parse_operation(route.operation).expect("parses");
        for path in route.all_paths() {
            let concrete: Vec<String> = path
                .trim_end_matches('/')
                .split('/')
                .map(
                    |seg| match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                        Some(p) => {
                            let ty = variables.iter().find(|v| v.name == camel_case(p));
                            match ty.map(|v| named(&v.ty)) {
                                Some("Int") => "1".to_string(),
                                _ => "dummy-token".to_string(),
                            }
                        }
                        None => seg.to_string(),
                    },
                )
                .collect();
            let bare = format!("/api/v1{}", concrete.join("/"));
            let slashed = format!("{bare}/");
            let a = client
                .send(Method::GET, &bare, &[("authorization", &auth)], None)
                .await;
            let b = client
                .send(Method::GET, &slashed, &[("authorization", &auth)], None)
                .await;
            for (uri, res) in [(&bare, &a), (&slashed, &b)] {
                assert!(
                    !res.status.is_redirection() && res.header("location").is_none(),
                    "{uri} redirects: {}",
                    res.status
                );
                assert_ne!(res.status, StatusCode::METHOD_NOT_ALLOWED, "{uri}");
            }
            assert_eq!(a.status, b.status, "{bare} and {slashed}");
            assert_eq!(comparable(&a), comparable(&b), "{bare} and {slashed}");
            checked += 1;
        }
    }
    assert!(checked > 0);

    // A body-reading route too: the same refusal on either spelling.
    for uri in ["/api/v1/admin/users", "/api/v1/admin/users/"] {
        let res = client
            .json(Method::POST, uri, &token, r#"{"email": "new@example.com"}"#)
            .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{uri}: {}",
            res.text()
        );
    }
}

fn assert_validation_shape(res: &TestResponse, what: &str) -> Vec<Value> {
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{what}: {}",
        res.text()
    );
    let body = res.json();
    assert_eq!(body["error"], "VALIDATION_ERROR", "{what}: {body}");
    assert_eq!(
        body["message"], "Request validation failed",
        "{what}: {body}"
    );
    assert!(
        body["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{what}: {body}"
    );
    let errors = body["details"]["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: no details.errors in {body}"))
        .clone();
    assert!(!errors.is_empty(), "{what}: {body}");
    for e in &errors {
        for key in ["field", "message", "type"] {
            assert!(e[key].is_string(), "{what}: {key} in {e}");
        }
    }
    errors
}

#[tokio::test]
async fn malformed_requests_answer_422_in_the_contract_shape() {
    let (app, token) = admin_app().await;
    let client = Client::new(&app);
    let auth = format!("Bearer {token}");

    // A query-string value of the wrong type.
    let res = client
        .send(
            Method::GET,
            "/api/v1/admin/users/?limit=ten",
            &[("authorization", &auth)],
            None,
        )
        .await;
    let errors = assert_validation_shape(&res, "?limit=ten");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["field"], "query.limit");
    assert_eq!(errors[0]["type"], "int_parsing");
    // ... and a good one still works on the same route.
    let res = client
        .send(
            Method::GET,
            "/api/v1/admin/users/?limit=1&include_inactive=true",
            &[("authorization", &auth)],
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());

    // Bodies that are not JSON objects, on an input-object route and on a fields route.
    for uri in [
        "/api/v1/admin/users/",
        "/api/v1/auth/password-reset/complete",
    ] {
        for (body, kind) in [
            ("[1, 2]", "model_attributes_type"),
            ("\"text\"", "model_attributes_type"),
            ("42", "model_attributes_type"),
            ("{\"email\": ", "json_invalid"),
            ("not json", "json_invalid"),
        ] {
            let res = client.json(Method::POST, uri, &token, body).await;
            let errors = assert_validation_shape(&res, &format!("POST {uri} {body}"));
            assert_eq!(errors[0]["field"], "body", "{uri} {body}: {errors:?}");
            assert_eq!(errors[0]["type"], kind, "{uri} {body}: {errors:?}");
        }
    }

    // A missing required field is named in snake_case, with type `missing`.
    let res = client
        .json(
            Method::POST,
            "/api/v1/admin/users/",
            &token,
            r#"{"email": "new@example.com", "password": "Operator-pass1!"}"#,
        )
        .await;
    let errors = assert_validation_shape(&res, "team member without account_type");
    assert_eq!(
        errors,
        vec![json!({"field": "account_type", "message": "Field required", "type": "missing"})]
    );
    let res = client
        .json(
            Method::POST,
            "/api/v1/auth/password-reset/complete",
            &token,
            r#"{"token": "abc"}"#,
        )
        .await;
    let errors = assert_validation_shape(&res, "reset completion without new_password");
    assert_eq!(
        errors,
        vec![json!({"field": "new_password", "message": "Field required", "type": "missing"})]
    );
    // A wrong type inside an input object names the field too.
    let res = client
        .json(
            Method::POST,
            "/api/v1/admin/users/",
            &token,
            r#"{"email": "new@example.com", "password": "Operator-pass1!", "account_type": "boss", "first_name": 5}"#,
        )
        .await;
    let errors = assert_validation_shape(&res, "bad enum and bad string");
    let fields: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap_or(""),
                e["type"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        fields,
        vec![("first_name", "string_type"), ("account_type", "enum")]
    );
    // Nothing was created by any of the refused requests.
    let res = client
        .send(
            Method::GET,
            "/api/v1/admin/users/stats/summary",
            &[("authorization", &auth)],
            None,
        )
        .await;
    assert_eq!(res.json()["total_active"], 1, "{}", res.text());
}

#[tokio::test]
async fn unknown_api_paths_answer_404_not_found() {
    let (app, token) = admin_app().await;
    let client = Client::new(&app);
    let auth = format!("Bearer {token}");
    for (method, uri) in [
        (Method::GET, "/api/v1/does-not-exist"),
        (Method::GET, "/api/v1/does-not-exist/"),
        (Method::POST, "/api/v1/does-not-exist"),
        (Method::GET, "/api/v1/admin/users/1/nothing/here"),
        (Method::DELETE, "/api/v1/nowhere/1"),
        (Method::GET, "/api/v1"),
        (Method::GET, "/api/v1/"),
    ] {
        for headers in [vec![], vec![("authorization", auth.as_str())]] {
            let res = client.send(method.clone(), uri, &headers, None).await;
            assert_eq!(
                res.status,
                StatusCode::NOT_FOUND,
                "{method} {uri}: {}",
                res.text()
            );
            assert_eq!(res.json(), json!({"detail": "Not Found"}), "{method} {uri}");
        }
    }
}

#[tokio::test]
async fn cookies_set_by_resolvers_reach_the_rest_response() {
    let app = TestApp::spawn().await; // AUTH_MODE=cookie, the default
    let client = Client::new(&app);
    let set_cookies = |res: &TestResponse| -> Vec<String> {
        res.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect()
    };
    let json = [("content-type", "application/json")];

    let res = client
        .send(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json,
            Some(
                &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada Admin"})
                    .to_string(),
            ),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["token_type"], "cookie");
    let cookies = set_cookies(&res);
    assert!(
        cookies.iter().any(|c| c.starts_with("access_token=")),
        "{cookies:?}"
    );

    // Login, form-encoded as the original's OAuth2 form.
    let form = format!(
        "username={}&password={}",
        url::form_urlencoded::byte_serialize(ADMIN_EMAIL.as_bytes()).collect::<String>(),
        url::form_urlencoded::byte_serialize(ADMIN_PASSWORD.as_bytes()).collect::<String>()
    );
    let res = client
        .send(
            Method::POST,
            "/api/v1/auth/login",
            &[("content-type", "application/x-www-form-urlencoded")],
            Some(&form),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(body["token_type"], "cookie", "{body}");
    assert!(
        body.get("access_token").is_none(),
        "omitted in cookie mode: {body}"
    );
    let cookies = set_cookies(&res);
    let access = cookies
        .iter()
        .find(|c| c.starts_with("access_token="))
        .unwrap_or_else(|| panic!("no access_token cookie: {cookies:?}"));
    let refresh = cookies
        .iter()
        .find(|c| c.starts_with("refresh_token="))
        .unwrap_or_else(|| panic!("no refresh_token cookie: {cookies:?}"));
    // The access cookie reaches every API path (Strata widens CONTRACT 1.5's `/api` to `/`
    // so that `/graphql` sees it too); the refresh cookie only the auth endpoints.
    let cookie_path = |c: &str| -> String {
        c.split(';')
            .filter_map(|a| a.trim().strip_prefix("Path="))
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert!(access.contains("HttpOnly"), "{access}");
    assert!(
        ["/", "/api"].contains(&cookie_path(access).as_str()),
        "{access}"
    );
    assert!(refresh.contains("HttpOnly"), "{refresh}");
    assert_eq!(cookie_path(refresh), "/api/v1/auth", "{refresh}");

    // The cookie is a credential for the next REST call.
    let pair = access.split(';').next().expect("name=value");
    let res = client
        .send(Method::GET, "/api/v1/auth/me", &[("cookie", pair)], None)
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["email"], ADMIN_EMAIL);

    // Logout clears both, through the same header path.
    let res = client
        .send(
            Method::POST,
            "/api/v1/auth/logout",
            // The Origin a browser sends: a cookie-authenticated POST needs one (CSRF).
            &[
                ("cookie", pair),
                ("content-type", "application/json"),
                ("origin", "http://localhost:5173"),
            ],
            Some("{}"),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let cleared = set_cookies(&res);
    for name in ["access_token=", "refresh_token="] {
        assert!(
            cleared
                .iter()
                .any(|c| c.starts_with(name) && c.contains("Max-Age=0")),
            "{name} not cleared: {cleared:?}"
        );
    }
}

#[test]
fn every_alias_gets_an_operation_id_of_its_own() {
    // A synthetic table: the real one may have no route with two aliases yet.
    let route = Route::get(
        "/things/{id}",
        "query Thing($id: Int!) { teamMember(id: $id) { id } }",
        "teamMember",
    )
    .aliases(&["/old/things/{id}", "/older/things/{id}/"])
    .summary("A thing");
    let area_route = strata::platform::rest::AreaRoute {
        area: "things",
        route,
    };
    let compiled: Vec<std::sync::Arc<_>> = strata::platform::rest::compile(&[area_route], &types())
        .expect("compiles")
        .into_iter()
        .map(std::sync::Arc::new)
        .collect();
    let doc = strata::platform::rest::openapi::document(&compiled, &types());
    let mut ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let op = &item["get"];
        let id = op["operationId"].as_str().expect("operationId");
        assert!(
            ids.insert(id.to_string()),
            "{path}: operationId {id} is used twice"
        );
        let path_params: Vec<&str> = op["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .filter(|p| p["in"] == "path")
            .filter_map(|p| p["name"].as_str())
            .collect();
        assert_eq!(path_params, vec!["id"], "{path}");
    }
    assert_eq!(ids.len(), 3, "{ids:?}");
}
