//! Catalog upkeep through REST (CONTRACT 5.6, 5.11): material items with opening stock,
//! bulk changes (all or nothing), recosting one item or all of them from BOM roll-ups and
//! purchase prices, and the admin products CSV import. Each with its shape, who gets
//! 401/403, and bad input answered with a 4xx and the database unchanged.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::create_item;
use crate::common::api::{admin, app, call, ok, operator, upload};
use crate::common::books::{account, balanced, exec, num, receive, sql, sql_num};

async fn tables(app: &TestApp, names: &[&str]) -> String {
    let mut all = String::new();
    for name in names {
        all.push_str(&crate::common::api::table_json(app, name).await);
    }
    all
}

/// The fields of a 422's `details.errors`.
fn error_fields(body: &Value) -> Vec<String> {
    body["details"]["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .filter_map(|e| e["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_material_item_is_created_with_its_opening_stock_booked() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    exec(
        &app,
        "INSERT INTO material_types (code, name) VALUES ('PLA_MATTE', 'PLA Matte'); \
         INSERT INTO colors (code, name, hex_code) VALUES ('CHARCOAL', 'Charcoal', '#0C0C0C'), ('WHITE', 'White', '#FFFFFF');",
    )
    .await;

    // Codes in any case; cost per kg becomes cost per gram; 2.5 kg arrive as 2500 g.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/material",
        Some(
            json!({"material_type_code": "pla matte", "color_code": "charcoal",
                    "cost_per_kg": "20.00", "selling_price": "0.08", "initial_qty_kg": "2.5"}),
        ),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let body = res.json();
    let id = body["id"].as_i64().expect("id");
    assert_eq!(
        res.header("location"),
        Some(format!("/api/v1/items/{id}").as_str())
    );
    assert_eq!(body["sku"], "MAT-PLA-MATTE-CHARCOAL");
    assert_eq!(body["name"], "PLA Matte Charcoal");
    assert_eq!(body["item_type"], "material");
    assert_eq!(body["procurement_type"], "buy");
    assert_eq!(body["unit"], "G");
    assert_eq!(body["purchase_uom"], "KG");
    assert_eq!(num(&body["standard_cost"]), 0.02);
    assert_eq!(num(&body["selling_price"]), 0.08);
    assert_eq!(body["is_raw_material"], true);
    assert_eq!(num(&body["on_hand_qty"]), 2500.0);
    assert_eq!(
        sql(
            &app,
            "SELECT item_id FROM material_colors mc JOIN colors c ON c.id = mc.color_id WHERE c.code = 'CHARCOAL'"
        )
        .await,
        id.to_string()
    );
    // One opening receipt at its cost, booked inventory / Owner's equity.
    assert_eq!(
        sql(
            &app,
            &format!(
                "SELECT count(*) FROM inventory_transactions WHERE item_id = {id} \
                 AND transaction_type = 'receipt' AND reference_type = 'inventory_import' \
                 AND journal_entry_id IS NOT NULL"
            )
        )
        .await,
        "1"
    );
    assert_eq!(account(&app, "1200").await, 50.0);
    assert_eq!(account(&app, "3000").await, -50.0);
    balanced(&app, &t).await;

    // Without an opening quantity nothing moves.
    let white = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/items/material",
        Some(json!({"material_type_code": "PLA_MATTE", "color_code": "WHITE"})),
    )
    .await;
    assert_eq!(white["sku"], "MAT-PLA-MATTE-WHITE");
    assert_eq!(num(&white["on_hand_qty"]), 0.0);
    assert_eq!(
        sql_num(&app, "SELECT count(*) FROM inventory_transactions").await,
        1.0
    );

    // Refused, and nothing written: unknown type or colour, negative numbers, an unknown
    // category (422 on the field), the same type and colour again (400).
    let watched = [
        "items",
        "material_colors",
        "inventory_transactions",
        "gl_journal_entries",
    ];
    let before = tables(&app, &watched).await;
    for (body, field) in [
        (
            json!({"material_type_code": "NYLON", "color_code": "WHITE"}),
            "material_type_code",
        ),
        (
            json!({"material_type_code": "PLA_MATTE", "color_code": "MAUVE"}),
            "color_code",
        ),
        (
            json!({"material_type_code": "PLA_MATTE", "color_code": "WHITE", "cost_per_kg": "-1"}),
            "cost_per_kg",
        ),
        (
            json!({"material_type_code": "PLA_MATTE", "color_code": "WHITE", "initial_qty_kg": "-2"}),
            "initial_qty_kg",
        ),
        (
            json!({"material_type_code": "", "color_code": "WHITE"}),
            "material_type_code",
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/items/material",
            Some(body.clone()),
            &op,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            res.text()
        );
        assert!(
            error_fields(&res.json()).contains(&field.to_string()),
            "{body}: {}",
            res.text()
        );
    }
    exec(
        &app,
        "INSERT INTO colors (code, name) VALUES ('RED', 'Red');",
    )
    .await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/material",
        Some(json!({"material_type_code": "PLA_MATTE", "color_code": "RED", "category_id": 999999, "initial_qty_kg": "1"})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(error_fields(&res.json()), ["category_id"]);
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/material",
        Some(json!({"material_type_code": "PLA_MATTE", "color_code": "CHARCOAL", "initial_qty_kg": "1"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.text()
            .contains("already exists (MAT-PLA-MATTE-CHARCOAL)"),
        "{}",
        res.text()
    );
    assert_eq!(tables(&app, &watched).await, before);

    // Signed-in users only.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/material",
        Some(json!({"material_type_code": "PLA_MATTE", "color_code": "RED"})),
        "",
    )
    .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    assert_eq!(tables(&app, &watched).await, before);
}

#[tokio::test]
async fn a_bulk_update_changes_every_item_or_none() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let a = create_item(&app, &op, json!({"sku": "BU-A", "name": "A"})).await;
    let b = create_item(&app, &op, json!({"sku": "BU-B", "name": "B"})).await;
    let c = create_item(&app, &op, json!({"sku": "BU-C", "name": "C"})).await;
    let cat = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/items/categories",
        Some(json!({"name": "Toys"})),
    )
    .await["id"]
        .as_i64()
        .expect("id");

    let res = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/items/bulk-update",
        Some(
            json!({"item_ids": [a, b, c, a], "category_id": cat, "is_active": false,
                    "procurement_type": "make", "reorder_point": "4"}),
        ),
    )
    .await;
    assert_eq!(
        res,
        json!({"message": "3 items updated", "updated_count": 3, "error_count": 0, "errors": []})
    );
    assert_eq!(
        sql(
            &app,
            &format!(
                "SELECT count(*) FROM items WHERE category_id = {cat} AND NOT active \
                 AND procurement_type = 'make' AND reorder_point = 4"
            )
        )
        .await,
        "3"
    );

    // 0 clears the category; other fields stay.
    ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/items/bulk-update",
        Some(json!({"item_ids": [a], "category_id": 0, "active": true})),
    )
    .await;
    assert_eq!(
        sql(
            &app,
            &format!("SELECT concat(category_id, '/', active, '/', procurement_type) FROM items WHERE id = {a}")
        )
        .await,
        "/t/make"
    );

    // Refused as a whole, nothing changed: an unknown id among known ones, an unknown
    // category, a negative reorder point, no ids, too many ids (422); nothing to change (400).
    let before = tables(&app, &["items"]).await;
    let many: Vec<i64> = (1..=501).collect();
    for (body, status, field) in [
        (
            json!({"item_ids": [a, 999999], "is_active": false}),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("item_ids"),
        ),
        (
            json!({"item_ids": [a, b], "category_id": 999999}),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("category_id"),
        ),
        (
            json!({"item_ids": [a], "reorder_point": "-1"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("reorder_point"),
        ),
        (
            json!({"item_ids": [], "is_active": false}),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("item_ids"),
        ),
        (
            json!({"item_ids": many, "is_active": false}),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("item_ids"),
        ),
        (
            json!({"item_ids": [a, b], "item_type": "gadget"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
        ),
        (json!({"item_ids": [a, b]}), StatusCode::BAD_REQUEST, None),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/items/bulk-update",
            Some(body.clone()),
            &op,
        )
        .await;
        assert_eq!(res.status, status, "{body}: {}", res.text());
        if let Some(field) = field {
            assert!(
                error_fields(&res.json()).contains(&field.to_string()),
                "{body}: {}",
                res.text()
            );
        }
    }
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/bulk-update",
        Some(json!({"item_ids": [a], "is_active": false})),
        "",
    )
    .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    assert_eq!(tables(&app, &["items"]).await, before);
}

#[tokio::test]
async fn standard_costs_are_recomputed_from_boms_and_purchase_prices() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let pla = create_item(
        &app,
        &t,
        json!({"sku": "RC-PLA", "name": "PLA", "item_type": "material"}),
    )
    .await;
    let comp = create_item(
        &app,
        &t,
        json!({"sku": "RC-MAG", "name": "Magnet", "item_type": "component"}),
    )
    .await;
    let fg = create_item(
        &app,
        &t,
        json!({"sku": "RC-FG", "name": "Dragon", "procurement_type": "make", "standard_cost": "9"}),
    )
    .await;
    let nothing = create_item(&app, &t, json!({"sku": "RC-NONE", "name": "Nothing"})).await;
    // The magnet's cost comes from a receipt, the filament's from a purchase order at
    // 20.00 per KG (0.0200 per G); the dragon needs 2 magnets and 50 g of filament.
    receive(&app, &t, comp, "10", "0.50").await;
    let vendor = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Filament Co"})),
    )
    .await["id"]
        .as_i64()
        .expect("id");
    let po = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/purchase-orders/",
        Some(json!({"vendor_id": vendor, "lines": [
            {"product_id": pla, "quantity_ordered": "3", "unit_cost": "20.00", "purchase_unit": "KG"}
        ]})),
    )
    .await["id"]
        .as_i64()
        .expect("id");
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": fg, "lines": [
            {"component_id": comp, "quantity": "2"},
            {"component_id": pla, "quantity": "50"}
        ]})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());

    // A draft order is no purchase history yet: nothing to cost the filament from.
    let before = tables(&app, &["items"]).await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/items/{pla}/recost"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(res.text().contains("no purchase history"), "{}", res.text());
    // Admins only; an unknown item is a 404.
    for (path, token, status) in [
        (
            format!("/api/v1/items/{pla}/recost"),
            op.as_str(),
            StatusCode::FORBIDDEN,
        ),
        (
            "/api/v1/items/recost-all".to_string(),
            op.as_str(),
            StatusCode::FORBIDDEN,
        ),
        (
            format!("/api/v1/items/{pla}/recost"),
            "",
            StatusCode::UNAUTHORIZED,
        ),
        (
            "/api/v1/items/999999/recost".to_string(),
            t.as_str(),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = call(&app, Method::POST, &path, None, token).await;
        assert_eq!(res.status, status, "{path}: {}", res.text());
    }
    assert_eq!(tables(&app, &["items"]).await, before);

    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/purchase-orders/{po}/status"),
        Some(json!({"status": "ordered"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());

    // One item: the filament from its purchase price.
    let r = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/items/{pla}/recost"),
        None,
    )
    .await;
    assert_eq!(r["sku"], "RC-PLA");
    assert_eq!(r["old_cost"], Value::Null);
    assert_eq!(num(&r["new_cost"]), 0.02);
    assert_eq!(r["cost_source"], "purchased");
    assert_eq!(num(&r["purchase_cost"]), 0.02);
    assert_eq!(r["changed"], true);

    // Everything: the magnet from its receipt, the dragon from its BOM (2 x 0.50 + 50 x
    // 0.02), the filament already right, the item with nothing skipped.
    let all = ok(&app, &t, Method::POST, "/api/v1/items/recost-all", None).await;
    assert_eq!(all["updated"], 2, "{all}");
    assert_eq!(all["unchanged"], 1, "{all}");
    assert_eq!(all["skipped"], 1, "{all}");
    let by_sku = |sku: &str| {
        all["items"]
            .as_array()
            .expect("items")
            .iter()
            .find(|i| i["sku"] == sku)
            .cloned()
            .unwrap_or_else(|| panic!("{sku} in {all}"))
    };
    let dragon = by_sku("RC-FG");
    assert_eq!(num(&dragon["old_cost"]), 9.0);
    assert_eq!(num(&dragon["new_cost"]), 2.0);
    assert_eq!(dragon["cost_source"], "manufactured");
    assert!(dragon["bom_id"].as_i64().is_some());
    assert_eq!(num(&by_sku("RC-MAG")["new_cost"]), 0.5);
    assert_eq!(
        sql(
            &app,
            &format!("SELECT coalesce(standard_cost::text, '-') FROM items WHERE id = {nothing}")
        )
        .await,
        "-"
    );
    assert_eq!(
        sql_num(
            &app,
            &format!("SELECT standard_cost FROM items WHERE id = {fg}")
        )
        .await,
        2.0
    );

    // A second run finds everything right; a filter narrows it.
    let again = ok(&app, &t, Method::POST, "/api/v1/items/recost-all", None).await;
    assert_eq!(
        (again["updated"].clone(), again["unchanged"].clone()),
        (json!(0), json!(3))
    );
    let made = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/items/recost-all?cost_source=manufactured",
        None,
    )
    .await;
    assert_eq!(made["unchanged"], 1, "{made}");
}

const PRODUCTS: &str = "SKU,Name,Description,Item Type,Procurement Type,Unit,Standard Cost,Selling Price,Reorder Point,Active\n\
IMP-NEW,New widget,Fresh,finished_good,make,EA,1.50,9.99,3,true\n\
IMP-OLD,Renamed widget,,component,buy,EA,0.25,,,false\n\
IMP-BAD,Broken,,gadget,buy,EA,,,,true\n";

#[tokio::test]
async fn the_admin_products_import_creates_and_updates_through_the_items_engine() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let old = create_item(&app, &t, json!({"sku": "IMP-OLD", "name": "Old widget"})).await;

    // Admins only, CSV files only: nothing written otherwise.
    let before = tables(&app, &["items"]).await;
    let res = upload(
        &app,
        "/api/v1/admin/import/products",
        &op,
        "p.csv",
        PRODUCTS.as_bytes(),
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.text());
    let res = upload(
        &app,
        "/api/v1/admin/import/products",
        &t,
        "p.txt",
        PRODUCTS.as_bytes(),
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert_eq!(res.json()["detail"], "File must be a CSV");
    let res = upload(
        &app,
        "/api/v1/admin/import/products",
        &t,
        "p.csv",
        b"Colour,Size\nred,L\n",
        &[],
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(tables(&app, &["items"]).await, before);

    let res = upload(
        &app,
        "/api/v1/admin/import/products",
        &t,
        "p.csv",
        PRODUCTS.as_bytes(),
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(body["created"], 1, "{body}");
    assert_eq!(body["updated"], 1, "{body}");
    assert_eq!(body["total_processed"], 3, "{body}");
    let errors = body["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{body}");
    assert!(
        errors[0]
            .as_str()
            .is_some_and(|e| e.starts_with("Row 4") && e.contains("gadget")),
        "{body}"
    );
    assert_eq!(
        sql(
            &app,
            &format!(
                "SELECT concat(name, '/', item_type, '/', active) FROM items WHERE id = {old}"
            )
        )
        .await,
        "Renamed widget/component/f"
    );
    assert_eq!(
        sql_num(
            &app,
            &format!("SELECT standard_cost FROM items WHERE id = {old}")
        )
        .await,
        0.25
    );
    assert_eq!(
        sql(
            &app,
            "SELECT concat(name, '/', procurement_type) FROM items WHERE sku = 'IMP-NEW'"
        )
        .await,
        "New widget/make"
    );
    assert_eq!(
        sql_num(
            &app,
            "SELECT selling_price + reorder_point FROM items WHERE sku = 'IMP-NEW'"
        )
        .await,
        12.99
    );
    assert_eq!(
        sql(&app, "SELECT count(*) FROM items WHERE sku = 'IMP-BAD'").await,
        "0"
    );

    // The template has the contract's columns.
    let res = call(
        &app,
        Method::GET,
        "/api/v1/admin/import/products/template",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.text().starts_with(
        "SKU,Name,Description,Item Type,Procurement Type,Unit,Standard Cost,Selling Price,Reorder Point,Active\n"
    ));
}
