//! Amending an order after it was entered (issue 34): a line's quantity or price changed,
//! a line removed. Reservations, totals, payment status and the order's history follow in
//! one transaction; each refusal (status, shipped, production, the last line, what is
//! invoiced, bad input) has its message and leaves the tables as they were.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, item, ok, refused, table_json};
use crate::common::books::{balanced, receive, stock};

fn money(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().expect("decimal"),
        other => other.as_f64().expect("number"),
    }
}

async fn snapshot(app: &TestApp) -> Vec<String> {
    let mut out = Vec::new();
    for table in [
        "sales_orders",
        "sales_order_lines",
        "sales_order_events",
        "inventory_transactions",
        "inventory_balances",
        "invoices",
        "gl_journal_entries",
    ] {
        out.push(table_json(app, table).await);
    }
    out
}

/// A bought item at `price` with `stock` on hand.
async fn bought(app: &TestApp, t: &str, sku: &str, price: &str, stock: &str) -> i64 {
    let id = item(sku)
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some(price))
        .create(app, t)
        .await;
    receive(app, t, id, stock, "2.00").await;
    id
}

async fn edit(app: &TestApp, t: &str, order: i64, lines: Value) -> (StatusCode, Value) {
    refused(
        app,
        t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{order}/lines"),
        Some(json!({"lines": lines})),
    )
    .await
}

#[tokio::test]
async fn lines_change_and_go_with_their_reservations_totals_and_history() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = bought(&app, &t, "W", "10.00", "20").await;
    let gadget = bought(&app, &t, "G", "4.00", "10").await;
    let o = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 3}, {"product_id": gadget, "quantity": 2}],
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let (l1, l2) = (
        o["lines"][0]["id"].as_i64().expect("l1"),
        o["lines"][1]["id"].as_i64().expect("l2"),
    );
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    assert_eq!(stock(&app, widget).await, (20.0, 3.0));

    // Refusals first: nothing changes.
    let before = snapshot(&app).await;
    for (lines, status, message) in [
        (
            json!([{"line_id": l1, "new_quantity": 5, "reason": "  "}]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Give a reason for the change",
        ),
        (
            json!([{"line_id": l1, "new_quantity": 0, "reason": "x"}]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "remove the line instead",
        ),
        (
            json!([{"line_id": l1, "new_unit_price": "-1", "reason": "x"}]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Unit price must be 0 or more",
        ),
        (
            json!([{"line_id": 999999, "new_quantity": 2, "reason": "x"}]),
            StatusCode::NOT_FOUND,
            "Line 999999 not found on order SO-",
        ),
        (
            json!([]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Give at least one line to change",
        ),
    ] {
        let (s, body) = edit(&app, &t, id, lines.clone()).await;
        assert_eq!(s, status, "{lines}: {body}");
        assert!(body.to_string().contains(message), "{lines}: {body}");
    }
    assert_eq!(snapshot(&app).await, before);

    // More widgets: reserved, totals up, in the history.
    let o = {
        let (s, body) = edit(
            &app,
            &t,
            id,
            json!([{"line_id": l1, "new_quantity": 5, "reason": "customer wants two more"}]),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{body}");
        body
    };
    assert_eq!(money(&o["subtotal"]), 58.0, "{o}");
    assert_eq!(money(&o["grand_total"]), 58.0);
    assert_eq!(stock(&app, widget).await, (20.0, 5.0));
    // Fewer and cheaper: the reservation given back down to the new quantity.
    let (s, o) = edit(
        &app,
        &t,
        id,
        json!([{"line_id": l1, "new_quantity": 1, "new_unit_price": "9.50", "reason": "colour discontinued"}]),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{o}");
    assert_eq!(money(&o["subtotal"]), 17.5, "{o}");
    assert_eq!(stock(&app, widget).await, (20.0, 1.0));
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await
    .to_string();
    assert!(events.contains("W item line changed"), "{events}");
    assert!(
        events.contains("quantity 5 -> 1; unit price 10.00 -> 9.50. Reason: colour discontinued"),
        "{events}"
    );

    // Remove the gadgets; the last line stays.
    let o = ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{id}/lines/{l2}"),
        None,
    )
    .await;
    assert_eq!(o["lines"].as_array().expect("lines").len(), 1, "{o}");
    assert_eq!(money(&o["grand_total"]), 9.5);
    assert_eq!(stock(&app, gadget).await, (10.0, 0.0));
    let before = snapshot(&app).await;
    let (s, body) = refused(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{id}/lines/{l1}"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.to_string()
            .contains("Cannot remove the last line from an order. Cancel the order instead."),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);

    // A deposit invoiced: the total may not fall below it.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/invoices",
        Some(json!({"sales_order_id": id, "amount": "9.00"})),
    )
    .await;
    let before = snapshot(&app).await;
    let (s, body) = edit(
        &app,
        &t,
        id,
        json!([{"line_id": l1, "new_unit_price": "5.00", "reason": "goodwill"}]),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.to_string().contains("below the 9.00 already invoiced"),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);

    // Once shipped, lines are what went out.
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    let (s, body) = edit(
        &app,
        &t,
        id,
        json!([{"line_id": l1, "new_quantity": 2, "reason": "late"}]),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.to_string().contains(
            "Cannot edit lines on order with status 'shipped'. Allowed statuses: confirmed, in_production, on_hold, pending"
        ),
        "{body}"
    );
    balanced(&app, &t).await;
}

#[tokio::test]
async fn a_line_production_is_making_cannot_be_removed() {
    let app = app().await;
    let t = admin(&app).await;
    let printed = item("FG").price(Some("25.00")).create(&app, &t).await;
    let spare = bought(&app, &t, "S", "3.00", "5").await;
    let o = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": printed, "quantity": 2}, {"product_id": spare, "quantity": 1}],
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    let l1 = o["lines"][0]["id"].as_i64().expect("l1");
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    let before = snapshot(&app).await;
    let (s, body) = refused(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/sales-orders/{id}/lines/{l1}"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{body}");
    assert!(
        body.to_string().contains(&format!(
            "Cannot remove line {l1}: production order(s) exist: WO-"
        )),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);
    // Operators may not amend.
    let op = crate::common::api::operator(&app, &t).await;
    let (s, _) = edit(
        &app,
        &op,
        id,
        json!([{"line_id": l1, "new_quantity": 3, "reason": "x"}]),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn closing_short_previews_then_ships_what_is_there_and_cancels_the_rest() {
    let app = app().await;
    let t = admin(&app).await;
    // 2 printed parts in stock of the 5 ordered; production is ordered for the 3 short.
    let printed = item("FG").price(Some("20.00")).create(&app, &t).await;
    receive(&app, &t, printed, "2", "6.00").await;
    let spare = bought(&app, &t, "S", "3.00", "5").await;
    let o = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": printed, "quantity": 5}, {"product_id": spare, "quantity": 1}],
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    // Pending: refused, with the allowed statuses.
    let before = snapshot(&app).await;
    let (s, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/close-short"),
        Some(json!({"reason": "colour discontinued"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.to_string()
            .contains("Cannot close short an order with status 'pending'"),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;

    let preview = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/close-short-preview"),
        None,
    )
    .await;
    assert_eq!(preview["can_close"], true, "{preview}");
    assert_eq!(preview["lines"][0]["achievable_qty"], "2", "{preview}");
    assert_eq!(preview["lines"][0]["will_adjust"], true);
    assert_eq!(preview["lines"][1]["will_adjust"], false);
    assert_eq!(preview["all_pos_resolved"], false);
    let po = preview["unresolved_pos"][0]
        .as_str()
        .expect("po")
        .to_string();
    assert!(po.starts_with("WO-"), "{preview}");
    assert_eq!(preview["production_orders"][0]["action"], "cancel");
    assert_eq!(money(&preview["new_grand_total"]), 43.0, "{preview}");
    // The preview changed nothing.
    let before = snapshot(&app).await;
    let (s, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/close-short"),
        Some(json!({"reason": " "})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(snapshot(&app).await, before);

    let closed = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/close-short"),
        Some(json!({"reason": "colour discontinued"})),
    )
    .await;
    assert_eq!(closed["status"], "ready_to_ship", "{closed}");
    assert_eq!(closed["lines"][0]["quantity"], 2, "{closed}");
    assert_eq!(money(&closed["grand_total"]), 43.0);
    assert_eq!(stock(&app, printed).await, (2.0, 2.0));
    let wo = crate::common::books::sql(
        &app,
        &format!("SELECT status FROM production_orders WHERE code = '{po}'"),
    )
    .await;
    assert!(wo.contains("cancelled"), "{wo}");
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await
    .to_string();
    assert!(
        events.contains("Closed Short") && events.contains(&po),
        "{events}"
    );
    // It ships what was kept.
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    balanced(&app, &t).await;
}

#[tokio::test]
async fn a_line_added_later_is_priced_reserved_totalled_and_in_the_history() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = bought(&app, &t, "AW", "10.00", "20").await;
    let gadget = bought(&app, &t, "AG", "4.00", "10").await;
    let old = item("OLD").price(Some("3.00")).create(&app, &t).await;
    let unpriced = item("NOPRICE").create(&app, &t).await;
    let o = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 2}],
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/items/{old}"),
        None,
    )
    .await;
    let path = format!("/api/v1/sales-orders/{id}/lines");

    // Refusals, each with its message, each leaving the tables as they were.
    let before = snapshot(&app).await;
    for (body, status, message) in [
        (
            json!({"product_id": gadget, "quantity": 1, "reason": " "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Give a reason for the change",
        ),
        (
            json!({"product_id": gadget, "quantity": 0, "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Quantity must be between 1 and 10000",
        ),
        (
            json!({"product_id": gadget, "quantity": 1, "unit_price": "-2", "reason": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Unit price must be 0 or more",
        ),
        (
            json!({"product_id": 999_999, "quantity": 1, "reason": "x"}),
            StatusCode::NOT_FOUND,
            "Product ID 999999 not found",
        ),
        (
            json!({"product_id": old, "quantity": 1, "reason": "x"}),
            StatusCode::BAD_REQUEST,
            "is discontinued and cannot be ordered",
        ),
        (
            json!({"product_id": unpriced, "quantity": 1, "reason": "x"}),
            StatusCode::BAD_REQUEST,
            "has no selling price configured",
        ),
    ] {
        let (got, answer) = refused(&app, &t, Method::POST, &path, Some(body.clone())).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer.to_string().contains(message), "{body}: {answer}");
        assert_eq!(snapshot(&app).await, before, "{body}");
    }

    // Added: line 2 at the list price, stock reserved at once (the order is confirmed).
    let added = ok(
        &app,
        &t,
        Method::POST,
        &path,
        Some(json!({"product_id": gadget, "quantity": 3, "reason": "Customer called to add gadgets"})),
    )
    .await;
    let lines = added["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 2, "{added}");
    assert_eq!(lines[1]["line_number"], 2);
    assert_eq!(money(&lines[1]["unit_price"]), 4.0);
    assert_eq!(money(&added["subtotal"]), 32.0, "2 x 10.00 + 3 x 4.00");
    assert_eq!(stock(&app, gadget).await, (10.0, 3.0));
    // A price given by hand wins over the list price.
    let again = ok(
        &app,
        &t,
        Method::POST,
        &path,
        Some(
            json!({"product_id": gadget, "quantity": 1, "unit_price": "2.50", "reason": "Sample"}),
        ),
    )
    .await;
    assert_eq!(money(&again["lines"][2]["unit_price"]), 2.5);
    assert_eq!(money(&again["subtotal"]), 34.5);
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await;
    assert!(
        events.to_string().contains("line added")
            && events
                .to_string()
                .contains("Customer called to add gadgets"),
        "{events}"
    );
    balanced(&app, &t).await;

    // Once shipped, no more lines.
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
    let before = snapshot(&app).await;
    let (status, answer) = refused(
        &app,
        &t,
        Method::POST,
        &path,
        Some(json!({"product_id": gadget, "quantity": 1, "reason": "late"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        answer
            .to_string()
            .contains("Cannot add lines on order with status 'shipped'"),
        "{answer}"
    );
    assert_eq!(snapshot(&app).await, before);
}
