//! Contract fidelity with FilaOps's own client (issue 37), one test per defect found: the
//! routes it calls that answered 404/422 (`can-ship`, comma lists, the public
//! `/system/info`), `/graphql` answering as GraphQL JSON, CSV exports that spreadsheets
//! cannot run, ship refusals that name the real numbers, the API's description kept for
//! signed-in users in production, and a route table that refuses a declaration the router
//! could not reach. Each refusal leaves the tables as they were.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, operator, raw, table_json};
use crate::common::books::receive;

/// A sales order of `quantity` units of `product`, with a shipping address.
async fn order(app: &TestApp, t: &str, product: i64, quantity: i64) -> Value {
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({
            "lines": [{"product_id": product, "quantity": quantity}],
            "shipping_address_line1": "1 Elm St",
            "shipping_city": "Austin"
        })),
    )
    .await
}

#[tokio::test]
async fn can_ship_answers_for_the_queue_and_for_one_order() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("CS-WIDGET")
        .kind("component")
        .unit("EA")
        .price(Some("2.00"))
        .create(&app, &t)
        .await;
    receive(&app, &t, widget, "5", "1.00").await;
    let ready = order(&app, &t, widget, 2).await;
    let ready_id = ready["id"].as_i64().expect("id");
    for status in ["confirmed", "ready_to_ship"] {
        ok(
            &app,
            &t,
            Method::PATCH,
            &format!("/api/v1/sales-orders/{ready_id}/status"),
            Some(json!({"status": status})),
        )
        .await;
    }
    let pending = order(&app, &t, widget, 1).await;
    let pending_id = pending["id"].as_i64().expect("id");

    // The batch: every order ready to ship, keyed by id (the literal is not taken for an id).
    let batch = ok(&app, &t, Method::GET, "/api/v1/sales-orders/can-ship", None).await;
    assert_eq!(
        batch,
        json!({ ready_id.to_string(): {"can_ship": true, "reasons": []} })
    );
    // One order, in any status, with its reasons.
    let one = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{pending_id}/can-ship"),
        None,
    )
    .await;
    assert_eq!(one["can_ship"], false);
    assert_eq!(one["reasons"][0], "The order is not confirmed yet", "{one}");
    // An operator sees only their own orders in the queue.
    let op = operator(&app, &t).await;
    assert_eq!(
        ok(
            &app,
            &op,
            Method::GET,
            "/api/v1/sales-orders/can-ship",
            None
        )
        .await,
        json!({})
    );
    let res = call(
        &app,
        Method::GET,
        "/api/v1/sales-orders/999999/can-ship",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
}

#[tokio::test]
async fn multi_value_filters_take_comma_lists() {
    let app = app().await;
    let t = admin(&app).await;
    let vendor = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "V"})),
    )
    .await["id"]
        .clone();
    let nut = item("CL-NUT")
        .kind("component")
        .unit("EA")
        .create(&app, &t)
        .await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let po = ok(
            &app,
            &t,
            Method::POST,
            "/api/v1/purchase-orders/",
            Some(json!({"vendor_id": vendor, "lines": [{"product_id": nut, "quantity_ordered": "1", "unit_cost": "1"}]})),
        )
        .await;
        ids.push(po["id"].as_i64().expect("id"));
    }
    for (id, status) in [(ids[1], "ordered"), (ids[2], "ordered")] {
        ok(
            &app,
            &t,
            Method::POST,
            &format!("/api/v1/purchase-orders/{id}/status"),
            Some(json!({"status": status})),
        )
        .await;
    }
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/purchase-orders/{}/status", ids[2]),
        Some(json!({"status": "cancelled"})),
    )
    .await;
    let count = |path: &'static str| {
        let (app, t) = (&app, &t);
        async move {
            ok(app, t, Method::GET, path, None).await["items"]
                .as_array()
                .map(Vec::len)
        }
    };
    assert_eq!(
        count("/api/v1/purchase-orders?status=draft,ordered").await,
        Some(2)
    );
    assert_eq!(
        count("/api/v1/purchase-orders?status=draft&status=ordered").await,
        Some(2)
    );
    assert_eq!(
        count("/api/v1/purchase-orders?status=ordered").await,
        Some(1)
    );
    assert_eq!(count("/api/v1/purchase-orders").await, Some(3));
    let res = call(
        &app,
        Method::GET,
        "/api/v1/purchase-orders?status=draft,bogus",
        None,
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
}

#[tokio::test]
async fn system_info_is_public_and_says_nothing_sensitive() {
    let app = app().await;
    admin(&app).await;
    let res = app.get("/api/v1/system/info").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let info = res.json();
    assert_eq!(info["tier"], "community");
    assert_eq!(info["features_enabled"], json!([]));
    assert_eq!(info["smtp_configured"], false);
    assert!(info.get("environment").is_none(), "{info}");
}

#[tokio::test]
async fn graphql_answers_errors_as_graphql_json() {
    let app = app().await;
    let t = admin(&app).await;
    let auth = format!("Bearer {t}");
    // Not JSON at all: 415, as GraphQL JSON.
    for content_type in [None, Some("text/plain")] {
        let mut headers = vec![("authorization", auth.as_str())];
        if let Some(ct) = content_type {
            headers.push(("content-type", ct));
        }
        let res = raw(
            &app,
            Method::POST,
            "/graphql",
            &headers,
            r#"{"query":"{ me { id } }"}"#,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        let body = res.json();
        assert_eq!(
            body["errors"][0]["extensions"]["code"], "UNSUPPORTED_MEDIA_TYPE",
            "{body}"
        );
    }
    // Malformed JSON: 400 with a GraphQL error, no Rust debug text.
    let res = raw(
        &app,
        Method::POST,
        "/graphql",
        &[
            ("authorization", auth.as_str()),
            ("content-type", "application/json"),
        ],
        "{not json",
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    let text = res.text();
    assert!(
        !text.contains("InvalidRequest(") && !text.contains("Error("),
        "{text}"
    );
    let body = res.json();
    assert_eq!(
        body["errors"][0]["extensions"]["code"], "BAD_REQUEST",
        "{body}"
    );
    assert!(body["errors"][0]["message"].is_string());
    // JSON still works.
    let res = raw(
        &app,
        Method::POST,
        "/graphql",
        &[
            ("authorization", auth.as_str()),
            ("content-type", "application/json; charset=utf-8"),
        ],
        r#"{"query":"{ me { email } }"}"#,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["data"]["me"]["email"], "ada@example.com");
}

#[tokio::test]
async fn csv_exports_cannot_run_formulas() {
    let app = app().await;
    let t = admin(&app).await;
    item("CSV-1")
        .with(
            "name",
            json!("=HYPERLINK(\"http://evil.example\",\"Click\")"),
        )
        .create(&app, &t)
        .await;
    item("CSV-2")
        .with("name", json!("@SUM(A1:A9)"))
        .create(&app, &t)
        .await;
    let res = call(
        &app,
        Method::GET,
        "/api/v1/items?format=csv&search=CSV-",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let text = res.text();
    assert!(text.contains("'=HYPERLINK("), "{text}");
    assert!(text.contains("'@SUM(A1:A9)"), "{text}");
    assert!(
        !text.contains(",=HYPERLINK") && !text.contains(",\"=HYPERLINK"),
        "{text}"
    );
}

/// The abuse run's refusal said "0 on hand, 500 requested" for 533 ordered with 33 on hand
/// (the line ships from its reservation first, then from free stock).
#[tokio::test]
async fn ship_refusals_name_the_real_numbers() {
    let app = app().await;
    let t = admin(&app).await;
    let part = item("SHIP-533")
        .kind("component")
        .unit("EA")
        .price(Some("1.00"))
        .create(&app, &t)
        .await;
    receive(&app, &t, part, "33", "1.00").await;
    let o = order(&app, &t, part, 533).await;
    let id = o["id"].as_i64().expect("id");
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    let before = (
        table_json(&app, "inventory_transactions").await,
        table_json(&app, "sales_order_lines").await,
    );
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
        &t,
    )
    .await;
    assert!(res.status.is_client_error(), "{}", res.text());
    assert!(
        res.text().contains("33 on hand, 533 requested"),
        "{}",
        res.text()
    );
    assert_eq!(
        (
            table_json(&app, "inventory_transactions").await,
            table_json(&app, "sales_order_lines").await
        ),
        before
    );
}

#[tokio::test]
async fn in_production_the_api_description_is_for_signed_in_users() {
    let app = TestApp::spawn_with(&[("ENVIRONMENT", "production"), ("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    for path in ["/api/v1/openapi.json", "/api/v1/docs"] {
        assert_eq!(
            app.get(path).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        let res = call(&app, Method::GET, path, None, &t).await;
        assert_eq!(res.status, StatusCode::OK, "{path}");
    }
    // In development it stays open (the docs and the typed client's generator use it).
    let dev = crate::common::api::app().await;
    assert_eq!(dev.get("/api/v1/openapi.json").await.status, StatusCode::OK);
}

#[test]
fn a_route_the_router_could_not_reach_stops_start_up() {
    use strata::platform::rest::{Route, check_reachable};
    let broken = [
        Route::get("/things/{id}", "query { a }", "a"),
        Route::get("/things/{thing_id}", "query { a }", "a"),
    ];
    let error = check_reachable(broken.iter()).expect_err("refused");
    assert!(error.to_string().contains("/things/{thing_id}"), "{error}");
    let fine = [
        Route::get("/things/{id}", "query { a }", "a"),
        Route::get("/things/can-ship", "query { a }", "a"),
        Route::get("/things/{id}/parts", "query { a }", "a"),
    ];
    check_reachable(fine.iter()).expect("a literal beside a parameter is reachable");
    // The whole table of the service passes.
    let routes = crate::common::routes();
    check_reachable(routes.iter()).expect("every declared route is reachable");
}
