//! Item variants (issue 33) through FilaOps's paths: the matrix of a template's variable
//! material, a 4 x 6 matrix made in one transaction (a failure in the 24th leaves nothing),
//! each variant's BOM and routing with the variable material swapped, existing variants
//! skipped, the routing sync previewed then applied, deleting a variant, and an order's
//! material swapped for a variant with its reservation.

use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;
use crate::common::api::{admin, app, item, ok, refused, table_json};
use crate::common::books::{exec, receive, sql};

const TYPES: [&str; 4] = ["PLA", "PETG", "ABS", "ASA"];
const COLORS: [&str; 6] = ["BLACK", "WHITE", "RED", "BLUE", "GREEN", "GREY"];

async fn id_of(app: &TestApp, query: &str) -> i64 {
    sql(app, query).await.parse().expect("id")
}

async fn snapshot(app: &TestApp) -> Vec<String> {
    let mut all = Vec::new();
    for table in [
        "items",
        "boms",
        "bom_lines",
        "routings",
        "routing_operations",
        "routing_operation_materials",
    ] {
        all.push(table_json(app, table).await);
    }
    all
}

#[tokio::test]
async fn a_four_by_six_matrix_is_one_transaction_with_each_variant_its_own_bom_and_routing() {
    let app = app().await;
    let t = admin(&app).await;
    let mut values = Vec::new();
    for (i, ty) in TYPES.iter().enumerate() {
        values.push(format!("('{ty}', '{ty} {}')", i + 1));
    }
    exec(
        &app,
        &format!(
            "INSERT INTO material_types (code, name) VALUES {};",
            values.join(", ")
        ),
    )
    .await;
    for c in COLORS {
        exec(
            &app,
            &format!("INSERT INTO colors (code, name, hex_code) VALUES ('{c}', '{c}', '#123456');"),
        )
        .await;
    }
    // One material item per type and colour (the items the variants swap in).
    for ty in TYPES {
        for c in COLORS {
            ok(
                &app,
                &t,
                Method::POST,
                "/api/v1/items/material",
                Some(json!({"material_type_code": ty, "color_code": c, "cost_per_kg": "20"})),
            )
            .await;
        }
    }
    let material = |ty: &str, c: &str| {
        format!(
            "SELECT mc.item_id FROM material_colors mc JOIN material_types t ON t.id = mc.material_type_id \
             JOIN colors c ON c.id = mc.color_id WHERE t.code = '{ty}' AND c.code = '{c}'"
        )
    };
    let pla_black = id_of(&app, &material("PLA", "BLACK")).await;
    let box_item = item("BOX")
        .kind("packaging")
        .unit("EA")
        .create(&app, &t)
        .await;
    receive(&app, &t, box_item, "10", "0.40").await;

    // The template: 50 g of PLA black (variable) printed, then boxed.
    let toy = item("TOY")
        .kind("finished_good")
        .unit("EA")
        .create(&app, &t)
        .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": toy, "lines": [{"component_id": pla_black, "quantity": "50", "unit": "G"}, {"component_id": box_item, "quantity": "1"}]})),
    )
    .await;
    let pool = ok(&app, &t, Method::POST, "/api/v1/work-centers/", Some(json!({"code": "POOL", "name": "Pool", "center_type": "printer_pool", "hourly_rate": "6"}))).await;
    let pack = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(
            json!({"code": "PACK", "name": "Pack", "center_type": "packing", "hourly_rate": "20"}),
        ),
    )
    .await;
    let routing = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": toy, "operations": [
            {"operation_code": "PRINT", "work_center_id": pool["id"], "run_time_minutes": 30},
            {"operation_code": "PACK", "work_center_id": pack["id"], "run_time_minutes": 2}
        ]})),
    )
    .await;
    let print = routing["operations"][0]["id"].as_i64().expect("print");
    let packing = routing["operations"][1]["id"].as_i64().expect("pack");
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/routings/operations/{print}/materials"),
        Some(json!({"component_id": pla_black, "quantity": 50, "unit": "G", "is_variable": true})),
    )
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/routings/operations/{packing}/materials"),
        Some(json!({"component_id": box_item, "quantity": 1})),
    )
    .await;

    // The matrix: PLA's six colours, none made yet.
    let m = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/items/{toy}/variant-matrix"),
        None,
    )
    .await;
    assert_eq!(m["template"]["variable_material_ids"], json!([pla_black]));
    assert_eq!(m["template"]["is_template"], false);
    let combos = m["available_combos"].as_array().expect("combos");
    assert_eq!(combos.len(), 6, "{m}");
    assert!(combos.iter().all(|c| c["material_type_code"] == "PLA"
        && c["already_exists"] == false
        && c["has_material"] == true));
    assert_eq!(m["variants"], json!([]));

    let type_id = |ty: &str| format!("SELECT id FROM material_types WHERE code = '{ty}'");
    let color_id = |c: &str| format!("SELECT id FROM colors WHERE code = '{c}'");
    let mut selections = Vec::new();
    for ty in TYPES {
        for c in COLORS {
            selections.push(json!({"material_type_id": id_of(&app, &type_id(ty)).await, "color_id": id_of(&app, &color_id(c)).await}));
        }
    }
    assert_eq!(selections.len(), 24);

    // A gold ASA without a material item: the 24th selection fails and nothing is made.
    exec(
        &app,
        "INSERT INTO colors (code, name) VALUES ('GOLD', 'Gold'); \
         INSERT INTO material_colors (material_type_id, color_id) \
         SELECT t.id, c.id FROM material_types t, colors c WHERE t.code = 'ASA' AND c.code = 'GOLD';",
    )
    .await;
    let mut bad = selections[..23].to_vec();
    bad.push(json!({"material_type_id": id_of(&app, &type_id("ASA")).await, "color_id": id_of(&app, &color_id("GOLD")).await}));
    let before = snapshot(&app).await;
    let (st, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/bulk"),
        Some(json!({"selections": bad})),
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{body}");
    assert!(
        body.to_string().contains("No active product found"),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);
    let (st, _) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/bulk"),
        Some(json!({"selections": []})),
    )
    .await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
    let (st, _) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/items/999999/variants/bulk",
        Some(json!({"selections": [selections[0].clone()]})),
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(snapshot(&app).await, before);

    // The whole 4 x 6 matrix in one request.
    let made = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/bulk"),
        Some(json!({"selections": selections})),
    )
    .await;
    let made = made.as_array().expect("made");
    assert_eq!(made.len(), 24);
    assert!(
        made.iter()
            .all(|v| v["status"] == "created" && v["parent_product_id"] == toy)
    );
    assert_eq!(made[0]["sku"], "TOY-PLA-BLACK");
    assert_eq!(
        sql(
            &app,
            &format!("SELECT count(*) FROM items WHERE parent_product_id = {toy}")
        )
        .await,
        "24"
    );
    assert_eq!(
        sql(
            &app,
            &format!("SELECT is_template FROM items WHERE id = {toy}")
        )
        .await,
        "true"
    );

    // TOY-ABS-RED: its BOM and its print step use ABS red, the box stays.
    let abs_red = id_of(&app, &material("ABS", "RED")).await;
    let variant = id_of(&app, "SELECT id FROM items WHERE sku = 'TOY-ABS-RED'").await;
    assert_eq!(
        sql(&app, &format!("SELECT string_agg(l.component_id::text, ',' ORDER BY l.sequence, l.id) FROM bom_lines l JOIN boms b ON b.id = l.bom_id WHERE b.product_id = {variant} AND b.active")).await,
        format!("{abs_red},{box_item}")
    );
    let mbom = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/routings/manufacturing-bom/{variant}"),
        None,
    )
    .await;
    let ops = mbom["operations"].as_array().expect("ops");
    assert_eq!(ops.len(), 2, "{mbom}");
    assert_eq!(ops[0]["materials"][0]["component_id"], abs_red);
    assert_eq!(ops[0]["materials"][0]["is_variable"], true);
    assert_eq!(ops[1]["materials"][0]["component_id"], box_item);

    // Again: existing ones are skipped; one alone is a conflict.
    let again = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/bulk"),
        Some(json!({"selections": [selections[0].clone()]})),
    )
    .await;
    assert_eq!(again[0]["status"], "skipped");
    assert!(
        again[0]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("Variant with SKU TOY-PLA-BLACK already exists"))
    );
    let (st, _) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants"),
        Some(selections[0].clone()),
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);

    let list = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/items/{toy}/variants"),
        None,
    )
    .await;
    let list = list.as_array().expect("list");
    assert_eq!(list.len(), 24);
    assert_eq!(list[0]["sku"], "TOY-ABS-BLACK");
    assert_eq!(list[0]["material_type_code"], "ABS");
    assert_eq!(list[0]["color_hex"], "#123456");
    assert_eq!(list[0]["on_hand_qty"], 0.0);
    let m = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/items/{toy}/variant-matrix"),
        None,
    )
    .await;
    assert!(
        m["available_combos"]
            .as_array()
            .expect("combos")
            .iter()
            .all(|c| c["already_exists"] == true)
    );

    // The template's print gets slower: the preview names the change for every variant,
    // the sync applies it, and a second preview finds nothing left.
    ok(
        &app,
        &t,
        Method::PUT,
        &format!("/api/v1/routings/operations/{print}"),
        Some(json!({"run_time_minutes": 45})),
    )
    .await;
    let preview = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/sync-routing?dry_run=true"),
        None,
    )
    .await;
    assert_eq!(preview["dry_run"], true);
    assert_eq!(preview["synced"], 0);
    assert_eq!(preview["total"], 24);
    let changes = &preview["variants"][0]["changes"];
    assert_eq!(changes.as_array().map(Vec::len), Some(1), "{preview}");
    assert!(
        changes[0]
            .as_str()
            .is_some_and(|c| c.contains("run 30 min becomes") && c.ends_with("run 45 min")),
        "{changes}"
    );
    let before_sync = sql(&app, &format!("SELECT run_minutes FROM routing_operations o JOIN routings r ON r.id = o.routing_id WHERE r.product_id = {variant} AND o.is_active AND o.operation_code = 'PRINT'")).await;
    assert_eq!(before_sync, "30.00");
    let synced = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/sync-routing"),
        None,
    )
    .await;
    assert_eq!(synced["synced"], 24, "{synced}");
    assert_eq!(synced["errors"], json!([]));
    let mbom = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/routings/manufacturing-bom/{variant}"),
        None,
    )
    .await;
    assert_eq!(
        mbom["operations"][0]["materials"][0]["component_id"], abs_red,
        "{mbom}"
    );
    let quiet = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{toy}/variants/sync-routing?dry_run=true"),
        None,
    )
    .await;
    assert!(
        quiet["variants"]
            .as_array()
            .expect("v")
            .iter()
            .all(|v| v["changes"] == json!([])),
        "{quiet}"
    );

    // Deleting: a variant of another item, or a plain item, is refused.
    let (st, _) = refused(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/items/{box_item}/variants/{variant}"),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _) = refused(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/items/{toy}/variants/{box_item}"),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let gone = ok(
        &app,
        &t,
        Method::DELETE,
        &format!("/api/v1/items/{toy}/variants/{variant}"),
        None,
    )
    .await;
    assert_eq!(
        gone,
        json!({"id": variant, "sku": "TOY-ABS-RED", "status": "deleted", "remaining_variants": 23})
    );
    assert_eq!(
        sql(
            &app,
            &format!("SELECT count(*) FROM routings WHERE product_id = {variant}")
        )
        .await,
        "0"
    );

    // An order for a kit made of the template: its material is swapped for a variant.
    let kit = item("KIT")
        .kind("finished_good")
        .unit("EA")
        .create(&app, &t)
        .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": kit, "lines": [{"component_id": toy, "quantity": "1"}]})),
    )
    .await;
    let wo = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": kit, "quantity_ordered": 2})),
    )
    .await;
    let wo_id = wo["id"].as_i64().expect("wo");
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/production-orders/{wo_id}/release"),
        None,
    )
    .await;
    let mat = id_of(
        &app,
        &format!("SELECT id FROM production_order_materials WHERE production_order_id = {wo_id}"),
    )
    .await;
    let pla_red = id_of(&app, "SELECT id FROM items WHERE sku = 'TOY-PLA-RED'").await;
    receive(&app, &t, pla_red, "5", "3.00").await;
    let path = format!("/api/v1/production-orders/{wo_id}/materials/{mat}/component");
    let (st, _) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"new_component_id": box_item})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let swapped = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"new_component_id": pla_red, "reason": "the template has no stock"})),
    )
    .await;
    assert_eq!(swapped["component_id"], pla_red, "{swapped}");
    assert_eq!(
        sql(
            &app,
            &format!("SELECT allocated_quantity FROM inventory_balances WHERE item_id = {pla_red}")
        )
        .await,
        "2.0000"
    );
}
