//! An order in detail (issue 33) through FilaOps's paths: the cost breakdown against the
//! estimate, material availability with incoming purchase orders, printer compatibility
//! (refused at operation start), what the order waits for, scrap at an operation with its
//! cascade and journal entry, and operations rebuilt from the routing; every refusal leaves
//! the tables as they were.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, operator, table_json};
use crate::common::books::{account, balanced, exec, num, receive};

struct Shop {
    abs: i64,
    box_item: i64,
    shell: i64,
    product: i64,
    open_printer: i64,
    closed_printer: i64,
}

/// ABS (a material type needing an enclosure, stocked in g at 0.02), boxes, a printed shell
/// with its own BOM (a sub-assembly), a product of 50 g ABS + 1 shell + 1 box per unit, a
/// routing PRINT (ABS, 10 + 30 min at 6/h) -> PACK (box, 0 + 3 min at 20/h), and an open
/// A1 and an enclosed X1C printer in the pool.
async fn shop(app: &TestApp, t: &str) -> Shop {
    exec(
        app,
        "INSERT INTO material_types (code, name, requires_enclosure, nozzle_temp_c) VALUES ('ABS', 'ABS', TRUE, 250); \
         INSERT INTO colors (code, name) VALUES ('BLACK', 'Black');",
    )
    .await;
    let abs = ok(
        app,
        t,
        Method::POST,
        "/api/v1/items/material",
        Some(json!({"material_type_code": "ABS", "color_code": "BLACK", "cost_per_kg": "20", "initial_qty_kg": "1"})),
    )
    .await["id"]
        .as_i64()
        .expect("abs");
    let box_item = item("BOX-S").kind("supply").unit("EA").create(app, t).await;
    receive(app, t, box_item, "1", "0.50").await;
    let shell = item("SHELL")
        .kind("component")
        .unit("EA")
        .create(app, t)
        .await;
    let resin = item("INSERT")
        .kind("component")
        .unit("EA")
        .create(app, t)
        .await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": shell, "lines": [{"component_id": resin, "quantity": "2"}]})),
    )
    .await;
    let product = item("ENCLOSURE")
        .kind("finished_good")
        .unit("EA")
        .create(app, t)
        .await;
    let pool = ok(app, t, Method::POST, "/api/v1/work-centers/", Some(json!({"code": "FDM-POOL", "name": "Pool", "center_type": "printer_pool", "hourly_rate": "6"}))).await;
    let pack = ok(app, t, Method::POST, "/api/v1/work-centers/", Some(json!({"code": "PACKING", "name": "Packing", "center_type": "packing", "hourly_rate": "20"}))).await;
    let open_printer = ok(app, t, Method::POST, "/api/v1/printers/", Some(json!({"code": "A1-1", "name": "A1 one", "model": "A1", "work_center_id": pool["id"], "status": "idle"}))).await["id"].as_i64().expect("printer");
    let closed_printer = ok(app, t, Method::POST, "/api/v1/printers/", Some(json!({"code": "X1-1", "name": "X1 one", "model": "X1 Carbon", "work_center_id": pool["id"], "status": "idle"}))).await["id"].as_i64().expect("printer");
    let routing = ok(
        app,
        t,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": product, "operations": [
            {"operation_code": "PRINT", "work_center_id": pool["id"], "setup_time_minutes": 10, "run_time_minutes": 30},
            {"operation_code": "PACK", "work_center_id": pack["id"], "run_time_minutes": 3}
        ]})),
    )
    .await;
    let print = routing["operations"][0]["id"].as_i64().expect("print");
    let packing = routing["operations"][1]["id"].as_i64().expect("pack");
    for (step, body) in [
        (
            print,
            json!({"component_id": abs, "quantity": 50, "unit": "G"}),
        ),
        (print, json!({"component_id": shell, "quantity": 1})),
        (packing, json!({"component_id": box_item, "quantity": 1})),
    ] {
        ok(
            app,
            t,
            Method::POST,
            &format!("/api/v1/routings/operations/{step}/materials"),
            Some(body),
        )
        .await;
    }
    Shop {
        abs,
        box_item,
        shell,
        product,
        open_printer,
        closed_printer,
    }
}

async fn released(app: &TestApp, t: &str, product: i64, qty: u32) -> (i64, Vec<i64>) {
    let wo = ok(
        app,
        t,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": product, "quantity_ordered": qty})),
    )
    .await;
    let id = wo["id"].as_i64().expect("wo");
    let r = ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/production-orders/{id}/release"),
        None,
    )
    .await;
    let ops = r["operations"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|o| o["id"].as_i64().expect("op"))
        .collect();
    (id, ops)
}

#[tokio::test]
async fn cost_availability_compatibility_and_what_an_order_waits_for() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let s = shop(&app, &t).await;
    let (wo, ops) = released(&app, &op, s.product, 4).await;

    // Cost: 200 g ABS at 0.02 = 4, shells cost nothing yet, 4 boxes at 0.50 = 2; print
    // 10 + 4 x 30 min at 6/h = 13, pack 4 x 3 min at 20/h = 4.
    let cost = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}/cost-breakdown"),
        None,
    )
    .await;
    assert_eq!(cost["order_id"], wo);
    assert_eq!(
        cost["material_costs"].as_array().map(Vec::len),
        Some(3),
        "{cost}"
    );
    assert!(
        (num(&cost["summary"]["total_material_cost"]) - 6.0).abs() < 1e-9,
        "{cost}"
    );
    let labor: Vec<f64> = cost["labor_costs"]
        .as_array()
        .expect("labor")
        .iter()
        .map(|l| num(&l["cost"]))
        .collect();
    assert_eq!(labor, vec![13.0, 4.0], "{cost}");
    assert_eq!(num(&cost["summary"]["quantity_ordered"]), 4.0);
    assert!((num(&cost["estimated"]["total"]) - num(&cost["actual"]["total"])).abs() < 1e-9);
    assert_eq!(num(&cost["variance"]["total"]), 0.0);
    let est = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/estimate-cost"),
        None,
    )
    .await;
    assert!(
        (num(&est["estimated"]["material"]) - 6.0).abs() < 1e-9,
        "{est}"
    );
    let order = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}"),
        None,
    )
    .await;
    assert!(
        (num(&order["estimated_material_cost"]) - 6.0).abs() < 1e-9,
        "{order}"
    );

    // Availability: ABS reserved, shells missing (none in stock), 1 box of 4 on hand with 2 on order.
    let po = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Boxes Inc"})),
    )
    .await;
    ok(&app, &t, Method::POST, "/api/v1/purchase-orders/", Some(json!({"vendor_id": po["id"], "lines": [{"product_id": s.box_item, "quantity_ordered": 2, "unit_cost": "0.5"}]}))).await;
    let avail = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}/material-availability"),
        None,
    )
    .await;
    let by_sku = |sku: &str| {
        avail["materials"]
            .as_array()
            .expect("m")
            .iter()
            .find(|m| m["component_sku"] == sku)
            .cloned()
            .expect(sku)
    };
    assert_eq!(by_sku("MAT-ABS-BLACK")["status"], "ok", "{avail}");
    assert_eq!(by_sku("SHELL")["status"], "short");
    assert_eq!(num(&by_sku("SHELL")["quantity_short"]), 4.0);
    let boxes = by_sku("BOX-S");
    assert_eq!(num(&boxes["quantity_allocated"]), 1.0, "{boxes}");
    assert_eq!(num(&boxes["quantity_short_now"]), 3.0);
    assert_eq!(num(&boxes["quantity_incoming"]), 2.0);
    assert_eq!(num(&boxes["quantity_short"]), 1.0);
    assert_eq!(avail["summary"]["can_start"], false);
    assert_eq!(avail["summary"]["materials_short"], 2);
    assert_eq!(avail["shortage_count"], 2);

    // What it waits for: shells to make (a work order), their inserts and the boxes to buy.
    let req = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}/required-orders"),
        None,
    )
    .await;
    assert_eq!(
        req["work_orders_needed"][0]["product_sku"], "SHELL",
        "{req}"
    );
    assert_eq!(num(&req["work_orders_needed"][0]["quantity_short"]), 4.0);
    let buys: Vec<&str> = req["purchase_orders_needed"]
        .as_array()
        .expect("po")
        .iter()
        .filter_map(|p| p["product_sku"].as_str())
        .collect();
    assert!(buys.contains(&"INSERT") && buys.contains(&"BOX-S"), "{req}");
    let insert = req["purchase_orders_needed"]
        .as_array()
        .expect("po")
        .iter()
        .find(|p| p["product_sku"] == "INSERT")
        .expect("insert");
    assert_eq!(num(&insert["quantity_required"]), 8.0);
    assert_eq!(insert["bom_level"], 1);
    assert_eq!(req["summary"]["total"], 3);

    // Compatibility: ABS on the open A1 is an error; the X1C is fine.
    let res = call(&app, Method::GET, &format!("/api/v1/production-orders/{wo}/check-resource-compatibility?resource_id={}&is_printer=true", s.open_printer), None, &op).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.json()["compatible"], false);
    assert!(
        res.json()["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("ABS needs an enclosed printer"),
        "{}",
        res.text()
    );
    let fine = ok(&app, &op, Method::GET, &format!("/api/v1/production-orders/{wo}/check-resource-compatibility?resource_id={}&is_printer=true", s.closed_printer), None).await;
    assert_eq!(fine, json!({"compatible": true, "reason": "Compatible"}));
    let res = call(&app, Method::GET, &format!("/api/v1/production-orders/{wo}/check-resource-compatibility?resource_id=999999&is_printer=true"), None, &op).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    // Starting the print on the A1 is refused, and nothing moves.
    let before = table_json(&app, "inventory_transactions").await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/operations/{}/start", ops[0]),
        Some(json!({"printer_id": s.open_printer})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.text().contains("ABS needs an enclosed printer"),
        "{}",
        res.text()
    );
    assert_eq!(table_json(&app, "inventory_transactions").await, before);
    // Once scheduled on it, the order's compatibility shows the finding.
    exec(
        &app,
        &format!(
            "UPDATE production_order_operations SET printer_id = {} WHERE id = {}",
            s.open_printer, ops[0]
        ),
    )
    .await;
    let compat = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}/compatibility"),
        None,
    )
    .await;
    assert_eq!(compat["compatible"], false, "{compat}");
    assert_eq!(compat["operations"][0]["issues"][0]["check"], "enclosure");
    assert_eq!(compat["operations"][0]["issues"][0]["severity"], "error");
    assert_eq!(compat["operations"][1]["compatible"], true);
    let one = ok(
        &app,
        &op,
        Method::GET,
        &format!(
            "/api/v1/production-orders/{wo}/operations/{}/compatibility",
            ops[0]
        ),
        None,
    )
    .await;
    assert_eq!(one["printer_name"], "A1 one");
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}/operations/999999/compatibility"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    let _ = (s.abs, s.shell);
}

#[tokio::test]
async fn scrap_at_an_operation_previews_then_posts_its_share() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.shell, "10", "1").await;
    receive(&app, &t, s.box_item, "10", "0.5").await;
    let (wo, ops) = released(&app, &op, s.product, 4).await;
    // Start printing on the X1C: the shells are issued (4 in WIP); filament is left to its
    // spools (or the backflush at completion).
    ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/operations/{}/start", ops[0]),
        Some(json!({"printer_id": s.closed_printer})),
    )
    .await;
    assert!((account(&app, "1210").await - 4.0).abs() < 1e-9);

    // The preview: one unit loses 50 g ABS and a shell (2.00) and a quarter of the print's
    // time; the journal entry moves a quarter of what is in WIP (1.00).
    let cascade = ok(
        &app,
        &op,
        Method::GET,
        &format!(
            "/api/v1/production-orders/{wo}/operations/{}/scrap-cascade?quantity=1",
            ops[0]
        ),
        None,
    )
    .await;
    assert_eq!(cascade["operations_affected"], 1, "{cascade}");
    assert_eq!(
        cascade["materials_consumed"].as_array().map(Vec::len),
        Some(2)
    );
    assert!(
        (num(&cascade["material_cost"]) - 2.0).abs() < 1e-9,
        "{cascade}"
    );
    assert!(
        (num(&cascade["journal_amount"]) - 1.0).abs() < 1e-9,
        "{cascade}"
    );
    for (path, want) in [
        (
            format!(
                "/api/v1/production-orders/{wo}/operations/{}/scrap-cascade?quantity=0",
                ops[0]
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/production-orders/{wo}/operations/999999/scrap-cascade?quantity=1"),
            StatusCode::NOT_FOUND,
        ),
        (
            format!(
                "/api/v1/production-orders/999999/operations/{}/scrap-cascade?quantity=1",
                ops[0]
            ),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = call(&app, Method::GET, &path, None, &op).await;
        assert_eq!(res.status, want, "{path}: {}", res.text());
    }

    // Refusals change nothing: too many, an unknown reason, another order's operation.
    let (other, other_ops) = released(&app, &op, s.product, 1).await;
    let before = (
        table_json(&app, "production_orders").await,
        table_json(&app, "gl_journal_entries").await,
    );
    for (path, body, want) in [
        (
            format!("/api/v1/production-orders/{wo}/operations/{}/scrap", ops[0]),
            json!({"quantity_scrapped": 5, "scrap_reason_code": "layer_shift"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/v1/production-orders/{wo}/operations/{}/scrap", ops[0]),
            json!({"quantity_scrapped": 1, "scrap_reason_code": "no-such-reason"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!(
                "/api/v1/production-orders/{wo}/operations/{}/scrap",
                other_ops[0]
            ),
            json!({"quantity_scrapped": 1, "scrap_reason_code": "layer_shift"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/v1/production-orders/{wo}/operations/{}/scrap", ops[0]),
            json!({"quantity_scrapped": 0, "scrap_reason_code": "layer_shift"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(&app, Method::POST, &path, Some(body.clone()), &op).await;
        assert_eq!(res.status, want, "{body}: {}", res.text());
    }
    assert_eq!(
        (
            table_json(&app, "production_orders").await,
            table_json(&app, "gl_journal_entries").await
        ),
        before
    );
    let _ = other;

    let done = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/operations/{}/scrap", ops[0]),
        Some(json!({"quantity_scrapped": 1, "scrap_reason_code": "layer_shift", "notes": "first layer", "create_replacement": true})),
    )
    .await;
    assert_eq!(done["success"], true, "{done}");
    assert!((num(&done["total_scrap_cost"]) - num(&cascade["total_cost"])).abs() < 1e-9);
    assert!(done["journal_entry_number"].as_str().is_some(), "{done}");
    assert_eq!(num(&done["replacement_order"]["quantity_ordered"]), 1.0);
    assert!((account(&app, "1210").await - 3.0).abs() < 1e-9);
    assert!((account(&app, "5020").await - 1.0).abs() < 1e-9);
    let order = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}"),
        None,
    )
    .await;
    assert_eq!(num(&order["quantity_scrapped"]), 1.0, "{order}");
    // Completing the rest: 3 good units take what is left in WIP.
    ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/complete"),
        Some(json!({"quantity_completed": 3})),
    )
    .await;
    let order = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}"),
        None,
    )
    .await;
    assert_eq!(order["status"], "complete", "{order}");
    assert_eq!(num(&order["quantity_scrapped"]), 1.0);
    assert_eq!(num(&order["quantity_completed"]), 3.0);
    balanced(&app, &t).await;
}

#[tokio::test]
async fn operations_are_rebuilt_from_the_routing_until_one_starts() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let s = shop(&app, &t).await;
    receive(&app, &t, s.shell, "10", "1").await;
    receive(&app, &t, s.box_item, "10", "0.5").await;
    let (wo, ops) = released(&app, &op, s.product, 2).await;
    // The routing gains a QC step; the released order picks it up.
    let routing = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/product/{}", s.product),
        None,
    )
    .await;
    let qc = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": "QC", "name": "QC", "center_type": "qc"})),
    )
    .await;
    ok(&app, &op, Method::POST, &format!("/api/v1/routings/{}/operations", routing["id"]), Some(json!({"operation_type": "QUALITY_CONTROL", "work_center_id": qc["id"], "run_time_minutes": 1}))).await;
    let refreshed = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/refresh-routing"),
        None,
    )
    .await;
    assert_eq!(
        refreshed["operations"].as_array().map(Vec::len),
        Some(3),
        "{refreshed}"
    );
    assert_eq!(refreshed["status"], "released");
    let reserved: Vec<Value> = refreshed["operations"][0]["materials"]
        .as_array()
        .expect("m")
        .clone();
    assert_eq!(reserved.len(), 2, "{refreshed}");
    // Generate without force is refused while operations exist.
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/operations/generate"),
        Some(json!({})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    let gen_ok = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/operations/generate"),
        Some(json!({"force": true})),
    )
    .await;
    assert_eq!(gen_ok["operations_created"], 3, "{gen_ok}");
    // Once an operation started: 409, nothing changed.
    let now_ops = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{wo}/operations"),
        None,
    )
    .await;
    let first = now_ops
        .as_array()
        .and_then(|a| a.first())
        .and_then(|o| o["id"].as_i64())
        .expect("op");
    ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/operations/{first}/start"),
        Some(json!({"printer_id": s.closed_printer})),
    )
    .await;
    let before = table_json(&app, "production_order_operations").await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/refresh-routing"),
        None,
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::BAD_REQUEST,
        "in progress is not refreshable: {}",
        res.text()
    );
    assert_eq!(
        table_json(&app, "production_order_operations").await,
        before
    );
    let _ = ops;
    // A cost estimate needs operations.
    let draft = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": s.box_item, "quantity_ordered": 1})),
    )
    .await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/production-orders/{}/estimate-cost", draft["id"]),
        None,
        &op,
    )
    .await;
    assert!(res.status.is_client_error(), "{}", res.text());
    balanced(&app, &t).await;
}
