//! Bills of materials through REST and GraphQL (CONTRACT 5.7, DOMAIN "BOM"): versions with
//! one active, lines with units and scrap, multi-level explosion and cost roll-up, where-used,
//! validation, copies; cycles and bad input are refused with the tables unchanged; a report
//! nesting product -> BOM -> lines -> component three levels deep costs the same number of
//! statements for fifty products as for one.

use std::sync::atomic::Ordering;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::item;
use crate::common::api::{admin, app, call, gql, operator};

/// Receives stock at a cost (the moving average becomes the item's cost).
async fn receive(app: &TestApp, t: &str, id: i64, qty: &str, cost: &str) {
    let res = call(
        app,
        Method::POST,
        "/api/v1/admin/inventory/transactions",
        Some(json!({"product_id": id, "transaction_type": "receipt", "quantity": qty, "cost_per_unit": cost})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
}

async fn create_bom(app: &TestApp, t: &str, body: Value) -> Value {
    let res = call(app, Method::POST, "/api/v1/admin/bom/", Some(body), t).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()
}

async fn get(app: &TestApp, t: &str, path: &str) -> Value {
    let res = call(app, Method::GET, path, None, t).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
    res.json()
}

async fn bom_tables(app: &TestApp) -> String {
    let mut all = crate::common::api::table_json(app, "boms").await;
    all.push_str(&crate::common::api::table_json(app, "bom_lines").await);
    all
}

fn num(v: &Value) -> f64 {
    v.as_str()
        .map(|s| s.parse().expect("decimal"))
        .or_else(|| v.as_f64())
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

struct Farm {
    widget: i64,
    bracket: i64,
    pla: i64,
    boxes: i64,
    widget_bom: i64,
    bracket_bom: i64,
}

/// A widget made of 2 brackets (their own BOM: 10 G of PLA, 0.50 process), 0.05 KG of PLA
/// with 10 % scrap, and a box at shipping; PLA costs 0.02/G, a box 0.75.
async fn farm(app: &TestApp, t: &str) -> Farm {
    let widget = item("WIDGET")
        .with("name", json!(format!("{} name", "WIDGET")))
        .kind("finished_good")
        .unit("EA")
        .create(app, t)
        .await;
    let bracket = item("BRACKET")
        .with("name", json!(format!("{} name", "BRACKET")))
        .kind("component")
        .unit("EA")
        .create(app, t)
        .await;
    let pla = item("PLA-BLK")
        .with("name", json!(format!("{} name", "PLA-BLK")))
        .kind("material")
        .unit("G")
        .create(app, t)
        .await;
    let boxes = item("BOX-S")
        .with("name", json!(format!("{} name", "BOX-S")))
        .kind("packaging")
        .unit("EA")
        .create(app, t)
        .await;
    receive(app, t, pla, "1000", "0.02").await;
    receive(app, t, boxes, "1", "0.75").await;
    let bracket_bom = create_bom(
        app,
        t,
        json!({"product_id": bracket, "process_cost": "0.50",
               "lines": [{"component_id": pla, "quantity": "10"}]}),
    )
    .await;
    let widget_bom = create_bom(
        app,
        t,
        json!({"product_id": widget, "process_cost": "1.00", "revision": "A",
        "lines": [
            {"component_id": bracket, "quantity": "2"},
            {"component_id": pla, "quantity": "0.05", "unit": "kg", "scrap_factor": "10"},
            {"component_id": boxes, "quantity": "1", "consume_stage": "shipping"}
        ]}),
    )
    .await;
    Farm {
        widget,
        bracket,
        pla,
        boxes,
        widget_bom: widget_bom["id"].as_i64().expect("id"),
        bracket_bom: bracket_bom["id"].as_i64().expect("id"),
    }
}

#[tokio::test]
async fn a_multi_level_bom_is_costed_exploded_and_found_where_used() {
    let app = app().await;
    let t = admin(&app).await;
    let f = farm(&app, &t).await;

    // Detail: header defaults, lines with component facts, live costs and stock.
    let bom = get(&app, &t, &format!("/api/v1/admin/bom/{}", f.widget_bom)).await;
    assert_eq!(bom["code"], "BOM-WIDGET-V1");
    assert_eq!(bom["name"], "WIDGET name");
    assert_eq!(bom["version"], 1);
    assert_eq!(bom["active"], true);
    assert_eq!(bom["product_sku"], "WIDGET");
    assert_eq!(bom["line_count"], 3);
    let lines = bom["lines"].as_array().expect("lines");
    assert_eq!(lines[0]["component_sku"], "BRACKET");
    assert_eq!(lines[0]["has_bom"], true);
    assert_eq!(lines[0]["cost_source"], "bom");
    // Bracket: 10 G × 0.02 + 0.50 = 0.70 each, two of them.
    assert_eq!(num(&lines[0]["component_cost"]), 0.7);
    assert_eq!(num(&lines[0]["line_cost"]), 1.4);
    // PLA: 0.05 KG = 50 G, plus 10 % scrap = 55 G at 0.02.
    assert_eq!(lines[1]["unit"], "KG");
    assert_eq!(lines[1]["component_unit"], "G");
    assert_eq!(num(&lines[1]["quantity_needed"]), 55.0);
    assert_eq!(num(&lines[1]["line_cost"]), 1.1);
    assert_eq!(num(&lines[1]["inventory_on_hand"]), 1000.0);
    assert_eq!(lines[1]["is_available"], true);
    assert_eq!(lines[2]["consume_stage"], "shipping");
    assert_eq!(num(&lines[2]["line_cost"]), 0.75);
    // Brackets: none in stock, two short.
    assert_eq!(lines[0]["is_available"], false);
    assert_eq!(num(&lines[0]["shortage"]), 2.0);
    // 1.40 + 1.10 + 0.75 components, plus 1.00 process.
    assert_eq!(num(&bom["material_cost"]), 3.25);
    assert_eq!(num(&bom["total_cost"]), 4.25);

    // The list: a bare array with counts and costs; search and product filters.
    let list = get(&app, &t, "/api/v1/admin/bom/?search=widget").await;
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["line_count"], 3);
    assert_eq!(num(&list[0]["total_cost"]), 4.25);
    let all = get(&app, &t, "/api/v1/admin/bom/?sort_by=product_sku").await;
    assert_eq!(all[0]["product_sku"], "BRACKET");
    let by_product = get(
        &app,
        &t,
        &format!("/api/v1/admin/bom/?product_id={}", f.bracket),
    )
    .await;
    assert_eq!(by_product.as_array().map(Vec::len), Some(1));

    // Explosion for 3 widgets, depth first.
    let ex = get(
        &app,
        &t,
        &format!("/api/v1/admin/bom/{}/explode?quantity=3", f.widget_bom),
    )
    .await;
    let rows: Vec<(i64, String, f64)> = ex["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|r| {
            (
                r["level"].as_i64().expect("level"),
                r["component_sku"].as_str().expect("sku").to_string(),
                num(&r["extended_quantity"]),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, "BRACKET".into(), 6.0),
            (2, "PLA-BLK".into(), 60.0),
            (1, "PLA-BLK".into(), 165.0),
            (1, "BOX-S".into(), 3.0),
        ]
    );
    assert_eq!(ex["max_level"], 2);
    assert_eq!(num(&ex["total_cost"]), 12.75);

    // Cost roll-up and validation.
    let roll = get(
        &app,
        &t,
        &format!("/api/v1/admin/bom/{}/cost-rollup", f.widget_bom),
    )
    .await;
    assert_eq!(num(&roll["material_cost"]), 3.25);
    assert_eq!(num(&roll["process_cost"]), 1.0);
    assert_eq!(roll["lines"][0]["cost_source"], "bom");
    let check = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{}/validate", f.widget_bom),
        None,
        &t,
    )
    .await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.text());
    assert_eq!(check.json()["is_valid"], true, "{}", check.text());

    // Where-used and the product's active BOM; items know they have one.
    let used = get(&app, &t, &format!("/api/v1/admin/bom/where-used/{}", f.pla)).await;
    let skus: Vec<&str> = used
        .as_array()
        .expect("array")
        .iter()
        .map(|u| u["product_sku"].as_str().expect("sku"))
        .collect();
    assert_eq!(skus.len(), 2, "{used}");
    assert!(
        skus.contains(&"WIDGET") && skus.contains(&"BRACKET"),
        "{used}"
    );
    let active = get(&app, &t, &format!("/api/v1/admin/bom/product/{}", f.widget)).await;
    assert_eq!(active["id"], f.widget_bom);
    let none = call(
        &app,
        Method::GET,
        &format!("/api/v1/admin/bom/product/{}", f.pla),
        None,
        &t,
    )
    .await;
    assert_eq!(none.status, StatusCode::NOT_FOUND, "{}", none.text());
    let widget = get(&app, &t, &format!("/api/v1/items/{}", f.widget)).await;
    assert_eq!(widget["has_bom"], true, "{widget}");
    let pla = get(&app, &t, &format!("/api/v1/items/{}", f.pla)).await;
    assert_eq!(pla["has_bom"], false);

    // A component in an active BOM cannot be deleted.
    let del = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/{}", f.boxes),
        None,
        &t,
    )
    .await;
    assert!(del.status.is_client_error(), "{}", del.text());
    assert!(del.text().contains("BOM"), "{}", del.text());
}

#[tokio::test]
async fn versions_copies_and_lines_change_one_at_a_time() {
    let app = app().await;
    let t = admin(&app).await;
    let f = farm(&app, &t).await;

    // A copy is the next version, inactive while the first is active.
    let copy = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{}/copy", f.widget_bom),
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(copy.status, StatusCode::CREATED, "{}", copy.text());
    let copy = copy.json();
    assert_eq!(copy["version"], 2);
    assert_eq!(copy["active"], false);
    assert_eq!(copy["code"], "BOM-WIDGET-V2");
    assert_eq!(copy["line_count"], 3);
    let v2 = copy["id"].as_i64().expect("id");

    // Activating it deactivates version 1.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/bom/{v2}"),
        Some(json!({"active": true, "notes": "  lighter box  "})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["notes"], "lighter box");
    let v1 = get(&app, &t, &format!("/api/v1/admin/bom/{}", f.widget_bom)).await;
    assert_eq!(v1["active"], false);
    let active_list = get(&app, &t, "/api/v1/admin/bom/?search=widget").await;
    assert_eq!(active_list.as_array().map(Vec::len), Some(1));
    assert_eq!(active_list[0]["id"], v2);
    let every = get(
        &app,
        &t,
        "/api/v1/admin/bom/?search=widget&active_only=false",
    )
    .await;
    assert_eq!(every.as_array().map(Vec::len), Some(2));

    // Lines: add (unit from the component, sequence after the last), change, remove.
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{v2}/lines"),
        Some(json!({"component_id": f.pla, "quantity": "5", "notes": "brim"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let line = res.json();
    assert_eq!(line["unit"], "G");
    assert_eq!(line["sequence"], 40);
    let line_id = line["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/bom/{v2}/lines/{line_id}"),
        Some(json!({"quantity": "7.5", "scrap_factor": "20"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(num(&res.json()["quantity_needed"]), 9.0);
    let bom = get(&app, &t, &format!("/api/v1/admin/bom/{v2}")).await;
    assert_eq!(bom["line_count"], 4);
    // 3.25 + 9 G × 0.02.
    assert_eq!(num(&bom["material_cost"]), 3.43);
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/bom/{v2}/lines/{line_id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    // The stored cost follows every change; recalculate refreshes it after cost moves.
    receive(&app, &t, f.boxes, "1", "1.25").await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{v2}/recalculate"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    // The box's average is now (0.75 + 1.25) / 2 = 1.00.
    assert_eq!(num(&res.json()["material_cost"]), 3.5);

    // Copy to another product; then delete it.
    let other = item("WIDGET-XL")
        .with("name", json!(format!("{} name", "WIDGET-XL")))
        .kind("finished_good")
        .unit("EA")
        .create(&app, &t)
        .await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{v2}/copy"),
        Some(json!({"target_product_id": other, "include_lines": false})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let xl = res.json();
    assert_eq!(xl["product_sku"], "WIDGET-XL");
    assert_eq!(xl["version"], 1);
    assert_eq!(xl["active"], true);
    assert_eq!(xl["line_count"], 0);
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{}/validate", xl["id"]),
        None,
        &t,
    )
    .await;
    assert_eq!(res.json()["is_valid"], false);
    assert_eq!(res.json()["errors"][0], "The BOM has no lines");
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/bom/{}", xl["id"]),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["message"], "BOM BOM-WIDGET-XL-V1 deleted");

    // Operators are staff: they read and change BOMs too.
    let op = operator(&app, &t).await;
    let list = call(&app, Method::GET, "/api/v1/admin/bom/", None, &op).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    let anon = call(&app, Method::GET, "/api/v1/admin/bom/", None, "").await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED);
    let _ = f.bracket_bom;
}

#[tokio::test]
async fn cycles_and_bad_input_are_refused_and_change_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let f = farm(&app, &t).await;
    let before = bom_tables(&app).await;

    let cases: Vec<(Method, String, Value, StatusCode, &str)> = vec![
        // The widget inside the bracket that is inside the widget.
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.bracket_bom),
            json!({"component_id": f.widget, "quantity": "1"}),
            StatusCode::BAD_REQUEST,
            "Circular BOM: BRACKET -> WIDGET -> BRACKET",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.widget_bom),
            json!({"component_id": f.widget, "quantity": "1"}),
            StatusCode::BAD_REQUEST,
            "A product cannot be a component of its own BOM",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.widget_bom),
            json!({"component_id": f.pla, "quantity": "0"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "greater than 0",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.widget_bom),
            json!({"component_id": f.pla, "quantity": "1", "scrap_factor": "100"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Scrap factor",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.widget_bom),
            json!({"component_id": f.pla, "quantity": "1", "unit": "EA"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "cannot be converted",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.widget_bom),
            json!({"component_id": 999_999, "quantity": "1"}),
            StatusCode::NOT_FOUND,
            "Component 999999 not found",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/lines", f.widget_bom),
            json!({"component_id": f.pla, "quantity": "1.00001"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "decimal places",
        ),
        // A whole BOM with one bad line writes nothing.
        (
            Method::POST,
            "/api/v1/admin/bom/".into(),
            json!({"product_id": f.boxes, "lines": [
                {"component_id": f.pla, "quantity": "1"},
                {"component_id": f.pla, "quantity": "-1"}
            ]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "lines.1.quantity",
        ),
        (
            Method::POST,
            "/api/v1/admin/bom/".into(),
            json!({"product_id": f.widget, "version": 1, "lines": []}),
            StatusCode::BAD_REQUEST,
            "already has a BOM version 1",
        ),
        (
            Method::POST,
            "/api/v1/admin/bom/".into(),
            json!({"lines": []}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "product",
        ),
        (
            Method::POST,
            "/api/v1/admin/bom/".into(),
            json!({"product_id": 999_999}),
            StatusCode::NOT_FOUND,
            "Product 999999 not found",
        ),
        (
            Method::PATCH,
            format!("/api/v1/admin/bom/{}", f.widget_bom),
            json!({"product_id": f.boxes}),
            StatusCode::BAD_REQUEST,
            "cannot change",
        ),
        (
            Method::PATCH,
            format!("/api/v1/admin/bom/{}", f.widget_bom),
            json!({"process_cost": "-1", "name": "  "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "process_cost",
        ),
        (
            Method::PATCH,
            "/api/v1/admin/bom/999999".into(),
            json!({"notes": "x"}),
            StatusCode::NOT_FOUND,
            "BOM not found",
        ),
        (
            Method::POST,
            format!("/api/v1/admin/bom/{}/copy", f.bracket_bom),
            json!({"target_product_id": f.pla}),
            StatusCode::BAD_REQUEST,
            "cannot be its product",
        ),
        (
            Method::GET,
            format!("/api/v1/admin/bom/{}/explode?quantity=0", f.widget_bom),
            Value::Null,
            StatusCode::UNPROCESSABLE_ENTITY,
            "greater than 0",
        ),
        (
            Method::GET,
            "/api/v1/admin/bom/?limit=101".into(),
            Value::Null,
            StatusCode::UNPROCESSABLE_ENTITY,
            "limit",
        ),
        (
            Method::GET,
            "/api/v1/admin/bom/?sort_by=colour".into(),
            Value::Null,
            StatusCode::UNPROCESSABLE_ENTITY,
            "sort_by",
        ),
    ];
    for (method, path, body, status, needle) in cases {
        let body = (!body.is_null()).then_some(body);
        let res = call(&app, method.clone(), &path, body.clone(), &t).await;
        assert_eq!(
            res.status,
            status,
            "{method} {path} {body:?}: {}",
            res.text()
        );
        assert!(
            res.text().contains(needle),
            "{method} {path}: {} lacks {needle:?}",
            res.text()
        );
    }
    assert_eq!(
        bom_tables(&app).await,
        before,
        "a refused change wrote something"
    );

    // A version may hold a loop only through another version: the bracket's inactive v2
    // uses a clip, and the clip is then made of brackets (fine while v1 is the active one)...
    let clip = item("CLIP")
        .with("name", json!(format!("{} name", "CLIP")))
        .kind("component")
        .unit("EA")
        .create(&app, &t)
        .await;
    let v2 = create_bom(
        &app,
        &t,
        json!({"product_id": f.bracket, "active": false, "lines": [{"component_id": clip, "quantity": "1"}]}),
    )
    .await["id"]
        .as_i64()
        .expect("id");
    create_bom(
        &app,
        &t,
        json!({"product_id": clip, "lines": [{"component_id": f.bracket, "quantity": "1"}]}),
    )
    .await;
    let before = bom_tables(&app).await;
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/admin/bom/{v2}"),
        Some(json!({"active": true})),
        &t,
    )
    .await;
    // ...but activating v2 would close the loop.
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.text()
            .contains("Circular BOM: BRACKET -> CLIP -> BRACKET"),
        "{}",
        res.text()
    );
    assert_eq!(bom_tables(&app).await, before);
    // Its validation says so as well.
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/admin/bom/{v2}/validate"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.json()["is_valid"], false, "{}", res.text());
}

#[tokio::test]
async fn graphql_nests_boms_to_any_depth_for_a_flat_number_of_statements() {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let pla = item("PLA")
        .with("name", json!(format!("{} name", "PLA")))
        .kind("material")
        .unit("G")
        .create(&app, &t)
        .await;
    receive(&app, &t, pla, "100", "0.03").await;
    // Fifty products, each three BOM levels deep: FG -> SUB -> PART -> PLA.
    for i in 0..50 {
        let part = item(&format!("PART-{i:02}"))
            .with("name", json!(format!("{} name", &format!("PART-{i:02}"))))
            .kind("component")
            .unit("EA")
            .create(&app, &t)
            .await;
        let sub = item(&format!("SUB-{i:02}"))
            .with("name", json!(format!("{} name", &format!("SUB-{i:02}"))))
            .kind("component")
            .unit("EA")
            .create(&app, &t)
            .await;
        let fg = item(&format!("FG-{i:02}"))
            .with("name", json!(format!("{} name", &format!("FG-{i:02}"))))
            .kind("finished_good")
            .unit("EA")
            .create(&app, &t)
            .await;
        for (product, component, qty) in [(part, pla, "10"), (sub, part, "2"), (fg, sub, "1")] {
            create_bom(
                &app,
                &t,
                json!({"product_id": product, "lines": [{"component_id": component, "quantity": qty}]}),
            )
            .await;
        }
    }
    let query = "query($n: Int) { items(first: $n, search: \"FG-\") { nodes { sku hasBom bom { totalCost lines { \
        quantity componentCost component { sku bom { lines { quantity component { sku bom { lines { \
        quantity lineCost component { sku } } } } } } } } } } } }";
    let mut counts = Vec::new();
    for n in [1, 50] {
        let before = counter.load(Ordering::SeqCst);
        let res = app
            .request(
                Request::builder()
                    .method(Method::POST)
                    .uri("/graphql")
                    .header("content-type", "application/json")
                    .header("authorization", format!("Bearer {t}"))
                    .body(Body::from(
                        json!({"query": query, "variables": {"n": n}}).to_string(),
                    ))
                    .expect("request"),
            )
            .await
            .json();
        let nodes = res["data"]["items"]["nodes"].as_array().expect("nodes");
        assert_eq!(nodes.len(), n as usize, "{res}");
        let deepest = &nodes[0]["bom"]["lines"][0]["component"]["bom"]["lines"][0]["component"]["bom"]
            ["lines"][0];
        assert_eq!(deepest["component"]["sku"], "PLA", "{res}");
        assert_eq!(num(&deepest["lineCost"]), 0.3, "{res}");
        // FG = 1 × SUB = 2 × PART = 2 × 10 G × 0.03.
        assert_eq!(num(&nodes[0]["bom"]["totalCost"]), 0.6, "{res}");
        counts.push(counter.load(Ordering::SeqCst) - before);
    }
    println!(
        "statements for 1 product: {}, for 50: {}",
        counts[0], counts[1]
    );
    assert_eq!(
        counts[0], counts[1],
        "the statement count grows with the products"
    );

    // The same holds for REST's explosion: statements grow with depth, not lines.
    let gq = gql(
        &app,
        &t,
        "{ boms(first: 1, search: \"FG-00\") { nodes { id } } }",
        json!({}),
    )
    .await;
    let id = gq["data"]["boms"]["nodes"][0]["id"].as_i64().expect("id");
    let before = counter.load(Ordering::SeqCst);
    let ex = get(
        &app,
        &t,
        &format!("/api/v1/admin/bom/{id}/explode?quantity=2"),
    )
    .await;
    let cost = counter.load(Ordering::SeqCst) - before;
    assert_eq!(ex["lines"].as_array().map(Vec::len), Some(3), "{ex}");
    assert_eq!(num(&ex["total_cost"]), 1.2);
    assert!(cost <= 16, "an explosion cost {cost} statements");
}
