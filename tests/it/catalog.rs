//! The catalog through REST and GraphQL: items (list, search, filters, pages, create,
//! update, delete and every kind of bad input), categories, units, files, the product CSV
//! import, example data, and the statement count of a list (no N+1).

use std::sync::atomic::Ordering;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::api::upload;
use crate::common::{TestApp, TestResponse};

async fn admin(app: &TestApp) -> String {
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()["access_token"]
        .as_str()
        .expect("token")
        .to_string()
}

async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
    token: &str,
) -> TestResponse {
    let b = Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {token}"));
    let req = match body {
        Some(v) => b
            .header("content-type", "application/json")
            .body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
    app.request(req).await
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    app.scalar(sql).await
}

async fn header_app() -> TestApp {
    let dir =
        std::env::temp_dir().join(format!("strata-uploads-{}", uuid::Uuid::new_v4().simple()));
    let dir = dir.to_string_lossy().into_owned();
    TestApp::spawn_with(&[("AUTH_MODE", "header"), ("UPLOADS_DIR", &dir)]).await
}

#[tokio::test]
async fn items_create_list_search_filter_page_update_delete() {
    let app = header_app().await;
    let t = admin(&app).await;

    // Create: blank SKU is generated from the type; SKUs are upper-cased; decimals are strings.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"name": "Dragon", "selling_price": "24.99", "standard_cost": 3.2})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let dragon = res.json();
    assert!(
        dragon["sku"]
            .as_str()
            .unwrap_or_default()
            .starts_with("FG-")
    );
    assert_eq!(dragon["selling_price"], "24.99");
    assert_eq!(dragon["standard_cost"], "3.20");
    assert_eq!(dragon["item_type"], "finished_good");
    assert_eq!(dragon["unit"], "EA");
    let res = call(&app, Method::POST, "/api/v1/items/", Some(json!({"sku": "mat-pla-blk", "name": "PLA Black", "item_type": "material", "upc": "0123"})), &t).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let pla = res.json();
    assert_eq!(pla["sku"], "MAT-PLA-BLK");
    assert_eq!(
        (
            pla["unit"].as_str(),
            pla["purchase_uom"].as_str(),
            pla["is_raw_material"].as_bool()
        ),
        (Some("G"), Some("KG"), Some(true))
    );
    for i in 0..7 {
        call(&app, Method::POST, "/api/v1/items", Some(json!({"sku": format!("COMP-{i:02}"), "name": format!("Insert {i}"), "item_type": "component"})), &t).await;
    }

    // Bad input: 4xx, and nothing changes.
    let before = count(&app, "SELECT count(*) FROM items").await;
    let cases = [
        (
            json!({"sku": "MAT-PLA-BLK", "name": "dup"}),
            StatusCode::BAD_REQUEST,
            "SKU 'MAT-PLA-BLK' already exists",
        ),
        (
            json!({"sku": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"name": "n", "item_type": "gadget"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "item_type",
        ),
        (
            json!({"name": "n", "selling_price": "lots"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "selling_price",
        ),
        (
            json!({"name": "n", "standard_cost": -1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "standard_cost",
        ),
        (
            json!({"name": "n", "unit": "PARSEC"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unit",
        ),
        (
            json!({"name": "n", "category_id": 999}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "category_id",
        ),
        (json!({"name": 5}), StatusCode::UNPROCESSABLE_ENTITY, "name"),
    ];
    for (body, status, needle) in cases {
        let res = call(&app, Method::POST, "/api/v1/items", Some(body.clone()), &t).await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
        assert!(res.text().contains(needle), "{body} -> {}", res.text());
    }
    assert_eq!(
        count(&app, "SELECT count(*) FROM items").await,
        before,
        "nothing written on bad input"
    );

    // List: by SKU, with total; search by SKU, name or UPC; filter by type; pages.
    let list = call(&app, Method::GET, "/api/v1/items?limit=25", None, &t)
        .await
        .json();
    assert_eq!(list["total"], 9);
    let skus: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["sku"].as_str().unwrap_or_default())
        .collect();
    let mut sorted = skus.clone();
    sorted.sort();
    assert_eq!(skus, sorted);
    assert_eq!(
        call(&app, Method::GET, "/api/v1/items?search=pla", None, &t)
            .await
            .json()["total"],
        1
    );
    assert_eq!(
        call(&app, Method::GET, "/api/v1/items?search=0123", None, &t)
            .await
            .json()["total"],
        1
    );
    assert_eq!(
        call(
            &app,
            Method::GET,
            "/api/v1/items?search=insert%203",
            None,
            &t
        )
        .await
        .json()["total"],
        1
    );
    assert_eq!(
        call(
            &app,
            Method::GET,
            "/api/v1/items?item_type=component",
            None,
            &t
        )
        .await
        .json()["total"],
        7
    );
    let page2 = call(
        &app,
        Method::GET,
        "/api/v1/items?limit=4&offset=4",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(page2["items"].as_array().map(Vec::len), Some(4));
    let bad = call(&app, Method::GET, "/api/v1/items?limit=abc", None, &t).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.json()["details"]["errors"][0]["field"], "query.limit");
    let bad = call(&app, Method::GET, "/api/v1/items?item_type=gizmo", None, &t).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Read by id and by SKU; unknown ids are 404.
    let id = pla["id"].as_i64().expect("id");
    assert_eq!(
        call(&app, Method::GET, &format!("/api/v1/items/{id}"), None, &t)
            .await
            .json()["sku"],
        "MAT-PLA-BLK"
    );
    assert_eq!(
        call(&app, Method::GET, "/api/v1/items/sku/mat-pla-blk", None, &t)
            .await
            .json()["id"],
        id
    );
    assert_eq!(
        call(&app, Method::GET, "/api/v1/items/999999", None, &t)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        call(&app, Method::GET, "/api/v1/items/abc", None, &t)
            .await
            .status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    // Update: omitted fields stay, null clears, duplicate SKU refused.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/items/{id}"),
        Some(json!({"name": "PLA Black 1.75", "upc": null, "reorder_point": "500"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let updated = res.json();
    assert_eq!(
        (
            updated["name"].as_str(),
            updated["upc"].clone(),
            updated["unit"].as_str()
        ),
        (Some("PLA Black 1.75"), Value::Null, Some("G"))
    );
    let dup = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/items/{id}"),
        Some(json!({"sku": "COMP-01"})),
        &t,
    )
    .await;
    assert_eq!(dup.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        call(
            &app,
            Method::PATCH,
            "/api/v1/items/999999",
            Some(json!({"name": "x"})),
            &t
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );

    // Delete deactivates; the default list hides it, active_only=false shows it.
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/{id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.json(), json!({"message": "Item MAT-PLA-BLK deleted"}));
    assert_eq!(
        call(&app, Method::GET, "/api/v1/items", None, &t)
            .await
            .json()["total"],
        8
    );
    let inactive = call(
        &app,
        Method::GET,
        "/api/v1/items?active_only=false",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(inactive["total"], 1);

    // The products shape for dropdowns.
    let products = call(&app, Method::GET, "/api/v1/products?limit=2", None, &t)
        .await
        .json();
    assert_eq!(products["total"], 8);
    assert!(
        products["items"][0].get("cost").is_some() && products["items"][0].get("has_bom").is_some()
    );

    // Anonymous callers get nothing.
    assert_eq!(
        app.get("/api/v1/items").await.status,
        StatusCode::UNAUTHORIZED
    );
}

async fn item_path(app: &TestApp, t: &str, id: &serde_json::Value) -> serde_json::Value {
    call(app, Method::GET, &format!("/api/v1/items/{id}"), None, t)
        .await
        .json()["category_path"]
        .clone()
}

#[tokio::test]
async fn categories_form_a_tree_and_filter_items_with_descendants() {
    let app = header_app().await;
    let t = admin(&app).await;
    let mk = |name: &str, parent: Option<i64>| json!({"name": name, "parent_id": parent});
    let fil = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(mk("Filament", None)),
        &t,
    )
    .await;
    assert_eq!(fil.status, StatusCode::CREATED, "{}", fil.text());
    let fil = fil.json()["id"].as_i64().expect("id");
    let pla = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(mk("PLA", Some(fil))),
        &t,
    )
    .await
    .json();
    assert_eq!(pla["path"], "Filament > PLA");
    let pla = pla["id"].as_i64().expect("id");
    let matte = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(mk("PLA Matte", Some(pla))),
        &t,
    )
    .await
    .json()["id"]
        .as_i64()
        .expect("id");
    // A cycle is refused.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/items/categories/{fil}"),
        Some(json!({"parent_id": matte})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    let dup = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(json!({"name": "pla"})),
        &t,
    )
    .await;
    assert_eq!(dup.status, StatusCode::BAD_REQUEST);

    call(
        &app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"name": "Matte black", "category_id": matte})),
        &t,
    )
    .await;
    call(
        &app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"name": "Loose"})),
        &t,
    )
    .await;
    let under = call(
        &app,
        Method::GET,
        &format!("/api/v1/items?category_id={fil}"),
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(under["total"], 1);
    assert_eq!(under["items"][0]["category_name"], "PLA Matte");
    let one = call(
        &app,
        Method::GET,
        &format!("/api/v1/items/{}", under["items"][0]["id"]),
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(one["category_path"], "Filament > PLA > PLA Matte");
    // The stored path follows renames and moves of any ancestor, down the whole subtree.
    let item = under["items"][0]["id"].clone();
    let renamed = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/items/categories/{fil}"),
        Some(json!({"name": "Filaments"})),
        &t,
    )
    .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text());
    assert_eq!(
        item_path(&app, &t, &item).await,
        "Filaments > PLA > PLA Matte"
    );
    let moved = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/items/categories/{pla}"),
        Some(json!({"parent_id": null})),
        &t,
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text());
    assert_eq!(item_path(&app, &t, &item).await, "PLA > PLA Matte");
    let back = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/items/categories/{pla}"),
        Some(json!({"parent_id": fil})),
        &t,
    )
    .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text());
    assert_eq!(
        item_path(&app, &t, &item).await,
        "Filaments > PLA > PLA Matte"
    );
    let all = call(&app, Method::GET, "/api/v1/items/categories", None, &t)
        .await
        .json();
    assert_eq!(all.as_array().map(Vec::len), Some(3));

    let uoms = call(&app, Method::GET, "/api/v1/admin/uom/", None, &t)
        .await
        .json();
    let codes: Vec<&str> = uoms
        .as_array()
        .expect("uoms")
        .iter()
        .map(|u| u["code"].as_str().unwrap_or_default())
        .collect();
    for code in [
        "EA", "G", "KG", "LB", "OZ", "M", "MM", "CM", "IN", "FT", "L", "ML", "PK", "BOX", "ROLL",
        "HR",
    ] {
        assert!(codes.contains(&code), "{code}");
    }
    let g = uoms
        .as_array()
        .expect("uoms")
        .iter()
        .find(|u| u["code"] == "G")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (g["uom_class"].as_str(), g["to_base_factor"].as_str()),
        (Some("weight"), Some("0.001"))
    );
}

#[tokio::test]
async fn files_upload_with_content_checks_and_never_escape_the_directory() {
    let app = header_app().await;
    let t = admin(&app).await;
    let id = call(
        &app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"name": "Dragon"})),
        &t,
    )
    .await
    .json()["id"]
        .as_i64()
        .expect("id");
    let stl = b"solid dragon\nfacet normal 0 0 0\nendsolid dragon\n";
    let res = upload(
        &app,
        &format!("/api/v1/items/{id}/files"),
        &t,
        "../../dragon.STL",
        stl,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let file = res.json();
    assert_eq!(
        (file["filename"].as_str(), file["content_type"].as_str()),
        (Some("dragon.STL"), Some("model/stl"))
    );
    let stored: String = {
        let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client
            .query_one("SELECT stored_name FROM item_files", &[])
            .await
            .expect("row")
            .get(0)
    };
    assert!(
        stored.starts_with(&format!("items/{id}/")) && !stored.contains(".."),
        "{stored}"
    );
    let on_disk = app.state.config.uploads_dir.join(&stored);
    assert_eq!(std::fs::read(&on_disk).expect("stored file"), stl);

    // Wrong content, wrong type, unknown item: refused, nothing stored.
    let res = upload(
        &app,
        &format!("/api/v1/items/{id}/files"),
        &t,
        "model.3mf",
        b"not a zip",
        &[],
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let res = upload(
        &app,
        &format!("/api/v1/items/{id}/files"),
        &t,
        "run.exe",
        b"MZ",
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    let res = upload(&app, "/api/v1/items/99999/files", &t, "a.stl", stl, &[]).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/items/{id}/files"),
        Some(json!({})),
        &t,
    )
    .await;
    // An upload route reads multipart bodies only.
    assert_eq!(res.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(count(&app, "SELECT count(*) FROM item_files").await, 1);

    let listed = call(
        &app,
        Method::GET,
        &format!("/api/v1/items/{id}/files"),
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    let file_id = file["id"].as_i64().expect("file id");
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/{id}/files/{file_id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(!on_disk.exists());
}

#[tokio::test]
async fn product_csv_import_with_marketplace_headers_errors_and_preview() {
    let app = header_app().await;
    let t = admin(&app).await;
    let template = call(&app, Method::GET, "/api/v1/items/import/template", None, &t).await;
    assert_eq!(
        template.header("content-type"),
        Some("text/csv; charset=utf-8")
    );
    assert!(template.text().starts_with("SKU,Name"));

    // A Shopify-style export with a BOM, `$` prices, a bad row and a duplicate SKU.
    let csv = "\u{feff}Handle,Title,Variant SKU,Variant Price,Cost per item,Variant Barcode,Category\n\
               dragon,Articulated Dragon,DRG-1,\"$1,024.50\",$3.20,0001,Toys\n\
               planter,Planter,PLN-1,abc,1,,Home\n\
               stand,Phone Stand,DRG-1,9.99,0.90,,Home\n\
               ,,,,,,\n\
               hook,Wall Hook,,4.00,,,Home\n";
    let preview = upload(
        &app,
        "/api/v1/items/import/preview",
        &t,
        "products.csv",
        csv.as_bytes(),
        &[],
    )
    .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.text());
    let p = preview.json();
    assert_eq!(
        (
            p["total_rows"].as_i64(),
            p["valid_rows"].as_i64(),
            p["error_rows"].as_i64()
        ),
        (Some(4), Some(2), Some(2))
    );
    assert_eq!(p["detected_format"], "shopify");
    assert_eq!(p["applied"], false);
    assert_eq!(p["errors"][0]["row"], 3);
    assert_eq!(
        count(&app, "SELECT count(*) FROM items").await,
        0,
        "a preview writes nothing"
    );

    let res = upload(
        &app,
        "/api/v1/items/import",
        &t,
        "products.csv",
        csv.as_bytes(),
        &[],
    )
    .await;
    let r = res.json();
    assert_eq!(
        (
            r["created"].as_i64(),
            r["skipped"].as_i64(),
            r["applied"].as_bool()
        ),
        (Some(2), Some(2), Some(true)),
        "{r}"
    );
    let dragon = call(&app, Method::GET, "/api/v1/items/sku/DRG-1", None, &t)
        .await
        .json();
    assert_eq!(
        (
            dragon["selling_price"].as_str(),
            dragon["category_name"].as_str()
        ),
        (Some("1024.50"), Some("Toys"))
    );
    assert!(
        call(&app, Method::GET, "/api/v1/items?search=hook", None, &t)
            .await
            .json()["items"][0]["sku"]
            .as_str()
            .unwrap_or_default()
            .starts_with("FG-")
    );

    // Again: existing SKUs are skipped unless update_existing.
    let again = upload(
        &app,
        "/api/v1/items/import",
        &t,
        "products.csv",
        csv.as_bytes(),
        &[("update_existing", "true")],
    )
    .await
    .json();
    assert_eq!(
        (again["created"].as_i64(), again["updated"].as_i64()),
        (Some(1), Some(1)),
        "{again}"
    );
    let not_csv = upload(
        &app,
        "/api/v1/items/import",
        &t,
        "x.csv",
        b"just,one\n",
        &[],
    )
    .await;
    assert_eq!(not_csv.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn ten_thousand_rows_import_in_one_transaction() {
    let app = header_app().await;
    let t = admin(&app).await;
    let mut csv = String::from("SKU,Name,Selling Price,Standard Cost,Unit\n");
    for i in 0..10_000 {
        csv.push_str(&format!("BULK-{i:05},Bulk item {i},$1{i}.99,0.5,EA\n"));
    }
    let started = std::time::Instant::now();
    let res = upload(
        &app,
        "/api/v1/items/import",
        &t,
        "bulk.csv",
        csv.as_bytes(),
        &[],
    )
    .await;
    let elapsed = started.elapsed();
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["created"], 10_000);
    assert_eq!(count(&app, "SELECT count(*) FROM items").await, 10_000);
    println!("10,000-row product import took {elapsed:?}");
}

#[tokio::test]
async fn example_data_loads_once() {
    let app = header_app().await;
    let t = admin(&app).await;
    let first = call(
        &app,
        Method::POST,
        "/api/v1/setup/seed-example-data",
        None,
        &t,
    )
    .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let first = first.json();
    assert!(first["items_created"].as_i64().unwrap_or(0) >= 10);
    assert!(first["materials_created"].as_i64().unwrap_or(0) >= 5);
    let n = count(&app, "SELECT count(*) FROM items").await;
    let second = call(
        &app,
        Method::POST,
        "/api/v1/setup/seed-example-data",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(second["items_created"], 0);
    assert_eq!(second["items_skipped"], first["items_created"]);
    assert_eq!(count(&app, "SELECT count(*) FROM items").await, n);
}

#[tokio::test]
async fn a_list_costs_the_same_number_of_statements_whatever_its_size() {
    let uploads =
        std::env::temp_dir().join(format!("strata-uploads-{}", uuid::Uuid::new_v4().simple()));
    let uploads = uploads.to_string_lossy().into_owned();
    let (app, counter) =
        TestApp::spawn_counting(&[("AUTH_MODE", "header"), ("UPLOADS_DIR", &uploads)]).await;
    let t = admin(&app).await;
    let cat = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(json!({"name": "Toys"})),
        &t,
    )
    .await
    .json()["id"]
        .clone();
    for i in 0..40 {
        call(
            &app,
            Method::POST,
            "/api/v1/items",
            Some(json!({"sku": format!("T-{i:02}"), "name": "Toy", "category_id": cat})),
            &t,
        )
        .await;
    }
    let query = "query($n: Int) { items(first: $n) { nodes { sku categoryName categoryPath files { id } } } }";
    let _logs = tracing::subscriber::set_default(
        tracing_subscriber::fmt()
            .with_env_filter("strata::sql=debug")
            .with_test_writer()
            .finish(),
    );
    let mut counts = Vec::new();
    for n in [2, 40] {
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
        assert_eq!(
            res["data"]["items"]["nodes"].as_array().map(Vec::len),
            Some(n as usize),
            "{res}"
        );
        counts.push(counter.load(Ordering::SeqCst) - before);
    }
    println!(
        "statements for 2 items: {}, for 40 items: {}",
        counts[0], counts[1]
    );
    assert_eq!(
        counts[0], counts[1],
        "the statement count grows with the page size"
    );
    assert!(counts[1] <= 6, "{counts:?}");

    // The benchmarked REST reads: one item is the viewer and the row (its category name, path
    // and files come along in the row's statement); a page of 50 is the viewer and the page
    // (its total from COUNT(*) OVER()), flat in page size.
    let id = call(&app, Method::GET, "/api/v1/items?limit=1", None, &t)
        .await
        .json()["items"][0]["id"]
        .clone();
    let file = upload(
        &app,
        &format!("/api/v1/items/{id}/files"),
        &t,
        "part.stl",
        b"solid part\nendsolid part\n",
        &[],
    )
    .await;
    assert_eq!(file.status, StatusCode::CREATED, "{}", file.text());
    let before = counter.load(Ordering::SeqCst);
    let one = call(&app, Method::GET, &format!("/api/v1/items/{id}"), None, &t).await;
    let one_cost = counter.load(Ordering::SeqCst) - before;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text());
    let one = one.json();
    assert_eq!(one["category_name"], "Toys");
    assert_eq!(one["category_path"], "Toys");
    assert_eq!(one["files"].as_array().map(Vec::len), Some(1), "{one}");
    assert!(
        one_cost <= 2,
        "GET /items/{{id}} cost {one_cost} statements"
    );
    for limit in [5, 50] {
        let before = counter.load(Ordering::SeqCst);
        let page = call(
            &app,
            Method::GET,
            &format!("/api/v1/items?limit={limit}"),
            None,
            &t,
        )
        .await;
        let cost = counter.load(Ordering::SeqCst) - before;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text());
        assert_eq!(page.json()["total"], 40);
        assert!(cost <= 3, "GET /items?limit={limit} cost {cost} statements");
    }
    // Sorting: any listed column, either way; unknown columns are a 422 naming the parameter.
    let desc = call(
        &app,
        Method::GET,
        "/api/v1/items?sort_by=sku&sort_order=desc&limit=2",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(desc["items"][0]["sku"], "T-39", "{desc}");
    assert_eq!(desc["items"][1]["sku"], "T-38", "{desc}");
    let products = call(
        &app,
        Method::GET,
        "/api/v1/products?sort_by=created_at&sort_order=desc&limit=1",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(products["items"][0]["sku"], "T-39", "{products}");
    let bad = call(&app, Method::GET, "/api/v1/items?sort_by=colour", None, &t).await;
    assert_eq!(
        bad.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad.text()
    );
    assert!(bad.text().contains("query.sort_by"), "{}", bad.text());
    // CONTRACT 5.6: up to 2000 a page.
    let big = call(&app, Method::GET, "/api/v1/items?limit=2000", None, &t).await;
    assert_eq!(big.status, StatusCode::OK, "{}", big.text());
    let too_big = call(&app, Method::GET, "/api/v1/items?limit=2001", None, &t).await;
    assert_eq!(
        too_big.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        too_big.text()
    );
}

#[tokio::test]
async fn without_credentials_a_protected_route_is_401_before_the_body_is_read() {
    let app = header_app().await;
    let res = app
        .request(
            Request::builder()
                .method(Method::POST)
                .uri("/api/v1/items")
                .header("content-type", "application/json")
                .body(Body::from("{not json"))
                .expect("request"),
        )
        .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    assert_eq!(res.json(), json!({"detail": "Not authenticated"}));
    let res = app
        .request(
            Request::builder()
                .method(Method::PUT)
                .uri("/api/v1/auth/me")
                .body(Body::empty())
                .expect("request"),
        )
        .await;
    assert_eq!(res.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(res.json(), json!({"detail": "Method Not Allowed"}));
    assert_eq!(app.get("/api/v1/docs/").await.status, StatusCode::OK);
}

#[tokio::test]
async fn an_items_csv_in_windows_1252_with_semicolons_imports_through_the_shared_engine() {
    let app = header_app().await;
    let t = admin(&app).await;
    // Excel on Windows: cp1252 bytes (é = 0xE9, € = 0x80), `;` separators, CRLF, and a
    // row whose quote is left open (a row error, never an item whose name spans lines).
    let csv: &[u8] =
        b"SKU;Name;Price\r\nEU-1;Caf\xe9 mug \x80;12.50\r\nEU-2;\"Open quote;3\r\nEU-3;Plain;4\r\n";
    let res = upload(&app, "/api/v1/items/import", &t, "items.csv", csv, &[]).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let report = res.json();
    let item = call(&app, Method::GET, "/api/v1/items/sku/EU-1", None, &t).await;
    assert_eq!(item.status, StatusCode::OK, "{report}");
    assert_eq!(item.json()["name"], "Café mug €");
    let errors = report["errors"].as_array().cloned().unwrap_or_default();
    assert!(
        errors
            .iter()
            .any(|e| e["row"] == 3 && e["reason"].as_str().unwrap_or_default().contains("quote")),
        "{report}"
    );
    assert_eq!(
        count(&app, "SELECT count(*) FROM items WHERE name LIKE '%\n%'").await,
        0
    );
}

#[tokio::test]
async fn product_images_are_sniffed_stored_under_generated_names_read_and_deleted() {
    use crate::common::api::upload;
    let app = header_app().await;
    let t = admin(&app).await;
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";
    for (name, bytes) in [("photo.bmp", png), ("photo.png", b"GIF89a..".as_slice())] {
        let res = upload(
            &app,
            "/api/v1/admin/uploads/product-image",
            &t,
            name,
            bytes,
            &[],
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{name}: {}",
            res.text()
        );
    }
    let big = [png, &vec![0u8; 5 * 1024 * 1024]].concat();
    let res = upload(
        &app,
        "/api/v1/admin/uploads/product-image",
        &t,
        "big.png",
        &big,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert_eq!(res.json()["detail"], "File too large. Maximum size: 5MB");
    let res = upload(
        &app,
        "/api/v1/admin/uploads/product-image",
        &t,
        "../../etc/Shelf.PNG",
        png,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let image = res.json();
    let filename = image["filename"].as_str().expect("filename").to_string();
    assert!(
        filename.len() == 36 && filename.ends_with(".png"),
        "{filename}"
    );
    assert_eq!(image["size"], png.len());
    let url = image["url"].as_str().expect("url");
    let got = call(&app, Method::GET, url, None, &t).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.body, png);
    let res = call(
        &app,
        Method::DELETE,
        "/api/v1/admin/uploads/product-image/..%2Fsecret.png",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    let gone = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/uploads/product-image/{filename}"),
        None,
        &t,
    )
    .await;
    assert_eq!(gone.status, StatusCode::OK);
    assert_eq!(gone.json(), json!({"message": "File deleted successfully"}));
    let again = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/uploads/product-image/{filename}"),
        None,
        &t,
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
}
