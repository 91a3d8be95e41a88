//! Vendors and customers through REST and GraphQL: list, search, page, create, update,
//! delete, the 4xx of bad input with the database unchanged, and who may do what.

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use common::{TestApp, TestResponse};

async fn admin(app: &TestApp) -> String {
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada"}),
        )
        .await;
    res.json()["access_token"]
        .as_str()
        .expect("token")
        .to_string()
}

async fn call(
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

async fn count(app: &TestApp, table: &str) -> i64 {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .query_one(&format!("SELECT count(*) FROM {table}"), &[])
        .await
        .expect("count")
        .get::<_, i64>(0)
}

#[tokio::test]
async fn vendors_crud_search_pages_and_bad_input() {
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Filament Co", "email": "Sales@Filament.example", "rating": 4})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let v = res.json();
    assert!(v["code"].as_str().unwrap_or_default().starts_with("VND-"));
    assert_eq!(v["email"], "sales@filament.example");
    for i in 0..4 {
        call(
            &app,
            Method::POST,
            "/api/v1/vendors",
            Some(json!({"name": format!("Supplier {i}"), "code": format!("S{i}")})),
            &t,
        )
        .await;
    }
    let before = count(&app, "vendors").await;
    for (body, status) in [
        (
            json!({"name": "Dup", "code": "s1"}),
            StatusCode::BAD_REQUEST,
        ),
        (json!({"code": "X"}), StatusCode::UNPROCESSABLE_ENTITY),
        (
            json!({"name": "Bad", "email": "x@y.local"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"name": "Bad", "rating": 9}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"name": "Bad", "lead_time_days": "soon"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/vendors/",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
    }
    assert_eq!(count(&app, "vendors").await, before);

    let list = call(
        &app,
        Method::GET,
        "/api/v1/vendors/?limit=2&offset=2",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(
        list["pagination"],
        json!({"total": 5, "offset": 2, "limit": 2, "returned": 2})
    );
    assert_eq!(
        call(
            &app,
            Method::GET,
            "/api/v1/vendors?search=filament",
            None,
            &t
        )
        .await
        .json()["pagination"]["total"],
        1
    );

    let id = v["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/vendors/{id}"),
        Some(json!({"contact_name": "Jo", "email": null})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        (
            res.json()["contact_name"].as_str(),
            res.json()["email"].clone()
        ),
        (Some("Jo"), Value::Null)
    );
    let dup = call(
        &app,
        Method::PUT,
        &format!("/api/v1/vendors/{id}"),
        Some(json!({"code": "S2"})),
        &t,
    )
    .await;
    assert_eq!(dup.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        call(&app, Method::GET, "/api/v1/vendors/9999", None, &t)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/vendors/{id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(
        res.json()["message"],
        format!("Vendor {} deleted", v["code"].as_str().unwrap_or_default())
    );
    assert_eq!(count(&app, "vendors").await, before - 1);
    assert_eq!(
        app.get("/api/v1/vendors/").await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn customers_are_admin_only_with_required_names_and_unique_emails() {
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let res = call(&app, Method::POST, "/api/v1/admin/customers/", Some(json!({"email": "Buyer@Shop.test", "first_name": "Bea", "last_name": "Buyer", "shipping_city": "Austin"})), &t).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let c = res.json();
    assert!(
        c["customer_number"]
            .as_str()
            .unwrap_or_default()
            .starts_with("CUST-")
    );
    assert_eq!(
        (
            c["email"].as_str(),
            c["full_name"].as_str(),
            c["shipping_country"].as_str()
        ),
        (Some("buyer@shop.test"), Some("Bea Buyer"), Some("USA"))
    );
    let before = count(&app, "customers").await;
    for (body, status) in [
        (
            json!({"email": "BUYER@shop.test", "first_name": "B", "last_name": "B"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"email": "new@shop.test", "first_name": "B"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"email": "new@shop.local", "first_name": "B", "last_name": "C"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"email": "new@shop.test", "first_name": " ", "last_name": "C"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/admin/customers/",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
    }
    assert_eq!(count(&app, "customers").await, before);

    let list = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/?search=austin",
        None,
        &t,
    )
    .await;
    assert_eq!(
        list.json().as_array().map(Vec::len),
        Some(0),
        "search covers names, e-mail, company, number, phone"
    );
    let list = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers?search=bea",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["order_count"], 0);
    let found = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/search?q=buyer",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(found[0]["customer_number"], c["customer_number"]);

    let id = c["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{id}"),
        Some(json!({"phone": "555-0100", "status": "inactive"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        call(&app, Method::GET, "/api/v1/admin/customers/", None, &t)
            .await
            .json()
            .as_array()
            .map(Vec::len),
        Some(0)
    );
    assert_eq!(
        call(
            &app,
            Method::GET,
            "/api/v1/admin/customers/?include_inactive=true",
            None,
            &t
        )
        .await
        .json()
        .as_array()
        .map(Vec::len),
        Some(1)
    );
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/customers/{id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    assert!(res.body.is_empty());
    assert_eq!(
        call(
            &app,
            Method::GET,
            &format!("/api/v1/admin/customers/{id}"),
            None,
            &t
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );

    // Operators may not see customers.
    call(&app, Method::POST, "/api/v1/admin/users/", Some(json!({"email": "op@example.com", "password": "Operator-pass1!", "account_type": "operator"})), &t).await;
    let op = app
        .send_json(
            Method::POST,
            "/api/v1/auth/login",
            &json!({"username": "op@example.com", "password": "Operator-pass1!"}),
        )
        .await
        .json()["access_token"]
        .as_str()
        .expect("op token")
        .to_string();
    assert_eq!(
        call(&app, Method::GET, "/api/v1/admin/customers/", None, &op)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        call(&app, Method::GET, "/api/v1/vendors/", None, &op)
            .await
            .status,
        StatusCode::OK
    );
}

async fn upload(app: &TestApp, path: &str, token: &str, content: &str) -> TestResponse {
    let boundary = "partners-boundary";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"customers.csv\"\r\nContent-Type: text/csv\r\n\r\n{content}\r\n--{boundary}--\r\n"
    );
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
async fn customer_csv_import_previews_reports_rows_and_skips_existing() {
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let template = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/import/template",
        None,
        &t,
    )
    .await;
    assert!(
        template.text().starts_with("Email,First Name"),
        "{} {}",
        template.status,
        template.text()
    );
    call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "old@shop.test", "first_name": "O", "last_name": "Ld"})),
        &t,
    )
    .await;
    // A Shopify customers export with a BOM, a bad address, a missing name and an existing customer.
    let csv = "\u{feff}First Name,Last Name,Email,Default Address Company,Default Address City,Accepts Email Marketing\n\
               Ann,Able,ann@shop.test,Able Inc,Austin,yes\n\
               Bob,Bee,bob@shop.local,,,no\n\
               ,Cee,cee@shop.test,,,no\n\
               Old,Customer,OLD@shop.test,,,no\n\
               Dee,Dee,dee@shop.test,,Denver,no\n";
    let preview = upload(&app, "/api/v1/admin/customers/import/preview", &t, csv).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let p = preview.json();
    assert_eq!(
        (
            p["total_rows"].as_i64(),
            p["valid_rows"].as_i64(),
            p["error_rows"].as_i64()
        ),
        (Some(5), Some(3), Some(2))
    );
    assert_eq!(p["detected_format"], "shopify");
    assert_eq!(count(&app, "customers").await, 1);
    let res = upload(&app, "/api/v1/admin/customers/import", &t, csv)
        .await
        .json();
    assert_eq!(
        (
            res["imported"].as_i64(),
            res["skipped"].as_i64(),
            res["applied"].as_bool()
        ),
        (Some(2), Some(3), Some(true)),
        "{res}"
    );
    assert_eq!(res["errors"][0]["row"], 3);
    assert_eq!(count(&app, "customers").await, 3);
    let ann = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/search?q=ann",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(ann[0]["company_name"], "Able Inc");
}
