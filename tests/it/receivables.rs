//! Receivables (issue 34): customers' payment terms and credit limits, what each customer
//! has paid and still owes (FilaOps's customer fields), and the credit limit checked when an
//! order is confirmed: refused with the numbers, confirmed with an admin's reason (kept in
//! the order's history and the security audit log), one at a time per customer.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, item, ok, refused, table_json};

async fn customer(app: &TestApp, t: &str, email: &str, extra: Value) -> Value {
    let mut body = json!({"email": email, "first_name": "Bea", "last_name": "Buyer", "company_name": "Buyer Co"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    ok(app, t, Method::POST, "/api/v1/admin/customers/", Some(body)).await
}

/// An order of `units` widgets at 10.00 for a customer: its id and grand total.
async fn order(app: &TestApp, t: &str, widget: i64, customer: i64, units: i64) -> (i64, f64) {
    let o = ok(
        app,
        t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(
            json!({"lines": [{"product_id": widget, "quantity": units}], "customer_id": customer,
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}),
        ),
    )
    .await;
    let total = o["grand_total"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("grand total");
    (o["id"].as_i64().expect("id"), total)
}

fn money(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().expect("decimal"),
        other => other.as_f64().expect("number"),
    }
}

async fn confirm(app: &TestApp, t: &str, id: i64, reason: Option<&str>) -> (StatusCode, Value) {
    let mut body = json!({"status": "confirmed"});
    if let Some(r) = reason {
        body["credit_override_reason"] = json!(r);
    }
    refused(
        app,
        t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn net_terms_need_an_admins_approval_which_is_stamped() {
    let app = app().await;
    let t = admin(&app).await;
    let before = table_json(&app, "customers").await;
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "n@shop.test", "first_name": "N", "last_name": "T", "payment_terms": "net30"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body.to_string()
            .contains("Payment terms 'net30' require approved_for_terms=true"),
        "{body}"
    );
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "n@shop.test", "first_name": "N", "last_name": "T", "credit_limit": "-1"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(table_json(&app, "customers").await, before);

    // A new customer pays cash on delivery, with no limit and no approval.
    let plain = customer(&app, &t, "plain@shop.test", json!({})).await;
    assert_eq!(
        (
            &plain["payment_terms"],
            &plain["credit_limit"],
            &plain["approved_for_terms"]
        ),
        (&json!("cod"), &Value::Null, &json!(false)),
        "{plain}"
    );
    assert!(plain["approved_for_terms_at"].is_null(), "{plain}");

    // Approved with net terms: who and when are kept.
    let me = ok(&app, &t, Method::GET, "/api/v1/auth/me", None).await;
    let c = customer(
        &app,
        &t,
        "net@shop.test",
        json!({"payment_terms": "net30", "approved_for_terms": true, "credit_limit": "500"}),
    )
    .await;
    assert_eq!(c["payment_terms"], "net30", "{c}");
    assert_eq!(c["credit_limit"], "500.00", "{c}");
    assert_eq!(c["approved_for_terms_by"], me["id"], "{c}");
    assert!(c["approved_for_terms_at"].is_string(), "{c}");
    let id = c["id"].as_i64().expect("id");
    let path = format!("/api/v1/admin/customers/{id}");
    let c = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_terms": "net60"})),
    )
    .await;
    assert_eq!(c["payment_terms"], "net60", "{c}");

    // Withdrawing the approval while the terms are net is refused, and changes nothing.
    let before = table_json(&app, "customers").await;
    let (status, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"approved_for_terms": false})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body.to_string()
            .contains("Payment terms 'net60' require approved_for_terms=true"),
        "{body}"
    );
    assert_eq!(table_json(&app, "customers").await, before);
    // Back to cash first, then the approval goes, and its stamp with it.
    let c = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"payment_terms": "cod", "approved_for_terms": false, "credit_limit": null})),
    )
    .await;
    assert_eq!(
        (
            &c["approved_for_terms"],
            &c["approved_for_terms_at"],
            &c["credit_limit"]
        ),
        (&json!(false), &Value::Null, &Value::Null),
        "{c}"
    );
}

#[tokio::test]
async fn customers_show_what_they_paid_and_still_owe() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("W")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("10.00"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t, "owes@shop.test", json!({})).await;
    let cid = c["id"].as_i64().expect("id");
    let (first, first_total) = order(&app, &t, widget, cid, 4).await;
    let (second, second_total) = order(&app, &t, widget, cid, 2).await;
    let (cancelled, _) = order(&app, &t, widget, cid, 9).await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{cancelled}/cancel"),
        Some(json!({"cancellation_reason": "changed mind"})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": first, "amount": "15.00", "payment_method": "cash"})),
    )
    .await;

    let detail = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/customers/{cid}"),
        None,
    )
    .await;
    assert_eq!(money(&detail["total_paid"]), 15.0, "{detail}");
    assert_eq!(
        money(&detail["outstanding_balance"]),
        first_total - 15.0 + second_total,
        "{detail}"
    );
    let list = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/customers?limit=200",
        None,
    )
    .await;
    let row = list
        .as_array()
        .expect("list")
        .iter()
        .find(|r| r["id"] == cid)
        .expect("listed");
    assert_eq!(
        row["outstanding_balance"], detail["outstanding_balance"],
        "{row}"
    );
    assert_eq!(row["payment_terms"], "cod", "{row}");

    let orders = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/customers/{cid}/orders?limit=10"),
        None,
    )
    .await;
    let by_id = |id: i64| {
        orders
            .as_array()
            .expect("orders")
            .iter()
            .find(|o| o["id"] == id)
            .cloned()
            .expect("order")
    };
    assert_eq!(
        (
            money(&by_id(first)["amount_paid"]),
            money(&by_id(first)["balance_due"])
        ),
        (15.0, first_total - 15.0)
    );
    assert_eq!(money(&by_id(second)["balance_due"]), second_total);
    assert_eq!(money(&by_id(cancelled)["balance_due"]), 0.0);
}

#[tokio::test]
async fn confirming_over_the_credit_limit_is_refused_with_the_numbers_unless_an_admin_gives_a_reason()
 {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("W")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("10.00"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t, "limit@shop.test", json!({"credit_limit": "50"})).await;
    let cid = c["id"].as_i64().expect("id");
    let (first, first_total) = order(&app, &t, widget, cid, 4).await;
    let (status, body) = confirm(&app, &t, first, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let (second, second_total) = order(&app, &t, widget, cid, 2).await;
    assert!(first_total + second_total > 50.0);
    let tables = [
        "sales_orders",
        "sales_order_events",
        "inventory_transactions",
        "production_orders",
        "security_audit_log",
    ];
    let mut before = Vec::new();
    for table in tables {
        before.push(table_json(&app, table).await);
    }
    let (status, body) = confirm(&app, &t, second, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let expected = format!(
        "would take Buyer Co over its credit limit: {:.2} owed after confirming ({:.2} on other open orders, {:.2} on this one), credit limit 50.00",
        first_total + second_total,
        first_total,
        second_total
    );
    assert!(
        body.to_string().contains(&expected),
        "{body}\nexpected: {expected}"
    );
    for (table, was) in tables.iter().zip(&before) {
        assert_eq!(&table_json(&app, table).await, was, "{table} changed");
    }

    // A blank reason is no reason; a real one confirms, and is kept.
    let (status, _) = confirm(&app, &t, second, Some("  ")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, body) = confirm(&app, &t, second, Some("Paying by wire on Friday")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "confirmed", "{body}");
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{second}/events"),
        None,
    )
    .await;
    assert!(
        events.to_string().contains("Credit limit overridden")
            && events.to_string().contains("Paying by wire on Friday"),
        "{events}"
    );
    let audit = table_json(&app, "security_audit_log").await;
    assert!(
        audit.contains("credit_limit_override") && audit.contains("Paying by wire on Friday"),
        "{audit}"
    );

    // Paying the first order down makes room: a third order within the limit confirms.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": first, "amount": format!("{first_total:.2}"), "payment_method": "cash"})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": second, "amount": format!("{second_total:.2}"), "payment_method": "cash"})),
    )
    .await;
    let (third, _) = order(&app, &t, widget, cid, 4).await;
    let (status, body) = confirm(&app, &t, third, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// Two orders that each fit the limit but not together, confirmed at the same moment: the
/// customer's row is locked while checking, so exactly one is confirmed.
#[tokio::test]
async fn two_confirmations_racing_for_one_credit_limit_let_only_one_through() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("W")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("10.00"))
        .create(&app, &t)
        .await;
    let c = customer(&app, &t, "race@shop.test", json!({})).await;
    let cid = c["id"].as_i64().expect("id");
    let (a, total) = order(&app, &t, widget, cid, 3).await;
    let (b, _) = order(&app, &t, widget, cid, 3).await;
    let limit = format!("{:.2}", total * 1.5);
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{cid}"),
        Some(json!({"credit_limit": limit})),
    )
    .await;
    let ((sa, _), (sb, _)) = tokio::join!(confirm(&app, &t, a, None), confirm(&app, &t, b, None));
    let statuses = [sa, sb];
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::BAD_REQUEST)
            .count(),
        1,
        "{statuses:?}"
    );
}
