//! Request helpers shared by the master-data integration tests: an admin and an operator
//! with bearer tokens, a REST call, a GraphQL call and a table snapshot.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use super::{TestApp, TestResponse};

pub async fn admin(app: &TestApp) -> String {
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()["access_token"]
        .as_str()
        .expect("token")
        .to_string()
}

pub async fn operator(app: &TestApp, admin: &str) -> String {
    let res = call(
        app,
        Method::POST,
        "/api/v1/admin/users/",
        Some(json!({"email": "op@example.com", "password": "Operator-pass1!", "account_type": "operator"})),
        admin,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/auth/login",
            &json!({"username": "op@example.com", "password": "Operator-pass1!"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()["access_token"]
        .as_str()
        .expect("token")
        .to_string()
}

pub async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
    token: &str,
) -> TestResponse {
    let b = Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {token}"));
    let req = match body {
        Some(v) => b
            .header("content-type", "application/json")
            .body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
    app.request(req).await
}

/// A REST call that must be refused: its status and JSON body.
pub async fn refused(
    app: &TestApp,
    t: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let res = call(app, method, path, body, t).await;
    (res.status, res.json())
}

/// A REST call that must succeed (200, 201 or 204): its JSON body (null for a 204).
pub async fn ok(app: &TestApp, t: &str, method: Method, path: &str, body: Option<Value>) -> Value {
    let res = call(app, method, path, body, t).await;
    assert!(
        res.status == StatusCode::OK
            || res.status == StatusCode::CREATED
            || res.status == StatusCode::NO_CONTENT,
        "{path}: {} {}",
        res.status,
        res.text()
    );
    if res.status == StatusCode::NO_CONTENT {
        Value::Null
    } else {
        res.json()
    }
}

pub async fn gql(app: &TestApp, token: &str, query: &str, variables: Value) -> Value {
    let res = call(
        app,
        Method::POST,
        "/graphql",
        Some(json!({"query": query, "variables": variables})),
        token,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()
}

/// The whole table as JSON text, to prove a refused request changed nothing.
pub async fn table_json(app: &TestApp, table: &str) -> String {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .query_one(
            &format!("SELECT coalesce(json_agg(t ORDER BY t.id)::text, '[]') FROM {table} t"),
            &[],
        )
        .await
        .expect("dump")
        .get::<_, String>(0)
}

pub async fn app() -> TestApp {
    TestApp::spawn_with(&[("AUTH_MODE", "header")]).await
}

/// A multipart upload of one file (as `file`) plus text fields.
pub async fn upload(
    app: &TestApp,
    path: &str,
    token: &str,
    filename: &str,
    content: &[u8],
    fields: &[(&str, &str)],
) -> TestResponse {
    let boundary = "strata-test-boundary";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
    );
    body.extend_from_slice(content);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    app.request(
        Request::builder()
            .method(Method::POST)
            .uri(path)
            .header("authorization", format!("Bearer {token}"))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(Body::from(body))
            .expect("request"),
    )
    .await
}

/// A request with any headers and a raw body.
pub async fn raw(
    app: &TestApp,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> TestResponse {
    let mut b = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    app.request(b.body(Body::from(body.to_string())).expect("request"))
        .await
}

/// A state machine's moves as its refusals word them: `['a', 'b']`, or `none (terminal
/// state)`.
pub fn allowed_list(allowed: &[&str]) -> String {
    if allowed.is_empty() {
        "none (terminal state)".to_string()
    } else {
        format!(
            "[{}]",
            allowed
                .iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// An item to create through `POST /api/v1/items`: the one item builder of the tests.
/// `item("FG-1")` is a finished good in `EA` named `FG-1 item`; the setters change that.
pub fn item(sku: &str) -> NewItem {
    NewItem {
        body: json!({"sku": sku, "name": format!("{sku} item"), "item_type": "finished_good", "unit": "EA"}),
    }
}

/// The body of an item to create (see [`item`]).
#[must_use]
pub struct NewItem {
    body: Value,
}

impl NewItem {
    /// Its type (`finished_good`, `component`, `material`, ...).
    pub fn kind(self, kind: &str) -> NewItem {
        self.with("item_type", json!(kind))
    }

    /// Its stocking unit.
    pub fn unit(self, unit: &str) -> NewItem {
        self.with("unit", json!(unit))
    }

    /// Its selling price, when one is given.
    pub fn price(self, price: Option<&str>) -> NewItem {
        match price {
            Some(p) => self.with("selling_price", json!(p)),
            None => self,
        }
    }

    /// Whether it tracks serial numbers.
    pub fn serials(self, on: bool) -> NewItem {
        self.with("track_serials", json!(on))
    }

    /// Any other field of the create body.
    pub fn with(mut self, key: &str, value: Value) -> NewItem {
        self.body[key] = value;
        self
    }

    /// Creates it (201 asserted) and answers its id.
    pub async fn create(self, app: &TestApp, t: &str) -> i64 {
        create_item(app, t, self.body).await
    }
}

/// Creates an item from a whole create body (201 asserted) and answers its id.
pub async fn create_item(app: &TestApp, t: &str, body: Value) -> i64 {
    let res = call(app, Method::POST, "/api/v1/items", Some(body), t).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()["id"].as_i64().expect("item id")
}

/// A released production order of `quantity` units of a product.
pub async fn released_order(app: &TestApp, t: &str, product: i64, quantity: &str) -> (i64, String) {
    let wo = ok(
        app,
        t,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": product, "quantity_ordered": quantity})),
    )
    .await;
    let id = wo["id"].as_i64().expect("wo");
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/production-orders/{id}/release"),
        None,
    )
    .await;
    (id, wo["code"].as_str().expect("code").to_owned())
}
