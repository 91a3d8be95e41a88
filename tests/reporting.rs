//! Reporting for report builders (issue 16): the nested reads a report pulls in one GraphQL
//! request (sales orders -> lines -> product -> BOM -> components -> their BOMs -> on-hand by
//! location; production orders -> operations -> printer -> spools) cost the same statements
//! for 50 orders as for one, and every `/graphql` response reports its cost with the limit.

mod common;

use std::sync::atomic::Ordering;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use common::TestApp;
use common::api::{admin, call, gql};
use common::books::{exec, receive};

async fn post(app: &TestApp, t: &str, path: &str, body: Value) -> Value {
    let res = call(app, Method::POST, path, Some(body), t).await;
    assert!(
        res.status == StatusCode::OK || res.status == StatusCode::CREATED,
        "{path}: {} {}",
        res.status,
        res.text()
    );
    res.json()
}

async fn new_item(app: &TestApp, t: &str, sku: &str, kind: &str, unit: &str) -> i64 {
    let body = json!({"sku": sku, "name": format!("{sku} item"), "item_type": kind, "unit": unit, "selling_price": "25"});
    post(app, t, "/api/v1/items", body).await["id"]
        .as_i64()
        .expect("id")
}

/// Five products, each three BOM levels deep (FG-i -> SUB-i -> PART-i -> PLA), PLA on hand
/// in two locations; 50 sales orders of five lines (one per product); 50 production orders
/// with two operations on three printers, each consuming two spools.
async fn seed(app: &TestApp, t: &str) {
    let pla = new_item(app, t, "PLA", "material", "G").await;
    receive(app, t, pla, "1000", "0.03").await;
    exec(
        app,
        &format!(
            "INSERT INTO locations (code, name, type) VALUES ('SHELF', 'Shelf', 'warehouse');
             INSERT INTO inventory_balances (item_id, location_id, on_hand_quantity)
               SELECT {pla}, id, 5 FROM locations WHERE code = 'SHELF';"
        ),
    )
    .await;
    let mut products = Vec::new();
    for i in 0..5 {
        let part = new_item(app, t, &format!("PART-{i}"), "component", "EA").await;
        let sub = new_item(app, t, &format!("SUB-{i}"), "component", "EA").await;
        let fg = new_item(app, t, &format!("FG-{i}"), "finished_good", "EA").await;
        for (product, component, qty) in [(part, pla, "10"), (sub, part, "2"), (fg, sub, "1")] {
            post(
                app,
                t,
                "/api/v1/admin/bom/",
                json!({"product_id": product, "lines": [{"component_id": component, "quantity": qty}]}),
            )
            .await;
        }
        products.push(fg);
    }
    let lines: Vec<Value> = products
        .iter()
        .map(|p| json!({"product_id": p, "quantity": 1}))
        .collect();
    for _ in 0..50 {
        post(
            app,
            t,
            "/api/v1/sales-orders/",
            json!({"lines": lines, "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}),
        )
        .await;
    }
    exec(
        app,
        &format!(
            "INSERT INTO work_centers (code, name) VALUES ('PRINT', 'Printing');
             INSERT INTO printers (code, name, model)
               SELECT 'P' || g, 'Printer ' || g, 'X1C' FROM generate_series(1, 3) g;
             INSERT INTO spools (spool_number, product_id, initial_weight_g, current_weight_g, received_date)
               SELECT 'SP-' || g, {pla}, 1000, 900, current_date FROM generate_series(1, 6) g;
             INSERT INTO production_orders (code, product_id, location_id, quantity_ordered)
               SELECT 'WO-' || lpad(g::text, 3, '0'), {fg}, (SELECT id FROM locations WHERE code = 'MAIN'), 1
               FROM generate_series(1, 50) g;
             INSERT INTO production_order_operations
               (production_order_id, work_center_id, printer_id, sequence, operation_code, operation_name)
               SELECT o.id, (SELECT id FROM work_centers WHERE code = 'PRINT'),
                      (SELECT id FROM printers WHERE code = 'P' || (1 + (o.id + s) % 3)), s * 10,
                      'OP' || s, 'Operation ' || s
               FROM production_orders o, generate_series(1, 2) s;
             INSERT INTO production_order_spools (production_order_id, spool_id, weight_consumed_g)
               SELECT o.id, (SELECT id FROM spools WHERE spool_number = 'SP-' || (1 + (o.id + s) % 6)), 10
               FROM production_orders o, generate_series(1, 2) s;",
            fg = products[0]
        ),
    )
    .await;
}

/// The report: every relation a report builder nests, three BOM levels deep.
pub const REPORT: &str = "query($n: Int!) {
  salesOrders(first: $n) { nodes { orderNumber lines { quantity product { sku
    stock { locationCode onHandQuantity }
    bom { code lines { quantity component { sku stock { locationCode onHandQuantity }
      bom { lines { quantity component { sku stock { locationCode onHandQuantity }
        bom { lines { quantity component { sku stock { locationCode onHandQuantity } } } } } } } } } } } } } }
  productionOrders(first: $n) { nodes { code
    operations { operationCode printer { code spools { spoolNumber currentWeightGrams } } }
    spools { weightConsumedGrams spool { spoolNumber } } } }
}";

#[tokio::test]
async fn a_nested_report_of_50_orders_costs_the_statements_of_one() {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    seed(&app, &t).await;
    let mut counts = Vec::new();
    for n in [1, 50] {
        let mut least = u64::MAX;
        for _ in 0..3 {
            let before = counter.load(Ordering::SeqCst);
            let res = gql(&app, &t, REPORT, json!({"n": n})).await;
            least = least.min(counter.load(Ordering::SeqCst) - before);
            assert!(res.get("errors").is_none(), "{res}");
            let orders = res["data"]["salesOrders"]["nodes"]
                .as_array()
                .expect("orders");
            assert_eq!(orders.len(), n);
            let last = &orders[n - 1];
            assert_eq!(last["lines"].as_array().map(Vec::len), Some(5), "{last}");
            let fg = &last["lines"][0]["product"];
            let sub = &fg["bom"]["lines"][0]["component"];
            let part = &sub["bom"]["lines"][0]["component"];
            let pla = &part["bom"]["lines"][0]["component"];
            assert_eq!(sub["sku"], "SUB-0", "{fg}");
            assert_eq!(part["sku"], "PART-0", "{fg}");
            assert_eq!(pla["sku"], "PLA", "{fg}");
            // On hand by location: the receipt's location and the shelf.
            let mut places: Vec<String> = pla["stock"]
                .as_array()
                .expect("stock")
                .iter()
                .map(|b| {
                    format!(
                        "{}={}",
                        b["locationCode"].as_str().unwrap_or(""),
                        b["onHandQuantity"]
                    )
                })
                .collect();
            places.sort();
            assert_eq!(places.len(), 2, "{places:?}");
            assert!(places.iter().any(|p| p.starts_with("SHELF=")), "{places:?}");

            let orders = res["data"]["productionOrders"]["nodes"]
                .as_array()
                .expect("production orders");
            assert_eq!(orders.len(), n);
            let op = &orders[n - 1]["operations"][0];
            assert!(
                op["printer"]["code"]
                    .as_str()
                    .is_some_and(|c| c.starts_with('P')),
                "{op}"
            );
            assert!(
                !op["printer"]["spools"]
                    .as_array()
                    .expect("spools")
                    .is_empty(),
                "{op}"
            );
            assert_eq!(orders[n - 1]["spools"].as_array().map(Vec::len), Some(2));
            assert!(
                orders[n - 1]["spools"][0]["spool"]["spoolNumber"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("SP-"))
            );
        }
        counts.push(least);
    }
    println!(
        "statements for 1 order: {}, for 50: {}",
        counts[0], counts[1]
    );
    assert_eq!(
        counts[0], counts[1],
        "the statement count grows with the orders: {counts:?}"
    );
}

#[tokio::test]
async fn every_graphql_response_reports_its_cost_and_the_limit() {
    let app = common::api::app().await;
    let t = admin(&app).await;
    let res = gql(&app, &t, REPORT, json!({"n": 50})).await;
    let cost = &res["extensions"]["cost"];
    let requested = cost["requestedQueryCost"].as_u64().expect(&res.to_string());
    assert!(requested > 50, "{cost}");
    assert_eq!(cost["maximumAvailable"], 5000, "{cost}");
    // Half the page costs about half.
    let half =
        gql(&app, &t, REPORT, json!({"n": 25})).await["extensions"]["cost"]["requestedQueryCost"]
            .as_u64()
            .expect("cost");
    assert!(half < requested, "{half} vs {requested}");
    // A refused query says what it would have cost.
    let res = call(
        &app,
        Method::POST,
        "/graphql",
        Some(json!({"query": REPORT, "variables": {"n": 2000}})),
        &t,
    )
    .await
    .json();
    assert!(
        res["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("at most 5000")),
        "{res}"
    );
    assert!(res["extensions"]["cost"]["requestedQueryCost"].as_u64() > Some(5000));
    // A mutation and an error response carry it too.
    let res = gql(&app, &t, "{ nope }", json!({})).await;
    assert!(
        res["extensions"]["cost"]["maximumAvailable"].is_number(),
        "{res}"
    );
}
