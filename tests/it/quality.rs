//! Quality management (issue 33) through FilaOps's paths: the policy set through the typed
//! settings, defect reasons, quality plans with variable and attribute characteristics,
//! inspections per operation and per order with measurements, the gate in `block` mode
//! (refused, nothing written) and in `warn` mode (done, with the warning said), append-only
//! history, photos (content sniffed, refused while quality is off) and the dashboard.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, operator, refused, table_json, upload};
use crate::common::books::{exec, num, sql};

async fn policy(app: &TestApp, t: &str, mode: &str, gate: &str) {
    for (key, value) in [("quality_mode", mode), ("quality_gate_action", gate)] {
        ok(
            app,
            t,
            Method::PUT,
            &format!("/api/v1/system/settings/{key}"),
            Some(json!({"value": value})),
        )
        .await;
    }
}

/// A bracket made by PRINT (printer pool) -> QC (bench); answers the product and its
/// routing's PRINT step.
async fn bracket(app: &TestApp, t: &str) -> (i64, i64) {
    let product = item("BRACKET")
        .kind("finished_good")
        .unit("EA")
        .create(app, t)
        .await;
    let pool = ok(app, t, Method::POST, "/api/v1/work-centers/", Some(json!({"code": "POOL", "name": "Pool", "center_type": "printer_pool", "hourly_rate": "6"}))).await;
    let bench = ok(
        app,
        t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": "QC", "name": "QC bench", "center_type": "qc", "hourly_rate": "20"})),
    )
    .await;
    let routing = ok(
        app,
        t,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": product, "operations": [
            {"operation_code": "PRINT", "work_center_id": pool["id"], "run_time_minutes": 30},
            {"operation_code": "QC", "work_center_id": bench["id"], "run_time_minutes": 2}
        ]})),
    )
    .await;
    (
        product,
        routing["operations"][0]["id"].as_i64().expect("print step"),
    )
}

/// A released and started order of `qty` brackets: its id and its operations' ids.
async fn running(app: &TestApp, t: &str, product: i64, qty: u32) -> (i64, Vec<i64>) {
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
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/production-orders/{id}/start"),
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

async fn snapshot(app: &TestApp) -> Vec<String> {
    let mut all = Vec::new();
    for table in [
        "production_orders",
        "production_order_operations",
        "qc_inspections",
        "qc_measurements",
        "inventory_transactions",
        "gl_journal_entries",
        "scrap_records",
    ] {
        all.push(table_json(app, table).await);
    }
    all
}

#[tokio::test]
async fn plans_inspections_and_the_gate_blocks_in_block_mode_and_only_warns_in_warn_mode() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let (product, print_step) = bracket(&app, &t).await;

    // The policy: basic and warn by default; set through the typed settings.
    let p = ok(&app, &op, Method::GET, "/api/v1/quality/policy", None).await;
    assert_eq!(
        p,
        json!({"mode": "basic", "gate_action": "warn", "gate_close": false, "surfaces_enabled": true, "plan_driven": false, "gates_close": false})
    );
    let (st, body) = refused(
        &app,
        &t,
        Method::PUT,
        "/api/v1/system/settings/quality_mode",
        Some(json!({"value": "strict"})),
    )
    .await;
    assert!(st.is_client_error(), "{st} {body}");
    assert!(
        body.to_string()
            .contains("quality_mode must be one of: off, basic, full"),
        "{body}"
    );
    let (st, _) = refused(
        &app,
        &op,
        Method::PUT,
        "/api/v1/system/settings/quality_mode",
        Some(json!({"value": "full"})),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    policy(&app, &t, "full", "block").await;
    let p = ok(&app, &op, Method::GET, "/api/v1/quality/policy", None).await;
    assert_eq!(p["plan_driven"], true);
    assert_eq!(p["gates_close"], true);

    // Defect reasons: seeded, admins add them, a taken code is refused.
    let d = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/production-orders/defect-reasons",
        None,
    )
    .await;
    assert!(
        d["reasons"]
            .as_array()
            .expect("reasons")
            .contains(&json!("layer_shift")),
        "{d}"
    );
    let layer_shift = d["details"]
        .as_array()
        .expect("details")
        .iter()
        .find(|r| r["code"] == "layer_shift")
        .expect("layer shift")["id"]
        .as_i64()
        .expect("id");
    let new = json!({"code": "Elephant_Foot", "name": "Elephant foot", "category": "dimensional", "severity": "minor"});
    let (st, _) = refused(
        &app,
        &op,
        Method::POST,
        "/api/v1/production-orders/defect-reasons",
        Some(new.clone()),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let foot = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/defect-reasons",
        Some(new.clone()),
    )
    .await;
    assert_eq!(foot["code"], "elephant_foot");
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/defect-reasons",
        Some(new),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    let (st, _) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/defect-reasons",
        Some(json!({"code": "x", "name": "X", "severity": "fatal"})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let off = ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/production-orders/defect-reasons/{}", foot["id"]),
        Some(json!({"active": false})),
    )
    .await;
    assert_eq!(off["active"], false);
    let all = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/production-orders/defect-reasons/all",
        None,
    )
    .await;
    assert!(
        all.as_array()
            .expect("all")
            .iter()
            .any(|r| r["code"] == "elephant_foot")
    );

    // A plan: wall thickness measured at the print step, the surface judged at the end.
    let plans_before = table_json(&app, "quality_plans").await;
    for (body, status) in [
        (
            json!({"code": "QP", "name": "Bracket", "product_id": product, "characteristics": [{"characteristic": "Surface", "characteristic_type": "attribute", "nominal": "1"}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"code": "QP", "name": "Bracket", "product_id": product, "characteristics": [{"characteristic": "Wall", "lower_limit": "3", "upper_limit": "2"}]}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"code": "QP", "name": "Bracket", "product_id": product, "is_template": true}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"code": "QP", "name": "Bracket"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"code": "QP", "name": "Bracket", "product_id": product, "characteristics": [{"code": "A", "characteristic": "One"}, {"code": "A", "characteristic": "Two"}]}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"code": "QP", "name": "Bracket", "product_id": 999_999}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (st, b) = refused(
            &app,
            &op,
            Method::POST,
            "/api/v1/quality-plans",
            Some(body.clone()),
        )
        .await;
        assert_eq!(st, status, "{body} -> {b}");
    }
    assert_eq!(table_json(&app, "quality_plans").await, plans_before);
    let plan = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/quality-plans",
        Some(json!({"code": "QP-BRACKET", "name": "Bracket", "product_id": product, "characteristics": [
            {"code": "WALL", "characteristic": "Wall thickness", "nominal": "2.0", "lower_limit": "1.8", "upper_limit": "2.2", "unit": "mm", "severity": "major", "routing_operation_id": print_step},
            {"code": "SURF", "characteristic": "Surface", "characteristic_type": "attribute", "acceptance_criteria": "No stringing", "severity": "minor"}
        ]})),
    )
    .await;
    let chars = plan["characteristics"].as_array().expect("chars").clone();
    assert_eq!(chars.len(), 2, "{plan}");
    assert_eq!(chars[0]["code"], "WALL");
    assert_eq!(chars[0]["sequence"], 0);
    assert_eq!(chars[1]["characteristic_type"], "attribute");
    let (wall, surf) = (chars[0]["id"].clone(), chars[1]["id"].clone());
    let active = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/quality-plans/active?product_id={product}"),
        None,
    )
    .await;
    assert_eq!(active["id"], plan["id"]);
    let none = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/quality-plans/active?product_id=999999",
        None,
    )
    .await;
    assert_eq!(none, Value::Null);
    let renamed = ok(
        &app,
        &op,
        Method::PATCH,
        &format!("/api/v1/quality-plans/{}", plan["id"]),
        Some(json!({"name": "Bracket v2", "revision": "2.0"})),
    )
    .await;
    assert_eq!(renamed["name"], "Bracket v2");
    assert_eq!(renamed["characteristics"].as_array().map(Vec::len), Some(2));
    let listed = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/quality-plans?product_id={product}"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));

    // Order A: the print step fails its in-process inspection (a layer shift).
    let (a, a_ops) = running(&app, &op, product, 4).await;
    let insp = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{a}/qc"),
        Some(json!({"result": "failed", "operation_id": a_ops[0], "defect_reason_id": layer_shift, "failure_reason": "shifted at 12 mm",
            "measurements": [{"characteristic": "Wall thickness", "quality_plan_characteristic_id": wall, "measured_value": "2.6", "lower_limit": "1.8", "upper_limit": "2.2", "unit": "mm"}]})),
    )
    .await;
    assert!(insp["inspection_id"].as_i64().is_some(), "{insp}");
    assert_eq!(insp["qc_status"], "not_required", "{insp}");
    // A defect reason with a pass, an operation of another order: refused.
    let (st, _) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{a}/qc"),
        Some(
            json!({"result": "passed", "operation_id": a_ops[0], "defect_reason_id": layer_shift}),
        ),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{a}/qc"),
        Some(json!({"result": "failed", "operation_id": 999_999})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);

    // Block: completing A is refused and nothing moves.
    let before = snapshot(&app).await;
    let (st, body) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{a}/complete"),
        Some(json!({"quantity_completed": "4"})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.starts_with("Quality gate: operation(s) PRINT failed")),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);

    // Warn: it completes, and the warning stays on the order's notes.
    policy(&app, &t, "full", "warn").await;
    let done = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{a}/complete"),
        Some(json!({"quantity_completed": "3", "quantity_scrapped": "1", "scrap_reason": "layer_shift"})),
    )
    .await;
    assert_eq!(done["status"], "complete");
    assert!(
        done["notes"]
            .as_str()
            .is_some_and(|n| n.contains("Quality gate")),
        "{done}"
    );
    // A pass with nothing measured is recorded, with the gate's warning.
    let pass = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{a}/qc"),
        Some(json!({"result": "passed"})),
    )
    .await;
    assert_eq!(pass["qc_status"], "passed");
    assert_eq!(
        pass["warnings"],
        json!(["Inspection does not satisfy plan QP-BRACKET: 2 unmeasured (WALL, SURF)"])
    );

    // Block again: order B's pass with the wall out of specification is refused, nothing
    // recorded; with every characteristic shown it passes.
    policy(&app, &t, "full", "block").await;
    let (b, _) = running(&app, &op, product, 2).await;
    ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{b}/complete"),
        Some(json!({"quantity_completed": "2"})),
    )
    .await;
    let before = snapshot(&app).await;
    let (st, body) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{b}/qc"),
        Some(json!({"result": "passed", "measurements": [
            {"characteristic": "Wall thickness", "quality_plan_characteristic_id": wall, "measured_value": "2.5"},
            {"characteristic": "Surface", "quality_plan_characteristic_id": surf, "conforms": true}
        ]})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["detail"],
        "Inspection does not satisfy plan QP-BRACKET: 1 out of spec/nonconforming (WALL)"
    );
    assert_eq!(snapshot(&app).await, before);
    let (st, _) = refused(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{b}/qc"),
        Some(json!({"result": "passed", "measurements": [{"characteristic": "Stray", "quality_plan_characteristic_id": 999_999, "measured_value": "1"}]})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let pass = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{b}/qc"),
        Some(json!({"result": "passed", "notes": "all good", "measurements": [
            {"characteristic": "Wall thickness", "quality_plan_characteristic_id": wall, "measured_value": "2.05", "lower_limit": "1.8", "upper_limit": "2.2", "unit": "mm"},
            {"characteristic": "Surface", "quality_plan_characteristic_id": surf, "conforms": true}
        ]})),
    )
    .await;
    assert_eq!(pass["warnings"], json!([]));
    assert_eq!(
        pass["message"],
        format!(
            "QC passed for production order {}",
            pass["production_order_code"].as_str().expect("code")
        )
    );

    // The history: oldest first, measurements with their plan codes and spec verdicts.
    let h = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{b}/qc-inspections"),
        None,
    )
    .await;
    assert_eq!(h["total"], 1);
    let m = &h["inspections"][0]["measurements"];
    assert_eq!(m[0]["characteristic_code"], "WALL");
    assert_eq!(m[0]["is_within_spec"], true);
    assert_eq!(m[1]["conforms"], true);
    assert_eq!(m[1]["is_within_spec"], Value::Null);
    let h = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/production-orders/{a}/qc-inspections"),
        None,
    )
    .await;
    assert_eq!(h["total"], 2);
    assert_eq!(h["inspections"][0]["result"], "failed");
    assert_eq!(h["inspections"][0]["production_operation_id"], a_ops[0]);
    assert_eq!(h["inspections"][0]["defect_reason_id"], layer_shift);
    assert_eq!(
        h["inspections"][0]["measurements"][0]["is_within_spec"],
        false
    );
    assert_eq!(
        h["inspections"][1]["gate_findings"],
        json!(["Inspection does not satisfy plan QP-BRACKET: 2 unmeasured (WALL, SURF)"])
    );

    // Append-only: the database refuses to change or delete an inspection.
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    for statement in [
        "UPDATE qc_inspections SET notes = 'rewritten'",
        "DELETE FROM qc_measurements",
        "DELETE FROM qc_inspections",
    ] {
        let e = client.batch_execute(statement).await.expect_err(statement);
        assert!(
            e.to_string().contains("append-only") || format!("{e:?}").contains("append-only"),
            "{e:?}"
        );
    }

    // The dashboard: A's first inspection failed, B's passed; A's scrapped unit cost its
    // share of WIP under its reason.
    let metrics = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/quality/metrics?days=30",
        None,
    )
    .await;
    assert_eq!(metrics["period_days"], 30);
    assert_eq!(metrics["total_inspections"], 2, "{metrics}");
    assert_eq!(metrics["passed"], 1);
    assert_eq!(metrics["failed"], 1);
    assert_eq!(metrics["first_pass_yield"], 50.0);
    assert_eq!(metrics["pending_inspections"], 0);
    assert_eq!(metrics["scrap_rate"], 16.7, "{metrics}");
    let (st, _) = refused(
        &app,
        &op,
        Method::GET,
        "/api/v1/quality/metrics?days=0",
        None,
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let scrap = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/quality/scrap-summary?days=30",
        None,
    )
    .await;
    assert_eq!(scrap[0]["reason_code"], "layer_shift", "{scrap}");
    assert_eq!(scrap[0]["count"], 1);
    assert_eq!(scrap[0]["total_quantity"], 1.0);
    assert!(scrap[0]["total_cost"].is_number());
    assert!((num(&scrap[0]["total_cost"]) - num(&metrics["total_scrapped_cost"])).abs() < 1e-9);
    let recent = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/quality/recent-inspections?limit=10",
        None,
    )
    .await;
    assert_eq!(recent.as_array().map(Vec::len), Some(2));
    assert_eq!(recent[0]["id"], b);
    let trend = ok(&app, &op, Method::GET, "/api/v1/quality/trend?days=7", None).await;
    assert_eq!(trend.as_array().map(Vec::len), Some(7));
    assert_eq!(trend[6]["inspections"], 3, "{trend}");
    assert_eq!(trend[6]["first_pass_yield"], 50.0);

    // The queue: a complete order waiting for QC, with its product.
    let (c, _) = running(&app, &op, product, 1).await;
    ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{c}/complete"),
        Some(json!({"quantity_completed": "1"})),
    )
    .await;
    let q = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/quality/inspection-queue?limit=10",
        None,
    )
    .await;
    assert_eq!(q["total"], 1);
    assert_eq!(q["items"][0]["id"], c);
    assert_eq!(q["items"][0]["product_sku"], "BRACKET");
    assert_eq!(q["items"][0]["qc_status"], "pending");

    // Deleting a plan deactivates it: no active plan is left, the plan is still there.
    let gone = ok(
        &app,
        &op,
        Method::DELETE,
        &format!("/api/v1/quality-plans/{}", plan["id"]),
        None,
    )
    .await;
    assert_eq!(gone["is_active"], false);
    assert_eq!(
        ok(
            &app,
            &op,
            Method::GET,
            &format!("/api/v1/quality-plans/active?product_id={product}"),
            None
        )
        .await,
        Value::Null
    );
    assert_eq!(
        sql(&app, "SELECT count(*) FROM quality_plan_characteristics").await,
        "2"
    );
}

#[tokio::test]
async fn inspection_photos_are_sniffed_images_and_quality_off_refuses_them() {
    let dir = std::env::temp_dir().join(format!("strata-qc-{}", uuid::Uuid::new_v4().simple()));
    let dir = dir.to_string_lossy().into_owned();
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header"), ("UPLOADS_DIR", &dir)]).await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let (product, _) = bracket(&app, &t).await;
    let (wo, ops) = running(&app, &op, product, 1).await;
    let insp = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo}/qc"),
        Some(json!({"result": "conditional", "operation_id": ops[0], "notes": "slight stringing accepted"})),
    )
    .await["inspection_id"]
        .as_i64()
        .expect("inspection");
    let base = format!("/api/v1/production-orders/qc-inspections/{insp}/photos");
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";

    // Not an image, or an image in disguise: refused, nothing stored.
    for (name, bytes) in [
        ("notes.txt", b"hello".as_slice()),
        ("fake.png", b"GIF89a not a png".as_slice()),
    ] {
        let res = upload(&app, &base, &op, name, bytes, &[]).await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{name}: {}",
            res.text()
        );
    }
    let res = upload(
        &app,
        &base,
        &op,
        "x.png",
        png,
        &[("caption", &"c".repeat(256))],
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert_eq!(sql(&app, "SELECT count(*) FROM qc_photos").await, "0");
    let res = upload(
        &app,
        "/api/v1/production-orders/qc-inspections/999999/photos",
        &op,
        "a.png",
        png,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);

    let res = upload(
        &app,
        &base,
        &op,
        "Layer.PNG",
        png,
        &[("caption", "first layer")],
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let photo = res.json();
    assert_eq!(photo["mime_type"], "image/png");
    assert_eq!(photo["caption"], "first layer");
    assert_eq!(photo["uploaded_by"], "op@example.com");
    assert_eq!(photo["storage_type"], "local");
    let name = photo["file_name"].as_str().expect("name");
    assert!(
        name.starts_with(&format!("qc{insp}_")) && name.ends_with(".png"),
        "{name}"
    );
    let id = photo["id"].as_i64().expect("id");
    let dl = call(
        &app,
        Method::GET,
        photo["download_url"].as_str().expect("url"),
        None,
        &op,
    )
    .await;
    assert_eq!(dl.status, StatusCode::OK);
    assert_eq!(dl.body, png);
    let changed = ok(
        &app,
        &op,
        Method::PATCH,
        &format!("{base}/{id}"),
        Some(json!({"caption": "first layer, close"})),
    )
    .await;
    assert_eq!(changed["caption"], "first layer, close");
    let list = ok(&app, &op, Method::GET, &base, None).await;
    assert_eq!(list.as_array().map(Vec::len), Some(1));

    // Quality off: photos are refused.
    exec(&app, "UPDATE company_settings SET quality_mode = 'off'").await;
    let (st, body) = refused(&app, &op, Method::GET, &base, None).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    assert_eq!(
        body["detail"],
        "Quality module is disabled (quality_mode=off)"
    );
    exec(&app, "UPDATE company_settings SET quality_mode = 'basic'").await;

    let del = ok(&app, &op, Method::DELETE, &format!("{base}/{id}"), None).await;
    assert_eq!(del, json!({"message": "Photo deleted", "id": id}));
    let (st, _) = refused(
        &app,
        &op,
        Method::GET,
        &format!("{base}/{id}/download"),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_page_of_orders_with_operations_materials_and_inspections_reads_in_flat_statements() {
    use std::sync::atomic::Ordering;
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let (product, print_step) = bracket(&app, &t).await;
    let clip = item("CLIP")
        .kind("component")
        .unit("EA")
        .create(&app, &t)
        .await;
    crate::common::books::receive(&app, &t, clip, "500", "0.10").await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/routings/operations/{print_step}/materials"),
        Some(json!({"component_id": clip, "quantity": 1})),
    )
    .await;
    for i in 0..50 {
        let (wo, ops) = running(&app, &t, product, 1).await;
        if i % 2 == 0 {
            ok(
                &app,
                &t,
                Method::POST,
                &format!("/api/v1/production-orders/{wo}/qc"),
                Some(json!({"result": "failed", "operation_id": ops[0], "measurements": [
                    {"characteristic": "Wall", "measured_value": "2.4", "lower_limit": "1.8", "upper_limit": "2.2"},
                    {"characteristic": "Surface", "conforms": false}
                ]})),
            )
            .await;
        }
    }
    let query = "query($n: Int) { productionOrders(first: $n) { nodes { code productSku \
        inspections { result measurements { characteristic isWithinSpec } } \
        operations { operationCode inspections { result measurements { measuredValue } } } \
        materials { componentSku quantityRequired } } } }";
    crate::common::api::gql(&app, &t, query, json!({"n": 1})).await;
    let mut counts = Vec::new();
    for n in [10, 50] {
        let before = counter.load(Ordering::SeqCst);
        let res = crate::common::api::gql(&app, &t, query, json!({"n": n})).await;
        assert!(res["errors"].is_null(), "{res}");
        let nodes = res["data"]["productionOrders"]["nodes"]
            .as_array()
            .expect("nodes");
        assert_eq!(nodes.len(), n as usize);
        if n == 50 {
            let inspected = nodes
                .iter()
                .filter(|o| o["inspections"].as_array().is_some_and(|i| !i.is_empty()))
                .count();
            assert_eq!(inspected, 25);
            let with_measurements = nodes
                .iter()
                .flat_map(|o| o["operations"].as_array().cloned().unwrap_or_default())
                .flat_map(|op| op["inspections"].as_array().cloned().unwrap_or_default())
                .filter(|i| i["measurements"].as_array().map(Vec::len) == Some(2))
                .count();
            assert_eq!(with_measurements, 25);
            assert!(
                nodes
                    .iter()
                    .all(|o| o["materials"].as_array().map(Vec::len) == Some(1))
            );
        }
        counts.push(counter.load(Ordering::SeqCst) - before);
    }
    // Flat: one statement per kind (orders, operations, materials, inspections,
    // measurements, item facts), whatever the page size; a loader batch may split in two on
    // a busy machine.
    assert!(
        counts[1] <= counts[0] + 2,
        "statements for 1 and 50 orders: {counts:?}"
    );
}
