//! Pricing (issue 34): FilaOps's `/price-levels` (a bare array by name, 400 on a duplicate
//! name, delete deactivates and answers the level), a level's own item prices, the
//! customer's level applied when an order is created (the line keeps the list price and
//! the level's name), and price suggestions from cost at a target margin applied to the
//! chosen items. Every refusal leaves the tables as they were.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::api::{admin, app, item, ok, operator, refused, table_json};
use crate::common::books::receive;

fn money(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().expect("decimal"),
        other => other.as_f64().expect("number"),
    }
}

#[tokio::test]
async fn price_levels_are_kept_by_name_and_price_their_customers_orders() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let wholesale = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/price-levels",
        Some(json!({"name": "Wholesale", "discount_percent": 15, "description": "Resellers"})),
    )
    .await;
    assert_eq!(wholesale["discount_percent"], "15.00");
    assert_eq!(wholesale["is_active"], true);
    let distributor = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/price-levels",
        Some(json!({"name": "Distributor", "discount_percent": "25.5"})),
    )
    .await;
    let list = ok(&app, &op, Method::GET, "/api/v1/price-levels", None).await;
    let names: Vec<&str> = list
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|l| l["name"].as_str())
        .collect();
    assert_eq!(names, ["Distributor", "Wholesale"]);

    // Refusals, each with its message, nothing written.
    let before = table_json(&app, "price_levels").await;
    for (body, status, message) in [
        (
            json!({"name": "wholesale", "discount_percent": 5}),
            StatusCode::BAD_REQUEST,
            "Price level 'wholesale' already exists",
        ),
        (
            json!({"name": "Big", "discount_percent": 101}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Input should be between 0 and 100",
        ),
        (
            json!({"name": "Fine", "discount_percent": "1.001"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Input should have at most 2 decimal places",
        ),
        (
            json!({"name": " ", "discount_percent": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
    ] {
        let (s, b) = refused(
            &app,
            &t,
            Method::POST,
            "/api/v1/price-levels",
            Some(body.clone()),
        )
        .await;
        assert_eq!(s, status, "{body}: {b}");
        assert!(b.to_string().contains(message), "{body}: {b}");
    }
    let (s, _) = refused(
        &app,
        &op,
        Method::POST,
        "/api/v1/price-levels",
        Some(json!({"name": "Op"})),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, b) = refused(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/price-levels/999999",
        Some(json!({"name": "X"})),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(b["detail"], "Price level not found");
    assert_eq!(table_json(&app, "price_levels").await, before);

    // Items: A sells at 10.00, B at 20.00 with the wholesale level's own price of 12.00.
    let a = item("A")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("10.00"))
        .create(&app, &t)
        .await;
    let b = item("B")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("20.00"))
        .create(&app, &t)
        .await;
    receive(&app, &t, a, "10", "4.00").await;
    receive(&app, &t, b, "10", "8.00").await;
    let wid = wholesale["id"].as_i64().expect("id");
    ok(
        &app,
        &t,
        Method::PUT,
        &format!("/api/v1/price-levels/{wid}/items/{b}"),
        Some(json!({"unit_price": "12"})),
    )
    .await;
    let prices = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/price-levels/{wid}/items"),
        None,
    )
    .await;
    assert_eq!(prices[0]["sku"], "B", "{prices}");
    assert_eq!(money(&prices[0]["unit_price"]), 12.0);
    let items_path = format!("/api/v1/price-levels/{wid}/items");
    let (s, b2) = refused(
        &app,
        &t,
        Method::PUT,
        &format!("/api/v1/price-levels/{wid}/items/{b}"),
        Some(json!({"unit_price": "-1"})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{b2}");
    let (s, _) = refused(
        &app,
        &t,
        Method::PUT,
        &format!("/api/v1/price-levels/{wid}/items/999999"),
        Some(json!({"unit_price": "1"})),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(ok(&app, &t, Method::GET, &items_path, None).await, prices);

    // A wholesale customer's order: A at 15 % off, B at the level's own price; the lines
    // show the list price and the level.
    let c = ok(&app, &t, Method::POST, "/api/v1/admin/customers/", Some(json!({"email": "w@shop.test", "first_name": "W", "last_name": "S", "price_level_id": wid}))).await;
    assert_eq!(c["price_level_id"], wid);
    let cid = c["id"].as_i64().expect("id");
    let o = ok(&app, &t, Method::POST, "/api/v1/sales-orders/", Some(json!({"customer_id": cid, "lines": [{"product_id": a, "quantity": 2}, {"product_id": b, "quantity": 1}]}))).await;
    let lines = o["lines"].as_array().expect("lines");
    assert_eq!(
        (
            money(&lines[0]["unit_price"]),
            money(&lines[0]["list_price"])
        ),
        (8.5, 10.0),
        "{o}"
    );
    assert_eq!(lines[0]["price_level_name"], "Wholesale");
    assert_eq!(
        (
            money(&lines[1]["unit_price"]),
            money(&lines[1]["list_price"])
        ),
        (12.0, 20.0)
    );
    assert_eq!(money(&o["subtotal"]), 29.0);
    // Without a level, list prices and no level on the line.
    let plain = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": a, "quantity": 1}]})),
    )
    .await;
    assert_eq!(money(&plain["lines"][0]["unit_price"]), 10.0);
    assert_eq!(plain["lines"][0]["list_price"], Value::Null);
    // Removing the own price brings the discount back; deactivating the level stops it.
    assert_eq!(
        ok(
            &app,
            &t,
            Method::DELETE,
            &format!("/api/v1/price-levels/{wid}/items/{b}"),
            None
        )
        .await,
        Value::Null
    );
    let o = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"customer_id": cid, "lines": [{"product_id": b, "quantity": 1}]})),
    )
    .await;
    assert_eq!(money(&o["lines"][0]["unit_price"]), 17.0);
    let gone = ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/price-levels/{wid}"),
        None,
    )
    .await;
    assert_eq!(gone["is_active"], false);
    let o = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"customer_id": cid, "lines": [{"product_id": b, "quantity": 1}]})),
    )
    .await;
    assert_eq!(money(&o["lines"][0]["unit_price"]), 20.0);
    assert_eq!(o["lines"][0]["price_level_name"], Value::Null);
    // An inactive level cannot be given to a customer.
    let customers = table_json(&app, "customers").await;
    let (s, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/customers/{cid}"),
        Some(json!({"price_level_id": wid})),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(table_json(&app, "customers").await, customers);
    let _ = distributor;
}

#[tokio::test]
async fn prices_are_suggested_from_cost_and_applied_to_the_chosen_items() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .price(Some("9.00"))
        .with("standard_cost", json!("4.00"))
        .create(&app, &t)
        .await;
    let gear = item("GEAR")
        .kind("component")
        .price(Some("3.00"))
        .with("standard_cost", json!("3.00"))
        .create(&app, &t)
        .await;
    item("PLA")
        .kind("material")
        .unit("G")
        .with("standard_cost", json!("0.02"))
        .create(&app, &t)
        .await;
    item("NOCOST")
        .kind("finished_good")
        .price(Some("5.00"))
        .create(&app, &t)
        .await;

    let c = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/items/price-candidates?margin_percent=60",
        None,
    )
    .await;
    let skus: Vec<&str> = c
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|i| i["sku"].as_str())
        .collect();
    assert_eq!(
        skus,
        ["GEAR", "WIDGET"],
        "materials and items without a cost are left out: {c}"
    );
    assert_eq!(money(&c[1]["suggested_price"]), 10.0);
    assert_eq!(money(&c[1]["standard_cost"]), 4.0);
    assert_eq!(money(&c[1]["current_selling_price"]), 9.0);
    let only = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/items/price-candidates?item_type=component",
        None,
    )
    .await;
    assert_eq!(only.as_array().map(Vec::len), Some(1));
    assert_eq!(
        only[0]["suggested_price"],
        Value::Null,
        "no margin asked and none in the settings"
    );

    let r = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/items/apply-suggested-prices",
        Some(json!({"items": [
            {"id": widget, "selling_price": "10.004"},
            {"id": gear, "selling_price": "3.00"},
            {"id": 999999, "selling_price": "1"},
        ]})),
    )
    .await;
    assert_eq!(
        (r["updated"].clone(), r["skipped"].clone()),
        (json!(1), json!(2)),
        "{r}"
    );
    assert_eq!(r["items"][0]["sku"], "WIDGET");
    assert_eq!(money(&r["items"][0]["old_price"]), 9.0);
    assert_eq!(money(&r["items"][0]["new_price"]), 10.0);
    let w = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/items/{widget}"),
        None,
    )
    .await;
    assert_eq!(money(&w["selling_price"]), 10.0);
}
