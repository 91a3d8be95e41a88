//! Vendors and customers through REST and GraphQL: list, filter, search, page, create,
//! update, delete, the 4xx of bad input with the database unchanged after each, who may do
//! what, and the customer CSV import (template, preview, import, 10,000 rows).

use std::time::Instant;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::{TestApp, TestResponse};

const ADMIN_EMAIL: &str = "ada@example.com";
const ADMIN_PASSWORD: &str = "Admin-pass1!";
const OPERATOR_PASSWORD: &str = "Operator-pass1!";

/// An app in header mode with its first admin; returns the admin's token.
async fn app_with_admin() -> (TestApp, String) {
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada Lovelace"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let token = res.json()["access_token"]
        .as_str()
        .expect("token")
        .to_string();
    (app, token)
}

/// Creates an operator and returns their token.
async fn operator(app: &TestApp, admin: &str) -> String {
    let res = call(
        app,
        Method::POST,
        "/api/v1/admin/users/",
        Some(json!({"email": "op@example.com", "password": OPERATOR_PASSWORD, "account_type": "operator"})),
        Some(admin),
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    app.send_json(
        Method::POST,
        "/api/v1/auth/login",
        &json!({"username": "op@example.com", "password": OPERATOR_PASSWORD}),
    )
    .await
    .json()["access_token"]
        .as_str()
        .expect("operator token")
        .to_string()
}

async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> TestResponse {
    let mut b = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(v) => b
            .header("content-type", "application/json")
            .body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
    app.request(req).await
}

/// Runs a GraphQL operation with a bearer token; returns the whole response body.
async fn gql(app: &TestApp, token: &str, query: &str, variables: Value) -> Value {
    let res = call(
        app,
        Method::POST,
        "/graphql",
        Some(json!({"query": query, "variables": variables})),
        Some(token),
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()
}

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    app.scalar(sql).await
}

async fn count(app: &TestApp, table: &str) -> i64 {
    scalar(app, &format!("SELECT count(*) FROM {table}")).await
}

/// Every row of a table as JSON text, to prove a failed request changed nothing.
async fn snapshot(app: &TestApp, table: &str) -> String {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .query_one(
            &format!("SELECT coalesce(json_agg(t ORDER BY id)::text, '[]') FROM {table} t"),
            &[],
        )
        .await
        .expect("snapshot")
        .get::<_, String>(0)
}

fn field_errors(res: &TestResponse) -> Vec<String> {
    res.json()["details"]["errors"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter_map(|x| x["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

// ----------------------------------------------------------------------------- vendors

#[tokio::test]
async fn vendors_through_rest_list_search_page_create_update_delete() {
    let (app, t) = app_with_admin().await;
    let t = Some(t.as_str());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Filament Co", "email": "Sales@Filament.example", "rating": 4, "lead_time_days": 7, "city": "Austin", "state": "TX", "postal_code": "78701"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let v = res.json();
    let code = v["code"].as_str().expect("code").to_string();
    assert!(
        regex::Regex::new(r"^VND-\d{3,}$")
            .expect("re")
            .is_match(&code),
        "{code}"
    );
    assert_eq!(v["email"], "sales@filament.example");
    assert_eq!(v["po_count"], 0);
    assert_eq!(v["is_active"], true);
    assert_eq!(v["address"], "Austin, TX 78701");
    assert!(v["created_at"].as_str().unwrap_or_default().ends_with('Z'));
    // The spec's single address text is kept as the street address.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/vendors",
        Some(json!({"name": "Spool House", "code": "sh-1", "address": "9 Reel Rd"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    assert_eq!(
        (
            res.json()["code"].as_str(),
            res.json()["address_line1"].as_str()
        ),
        (Some("SH-1"), Some("9 Reel Rd"))
    );
    for i in 0..4 {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/vendors/",
            Some(json!({"name": format!("Supplier {i}"), "code": format!("S{i}"), "is_active": i != 3})),
            t,
        )
        .await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    }

    // Bad input: the status and body of each, and nothing written.
    let before = snapshot(&app, "vendors").await;
    let cases = [
        (
            json!({"name": "Dup", "code": "s1"}),
            StatusCode::BAD_REQUEST,
            "",
        ),
        (
            json!({"code": "X"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"name": "  "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"name": "Bad", "email": "x@y.local"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "email",
        ),
        (
            json!({"name": "Bad", "rating": 9}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rating",
        ),
        (
            json!({"name": "Bad", "rating": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rating",
        ),
        (
            json!({"name": "Bad", "lead_time_days": -1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "lead_time_days",
        ),
        (
            json!({"name": "Bad", "lead_time_days": "soon"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "lead_time_days",
        ),
        (json!({"name": 5}), StatusCode::UNPROCESSABLE_ENTITY, "name"),
    ];
    for (body, status, field) in cases {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/vendors/",
            Some(body.clone()),
            t,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
        if status == StatusCode::BAD_REQUEST {
            assert_eq!(res.json()["detail"], "Vendor code 'S1' already exists");
        } else {
            assert_eq!(field_errors(&res), [field], "{body}");
        }
    }
    let res = call(&app, Method::POST, "/api/v1/vendors/", Some(json!([1])), t).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(snapshot(&app, "vendors").await, before);

    // List: by name, active only by default, the contract's envelope, pages, search.
    let list = call(&app, Method::GET, "/api/v1/vendors/", None, t).await;
    assert_eq!(list.status, StatusCode::OK);
    let list = list.json();
    assert_eq!(
        list["pagination"],
        json!({"total": 5, "offset": 0, "limit": 50, "returned": 5})
    );
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Filament Co",
            "Spool House",
            "Supplier 0",
            "Supplier 1",
            "Supplier 2"
        ]
    );
    for key in [
        "id",
        "code",
        "name",
        "contact_name",
        "email",
        "phone",
        "city",
        "state",
        "payment_terms",
        "is_active",
        "po_count",
    ] {
        assert!(list["items"][0].get(key).is_some(), "{key}");
    }
    let all = call(
        &app,
        Method::GET,
        "/api/v1/vendors?active_only=false&limit=2&offset=4",
        None,
        t,
    )
    .await
    .json();
    assert_eq!(
        all["pagination"],
        json!({"total": 6, "offset": 4, "limit": 2, "returned": 2})
    );
    assert_eq!(all["items"][1]["name"], "Supplier 3");
    let found = call(
        &app,
        Method::GET,
        "/api/v1/vendors/?search=FILAMENT",
        None,
        t,
    )
    .await
    .json();
    assert_eq!(found["pagination"]["total"], 1);
    let found = call(&app, Method::GET, "/api/v1/vendors/?search=sh-", None, t)
        .await
        .json();
    assert_eq!(found["items"][0]["code"], "SH-1");
    let big = call(&app, Method::GET, "/api/v1/vendors/?limit=500", None, t).await;
    assert_eq!(big.status, StatusCode::OK);
    for bad in [
        "limit=501",
        "limit=0",
        "offset=-1",
        "limit=ten",
        "active_only=maybe",
    ] {
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/vendors/?{bad}"),
            None,
            t,
        )
        .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
    }

    // One, change, refuse bad changes, delete.
    let id = v["id"].as_i64().expect("id");
    let one = call(&app, Method::GET, &format!("/api/v1/vendors/{id}"), None, t).await;
    assert_eq!(one.status, StatusCode::OK);
    for key in [
        "website",
        "address_line1",
        "address_line2",
        "postal_code",
        "country",
        "account_number",
        "tax_id",
        "lead_time_days",
        "rating",
        "notes",
        "updated_at",
    ] {
        assert!(one.json().get(key).is_some(), "{key}");
    }
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/vendors/{id}/"),
        Some(json!({"contact_name": "Jo", "email": null, "rating": 5})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let changed = res.json();
    assert_eq!(
        (
            changed["contact_name"].as_str(),
            changed["email"].clone(),
            changed["rating"].as_i64(),
            changed["name"].as_str()
        ),
        (Some("Jo"), Value::Null, Some(5), Some("Filament Co"))
    );
    // The whole address fills the street address unless that is given too.
    for (body, line1) in [
        (json!({"address": " 1 Main St "}), "1 Main St"),
        (
            json!({"address": "2 Side St", "address_line1": "3 High St"}),
            "3 High St",
        ),
    ] {
        let path = format!("/api/v1/vendors/{id}/");
        let res = call(&app, Method::PUT, &path, Some(body), t).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text());
        assert_eq!(res.json()["address_line1"], line1);
    }
    let before = snapshot(&app, "vendors").await;
    for (path, body, status) in [
        (
            format!("/api/v1/vendors/{id}"),
            json!({"code": "s2"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/v1/vendors/{id}"),
            json!({"rating": "five"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/vendors/{id}"),
            json!({"email": "nope"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/v1/vendors/999999".to_string(),
            json!({"name": "Ghost"}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/v1/vendors/abc".to_string(),
            json!({"name": "Ghost"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(&app, Method::PUT, &path, Some(body.clone()), t).await;
        assert_eq!(res.status, status, "{path} {body} -> {}", res.text());
    }
    assert_eq!(snapshot(&app, "vendors").await, before);
    for (method, status) in [
        (Method::GET, StatusCode::NOT_FOUND),
        (Method::DELETE, StatusCode::NOT_FOUND),
    ] {
        let res = call(&app, method, "/api/v1/vendors/999999", None, t).await;
        assert_eq!(res.status, status);
        assert_eq!(res.json()["detail"], "Vendor not found");
    }
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/vendors/{id}"),
        None,
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(
        res.json(),
        json!({"message": format!("Vendor {code} deleted")})
    );
    assert_eq!(count(&app, "vendors").await, 5);
    assert_eq!(
        call(&app, Method::GET, &format!("/api/v1/vendors/{id}"), None, t)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn vendors_through_graphql_with_user_errors() {
    let (app, admin) = app_with_admin().await;
    let op = operator(&app, &admin).await;
    const CREATE: &str = "mutation($input: VendorCreateInput!) { vendorCreate(input: $input) { vendor { id code name isActive poCount } userErrors { field code message } } }";
    // Any signed-in user manages vendors (CONTRACT: U).
    let res = gql(
        &app,
        &op,
        CREATE,
        json!({"input": {"name": "Prusa", "code": "prusa"}}),
    )
    .await;
    let created = &res["data"]["vendorCreate"];
    assert_eq!(created["userErrors"], json!([]), "{res}");
    assert_eq!(created["vendor"]["code"], "PRUSA");
    let id = created["vendor"]["id"].as_i64().expect("id");
    let res = gql(&app, &op, CREATE, json!({"input": {"name": "Generated"}})).await;
    let generated = res["data"]["vendorCreate"]["vendor"]["code"]
        .as_str()
        .expect("generated code")
        .to_string();
    assert!(generated.starts_with("VND-"), "{generated}");

    let before = snapshot(&app, "vendors").await;
    let res = gql(
        &app,
        &op,
        CREATE,
        json!({"input": {"name": "Again", "code": "Prusa"}}),
    )
    .await;
    assert_eq!(
        res["data"]["vendorCreate"],
        json!({"vendor": null, "userErrors": [{"field": "code", "code": "TAKEN", "message": "Vendor code 'PRUSA' already exists"}]})
    );
    let res = gql(
        &app,
        &op,
        CREATE,
        json!({"input": {"name": "", "rating": 6, "email": "a@b.invalid"}}),
    )
    .await;
    let fields: Vec<&str> = res["data"]["vendorCreate"]["userErrors"]
        .as_array()
        .expect("errors")
        .iter()
        .filter_map(|e| e["field"].as_str())
        .collect();
    assert_eq!(fields, ["name", "email", "rating"]);
    // A wrong type is a top-level error, before anything runs.
    let res = gql(
        &app,
        &op,
        CREATE,
        json!({"input": {"name": "X", "rating": "high"}}),
    )
    .await;
    assert!(res["errors"].is_array(), "{res}");
    assert_eq!(snapshot(&app, "vendors").await, before);

    let res = gql(
        &app,
        &op,
        "mutation($id: Int!) { vendorUpdate(id: $id, input: {isActive: false, paymentTerms: \"Net 30\"}) { vendor { isActive paymentTerms } userErrors { code } } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(
        res["data"]["vendorUpdate"]["vendor"],
        json!({"isActive": false, "paymentTerms": "Net 30"})
    );
    let list = "query($active: Boolean!, $search: String) { vendors(first: 1, activeOnly: $active, search: $search) { totalCount nodes { code } pageInfo { total returned hasNextPage limit offset } } }";
    let res = gql(&app, &op, list, json!({"active": true})).await;
    assert_eq!(res["data"]["vendors"]["totalCount"], 1);
    let res = gql(&app, &op, list, json!({"active": false})).await;
    assert_eq!(
        res["data"]["vendors"]["pageInfo"],
        json!({"total": 2, "returned": 1, "hasNextPage": true, "limit": 1, "offset": 0})
    );
    let res = gql(&app, &op, list, json!({"active": false, "search": "pru"})).await;
    assert_eq!(res["data"]["vendors"]["nodes"], json!([{"code": "PRUSA"}]));
    let res = gql(
        &app,
        &op,
        "query($id: Int!) { vendor(id: $id) { name } }",
        json!({"id": 424242}),
    )
    .await;
    assert_eq!(res["errors"][0]["extensions"]["code"], "NOT_FOUND");
    let res = gql(
        &app,
        &op,
        "mutation($id: Int!) { vendorDelete(id: $id) { message vendor { code } } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(
        res["data"]["vendorDelete"],
        json!({"message": "Vendor PRUSA deleted", "vendor": {"code": "PRUSA"}})
    );
    // Anonymous callers see nothing.
    let res = app.graphql("{ vendors { totalCount } }", json!({})).await;
    assert_eq!(res["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");
    assert_eq!(
        app.get("/api/v1/vendors/").await.status,
        StatusCode::UNAUTHORIZED
    );
}

// --------------------------------------------------------------------------- customers

#[tokio::test]
async fn customers_through_rest_list_filter_search_page_create_update_delete() {
    let (app, admin) = app_with_admin().await;
    let t = Some(admin.as_str());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "Buyer@Shop.test", "first_name": "Bea", "last_name": "Buyer", "company_name": "Buyer & Co", "phone": "555-0100", "shipping_city": "Austin"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let c = res.json();
    let number = c["customer_number"].as_str().expect("number").to_string();
    assert!(
        regex::Regex::new(r"^CUST-\d{6,}$")
            .expect("re")
            .is_match(&number),
        "{number}"
    );
    assert_eq!(
        (
            c["email"].as_str(),
            c["full_name"].as_str(),
            c["status"].as_str(),
            c["shipping_country"].as_str(),
            c["order_count"].as_i64(),
            c["total_spent"].as_str(),
            c["last_order_date"].clone()
        ),
        (
            Some("buyer@shop.test"),
            Some("Bea Buyer"),
            Some("active"),
            Some("USA"),
            Some(0),
            Some("0.00"),
            Value::Null
        )
    );
    // The spec's single address (address_line1, city, postal_code...) fills billing and
    // shipping.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/customers",
        Some(json!({"email": "cal@shop.test", "first_name": "Cal", "last_name": "Coe", "address_line1": "1 Elm St", "city": "Boise", "postal_code": "83702", "country": "US", "status": "suspended"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let cal = res.json();
    assert_eq!(
        (
            cal["billing_address_line1"].as_str(),
            cal["shipping_address_line1"].as_str(),
            cal["shipping_zip"].as_str(),
            cal["billing_country"].as_str(),
            cal["city"].as_str(),
            cal["status"].as_str()
        ),
        (
            Some("1 Elm St"),
            Some("1 Elm St"),
            Some("83702"),
            Some("US"),
            Some("Boise"),
            Some("suspended")
        )
    );
    for i in 0..3 {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/admin/customers/",
            Some(json!({"email": format!("c{i}@shop.test"), "first_name": format!("C{i}"), "last_name": "Smith"})),
            t,
        )
        .await;
        assert_eq!(res.status, StatusCode::CREATED);
    }

    let before = snapshot(&app, "customers").await;
    let cases = [
        (
            json!({"email": "BUYER@shop.test", "first_name": "B", "last_name": "B"}),
            StatusCode::BAD_REQUEST,
            vec![],
        ),
        (
            json!({"email": "new@shop.test", "first_name": "B"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["last_name"],
        ),
        (
            json!({"first_name": "B", "last_name": "C"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["email"],
        ),
        (
            json!({"email": "new@shop.local", "first_name": "B", "last_name": "C"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["email"],
        ),
        (
            json!({"email": "new@shop.test", "first_name": " ", "last_name": "C"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["first_name"],
        ),
        (
            json!({"email": "new@shop.test", "first_name": "B", "last_name": "C", "status": "gone"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["status"],
        ),
        (
            json!({"email": "new@shop.test", "first_name": 1, "last_name": "C"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["first_name"],
        ),
        (
            json!({"email": "new@shop.test", "first_name": "B", "last_name": "C", "phone": "9".repeat(51)}),
            StatusCode::UNPROCESSABLE_ENTITY,
            vec!["phone"],
        ),
    ];
    for (body, status, fields) in cases {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/admin/customers/",
            Some(body.clone()),
            t,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
        if status == StatusCode::BAD_REQUEST {
            assert_eq!(res.json()["detail"], "Email already registered");
        } else {
            assert_eq!(field_errors(&res), fields, "{body}");
        }
    }
    assert_eq!(snapshot(&app, "customers").await, before);

    // The list: a bare array, newest first, active only unless asked.
    let list = call(&app, Method::GET, "/api/v1/admin/customers/", None, t).await;
    assert_eq!(list.status, StatusCode::OK);
    let rows = list.json();
    let emails: Vec<&str> = rows
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["email"].as_str())
        .collect();
    assert_eq!(
        emails,
        [
            "c2@shop.test",
            "c1@shop.test",
            "c0@shop.test",
            "buyer@shop.test"
        ]
    );
    for key in [
        "id",
        "customer_number",
        "email",
        "first_name",
        "last_name",
        "company_name",
        "phone",
        "status",
        "full_name",
        "shipping_address_line1",
        "shipping_city",
        "shipping_state",
        "shipping_zip",
        "order_count",
        "total_spent",
        "last_order_date",
        "created_at",
    ] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
    let len = |v: Value| v.as_array().map(Vec::len).unwrap_or(usize::MAX);
    let get = |path: &'static str| call(&app, Method::GET, path, None, t);
    assert_eq!(
        len(get("/api/v1/admin/customers?include_inactive=true")
            .await
            .json()),
        5
    );
    let suspended = get("/api/v1/admin/customers/?status=suspended")
        .await
        .json();
    assert_eq!(suspended[0]["email"], "cal@shop.test");
    assert_eq!(len(suspended), 1);
    let page = get("/api/v1/admin/customers/?skip=1&limit=2").await.json();
    assert_eq!(page[0]["email"], "c1@shop.test");
    assert_eq!(len(page), 2);
    let by_number = format!("search={number}");
    for (query, expected) in [
        ("search=buyer%20%26", 1),
        ("search=Bea%20Buyer", 1),
        ("search=555-01", 1),
        (by_number.as_str(), 1),
        ("search=smith", 3),
        ("search=austin", 0),
        ("search=boise&include_inactive=true", 0),
        ("search=cal&include_inactive=true", 1),
        ("search=%25", 0),
    ] {
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/admin/customers/?{query}"),
            None,
            t,
        )
        .await;
        assert_eq!(len(res.json()), expected, "{query}");
    }
    for bad in [
        "status=gone",
        "limit=201",
        "skip=-1",
        "include_inactive=perhaps",
    ] {
        let res = get_owned(&app, &format!("/api/v1/admin/customers/?{bad}"), t).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
    }
    let found = get("/api/v1/admin/customers/search?q=buyer&limit=5")
        .await
        .json();
    assert_eq!(
        found,
        json!([{"id": c["id"], "customer_number": number, "email": "buyer@shop.test", "full_name": "Bea Buyer", "company_name": "Buyer & Co"}])
    );
    assert_eq!(
        len(get("/api/v1/admin/customers/search?q=%20").await.json()),
        0
    );
    assert_eq!(
        get("/api/v1/admin/customers/search").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    // One, change, refuse bad changes.
    let id = c["id"].as_i64().expect("id");
    let one = get_owned(&app, &format!("/api/v1/admin/customers/{id}"), t).await;
    assert_eq!(one.status, StatusCode::OK);
    for key in [
        "billing_address_line1",
        "billing_zip",
        "billing_country",
        "shipping_address_line2",
        "notes",
        "quote_count",
        "updated_at",
    ] {
        assert!(one.json().get(key).is_some(), "{key}");
    }
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{id}"),
        Some(json!({"phone": null, "email": "Bea@Shop.test", "billing_city": "Dallas", "status": "inactive"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let changed = res.json();
    assert_eq!(
        (
            changed["phone"].clone(),
            changed["email"].as_str(),
            changed["billing_city"].as_str(),
            changed["shipping_city"].as_str(),
            changed["status"].as_str(),
            changed["first_name"].as_str()
        ),
        (
            Value::Null,
            Some("bea@shop.test"),
            Some("Dallas"),
            Some("Austin"),
            Some("inactive"),
            Some("Bea")
        )
    );
    let before = snapshot(&app, "customers").await;
    for (path, body, status) in [
        (
            format!("/api/v1/admin/customers/{id}"),
            json!({"email": "C0@shop.test"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/v1/admin/customers/{id}"),
            json!({"last_name": ""}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/admin/customers/{id}"),
            json!({"email": "bad"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/admin/customers/{id}"),
            json!({"status": "archived"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/admin/customers/{id}"),
            json!({"notes": 5}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/v1/admin/customers/999999".into(),
            json!({"notes": "x"}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = call(&app, Method::PATCH, &path, Some(body.clone()), t).await;
        assert_eq!(res.status, status, "{path} {body} -> {}", res.text());
    }
    assert_eq!(snapshot(&app, "customers").await, before);

    // Delete: 204 with no body; unknown ids are 404.
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/customers/{id}/"),
        None,
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    assert!(res.body.is_empty());
    assert_eq!(count(&app, "customers").await, 4);
    for method in [Method::GET, Method::DELETE] {
        let res = call(
            &app,
            method,
            &format!("/api/v1/admin/customers/{id}"),
            None,
            t,
        )
        .await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert_eq!(res.json()["detail"], "Customer not found");
    }
    // Numbers are never reused.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "buyer@shop.test", "first_name": "Bea", "last_name": "Again"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED);
    assert_ne!(res.json()["customer_number"], number);
}

async fn get_owned(app: &TestApp, path: &str, token: Option<&str>) -> TestResponse {
    call(app, Method::GET, path, None, token).await
}

#[tokio::test]
async fn customers_are_for_admins_only() {
    let (app, admin) = app_with_admin().await;
    let op = operator(&app, &admin).await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "x@shop.test", "first_name": "X", "last_name": "Y"})),
        Some(&admin),
    )
    .await;
    let id = res.json()["id"].as_i64().expect("id");
    let routes = [
        (Method::GET, "/api/v1/admin/customers/".to_string(), None),
        (
            Method::GET,
            "/api/v1/admin/customers/search?q=x".to_string(),
            None,
        ),
        (Method::GET, format!("/api/v1/admin/customers/{id}"), None),
        (
            Method::GET,
            "/api/v1/admin/customers/import/template".to_string(),
            None,
        ),
        (
            Method::POST,
            "/api/v1/admin/customers/".to_string(),
            Some(json!({"email": "z@shop.test", "first_name": "Z", "last_name": "Z"})),
        ),
        (
            Method::PATCH,
            format!("/api/v1/admin/customers/{id}"),
            Some(json!({"notes": "hi"})),
        ),
        (
            Method::DELETE,
            format!("/api/v1/admin/customers/{id}"),
            None,
        ),
    ];
    let before = snapshot(&app, "customers").await;
    for (method, path, body) in routes {
        let anonymous = call(&app, method.clone(), &path, body.clone(), None).await;
        assert_eq!(
            anonymous.status,
            StatusCode::UNAUTHORIZED,
            "{method} {path}"
        );
        let res = call(&app, method.clone(), &path, body, Some(&op)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(res.json()["detail"], "Admin access required");
    }
    assert_eq!(snapshot(&app, "customers").await, before);
    let res = gql(&app, &op, "{ customers { totalCount } }", json!({})).await;
    assert_eq!(res["errors"][0]["extensions"]["code"], "FORBIDDEN");
}

#[tokio::test]
async fn customers_through_graphql_with_user_errors() {
    let (app, t) = app_with_admin().await;
    const CREATE: &str = "mutation($input: CustomerCreateInput!) { customerCreate(input: $input) { customer { id customerNumber email fullName status billingCity shippingCity totalSpent orderCount } userErrors { field code message } } }";
    let res = gql(
        &app,
        &t,
        CREATE,
        json!({"input": {"email": "Grace@Navy.example", "firstName": "Grace", "lastName": "Hopper", "city": "Arlington", "shippingCity": "Norfolk"}}),
    )
    .await;
    let c = &res["data"]["customerCreate"];
    assert_eq!(c["userErrors"], json!([]), "{res}");
    assert_eq!(
        (
            c["customer"]["email"].as_str(),
            c["customer"]["fullName"].as_str(),
            c["customer"]["status"].as_str(),
            c["customer"]["billingCity"].as_str(),
            c["customer"]["shippingCity"].as_str(),
            c["customer"]["totalSpent"].as_str()
        ),
        (
            Some("grace@navy.example"),
            Some("Grace Hopper"),
            Some("active"),
            Some("Arlington"),
            Some("Norfolk"),
            Some("0.00")
        )
    );
    let id = c["customer"]["id"].as_i64().expect("id");
    let before = snapshot(&app, "customers").await;
    let res = gql(
        &app,
        &t,
        CREATE,
        json!({"input": {"email": "GRACE@navy.example", "firstName": "G", "lastName": "H"}}),
    )
    .await;
    assert_eq!(
        res["data"]["customerCreate"]["userErrors"],
        json!([{"field": "email", "code": "TAKEN", "message": "Email already registered"}])
    );
    let res = gql(
        &app,
        &t,
        CREATE,
        json!({"input": {"email": "x@y.localhost", "firstName": "", "lastName": "  "}}),
    )
    .await;
    let codes: Vec<(&str, &str)> = res["data"]["customerCreate"]["userErrors"]
        .as_array()
        .expect("errors")
        .iter()
        .filter_map(|e| Some((e["field"].as_str()?, e["code"].as_str()?)))
        .collect();
    assert_eq!(
        codes,
        [
            ("email", "INVALID"),
            ("firstName", "INVALID"),
            ("lastName", "INVALID")
        ]
    );
    let res = gql(
        &app,
        &t,
        CREATE,
        json!({"input": {"email": "a@b.example", "firstName": "A"}}),
    )
    .await;
    assert!(
        res["errors"].is_array(),
        "a missing required field is refused: {res}"
    );
    assert_eq!(snapshot(&app, "customers").await, before);

    let res = gql(
        &app,
        &t,
        "mutation($id: Int!) { customerUpdate(id: $id, input: {status: suspended, companyName: \"Navy\"}) { customer { status companyName } userErrors { code } } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(
        res["data"]["customerUpdate"]["customer"],
        json!({"status": "suspended", "companyName": "Navy"})
    );
    let q = "query($status: CustomerStatus, $inactive: Boolean = false) { customers(status: $status, includeInactive: $inactive) { totalCount nodes { email } } }";
    assert_eq!(
        gql(&app, &t, q, json!({})).await["data"]["customers"]["totalCount"],
        0
    );
    assert_eq!(
        gql(&app, &t, q, json!({"status": "suspended"})).await["data"]["customers"]["nodes"],
        json!([{"email": "grace@navy.example"}])
    );
    assert_eq!(
        gql(&app, &t, q, json!({"inactive": true})).await["data"]["customers"]["totalCount"],
        1
    );
    let res = gql(&app, &t, q, json!({"status": "archived"})).await;
    assert!(res["errors"].is_array());
    let res = gql(
        &app,
        &t,
        "{ customerSearch(q: \"hopper\") { email } }",
        json!({}),
    )
    .await;
    assert_eq!(
        res["data"]["customerSearch"],
        json!([]),
        "suspended customers are not offered"
    );
    gql(
        &app,
        &t,
        "mutation($id: Int!) { customerUpdate(id: $id, input: {status: active}) { userErrors { code } } }",
        json!({"id": id}),
    )
    .await;
    let res = gql(
        &app,
        &t,
        "{ customerSearch(q: \"hopper\", first: 1) { email } }",
        json!({}),
    )
    .await;
    assert_eq!(
        res["data"]["customerSearch"],
        json!([{"email": "grace@navy.example"}])
    );
    let res = gql(
        &app,
        &t,
        "mutation { customerUpdate(id: 987654, input: {notes: \"x\"}) { userErrors { code } } }",
        json!({}),
    )
    .await;
    assert_eq!(res["errors"][0]["extensions"]["code"], "NOT_FOUND");
    let res = gql(
        &app,
        &t,
        "mutation($id: Int!) { customerDelete(id: $id) { message customer { email } } }",
        json!({"id": id}),
    )
    .await;
    let number = res["data"]["customerDelete"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        number.starts_with("Customer CUST-") && number.ends_with(" deleted"),
        "{res}"
    );
    assert_eq!(count(&app, "customers").await, 0);
}

// ------------------------------------------------------------------------------ import

async fn upload(app: &TestApp, path: &str, token: &str, content: &[u8]) -> TestResponse {
    let boundary = "partners-boundary-7f3a";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"customers.csv\"\r\nContent-Type: text/csv\r\n\r\n"
    )
    .into_bytes();
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

#[tokio::test]
async fn customer_csv_import_previews_reports_every_row_and_applies_once() {
    let (app, t) = app_with_admin().await;
    let template = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/import/template",
        None,
        Some(&t),
    )
    .await;
    assert_eq!(template.status, StatusCode::OK);
    assert!(
        template
            .header("content-type")
            .unwrap_or_default()
            .starts_with("text/csv")
    );
    assert!(
        template.text().starts_with("email,first_name,last_name,"),
        "{}",
        template.text()
    );
    // The template itself previews cleanly.
    let res = upload(
        &app,
        "/api/v1/admin/customers/import/preview",
        &t,
        &template.body,
    )
    .await;
    assert_eq!(res.json()["valid_rows"], 1, "{}", res.text());

    call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "old@shop.test", "first_name": "O", "last_name": "Ld"})),
        Some(&t),
    )
    .await;
    // A Shopify customers export with a BOM, a bad address, a missing name, an existing
    // customer and a repeated e-mail.
    let csv = "\u{feff}Customer ID,First Name,Last Name,Email,Accepts Email Marketing,Default Address Company,Default Address Address1,Default Address City,Default Address Province Code,Default Address Zip,Phone\n\
               1,Ann,Able,ann@shop.test,yes,Able Inc,1 Main St,Austin,TX,78701,'+15125550100\n\
               2,Bob,Bee,bob@shop.local,no,,,,,,\n\
               3,,Cee,cee@shop.test,no,,,,,,\n\
               4,Old,Customer,OLD@shop.test,no,,,,,,\n\
               5,Dee,Dee,dee@shop.test,no,,,Denver,CO,,\n\
               6,Ann,Again,ANN@shop.test,no,,,,,,\n";
    let before = snapshot(&app, "customers").await;
    let preview = upload(
        &app,
        "/api/v1/admin/customers/import/preview",
        &t,
        csv.as_bytes(),
    )
    .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let p = preview.json();
    assert_eq!(
        (
            p["total_rows"].as_i64(),
            p["valid_rows"].as_i64(),
            p["error_rows"].as_i64(),
            p["applied"].as_bool(),
            p["truncated"].as_bool()
        ),
        (Some(6), Some(2), Some(4), Some(false), Some(false))
    );
    assert_eq!(p["detected_format"], "shopify");
    assert_eq!(p["rows"][0]["row_number"], 2);
    assert_eq!(p["rows"][0]["data"]["billing_city"], "Austin");
    assert_eq!(p["rows"][0]["data"]["shipping_state"], "TX");
    assert_eq!(p["rows"][0]["data"]["phone"], "+15125550100");
    assert_eq!(p["rows"][0]["data"]["company_name"], "Able Inc");
    let problems: Vec<(i64, String)> = p["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap_or_default(),
                e["field"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        problems,
        [
            (3, "email".to_string()),
            (4, "first_name".to_string()),
            (5, "email".to_string()),
            (7, "email".to_string())
        ]
    );
    assert_eq!(p["errors"][2]["reason"], "Email already registered");
    assert_eq!(
        snapshot(&app, "customers").await,
        before,
        "a preview writes nothing"
    );

    let res = upload(&app, "/api/v1/admin/customers/import", &t, csv.as_bytes()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let r = res.json();
    assert_eq!(
        (
            r["imported"].as_i64(),
            r["skipped"].as_i64(),
            r["applied"].as_bool()
        ),
        (Some(2), Some(4), Some(true)),
        "{r}"
    );
    assert_eq!(r["errors"].as_array().map(Vec::len), Some(4));
    assert_eq!(count(&app, "customers").await, 3);
    let ann = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/search?q=ann",
        None,
        Some(&t),
    )
    .await
    .json();
    assert_eq!(ann[0]["company_name"], "Able Inc");
    assert!(
        ann[0]["customer_number"]
            .as_str()
            .unwrap_or_default()
            .starts_with("CUST-")
    );
    // Importing the same file again adds nothing: every row is now a duplicate or invalid.
    let again = upload(&app, "/api/v1/admin/customers/import", &t, csv.as_bytes())
        .await
        .json();
    assert_eq!(again["imported"], 0);
    assert_eq!(count(&app, "customers").await, 3);

    // Files that cannot be imported at all are a 422 on `file`; a missing file too.
    for bad in [
        &b"name,phone\nAda,1\n"[..],
        b"",
        b"email,phone\na@b.example,1\n",
    ] {
        let res = upload(&app, "/api/v1/admin/customers/import", &t, bad).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            res.text()
        );
        assert_eq!(field_errors(&res), ["file"]);
    }
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/import",
        None,
        Some(&t),
    )
    .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(count(&app, "customers").await, 3);
}

#[tokio::test]
async fn ten_thousand_customers_import_in_seconds_in_one_transaction() {
    let (app, t) = app_with_admin().await;
    let mut csv = String::from("First Name,Last Name,E-mail,Company,City,State,Zip\r\n");
    for i in 0..10_000 {
        csv.push_str(&format!(
            "Given{i},Family{i},person{i}@bulk.example,Co {i},Town {i},ST,{:05}\r\n",
            i % 100_000
        ));
    }
    // One bad row in the middle: reported by line, the rest imported.
    csv.push_str("Bad,Row,not-an-address,,,,\r\n");
    let started = Instant::now();
    let res = upload(&app, "/api/v1/admin/customers/import", &t, csv.as_bytes()).await;
    let took = started.elapsed();
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let r = res.json();
    assert_eq!(
        (
            r["total_rows"].as_i64(),
            r["imported"].as_i64(),
            r["skipped"].as_i64()
        ),
        (Some(10_001), Some(10_000), Some(1)),
        "{}",
        r["message"]
    );
    assert_eq!(r["errors"][0]["row"], 10_002);
    assert_eq!(r["truncated"], true);
    assert_eq!(r["rows"].as_array().map(Vec::len), Some(100));
    assert_eq!(count(&app, "customers").await, 10_000);
    assert_eq!(
        scalar(
            &app,
            "SELECT count(DISTINCT customer_number) FROM customers"
        )
        .await,
        10_000
    );
    assert_eq!(
        scalar(&app, "SELECT count(*) FROM customers WHERE shipping_city = billing_city AND billing_zip IS NOT NULL").await,
        10_000
    );
    println!("imported 10,000 customers in {took:?}");
    assert!(took.as_secs() < 20, "10,000 rows took {took:?}");
}

/// FilaOps's client sends `null` for fields it does not change: on an update, a null name,
/// code, e-mail or active flag (which cannot be cleared) keeps the value; a null optional
/// field (a phone) clears it.
#[tokio::test]
async fn null_on_an_update_keeps_what_cannot_be_cleared() {
    let (app, t) = app_with_admin().await;
    let vendor = call(
        &app,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Keep Co", "code": "KEEP", "phone": "555"})),
        Some(&t),
    )
    .await
    .json();
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/vendors/{}", vendor["id"]),
        Some(json!({"name": null, "code": null, "is_active": null, "phone": null})),
        Some(&t),
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let after = res.json();
    assert_eq!(
        (
            &after["name"],
            &after["code"],
            &after["is_active"],
            &after["phone"]
        ),
        (
            &json!("Keep Co"),
            &json!("KEEP"),
            &json!(true),
            &Value::Null
        )
    );
    let customer = call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "keep@shop.test", "first_name": "Kay", "last_name": "Keep"})),
        Some(&t),
    )
    .await
    .json();
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{}", customer["id"]),
        Some(json!({"email": null, "first_name": null, "last_name": null, "status": null})),
        Some(&t),
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let after = res.json();
    assert_eq!(
        (&after["email"], &after["first_name"], &after["last_name"]),
        (&json!("keep@shop.test"), &json!("Kay"), &json!("Keep"))
    );
}
