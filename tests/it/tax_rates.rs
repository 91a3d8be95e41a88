//! Tax rates (issue 34): FilaOps's `/tax-rates` routes (a bare array, `rate_percent` in and
//! out, one default, delete deactivates), the resolution every quote and order goes
//! through (exemption > chosen rate > customer's rate > shipping region's rate > default
//! rate > company settings), the rate's name kept on the order and its invoice, and the tax
//! summary by rate. Every refusal leaves the table as it was.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, item, ok, operator, refused, table_json};
use crate::common::books::receive;

fn money(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().expect("decimal"),
        other => other.as_f64().expect("number"),
    }
}

async fn rate(app: &TestApp, t: &str, body: Value) -> Value {
    ok(app, t, Method::POST, "/api/v1/tax-rates", Some(body)).await
}

#[tokio::test]
async fn tax_rates_are_listed_changed_and_deactivated_with_one_default() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let state = rate(
        &app,
        &t,
        json!({"name": "State", "rate_percent": 6.25, "is_default": true}),
    )
    .await;
    assert_eq!(state["rate"], "0.0625");
    assert_eq!(state["rate_percent"], 6.25);
    assert_eq!(state["is_default"], true);
    assert_eq!(state["is_active"], true);
    let texas = rate(&app, &t, json!({"name": "Texas", "rate_percent": "8.25", "region": "TX", "description": "State + local"})).await;
    // A second default takes the default from the first.
    let county = rate(
        &app,
        &t,
        json!({"name": "County", "rate_percent": 7, "is_default": true}),
    )
    .await;
    let list = ok(&app, &op, Method::GET, "/api/v1/tax-rates", None).await;
    let names: Vec<&str> = list
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["County", "State", "Texas"],
        "the default first, then by name"
    );
    assert_eq!(list[1]["is_default"], false);

    // Refusals, each with its message, each leaving the table as it was.
    let before = table_json(&app, "tax_rates").await;
    for (body, status, message) in [
        (
            json!({"name": "state", "rate_percent": 1}),
            StatusCode::BAD_REQUEST,
            "A tax rate named 'state' already exists",
        ),
        (
            json!({"name": "Austin", "rate_percent": 1, "region": "tx"}),
            StatusCode::BAD_REQUEST,
            "Region 'tx' already has the tax rate 'Texas'",
        ),
        (
            json!({"name": "Big", "rate_percent": 101}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Input should be between 0 and 100",
        ),
        (
            json!({"name": "Fine", "rate_percent": "1.00001"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Input should have at most 4 decimal places",
        ),
        (
            json!({"name": "None"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Field required",
        ),
        (
            json!({"name": "  ", "rate_percent": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
    ] {
        let (s, b) = refused(
            &app,
            &t,
            Method::POST,
            "/api/v1/tax-rates",
            Some(body.clone()),
        )
        .await;
        assert_eq!(s, status, "{body}: {b}");
        assert!(b.to_string().contains(message), "{body}: {b}");
    }
    let id = texas["id"].as_i64().expect("id");
    let (s, b) = refused(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/tax-rates/{id}"),
        Some(json!({"name": "COUNTY"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let (s, b) = refused(&app, &t, Method::GET, "/api/v1/tax-rates/999999", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(b["detail"], "Tax rate not found");
    let (s, _) = refused(
        &app,
        &op,
        Method::POST,
        "/api/v1/tax-rates",
        Some(json!({"name": "Op", "rate_percent": 1})),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = refused(
        &app,
        &op,
        Method::DELETE,
        &format!("/api/v1/tax-rates/{id}"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(table_json(&app, "tax_rates").await, before);

    let changed = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/tax-rates/{id}"),
        Some(json!({"rate_percent": 8.5})),
    )
    .await;
    assert_eq!(changed["rate"], "0.085");
    assert_eq!(changed["name"], "Texas", "an omitted field keeps its value");
    // Delete deactivates (204), drops the default, and keeps the row for the documents.
    let county_id = county["id"].as_i64().expect("id");
    assert_eq!(
        ok(
            &app,
            &t,
            Method::DELETE,
            &format!("/api/v1/tax-rates/{county_id}"),
            None
        )
        .await,
        Value::Null
    );
    let active = ok(&app, &t, Method::GET, "/api/v1/tax-rates", None).await;
    assert_eq!(active.as_array().map(Vec::len), Some(2));
    let all = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/tax-rates?include_inactive=true",
        None,
    )
    .await;
    let gone = all
        .as_array()
        .expect("array")
        .iter()
        .find(|r| r["id"] == county["id"])
        .expect("kept")
        .clone();
    assert_eq!(
        (gone["is_active"].clone(), gone["is_default"].clone()),
        (json!(false), json!(false))
    );
    // Its name is free again.
    rate(&app, &t, json!({"name": "County", "rate_percent": 7})).await;
    let one = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/tax-rates/{}", state["id"]),
        None,
    )
    .await;
    assert_eq!(one["name"], "State");
}

/// An order of one 100.00 widget for `customer`, shipped to `state`: its tax amount and the
/// name of the rate it charged.
async fn order_tax(
    app: &TestApp,
    t: &str,
    widget: i64,
    customer: Option<i64>,
    state: Option<&str>,
    chosen: Option<i64>,
) -> (f64, Value, i64) {
    let mut body = json!({"lines": [{"product_id": widget, "quantity": 1}]});
    if let Some(c) = customer {
        body["customer_id"] = json!(c);
    }
    if let Some(s) = state {
        body["shipping_address_line1"] = json!("1 Main St");
        body["shipping_state"] = json!(s);
    }
    if let Some(r) = chosen {
        body["tax_rate_id"] = json!(r);
    }
    let o = ok(app, t, Method::POST, "/api/v1/sales-orders/", Some(body)).await;
    (
        money(&o["tax_amount"]),
        o["tax_rate_name"].clone(),
        o["id"].as_i64().expect("id"),
    )
}

#[tokio::test]
async fn orders_and_quotes_charge_the_rate_the_resolution_order_picks() {
    let app = app().await;
    let t = admin(&app).await;
    ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"tax_enabled": true, "tax_rate_percent": "5", "tax_name": "GST"})),
    )
    .await;
    let widget = item("W")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("100.00"))
        .create(&app, &t)
        .await;
    receive(&app, &t, widget, "10", "40.00").await;

    // No named rate yet: the company settings' rate, under its tax name.
    let (tax, name, _) = order_tax(&app, &t, widget, None, Some("OR"), None).await;
    assert_eq!((tax, name), (5.0, json!("GST")));

    let default = rate(
        &app,
        &t,
        json!({"name": "Default", "rate_percent": 6, "is_default": true}),
    )
    .await;
    let texas = rate(
        &app,
        &t,
        json!({"name": "Texas", "rate_percent": "8.25", "region": "TX"}),
    )
    .await;
    let wholesale = rate(&app, &t, json!({"name": "Wholesale", "rate_percent": 2})).await;
    let (tax, name, _) = order_tax(&app, &t, widget, None, Some("OR"), None).await;
    assert_eq!((tax, name), (6.0, json!("Default")), "the default rate");
    let (tax, name, texan) = order_tax(&app, &t, widget, None, Some("tx"), None).await;
    assert_eq!(
        (tax, name),
        (8.25, json!("Texas")),
        "the shipping region's rate, ignoring case"
    );

    // A customer in Texas (the order takes its address), first plain, then with its own
    // rate, then exempt.
    let c = ok(&app, &t, Method::POST, "/api/v1/admin/customers/", Some(json!({"email": "tx@shop.test", "first_name": "T", "last_name": "X", "shipping_address_line1": "2 Elm", "shipping_state": "TX"}))).await;
    let cid = c["id"].as_i64().expect("id");
    assert_eq!(c["tax_exempt"], false);
    let (tax, name, _) = order_tax(&app, &t, widget, Some(cid), None, None).await;
    assert_eq!(
        (tax, name),
        (8.25, json!("Texas")),
        "the customer's shipping state"
    );
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{cid}"),
        Some(json!({"tax_rate_id": wholesale["id"]})),
    )
    .await;
    let (tax, name, _) = order_tax(&app, &t, widget, Some(cid), None, None).await;
    assert_eq!(
        (tax, name),
        (2.0, json!("Wholesale")),
        "the customer's rate beats the region's"
    );
    // A rate chosen for the order beats the customer's.
    let (tax, name, _) = order_tax(&app, &t, widget, Some(cid), None, default["id"].as_i64()).await;
    assert_eq!((tax, name), (6.0, json!("Default")));
    let c = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{cid}"),
        Some(json!({"tax_exempt": true, "tax_exempt_certificate": "EX-123"})),
    )
    .await;
    assert_eq!(c["tax_exempt_certificate"], "EX-123");
    let (tax, name, _) = order_tax(&app, &t, widget, Some(cid), None, default["id"].as_i64()).await;
    assert_eq!(
        (tax, name),
        (0.0, json!("Tax exempt (EX-123)")),
        "the exemption beats everything"
    );

    // A quote resolves the same way; apply_tax=false charges none.
    let q = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/quotes/",
        Some(json!({"product_name": "Bracket", "unit_price": "100", "customer_id": cid})),
    )
    .await;
    assert_eq!(
        (money(&q["tax_amount"]), q["tax_rate_name"].clone()),
        (0.0, json!("Tax exempt (EX-123)"))
    );
    let q = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/quotes/",
        Some(json!({"product_name": "Bracket", "unit_price": "100", "tax_rate_id": texas["id"]})),
    )
    .await;
    assert_eq!(
        (money(&q["tax_amount"]), q["tax_rate_id"].clone()),
        (8.25, texas["id"].clone())
    );
    let q = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/quotes/",
        Some(json!({"product_name": "Bracket", "unit_price": "100", "apply_tax": false})),
    )
    .await;
    assert_eq!(money(&q["tax_amount"]), 0.0);

    // Refusals: an unknown or inactive rate on an order or a customer, nothing written.
    let orders = table_json(&app, "sales_orders").await;
    let customers = table_json(&app, "customers").await;
    let (s, b) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 1}], "tax_rate_id": 999999})),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{b}");
    assert_eq!(b["detail"], "Tax rate not found");
    ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/tax-rates/{}", wholesale["id"]),
        None,
    )
    .await;
    let (s, b) = refused(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{cid}"),
        Some(json!({"tax_rate_id": wholesale["id"]})),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{b}");
    assert!(b.to_string().contains("not found"), "{b}");
    assert_eq!(table_json(&app, "sales_orders").await, orders);
    assert_eq!(table_json(&app, "customers").await, customers);

    // The Texan order ships: its invoice keeps the rate's name, and the tax summary lists
    // the window's invoices by rate.
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{texan}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/sales-orders/{texan}/ship"),
        Some(json!({})),
    )
    .await;
    let invoices = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/invoices?sales_order_id={texan}"),
        None,
    )
    .await;
    let invoice = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/invoices/{}", invoices[0]["id"]),
        None,
    )
    .await;
    assert_eq!(invoice["tax_rate_name"], "Texas", "{invoice}");
    let summary = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/tax-summary",
        None,
    )
    .await;
    let by_rate = summary["by_rate"].as_array().expect("by_rate");
    assert_eq!(by_rate.len(), 1, "{summary}");
    assert_eq!(by_rate[0]["name"], "Texas");
    assert_eq!(by_rate[0]["rate_percent"], 8.25);
    assert_eq!(by_rate[0]["invoice_count"], 1);
    assert_eq!(money(&by_rate[0]["tax"]), 8.25);
    assert_eq!(money(&by_rate[0]["sales"]), 100.0);

    // What an order for the customer would charge, asked before writing one.
    let r = crate::common::api::gql(&app, &t, "query($c: Int) { taxResolution(customerId: $c, region: \"TX\") { ratePercent name source } }", json!({"c": cid})).await;
    assert_eq!(r["data"]["taxResolution"]["source"], "exempt", "{r}");
}
