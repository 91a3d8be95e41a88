//! Contract gaps in the areas already built (issue 10): the company logo, the AI settings,
//! the configuration security scan, the company name at setup, catalog stats and category
//! routes, unit conversion, printer brand facts and the original's spellings. Each through
//! REST with its shape, who gets 401/403, and bad input answered with a 4xx and the database
//! unchanged.

use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;
use crate::common::api::create_item;
use crate::common::api::{admin, app, call, operator, upload};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-not-a-real-image-but-png-magic";
const JPEG: &[u8] = b"\xFF\xD8\xFF\xE0\0\x10JFIF\0rest";

async fn table(app: &TestApp, name: &str) -> String {
    crate::common::api::table_json(app, name).await
}

/// The key-value table (keyed by `key`, not `id`) as JSON text.
async fn metadata(app: &TestApp) -> String {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .query_one(
            "SELECT coalesce(json_agg(t ORDER BY t.key)::text, '[]') FROM service_metadata t",
            &[],
        )
        .await
        .expect("dump")
        .get::<_, String>(0)
}

#[tokio::test]
async fn the_company_logo_is_uploaded_served_and_removed() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    // None yet: public 404, and the settings say so.
    assert_eq!(
        app.get("/api/v1/settings/company/logo").await.status,
        StatusCode::NOT_FOUND
    );
    let s = call(&app, Method::GET, "/api/v1/settings/company", None, &op)
        .await
        .json();
    assert_eq!(s["has_logo"], json!(false));

    // Only admins upload: no token 401, an operator 403, nothing changed.
    let before = table(&app, "company_settings").await;
    let res = upload(
        &app,
        "/api/v1/settings/company/logo",
        "",
        "logo.png",
        PNG,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{}", res.text());
    let res = upload(
        &app,
        "/api/v1/settings/company/logo",
        &op,
        "logo.png",
        PNG,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.text());
    // An SVG, or a text file named .png, is refused by content.
    for (name, content) in [
        (
            "logo.svg",
            &b"<svg xmlns='http://www.w3.org/2000/svg'/>"[..],
        ),
        ("logo.png", &b"just text"[..]),
    ] {
        let res = upload(
            &app,
            "/api/v1/settings/company/logo",
            &t,
            name,
            content,
            &[],
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            res.text()
        );
        assert!(res.text().contains("PNG or JPEG"), "{}", res.text());
    }
    assert_eq!(table(&app, "company_settings").await, before);

    // A PNG is stored and served to anyone with its content type.
    let res = upload(
        &app,
        "/api/v1/settings/company/logo",
        &t,
        "My Logo.png",
        PNG,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(body["settings"]["has_logo"], json!(true), "{body}");
    let first = body["settings"]["logo_filename"]
        .as_str()
        .expect("name")
        .to_string();
    assert!(first.ends_with(".png"), "{first}");
    let res = app.get("/api/v1/settings/company/logo").await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.header("content-type"), Some("image/png"));
    assert_eq!(res.body, PNG);

    // A JPEG replaces it; the old file is gone from disk.
    let res = upload(
        &app,
        "/api/v1/settings/company/logo",
        &t,
        "logo.jpg",
        JPEG,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let s = call(&app, Method::GET, "/api/v1/settings/company", None, &op)
        .await
        .json();
    assert_eq!(s["has_logo"], json!(true));
    assert!(
        s["logo_filename"].as_str().expect("name").ends_with(".jpg"),
        "{s}"
    );
    let uploads = &app.state.config.uploads_dir;
    assert!(!uploads.join("logo").join(&first).exists());
    let res = app.get("/api/v1/settings/company/logo").await;
    assert_eq!(res.header("content-type"), Some("image/jpeg"));
    assert_eq!(res.body, JPEG);

    // Delete: operator 403, admin 200, then 404 again (and a second delete is a 404).
    let res = call(
        &app,
        Method::DELETE,
        "/api/v1/settings/company/logo",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let res = call(
        &app,
        Method::DELETE,
        "/api/v1/settings/company/logo",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["settings"]["has_logo"], json!(false));
    assert_eq!(
        app.get("/api/v1/settings/company/logo").await.status,
        StatusCode::NOT_FOUND
    );
    let res = call(
        &app,
        Method::DELETE,
        "/api/v1/settings/company/logo",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn ai_settings_answer_the_disabled_state_and_only_admins_change_them() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    let res = app.get("/api/v1/settings/ai").await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    let res = call(&app, Method::GET, "/api/v1/settings/ai", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"enabled": false, "provider": null, "model": null, "ollama_url": null})
    );

    let before = metadata(&app).await;
    let change = json!({"enabled": true, "provider": "ollama", "model": "llama3", "ollama_url": "http://localhost:11434"});
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/ai",
        Some(change.clone()),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    // An unknown provider, enabling without one, a bad URL: 422 naming the field, no change.
    for (bad, field) in [
        (json!({"provider": "openai"}), "provider"),
        (json!({"enabled": true}), "provider"),
        (json!({"ollama_url": "ftp://x"}), "ollama_url"),
        (json!({"model": "m".repeat(101)}), "model"),
    ] {
        let res = call(
            &app,
            Method::PATCH,
            "/api/v1/settings/ai",
            Some(bad.clone()),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            res.text()
        );
        assert!(res.text().contains(field), "{bad}: {}", res.text());
    }
    assert_eq!(metadata(&app).await, before);

    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/ai",
        Some(change.clone()),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json(), change);
    let res = call(&app, Method::GET, "/api/v1/settings/ai", None, &op).await;
    assert_eq!(res.json(), change);
    // Off again: the choice stays.
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/ai",
        Some(json!({"enabled": false})),
        &t,
    )
    .await;
    assert_eq!(res.json()["provider"], json!("ollama"));
    assert_eq!(res.json()["enabled"], json!(false));
}

#[tokio::test]
async fn the_security_scan_reports_this_deployment_to_admins_only() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    for path in [
        "/api/v1/security/audit",
        "/api/v1/security/audit/export?format=json",
        "/api/v1/security/status",
    ] {
        assert_eq!(
            app.get(path).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        let res = call(&app, Method::GET, path, None, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
    }

    let res = call(&app, Method::GET, "/api/v1/security/audit", None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let scan = res.json();
    let keys: Vec<&str> = scan
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "audit_version",
            "generated_at",
            "filaops_version",
            "environment",
            "summary",
            "checks",
            "system_info"
        ]
    );
    assert_eq!(scan["filaops_version"], json!(env!("CARGO_PKG_VERSION")));
    assert_eq!(scan["environment"], json!("development"));
    let checks = scan["checks"].as_array().expect("checks");
    let ids: Vec<&str> = checks
        .iter()
        .map(|c| c["id"].as_str().expect("id"))
        .collect();
    for id in [
        "secret_key",
        "environment",
        "https",
        "cors_origins",
        "mail",
        "password_reset",
        "trusted_proxies",
        "rate_limiting",
        "error_tracking",
        "database",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    for c in checks {
        let keys: Vec<&str> = c
            .as_object()
            .expect("check")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "id",
                "name",
                "category",
                "status",
                "message",
                "details",
                "remediation"
            ]
        );
        assert!(
            ["critical", "warning", "info"].contains(&c["category"].as_str().expect("category"))
        );
        assert!(["pass", "fail", "warn", "info"].contains(&c["status"].as_str().expect("status")));
    }
    let by_id = |id: &str| checks.iter().find(|c| c["id"] == json!(id)).expect("check");
    // The test deployment: development, database up, no error tracker.
    assert_eq!(by_id("database")["status"], json!("pass"));
    assert_eq!(by_id("environment")["status"], json!("warn"));
    assert!(by_id("environment")["remediation"].is_string());
    assert_eq!(by_id("error_tracking")["status"], json!("info"));
    let summary = &scan["summary"];
    assert_eq!(summary["total_checks"], json!(checks.len()));
    let sum: i64 = ["passed", "failed", "warnings", "info"]
        .iter()
        .map(|k| summary[k].as_i64().expect("count"))
        .sum();
    assert_eq!(sum, checks.len() as i64);
    assert!(
        ["pass", "warn", "fail"].contains(&summary["overall_status"].as_str().expect("status"))
    );
    let info = &scan["system_info"];
    assert!(
        info["database"]
            .as_str()
            .expect("db")
            .starts_with("PostgreSQL"),
        "{info}"
    );
    assert_eq!(info["python_version"], json!(null));

    // The export: the same report as a download.
    let res = call(
        &app,
        Method::GET,
        "/api/v1/security/audit/export?format=json",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let disposition = res.header("content-disposition").expect("disposition");
    assert!(
        disposition.starts_with("attachment; filename=\"security-audit-"),
        "{disposition}"
    );
    assert_eq!(
        res.json()["checks"].as_array().expect("checks").len(),
        checks.len()
    );
    let res = call(
        &app,
        Method::GET,
        "/api/v1/security/audit/export?format=pdf",
        None,
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );

    let res = call(&app, Method::GET, "/api/v1/security/status", None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json(), *summary);
}

#[tokio::test]
async fn the_setup_wizard_saves_the_company_name() {
    let app = app().await;
    // Too long a company name: 422, no admin and no name saved.
    let before = table(&app, "company_settings").await;
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada", "company_name": "x".repeat(101)}),
        )
        .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(table(&app, "company_settings").await, before);
    assert_eq!(table(&app, "users").await, "[]");

    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada", "company_name": "  Acme Prints  "}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let t = res.json()["access_token"]
        .as_str()
        .expect("token")
        .to_string();
    let s = call(&app, Method::GET, "/api/v1/settings/company", None, &t)
        .await
        .json();
    assert_eq!(s["company_name"], json!("Acme Prints"));
}

async fn category(app: &TestApp, token: &str, code: &str, parent: Option<i64>) -> i64 {
    let res = call(
        app,
        Method::POST,
        "/api/v1/items/categories",
        Some(json!({"code": code, "name": format!("Cat {code}"), "parent_id": parent})),
        token,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()["id"].as_i64().expect("id")
}

#[tokio::test]
async fn catalog_stats_low_stock_and_duplicates() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    assert_eq!(
        app.get("/api/v1/items/stats").await.status,
        StatusCode::UNAUTHORIZED
    );
    let res = call(&app, Method::GET, "/api/v1/items/stats", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"total": 0, "total_items": 0, "active_items": 0, "inactive_items": 0,
               "by_type": {"finished_good": 0, "component": 0, "supply": 0, "service": 0, "material": 0, "packaging": 0},
               "needs_reorder": 0, "low_stock_count": 0, "category_count": 0,
               "finished_goods": 0, "components": 0, "supplies": 0, "materials": 0, "packaging": 0})
    );

    let widget = create_item(
        &app,
        &op,
        json!({"sku": "W-1", "name": "Widget", "item_type": "finished_good", "reorder_point": "5"}),
    )
    .await;
    create_item(
        &app,
        &op,
        json!({"sku": "S-1", "name": "Screw", "item_type": "component"}),
    )
    .await;
    let gone = create_item(
        &app,
        &op,
        json!({"sku": "S-2", "name": "Old screw", "item_type": "component"}),
    )
    .await;
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/{gone}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());

    let stats = call(&app, Method::GET, "/api/v1/items/stats", None, &op)
        .await
        .json();
    assert_eq!(stats["total_items"], json!(3));
    assert_eq!(stats["active_items"], json!(2));
    assert_eq!(stats["inactive_items"], json!(1));
    assert_eq!(stats["by_type"]["finished_good"], json!(1));
    assert_eq!(stats["by_type"]["component"], json!(1));
    assert_eq!(stats["low_stock_count"], json!(1));
    // FilaOps's stat cards: the active items by type, flat.
    assert_eq!(
        (
            &stats["total"],
            &stats["finished_goods"],
            &stats["components"],
            &stats["needs_reorder"]
        ),
        (&json!(2), &json!(1), &json!(1), &json!(1))
    );

    // Nothing is on hand yet, so the item with a reorder point is low.
    let res = call(&app, Method::GET, "/api/v1/items/low-stock", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let report = res.json();
    assert_eq!(report["summary"]["critical_count"], json!(1), "{report}");
    let low = &report["items"];
    assert_eq!(low.as_array().expect("rows").len(), 1, "{report}");
    assert_eq!(low[0]["sku"], json!("W-1"));
    assert_eq!(low[0]["on_hand_qty"], json!("0"));
    assert_eq!(low[0]["shortfall"], low[0]["reorder_point"]);
    assert_eq!(low[0]["shortfall"], json!("5.00"));

    // Duplicate: generated SKU and copied name, or the ones given; a taken SKU is a 400.
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/items/{widget}/duplicate"),
        Some(json!({})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let copy = res.json();
    assert_eq!(copy["name"], json!("Widget (Copy)"));
    assert!(
        copy["sku"].as_str().expect("sku").starts_with("FG-"),
        "{copy}"
    );
    assert_eq!(copy["reorder_point"], json!("5.00"), "{copy}");
    assert_ne!(copy["id"], json!(widget));
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/items/{widget}/duplicate"),
        Some(json!({"new_sku": "w-2", "new_name": "Widget two"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    assert_eq!(res.json()["sku"], json!("W-2"));
    let before = table(&app, "items").await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/items/{widget}/duplicate"),
        Some(json!({"new_sku": "W-1"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(res.text().contains("already exists"), "{}", res.text());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/999999/duplicate",
        Some(json!({})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/abc/duplicate",
        Some(json!({})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(table(&app, "items").await, before);
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/items/{widget}/duplicate"),
        Some(json!({})),
        "",
    )
    .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_category_tree_one_category_and_deleting_unused_ones() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let root = category(&app, &t, "FIL", None).await;
    let pla = category(&app, &t, "PLA", Some(root)).await;
    let matte = category(&app, &t, "MATTE", Some(pla)).await;
    let spare = category(&app, &t, "SPARE", None).await;

    let res = call(
        &app,
        Method::GET,
        "/api/v1/items/categories/tree",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let tree = res.json();
    let roots = tree.as_array().expect("roots");
    assert_eq!(roots.len(), 2, "{tree}");
    let fil = roots.iter().find(|n| n["id"] == json!(root)).expect("root");
    assert_eq!(fil["children"][0]["id"], json!(pla));
    assert_eq!(fil["children"][0]["children"][0]["id"], json!(matte));
    assert_eq!(fil["children"][0]["children"][0]["children"], json!([]));

    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/items/categories/{matte}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["path"], json!("Cat FIL > Cat PLA > Cat MATTE"));
    let res = call(
        &app,
        Method::GET,
        "/api/v1/items/categories/999999",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);

    // Delete: admins only; refused while a child or an item uses it.
    create_item(
        &app,
        &op,
        json!({"sku": "P-1", "name": "PLA black", "category_id": matte}),
    )
    .await;
    let before = table(&app, "item_categories").await;
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/categories/{spare}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    for (id, why) in [(pla, "sub-categor"), (matte, "item(s) use it")] {
        let res = call(
            &app,
            Method::DELETE,
            &format!("/api/v1/items/categories/{id}"),
            None,
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
        assert!(res.text().contains(why), "{}", res.text());
    }
    assert_eq!(table(&app, "item_categories").await, before);
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/categories/{spare}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["message"], json!("Category SPARE deleted"));
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/items/categories/{spare}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn units_by_class_by_code_and_converted() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    let res = call(&app, Method::GET, "/api/v1/admin/uom/classes", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let classes = res.json();
    let weight = classes
        .as_array()
        .expect("classes")
        .iter()
        .find(|c| c["uom_class"] == json!("weight"))
        .expect("weight");
    assert_eq!(weight["base_unit"], json!("KG"));
    assert!(
        weight["units"]
            .as_array()
            .expect("units")
            .contains(&json!("G"))
    );

    let res = call(&app, Method::GET, "/api/v1/admin/uom/lb", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["code"], json!("LB"));
    let res = call(&app, Method::GET, "/api/v1/admin/uom/XYZ", None, &op).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);

    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"quantity": "1500", "from_unit": "G", "to_unit": "KG"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json()["converted_quantity"],
        json!("1.5"),
        "{}",
        res.text()
    );
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"quantity": 2, "from_unit": "kg", "to_unit": "lb"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert!(
        res.json()["converted_quantity"]
            .as_str()
            .expect("qty")
            .starts_with("4.409248"),
        "{}",
        res.text()
    );
    // Different classes: 400; unknown unit or a missing quantity: 422 naming the field.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"quantity": 1, "from_unit": "G", "to_unit": "M"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"quantity": 1, "from_unit": "G", "to_unit": "PARSEC"})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("to_unit"), "{}", res.text());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"from_unit": "G", "to_unit": "KG"})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("quantity"), "{}", res.text());
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"quantity": 1, "from_unit": "G", "to_unit": "KG"})),
        "",
    )
    .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn printer_brands_scrap_reason_spellings_and_every_team_user_route_answer() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    let res = call(&app, Method::GET, "/api/v1/printers/brands/info", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let brands = res.json();
    let codes: Vec<&str> = brands
        .as_array()
        .expect("brands")
        .iter()
        .map(|b| b["code"].as_str().expect("code"))
        .collect();
    assert_eq!(
        codes,
        [
            "bambulab",
            "klipper",
            "octoprint",
            "prusa",
            "creality",
            "generic"
        ]
    );
    assert_eq!(brands[0]["protocol"], json!("mqtt"));
    assert_eq!(brands[0]["supports_ams"], json!(true));
    assert_eq!(
        app.get("/api/v1/printers/brands/info").await.status,
        StatusCode::UNAUTHORIZED
    );

    // The original's scrap reason spellings.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/production-orders/scrap-reasons",
        Some(json!({"code": "warp", "name": "Warping"})),
        &t,
    )
    .await;
    assert!(res.status.is_success(), "{}", res.text());
    let id = res.json()["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::GET,
        "/api/v1/production-orders/scrap-reasons/all",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/production-orders/scrap-reasons/{id}"),
        Some(json!({"name": "Warped"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/production-orders/scrap-reasons/{id}"),
        None,
        &t,
    )
    .await;
    assert!(res.status.is_success(), "{}", res.text());

    // Every /admin/users route of the original answers an admin (and refuses an operator).
    let res = call(&app, Method::GET, "/api/v1/admin/users/", None, &t).await;
    let users = res.json();
    let op_id = users
        .as_array()
        .expect("users")
        .iter()
        .find(|u| u["email"] == json!("op@example.com"))
        .expect("op")["id"]
        .as_i64()
        .expect("id");
    let routes = [
        (Method::GET, "/api/v1/admin/users/".to_string(), None),
        (
            Method::GET,
            "/api/v1/admin/users/stats/summary".to_string(),
            None,
        ),
        (Method::GET, format!("/api/v1/admin/users/{op_id}"), None),
        (
            Method::PATCH,
            format!("/api/v1/admin/users/{op_id}"),
            Some(json!({"first_name": "Otto"})),
        ),
        (
            Method::POST,
            format!("/api/v1/admin/users/{op_id}/reset-password"),
            Some(json!({"new_password": "Operator-pass9!"})),
        ),
        (Method::DELETE, format!("/api/v1/admin/users/{op_id}"), None),
        (
            Method::POST,
            format!("/api/v1/admin/users/{op_id}/reactivate"),
            Some(json!({})),
        ),
        (
            Method::POST,
            "/api/v1/admin/users/".to_string(),
            Some(
                json!({"email": "bo@example.com", "password": "Operator-pass2!", "account_type": "operator"}),
            ),
        ),
    ];
    for (method, path, body) in routes {
        let res = call(&app, method.clone(), &path, body, &t).await;
        assert!(
            res.status.is_success(),
            "{method} {path}: {} {}",
            res.status,
            res.text()
        );
    }
    let res = call(
        &app,
        Method::GET,
        "/api/v1/admin/users/stats/summary",
        None,
        &op,
    )
    .await;
    assert!(
        matches!(res.status, StatusCode::FORBIDDEN | StatusCode::UNAUTHORIZED),
        "{}",
        res.status
    );
}

#[tokio::test]
async fn admins_add_and_change_units_and_conversions_stay_sound() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    // A spool of 250 g, stated against grams: stored against the class's base (KG).
    let body = json!({"code": "spl", "name": "Spool (250 g)", "uom_class": "Weight", "to_base_factor": "250", "base_unit_code": "g"});
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/",
        Some(body.clone()),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/",
        Some(body.clone()),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let unit = res.json();
    assert_eq!(unit["code"], json!("SPL"));
    assert_eq!(unit["uom_class"], json!("weight"));
    assert_eq!(unit["base_unit_code"], json!("KG"));
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/uom/convert",
        Some(json!({"quantity": "2", "from_unit": "SPL", "to_unit": "G"})),
        &op,
    )
    .await;
    assert_eq!(
        res.json()["converted_quantity"],
        json!("500"),
        "{}",
        res.text()
    );

    // Refusals leave the units as they were.
    let before = table(&app, "units_of_measure").await;
    for (body, want) in [
        (body.clone(), StatusCode::BAD_REQUEST),
        (
            json!({"code": "X1", "name": "X", "uom_class": "weight", "to_base_factor": "0"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"code": "X2", "name": "X", "uom_class": "weight", "base_unit_code": "M"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"code": "X3", "name": "X", "uom_class": "weight", "base_unit_code": "NOPE"}),
            StatusCode::NOT_FOUND,
        ),
        (
            json!({"code": "TOOLONGCODE1", "name": "X", "uom_class": "weight"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"code": "PX", "name": "Pixel", "uom_class": "screen"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/admin/uom/",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, want, "{body}: {}", res.text());
    }
    for (code, body, want) in [
        (
            "KG",
            json!({"to_base_factor": "2"}),
            StatusCode::BAD_REQUEST,
        ),
        ("KG", json!({"active": false}), StatusCode::BAD_REQUEST),
        ("NOPE", json!({"name": "x"}), StatusCode::NOT_FOUND),
        (
            "SPL",
            json!({"to_base_factor": "-1"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(
            &app,
            Method::PATCH,
            &format!("/api/v1/admin/uom/{code}"),
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, want, "{code} {body}: {}", res.text());
    }
    assert_eq!(table(&app, "units_of_measure").await, before);

    // A unit without a named base is against the class's base; a change renames and
    // re-factors.
    let res = call(&app, Method::POST, "/api/v1/admin/uom/", Some(json!({"code": "DOZ", "name": "Dozen", "uom_class": "quantity", "to_base_factor": "12"})), &t).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    assert_eq!(res.json()["base_unit_code"], json!("EA"));
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/admin/uom/spl",
        Some(json!({"name": "Spool (1 kg)", "to_base_factor": "1"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["name"], json!("Spool (1 kg)"));
    assert_eq!(res.json()["to_base_factor"], json!("1.00"));
}
