//! The authorization matrix, generated from the route table and the schema: a route or a
//! root field added later is covered without touching this file. The one list a person
//! must edit on purpose is [`PUBLIC`].
//!
//! - REST: every route, every path spelling (canonical, aliases, with and without the
//!   trailing slash), called with a syntactically valid body built from the operation's
//!   variable types, as anonymous, with a bad token, as an operator and as an admin.
//! - GraphQL: every root field of Query and Mutation, called with arguments built from its
//!   types, as the same callers; each field's observed guard is compared with the access
//!   every route that uses it declares.
//!
//! Every request comes from an address of its own, so the per-address rate limits of the
//! public routes never hide what the guards answer.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};

use async_graphql::parser::types::{BaseType, Type, TypeKind, TypeSystemDefinition};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method as HttpMethod, Request, StatusCode};
use serde_json::{Map, Value, json};

use crate::common::routes;
use crate::common::{TestApp, TestResponse};
use strata::platform::auth::Access;
use strata::platform::rest::types::{camel_case, snake_case};
use strata::platform::rest::{Body as RouteBody, Method, Route, Variable, parse_operation};

/// The root fields anyone may call without signing in (CONTRACT "Nothing with business data
/// is public"). Adding a field here is a decision, not a fix for a failing test.
const PUBLIC: &[&str] = &[
    // Query
    "version",
    "tier",
    "system",
    // The original's `/api/v1/system/health`: public like `/health` (CONTRACT 4).
    "systemHealth",
    // Read by FilaOps's app at start-up, before sign-in (issue 37); its `environment` is
    // for signed-in users.
    "systemInfo",
    "setupStatus",
    "passwordResetStatus",
    // The company logo: shown on the login page and printed on quotes (CONTRACT 5.16).
    "companyLogo",
    // The order import's CSV template: public in the original (CONTRACT 5.11).
    "orderImportTemplate",
    // Mutation
    "setupInitialAdmin",
    "login",
    "refreshSession",
    "logout",
    "passwordResetRequest",
    "passwordResetApprove",
    "passwordResetDeny",
    "passwordResetComplete",
];

const NOT_AUTHENTICATED: &str = "Not authenticated";
const BAD_CREDENTIALS: &str = "Could not validate credentials";
const ADMIN_REQUIRED: &str = "Admin access required";

const ADMIN_EMAIL: &str = "admin@example.com";
const ADMIN_PASSWORD: &str = "Admin-pass1!";
const OPERATOR_EMAIL: &str = "op@example.com";
const OPERATOR_PASSWORD: &str = "Operator-pass1!";
/// A well-formed bearer token that no key signed.
const BAD_TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";

// ----------------------------------------------------------------------------- the SDL

/// An argument or an input-object field.
#[derive(Debug, Clone)]
struct InputDef {
    name: String,
    ty: Type,
    has_default: bool,
}

impl InputDef {
    fn required(&self) -> bool {
        !self.ty.nullable && !self.has_default
    }
}

/// A field of an object type.
#[derive(Debug, Clone)]
struct FieldDef {
    name: String,
    args: Vec<InputDef>,
    ty: Type,
}

/// What the generators need to know about the schema.
#[derive(Debug, Default)]
struct Sdl {
    query: String,
    mutation: Option<String>,
    objects: HashMap<String, Vec<FieldDef>>,
    composite: BTreeSet<String>,
    enums: HashMap<String, Vec<String>>,
    inputs: HashMap<String, Vec<InputDef>>,
}

impl Sdl {
    fn load() -> Sdl {
        let text = strata::application::areas::sdl();
        let doc = async_graphql::parser::parse_schema(&text).expect("the SDL parses");
        let mut sdl = Sdl {
            query: "Query".into(),
            ..Sdl::default()
        };
        let input_def = |v: async_graphql::parser::types::InputValueDefinition| InputDef {
            name: v.name.node.to_string(),
            ty: v.ty.node,
            has_default: v.default_value.is_some(),
        };
        for def in doc.definitions {
            match def {
                TypeSystemDefinition::Schema(s) => {
                    if let Some(q) = &s.node.query {
                        sdl.query = q.node.to_string();
                    }
                    sdl.mutation = s.node.mutation.as_ref().map(|m| m.node.to_string());
                }
                TypeSystemDefinition::Type(t) => {
                    let name = t.node.name.node.to_string();
                    match t.node.kind {
                        TypeKind::Object(o) => {
                            let fields = o
                                .fields
                                .into_iter()
                                .map(|f| FieldDef {
                                    name: f.node.name.node.to_string(),
                                    args: f
                                        .node
                                        .arguments
                                        .into_iter()
                                        .map(|a| input_def(a.node))
                                        .collect(),
                                    ty: f.node.ty.node,
                                })
                                .collect();
                            sdl.objects.insert(name.clone(), fields);
                            sdl.composite.insert(name);
                        }
                        TypeKind::Interface(_) | TypeKind::Union(_) => {
                            sdl.composite.insert(name);
                        }
                        TypeKind::Enum(e) => {
                            let values = e
                                .values
                                .into_iter()
                                .map(|v| v.node.value.node.to_string())
                                .collect();
                            sdl.enums.insert(name, values);
                        }
                        TypeKind::InputObject(i) => {
                            let fields = i.fields.into_iter().map(|f| input_def(f.node)).collect();
                            sdl.inputs.insert(name, fields);
                        }
                        TypeKind::Scalar => {}
                    }
                }
                TypeSystemDefinition::Directive(_) => {}
            }
        }
        sdl
    }

    /// The root fields: ("query" | "mutation", field).
    fn root_fields(&self) -> Vec<(&'static str, &FieldDef)> {
        let mut out = Vec::new();
        for (kind, root) in [
            ("query", Some(&self.query)),
            ("mutation", self.mutation.as_ref()),
        ] {
            let Some(root) = root else { continue };
            for f in self
                .objects
                .get(root)
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                out.push((kind, f));
            }
        }
        out
    }

    /// A GraphQL literal of type `ty` (required input fields only, recursively). Files
    /// cannot be literals: each becomes a variable `$uN`, named in `uploads`.
    fn literal(&self, ty: &Type, depth: usize, uploads: &mut Vec<String>) -> String {
        match &ty.base {
            BaseType::List(inner) => format!("[{}]", self.literal(inner, depth + 1, uploads)),
            BaseType::Named(name) => {
                let name = name.as_str();
                if name == "Upload" {
                    let var = format!("u{}", uploads.len());
                    uploads.push(var.clone());
                    return format!("${var}");
                }
                if let Some(values) = self.enums.get(name) {
                    return values.first().cloned().unwrap_or_default();
                }
                if let Some(fields) = self.inputs.get(name) {
                    assert!(depth < 16, "input type {name} nests too deep");
                    let parts: Vec<String> = fields
                        .iter()
                        .filter(|f| f.required())
                        .map(|f| format!("{}: {}", f.name, self.literal(&f.ty, depth + 1, uploads)))
                        .collect();
                    return format!("{{{}}}", parts.join(", "));
                }
                match scalar_json(name) {
                    Value::String(s) => format!("{s:?}"),
                    Value::Object(_) => "{}".into(),
                    other => other.to_string(),
                }
            }
        }
    }

    /// A JSON value of type `ty` as a REST client sends it (snake_case keys).
    fn json(&self, ty: &Type, depth: usize) -> Value {
        match &ty.base {
            BaseType::List(inner) => Value::Array(vec![self.json(inner, depth + 1)]),
            BaseType::Named(name) => {
                let name = name.as_str();
                if let Some(values) = self.enums.get(name) {
                    return Value::String(values.first().cloned().unwrap_or_default());
                }
                if let Some(fields) = self.inputs.get(name) {
                    assert!(depth < 16, "input type {name} nests too deep");
                    let mut map = Map::new();
                    for f in fields.iter().filter(|f| f.required()) {
                        map.insert(snake_case(&f.name), self.json(&f.ty, depth + 1));
                    }
                    return Value::Object(map);
                }
                scalar_json(name)
            }
        }
    }

    /// The text of a value of type `ty` in a query string, form field or path segment.
    fn text(&self, ty: &Type) -> String {
        match &ty.base {
            BaseType::List(inner) => self.text(inner),
            BaseType::Named(name) => {
                if let Some(values) = self.enums.get(name.as_str()) {
                    return values.first().cloned().unwrap_or_default();
                }
                match scalar_json(name.as_str()) {
                    Value::String(s) => s,
                    Value::Object(_) => "{}".into(),
                    other => other.to_string(),
                }
            }
        }
    }

    /// ` { __typename }` when `ty` needs a selection.
    fn selection(&self, ty: &Type) -> &'static str {
        let mut t = ty;
        while let BaseType::List(inner) = &t.base {
            t = inner;
        }
        match &t.base {
            BaseType::Named(n) if self.composite.contains(n.as_str()) => " { __typename }",
            _ => "",
        }
    }
}

/// A valid value of a scalar (custom scalars included: an invalid one would be refused by
/// validation before any guard runs).
fn scalar_json(name: &str) -> Value {
    match name {
        "Int" => json!(1),
        "Float" => json!(1.5),
        "Boolean" => json!(false),
        "ID" | "Decimal" => json!("1"),
        "DateTime" => json!("2026-01-01T00:00:00Z"),
        // The schema names its date scalar `NaiveDate` (async-graphql's name for chrono's).
        "Date" | "NaiveDate" => json!("2026-01-01"),
        "JSON" => json!({}),
        _ => json!("x"),
    }
}

fn is_upload(ty: &Type) -> bool {
    matches!(&ty.base, BaseType::Named(n) if n.as_str() == "Upload")
}

fn named(ty: &Type) -> &str {
    match &ty.base {
        BaseType::List(inner) => named(inner),
        BaseType::Named(n) => n.as_str(),
    }
}

// --------------------------------------------------------------------------- callers

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    Anonymous,
    BadToken,
    Operator,
    Admin,
}

const CALLERS: [Who; 4] = [Who::Anonymous, Who::BadToken, Who::Operator, Who::Admin];

/// The app with its two signed-in users; every request from an address of its own.
struct Harness {
    app: TestApp,
    admin: String,
    operator: String,
    next_ip: AtomicU32,
}

impl Harness {
    /// A header-mode app with the first admin (created first, so that no generated request
    /// to `setupInitialAdmin` can ever create it) and an operator.
    async fn start() -> Harness {
        let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
        let mut h = Harness {
            app,
            admin: String::new(),
            operator: String::new(),
            next_ip: AtomicU32::new(1),
        };
        let res = h
            .send(
                HttpMethod::POST,
                "/api/v1/setup/initial-admin",
                Who::Anonymous,
                Some(("application/json", json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada Admin"}).to_string().into_bytes())),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "initial admin: {}", res.text());
        h.admin = res.json()["access_token"]
            .as_str()
            .expect("access_token")
            .to_string();
        let res = h
            .send(
                HttpMethod::POST,
                "/api/v1/admin/users/",
                Who::Admin,
                Some(("application/json", json!({"email": OPERATOR_EMAIL, "password": OPERATOR_PASSWORD, "account_type": "operator"}).to_string().into_bytes())),
            )
            .await;
        assert_eq!(res.status, StatusCode::CREATED, "operator: {}", res.text());
        let res = h
            .send(
                HttpMethod::POST,
                "/api/v1/auth/login",
                Who::Anonymous,
                Some((
                    "application/json",
                    json!({"username": OPERATOR_EMAIL, "password": OPERATOR_PASSWORD})
                        .to_string()
                        .into_bytes(),
                )),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "operator login: {}", res.text());
        h.operator = res.json()["access_token"]
            .as_str()
            .expect("access_token")
            .to_string();
        h
    }

    fn token(&self, who: Who) -> Option<&str> {
        match who {
            Who::Anonymous => None,
            Who::BadToken => Some(BAD_TOKEN),
            Who::Operator => Some(&self.operator),
            Who::Admin => Some(&self.admin),
        }
    }

    /// The access token of a new session of the given user.
    async fn fresh_session(&self, email: &str, password: &str) -> String {
        let body = json!({"username": email, "password": password}).to_string();
        let mut req = Request::builder()
            .method(HttpMethod::POST)
            .uri("/api/v1/auth/login")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request");
        // From an address of its own, like every request: the sign-in throttle counts per
        // account and address.
        let n = self.next_ip.fetch_add(1, Ordering::Relaxed);
        let peer = SocketAddr::from(([198, 18 + (n >> 16) as u8, (n >> 8) as u8, n as u8], 40000));
        req.extensions_mut().insert(ConnectInfo(peer));
        let res = self.app.request(req).await;
        assert_eq!(res.status, StatusCode::OK, "fresh session: {}", res.text());
        res.json()["access_token"]
            .as_str()
            .expect("access_token")
            .to_string()
    }

    /// Sends a request from a fresh client address (198.18.0.0/15, the benchmarking range).
    async fn send(
        &self,
        method: HttpMethod,
        uri: &str,
        who: Who,
        body: Option<(&str, Vec<u8>)>,
    ) -> TestResponse {
        let n = self.next_ip.fetch_add(1, Ordering::Relaxed);
        let peer: SocketAddr = format!(
            "198.{}.{}.{}:40000",
            18 + (n >> 16),
            (n >> 8) & 255,
            n & 255
        )
        .parse()
        .expect("peer address");
        // Logout ends the session of the token it is sent with (issue 11), so a signed-in
        // caller logs out of a session of its own, and the harness's sessions live on.
        let ends_session = uri.contains("/auth/logout")
            || body
                .as_ref()
                .is_some_and(|(_, bytes)| String::from_utf8_lossy(bytes).contains("logout"));
        let token = match (who, ends_session) {
            (Who::Admin, true) => Some(self.fresh_session(ADMIN_EMAIL, ADMIN_PASSWORD).await),
            (Who::Operator, true) => {
                Some(self.fresh_session(OPERATOR_EMAIL, OPERATOR_PASSWORD).await)
            }
            _ => self.token(who).map(str::to_string),
        };
        let mut b = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            b = b.header("authorization", format!("Bearer {t}"));
        }
        let mut req = match body {
            Some((content_type, bytes)) => b
                .header("content-type", content_type)
                .header("content-length", bytes.len())
                .body(Body::from(bytes)),
            None => b.body(Body::empty()),
        }
        .expect("request");
        req.extensions_mut().insert(ConnectInfo(peer));
        self.app.request(req).await
    }

    /// Runs `query` through `POST /graphql`; the variables named in `uploads` are files, sent
    /// as a GraphQL multipart request.
    async fn graphql(&self, query: &str, uploads: &[String], who: Who) -> Value {
        let operation = json!({ "query": query });
        let body = if uploads.is_empty() {
            ("application/json", operation.to_string().into_bytes())
        } else {
            let boundary = "authz-matrix-boundary";
            let mut map = Map::new();
            let mut variables = Map::new();
            for (i, var) in uploads.iter().enumerate() {
                map.insert(i.to_string(), json!([format!("variables.{var}")]));
                variables.insert(var.clone(), Value::Null);
            }
            let operations = json!({ "query": query, "variables": variables });
            let mut text = String::new();
            for (name, value) in [("operations", operations), ("map", Value::Object(map))] {
                let _ = write!(
                    text,
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                );
            }
            for i in 0..uploads.len() {
                let _ = write!(
                    text,
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{i}\"; filename=\"dummy.csv\"\r\nContent-Type: text/csv\r\n\r\nx\r\n"
                );
            }
            let _ = write!(text, "--{boundary}--\r\n");
            (
                "multipart/form-data; boundary=authz-matrix-boundary",
                text.into_bytes(),
            )
        };
        let res = self
            .send(HttpMethod::POST, "/graphql", who, Some(body))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{query}: {}", res.text());
        res.json()
    }
}

// ------------------------------------------------------------------------------- REST

/// One concrete request of a route: the URI, and the body with its content type.
struct Call {
    method: HttpMethod,
    uri: String,
    body: Option<(&'static str, Vec<u8>)>,
}

/// Builds a syntactically valid request for `route` at `path` from its variables' types:
/// path parameters get `1` (numbers) or a dummy token, required variables a dummy value of
/// their type in the place the route binds them from.
fn build_call(sdl: &Sdl, route: &Route, variables: &[Variable], path: &str) -> Call {
    let mut uri_path = String::from("/api/v1");
    let mut from_path = BTreeSet::new();
    for seg in path.split('/').skip(1) {
        uri_path.push('/');
        match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(param) => {
                let name = camel_case(param);
                let var = variables.iter().find(|v| v.name == name);
                let value = match var.map(|v| named(&v.ty)) {
                    Some("Int" | "ID" | "Float" | "Decimal") | None => "1".to_string(),
                    Some(_) => "dummy-token".to_string(),
                };
                uri_path.push_str(&value);
                from_path.insert(name);
            }
            None => uri_path.push_str(seg),
        }
    }
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    let mut any_query = false;
    let mut json_body = Map::new();
    let mut parts: Vec<(String, Option<String>, String)> = Vec::new(); // (name, filename, text)
    for var in variables {
        if from_path.contains(&var.name) {
            continue;
        }
        let required = !var.ty.nullable && !var.has_default;
        let rest_name = snake_case(&var.name);
        match route.body {
            RouteBody::Input(input) if input == var.name => {
                json_body = match sdl.json(&var.ty, 0) {
                    Value::Object(m) => m,
                    other => panic!(
                        "{} {}: body input {input} is {other}",
                        route.method.as_str(),
                        route.path
                    ),
                };
                continue;
            }
            RouteBody::Fields if required => {
                json_body.insert(rest_name, sdl.json(&var.ty, 0));
                continue;
            }
            RouteBody::Multipart if required || is_upload(&var.ty) => {
                if is_upload(&var.ty) {
                    parts.push((rest_name, Some("dummy.csv".into()), "x\n".into()));
                } else {
                    parts.push((rest_name, None, sdl.text(&var.ty)));
                }
                continue;
            }
            _ => {}
        }
        if required {
            query.append_pair(&rest_name, &sdl.text(&var.ty));
            any_query = true;
        }
    }
    let uri = if any_query {
        format!("{uri_path}?{}", query.finish())
    } else {
        uri_path
    };
    let body = match route.body {
        RouteBody::None => None,
        RouteBody::Input(_) | RouteBody::Fields => Some((
            "application/json",
            Value::Object(json_body).to_string().into_bytes(),
        )),
        RouteBody::Multipart => {
            let boundary = "authz-matrix-boundary";
            let mut text = String::new();
            for (name, filename, value) in parts {
                let _ = write!(
                    text,
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\""
                );
                if let Some(f) = filename {
                    let _ = write!(text, "; filename=\"{f}\"\r\nContent-Type: text/csv");
                }
                let _ = write!(text, "\r\n\r\n{value}\r\n");
            }
            let _ = write!(text, "--{boundary}--\r\n");
            Some((
                "multipart/form-data; boundary=authz-matrix-boundary",
                text.into_bytes(),
            ))
        }
    };
    let method = match route.method {
        Method::Get => HttpMethod::GET,
        Method::Post => HttpMethod::POST,
        Method::Put => HttpMethod::PUT,
        Method::Patch => HttpMethod::PATCH,
        Method::Delete => HttpMethod::DELETE,
    };
    Call { method, uri, body }
}

/// Every spelling of a route's paths: canonical and aliases, with and without the slash.
fn spellings(route: &Route) -> Vec<String> {
    let mut out = Vec::new();
    for p in route.all_paths() {
        let trimmed = p.trim_end_matches('/');
        for s in [trimmed.to_string(), format!("{trimmed}/")] {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

fn detail(res: &TestResponse) -> String {
    serde_json::from_slice::<Value>(&res.body)
        .ok()
        .and_then(|v| v.get("detail").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_default()
}

/// The guard's own answers: 401 `Not authenticated` / `Could not validate credentials`, 403
/// `Admin access required`.
fn rest_guard_denied(res: &TestResponse) -> bool {
    let d = detail(res);
    (res.status == StatusCode::UNAUTHORIZED && (d == NOT_AUTHENTICATED || d == BAD_CREDENTIALS))
        || (res.status == StatusCode::FORBIDDEN && d == ADMIN_REQUIRED)
}

/// What `who` must get from a route declared `access`; `None` when it is right.
fn check_rest(route: &Route, who: Who, res: &TestResponse) -> Option<String> {
    let access = route.access;
    let forbidden = route.forbidden.unwrap_or(ADMIN_REQUIRED);
    let d = detail(res);
    let ok = match (access, who) {
        (Access::Public, _) => !rest_guard_denied(res),
        (_, Who::Anonymous) => res.status == StatusCode::UNAUTHORIZED && d == NOT_AUTHENTICATED,
        (_, Who::BadToken) => res.status == StatusCode::UNAUTHORIZED && d == BAD_CREDENTIALS,
        (Access::Admin, Who::Operator) => res.status == StatusCode::FORBIDDEN && d == forbidden,
        (Access::User, Who::Operator) | (_, Who::Admin) => {
            res.status != StatusCode::UNAUTHORIZED && res.status != StatusCode::FORBIDDEN
        }
    };
    let expected = match (access, who) {
        (Access::Public, _) => {
            "no guard answer (no 401 Not authenticated / 403 Admin access required)"
        }
        (_, Who::Anonymous) => "401 Not authenticated",
        (_, Who::BadToken) => "401 Could not validate credentials",
        (Access::Admin, Who::Operator) => "403 for operators",
        _ => "neither 401 nor 403",
    };
    (!ok).then(|| {
        format!(
            "expected {expected}, got {} {}",
            res.status.as_u16(),
            res.text()
        )
    })
}

fn access_name(a: Access) -> &'static str {
    match a {
        Access::Public => "public",
        Access::User => "user",
        Access::Admin => "admin",
    }
}

#[tokio::test]
async fn every_rest_route_answers_each_caller_as_its_declared_access_says() {
    let sdl = Sdl::load();
    let h = Harness::start().await;
    let mut failures = Vec::new();
    let mut table =
        String::from("\nREST authorization matrix (anon / bad token / operator / admin)\n");
    let mut checked = 0;
    // Not an authorization failure, but worth a look: a valid request should never be a 500.
    let mut server_errors = Vec::new();
    let all = routes();
    assert!(!all.is_empty(), "no routes declared");
    // Public routes last: a generated request to one of them (logout, say) must not be able
    // to change what the guarded routes see.
    let mut ordered: Vec<&Route> = all.iter().filter(|r| r.access != Access::Public).collect();
    ordered.extend(all.iter().filter(|r| r.access == Access::Public));
    for route in ordered {
        let (variables, _) = parse_operation(route.operation)
            .unwrap_or_else(|e| panic!("{} {}: {e}", route.method.as_str(), route.path));
        for path in spellings(route) {
            let call = build_call(&sdl, route, &variables, &path);
            let mut statuses = Vec::new();
            for who in CALLERS {
                let res = h
                    .send(call.method.clone(), &call.uri, who, call.body.clone())
                    .await;
                checked += 1;
                statuses.push(res.status.as_u16().to_string());
                if res.status.is_server_error() {
                    server_errors.push(format!("{} {} as {who:?}", call.method, call.uri));
                }
                if let Some(problem) = check_rest(route, who, &res) {
                    failures.push(format!(
                        "{} {} ({}) as {who:?}: {problem}",
                        call.method,
                        call.uri,
                        access_name(route.access)
                    ));
                }
            }
            let _ = writeln!(
                table,
                "  {:<7} {:<48} {:<7} {}",
                route.method.as_str(),
                path,
                access_name(route.access),
                statuses.join(" / ")
            );
        }
    }
    // The admin's session is intact after the whole sweep (no generated request ended it).
    let me = h
        .send(HttpMethod::GET, "/api/v1/auth/me", Who::Admin, None)
        .await;
    assert_eq!(
        me.status,
        StatusCode::OK,
        "admin after the sweep: {}",
        me.text()
    );
    let _ = writeln!(table, "  {checked} requests checked");
    for e in &server_errors {
        let _ = writeln!(table, "  WARNING: 5xx answer to {e}");
    }
    println!("{table}");
    assert!(
        failures.is_empty(),
        "{} authorization failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------- GraphQL

/// What a guard did to one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// UNAUTHENTICATED `Not authenticated` (or `Could not validate credentials`).
    Unauthenticated,
    /// FORBIDDEN `Admin access required`.
    Forbidden,
    /// The guard let it through (whatever the resolver then said).
    Passed,
}

impl Outcome {
    fn short(self) -> &'static str {
        match self {
            Outcome::Unauthenticated => "401",
            Outcome::Forbidden => "403",
            Outcome::Passed => "ok",
        }
    }
}

fn code_and_message(error: &Value) -> (&str, &str) {
    (
        error["extensions"]["code"].as_str().unwrap_or_default(),
        error["message"].as_str().unwrap_or_default(),
    )
}

/// Classifies a response; panics when the generated operation did not even validate (an
/// error without a path), since then no guard ran.
fn outcome(query: &str, body: &Value) -> Outcome {
    let errors = body["errors"].as_array().cloned().unwrap_or_default();
    for e in &errors {
        assert!(
            e["path"].as_array().is_some_and(|p| !p.is_empty()),
            "the generated operation `{query}` was refused before execution: {e}"
        );
    }
    if errors.iter().any(|e| {
        let (code, message) = code_and_message(e);
        code == "UNAUTHENTICATED" && (message == NOT_AUTHENTICATED || message == BAD_CREDENTIALS)
    }) {
        Outcome::Unauthenticated
    } else if errors.iter().any(|e| {
        let (code, message) = code_and_message(e);
        code == "FORBIDDEN" && message == ADMIN_REQUIRED
    }) {
        Outcome::Forbidden
    } else {
        Outcome::Passed
    }
}

/// The access a field's guard enforces, as observed.
fn observed(anon: Outcome, operator: Outcome) -> Access {
    match (anon, operator) {
        (Outcome::Unauthenticated, Outcome::Forbidden) => Access::Admin,
        (Outcome::Unauthenticated, _) => Access::User,
        _ => Access::Public,
    }
}

fn rank(a: Access) -> u8 {
    match a {
        Access::Public => 0,
        Access::User => 1,
        Access::Admin => 2,
    }
}

#[tokio::test]
async fn every_root_field_is_guarded_and_agrees_with_the_routes_that_use_it() {
    let sdl = Sdl::load();
    let h = Harness::start().await;
    let mut failures = Vec::new();

    for name in PUBLIC {
        assert!(
            sdl.root_fields().iter().any(|(_, f)| f.name == *name),
            "PUBLIC names {name}, which is not a root field any more: remove it"
        );
    }

    // Which routes use which root fields.
    let mut used_by: BTreeMap<String, Vec<(String, Access)>> = BTreeMap::new();
    let all = routes();
    for route in &all {
        let (_, root_fields) = parse_operation(route.operation)
            .unwrap_or_else(|e| panic!("{} {}: {e}", route.method.as_str(), route.path));
        for f in root_fields.into_iter().filter(|f| !f.starts_with("__")) {
            used_by.entry(f).or_default().push((
                format!("{} {}", route.method.as_str(), route.path),
                route.access,
            ));
        }
    }

    let mut levels: HashMap<String, Access> = HashMap::new();
    let mut table =
        String::from("\nGraphQL root fields (anon / bad token / operator / admin -> guard)\n");
    // Mutations run after queries; as operator and admin after the anonymous calls.
    let fields = sdl.root_fields();
    for (kind, field) in &fields {
        let mut uploads = Vec::new();
        let args: Vec<String> = field
            .args
            .iter()
            .filter(|a| a.required())
            .map(|a| format!("{}: {}", a.name, sdl.literal(&a.ty, 0, &mut uploads)))
            .collect();
        let args = if args.is_empty() {
            String::new()
        } else {
            format!("({})", args.join(", "))
        };
        let declarations = if uploads.is_empty() {
            String::new()
        } else {
            let vars: Vec<String> = uploads.iter().map(|u| format!("${u}: Upload!")).collect();
            format!("({})", vars.join(", "))
        };
        let query = format!(
            "{kind}{declarations} {{ {}{args}{} }}",
            field.name,
            sdl.selection(&field.ty)
        );
        let mut results = Vec::new();
        for who in CALLERS {
            let body = h.graphql(&query, &uploads, who).await;
            results.push(outcome(&query, &body));
        }
        let [anon, bad, operator, admin] = [results[0], results[1], results[2], results[3]];
        let level = observed(anon, operator);
        levels.insert(field.name.clone(), level);
        let public = PUBLIC.contains(&field.name.as_str());
        if public && level != Access::Public {
            failures.push(format!(
                "{}: listed in PUBLIC but anonymous callers get UNAUTHENTICATED (`{query}`)",
                field.name
            ));
        }
        if !public && anon != Outcome::Unauthenticated {
            failures.push(format!(
                "{}: anonymous callers are not refused with UNAUTHENTICATED; guard it or add it to PUBLIC on purpose (`{query}`)",
                field.name
            ));
        }
        if !public && bad != Outcome::Unauthenticated {
            failures.push(format!(
                "{}: a bad token is not refused with UNAUTHENTICATED (`{query}`)",
                field.name
            ));
        }
        if public && (bad != Outcome::Passed || operator != Outcome::Passed) {
            failures.push(format!(
                "{}: a public field refused a signed-in caller or a stale token (`{query}`)",
                field.name
            ));
        }
        if admin != Outcome::Passed {
            failures.push(format!("{}: the admin is refused (`{query}`)", field.name));
        }
        let routes_here = used_by.get(&field.name).cloned().unwrap_or_default();
        for (route, access) in &routes_here {
            if *access == Access::Admin && operator != Outcome::Forbidden {
                failures.push(format!(
                    "{}: used by admin route {route}, but an operator is not refused with FORBIDDEN",
                    field.name
                ));
            }
        }
        let _ = writeln!(
            table,
            "  {:<8} {:<26} {:>3} / {:>3} / {:>3} / {:>3} -> {:<6} {}",
            kind,
            field.name,
            anon.short(),
            bad.short(),
            operator.short(),
            admin.short(),
            access_name(level),
            routes_here
                .iter()
                .map(|(r, _)| r.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    // Each route's declared access is what its fields' guards enforce (the strictest one).
    let _ = writeln!(
        table,
        "\nRoutes: declared access vs the guards of their fields"
    );
    for route in &all {
        let (_, root_fields) = parse_operation(route.operation).expect("parses");
        let mut strictest = Access::Public;
        for f in root_fields.iter().filter(|f| !f.starts_with("__")) {
            match levels.get(f) {
                Some(level) if rank(*level) > rank(strictest) => strictest = *level,
                Some(_) => {}
                None => failures.push(format!(
                    "{} {}: selects {f}, which is not a root field",
                    route.method.as_str(),
                    route.path
                )),
            }
        }
        let agrees = strictest == route.access;
        if !agrees {
            failures.push(format!(
                "{} {}: declared {}, but its fields' guards enforce {}",
                route.method.as_str(),
                route.path,
                access_name(route.access),
                access_name(strictest)
            ));
        }
        let _ = writeln!(
            table,
            "  {:<7} {:<48} declared {:<6} guards {:<6} {}",
            route.method.as_str(),
            route.path,
            access_name(route.access),
            access_name(strictest),
            if agrees { "ok" } else { "MISMATCH" }
        );
    }
    let _ = writeln!(
        table,
        "  {} root fields x {} callers checked",
        fields.len(),
        CALLERS.len()
    );
    println!("{table}");
    assert!(
        failures.is_empty(),
        "{} authorization failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
