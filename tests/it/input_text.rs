//! Hostile text in codes, names and imported files: control characters and bidirectional
//! controls are refused field by field in every area's codes and names (vendors, customers,
//! locations, item categories, scrap reasons), and a NUL byte in a CSV cell is a row error of
//! the import, never a 500, with nothing half-imported.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::api::{admin, app, call, table_json, upload};
use crate::common::{TestApp, TestResponse};

/// Characters that must never be part of a code or a name: a right-to-left override, a
/// first-strong isolate, a pop-directional isolate, a bell (C0) and a CSI (C1).
const HIDDEN: [&str; 5] = ["\u{202E}", "\u{2066}", "\u{2069}", "\u{0007}", "\u{009B}"];

fn fields(res: &TestResponse) -> Vec<String> {
    res.json()["details"]["errors"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter_map(|x| x["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Sends every `(method, path, body, field)` and expects a 422 naming exactly `field`, with
/// `table` unchanged afterwards.
async fn refused(app: &TestApp, token: &str, table: &str, cases: &[(Method, String, Value, &str)]) {
    let before = table_json(app, table).await;
    for (method, path, body, field) in cases {
        let res = call(app, method.clone(), path, Some(body.clone()), token).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{method} {path} {body}: {}",
            res.text()
        );
        assert_eq!(
            fields(&res),
            [*field],
            "{method} {path} {body}: {}",
            res.text()
        );
    }
    assert_eq!(table_json(app, table).await, before, "{table} changed");
}

fn created_id(res: TestResponse) -> i64 {
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()["id"].as_i64().expect("id")
}

#[tokio::test]
async fn vendor_codes_and_names_refuse_control_and_text_direction_characters() {
    let app = app().await;
    let t = admin(&app).await;
    let id = created_id(
        call(
            &app,
            Method::POST,
            "/api/v1/vendors/",
            Some(json!({"name": "Polymaker"})),
            &t,
        )
        .await,
    );
    let mut cases = Vec::new();
    for bad in HIDDEN {
        let post = |body: Value, field| (Method::POST, "/api/v1/vendors/".to_string(), body, field);
        let put = |body: Value, field| (Method::PUT, format!("/api/v1/vendors/{id}"), body, field);
        cases.push(post(json!({"name": format!("Acme{bad}Corp")}), "name"));
        cases.push(post(
            json!({"name": "Acme", "code": format!("V{bad}1")}),
            "code",
        ));
        cases.push(post(
            json!({"name": "Acme", "contact_name": format!("Jo{bad}e")}),
            "contact_name",
        ));
        cases.push(put(json!({"name": format!("Poly{bad}maker")}), "name"));
        cases.push(put(json!({"code": format!("{bad}VND-1")}), "code"));
        cases.push(put(
            json!({"contact_name": format!("A{bad}")}),
            "contact_name",
        ));
    }
    refused(&app, &t, "vendors", &cases).await;
    // Multi-line free text is still fine where it belongs.
    let ok = call(
        &app,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Über Filament 日本", "code": "v-2", "notes": "line 1\nline 2"})),
        &t,
    )
    .await;
    assert_eq!(ok.status, StatusCode::CREATED, "{}", ok.text());
    assert_eq!(ok.json()["code"], "V-2");
}

#[tokio::test]
async fn customer_names_refuse_control_and_text_direction_characters() {
    let app = app().await;
    let t = admin(&app).await;
    let id = created_id(
        call(
            &app,
            Method::POST,
            "/api/v1/admin/customers/",
            Some(json!({"email": "ann@shop.test", "first_name": "Ann", "last_name": "Able"})),
            &t,
        )
        .await,
    );
    let mut cases = Vec::new();
    for bad in HIDDEN {
        let base = json!({"email": "bob@shop.test", "first_name": "Bob", "last_name": "Bee"});
        for field in ["first_name", "last_name", "company_name"] {
            let mut body = base.clone();
            body[field] = json!(format!("Ev{bad}il"));
            cases.push((
                Method::POST,
                "/api/v1/admin/customers/".to_string(),
                body,
                field,
            ));
            cases.push((
                Method::PATCH,
                format!("/api/v1/admin/customers/{id}"),
                json!({field: format!("{bad}x")}),
                field,
            ));
        }
    }
    refused(&app, &t, "customers", &cases).await;
}

#[tokio::test]
async fn location_codes_and_names_refuse_control_and_text_direction_characters() {
    let app = app().await;
    let t = admin(&app).await;
    let id = created_id(
        call(
            &app,
            Method::POST,
            "/api/v1/admin/locations",
            Some(json!({"code": "SHELF-1", "name": "Shelf 1", "type": "shelf"})),
            &t,
        )
        .await,
    );
    let mut cases = Vec::new();
    for bad in HIDDEN {
        let path = "/api/v1/admin/locations".to_string();
        cases.push((
            Method::POST,
            path.clone(),
            json!({"code": "X1", "name": format!("Bin{bad}1")}),
            "name",
        ));
        cases.push((
            Method::POST,
            path,
            json!({"code": format!("X{bad}1"), "name": "Bin 1"}),
            "code",
        ));
        cases.push((
            Method::PUT,
            format!("/api/v1/admin/locations/{id}"),
            json!({"name": format!("Shelf{bad}")}),
            "name",
        ));
    }
    refused(&app, &t, "locations", &cases).await;
}

#[tokio::test]
async fn category_codes_and_names_refuse_control_and_text_direction_characters() {
    let app = app().await;
    let t = admin(&app).await;
    let id = created_id(
        call(
            &app,
            Method::POST,
            "/api/v1/items/categories",
            Some(json!({"name": "Toys"})),
            &t,
        )
        .await,
    );
    let mut cases = Vec::new();
    for bad in HIDDEN {
        let path = "/api/v1/items/categories".to_string();
        // Without a code, the code comes from the name: the name is the field at fault.
        cases.push((
            Method::POST,
            path.clone(),
            json!({"name": format!("Home{bad}")}),
            "name",
        ));
        cases.push((
            Method::POST,
            path,
            json!({"name": "Home", "code": format!("HO{bad}ME")}),
            "code",
        ));
        cases.push((
            Method::PATCH,
            format!("/api/v1/items/categories/{id}"),
            json!({"name": format!("T{bad}oys")}),
            "name",
        ));
        cases.push((
            Method::PUT,
            format!("/api/v1/items/categories/{id}"),
            json!({"code": format!("TOYS{bad}")}),
            "code",
        ));
    }
    refused(&app, &t, "item_categories", &cases).await;
}

#[tokio::test]
async fn scrap_reason_codes_and_names_refuse_control_and_text_direction_characters() {
    let app = app().await;
    let t = admin(&app).await;
    let id = created_id(
        call(
            &app,
            Method::POST,
            "/api/v1/scrap-reasons/",
            Some(json!({"code": "warp", "name": "Warping"})),
            &t,
        )
        .await,
    );
    let mut cases = Vec::new();
    for bad in HIDDEN {
        let path = "/api/v1/scrap-reasons/".to_string();
        cases.push((
            Method::POST,
            path.clone(),
            json!({"code": format!("shift{bad}"), "name": "Layer shift"}),
            "code",
        ));
        cases.push((
            Method::POST,
            path,
            json!({"code": "shift", "name": format!("Layer{bad}shift")}),
            "name",
        ));
        cases.push((
            Method::PUT,
            format!("/api/v1/scrap-reasons/{id}"),
            json!({"name": format!("{bad}Warping")}),
            "name",
        ));
    }
    refused(&app, &t, "scrap_reasons", &cases).await;
}

/// `(row, field)` of every row error of an import report.
fn row_errors(report: &Value) -> Vec<(i64, String)> {
    report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap_or_default(),
                e["field"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_nul_byte_in_an_item_import_is_a_row_error_and_nothing_else_is_lost() {
    let app = app().await;
    let t = admin(&app).await;
    // A NUL in a SKU (looked up in the database), in a description (stored as is) and in a
    // category (created on the fly); one clean row.
    let csv = "SKU,Name,Description,Category\n\
               NUL\u{0}1,Bad SKU,,\n\
               OK-1,Good,Fine,Toys\n\
               OK-2,Bad description,a\u{0}b,\n\
               OK-3,Bad category,,To\u{0}ys\n";
    let items = table_json(&app, "items").await;
    let categories = table_json(&app, "item_categories").await;
    for path in ["/api/v1/items/import/preview", "/api/v1/items/import"] {
        let res = upload(&app, path, &t, "items.csv", csv.as_bytes(), &[]).await;
        assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
        let r = res.json();
        assert_eq!(
            (r["total_rows"].as_i64(), r["error_rows"].as_i64()),
            (Some(4), Some(3)),
            "{path}: {r}"
        );
        assert_eq!(
            row_errors(&r),
            [
                (2, "SKU".to_string()),
                (4, "Description".to_string()),
                (5, "Category".to_string())
            ],
            "{path}: {r}"
        );
        if path.ends_with("preview") {
            assert_eq!(
                table_json(&app, "items").await,
                items,
                "a preview writes nothing"
            );
            assert_eq!(table_json(&app, "item_categories").await, categories);
        } else {
            assert_eq!(r["created"], 1, "{r}");
        }
    }
    let all: Value = serde_json::from_str(&table_json(&app, "items").await).expect("json");
    let skus: Vec<&str> = all
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["sku"].as_str())
        .collect();
    assert_eq!(skus, ["OK-1"], "{all}");
}

#[tokio::test]
async fn a_nul_byte_in_a_customer_import_is_a_row_error_and_nothing_else_is_lost() {
    let app = app().await;
    let t = admin(&app).await;
    // A NUL in the e-mail (looked up in the database), in the city (stored as is) and in a
    // column the import does not read; one clean row.
    let csv = "email,first_name,last_name,city,comment_ignored\n\
               nul\u{0}@shop.test,Nul,Mail,,\n\
               ok@shop.test,Ok,Row,Ghent,\n\
               city@shop.test,Bad,City,Gh\u{0}ent,\n\
               other@shop.test,Bad,Other,,x\u{0}\n";
    let before = table_json(&app, "customers").await;
    for path in [
        "/api/v1/admin/customers/import/preview",
        "/api/v1/admin/customers/import",
    ] {
        let res = upload(&app, path, &t, "customers.csv", csv.as_bytes(), &[]).await;
        assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
        let r = res.json();
        assert_eq!(
            (r["total_rows"].as_i64(), r["error_rows"].as_i64()),
            (Some(4), Some(3)),
            "{path}: {r}"
        );
        assert_eq!(
            row_errors(&r),
            [
                (2, "email".to_string()),
                (4, "city".to_string()),
                (5, "comment_ignored".to_string())
            ],
            "{path}: {r}"
        );
        if path.ends_with("preview") {
            assert_eq!(
                table_json(&app, "customers").await,
                before,
                "a preview writes nothing"
            );
        } else {
            assert_eq!(r["imported"], 1, "{r}");
        }
    }
    let found: Value = serde_json::from_str(&table_json(&app, "customers").await).expect("json");
    let emails: Vec<&str> = found
        .as_array()
        .expect("customers")
        .iter()
        .filter_map(|c| c["email"].as_str())
        .collect();
    assert_eq!(emails, ["ok@shop.test"], "{found}");
}

#[tokio::test]
async fn an_item_import_refuses_text_direction_characters_as_items_made_by_hand_do() {
    let app = app().await;
    let t = admin(&app).await;
    let csv = "SKU,Name,Category\n\
               ABC\u{202E}321,Spoofed SKU,\n\
               OK-1,Good,Toys\n\
               OK-2,Bad\u{2066}name,\n\
               OK-3,Bad category,To\u{202E}ys\n";
    let res = upload(
        &app,
        "/api/v1/items/import",
        &t,
        "items.csv",
        csv.as_bytes(),
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let r = res.json();
    assert_eq!(
        row_errors(&r),
        [
            (2, "sku".to_string()),
            (4, "name".to_string()),
            (5, "category".to_string())
        ],
        "{r}"
    );
    assert_eq!(r["created"], 1, "{r}");
    let categories: Value =
        serde_json::from_str(&table_json(&app, "item_categories").await).expect("json");
    let names: Vec<&str> = categories
        .as_array()
        .expect("categories")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["Toys"], "{categories}");
}
