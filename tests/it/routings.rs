//! Routings in depth (issue 33) through FilaOps's paths and body keys: operation types
//! (system and custom, locked fields, deactivation), steps as resources (type implied by the
//! code, code and name from the type), step materials (409 on a second line of one
//! component), the manufacturing BOM's costs, templates seeded and applied with a slicer
//! time, refusals that leave the tables as they were, and a released order whose operations
//! carry their steps' materials, issued when each operation starts.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, operator, table_json};
use crate::common::books::{balanced, num, receive, stock};

async fn wc(app: &TestApp, t: &str, code: &str, rate: &str) -> i64 {
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": code, "name": code, "center_type": "other", "hourly_rate": rate})),
    )
    .await["id"]
        .as_i64()
        .expect("wc")
}

fn status_of(app_res: &crate::common::TestResponse) -> (StatusCode, Value) {
    (app_res.status, app_res.json())
}

#[tokio::test]
async fn operation_types_are_seeded_and_admins_add_and_lock_them() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let types = ok(&app, &op, Method::GET, "/api/v1/operation-types", None).await;
    let codes: Vec<&str> = types
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|t| t["code"].as_str())
        .collect();
    assert_eq!(
        codes,
        [
            "FDM_PRINT",
            "RESIN_PRINT",
            "ASSEMBLY",
            "QUALITY_CONTROL",
            "SUPPORT_REMOVAL",
            "SANDING",
            "PAINTING",
            "PACK_SHIP",
            "GENERAL"
        ]
    );
    let qc = &types[3];
    assert_eq!(qc["is_qc"], true);
    assert_eq!(qc["is_system"], true);
    assert_eq!(qc["category"], "quality");
    assert_eq!(qc["consume_stages"], json!(["any"]));

    // Operators cannot change the catalogue.
    let before = table_json(&app, "operation_types").await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/operation-types",
        Some(json!({"code": "anneal", "label": "Anneal", "consume_stages": ["finishing"]})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    // Bad input: no stages, a stage that does not exist, a code with spaces.
    for body in [
        json!({"code": "anneal", "label": "Anneal", "consume_stages": []}),
        json!({"code": "anneal", "label": "Anneal", "consume_stages": ["oven"]}),
        json!({"code": "an neal", "label": "Anneal", "consume_stages": ["any"]}),
        json!({"label": "Anneal", "consume_stages": ["any"]}),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/admin/operation-types",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            res.text()
        );
    }
    assert_eq!(table_json(&app, "operation_types").await, before);

    let made = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/operation-types",
        Some(json!({"code": "anneal", "label": "Anneal", "category": "finishing", "consume_stages": ["finishing", "any"], "sort_order": 55})),
    )
    .await;
    assert_eq!(made["code"], "ANNEAL");
    assert_eq!(made["is_system"], false);
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/operation-types",
        Some(json!({"code": "ANNEAL", "label": "Again", "consume_stages": ["any"]})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(res.text().contains("already exists"), "{}", res.text());

    // System types keep their stages and QC flag; their label may change.
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/admin/operation-types/fdm_print",
        Some(json!({"consume_stages": ["shipping"]})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(res.text().contains("locked"), "{}", res.text());
    let renamed = ok(
        &app,
        &t,
        Method::PUT,
        "/api/v1/admin/operation-types/FDM_PRINT",
        Some(json!({"label": "FDM print", "consume_stages": ["production", "any"]})),
    )
    .await;
    assert_eq!(renamed["label"], "FDM print");
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/admin/operation-types/NOPE",
        Some(json!({"label": "x"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);

    // Odd input is a 4xx, never a server error.
    for body in [
        json!({"default_work_center_id": 999999}),
        json!({"consume_stages": ["any", "any"]}),
        json!({"label": ""}),
        json!({"category": null, "description": null}),
        json!({"sort_order": 2147483647}),
        json!({"description": "a\u{0}b"}),
        json!({"consume_stages": []}),
        json!({"is_qc": false, "consume_stages": ["any"]}),
        json!({"code": "OTHER"}),
    ] {
        let res = call(
            &app,
            Method::PUT,
            "/api/v1/admin/operation-types/QUALITY_CONTROL",
            Some(body.clone()),
            &t,
        )
        .await;
        assert!(
            !res.status.is_server_error(),
            "{body}: {} {}",
            res.status,
            res.text()
        );
    }

    // Deactivated: gone from the list, refused on new steps.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/operation-types/ANNEAL/deactivate",
        None,
    )
    .await;
    let types = ok(&app, &op, Method::GET, "/api/v1/operation-types", None).await;
    assert!(!types.to_string().contains("ANNEAL"));
    let oven = wc(&app, &t, "OVEN", "10").await;
    let widget = item("W-1").kind("finished_good").create(&app, &t).await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": widget, "operations": [
            {"work_center_id": oven, "sequence": 1, "operation_type": "anneal", "operation_code": "ANN", "run_time_minutes": 5}
        ]})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(
        res.text().contains("Unknown operation_type 'ANNEAL'"),
        "{}",
        res.text()
    );
}

#[tokio::test]
async fn steps_and_their_materials_are_resources_with_costs() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let fdm = wc(&app, &t, "FDM-POOL", "6").await;
    let qc = wc(&app, &t, "QC", "30").await;
    let pla = item("PLA-RED")
        .kind("material")
        .unit("KG")
        .create(&app, &t)
        .await;
    receive(&app, &t, pla, "2", "20").await;
    let bag = item("BAG").kind("supply").unit("EA").create(&app, &t).await;
    receive(&app, &t, bag, "100", "0.10").await;
    let widget = item("GADGET").kind("finished_good").create(&app, &t).await;

    // FilaOps's editor: a routing with one step, FilaOps's keys, no type (PRINT implies one).
    let routing = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": widget, "version": 1, "revision": "1.0", "is_active": true, "operations": [
            {"work_center_id": fdm, "sequence": 1, "operation_code": "print", "operation_name": "Print body",
             "setup_time_minutes": 10, "run_time_minutes": 50, "wait_time_minutes": 5, "move_time_minutes": 0,
             "units_per_cycle": 1, "scrap_rate_percent": 0, "is_active": true}
        ]})),
    )
    .await;
    let rid = routing["id"].as_i64().expect("routing");
    let print = &routing["operations"][0];
    assert_eq!(print["operation_type"], "FDM_PRINT", "{routing}");
    assert_eq!(print["operation_code"], "PRINT");
    assert_eq!(num(&print["setup_time_minutes"]), 10.0);
    assert_eq!(num(&print["total_time_minutes"]), 65.0);
    // (10 + 50) minutes at 6 an hour.
    assert_eq!(num(&print["calculated_cost"]), 6.0);
    assert_eq!(print["work_center_code"], "FDM-POOL");
    let print_id = print["id"].as_i64().expect("step");

    // A second step added on its own: only a type; code, name come from it.
    let inspect = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/routings/{rid}/operations"),
        Some(json!({"work_center_id": qc, "operation_type": "QUALITY_CONTROL", "operation_code": "", "operation_name": "", "run_time_minutes": 2})),
    )
    .await;
    assert_eq!(inspect["operation_code"], "QC", "{inspect}");
    assert_eq!(inspect["operation_name"], "Quality Control");
    assert_eq!(
        inspect["sequence"], 10,
        "after the first (sequence 1), the next ten"
    );
    let inspect_id = inspect["id"].as_i64().expect("step");

    // Materials: 25 g of PLA per unit (stocked in kg at 20/kg) with 10 % scrap, a bag per order.
    let line = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/routings/operations/{print_id}/materials"),
        Some(json!({"component_id": pla, "quantity": 25, "quantity_per": "unit", "unit": "g", "scrap_factor": 10, "is_cost_only": false, "is_optional": false, "is_variable": true, "notes": null})),
    )
    .await;
    assert_eq!(line["unit"], "G");
    assert_eq!(line["component_sku"], "PLA-RED");
    assert!((num(&line["unit_cost"]) - 0.02).abs() < 1e-9, "{line}");
    assert!((num(&line["extended_cost"]) - 0.55).abs() < 1e-9, "{line}");
    let before = table_json(&app, "routing_operation_materials").await;
    let (status, body) = status_of(
        &call(
            &app,
            Method::POST,
            &format!("/api/v1/routings/operations/{print_id}/materials"),
            Some(json!({"component_id": pla, "quantity": 1})),
            &op,
        )
        .await,
    );
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    for (path, body, want) in [
        (
            format!("/api/v1/routings/operations/{print_id}/materials"),
            json!({"component_id": pla}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/routings/operations/{print_id}/materials"),
            json!({"component_id": bag, "quantity": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/routings/operations/{print_id}/materials"),
            json!({"component_id": bag, "quantity": 1, "scrap_factor": 101}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/v1/routings/operations/{print_id}/materials"),
            json!({"component_id": 999999, "quantity": 1}),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/v1/routings/operations/999999/materials".to_string(),
            json!({"component_id": bag, "quantity": 1}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = call(&app, Method::POST, &path, Some(body.clone()), &op).await;
        assert_eq!(res.status, want, "{path} {body}: {}", res.text());
    }
    assert_eq!(
        table_json(&app, "routing_operation_materials").await,
        before
    );
    let bag_line = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/routings/operations/{inspect_id}/materials"),
        Some(json!({"component_id": bag, "quantity": 1, "quantity_per": "order"})),
    )
    .await;
    let bag_line = bag_line["id"].as_i64().expect("line");
    let unchanged = call(
        &app,
        Method::PUT,
        &format!("/api/v1/routings/materials/{bag_line}"),
        Some(json!({})),
        &op,
    )
    .await;
    assert_eq!(unchanged.status, StatusCode::OK, "{}", unchanged.text());
    let changed = ok(
        &app,
        &op,
        Method::PUT,
        &format!("/api/v1/routings/materials/{bag_line}"),
        Some(json!({"quantity": 2})),
    )
    .await;
    assert_eq!(num(&changed["quantity"]), 2.0);
    let listed = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/operations/{inspect_id}/materials"),
        None,
    )
    .await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));

    // The manufacturing BOM: steps with their materials and costs.
    let mbom = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/manufacturing-bom/{widget}"),
        None,
    )
    .await;
    assert_eq!(mbom["routing_id"], rid, "{mbom}");
    assert_eq!(mbom["product_sku"], "GADGET");
    assert_eq!(
        mbom["operations"][0]["materials"][0]["component_sku"],
        "PLA-RED"
    );
    assert!((num(&mbom["operations"][0]["material_cost"]) - 0.55).abs() < 1e-9);
    // Labour 6 + (0 + 2) min at 30/h = 1; materials 0.55 + 2 bags at 0.10.
    assert!(
        (num(&mbom["total_labor_cost"]) - 7.0).abs() < 1e-9,
        "{mbom}"
    );
    assert!(
        (num(&mbom["total_material_cost"]) - 0.75).abs() < 1e-9,
        "{mbom}"
    );
    assert!((num(&mbom["total_cost"]) - 7.75).abs() < 1e-9, "{mbom}");
    let res = call(
        &app,
        Method::GET,
        "/api/v1/routings/manufacturing-bom/999999",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    // The routing's totals count per-unit materials only (the bag is per order).
    let got = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/product/{widget}"),
        None,
    )
    .await;
    assert_eq!(got["operation_count"], 2);
    assert!((num(&got["total_cost"]) - 7.55).abs() < 1e-9, "{got}");
    assert_eq!(num(&got["total_run_time_minutes"]), 57.0);

    // A released order carries each step's materials on its operation; the bag leaves
    // stock when the inspection starts, not when printing does.
    let wo = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": widget, "quantity_ordered": 4})),
    )
    .await;
    let wo_id = wo["id"].as_i64().expect("wo");
    let released = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/production-orders/{wo_id}/release"),
        None,
    )
    .await;
    let ops = released["operations"].as_array().expect("ops").clone();
    assert_eq!(ops.len(), 2, "{released}");
    let pla_line = &ops[0]["materials"][0];
    assert_eq!(pla_line["component_id"], pla, "{released}");
    // 4 x 25 g x 1.1 = 110 g = 0.11 kg.
    assert!(
        (num(&pla_line["quantity_required"]) - 0.11).abs() < 1e-9,
        "{released}"
    );
    assert_eq!(ops[1]["materials"][0]["component_id"], bag);
    assert_eq!(num(&ops[1]["materials"][0]["quantity_required"]), 2.0);
    let op_ids: Vec<i64> = ops.iter().map(|o| o["id"].as_i64().expect("op")).collect();
    ok(
        &app,
        &op,
        Method::POST,
        &format!(
            "/api/v1/production-orders/{wo_id}/operations/{}/start",
            op_ids[0]
        ),
        Some(json!({})),
    )
    .await;
    assert_eq!(
        stock(&app, bag).await.0,
        100.0,
        "the bag waits for its step"
    );
    ok(
        &app,
        &op,
        Method::POST,
        &format!(
            "/api/v1/production-orders/{wo_id}/operations/{}/complete",
            op_ids[0]
        ),
        Some(json!({"quantity_completed": 4})),
    )
    .await;
    ok(
        &app,
        &op,
        Method::POST,
        &format!(
            "/api/v1/production-orders/{wo_id}/operations/{}/start",
            op_ids[1]
        ),
        Some(json!({})),
    )
    .await;
    assert_eq!(stock(&app, bag).await.0, 98.0);
    balanced(&app, &t).await;

    // Deleting a step deactivates it; a routing delete deactivates the routing.
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/routings/operations/{inspect_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    let steps = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/{rid}/operations"),
        None,
    )
    .await;
    assert_eq!(steps.as_array().map(Vec::len), Some(1));
    let all = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/{rid}/operations?active_only=false"),
        None,
    )
    .await;
    assert_eq!(all.as_array().map(Vec::len), Some(2));
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/routings/materials/{bag_line}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/routings/{rid}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/routings/product/{widget}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    // A step update with an unknown type changes nothing.
    let before = table_json(&app, "routing_operations").await;
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/routings/operations/{print_id}"),
        Some(json!({"operation_type": "WELDING", "run_time_minutes": 1})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/routings/operations/{print_id}"),
        Some(json!({"run_time_minutes": -1})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(table_json(&app, "routing_operations").await, before);
    // An explicit null clears the type.
    let cleared = ok(
        &app,
        &op,
        Method::PUT,
        &format!("/api/v1/routings/operations/{print_id}"),
        Some(json!({"operation_type": null, "operation_code": "EXTRA"})),
    )
    .await;
    assert_eq!(cleared["operation_type"], Value::Null, "{cleared}");
}

#[tokio::test]
async fn templates_are_seeded_once_and_applied_with_a_slicer_time() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    // Without the work centers the seed says which are missing.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/routings/seed-templates",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.text().contains("FDM-POOL, QC, ASSEMBLY, SHIPPING"),
        "{}",
        res.text()
    );
    for code in ["FDM-POOL", "QC", "ASSEMBLY", "SHIPPING"] {
        wc(&app, &t, code, "12").await;
    }
    let seeded = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/routings/seed-templates",
        None,
    )
    .await;
    assert_eq!(
        seeded["created"],
        json!(["TPL-STANDARD", "TPL-ASSEMBLY"]),
        "{seeded}"
    );
    let again = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/routings/seed-templates",
        None,
    )
    .await;
    assert_eq!(again["created"], json!([]));
    assert_eq!(again["skipped"], json!(["TPL-STANDARD", "TPL-ASSEMBLY"]));
    let templates = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/routings?templates_only=true&active_only=true",
        None,
    )
    .await;
    let list = templates.as_array().expect("templates");
    assert_eq!(list.len(), 2, "{templates}");
    let standard = list
        .iter()
        .find(|r| r["code"] == "TPL-STANDARD")
        .expect("standard");
    assert_eq!(standard["operation_count"], 4);
    assert_eq!(standard["is_template"], true);
    assert_eq!(standard["product_id"], Value::Null);

    let widget = item("ORNAMENT")
        .kind("finished_good")
        .create(&app, &t)
        .await;
    let before = table_json(&app, "routings").await;
    for (body, want) in [
        (
            json!({"template_id": 999999, "product_id": widget}),
            StatusCode::NOT_FOUND,
        ),
        (
            json!({"template_id": standard["id"], "product_id": 999999}),
            StatusCode::NOT_FOUND,
        ),
        (
            json!({"product_id": widget}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/routings/apply-template",
            Some(body.clone()),
            &op,
        )
        .await;
        assert_eq!(res.status, want, "{body}: {}", res.text());
    }
    assert_eq!(table_json(&app, "routings").await, before);
    let applied = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/routings/apply-template",
        Some(json!({"template_id": standard["id"], "product_id": widget, "overrides": [{"operation_code": "PRINT", "run_time_minutes": 95}]})),
    )
    .await;
    assert_eq!(
        applied["message"], "Created routing for ORNAMENT",
        "{applied}"
    );
    assert_eq!(applied["product_sku"], "ORNAMENT");
    let ops = applied["operations"].as_array().expect("ops");
    assert_eq!(ops.len(), 4);
    assert_eq!(num(&ops[0]["run_time_minutes"]), 95.0);
    assert_eq!(ops[0]["runtime_source"], "slicer");
    assert_eq!(
        num(&applied["total_run_time_minutes"]),
        95.0 + 2.0 + 2.0 + 3.0
    );
    // Applying again reuses the routing, its old steps deactivated.
    let again = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/routings/apply-template",
        Some(json!({"template_id": standard["id"], "product_id": widget})),
    )
    .await;
    assert_eq!(again["message"], "Updated routing for ORNAMENT");
    assert_eq!(again["routing_id"], applied["routing_id"]);
    let routing = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/product/{widget}"),
        None,
    )
    .await;
    assert_eq!(routing["operation_count"], 4, "{routing}");
    assert_eq!(num(&routing["operations"][0]["run_time_minutes"]), 60.0);
    // A template needs a code and a name; a product routing needs a product.
    for body in [
        json!({"is_template": true, "name": "No code"}),
        json!({"is_template": false}),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/routings/",
            Some(body.clone()),
            &op,
        )
        .await;
        assert!(res.status.is_client_error(), "{body}: {}", res.text());
    }
}

#[tokio::test]
async fn untyped_steps_are_audited_and_classified_by_name_where_still_untyped() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let bench = wc(&app, &t, "BENCH", "10").await;
    let product = item("LAMP")
        .kind("finished_good")
        .unit("EA")
        .create(&app, &t)
        .await;
    let glue = item("GLUE")
        .kind("supply")
        .unit("EA")
        .create(&app, &t)
        .await;
    let routing = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": product, "operations": [
            {"operation_code": "FINISH", "operation_name": "Paint finish", "work_center_id": bench},
            {"operation_code": "POST", "operation_name": "Sanding", "work_center_id": bench},
            {"operation_code": "MISC", "operation_name": "Anneal", "work_center_id": bench}
        ]})),
    )
    .await;
    let steps = routing["operations"].as_array().expect("steps").clone();
    assert!(
        steps.iter().all(|s| s["operation_type"].is_null()),
        "{routing}"
    );
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/routings/operations/{}/materials", steps[1]["id"]),
        Some(json!({"component_id": glue, "quantity": 1})),
    )
    .await;

    let audit = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/admin/operation-types/audit",
        None,
    )
    .await;
    assert_eq!(audit["total_pairs"], 3, "{audit}");
    let row = |code: &str| {
        audit["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["operation_code"] == code)
            .cloned()
            .expect("row")
    };
    assert_eq!(row("FINISH")["proposed_type"], "PAINTING");
    assert_eq!(row("FINISH")["match_source"], "default");
    assert_eq!(row("POST")["proposed_type"], Value::Null);
    assert_eq!(row("POST")["material_bearing"], true);
    assert_eq!(
        row("MISC")["classification_reason"],
        "no rule matched — blank or unrecognized name"
    );

    let before = table_json(&app, "routing_operations").await;
    let dry = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/admin/operation-types/classify",
        Some(json!({})),
    )
    .await;
    assert_eq!(dry["dry_run"], true);
    assert_eq!(dry["applied_count"], 0);
    assert_eq!(dry["skipped_manual_decision_count"], 1);
    assert_eq!(dry["skipped_no_match_count"], 1);
    assert_eq!(dry["proposals"].as_array().map(Vec::len), Some(3));
    assert_eq!(table_json(&app, "routing_operations").await, before);
    let done = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/admin/operation-types/classify",
        Some(json!({"dry_run": false})),
    )
    .await;
    assert_eq!(done["applied_count"], 1, "{done}");
    assert!(done["applied_by"].as_i64().is_some());
    let step = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/routings/{}", routing["id"]),
        None,
    )
    .await;
    assert_eq!(
        step["operations"][0]["operation_type"], "PAINTING",
        "{step}"
    );
    let again = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/admin/operation-types/classify",
        Some(json!({"dry_run": false})),
    )
    .await;
    assert_eq!(again["applied_count"], 0);
    assert_eq!(again["proposals"].as_array().map(Vec::len), Some(2));
}
