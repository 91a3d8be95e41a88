//! The records of traceability an admin keeps by hand (CONTRACT 5.19; issue 16): lots
//! recorded and numbered outside purchasing, their status and inspection, material drawn
//! from a lot by a production order (which joins the genealogy), finished units numbered and
//! moved by hand, and customers' traceability profiles. Every refusal leaves the tables as
//! they were.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::api::item;
use crate::common::api::{admin, app, call, ok, operator, released_order, table_json};
use crate::common::books::{exec, num, sql};

/// A request with an `Idempotency-Key`.
fn keyed(t: &str, path: &str, key: &str, body: &Value) -> Request<Body> {
    Request::builder()
        .method(Method::POST)
        .uri(path)
        .header("authorization", format!("Bearer {t}"))
        .header("content-type", "application/json")
        .header("idempotency-key", key)
        .body(Body::from(body.to_string()))
        .expect("request")
}

fn refused(res: &crate::common::TestResponse, status: StatusCode, says: &str) {
    assert_eq!(res.status, status, "{}", res.text());
    assert!(res.text().contains(says), "wanted {says:?}: {}", res.text());
}

#[tokio::test]
async fn lots_are_recorded_numbered_changed_and_consumed_into_the_genealogy() {
    let app = app().await;
    let t = admin(&app).await;
    let vendor = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Resin Works"})),
    )
    .await["id"]
        .as_i64()
        .expect("vendor");
    let resin = item("RESIN")
        .kind("material")
        .unit("G")
        .serials(false)
        .with("purchase_uom", json!("KG"))
        .create(&app, &t)
        .await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .serials(true)
        .price(Some("25.00"))
        .create(&app, &t)
        .await;

    // A number handed out is the item's code, the year and the next of the sequence, and
    // never the same twice.
    let year = chrono::Utc::now().format("%Y").to_string();
    let mut numbers = Vec::new();
    for _ in 0..2 {
        let n = ok(
            &app,
            &t,
            Method::POST,
            "/api/v1/admin/traceability/lots/generate-number",
            Some(json!({"product_id": resin})),
        )
        .await["lot_number"]
            .as_str()
            .expect("lot_number")
            .to_owned();
        assert!(n.starts_with(&format!("RESIN-{year}-")), "{n}");
        numbers.push(n);
    }
    assert_ne!(numbers[0], numbers[1]);
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/traceability/lots/generate-number",
        Some(json!({"product_id": 999_999})),
        &t,
    )
    .await;
    refused(&res, StatusCode::NOT_FOUND, "Item not found");

    // Bad lots are refused field by field and nothing is stored.
    let before = table_json(&app, "material_lots").await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/traceability/lots",
        Some(json!({"product_id": resin, "quantity_received": "0", "received_date": "2026-11-20", "expiration_date": "2026-11-01", "unit_cost": "-1"})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    for field in ["quantity_received", "expiration_date", "unit_cost"] {
        assert!(res.text().contains(field), "{field}: {}", res.text());
    }
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/traceability/lots",
        Some(json!({"product_id": resin, "quantity_received": "5", "vendor_id": 999_999})),
        &t,
    )
    .await;
    refused(&res, StatusCode::NOT_FOUND, "Vendor not found");
    assert_eq!(table_json(&app, "material_lots").await, before);

    // Recorded: numbered, active, pending inspection, no stock posted.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/traceability/lots",
        Some(json!({"product_id": resin, "quantity_received": "500", "vendor_id": vendor, "vendor_lot_number": " V-77 ", "unit_cost": "0.02"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let lot = res.json();
    let lot_id = lot["id"].as_i64().expect("lot id");
    let lot_number = lot["lot_number"].as_str().expect("number").to_owned();
    assert_eq!(
        res.header("location"),
        Some(format!("/api/v1/admin/traceability/lots/{lot_id}").as_str())
    );
    assert!(lot_number.starts_with(&format!("RESIN-{year}-")), "{lot}");
    assert_eq!(lot["status"], "active");
    assert_eq!(lot["inspection_status"], "pending");
    assert_eq!(lot["vendor_lot_number"], "V-77");
    assert_eq!(lot["vendor_id"], vendor);
    assert_eq!(
        sql(&app, "SELECT count(*) FROM inventory_transactions").await,
        "0",
        "recording a lot posts no stock"
    );
    // Its number is taken now, whatever the case.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/traceability/lots",
        Some(json!({"product_id": resin, "quantity_received": "1", "lot_number": lot_number.to_lowercase()})),
        &t,
    )
    .await;
    refused(&res, StatusCode::BAD_REQUEST, "already exists");

    // Quarantined, it cannot be consumed.
    let quarantined = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/traceability/lots/{lot_id}"),
        Some(json!({"status": "quarantine", "notes": "Moisture check"})),
    )
    .await;
    assert_eq!(quarantined["status"], "quarantine");
    assert_eq!(quarantined["notes"], "Moisture check");
    let (wo, wo_code) = released_order(&app, &t, widget, "2").await;
    let consumptions = table_json(&app, "production_lot_consumptions").await;
    let path = "/api/v1/admin/traceability/consumptions";
    let draw = |q: &str| json!({"production_order_id": wo, "material_lot_id": lot_id, "quantity_consumed": q});
    let res = call(&app, Method::POST, path, Some(draw("100")), &t).await;
    refused(&res, StatusCode::BAD_REQUEST, "is quarantine");
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/traceability/lots/{lot_id}"),
        Some(json!({"expiration_date": "2000-01-01"})),
        &t,
    )
    .await;
    refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "expiration_date");
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/admin/traceability/lots/{lot_id}"),
        Some(json!({"status": "active", "inspection_status": "passed"})),
    )
    .await;

    // A failure after the lot was drawn down (the consumption's insert) leaves nothing.
    let lots_before = table_json(&app, "material_lots").await;
    exec(&app, "CREATE FUNCTION refuse_draw() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$").await;
    exec(&app, "CREATE TRIGGER refuse_draw BEFORE INSERT ON production_lot_consumptions FOR EACH ROW EXECUTE FUNCTION refuse_draw()").await;
    let res = call(&app, Method::POST, path, Some(draw("500")), &t).await;
    assert_eq!(
        res.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        res.text()
    );
    exec(
        &app,
        "DROP TRIGGER refuse_draw ON production_lot_consumptions",
    )
    .await;
    assert_eq!(table_json(&app, "material_lots").await, lots_before);
    assert_eq!(
        table_json(&app, "production_lot_consumptions").await,
        consumptions
    );

    // Drawn: 100 g, then more than is left is refused, then the rest once per key.
    let first = call(&app, Method::POST, path, Some(draw("100")), &t).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text());
    assert_eq!(num(&first.json()["quantity_consumed"]), 100.0);
    let after_first = table_json(&app, "production_lot_consumptions").await;
    assert_ne!(after_first, consumptions);
    let res = call(&app, Method::POST, path, Some(draw("401")), &t).await;
    refused(&res, StatusCode::BAD_REQUEST, "Only 400 left in lot");
    let res = call(&app, Method::POST, path, Some(draw("-1")), &t).await;
    refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "quantity_consumed");
    assert_eq!(
        table_json(&app, "production_lot_consumptions").await,
        after_first
    );
    let once = app
        .request(keyed(&t, path, "draw-rest", &draw("400")))
        .await;
    let again = app
        .request(keyed(&t, path, "draw-rest", &draw("400")))
        .await;
    assert_eq!(once.status, StatusCode::CREATED, "{}", once.text());
    assert_eq!(again.json()["id"], once.json()["id"]);
    assert_eq!(
        sql(&app, "SELECT count(*) FROM production_lot_consumptions").await,
        "2"
    );
    let lot = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/traceability/lots/{lot_id}"),
        None,
    )
    .await;
    assert_eq!(lot["status"], "depleted", "{lot}");
    assert_eq!(num(&lot["quantity_consumed"]), 500.0);

    // The lot's trace reaches the order it fed, with the grams drawn.
    let trace = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/traceability/recall/forward/{lot_number}"),
        None,
    )
    .await;
    let usage = trace["usage"].as_array().expect("usage");
    assert_eq!(usage.len(), 1, "{trace}");
    assert_eq!(usage[0]["production_order"]["code"], wo_code.as_str());
    assert_eq!(num(&usage[0]["material_consumed_g"]), 500.0);
    let graph = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/traceability/graph?code={lot_number}"),
        None,
    )
    .await;
    assert!(
        graph["edges"]
            .as_array()
            .expect("edges")
            .iter()
            .any(|e| e["relation"] == "CONSUMED_BY" && num(&e["quantity"]) == 500.0),
        "{graph}"
    );

    // Operators may do none of it.
    let op = operator(&app, &t).await;
    let res = call(&app, Method::POST, path, Some(draw("1")), &op).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn serial_numbers_are_numbered_and_moved_by_hand() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .serials(true)
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    let plain = item("PLAIN")
        .kind("finished_good")
        .unit("EA")
        .serials(false)
        .price(Some("25.00"))
        .create(&app, &t)
        .await;
    let (wo, _) = released_order(&app, &t, widget, "3").await;
    let path = "/api/v1/admin/traceability/serials";
    let before = table_json(&app, "serial_numbers").await;
    for (body, status, says) in [
        (
            json!({"product_id": plain, "quantity": 1}),
            StatusCode::BAD_REQUEST,
            "does not track serial numbers",
        ),
        (
            json!({"product_id": widget, "quantity": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "quantity",
        ),
        (
            json!({"product_id": widget, "status": "shipped"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "manufactured or in_stock",
        ),
        (
            json!({"product_id": plain, "production_order_id": wo}),
            StatusCode::BAD_REQUEST,
            "does not track",
        ),
    ] {
        let res = call(&app, Method::POST, path, Some(body.clone()), &t).await;
        refused(&res, status, says);
    }
    assert_eq!(table_json(&app, "serial_numbers").await, before);

    let res = call(
        &app,
        Method::POST,
        path,
        Some(json!({"product_id": widget, "production_order_id": wo, "quantity": 3})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let units = res.json();
    let units = units.as_array().expect("a bare array");
    assert_eq!(units.len(), 3);
    for u in units {
        assert!(
            u["serial_number"]
                .as_str()
                .is_some_and(|s| s.starts_with("BLB-"))
        );
        assert_eq!(u["status"], "manufactured");
        assert_eq!(u["production_order_id"], wo);
    }
    let id = |i: usize| units[i]["id"].as_i64().expect("id");
    let patch = |i: usize| format!("{path}/{}", id(i));

    // Put away with a QC decision, then scrapped; never shipped by hand.
    let unit = ok(
        &app,
        &t,
        Method::PATCH,
        &patch(0),
        Some(json!({"status": "in_stock", "qc_passed": true, "qc_notes": "Looks good"})),
    )
    .await;
    assert_eq!(unit["status"], "in_stock");
    assert_eq!(unit["qc_passed"], true);
    assert!(unit["qc_date"].is_string());
    let res = call(
        &app,
        Method::PATCH,
        &patch(0),
        Some(json!({"status": "shipped"})),
        &t,
    )
    .await;
    refused(&res, StatusCode::BAD_REQUEST, "cannot become shipped");
    let unit = ok(
        &app,
        &t,
        Method::PATCH,
        &patch(0),
        Some(json!({"status": "scrapped"})),
    )
    .await;
    assert_eq!(unit["status"], "scrapped");

    // A shipped unit comes back only with a reason, and is restocked after.
    exec(
        &app,
        &format!(
            "UPDATE serial_numbers SET status = 'shipped' WHERE id = {}",
            id(1)
        ),
    )
    .await;
    let res = call(
        &app,
        Method::PATCH,
        &patch(1),
        Some(json!({"status": "returned"})),
        &t,
    )
    .await;
    refused(&res, StatusCode::UNPROCESSABLE_ENTITY, "return_reason");
    let unit = ok(
        &app,
        &t,
        Method::PATCH,
        &patch(1),
        Some(json!({"status": "returned", "return_reason": "Cracked lid"})),
    )
    .await;
    assert_eq!(unit["status"], "returned");
    assert_eq!(unit["return_reason"], "Cracked lid");
    assert!(unit["returned_at"].is_string());
    let unit = ok(
        &app,
        &t,
        Method::PATCH,
        &patch(1),
        Some(json!({"status": "in_stock"})),
    )
    .await;
    assert_eq!(unit["status"], "in_stock");

    let res = call(
        &app,
        Method::PATCH,
        &format!("{path}/999999"),
        Some(json!({"status": "in_stock"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
}

#[tokio::test]
async fn each_customer_has_one_traceability_profile() {
    let app = app().await;
    let t = admin(&app).await;
    let customer = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "qa@acme.test", "first_name": "Quinn", "last_name": "Able", "company_name": "Acme Aero"})),
    )
    .await["id"]
        .as_i64()
        .expect("customer");
    let path = "/api/v1/admin/traceability/profiles";
    assert_eq!(ok(&app, &t, Method::GET, path, None).await, json!([]));
    let res = call(&app, Method::GET, &format!("{path}/{customer}"), None, &t).await;
    refused(
        &res,
        StatusCode::NOT_FOUND,
        "Traceability profile not found",
    );

    let res = call(
        &app,
        Method::POST,
        path,
        Some(json!({"customer_id": customer, "traceability_level": "serial", "requires_coc": true, "custom_serial_prefix": " acme- ", "compliance_standards": "AS9100"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let profile = res.json();
    assert_eq!(profile["user_id"], customer);
    assert_eq!(profile["customer_name"], "Acme Aero");
    assert_eq!(profile["traceability_level"], "serial");
    assert_eq!(profile["requires_coc"], true);
    assert_eq!(profile["requires_coa"], false);
    assert_eq!(profile["record_retention_days"], 2555);
    assert_eq!(profile["custom_serial_prefix"], "ACME-");

    let before = table_json(&app, "customer_traceability_profiles").await;
    for (body, status, says) in [
        (
            json!({"customer_id": customer}),
            StatusCode::BAD_REQUEST,
            "already has a traceability profile",
        ),
        (
            json!({"customer_id": 999_999}),
            StatusCode::NOT_FOUND,
            "Customer not found",
        ),
        (
            json!({"customer_id": customer, "traceability_level": "everything"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "traceability_level",
        ),
    ] {
        let res = call(&app, Method::POST, path, Some(body), &t).await;
        refused(&res, status, says);
    }
    let one = format!("{path}/{customer}");
    for (body, says) in [
        (json!({"record_retention_days": 0}), "record_retention_days"),
        (
            json!({"custom_serial_prefix": "AC ME"}),
            "custom_serial_prefix",
        ),
        (json!({"customer_id": customer + 1}), "cannot move"),
    ] {
        let res = call(&app, Method::PATCH, &one, Some(body), &t).await;
        assert!(res.status.is_client_error(), "{}", res.text());
        assert!(res.text().contains(says), "{says}: {}", res.text());
    }
    assert_eq!(
        table_json(&app, "customer_traceability_profiles").await,
        before
    );

    let changed = ok(
        &app,
        &t,
        Method::PATCH,
        &one,
        Some(json!({"traceability_level": "full", "custom_serial_prefix": null, "record_retention_days": 3650})),
    )
    .await;
    assert_eq!(changed["traceability_level"], "full");
    assert!(changed["custom_serial_prefix"].is_null());
    assert_eq!(changed["record_retention_days"], 3650);
    assert_eq!(changed["requires_coc"], true, "untouched fields stay");
    let listed = ok(&app, &t, Method::GET, path, None).await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    assert_eq!(listed[0]["customer_email"], "qa@acme.test");

    let op = operator(&app, &t).await;
    let res = call(&app, Method::GET, path, None, &op).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
}
