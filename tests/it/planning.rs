//! Planning through REST (issue 32, FilaOps's `/mrp/*` and `/buy-list`): an MRP run sees
//! sales order demand, explodes the BOM, nets against stock and safety stock, rounds to the
//! vendor's pack and dates each order by its lead time; firm keeps a planned order through
//! the next run, release turns it into a draft purchase order that the next run counts as
//! supply, cancel deletes a suggestion; requirements, explosion, supply and demand and the
//! buy list answer FilaOps's shapes; refusals change nothing.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, operator, table_json};
use crate::common::books::{exec, num};

struct Farm {
    widget: i64,
    pla: i64,
    vendor: i64,
}

/// A widget made of 2 PLA each; PLA bought from a vendor (3 days, packs of 5) with a
/// safety stock of 4; a pending sales order for 3 widgets due in 10 days.
async fn farm(app: &TestApp, t: &str) -> Farm {
    let widget = item("WIDGET").price(Some("19.99")).create(app, t).await;
    let pla = item("PLA-BLK")
        .kind("supply")
        .with("safety_stock", json!("4"))
        .create(app, t)
        .await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": widget, "lines": [{"component_id": pla, "quantity": "2"}]})),
    )
    .await;
    let vendor = ok(
        app,
        t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Filament Co"})),
    )
    .await["id"]
        .as_i64()
        .expect("vendor");
    exec(
        app,
        &format!(
            "INSERT INTO vendor_items (vendor_id, item_id, is_preferred, lead_time_days, pack_size) \
             VALUES ({vendor}, {pla}, TRUE, 3, 5)"
        ),
    )
    .await;
    let due = (chrono::Utc::now().date_naive() + chrono::Duration::days(10)).to_string();
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(
            json!({"lines": [{"product_id": widget, "quantity": 3}], "due_date": due,
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}),
        ),
    )
    .await;
    Farm {
        widget,
        pla,
        vendor,
    }
}

fn planned_of(list: &Value, product: i64) -> Vec<&Value> {
    list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|p| p["product_id"] == product)
        .collect()
}

#[tokio::test]
async fn mrp_plans_from_sales_demand_through_the_bom_and_a_release_becomes_supply() {
    let app = app().await;
    let t = admin(&app).await;
    let f = farm(&app, &t).await;

    let run = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/mrp/run",
        Some(json!({"planning_horizon_days": 30})),
    )
    .await;
    assert_eq!(run["status"], "completed", "{run}");
    // WIDGET: make 3. PLA: 4 of safety stock are missing today (5, a pack, too late for
    // its 3 days: an exception), then 6 for the widgets (the 1 left needs another pack).
    assert_eq!(run["planned_orders_created"], 3, "{run}");
    assert_eq!(run["exceptions_found"], 1, "{run}");
    assert_eq!(run["orders_processed"], 1);

    let list = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/mrp/planned-orders?exceptions_first=true",
        None,
    )
    .await;
    assert_eq!(list["total"], 3);
    assert_eq!(list["items"][0]["is_late"], true, "late first: {list}");
    let make = planned_of(&list, f.widget);
    assert_eq!(make.len(), 1);
    assert_eq!(make[0]["order_type"], "production");
    assert_eq!(num(&make[0]["quantity"]), 3.0);
    assert_eq!(make[0]["source_demand_type"], "sales_order");
    assert_eq!(make[0]["product_sku"], "WIDGET");
    let buys = planned_of(&list, f.pla);
    assert_eq!(buys.len(), 2, "{list}");
    assert!(
        buys.iter()
            .all(|b| num(&b["quantity"]) == 5.0 && b["vendor_id"] == f.vendor)
    );
    let topup = buys
        .iter()
        .find(|b| b["source_demand_type"] == "safety_stock")
        .expect("safety");
    assert_eq!(topup["is_late"], true);
    let buy = buys
        .iter()
        .find(|b| b["source_demand_type"] == "planned_order")
        .expect("dependent");
    assert_eq!(buy["source_demand_id"], make[0]["id"]);
    assert_eq!(buy["is_late"], false);
    let need: chrono::NaiveDate = buy["due_date"]
        .as_str()
        .expect("due")
        .parse()
        .expect("date");
    let start: chrono::NaiveDate = buy["start_date"]
        .as_str()
        .expect("start")
        .parse()
        .expect("date");
    assert_eq!((need - start).num_days(), 3);
    let exceptions = ok(&app, &t, Method::GET, "/api/v1/mrp/exceptions", None).await;
    assert_eq!(exceptions[0]["kind"], "late");
    assert_eq!(exceptions[0]["planned_order_id"], topup["id"]);

    // The buy list sees the same shortage, grouped under the vendor.
    let buy_list = ok(&app, &t, Method::GET, "/api/v1/buy-list", None).await;
    assert_eq!(buy_list["summary"]["components_short"], 1, "{buy_list}");
    let line = &buy_list["items"][0];
    assert_eq!(line["sku"], "PLA-BLK");
    assert_eq!(num(&line["gross_demand"]), 6.0);
    assert_eq!(num(&line["net_shortage"]), 10.0);
    assert_eq!(num(&line["suggested_qty"]), 10.0);
    assert_eq!(line["preferred_vendor_name"], "Filament Co");

    // Firm the make, release both buys at once: one draft purchase order of 10.
    let firmed = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/mrp/planned-orders/{}/firm", make[0]["id"]),
        Some(json!({"notes": "customer confirmed"})),
    )
    .await;
    assert_eq!(firmed["status"], "firmed");
    let all = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/mrp/planned-orders/release",
        Some(json!({"ids": [topup["id"], buy["id"]]})),
    )
    .await;
    assert_eq!(all.as_array().map(Vec::len), Some(2), "{all}");
    assert_eq!(
        all[0]["created_purchase_order_id"],
        all[1]["created_purchase_order_id"]
    );
    let released = &all[0];
    assert_eq!(released["order_type"], "purchase");
    let po_id = released["created_purchase_order_id"].as_i64().expect("po");
    assert!(
        released["created_purchase_order_code"]
            .as_str()
            .is_some_and(|c| c.starts_with("PO-"))
    );
    let po = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/purchase-orders/{po_id}"),
        None,
    )
    .await;
    assert_eq!(po["status"], "draft");
    assert_eq!(po["vendor_id"], f.vendor);
    let ordered: f64 = po["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| num(&l["quantity_ordered"]))
        .sum();
    assert_eq!(ordered, 10.0);

    // Releasing twice, or cancelling a released order, is refused and changes nothing.
    let before = table_json(&app, "planned_orders").await;
    let again = call(
        &app,
        Method::POST,
        &format!("/api/v1/mrp/planned-orders/{}/release", buy["id"]),
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.text());
    let cancel = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/mrp/planned-orders/{}", buy["id"]),
        None,
        &t,
    )
    .await;
    assert_eq!(cancel.status, StatusCode::BAD_REQUEST);
    assert!(
        cancel.text().contains("Cannot cancel a released order"),
        "{}",
        cancel.text()
    );
    assert_eq!(table_json(&app, "planned_orders").await, before);

    // The next run keeps the firmed order and counts the draft PO as supply: nothing new.
    let run = ok(&app, &t, Method::POST, "/api/v1/mrp/run", Some(json!({}))).await;
    assert_eq!(run["planned_orders_created"], 0, "{run}");
    let list = ok(&app, &t, Method::GET, "/api/v1/mrp/planned-orders", None).await;
    assert_eq!(list["total"], 3);
    assert_eq!(planned_of(&list, f.widget)[0]["status"], "firmed");
    let buy_list = ok(&app, &t, Method::GET, "/api/v1/buy-list", None).await;
    assert_eq!(buy_list["summary"]["components_short"], 0, "{buy_list}");
    assert_eq!(num(&buy_list["summary"]["draft_incoming_qty"]), 10.0);

    let runs = ok(&app, &t, Method::GET, "/api/v1/mrp/runs", None).await;
    assert_eq!(runs["runs"].as_array().map(Vec::len), Some(2));
    assert!(runs["last_successful_run"].is_string());
    let one = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/mrp/runs/{}", run["id"]),
        None,
    )
    .await;
    assert_eq!(one["id"], run["id"]);
    let missing = call(&app, Method::GET, "/api/v1/mrp/runs/999999", None, &t).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn requirements_explosion_and_supply_demand_answer_filaops_shapes() {
    let app = app().await;
    let t = admin(&app).await;
    let f = farm(&app, &t).await;

    let exploded = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/mrp/explode-bom/{}?quantity=3", f.widget),
        None,
    )
    .await;
    assert_eq!(exploded["total_components"], 1);
    assert_eq!(exploded["components"][0]["product_id"], f.pla);
    assert_eq!(exploded["components"][0]["bom_level"], 0);
    assert_eq!(num(&exploded["components"][0]["gross_quantity"]), 6.0);
    assert_eq!(exploded["components"][0]["parent_product_id"], f.widget);

    let req = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/mrp/requirements?product_id={}", f.widget),
        None,
    )
    .await;
    assert_eq!(req["total_components_analyzed"], 1);
    assert_eq!(req["shortages_found"], 1);
    let r = &req["requirements"][0];
    assert_eq!(num(&r["gross_quantity"]), 2.0);
    assert_eq!(num(&r["safety_stock"]), 4.0);
    assert_eq!(num(&r["net_shortage"]), 6.0);
    assert_eq!(r["has_bom"], false);
    let neither = call(&app, Method::GET, "/api/v1/mrp/requirements", None, &t).await;
    assert_eq!(neither.status, StatusCode::BAD_REQUEST);
    assert!(
        neither
            .text()
            .contains("Either product_id or production_order_id is required")
    );

    ok(&app, &t, Method::POST, "/api/v1/mrp/run", Some(json!({}))).await;
    let timeline = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/mrp/supply-demand/{}?days_ahead=60", f.widget),
        None,
    )
    .await;
    assert_eq!(timeline["product_sku"], "WIDGET");
    let entries = timeline["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["entry_type"], "on_hand");
    assert!(
        entries
            .iter()
            .any(|e| e["entry_type"] == "demand" && e["source_type"] == "sales_order")
    );
    assert!(
        entries
            .iter()
            .any(|e| e["entry_type"] == "supply" && e["source_type"] == "planned_order")
    );
    assert_eq!(num(&entries.last().expect("last")["running_balance"]), 0.0);
    // The material's timeline counts what the planned widgets will take of it.
    let pla = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/mrp/supply-demand/{}?days_ahead=60", f.pla),
        None,
    )
    .await;
    let pla_entries = pla["entries"].as_array().expect("entries");
    let taken: Vec<&Value> = pla_entries
        .iter()
        .filter(|e| e["entry_type"] == "demand" && e["source_type"] == "planned_order")
        .collect();
    assert_eq!(taken.len(), 1, "{pla}");
    assert_eq!(num(&taken[0]["quantity"]), 6.0);
    assert!(
        num(&pla_entries.last().expect("last")["running_balance"]) >= 4.0,
        "{pla}"
    );
    let bad = call(
        &app,
        Method::GET,
        &format!("/api/v1/mrp/supply-demand/{}?days_ahead=0", f.widget),
        None,
        &t,
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let nothing = call(
        &app,
        Method::GET,
        "/api/v1/mrp/supply-demand/999999",
        None,
        &t,
    )
    .await;
    assert_eq!(nothing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn running_mrp_is_for_admins_and_a_bad_horizon_is_refused() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let refused = call(&app, Method::POST, "/api/v1/mrp/run", Some(json!({})), &op).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let before = table_json(&app, "mrp_runs").await;
    let bad = call(
        &app,
        Method::POST,
        "/api/v1/mrp/run",
        Some(json!({"planning_horizon_days": 0})),
        &t,
    )
    .await;
    assert_eq!(
        bad.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad.text()
    );
    assert!(
        bad.text().contains("planning_horizon_days"),
        "{}",
        bad.text()
    );
    assert_eq!(table_json(&app, "mrp_runs").await, before);
    // Operators read and act on planned orders.
    ok(&app, &op, Method::GET, "/api/v1/mrp/planned-orders", None).await;
    ok(&app, &op, Method::GET, "/api/v1/buy-list", None).await;
}

#[tokio::test]
async fn the_buy_list_orders_one_draft_per_vendor_and_cancel_deletes_a_suggestion() {
    let app = app().await;
    let t = admin(&app).await;
    let f = farm(&app, &t).await;
    let made = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/buy-list/purchase-orders",
        Some(json!({})),
    )
    .await;
    assert_eq!(
        made["purchase_orders"].as_array().map(Vec::len),
        Some(1),
        "{made}"
    );
    assert_eq!(made["purchase_orders"][0]["vendor_id"], f.vendor);
    let list = ok(&app, &t, Method::GET, "/api/v1/buy-list", None).await;
    assert_eq!(list["summary"]["components_short"], 0);

    ok(&app, &t, Method::POST, "/api/v1/mrp/run", Some(json!({}))).await;
    let planned = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/mrp/planned-orders?order_type=production",
        None,
    )
    .await;
    assert_eq!(planned["total"], 1, "{planned}");
    let id = planned["items"][0]["id"].as_i64().expect("id");
    let gone = ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/mrp/planned-orders/{id}"),
        None,
    )
    .await;
    assert_eq!(gone["message"], "Planned order cancelled");
    let missing = call(
        &app,
        Method::GET,
        &format!("/api/v1/mrp/planned-orders/{id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    // Releasing a make creates a draft production order.
    ok(&app, &t, Method::POST, "/api/v1/mrp/run", Some(json!({}))).await;
    let planned = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/mrp/planned-orders?order_type=production",
        None,
    )
    .await;
    let id = planned["items"][0]["id"].as_i64().expect("id");
    let released = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/mrp/planned-orders/{id}/release"),
        Some(json!({})),
    )
    .await;
    let wo = released["created_production_order_id"]
        .as_i64()
        .expect("wo");
    let order = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}"),
        None,
    )
    .await;
    assert_eq!(order["status"], "draft");
    assert_eq!(num(&order["quantity_ordered"]), 3.0);
}
