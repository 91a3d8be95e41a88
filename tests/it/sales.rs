//! Sales through REST (CONTRACT 5.2, 5.4, 6.1; DOMAIN "Postings"): orders priced from the
//! products with tax to the cent, every illegal transition with its exact 400 message,
//! operators on their own orders only, confirm reserving stock and creating production
//! orders for the shortfall, QC moving the order to ready_to_ship, shipping (stock, packaging,
//! COGS and invoice in one transaction, idempotent, atomic), payments (admins; recorded,
//! refunded, voided, idempotent, payment status), cancel and delete rules, fulfillment filters
//! and sorts, and a flat statement count for the order list.

use std::sync::atomic::Ordering;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::item;
use crate::common::api::{admin, allowed_list, app, call, gql, ok, operator, table_json, upload};
use crate::common::books::{account, balanced, exec, num, receive, sql_num, stock};

async fn refused(
    app: &TestApp,
    t: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let res = call(app, method, path, body, t).await;
    let body = if res.text().is_empty() {
        Value::Null
    } else {
        res.json()
    };
    (res.status, body)
}

async fn keyed(
    app: &TestApp,
    t: &str,
    method: Method,
    path: &str,
    key: &str,
    body: Value,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {t}"))
        .header("content-type", "application/json")
        .header("idempotency-key", key)
        .body(Body::from(body.to_string()))
        .expect("request");
    let res = app.request(req).await;
    (res.status, res.json())
}

async fn customer(app: &TestApp, t: &str) -> i64 {
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "buyer@shop.test", "first_name": "Bea", "last_name": "Buyer", "shipping_address_line1": "1 Elm St", "shipping_city": "Austin", "shipping_state": "TX", "shipping_zip": "73301"})),
    )
    .await["id"]
        .as_i64()
        .expect("customer")
}

async fn order(app: &TestApp, t: &str, lines: Value, extra: Value) -> Value {
    let mut body =
        json!({"lines": lines, "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    ok(app, t, Method::POST, "/api/v1/sales-orders/", Some(body)).await
}

async fn set_status(app: &TestApp, t: &str, id: i64, status: &str) -> Value {
    ok(
        app,
        t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": status})),
    )
    .await
}

#[tokio::test]
async fn orders_are_priced_from_products_taxed_to_the_cent_and_follow_the_status_flow() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"tax_enabled": true, "tax_rate_percent": "8.25"})),
    )
    .await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("19.99"))
        .create(&app, &t)
        .await;
    let gadget = item("GADGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("5.05"))
        .create(&app, &t)
        .await;
    let noprice = item("NOPRICE")
        .kind("finished_good")
        .unit("EA")
        .price(None)
        .create(&app, &t)
        .await;
    let old = item("OLD")
        .kind("finished_good")
        .unit("EA")
        .price(Some("3"))
        .create(&app, &t)
        .await;
    exec(
        &app,
        &format!("UPDATE items SET active = false WHERE id = {old}"),
    )
    .await;
    let c = customer(&app, &t).await;

    // Refusals first: nothing is written.
    let before = table_json(&app, "sales_orders").await;
    for (lines, status, detail) in [
        (
            json!([{"product_id": 999999, "quantity": 1}]),
            StatusCode::NOT_FOUND,
            "Product ID 999999 not found".to_string(),
        ),
        (
            json!([{"product_id": noprice, "quantity": 1}]),
            StatusCode::BAD_REQUEST,
            "Product 'NOPRICE' has no selling price configured".to_string(),
        ),
        (
            json!([{"product_id": old, "quantity": 1}]),
            StatusCode::BAD_REQUEST,
            "Product 'OLD' is discontinued and cannot be ordered".to_string(),
        ),
    ] {
        let (s, body) = refused(
            &app,
            &t,
            Method::POST,
            "/api/v1/sales-orders/",
            Some(json!({"lines": lines})),
        )
        .await;
        assert_eq!(s, status, "{body}");
        assert_eq!(body["detail"], detail.as_str(), "{body}");
    }
    let (s, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 0}]})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["details"]["errors"][0]["field"], "lines.0.quantity",
        "{body}"
    );
    let (s, _) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": []})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(table_json(&app, "sales_orders").await, before);

    // 3 x 19.99 + 5.05 = 65.02; tax 8.25 % = 5.36415 -> 5.36; + 4.50 shipping = 74.88.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 3, "unit_price": "1.00"}, {"product_id": gadget, "quantity": 1}], "customer_id": c, "shipping_cost": "4.50"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let o = res.json();
    let id = o["id"].as_i64().expect("id");
    assert_eq!(
        res.header("location"),
        Some(format!("/api/v1/sales-orders/{id}").as_str())
    );
    let number = o["order_number"].as_str().expect("number");
    assert!(
        regex::Regex::new(r"^SO-\d{4}-\d{4}$")
            .expect("re")
            .is_match(number),
        "{number}"
    );
    assert_eq!(o["status"], "pending");
    assert_eq!(o["payment_status"], "pending");
    assert_eq!(o["order_type"], "line_item");
    assert_eq!(o["source"], "manual");
    assert_eq!(o["product_name"], "2 items");
    assert_eq!(o["subtotal"], "65.02");
    assert_eq!(o["tax_amount"], "5.36");
    assert_eq!(o["shipping_cost"], "4.50");
    assert_eq!(o["grand_total"], "74.88");
    assert_eq!(o["lines"][0]["unit_price"], "19.99");
    assert_eq!(o["lines"][0]["total"], "59.97");
    assert_eq!(o["lines"][0]["product_sku"], "WIDGET");
    assert_eq!(o["customer_name"], "Bea Buyer");
    assert_eq!(o["customer_email"], "buyer@shop.test");
    // The customer list counts the order and what it is worth.
    let customers = ok(&app, &t, Method::GET, "/api/v1/admin/customers/", None).await;
    assert_eq!(customers[0]["order_count"], 1, "{customers}");
    assert_eq!(num(&customers[0]["total_spent"]), 74.88, "{customers}");
    assert!(customers[0]["last_order_date"].is_string(), "{customers}");
    assert_eq!(o["shipping_address_line1"], "1 Elm St");
    assert_eq!(o["shipping_city"], "Austin");
    assert_eq!(o["shipping_country"], "USA");
    assert_eq!(o["fulfillment"]["state"], "blocked");
    assert_eq!(o["fulfillment"]["lines_total"], 2);
    assert_eq!(o["is_cancellable"], true);

    // Every illegal move from pending, with its message; nothing changes.
    let before = table_json(&app, "sales_orders").await;
    for to in [
        "in_production",
        "ready_to_ship",
        "shipped",
        "delivered",
        "completed",
    ] {
        let (s, body) = refused(
            &app,
            &t,
            Method::PATCH,
            &format!("/api/v1/sales-orders/{id}/status"),
            Some(json!({"status": to})),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert_eq!(
            body,
            json!({"detail": format!("Invalid sales order status transition: 'pending' -> '{to}'. Allowed: ['confirmed', 'on_hold', 'cancelled']")})
        );
    }
    assert_eq!(table_json(&app, "sales_orders").await, before);

    // Operators: no status changes, no one else's orders; their own list holds only theirs.
    let (s, body) = refused(
        &app,
        &op,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::FORBIDDEN,
            json!({"detail": "Only administrators can update order status"})
        )
    );
    let (s, body) = refused(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::FORBIDDEN,
            json!({"detail": "Not authorized to view this order"})
        )
    );
    let (s, body) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/cancel"),
        Some(json!({"cancellation_reason": "mine?"})),
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::FORBIDDEN,
            json!({"detail": "Not authorized to view this order"})
        )
    );
    let (s, body) = refused(&app, &t, Method::GET, "/api/v1/sales-orders/999999", None).await;
    assert_eq!(
        (s, body),
        (
            StatusCode::NOT_FOUND,
            json!({"detail": "Sales order not found"})
        )
    );
    let mine = order(
        &app,
        &op,
        json!([{"product_id": gadget, "quantity": 2}]),
        json!({}),
    )
    .await;
    assert_eq!(mine["product_name"], "GADGET item x2");
    let list = ok(&app, &op, Method::GET, "/api/v1/sales-orders/", None).await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["id"], mine["id"]);
    let all = ok(&app, &t, Method::GET, "/api/v1/sales-orders", None).await;
    assert_eq!(all.as_array().map(Vec::len), Some(2));
    // Search: order number or product, case-insensitive; an operator still sees only theirs.
    let number = mine["order_number"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    for (who, query, expect) in [
        (&t, format!("search={number}"), 1),
        (&t, "search=gadget%20ITEM".to_string(), 1),
        (&t, "search=%25".to_string(), 0),
        (&t, "search=%20".to_string(), 2),
        (&op, "search=SO-".to_string(), 1),
    ] {
        let found = ok(
            &app,
            who,
            Method::GET,
            &format!("/api/v1/sales-orders/?{query}"),
            None,
        )
        .await;
        assert_eq!(
            found.as_array().map(Vec::len),
            Some(expect),
            "{query}: {found}"
        );
    }

    // Confirm: 2 widgets in stock of 3, gadgets in full: reserved, a production order for
    // the one widget short, status in_production, half the lines ready.
    receive(&app, &t, widget, "2", "4").await;
    receive(&app, &t, gadget, "5", "1").await;
    let confirmed = set_status(&app, &t, id, "confirmed").await;
    assert_eq!(confirmed["status"], "in_production", "{confirmed}");
    assert!(confirmed["confirmed_at"].is_string());
    assert_eq!(confirmed["fulfillment"]["state"], "partially_ready");
    assert_eq!(confirmed["fulfillment"]["fulfillment_percent"], 50.0);
    assert_eq!(confirmed["fulfillment"]["lines_ready"], 1);
    assert_eq!(num(&confirmed["lines"][0]["quantity_allocated"]), 2.0);
    assert_eq!(stock(&app, widget).await, (2.0, 2.0));
    assert_eq!(stock(&app, gadget).await, (5.0, 1.0));
    let wos = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/production-orders/?sales_order_id={id}"),
        None,
    )
    .await;
    let wos = wos.as_array().expect("wos");
    assert_eq!(wos.len(), 1, "{wos:?}");
    assert_eq!(num(&wos[0]["quantity_ordered"]), 1.0);
    assert_eq!(wos[0]["source"], "sales_order");
    assert_eq!(wos[0]["sales_order_code"], confirmed["order_number"]);
    // Generating again creates nothing: the shortfall is already planned.
    let g = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/generate-production-orders"),
        None,
    )
    .await;
    assert_eq!(g["created_orders"], json!([]), "{g}");

    // Fulfillment filters and the events.
    let f = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?fulfillment_state=partially_ready,ready_to_ship",
        None,
    )
    .await;
    assert_eq!(f.as_array().map(Vec::len), Some(1));
    assert_eq!(f[0]["id"], id);
    let (s, body) = refused(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?fulfillment_state=nope",
        None,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    // CONTRACT 5.2: an unknown sort key or direction is a 400 naming the parameter.
    for (query, name) in [("sort_by=nope", "sort_by"), ("sort_order=up", "sort_order")] {
        let (s, body) = refused(
            &app,
            &t,
            Method::GET,
            &format!("/api/v1/sales-orders/?{query}"),
            None,
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        let detail = body["detail"].as_str().unwrap_or_default();
        assert!(detail.starts_with(&format!("Invalid {name}: ")), "{body}");
    }
    let st = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?status=in_production&status=pending",
        None,
    )
    .await;
    assert_eq!(st.as_array().map(Vec::len), Some(2));
    let st = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?status=in_production",
        None,
    )
    .await;
    assert_eq!(st.as_array().map(Vec::len), Some(1));
    let ev = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await["items"]
        .clone();
    let titles: Vec<&str> = ev
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["title"].as_str())
        .collect();
    assert_eq!(
        titles,
        vec![
            "Order Created",
            "Production Orders Created",
            "Order Confirmed",
            "In Production"
        ]
    );

    // In production cannot be cancelled; on hold can, but not while the work order runs.
    let (s, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/cancel"),
        Some(json!({"cancellation_reason": "changed mind"})),
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Cannot cancel order with status 'in_production'"})
        )
    );
    set_status(&app, &t, id, "on_hold").await;
    let (s, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/cancel"),
        Some(json!({"cancellation_reason": "changed mind"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["detail"],
        format!(
            "Cannot cancel: 1 work order(s) still active ({}). Cancel work orders first.",
            wos[0]["code"].as_str().expect("code")
        )
    );
    let (s, body) = refused(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Cannot delete order with status 'on_hold'. Only cancelled or pending orders can be deleted."})
        )
    );
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/production-orders/{}/cancel", wos[0]["id"]),
        None,
    )
    .await;
    let (s, _) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/cancel"),
        Some(json!({})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let c = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/cancel"),
        Some(json!({"cancellation_reason": "changed mind"})),
    )
    .await;
    assert_eq!(c["status"], "cancelled");
    assert_eq!(c["cancellation_reason"], "changed mind");
    assert_eq!(c["fulfillment"]["state"], "cancelled");
    assert_eq!(stock(&app, widget).await, (2.0, 0.0));
    assert_eq!(stock(&app, gadget).await, (5.0, 0.0));
    let (s, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "pending"})),
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Invalid sales order status transition: 'cancelled' -> 'pending'. Allowed: none (terminal state)"})
        )
    );

    // Delete: operators never, admins pending or cancelled orders.
    let (s, _) = refused(
        &app,
        &op,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{}", mine["id"]),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{}", mine["id"]),
        None,
    )
    .await;
    ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(
        sql_num(&app, "SELECT count(*) FROM sales_orders").await,
        0.0
    );

    // The advertised flow.
    let tr = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/status-transitions?current_status=confirmed",
        None,
    )
    .await;
    assert_eq!(
        tr,
        json!({"current_status": "confirmed", "allowed_transitions": ["in_production", "ready_to_ship", "on_hold", "cancelled"], "is_terminal": false})
    );
    let tr = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/status-transitions",
        None,
    )
    .await;
    assert_eq!(tr["terminal_statuses"], json!(["completed", "cancelled"]));
    assert_eq!(
        tr["transitions"]["shipped"]["allowed_transitions"],
        json!(["delivered", "completed"])
    );
    let ps = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/payment-statuses",
        None,
    )
    .await;
    assert_eq!(
        ps["statuses"],
        json!(["pending", "partial", "paid", "refunded", "overdue"])
    );
    balanced(&app, &t).await;
}

struct Shop {
    widget: i64,
    box_: i64,
}

/// A widget (selling 25.00) made of 100 g PLA at 0.02 and shipped in a box (packaging, 0.40).
async fn shop(app: &TestApp, t: &str) -> Shop {
    let pla = item("PLA")
        .kind("material")
        .unit("G")
        .price(None)
        .create(app, t)
        .await;
    receive(app, t, pla, "1000", "0.02").await;
    let box_ = item("BOX")
        .kind("packaging")
        .unit("EA")
        .price(None)
        .create(app, t)
        .await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(app, t)
        .await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": widget, "lines": [
            {"component_id": pla, "quantity": "100", "unit": "G"},
            {"component_id": box_, "quantity": "1", "consume_stage": "shipping"}
        ]})),
    )
    .await;
    Shop { widget, box_ }
}

#[tokio::test]
async fn the_quality_gate_refuses_or_warns_shipping_production_that_has_not_passed_qc() {
    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.box_, "10", "0.40").await;
    for (key, value) in [("quality_mode", "full"), ("quality_gate_action", "block")] {
        ok(
            &app,
            &t,
            Method::PUT,
            &format!("/api/v1/system/settings/{key}"),
            Some(json!({"value": value})),
        )
        .await;
    }
    let o = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    set_status(&app, &t, id, "confirmed").await;
    let wo = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/production-orders/?sales_order_id={id}"),
        None,
    )
    .await[0]
        .clone();
    let wid = wo["id"].as_i64().expect("wo");
    for step in ["release", "start"] {
        ok(
            &app,
            &t,
            Method::POST,
            &format!("/api/v1/production-orders/{wid}/{step}"),
            None,
        )
        .await;
    }
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/production-orders/{wid}/complete"),
        Some(json!({"quantity_completed": "1"})),
    )
    .await;

    // Block: the widget waits for QC, so the order does not ship, and nothing moved.
    let tables = [
        "shipments",
        "inventory_transactions",
        "gl_journal_entries",
        "sales_orders",
    ];
    let mut before = Vec::new();
    for table in tables {
        before.push(table_json(&app, table).await);
    }
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["detail"],
        format!(
            "Quality gate: production order(s) {} (pending) have not passed QC",
            wo["code"].as_str().expect("code")
        )
    );
    let mut after = Vec::new();
    for table in tables {
        after.push(table_json(&app, table).await);
    }
    assert_eq!(after, before);

    // Warn: it ships, and says so.
    ok(
        &app,
        &t,
        Method::PUT,
        "/api/v1/system/settings/quality_gate_action",
        Some(json!({"value": "warn"})),
    )
    .await;
    let shipped = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    assert_eq!(shipped["message"], "Order shipped successfully");
    assert_eq!(
        shipped["warnings"].as_array().map(Vec::len),
        Some(1),
        "{shipped}"
    );
}

#[tokio::test]
async fn order_to_cash_confirm_produce_qc_ship_and_pay_posts_every_entry_once() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.box_, "10", "0.40").await;

    let o = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 2}]),
        json!({"shipping_cost": "5.00"}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    assert_eq!(o["grand_total"], "55.00");
    let c = set_status(&app, &t, id, "confirmed").await;
    assert_eq!(c["status"], "in_production");
    assert_eq!(c["fulfillment"]["state"], "blocked");

    // Produce the two widgets and pass QC: the order is ready to ship, the goods reserved.
    let wo = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/production-orders/?sales_order_id={id}"),
        None,
    )
    .await[0]
        .clone();
    let wid = wo["id"].as_i64().expect("wo");
    for step in ["release", "start"] {
        ok(
            &app,
            &t,
            Method::POST,
            &format!("/api/v1/production-orders/{wid}/{step}"),
            None,
        )
        .await;
    }
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/production-orders/{wid}/complete"),
        Some(json!({"quantity_completed": "2"})),
    )
    .await;
    let q = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/production-orders/{wid}/qc"),
        Some(json!({"result": "passed"})),
    )
    .await;
    assert_eq!(q["sales_order_updated"], true, "{q}");
    assert_eq!(q["sales_order_status"], "ready_to_ship");
    let r = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(r["status"], "ready_to_ship");
    assert_eq!(r["fulfillment"]["state"], "ready_to_ship");
    assert_eq!(r["fulfillment"]["can_ship_complete"], true);
    assert_eq!(stock(&app, s.widget).await, (2.0, 2.0));
    assert_eq!(account(&app, "1220").await, 4.0);

    // Operators cannot ship; an admin ships once per Idempotency-Key.
    let (st, body) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::FORBIDDEN,
            json!({"detail": "Admin access required"})
        )
    );
    let path = format!("/api/v1/sales-orders/{id}/ship");
    let (st, first) = keyed(
        &app,
        &t,
        Method::POST,
        &path,
        "ship-1",
        json!({"carrier": "UPS", "service": "Ground"}),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{first}");
    let (st, again) = keyed(
        &app,
        &t,
        Method::POST,
        &path,
        "ship-1",
        json!({"carrier": "UPS", "service": "Ground"}),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(first, again);
    assert_eq!(first["message"], "Order shipped successfully");
    assert_eq!(first["carrier"], "UPS");
    assert_eq!(first["service"], "Ground");
    assert_eq!(first["label_url"], Value::Null);
    assert!(
        first["tracking_number"]
            .as_str()
            .expect("tracking")
            .starts_with("UPS"),
        "{first}"
    );

    // What the order cost against its revenue: the widgets' PLA, the boxes it shipped in.
    let costs = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/admin/accounting/order-cost-breakdown/{id}"),
        None,
    )
    .await;
    assert_eq!(costs["revenue"], 50.0, "{costs}");
    assert_eq!(costs["shipping_expense"], 5.0);
    let pla = &costs["costs"]["materials"]["items"][0];
    assert_eq!(pla["sku"], "PLA", "{costs}");
    assert_eq!(pla["quantity"], 200.0);
    assert_eq!(pla["total"], 4.0);
    assert_eq!(
        costs["costs"]["packaging"]["items"][0]["sku"], "BOX",
        "{costs}"
    );
    let cogs = costs["costs"]["materials"]["total"].as_f64().expect("m")
        + costs["costs"]["labor"].as_f64().expect("l")
        + costs["costs"]["packaging"]["total"].as_f64().expect("p");
    assert!((costs["total_cogs"].as_f64().expect("cogs") - cogs).abs() < 1e-9);
    assert!((costs["gross_profit"].as_f64().expect("gp") - (50.0 - cogs)).abs() < 1e-9);
    let (st, _) = refused(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/accounting/order-cost-breakdown/999999",
        None,
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(
        first["shipment"]["shipment_number"]
            .as_str()
            .expect("shp")
            .starts_with("SHP-")
    );
    assert_eq!(first["shipment"]["cost_of_goods"], "4.00");
    assert_eq!(first["shipment"]["packaging_cost"], "0.80");
    assert_eq!(stock(&app, s.widget).await, (0.0, 0.0));
    assert_eq!(stock(&app, s.box_).await, (8.0, 0.0));
    assert_eq!(account(&app, "5000").await, 4.0);
    assert_eq!(account(&app, "1220").await, 0.0);
    assert_eq!(account(&app, "5010").await, 0.8);
    assert_eq!(account(&app, "1230").await, 3.2);
    assert_eq!(account(&app, "1100").await, 55.0);
    assert_eq!(account(&app, "4000").await, -50.0);
    assert_eq!(account(&app, "4200").await, -5.0);
    assert_eq!(account(&app, "2100").await, 0.0);
    let shipped = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(shipped["status"], "shipped");
    assert_eq!(shipped["fulfillment"]["state"], "shipped");
    assert_eq!(shipped["carrier"], "UPS");
    assert_eq!(shipped["tracking_number"], first["tracking_number"]);
    let (st, body) = refused(&app, &t, Method::POST, &path, Some(json!({}))).await;
    assert_eq!(
        (st, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Cannot ship order with status 'shipped'"})
        )
    );
    let list = ok(&app, &t, Method::GET, "/api/v1/shipments/", None).await;
    assert_eq!(list["total"], 1);
    assert_eq!(list["items"][0]["order_number"], o["order_number"]);
    // Not the operator's order: not in the operator's list.
    let list = ok(&app, &op, Method::GET, "/api/v1/shipments/", None).await;
    assert_eq!(list["total"], 0);

    // Payments: admins only; partial, then paid (a retried key posts once); refund; void.
    let (st, body) = refused(
        &app,
        &op,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": id, "amount": "20.00", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::FORBIDDEN,
            json!({"detail": "Admin access required"})
        )
    );
    let (st, _) = refused(&app, &op, Method::GET, "/api/v1/payments", None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": id, "amount": "0", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let p1 = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": id, "amount": "20.00", "payment_method": "cash"})),
    )
    .await;
    assert!(
        regex::Regex::new(r"^PAY-\d{4}-\d{4}$")
            .expect("re")
            .is_match(p1["payment_number"].as_str().expect("n")),
        "{p1}"
    );
    assert_eq!(p1["order_number"], o["order_number"]);
    assert_eq!(p1["status"], "completed");
    assert_eq!(p1["payment_type"], "payment");
    let r = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(r["payment_status"], "partial");
    let body = json!({"sales_order_id": id, "amount": "35.00", "payment_method": "credit_card", "transaction_id": "ch_1"});
    let (st, a) = keyed(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        "pay-2",
        body.clone(),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{a}");
    let (st, b) = keyed(&app, &t, Method::POST, "/api/v1/payments", "pay-2", body).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(a, b);
    let r = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(r["payment_status"], "paid");
    assert_eq!(r["is_paid"], true);
    assert!(r["paid_at"].is_string());
    assert_eq!(account(&app, "1000").await, 55.0);
    assert_eq!(account(&app, "1100").await, 0.0);
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments/refund",
        Some(json!({"sales_order_id": id, "amount": "60.00", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Refund amount (60.00) exceeds the amount paid (55.00)"})
        )
    );
    let refund = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments/refund",
        Some(json!({"sales_order_id": id, "amount": "5.00", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(refund["amount"], "-5.00");
    assert_eq!(refund["payment_type"], "refund");
    assert_eq!(account(&app, "1000").await, 50.0);
    let r = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(r["payment_status"], "partial");
    let summary = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/payments/order/{id}/summary"),
        None,
    )
    .await;
    assert_eq!(summary["total_paid"], "55.00");
    assert_eq!(summary["total_refunded"], "5.00");
    assert_eq!(summary["balance_due"], "5.00");
    assert_eq!(summary["payment_count"], 3);
    ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/payments/{}", refund["id"]),
        None,
    )
    .await;
    let (st, body) = refused(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/payments/{}", refund["id"]),
        None,
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Payment is already voided"})
        )
    );
    assert_eq!(account(&app, "1000").await, 55.0);
    let r = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(r["payment_status"], "paid");
    let page = ok(&app, &t, Method::GET, "/api/v1/payments?page_size=2", None).await;
    assert_eq!(
        (
            page["total"].clone(),
            page["total_pages"].clone(),
            page["items"].as_array().map(Vec::len)
        ),
        (json!(3), json!(2), Some(2))
    );
    let refunds = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/payments/?payment_type=refund&status=voided",
        None,
    )
    .await;
    assert_eq!(refunds["total"], 1);
    let p = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/payments/{}", p1["id"]),
        Some(json!({"notes": "counter"})),
    )
    .await;
    assert_eq!(p["notes"], "counter");
    let dash = ok(&app, &t, Method::GET, "/api/v1/payments/dashboard", None).await;
    assert_eq!(dash["payments_today"], 2);
    assert_eq!(dash["amount_today"], "55.00");
    assert_eq!(dash["orders_with_balance"], 0);
    // One payment by id; voiding a real payment through PATCH reverses its cash and leaves
    // a balance on the order.
    let got = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/payments/{}", p1["id"]),
        None,
    )
    .await;
    assert_eq!(got["payment_number"], p1["payment_number"]);
    assert_eq!(got["amount"], "20.00");
    let voided = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/payments/{}", p1["id"]),
        Some(json!({"status": "voided"})),
    )
    .await;
    assert_eq!(voided["status"], "voided");
    assert_eq!(account(&app, "1000").await, 35.0);
    let summary = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/payments/order/{id}/summary"),
        None,
    )
    .await;
    assert_eq!(summary["balance_due"], "20.00", "{summary}");
    let r = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(r["payment_status"], "partial");
    // The order's fulfillment on its own route: shipped.
    let f = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/fulfillment-status"),
        None,
    )
    .await;
    assert_eq!(f["fulfillment"]["state"], "shipped", "{f}");

    // Delivered and completed close it.
    set_status(&app, &t, id, "delivered").await;
    let done = set_status(&app, &t, id, "completed").await;
    assert!(done["delivered_at"].is_string() && done["actual_completion_date"].is_string());
    balanced(&app, &t).await;
}

#[tokio::test]
async fn a_shipment_that_fails_midway_leaves_nothing_behind() {
    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    // Widgets in stock but no boxes: the packaging issue fails after the goods were issued.
    receive(&app, &t, s.widget, "3", "2").await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 2}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let c = set_status(&app, &t, id, "confirmed").await;
    assert_eq!(c["status"], "confirmed");
    assert_eq!(c["fulfillment"]["state"], "ready_to_ship");
    assert_eq!(c["fulfillment"]["fulfillment_percent"], 100.0);
    let tables = [
        "inventory_transactions",
        "inventory_balances",
        "gl_journal_entries",
        "shipments",
        "sales_orders",
        "sales_order_lines",
        "sales_order_events",
    ];
    let mut before = Vec::new();
    for table in tables {
        before.push(table_json(&app, table).await);
    }
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/shipments/",
        Some(json!({"sales_order_id": id, "carrier": "USPS", "service": "Priority"})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    for (table, was) in tables.iter().zip(before) {
        assert_eq!(table_json(&app, table).await, was, "{table} changed");
    }
    // With boxes it ships, through ready_to_ship.
    receive(&app, &t, s.box_, "2", "0.5").await;
    let shipped = ok(&app, &t, Method::POST, "/api/v1/shipments/", Some(json!({"sales_order_id": id, "carrier": "USPS", "service": "Priority", "tracking_number": "9400"}))).await;
    assert_eq!(shipped["tracking_number"], "9400");
    assert_eq!(stock(&app, s.widget).await, (1.0, 0.0));
    let ev = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await["items"]
        .clone();
    let moves: Vec<String> = ev
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["event_type"] == "status_change")
        .map(|e| {
            format!(
                "{}->{}",
                e["old_status"].as_str().unwrap_or(""),
                e["new_status"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        moves,
        vec![
            "pending->confirmed",
            "confirmed->ready_to_ship",
            "ready_to_ship->shipped"
        ]
    );
    // Without an address it cannot ship.
    let bare = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": s.widget, "quantity": 1}]})),
    )
    .await;
    set_status(&app, &t, bare["id"].as_i64().expect("id"), "confirmed").await;
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{}/ship", bare["id"]),
        Some(json!({})),
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Order has no shipping address. Add one before shipping."})
        )
    );
    balanced(&app, &t).await;
}

#[tokio::test]
async fn orders_sort_by_fulfillment_priority_percent_total_and_customer() {
    let app = app().await;
    let t = admin(&app).await;
    // Bought components: confirming never orders production for them.
    let a = item("A")
        .kind("component")
        .unit("EA")
        .price(Some("10"))
        .create(&app, &t)
        .await;
    let b = item("B")
        .kind("component")
        .unit("EA")
        .price(Some("1"))
        .create(&app, &t)
        .await;
    receive(&app, &t, a, "1", "1").await;
    // blocked (pending), ready (confirmed with stock), partially ready.
    let o1 = order(
        &app,
        &t,
        json!([{"product_id": b, "quantity": 1}]),
        json!({}),
    )
    .await;
    let o2 = order(
        &app,
        &t,
        json!([{"product_id": a, "quantity": 1}, {"product_id": b, "quantity": 1}]),
        json!({}),
    )
    .await;
    let o3 = order(
        &app,
        &t,
        json!([{"product_id": a, "quantity": 1}]),
        json!({}),
    )
    .await;
    set_status(&app, &t, o3["id"].as_i64().expect("id"), "confirmed").await;
    set_status(&app, &t, o2["id"].as_i64().expect("id"), "confirmed").await;
    let ids = |v: &Value| -> Vec<i64> {
        v.as_array()
            .expect("rows")
            .iter()
            .filter_map(|r| r["id"].as_i64())
            .collect()
    };
    let (i1, i2, i3) = (
        o1["id"].as_i64().unwrap_or(0),
        o2["id"].as_i64().unwrap_or(0),
        o3["id"].as_i64().unwrap_or(0),
    );
    let v = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?sort_by=fulfillment_priority",
        None,
    )
    .await;
    assert_eq!(ids(&v), vec![i3, i1, i2]);
    assert_eq!(v[0]["fulfillment_state"], "ready_to_ship");
    let states: Vec<&str> = v
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["fulfillment_state"].as_str())
        .collect();
    assert_eq!(states, vec!["ready_to_ship", "blocked", "blocked"]);
    let v = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?sort_by=total_amount&sort_order=asc",
        None,
    )
    .await;
    assert_eq!(ids(&v), vec![i1, i3, i2]);
    let v = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?sort_by=fulfillment_percent&sort_order=desc",
        None,
    )
    .await;
    assert_eq!(ids(&v)[0], i3);
    let v = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?limit=500&skip=1",
        None,
    )
    .await;
    assert_eq!(ids(&v), vec![i2, i1]);
    let v = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?fulfillment_state=blocked",
        None,
    )
    .await;
    assert_eq!(ids(&v), vec![i2, i1]);
}

#[tokio::test]
async fn the_order_list_with_lines_customer_and_fulfillment_costs_the_same_statements_for_50_orders()
 {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let a = item("A")
        .kind("finished_good")
        .unit("EA")
        .price(Some("10"))
        .create(&app, &t)
        .await;
    let b = item("B")
        .kind("finished_good")
        .unit("EA")
        .price(Some("2"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t).await;
    for _ in 0..50 {
        order(
            &app,
            &t,
            json!([{"product_id": a, "quantity": 1}, {"product_id": b, "quantity": 2}]),
            json!({"customer_id": c}),
        )
        .await;
    }
    let mut counts = Vec::new();
    for n in [1, 50] {
        let mut least = u64::MAX;
        for _ in 0..3 {
            let before = counter.load(Ordering::SeqCst);
            let list = ok(
                &app,
                &t,
                Method::GET,
                &format!("/api/v1/sales-orders/?limit={n}&include_fulfillment=true"),
                None,
            )
            .await;
            let rows = list.as_array().expect("rows");
            assert_eq!(rows.len(), n);
            assert_eq!(rows[n - 1]["lines"][1]["product_sku"], "B");
            assert_eq!(rows[n - 1]["customer_name"], "Bea Buyer");
            assert_eq!(rows[n - 1]["fulfillment"]["state"], "blocked");
            least = least.min(counter.load(Ordering::SeqCst) - before);
        }
        counts.push(least);
    }
    println!(
        "statements for 1 order: {}, for 50: {}",
        counts[0], counts[1]
    );
    assert!(
        counts[1] <= counts[0] + 2 && counts[1] <= 10,
        "the statement count grows with the orders: {counts:?}"
    );
}

proptest! {
    /// Totals are exact to the cent: tax is the subtotal times the rate rounded half up, and
    /// the grand total is the exact sum of its parts.
    #[test]
    fn totals_are_exact_to_the_cent(
        lines in prop::collection::vec((1i32..=10_000, 0i64..=1_000_000), 1..6),
        shipping in 0i64..=100_000,
        rate in 0i64..=250_000,
    ) {
        use bigdecimal::BigDecimal;
        use strata::operations::sales::rules::{line_total, totals};
        let zero = BigDecimal::from(0);
        let line_totals: Vec<BigDecimal> = lines
            .iter()
            .map(|(q, cents)| line_total(*q, &BigDecimal::new((*cents).into(), 2), &zero))
            .collect();
        let rate = BigDecimal::new(rate.into(), 6);
        let t = totals(&line_totals, &BigDecimal::new(shipping.into(), 2), &rate);
        let exact_sub: BigDecimal = lines.iter().map(|(q, c)| BigDecimal::from(*q) * BigDecimal::new((*c).into(), 2)).fold(zero.clone(), |a, b| a + b);
        prop_assert_eq!(&t.subtotal, &exact_sub);
        let exact_tax = &exact_sub * &rate;
        let diff = (&t.tax_amount - &exact_tax).abs();
        prop_assert!(diff <= BigDecimal::new(5.into(), 3), "tax {} vs {}", t.tax_amount, exact_tax);
        prop_assert_eq!(t.tax_amount.with_scale(2), t.tax_amount.clone());
        prop_assert_eq!(&t.grand_total, &(&t.subtotal + &t.tax_amount + &t.shipping_cost));
    }
}

#[tokio::test]
async fn quotes_are_written_approved_converted_to_orders_and_counted() {
    let app = app().await;
    let t = admin(&app).await;
    ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"tax_enabled": true, "tax_rate_percent": "10"})),
    )
    .await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t).await;
    let q = ok(&app, &t, Method::POST, "/api/v1/quotes/", Some(json!({"product_id": widget, "product_name": "Custom widget", "quantity": 4, "unit_price": "12.345", "customer_id": c, "shipping_cost": "3"}))).await;
    let id = q["id"].as_i64().expect("id");
    assert!(
        regex::Regex::new(r"^Q-\d{4}-\d{4}$")
            .expect("re")
            .is_match(q["quote_number"].as_str().expect("n")),
        "{q}"
    );
    assert_eq!(q["status"], "pending");
    assert_eq!(q["expired"], false);
    assert_eq!(q["material_type"], "PLA");
    // 4 x 12.35 = 49.40; tax 4.94; + 3.00 = 57.34.
    assert_eq!(
        (
            q["subtotal"].clone(),
            q["tax_amount"].clone(),
            q["total_price"].clone()
        ),
        (json!("49.40"), json!("4.94"), json!("57.34"))
    );
    assert_eq!(q["customer_name"], "Bea Buyer");
    let untaxed = ok(&app, &t, Method::POST, "/api/v1/quotes/", Some(json!({"product_name": "Repair", "unit_price": "10", "apply_tax": false, "valid_days": 1}))).await;
    assert_eq!(untaxed["total_price"], "10.00");
    let (s, _) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/quotes/",
        Some(json!({"product_name": "x", "unit_price": "-1"})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);

    // Converting a pending quote is refused; approved converts once.
    let (s, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/quotes/{id}/convert"),
        None,
    )
    .await;
    assert_eq!(
        (s, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Quote must be approved or accepted before converting (status is 'pending')"})
        )
    );
    let a = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/quotes/{id}/status"),
        Some(json!({"status": "approved"})),
    )
    .await;
    assert_eq!(a["status"], "approved");
    assert!(a["approved_at"].is_string());
    let u = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/quotes/{id}"),
        Some(json!({"quantity": 2})),
    )
    .await;
    assert_eq!(u["total_price"], "30.17");
    let conv = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/quotes/{id}/convert"),
        None,
    )
    .await;
    let number = conv["order_number"].as_str().expect("number");
    assert_eq!(
        conv["message"],
        format!("Quote converted to order {number}")
    );
    let o = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{}", conv["order_id"]),
        None,
    )
    .await;
    assert_eq!(o["order_type"], "quote_based");
    assert_eq!(o["quote_id"], id);
    assert_eq!(o["grand_total"], "30.17");
    assert_eq!(o["lines"][0]["quantity"], 2);
    assert_eq!(o["shipping_address_line1"], "1 Elm St");
    let q = ok(&app, &t, Method::GET, &format!("/api/v1/quotes/{id}"), None).await;
    assert_eq!(q["status"], "converted");
    assert_eq!(q["sales_order_id"], conv["order_id"]);
    for (method, path, body, detail) in [
        (
            Method::PATCH,
            format!("/api/v1/quotes/{id}/status"),
            Some(json!({"status": "cancelled"})),
            "Cannot change status of a converted quote",
        ),
        (
            Method::PATCH,
            format!("/api/v1/quotes/{id}"),
            Some(json!({"quantity": 1})),
            "Cannot edit a converted quote",
        ),
        (
            Method::DELETE,
            format!("/api/v1/quotes/{id}"),
            None,
            "Cannot delete a converted quote",
        ),
    ] {
        let (s, b) = refused(&app, &t, method, &path, body).await;
        assert_eq!((s, b), (StatusCode::BAD_REQUEST, json!({"detail": detail})));
    }

    // The untaxed one expires; stats count it.
    exec(
        &app,
        &format!(
            "UPDATE quotes SET expires_at = now() - interval '1 day' WHERE id = {}",
            untaxed["id"]
        ),
    )
    .await;
    let stats = ok(&app, &t, Method::GET, "/api/v1/quotes/stats", None).await;
    assert_eq!(
        stats,
        json!({"total": 2, "pending": 1, "approved": 0, "accepted": 0, "rejected": 0, "converted": 1, "expired": 1, "total_value": "40.17", "pending_value": "10.00"})
    );
    let list = ok(&app, &t, Method::GET, "/api/v1/quotes/?search=repair", None).await;
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["expired"], true);
    ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/quotes/{}", untaxed["id"]),
        None,
    )
    .await;
    let list = ok(&app, &t, Method::GET, "/api/v1/quotes", None).await;
    assert_eq!(list.as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn the_dashboard_counts_orders_and_trends_sales_shipments_payments_and_profit() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.box_, "5", "0.40").await;
    receive(&app, &t, s.widget, "5", "3").await;
    let c = customer(&app, &t).await;
    let a = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 2}]),
        json!({"customer_id": c}),
    )
    .await;
    let b = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    set_status(&app, &t, a["id"].as_i64().expect("a"), "confirmed").await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{}/ship", a["id"]),
        Some(json!({})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": a["id"], "amount": "30.00", "payment_method": "cash"})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/quotes/",
        Some(json!({"product_name": "Q", "unit_price": "1"})),
    )
    .await;

    let d = ok(&app, &op, Method::GET, "/api/v1/admin/dashboard/", None).await;
    assert_eq!(d["summary"]["pending_orders"], 1, "{d}");
    assert_eq!(d["summary"]["pending_quotes"], 1);
    assert_eq!(d["summary"]["orders_30_days"], 2);
    assert_eq!(d["summary"]["revenue_30_days"], 75.0);
    assert_eq!(d["recent_orders"][0]["id"], b["id"]);
    assert_eq!(d["recent_orders"][0]["customer_name"], "Unknown");
    assert_eq!(d["recent_orders"][1]["customer_name"], "Bea Buyer");
    let sm = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/summary",
        None,
    )
    .await;
    assert_eq!(sm["quotes"], json!({"pending": 1, "this_week": 1}));
    assert_eq!(sm["orders"]["ready_to_ship"], 0);
    assert_eq!(sm["boms"]["active"], 1);
    assert_eq!(
        sm["revenue"],
        json!({"last_30_days": 75.0, "orders_last_30_days": 2})
    );
    let r = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/recent-orders?limit=1",
        None,
    )
    .await;
    assert_eq!(r.as_array().map(Vec::len), Some(1));
    assert_eq!(r[0]["grand_total"], 25.0);
    for period in ["WTD", "MTD", "QTD", "YTD", "ALL", "mtd"] {
        let tr = ok(
            &app,
            &op,
            Method::GET,
            &format!("/api/v1/admin/dashboard/sales-trend?period={period}"),
            None,
        )
        .await;
        assert_eq!(tr["period"], period.to_uppercase());
        assert_eq!(tr["total_revenue"], 75.0, "{tr}");
        assert_eq!(tr["total_orders"], 2);
        assert_eq!(tr["total_payments"], 30.0);
        assert_eq!(tr["total_payment_count"], 1);
        assert_eq!(tr["data"].as_array().map(Vec::len), Some(1));
        assert_eq!(tr["data"][0]["orders"], 2);
    }
    let tr = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/sales-trend/",
        None,
    )
    .await;
    assert_eq!(tr["period"], "MTD");
    let (st, body) = refused(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/sales-trend?period=DAILY",
        None,
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["details"]["errors"][0]["field"], "query.period",
        "{body}"
    );
    assert_eq!(
        body["details"]["errors"][0]["message"],
        "Invalid period. Use one of: WTD, MTD, QTD, YTD, ALL"
    );
    let sh = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/shipping-trend?period=YTD",
        None,
    )
    .await;
    assert_eq!(sh["total_shipped"], 1);
    // Revenue 50.00 (2 x 25), cost 2 x 3.00 + 2 x 0.40 = 6.80: profit 43.20, 86.4 %.
    let p = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/profit-summary?period=ALL",
        None,
    )
    .await;
    assert_eq!(
        (
            p["revenue"].clone(),
            p["cost_of_goods"].clone(),
            p["gross_profit"].clone(),
            p["gross_margin_percent"].clone()
        ),
        (json!(50.0), json!(6.8), json!(43.2), json!(86.4))
    );
}

#[tokio::test]
async fn owners_change_the_address_until_shipped_admins_record_tracking_and_quotes_convert_by_the_old_path()
 {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    // The operator's own order: the owner may move it; another operator's is not theirs.
    let mine = ok(&app, &op, Method::POST, "/api/v1/sales-orders/", Some(json!({"lines": [{"product_id": widget, "quantity": 1}], "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}))).await;
    let id = mine["id"].as_i64().expect("id");
    let moved = ok(
        &app,
        &op,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/address"),
        Some(json!({"shipping_address_line1": "9 Oak Ave", "shipping_zip": "45402"})),
    )
    .await;
    assert_eq!(moved["shipping_address_line1"], "9 Oak Ave");
    assert_eq!(
        moved["shipping_city"], "Austin",
        "an omitted field keeps its value"
    );
    assert_eq!(moved["shipping_zip"], "45402");
    let events = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await["items"]
        .clone();
    assert!(
        events.to_string().contains("Shipping Address Updated"),
        "{events}"
    );
    let theirs = order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let theirs_id = theirs["id"].as_i64().expect("id");
    let before = table_json(&app, "sales_orders").await;
    let (s, body) = refused(
        &app,
        &op,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{theirs_id}/address"),
        Some(json!({"shipping_city": "Nowhere"})),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{body}");
    let (s, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/address"),
        Some(json!({"shipping_city": "x".repeat(300)})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    // Shipping details are for admins.
    let (s, _) = refused(
        &app,
        &op,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/shipping"),
        Some(json!({"tracking_number": "1Z"})),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(
        table_json(&app, "sales_orders").await,
        before,
        "a refused change wrote"
    );
    let tracked = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/shipping"),
        Some(json!({"tracking_number": "1Z999", "carrier": "UPS"})),
    )
    .await;
    assert_eq!(
        (
            tracked["tracking_number"].as_str(),
            tracked["carrier"].as_str()
        ),
        (Some("1Z999"), Some("UPS"))
    );
    // Cancelled: the address is frozen.
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/cancel"),
        Some(json!({"cancellation_reason": "test"})),
    )
    .await;
    let (s, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/address"),
        Some(json!({"shipping_city": "Dayton"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["detail"],
        "Cannot change the address of a cancelled order"
    );
    // The GraphQL list counts when the total is asked for (the REST list does not need it).
    let listed = crate::common::api::gql(
        &app,
        &t,
        "{ salesOrders(first: 1) { totalCount pageInfo { hasNextPage } nodes { id } } }",
        json!({}),
    )
    .await;
    assert_eq!(listed["data"]["salesOrders"]["totalCount"], 2, "{listed}");
    assert_eq!(
        listed["data"]["salesOrders"]["pageInfo"]["hasNextPage"], true,
        "{listed}"
    );
    let mine_only =
        crate::common::api::gql(&app, &op, "{ salesOrders { totalCount } }", json!({})).await;
    assert_eq!(
        mine_only["data"]["salesOrders"]["totalCount"], 1,
        "{mine_only}"
    );
    // POST /sales-orders/convert/{quote_id} is /quotes/{id}/convert.
    let q = ok(&app, &t, Method::POST, "/api/v1/quotes/", Some(json!({"product_id": widget, "product_name": "Widget", "quantity": 2, "unit_price": "20"}))).await;
    let qid = q["id"].as_i64().expect("quote");
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/quotes/{qid}/status"),
        Some(json!({"status": "approved"})),
    )
    .await;
    let converted = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/convert/{qid}"),
        None,
    )
    .await;
    assert!(
        converted["order_number"]
            .as_str()
            .is_some_and(|n| n.starts_with("SO-")),
        "{converted}"
    );
}

#[tokio::test]
async fn notes_and_tracking_updates_join_the_history_and_delivered_closes_the_trip() {
    let ago = |minutes| {
        (chrono::Utc::now() - chrono::Duration::minutes(minutes))
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    };
    let (in_transit_at, delivered_at) = (ago(10), ago(3));
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    let so = order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 2}]),
        json!({}),
    )
    .await;
    let id = so["id"].as_i64().expect("id");
    let events = format!("/api/v1/sales-orders/{id}/events");

    // Notes: the owner or an admin adds one; a blank title is refused; another user's order
    // is not theirs.
    let (st, note) = keyed(
        &app,
        &t,
        Method::POST,
        &events,
        "note-1",
        json!({"title": " Called the customer ", "description": "Wants it by Friday"}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{note}");
    assert_eq!(note["event_type"], "note");
    assert_eq!(note["title"], "Called the customer");
    let (_, again) = keyed(
        &app,
        &t,
        Method::POST,
        &events,
        "note-1",
        json!({"title": " Called the customer ", "description": "Wants it by Friday"}),
    )
    .await;
    assert_eq!(
        again["id"], note["id"],
        "a retry adds no second note: {again}"
    );
    let before = table_json(&app, "sales_order_events").await;
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &events,
        Some(json!({"title": "  "})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (st, _) = refused(
        &app,
        &op,
        Method::POST,
        &events,
        Some(json!({"title": "Mine?"})),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    assert_eq!(table_json(&app, "sales_order_events").await, before);

    // Tracking updates need a shipped order and an admin.
    let tracking = format!("/api/v1/sales-orders/{id}/shipping-events");
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &tracking,
        Some(json!({"event_type": "in_transit"})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("has not shipped"), "{body}");
    exec(
        &app,
        &format!("UPDATE sales_orders SET status = 'shipped', carrier = 'UPS', tracking_number = '1Z999', shipped_at = now() WHERE id = {id}"),
    )
    .await;
    let (st, _) = refused(
        &app,
        &op,
        Method::POST,
        &tracking,
        Some(json!({"event_type": "in_transit"})),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &tracking,
        Some(json!({"event_type": "teleported"})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &tracking,
        Some(json!({"event_type": "in_transit", "event_at": "2999-01-01T00:00:00Z"})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    for garbage in ["garbage", "2026-11-24T10:00"] {
        let (st, body) = refused(
            &app,
            &t,
            Method::POST,
            &tracking,
            Some(json!({"event_type": "in_transit", "event_at": garbage})),
        )
        .await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["details"]["errors"][0]["field"], "event_at", "{body}");
    }
    let moving = ok(
        &app,
        &t,
        Method::POST,
        &tracking,
        Some(json!({"event_type": "in_transit", "location": "Memphis, TN", "event_at": in_transit_at})),
    )
    .await;
    assert_eq!(moving["carrier"], "UPS");
    assert_eq!(moving["tracking_number"], "1Z999");
    assert_eq!(moving["source"], "manual");
    let order_now = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(order_now["status"], "shipped", "in transit moves nothing");
    ok(
        &app,
        &t,
        Method::POST,
        &tracking,
        Some(
            json!({"event_type": "delivered", "description": "Left at front door", "source": "carrier", "event_at": delivered_at}),
        ),
    )
    .await;
    let order_now = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(order_now["status"], "delivered", "{order_now}");
    // Delivered when the carrier says it was.
    let stamped = order_now["delivered_at"].as_str().unwrap_or_default();
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(stamped).ok(),
        chrono::DateTime::parse_from_rfc3339(&delivered_at).ok(),
        "{order_now}"
    );
    let listed = ok(&app, &t, Method::GET, &tracking, None).await;
    let kinds: Vec<&str> = listed["items"]
        .as_array()
        .expect("the client's `{items}` envelope")
        .iter()
        .filter_map(|e| e["event_type"].as_str())
        .collect();
    assert_eq!(kinds, ["in_transit", "delivered"]);
    let history = ok(&app, &t, Method::GET, &events, None).await.to_string();
    for says in ["In Transit", "Memphis, TN", "Delivered", "Order Delivered"] {
        assert!(history.contains(says), "{says}: {history}");
    }

    // The production orders making it: none yet for a stocked order.
    let required = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/required-orders"),
        None,
    )
    .await;
    assert_eq!(required["order_id"], id);
    assert_eq!(required["production_orders"], json!([]));
}

#[tokio::test]
async fn quotes_and_packing_slips_come_as_pdfs_to_those_who_may_see_them() {
    let app = app().await;
    let t = admin(&app).await;
    ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"company_name": "Filament Farm", "company_city": "Austin", "quote_terms": "Payment due within 30 days.", "tax_enabled": true, "tax_rate_percent": "10"})),
    )
    .await;
    let widget = item("PDF-WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t).await;
    let q = ok(&app, &t, Method::POST, "/api/v1/quotes/", Some(json!({"product_id": widget, "product_name": "Caf\u{e9} widget \u{4e2d}", "quantity": 4, "unit_price": "12.345", "customer_id": c, "shipping_cost": "3"}))).await;
    let id = q["id"].as_i64().expect("id");
    let number = q["quote_number"].as_str().expect("number").to_string();

    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/quotes/{id}/pdf"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.header("content-type"), Some("application/pdf"));
    let disposition = res.header("content-disposition").expect("disposition");
    assert!(
        disposition.starts_with(&format!("inline; filename=\"{number}.pdf\"")),
        "{disposition}"
    );
    assert_eq!(
        res.header("content-length"),
        Some(res.body.len().to_string().as_str())
    );
    assert!(res.body.starts_with(b"%PDF-"));
    let has = |body: &[u8], needle: &[u8]| body.windows(needle.len()).any(|w| w == needle);
    for needle in [
        &b"(Filament Farm)"[..],
        b"(QUOTE)",
        number.as_bytes(),
        // Windows-1252 (as a hex string): the e-acute is one byte (E9), the CJK character a
        // question mark (3F).
        b"<436166E920776964676574203F>",
        b"($49.40)",
        b"(Tax (10%))",
        b"($4.94)",
        b"($57.34)",
        b"(Payment due within 30 days.)",
    ] {
        assert!(
            has(&res.body, needle),
            "{} missing from the quote PDF",
            String::from_utf8_lossy(needle)
        );
    }
    // GraphQL answers the same document (one resolver behind both).
    let g = gql(
        &app,
        &t,
        "query($id: Int!) { quotePdf(id: $id) { filename contentType contentBase64 } }",
        json!({"id": id}),
    )
    .await;
    let encoded = g["data"]["quotePdf"]["contentBase64"]
        .as_str()
        .expect("base64");
    use base64::Engine;
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .expect("decodes"),
        res.body
    );
    // The company's currency and locale: euros the German way, dates day first.
    ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({"currency_code": "EUR", "locale": "de-DE"})),
    )
    .await;
    let euro = call(
        &app,
        Method::GET,
        &format!("/api/v1/quotes/{id}/pdf"),
        None,
        &t,
    )
    .await;
    // "49,40 €" in Windows-1252 (the euro sign is 80), as a hex string.
    assert!(
        has(&euro.body, b"<34392C34302080>"),
        "the amount in euros, German style"
    );
    let today = chrono::Utc::now()
        .date_naive()
        .format("%d.%m.%Y")
        .to_string();
    assert!(has(&euro.body, today.as_bytes()), "the date day first");
    let missing = call(&app, Method::GET, "/api/v1/quotes/999999/pdf", None, &t).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND, "{}", missing.text());

    // A packing slip: the lines with SKU and quantities, the tracking number, no prices.
    receive(&app, &t, widget, "5", "4.00").await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 2}]),
        json!({"customer_notes": "Leave at the door"}),
    )
    .await;
    let order_id = o["id"].as_i64().expect("order");
    let order_number = o["order_number"].as_str().expect("number").to_string();
    set_status(&app, &t, order_id, "confirmed").await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{order_id}/ship"),
        Some(json!({"carrier": "UPS", "tracking_number": "1ZPDF123"})),
    )
    .await;
    let slip = call(
        &app,
        Method::GET,
        &format!("/api/v1/sales-orders/{order_id}/packing-slip/pdf"),
        None,
        &t,
    )
    .await;
    assert_eq!(slip.status, StatusCode::OK, "{}", slip.text());
    assert_eq!(slip.header("content-type"), Some("application/pdf"));
    assert!(
        slip.header("content-disposition")
            .expect("disposition")
            .contains(&format!("packing-slip-{order_number}.pdf"))
    );
    for needle in [
        &b"(PACKING SLIP)"[..],
        order_number.as_bytes(),
        b"(PDF-WIDGET)",
        b"(2 EA)",
        b"(UPS tracking: 1ZPDF123)",
        b"(Leave at the door)",
        b"(1 Elm St)",
    ] {
        assert!(
            has(&slip.body, needle),
            "{} missing from the packing slip",
            String::from_utf8_lossy(needle)
        );
    }
    assert!(!has(&slip.body, b"(25.00)"), "no prices on a packing slip");

    // Someone else's order: refused as the order itself is.
    let op = operator(&app, &t).await;
    let (status, body) = refused(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/sales-orders/{order_id}/packing-slip/pdf"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["detail"], "Not authorized to view this order");
}

/// The stored file name of a quote's picture, read from its row.
async fn stored_image(app: &TestApp, id: i64) -> Option<String> {
    let rows: Value = serde_json::from_str(&table_json(app, "quotes").await).expect("json");
    rows.as_array()
        .expect("rows")
        .iter()
        .find(|r| r["id"] == id)
        .and_then(|r| r["image_filename"].as_str().map(str::to_string))
}

#[tokio::test]
async fn a_quote_takes_one_picture_that_is_served_replaced_and_removed() {
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-png-magic";
    const JPEG: &[u8] = b"\xFF\xD8\xFF\xE0\0\x10JFIF\0rest";
    let app = app().await;
    let t = admin(&app).await;
    let q = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/quotes/",
        Some(json!({"product_name": "Bracket", "unit_price": "10"})),
    )
    .await;
    let id = q["id"].as_i64().expect("id");
    let number = q["quote_number"].as_str().expect("number").to_string();
    assert_eq!(q["has_image"], false);
    let image = format!("/api/v1/quotes/{id}/image");
    let (status, body) = refused(&app, &t, Method::GET, &image, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["detail"], "This quote has no image");

    // Not a picture by content (whatever the name): refused, nothing stored.
    let res = upload(&app, &image, &t, "part.png", b"GIF89a-not-png", &[]).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(res.json()["details"]["errors"][0]["field"], "file");
    assert!(res.text().contains("PNG or JPEG"), "{}", res.text());
    let listed = ok(&app, &t, Method::GET, &format!("/api/v1/quotes/{id}"), None).await;
    assert_eq!(listed["has_image"], false);

    let res = upload(&app, &image, &t, "part.png", PNG, &[]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["has_image"], true);
    let folder = app.state.config.uploads_dir.join("quotes");
    let first = stored_image(&app, id).await.expect("stored");
    assert!(folder.join(&first).exists());
    let got = call(&app, Method::GET, &image, None, &t).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.header("content-type"), Some("image/png"));
    assert!(
        got.header("content-disposition")
            .expect("disposition")
            .contains(&format!("{number}.png"))
    );
    assert_eq!(got.body, PNG);

    // A second picture replaces the first (and its file).
    let res = upload(&app, &image, &t, "photo", JPEG, &[]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let got = call(&app, Method::GET, &image, None, &t).await;
    assert_eq!(got.header("content-type"), Some("image/jpeg"));
    assert_eq!(got.body, JPEG);
    let second = stored_image(&app, id).await.expect("stored");
    assert!(
        !folder.join(&first).exists(),
        "the replaced picture's file is gone"
    );
    assert!(folder.join(&second).exists());

    // Removed: 404 again, has_image false, no file left; a second delete is 404.
    let res = call(&app, Method::DELETE, &image, None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["has_image"], false);
    assert_eq!(
        call(&app, Method::GET, &image, None, &t).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        call(&app, Method::DELETE, &image, None, &t).await.status,
        StatusCode::NOT_FOUND
    );
    assert!(!folder.join(&second).exists(), "no file left");
    assert_eq!(stored_image(&app, id).await, None);
    // Deleting the quote takes its picture with it.
    upload(&app, &image, &t, "part.png", PNG, &[]).await;
    let third = stored_image(&app, id).await.expect("stored");
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/quotes/{id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT, "{}", res.text());
    assert!(
        !folder.join(&third).exists(),
        "a deleted quote leaves no picture behind"
    );
    // An unknown quote.
    let res = upload(
        &app,
        "/api/v1/quotes/999999/image",
        &t,
        "part.png",
        PNG,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
}

#[tokio::test]
async fn blocking_issues_and_material_requirements_say_what_an_order_still_lacks() {
    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.widget, "1", "4.00").await;
    receive(&app, &t, s.box_, "2", "0.40").await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 3}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let blocking = format!("/api/v1/sales-orders/{id}/blocking-issues");
    let needs = format!("/api/v1/sales-orders/{id}/material-requirements");

    let b = ok(&app, &t, Method::GET, &blocking, None).await;
    assert_eq!(b["can_ship"], false);
    assert_eq!(b["status"], "pending");
    assert_eq!(
        b["blocking_issues"],
        json!(["The order is not confirmed yet"])
    );
    // Line by line, in the shape FilaOps's order page reads: one widget in stock (free, so
    // shipping would take it), two to make with no production order, a box short.
    assert_eq!(b["status_summary"]["can_fulfill"], false, "{b}");
    assert_eq!(b["status_summary"]["blocking_count"], 2, "{b}");
    let line = &b["line_issues"][0];
    assert_eq!(
        (
            &line["quantity_ordered"],
            &line["quantity_available"],
            &line["quantity_short"]
        ),
        (&json!("3"), &json!("1"), &json!("2")),
        "{b}"
    );
    let kinds = |line: &Value| -> Vec<(String, String)> {
        line["blocking_issues"]
            .as_array()
            .expect("issues")
            .iter()
            .map(|i| {
                (
                    i["type"].as_str().unwrap_or_default().to_string(),
                    i["severity"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        kinds(line),
        [
            ("production_missing".to_string(), "blocking".to_string()),
            ("material_shortage".to_string(), "warning".to_string()),
            ("stock_not_reserved".to_string(), "info".to_string()),
        ],
        "{b}"
    );
    assert_eq!(
        line["blocking_issues"][0]["details"]["quantity_needed"],
        "2"
    );
    assert_eq!(b["order_issues"][0]["type"], "order_status", "{b}");
    let actions: Vec<&str> = b["resolution_actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a["action"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        actions,
        [
            format!("Confirm {}", o["order_number"].as_str().unwrap_or_default()).as_str(),
            "Order BOX",
            "Create a production order for WIDGET"
        ],
        "{b}"
    );
    // Nothing reserved yet: all three to make (100 g of PLA each) and three boxes to pack.
    let m = ok(&app, &t, Method::GET, &needs, None).await;
    assert_eq!(m["has_shortages"], true, "{m}");
    assert_eq!(
        m["requirements"],
        json!([
            {"product_id": s.box_, "sku": "BOX", "product_sku": "BOX", "name": "BOX item", "product_name": "BOX item", "unit": "EA", "quantity_required": "3", "quantity_available": "2", "shortage": "1", "quantity_short": "1"},
            {"product_id": m["requirements"][1]["product_id"], "sku": "PLA", "product_sku": "PLA", "name": "PLA item", "product_name": "PLA item", "unit": "G", "quantity_required": "300", "quantity_available": "1000", "shortage": "0", "quantity_short": "0"}
        ])
    );

    // Confirmed: one widget reserved, a production order for the other two.
    set_status(&app, &t, id, "confirmed").await;
    let b = ok(&app, &t, Method::GET, &blocking, None).await;
    assert_eq!(b["can_ship"], false);
    let issues: Vec<String> = serde_json::from_value(b["blocking_issues"].clone()).expect("list");
    assert_eq!(
        issues[0], "Line 1 (WIDGET): 1 of 3 reserved, 2 short",
        "{b}"
    );
    assert!(
        issues[1].starts_with("Production order WO-") && issues[1].ends_with(" is not finished"),
        "{b}"
    );
    let line = &b["line_issues"][0];
    assert_eq!(line["quantity_available"], "1", "{b}");
    assert_eq!(
        line["blocking_issues"][0]["type"], "production_incomplete",
        "{b}"
    );
    assert_eq!(
        line["blocking_issues"][0]["details"]["quantity_remaining"], "2",
        "{b}"
    );
    assert_eq!(b["status_summary"]["blocking_count"], 1, "{b}");
    assert!(b["status_summary"]["estimated_ready_date"].is_null(), "{b}");

    // Boxes ordered from a vendor, expected in ten days: no longer a shortage but a purchase
    // order to chase, and the order's estimated ready date.
    let vendor = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Boxes Inc"})),
    )
    .await["id"]
        .clone();
    let expected = (chrono::Utc::now().date_naive() + chrono::Days::new(10)).to_string();
    let po = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/purchase-orders/",
        Some(json!({"vendor_id": vendor, "expected_date": expected, "lines": [{"product_id": s.box_, "quantity_ordered": "5", "unit_cost": "0.40"}]})),
    )
    .await;
    let b = ok(&app, &t, Method::GET, &blocking, None).await;
    let line = &b["line_issues"][0];
    assert_eq!(
        kinds(line),
        [
            ("production_incomplete".to_string(), "blocking".to_string()),
            ("purchase_pending".to_string(), "warning".to_string()),
        ],
        "{b}"
    );
    assert_eq!(
        line["blocking_issues"][1]["reference_code"], po["po_number"],
        "{b}"
    );
    assert_eq!(
        line["blocking_issues"][1]["details"]["covers_shortage"], true,
        "{b}"
    );
    assert_eq!(
        b["status_summary"]["estimated_ready_date"],
        expected.as_str(),
        "{b}"
    );
    assert_eq!(b["status_summary"]["days_until_ready"], 10, "{b}");
    assert_eq!(
        b["resolution_actions"][0]["action"],
        format!("Expedite {}", po["po_number"].as_str().unwrap_or_default()),
        "{b}"
    );
    let m = ok(&app, &t, Method::GET, &needs, None).await;
    assert_eq!(m["requirements"][1]["quantity_required"], "200", "{m}");
    // The pre-flight check answers the same and changes nothing.
    let before = table_json(&app, "inventory_transactions").await;
    let p = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/pre-flight-check"),
        None,
    )
    .await;
    assert_eq!(p, b);
    assert_eq!(table_json(&app, "inventory_transactions").await, before);

    // Someone else's order, or none.
    let op = operator(&app, &t).await;
    let (status, _) = refused(&app, &op, Method::GET, &blocking, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = refused(&app, &op, Method::GET, &needs, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = refused(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/999999/blocking-issues",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Shipping takes a line's reservation first, then free stock, so stock that arrives after
/// the order was confirmed counts: the ship check says the order can go, the blocking-issues
/// panel shows the stock as not reserved (information, not a blocker), and it ships.
#[tokio::test]
async fn stock_received_after_confirming_lets_the_order_ship() {
    let app = app().await;
    let t = admin(&app).await;
    let nut = item("NUT")
        .kind("component")
        .price(Some("2.00"))
        .with("procurement_type", json!("buy"))
        .create(&app, &t)
        .await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": nut, "quantity": 2}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    set_status(&app, &t, id, "confirmed").await;
    let check = format!("/api/v1/sales-orders/{id}/can-ship");
    let c = ok(&app, &t, Method::GET, &check, None).await;
    assert_eq!(c["can_ship"], false, "{c}");
    assert_eq!(
        c["reasons"],
        json!(["Line 1 (NUT): 0 of 2 reserved, 2 short"]),
        "{c}"
    );
    let b = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/blocking-issues"),
        None,
    )
    .await;
    // Bought, not made: a shortage of the line's own item, and the step is to order it.
    assert_eq!(
        b["line_issues"][0]["blocking_issues"][0]["type"], "material_shortage",
        "{b}"
    );
    assert_eq!(
        b["line_issues"][0]["blocking_issues"][0]["severity"], "blocking",
        "{b}"
    );
    assert_eq!(b["resolution_actions"][0]["action"], "Order NUT", "{b}");

    receive(&app, &t, nut, "3", "1.00").await;
    let c = ok(&app, &t, Method::GET, &check, None).await;
    assert_eq!(c, json!({"can_ship": true, "reasons": []}), "{c}");
    let b = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/blocking-issues"),
        None,
    )
    .await;
    assert_eq!(b["status_summary"]["can_fulfill"], true, "{b}");
    assert_eq!(b["status_summary"]["blocking_count"], 0, "{b}");
    assert_eq!(b["line_issues"][0]["quantity_available"], "2", "{b}");
    assert_eq!(
        b["line_issues"][0]["blocking_issues"][0]["type"], "stock_not_reserved",
        "{b}"
    );
    assert_eq!(b["resolution_actions"], json!([]), "{b}");
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    let shipped = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(shipped["status"], "shipped", "{shipped}");
}

/// `PATCH /sales-orders/{id}/payment` (CONTRACT 5.2, admins): method and reference are
/// recorded; the status may only be flagged where payments cannot say it (`overdue`,
/// `refunded`) or agree with them; anything else is a 400 naming what is paid, and writes
/// nothing.
#[tokio::test]
async fn admins_record_payment_details_and_flag_overdue_but_the_status_follows_the_payments() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("40.00"))
        .create(&app, &t)
        .await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let path = format!("/api/v1/sales-orders/{id}/payment");
    let total = o["grand_total"].as_str().expect("total").to_string();

    let before = table_json(&app, "sales_orders").await;
    let (st, body) = refused(
        &app,
        &op,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "overdue"})),
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::FORBIDDEN,
            json!({"detail": "Admin access required"})
        )
    );
    let (st, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "paid"})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["detail"],
        format!(
            "Payment status follows the order's payments: 0.00 of {total} is paid, so it is 'pending', not 'paid'. Record a payment or refund on Payments to change it"
        )
    );
    let (st, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "refunded"})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    let (st, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "settled"})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (st, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "overdue", "payment_method": "x".repeat(101)})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        table_json(&app, "sales_orders").await,
        before,
        "a refused change wrote"
    );

    // Overdue with the marketplace's method and reference; the history says so.
    let r = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "overdue", "payment_method": "Etsy Payments", "payment_transaction_id": "etsy-991"})),
    )
    .await;
    assert_eq!(r["payment_status"], "overdue");
    assert_eq!(r["payment_method"], "Etsy Payments");
    assert_eq!(r["payment_transaction_id"], "etsy-991");
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await["items"]
        .clone();
    assert!(events.to_string().contains("pending → overdue"), "{events}");
    // Back to what the payments say clears the flag; an omitted reference is kept.
    let r = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "pending"})),
    )
    .await;
    assert_eq!(r["payment_status"], "pending");
    assert_eq!(r["payment_transaction_id"], "etsy-991");

    // Paid in full: never overdue. Refunded in full: may be flagged refunded.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": id, "amount": total, "payment_method": "cash"})),
    )
    .await;
    let (st, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "overdue"})),
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "The order is paid in full; it cannot be overdue"})
        )
    );
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments/refund",
        Some(json!({"sales_order_id": id, "amount": total, "payment_method": "cash"})),
    )
    .await;
    let r = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_status": "refunded"})),
    )
    .await;
    assert_eq!(r["payment_status"], "refunded");
}

/// `GET /admin/customers/{id}/orders` (CONTRACT 5.5): the customer's latest orders, newest
/// first, `grand_total` a number; admins only; 404 for an unknown customer; `limit` bounded.
#[tokio::test]
async fn a_customers_orders_are_listed_newest_first_for_admins() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("10.00"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t).await;
    let mut numbers = Vec::new();
    for qty in 1..=3 {
        let o = order(
            &app,
            &t,
            json!([{"product_id": widget, "quantity": qty}]),
            json!({"customer_id": c}),
        )
        .await;
        numbers.push(o["order_number"].as_str().expect("number").to_string());
    }
    // Another customer's order is not listed.
    order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 9}]),
        json!({}),
    )
    .await;
    let path = format!("/api/v1/admin/customers/{c}/orders");
    let rows = ok(&app, &t, Method::GET, &path, None).await;
    let listed: Vec<&str> = rows
        .as_array()
        .expect("array")
        .iter()
        .map(|r| r["order_number"].as_str().expect("n"))
        .collect();
    numbers.reverse();
    assert_eq!(listed, numbers, "newest first");
    let first = &rows[0];
    assert_eq!(
        first
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect::<std::collections::BTreeSet<_>>(),
        [
            "amount_paid",
            "balance_due",
            "created_at",
            "grand_total",
            "id",
            "order_number",
            "payment_status",
            "status"
        ]
        .into_iter()
        .collect()
    );
    assert!(first["grand_total"].is_number(), "{first}");
    assert_eq!(first["amount_paid"], 0.0, "{first}");
    assert_eq!(first["balance_due"], first["grand_total"], "{first}");
    assert_eq!(first["status"], "pending");
    assert_eq!(first["payment_status"], "pending");
    let two = ok(&app, &t, Method::GET, &format!("{path}?limit=2"), None).await;
    assert_eq!(two.as_array().map(Vec::len), Some(2));
    let (st, _) = refused(&app, &t, Method::GET, &format!("{path}?limit=0"), None).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, body) = refused(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/customers/999999/orders",
        None,
    )
    .await;
    assert_eq!(
        (st, body),
        (
            StatusCode::NOT_FOUND,
            json!({"detail": "Customer not found"})
        )
    );
    let (st, _) = refused(&app, &op, Method::GET, &path, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
}

/// CONTRACT 5.1's dashboard siblings: `stats`, `modules` and `pending-bom-reviews`, and the
/// same blocks in `GET /admin/dashboard/`. A BOM needs review when it has a discontinued
/// component or no cost; the count reaches the SPA's summary card too.
#[tokio::test]
async fn the_dashboard_lists_modules_with_badges_and_the_boms_needing_review() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let s = shop(&app, &t).await;
    // A gadget made of a part about to be discontinued; a trinket of resin nobody priced.
    let part = item("OLD-PART")
        .kind("component")
        .unit("EA")
        .price(None)
        .create(&app, &t)
        .await;
    receive(&app, &t, part, "3", "1.50").await;
    let resin = item("RESIN")
        .kind("material")
        .unit("G")
        .price(None)
        .create(&app, &t)
        .await;
    let gadget = item("GADGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("9.00"))
        .create(&app, &t)
        .await;
    let trinket = item("TRINKET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("4.00"))
        .create(&app, &t)
        .await;
    for (product, component, unit) in [(gadget, part, "EA"), (trinket, resin, "G")] {
        ok(
            &app,
            &t,
            Method::POST,
            "/api/v1/admin/bom/",
            Some(json!({"product_id": product, "lines": [{"component_id": component, "quantity": "2", "unit": unit}]})),
        )
        .await;
    }
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/items/{part}"),
        Some(json!({"active": false})),
    )
    .await;
    order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 1}]),
        json!({}),
    )
    .await;

    let reviews = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/dashboard/pending-bom-reviews",
        None,
    )
    .await;
    let found: Vec<(String, Value)> = reviews
        .as_array()
        .expect("array")
        .iter()
        .map(|r| {
            (
                r["product_sku"].as_str().expect("sku").to_string(),
                r["reasons"].clone(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("TRINKET".to_string(), json!(["no_cost"])),
            ("GADGET".to_string(), json!(["discontinued_component"])),
        ],
        "newest first; the widget's BOM is fine"
    );
    assert_eq!(reviews[1]["total_cost"], "3.00");
    assert_eq!(reviews[1]["line_count"], 1);
    let one = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/dashboard/pending-bom-reviews?limit=1",
        None,
    )
    .await;
    assert_eq!(one.as_array().map(Vec::len), Some(1));

    let stats = ok(&app, &t, Method::GET, "/api/v1/admin/dashboard/stats", None).await;
    assert_eq!(stats["boms_needing_review"], 2);
    assert_eq!(stats["pending_orders"], 1);
    let summary = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/dashboard/summary",
        None,
    )
    .await;
    assert_eq!(summary["boms"]["needs_review"], 2);

    let modules = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/dashboard/modules",
        None,
    )
    .await;
    let by_name = |name: &str| {
        modules
            .as_array()
            .and_then(|m| m.iter().find(|x| x["name"] == name))
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(by_name("Orders")["badge_count"], 1);
    assert_eq!(by_name("Orders")["badge_type"], "info");
    assert_eq!(by_name("Orders")["route"], "/admin/orders");
    assert_eq!(by_name("Bills of materials")["badge_count"], 2);
    assert_eq!(by_name("Bills of materials")["badge_type"], "warning");
    assert_eq!(by_name("Quotes")["badge_count"], Value::Null);
    assert_eq!(by_name("Quotes")["badge_type"], Value::Null);

    let all = ok(&app, &t, Method::GET, "/api/v1/admin/dashboard/", None).await;
    assert_eq!(all["summary"], stats);
    assert_eq!(all["modules"], modules);
    assert_eq!(all["pending_bom_reviews"], reviews);
    assert_eq!(all["recent_orders"].as_array().map(Vec::len), Some(1));
}

/// `GET /items/{id}/demand-summary` (CONTRACT 5.6 "Also"): stock, reservations, open sales
/// and production demand with their unreserved parts, what is being made, the projection.
#[tokio::test]
async fn an_items_demand_summary_weighs_stock_against_open_orders() {
    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.widget, "5", "3").await;
    let a = order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 3}]),
        json!({}),
    )
    .await;
    set_status(&app, &t, a["id"].as_i64().expect("a"), "confirmed").await;
    order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 4}]),
        json!({}),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": s.widget, "quantity_ordered": "2"})),
    )
    .await;
    let d = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/items/{}/demand-summary", s.widget),
        None,
    )
    .await;
    let n = |k: &str| num(&d[k]);
    assert_eq!(d["sku"], "WIDGET");
    assert_eq!(
        (n("on_hand"), n("allocated"), n("available")),
        (5.0, 3.0, 2.0),
        "{d}"
    );
    assert_eq!(
        (n("sales_demand"), n("sales_unreserved")),
        (7.0, 4.0),
        "{d}"
    );
    assert_eq!(n("in_production"), 2.0, "{d}");
    assert_eq!(n("on_order"), 0.0);
    // 2 available + 2 being made - 4 unreserved.
    assert_eq!((n("projected"), n("shortage")), (0.0, 0.0), "{d}");
    // One more unreserved widget is a shortage of one.
    order(
        &app,
        &t,
        json!([{"product_id": s.widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let d = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/items/{}/demand-summary", s.widget),
        None,
    )
    .await;
    assert_eq!(
        (num(&d["projected"]), num(&d["shortage"])),
        (-1.0, 1.0),
        "{d}"
    );
    let res = call(
        &app,
        Method::GET,
        "/api/v1/items/999999/demand-summary",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

/// CONTRACT 6.1's table, written out again here (not read from the code): from -> allowed.
const SALES_ORDER_TABLE: &[(&str, &[&str])] = &[
    ("draft", &["pending", "cancelled"]),
    ("pending", &["confirmed", "on_hold", "cancelled"]),
    ("pending_confirmation", &["confirmed", "cancelled"]),
    (
        "confirmed",
        &["in_production", "ready_to_ship", "on_hold", "cancelled"],
    ),
    ("in_production", &["ready_to_ship", "on_hold", "cancelled"]),
    ("ready_to_ship", &["shipped", "on_hold", "cancelled"]),
    ("shipped", &["delivered", "completed"]),
    ("delivered", &["completed"]),
    (
        "on_hold",
        &[
            "pending",
            "confirmed",
            "in_production",
            "ready_to_ship",
            "cancelled",
        ],
    ),
    ("completed", &[]),
    ("cancelled", &[]),
];

#[tokio::test]
async fn every_illegal_sales_order_transition_is_refused_with_its_message_and_changes_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("10"))
        .create(&app, &t)
        .await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let path = format!("/api/v1/sales-orders/{id}/status");
    let mut refusals = 0;
    for (from, allowed) in SALES_ORDER_TABLE {
        exec(
            &app,
            &format!("UPDATE sales_orders SET status = '{from}' WHERE id = {id}"),
        )
        .await;
        let before = table_json(&app, "sales_orders").await;
        let events = table_json(&app, "sales_order_events").await;
        let list = allowed_list(allowed);
        for (to, _) in SALES_ORDER_TABLE {
            if to == from || allowed.contains(to) {
                continue;
            }
            let (s, body) =
                refused(&app, &t, Method::PATCH, &path, Some(json!({"status": to}))).await;
            assert_eq!(
                (s, body),
                (
                    StatusCode::BAD_REQUEST,
                    json!({"detail": format!("Invalid sales order status transition: '{from}' -> '{to}'. Allowed: {list}")})
                ),
                "{from} -> {to}"
            );
            refusals += 1;
        }
        assert_eq!(
            table_json(&app, "sales_orders").await,
            before,
            "from {from}"
        );
        assert_eq!(
            table_json(&app, "sales_order_events").await,
            events,
            "from {from}"
        );
        // The status-transitions route advertises the same moves.
        let advertised = ok(
            &app,
            &t,
            Method::GET,
            &format!("/api/v1/sales-orders/status-transitions?current_status={from}"),
            None,
        )
        .await;
        assert_eq!(advertised["allowed_transitions"], json!(allowed), "{from}");
        assert_eq!(
            advertised["is_terminal"],
            json!(allowed.is_empty()),
            "{from}"
        );
    }
    // 11 statuses x 11 targets, less same-to-same and the 25 allowed moves.
    assert_eq!(refusals, 11 * 10 - 25);

    // Where a delivered or completed order went is history too.
    for status in ["delivered", "completed"] {
        exec(
            &app,
            &format!("UPDATE sales_orders SET status = '{status}' WHERE id = {id}"),
        )
        .await;
        let (s, body) = refused(
            &app,
            &t,
            Method::PATCH,
            &format!("/api/v1/sales-orders/{id}/address"),
            Some(json!({"shipping_city": "Dallas"})),
        )
        .await;
        assert_eq!(
            (s, body),
            (
                StatusCode::BAD_REQUEST,
                json!({"detail": format!("Cannot change the address of a {status} order")})
            )
        );
    }
}

#[tokio::test]
async fn quote_statuses_convert_only_when_approved_or_accepted_and_a_converted_quote_is_final() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    let q = ok(&app, &t, Method::POST, "/api/v1/quotes/", Some(json!({"product_id": widget, "product_name": "Widget", "quantity": 2, "unit_price": "10"}))).await;
    let id = q["id"].as_i64().expect("id");
    let status_path = format!("/api/v1/quotes/{id}/status");
    let convert_path = format!("/api/v1/quotes/{id}/convert");

    // Every status a person sets may follow any other until the quote is converted; a
    // rejection keeps its reason. Only approved and accepted quotes convert.
    for status in ["approved", "rejected", "cancelled", "pending", "accepted"] {
        let mut body = json!({"status": status});
        if status == "rejected" {
            body["rejection_reason"] = json!("Too expensive");
        }
        let changed = ok(&app, &t, Method::PATCH, &status_path, Some(body)).await;
        assert_eq!(changed["status"], status);
        if status == "rejected" {
            assert_eq!(changed["rejection_reason"], "Too expensive");
        }
        if matches!(status, "rejected" | "cancelled" | "pending") {
            let before = table_json(&app, "sales_orders").await;
            let (s, body) = refused(&app, &t, Method::POST, &convert_path, None).await;
            assert_eq!(
                (s, body),
                (
                    StatusCode::BAD_REQUEST,
                    json!({"detail": format!("Quote must be approved or accepted before converting (status is '{status}')")})
                )
            );
            assert_eq!(table_json(&app, "sales_orders").await, before);
        }
    }
    // `converted` is set by converting only.
    let (s, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &status_path,
        Some(json!({"status": "converted"})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["details"]["errors"][0]["field"], "status", "{body}");

    // An approved quote past its date has expired: it no longer converts (an accepted one
    // was agreed by the customer, so its date no longer matters).
    ok(
        &app,
        &t,
        Method::PATCH,
        &status_path,
        Some(json!({"status": "approved"})),
    )
    .await;
    exec(
        &app,
        &format!("UPDATE quotes SET expires_at = now() - interval '1 day' WHERE id = {id}"),
    )
    .await;
    let (s, body) = refused(&app, &t, Method::POST, &convert_path, None).await;
    assert_eq!(
        (s, body),
        (
            StatusCode::BAD_REQUEST,
            json!({"detail": "Quote has expired"})
        )
    );
    let stats = ok(&app, &t, Method::GET, "/api/v1/quotes/stats", None).await;
    assert_eq!(stats["expired"], 1, "{stats}");
    ok(
        &app,
        &t,
        Method::PATCH,
        &status_path,
        Some(json!({"status": "accepted"})),
    )
    .await;

    // The accepted quote converts, once.
    let done = ok(&app, &t, Method::POST, &convert_path, None).await;
    let number = done["order_number"].as_str().expect("number").to_string();
    assert_eq!(
        done["message"],
        json!(format!("Quote converted to order {number}"))
    );
    let quote = ok(&app, &t, Method::GET, &format!("/api/v1/quotes/{id}"), None).await;
    assert_eq!(quote["status"], "converted");
    assert_eq!(quote["sales_order_id"], done["order_id"]);

    // A converted quote is final: no status change, edit, delete or second conversion.
    let before = (
        table_json(&app, "quotes").await,
        table_json(&app, "sales_orders").await,
    );
    for (method, path, body, detail) in [
        (
            Method::PATCH,
            status_path.clone(),
            Some(json!({"status": "pending"})),
            "Cannot change status of a converted quote".to_string(),
        ),
        (
            Method::PATCH,
            format!("/api/v1/quotes/{id}"),
            Some(json!({"quantity": 3})),
            "Cannot edit a converted quote".to_string(),
        ),
        (
            Method::DELETE,
            format!("/api/v1/quotes/{id}"),
            None,
            "Cannot delete a converted quote".to_string(),
        ),
        (
            Method::POST,
            convert_path.clone(),
            None,
            "Quote must be approved or accepted before converting (status is 'converted')"
                .to_string(),
        ),
    ] {
        let (s, body) = refused(&app, &t, method, &path, body).await;
        assert_eq!(
            (s, body),
            (StatusCode::BAD_REQUEST, json!({ "detail": detail })),
            "{path}"
        );
    }
    assert_eq!(
        (
            table_json(&app, "quotes").await,
            table_json(&app, "sales_orders").await
        ),
        before
    );
}

/// An order for one `widget` placed by `owner` and confirmed by an admin (stock reserved).
async fn confirmed_order(app: &TestApp, owner: &str, admin_token: &str, widget: i64) -> i64 {
    let o = order(
        app,
        owner,
        json!([{"product_id": widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let c = set_status(app, admin_token, id, "confirmed").await;
    assert_eq!(c["status"], "confirmed", "{c}");
    id
}

#[tokio::test]
async fn shipments_by_the_spec_path_post_once_per_key_the_fulfillment_paths_ship_and_operators_see_their_own()
 {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    receive(&app, &t, widget, "10", "2").await;
    let mine = confirmed_order(&app, &op, &t, widget).await;
    let theirs = confirmed_order(&app, &t, &t, widget).await;
    let third = confirmed_order(&app, &t, &t, widget).await;

    // POST /shipments/ twice with one key: one shipment, the same answer.
    let body = json!({"sales_order_id": theirs, "carrier": "UPS", "service": "Ground"});
    let (s1, first) = keyed(
        &app,
        &t,
        Method::POST,
        "/api/v1/shipments/",
        "shp-1",
        body.clone(),
    )
    .await;
    let entries = sql_num(&app, "SELECT count(*) FROM gl_journal_entries").await;
    let (s2, again) = keyed(&app, &t, Method::POST, "/api/v1/shipments/", "shp-1", body).await;
    assert_eq!(s1, StatusCode::CREATED, "{first}");
    assert_eq!(s2, StatusCode::OK, "{again}");
    assert_eq!(first, again);
    assert_eq!(
        sql_num(
            &app,
            &format!("SELECT count(*) FROM shipments WHERE sales_order_id = {theirs}")
        )
        .await,
        1.0
    );
    // The replay posts nothing more.
    assert_eq!(
        sql_num(&app, "SELECT count(*) FROM gl_journal_entries").await,
        entries
    );
    assert_eq!(stock(&app, widget).await.0, 9.0);

    // The original's fulfillment paths ship too (CONTRACT 10): check, then mark shipped.
    let check = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/admin/fulfillment/ship-from-stock/{mine}/check"),
        None,
    )
    .await;
    assert_eq!(check["can_ship"], true, "{check}");
    let shipped = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/admin/fulfillment/ship/{mine}/mark-shipped"),
        Some(json!({"carrier": "FedEx"})),
    )
    .await;
    assert_eq!(shipped["message"], "Order shipped successfully");
    let shipped = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/admin/fulfillment/ship-from-stock/{third}/ship"),
        Some(json!({})),
    )
    .await;
    assert_eq!(shipped["carrier"], "USPS");
    assert_eq!(stock(&app, widget).await.0, 7.0);
    balanced(&app, &t).await;

    // Operators see the shipments of their own orders only; admins see all.
    let all = ok(&app, &t, Method::GET, "/api/v1/shipments/", None).await;
    assert_eq!(all["total"], 3);
    let own = ok(&app, &op, Method::GET, "/api/v1/shipments/", None).await;
    assert_eq!(own["total"], 1, "{own}");
    assert_eq!(own["items"][0]["sales_order_id"], mine);
    let other = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/shipments/?sales_order_id={theirs}"),
        None,
    )
    .await;
    assert_eq!(other["total"], 0, "{other}");
}

/// The abuse run's defects: 1,040.00 was accepted on a 40.00 order (balance -1,000.00), and
/// 8 simultaneous payments of a 30.00 balance all succeeded (250.00 paid on 40.00). A payment
/// never exceeds the open balance (the refusal names it) and payments on one order take
/// turns on the order's row lock: of 8 at once exactly one fits.
#[tokio::test]
async fn payments_never_exceed_the_balance_even_eight_at_once() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("PAY-WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("40.00"))
        .create(&app, &t)
        .await;
    let o = order(
        &app,
        &t,
        json!([{"product_id": widget, "quantity": 1}]),
        json!({}),
    )
    .await;
    let id = o["id"].as_i64().expect("order");
    assert_eq!(o["grand_total"], "40.00", "{o}");
    let pay = |amount: &'static str| json!({"sales_order_id": id, "amount": amount, "payment_method": "cash"});

    let before = (
        table_json(&app, "payments").await,
        table_json(&app, "gl_journal_entries").await,
    );
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(pay("1040.00")),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["detail"],
        "Payment amount (1040.00) exceeds the balance due (40.00)"
    );
    assert_eq!(
        (
            table_json(&app, "payments").await,
            table_json(&app, "gl_journal_entries").await
        ),
        before,
        "a refused payment wrote"
    );

    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(pay("10.00")),
    )
    .await;
    let attempts = (0..8).map(|_| {
        call(
            &app,
            Method::POST,
            "/api/v1/payments",
            Some(pay("30.00")),
            &t,
        )
    });
    let answers = futures_util::future::join_all(attempts).await;
    let accepted = answers
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    let refusals: Vec<String> = answers
        .iter()
        .filter(|r| r.status != StatusCode::CREATED)
        .map(|r| format!("{} {}", r.status, r.text()))
        .collect();
    assert_eq!(accepted, 1, "{refusals:?}");
    assert!(
        refusals
            .iter()
            .all(|r| r.starts_with("400") && r.contains("exceeds the balance due (0.00)")),
        "{refusals:?}"
    );
    let summary = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/payments/order/{id}/summary"),
        None,
    )
    .await;
    assert_eq!(summary["total_paid"], "40.00", "{summary}");
    assert_eq!(summary["balance_due"], "0.00", "{summary}");
    assert_eq!(account(&app, "1000").await, 40.0);
}
