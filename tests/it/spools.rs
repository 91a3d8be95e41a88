//! Spools through REST (CONTRACT 5.10; DOMAIN "Postings"): create from query parameters,
//! list with filters, detail with usage history, weight corrections that post a
//! `spool_adjustment` with a balanced journal entry, consumption that posts a consumption
//! (1210 WIP / 1200), the usable spools of a product, admin-only access, bad input as a
//! 4xx that changes nothing, and idempotent replays.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, operator, released_order, table_json};

async fn books(app: &TestApp) -> String {
    let mut all = String::new();
    for table in [
        "spools",
        "spool_usage",
        "inventory_transactions",
        "inventory_balances",
        "gl_journal_entries",
        "gl_journal_entry_lines",
    ] {
        all.push_str(&table_json(app, table).await);
    }
    all
}

async fn material(app: &TestApp, t: &str, sku: &str, grams: &str) -> i64 {
    let res = call(
        app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"sku": sku, "name": format!("{sku} filament"), "item_type": "material", "unit": "G", "standard_cost": "0.02"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let id = res.json()["id"].as_i64().expect("id");
    let res = call(
        app,
        Method::POST,
        "/api/v1/admin/inventory/transactions",
        Some(json!({"product_id": id, "transaction_type": "receipt", "quantity": grams, "cost_per_unit": "0.02"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    id
}

async fn create(app: &TestApp, t: &str, query: &str) -> Value {
    let res = call(
        app,
        Method::POST,
        &format!("/api/v1/spools/?{query}"),
        None,
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()
}

/// A released production order (of a new finished good `sku`) to consume filament for.
async fn open_order(app: &TestApp, t: &str, sku: &str) -> (i64, String) {
    let product = item(sku).create(app, t).await;
    released_order(app, t, product, "1").await
}

async fn get(app: &TestApp, t: &str, path: &str) -> Value {
    let res = call(app, Method::GET, path, None, t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()
}

fn num(v: &Value) -> f64 {
    v.as_str()
        .map(|s| s.parse::<f64>().expect("number"))
        .or_else(|| v.as_f64())
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Every journal entry balances and the books' consistency check passes.
async fn balanced(app: &TestApp, t: &str) {
    let tb = get(app, t, "/api/v1/accounting/trial-balance").await;
    assert_eq!(num(&tb["total_debits"]), num(&tb["total_credits"]), "{tb}");
    let res = call(
        app,
        Method::POST,
        "/api/v1/inventory/validate-consistency",
        None,
        t,
    )
    .await;
    assert_eq!(res.json(), json!({"consistent": true, "mismatches": []}));
}

async fn on_hand(app: &TestApp, t: &str, item: i64) -> f64 {
    let s = get(
        app,
        t,
        &format!("/api/v1/admin/inventory/transactions/inventory-summary?product_id={item}&show_zero=true"),
    )
    .await;
    s["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|b| num(&b["on_hand_quantity"]))
        .sum()
}

#[tokio::test]
async fn spools_are_created_listed_corrected_and_consumed_through_the_ledger() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = material(&app, &t, "MAT-PLA-BLK", "3000").await;

    let created = create(
        &app,
        &t,
        &format!("spool_number=SP-001&product_id={pla}&initial_weight_kg=1000&supplier_lot_number=LOT-9&expiry_date=2030-01-31"),
    )
    .await;
    assert_eq!(created["spool_number"], "SP-001");
    assert_eq!(created["message"], "Spool created successfully");
    let id = created["id"].as_i64().expect("id");
    create(
        &app,
        &t,
        &format!(
            "spool_number=SP-002&product_id={pla}&initial_weight_kg=1000&current_weight_kg=50"
        ),
    )
    .await;
    // Creating a spool posts nothing: its stock is already on the books.
    assert_eq!(on_hand(&app, &t, pla).await, 3000.0);

    let list = get(&app, &t, "/api/v1/spools/").await;
    assert_eq!(list["total"], 2);
    assert_eq!(list["limit"], 100);
    assert_eq!(list["offset"], 0);
    let row = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|r| r["id"] == id)
        .expect("row")
        .clone();
    for key in [
        "id",
        "spool_number",
        "product_id",
        "product_sku",
        "product_name",
        "initial_weight_kg",
        "current_weight_kg",
        "weight_remaining_percent",
        "status",
        "received_date",
        "expiry_date",
        "location_id",
        "location_name",
        "supplier_lot_number",
        "notes",
        "is_low",
        "is_empty",
        "created_at",
        "updated_at",
    ] {
        assert!(row.get(key).is_some(), "{key} missing in {row}");
    }
    assert_eq!(row["product_sku"], "MAT-PLA-BLK");
    assert_eq!(num(&row["current_weight_kg"]), 1000.0);
    assert_eq!(row["status"], "active");
    assert_eq!(row["location_name"], "Main Warehouse");
    assert_eq!(row["is_low"], false);

    // Filters.
    let low = get(&app, &t, "/api/v1/spools?low_weight=true").await;
    assert_eq!(low["total"], 1);
    assert_eq!(low["items"][0]["spool_number"], "SP-002");
    assert_eq!(low["items"][0]["is_low"], true);
    let by_status = get(&app, &t, "/api/v1/spools/?status=empty").await;
    assert_eq!(by_status["total"], 0);
    let by_product = get(
        &app,
        &t,
        &format!("/api/v1/spools/?product_id={pla}&limit=1"),
    )
    .await;
    assert_eq!(by_product["total"], 2);
    assert_eq!(by_product["items"].as_array().map(Vec::len), Some(1));

    // A weight change posts the difference as a spool adjustment with its journal entry.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/spools/{id}?current_weight_g=950&reason=weighed"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(num(&body["current_weight_kg"]), 950.0);
    assert!(body["journal_entry_id"].is_i64(), "{body}");
    let tx = get(
        &app,
        &t,
        &format!(
            "/api/v1/admin/inventory/transactions/{}",
            body["transaction_id"]
        ),
    )
    .await;
    assert_eq!(tx["transaction_type"], "adjustment");
    assert_eq!(tx["reference_type"], "spool_adjustment");
    assert_eq!(tx["reference_id"], id);
    assert_eq!(num(&tx["quantity"]), -50.0);
    assert_eq!(on_hand(&app, &t, pla).await, 2950.0);
    let entry = get(
        &app,
        &t,
        &format!(
            "/api/v1/accounting/journal-entries/{}",
            body["journal_entry_id"]
        ),
    )
    .await;
    assert_eq!(entry["source_type"], "spool_adjustment", "{entry}");

    // Status or notes only: nothing posted.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/spools/{id}?notes=on%20printer%203"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["transaction_id"], Value::Null);
    assert_eq!(res.json()["notes"], "on printer 3");

    // Consumption: usage history, weight, a consumption in the ledger, WIP debited.
    let (wo, wo_code) = open_order(&app, &t, "WIDGET-A").await;
    let (wo2, _) = open_order(&app, &t, "WIDGET-B").await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/spools/{id}/consume?production_order_id={wo}&weight_consumed_g=200"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(num(&body["current_weight_kg"]), 750.0);
    let tx = get(
        &app,
        &t,
        &format!(
            "/api/v1/admin/inventory/transactions/{}",
            body["transaction_id"]
        ),
    )
    .await;
    assert_eq!(tx["transaction_type"], "consumption");
    assert_eq!(tx["reference_type"], "production_order");
    assert_eq!(tx["reference_id"], wo);
    assert_eq!(on_hand(&app, &t, pla).await, 2750.0);
    let detail = get(&app, &t, &format!("/api/v1/spools/{id}")).await;
    assert_eq!(detail["usage_history"].as_array().map(Vec::len), Some(1));
    assert_eq!(detail["usage_history"][0]["production_order_id"], wo);
    // The order's own code, when the caller gives none.
    assert_eq!(
        detail["usage_history"][0]["production_order_code"],
        wo_code.as_str()
    );
    assert_eq!(
        num(&detail["usage_history"][0]["weight_consumed_kg"]),
        200.0
    );
    let tb = get(&app, &t, "/api/v1/accounting/trial-balance").await;
    let wip = tb["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .find(|a| a["account_code"] == "1210")
        .expect("1210")
        .clone();
    // 200 g at 0.02 a gram.
    assert_eq!(num(&wip["debit_balance"]), 4.0, "{wip}");
    balanced(&app, &t).await;

    // Available spools: active with filament left, oldest expiry first.
    let available = get(&app, &t, &format!("/api/v1/spools/product/{pla}/available")).await;
    let numbers: Vec<&str> = available
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|s| s["spool_number"].as_str())
        .collect();
    assert_eq!(numbers, ["SP-001", "SP-002"]);

    // Consuming everything left empties the spool; it is then not available.
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/spools/2/consume?production_order_id={wo2}&weight_consumed_g=50"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["status"], "empty");
    assert_eq!(res.json()["is_empty"], true);
    let available = get(&app, &t, &format!("/api/v1/spools/product/{pla}/available")).await;
    assert_eq!(available.as_array().map(Vec::len), Some(1));
    balanced(&app, &t).await;
}

#[tokio::test]
async fn bad_spool_input_is_refused_and_changes_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = material(&app, &t, "MAT-PETG", "500").await;
    create(
        &app,
        &t,
        &format!("spool_number=SP-1&product_id={pla}&initial_weight_kg=1000&current_weight_kg=400"),
    )
    .await;
    let before = books(&app).await;
    for (method, path, status) in [
        // Duplicate number (any case): 400.
        (
            Method::POST,
            format!("/api/v1/spools/?spool_number=sp-1&product_id={pla}&initial_weight_kg=10"),
            StatusCode::BAD_REQUEST,
        ),
        // Unknown product: 404.
        (
            Method::POST,
            "/api/v1/spools/?spool_number=SP-9&product_id=9999&initial_weight_kg=10".to_string(),
            StatusCode::NOT_FOUND,
        ),
        // Missing and bad values: 422.
        (
            Method::POST,
            format!("/api/v1/spools/?spool_number=SP-9&product_id={pla}"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("/api/v1/spools/?spool_number=SP-9&product_id={pla}&initial_weight_kg=-5"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!(
                "/api/v1/spools/?spool_number=SP-9&product_id={pla}&initial_weight_kg=10&current_weight_kg=20"
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("/api/v1/spools/?spool_number=%20&product_id={pla}&initial_weight_kg=10"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            format!("/api/v1/spools/?spool_number=SP-9&product_id={pla}&initial_weight_kg=abc"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        // A weight change without a reason: 400.
        (
            Method::PATCH,
            "/api/v1/spools/1?current_weight_g=300".to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::PATCH,
            "/api/v1/spools/1?current_weight_g=-1&reason=x".to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::PATCH,
            "/api/v1/spools/1?status=melted".to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::PATCH,
            "/api/v1/spools/99?notes=x".to_string(),
            StatusCode::NOT_FOUND,
        ),
        // More than is left: 400; nothing or negative: 422.
        (
            Method::POST,
            "/api/v1/spools/1/consume?production_order_id=5&weight_consumed_g=401".to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::POST,
            "/api/v1/spools/1/consume?production_order_id=5&weight_consumed_g=0".to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::POST,
            "/api/v1/spools/1/consume?weight_consumed_g=5".to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::GET,
            "/api/v1/spools/99".to_string(),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let res = call(&app, method.clone(), &path, None, &t).await;
        assert_eq!(res.status, status, "{method} {path}: {}", res.text());
    }
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/spools/1?current_weight_g=300",
        None,
        &t,
    )
    .await;
    assert_eq!(
        res.json()["detail"],
        "A reason is required when the weight changes"
    );
    // More than the stock on the books: the ledger refuses, the spool is unchanged.
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/spools/1?current_weight_g=0&reason=x",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let after_ok = books(&app).await;
    assert_ne!(before, after_ok);
    let res = call(
        &app,
        Method::POST,
        "/api/v1/spools/1/consume?production_order_id=5&weight_consumed_g=1",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert_eq!(books(&app).await, after_ok);
    balanced(&app, &t).await;
}

#[tokio::test]
async fn consumption_beyond_the_books_is_refused_atomically() {
    let app = app().await;
    let t = admin(&app).await;
    // 100 g on the books, a spool that claims 1000 g.
    let pla = material(&app, &t, "MAT-ASA", "100").await;
    create(
        &app,
        &t,
        &format!("spool_number=SP-A&product_id={pla}&initial_weight_kg=1000"),
    )
    .await;
    let (wo, _) = open_order(&app, &t, "WIDGET-ASA").await;
    let before = books(&app).await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/spools/1/consume?production_order_id={wo}&weight_consumed_g=150"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.json()["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("Insufficient stock"),
        "{}",
        res.text()
    );
    assert_eq!(books(&app).await, before);
}

/// Operators run production, so they see spools and draw filament from them (CONTRACT 5.10:
/// `/spools` is for signed-in users); registering a spool and correcting its weight post
/// adjustments to the books and stay with admins.
#[tokio::test]
async fn operators_read_and_consume_spools_admins_register_and_correct_them() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let pla = material(&app, &t, "MAT-TPU", "100").await;
    let spool = create(
        &app,
        &t,
        &format!("spool_number=SP-T&product_id={pla}&initial_weight_kg=100"),
    )
    .await["id"]
        .clone();
    for path in [
        "/api/v1/spools/".to_string(),
        format!("/api/v1/spools/{spool}"),
        format!("/api/v1/spools/product/{pla}/available"),
    ] {
        let seen = get(&app, &op, &path).await;
        assert!(seen.to_string().contains("SP-T"), "{path}: {seen}");
    }
    // Drawing from a spool for an open production order is the operator's to do.
    let (wo, _) = open_order(&app, &t, "WIDGET-TPU").await;
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/spools/{spool}/consume?production_order_id={wo}&weight_consumed_g=1"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(num(&res.json()["current_weight_kg"]), 99.0);
    let before = books(&app).await;
    for (method, path) in [
        (
            Method::POST,
            format!("/api/v1/spools/?spool_number=X&product_id={pla}&initial_weight_kg=1"),
        ),
        (
            Method::PATCH,
            format!("/api/v1/spools/{spool}?current_weight_g=5&reason=x"),
        ),
    ] {
        let res = call(&app, method.clone(), &path, None, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(res.json()["detail"], "Admin access required");
    }
    for (method, path) in [
        (Method::GET, "/api/v1/spools/".to_string()),
        (Method::GET, format!("/api/v1/spools/{spool}")),
        (
            Method::POST,
            format!("/api/v1/spools/{spool}/consume?production_order_id=1&weight_consumed_g=1"),
        ),
    ] {
        let res = app
            .request(
                Request::builder()
                    .method(method.clone())
                    .uri(&path)
                    .body(Body::empty())
                    .expect("request"),
            )
            .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{method} {path}");
    }
    assert_eq!(books(&app).await, before);
}

#[tokio::test]
async fn a_replayed_consumption_posts_once() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = material(&app, &t, "MAT-PC", "1000").await;
    create(
        &app,
        &t,
        &format!("spool_number=SP-P&product_id={pla}&initial_weight_kg=1000"),
    )
    .await;
    let (wo, _) = open_order(&app, &t, "WIDGET-PC").await;
    let uri = format!("/api/v1/spools/1/consume?production_order_id={wo}&weight_consumed_g=100");
    let send = || async {
        app.request(
            Request::builder()
                .method(Method::POST)
                .uri(&uri)
                .header("authorization", format!("Bearer {t}"))
                .header("idempotency-key", "consume-1")
                .body(Body::empty())
                .expect("request"),
        )
        .await
    };
    let first = send().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let after = books(&app).await;
    let second = send().await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text());
    assert_eq!(first.json(), second.json());
    assert_eq!(books(&app).await, after);
    assert_eq!(on_hand(&app, &t, pla).await, 900.0);
    let detail = get(&app, &t, "/api/v1/spools/1").await;
    assert_eq!(detail["usage_history"].as_array().map(Vec::len), Some(1));
}

/// On hand of an item at one location code.
async fn on_hand_at(app: &TestApp, t: &str, item: i64, code: &str) -> f64 {
    let s = get(
        app,
        t,
        &format!("/api/v1/admin/inventory/transactions/inventory-summary?product_id={item}&show_zero=true"),
    )
    .await;
    s["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|b| b["location_code"] == code)
        .map(|b| num(&b["on_hand_quantity"]))
        .sum()
}

#[tokio::test]
async fn a_moved_spool_takes_its_grams_along_on_the_books() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = material(&app, &t, "MAT-MOVE", "1000").await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/locations",
        Some(json!({"code": "DRYBOX", "name": "Dry box", "type": "shelf"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let drybox = res.json()["id"].as_i64().expect("id");
    let spool = create(
        &app,
        &t,
        &format!("spool_number=MV-1&product_id={pla}&initial_weight_kg=800"),
    )
    .await;
    let id = spool["id"].as_i64().expect("id");
    let main = on_hand_at(&app, &t, pla, "MAIN").await;
    assert_eq!(main, 1000.0);

    // Moved: its 800 g go with it, as a transfer (no value moves, so no journal entry).
    let entries_before = get(&app, &t, "/api/v1/accounting/trial-balance").await;
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/spools/{id}?location_id={drybox}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let tx = res.json()["transaction_id"].as_i64().expect("a transfer");
    let issue = get(
        &app,
        &t,
        &format!("/api/v1/admin/inventory/transactions/{tx}"),
    )
    .await;
    assert_eq!(issue["reference_type"], "transfer", "{issue}");
    assert_eq!(issue["to_location_id"], drybox, "{issue}");
    assert_eq!(on_hand_at(&app, &t, pla, "MAIN").await, 200.0);
    assert_eq!(on_hand_at(&app, &t, pla, "DRYBOX").await, 800.0);
    assert_eq!(
        get(&app, &t, "/api/v1/accounting/trial-balance").await,
        entries_before
    );

    // Weighed and moved back at once: the correction posts where it was weighed, then the
    // remaining grams move.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/spools/{id}?location_id=1&current_weight_g=700&reason=weighed"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(on_hand_at(&app, &t, pla, "DRYBOX").await, 0.0);
    assert_eq!(on_hand_at(&app, &t, pla, "MAIN").await, 900.0);
    balanced(&app, &t).await;

    // A spool registered without stock on the books moves nothing.
    let bare = create(
        &app,
        &t,
        &format!("spool_number=MV-2&product_id={pla}&initial_weight_kg=5000&location_id={drybox}"),
    )
    .await;
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/spools/{}?location_id=1", bare["id"]),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert!(res.json()["transaction_id"].is_null(), "{}", res.text());
    assert_eq!(on_hand_at(&app, &t, pla, "MAIN").await, 900.0);
    balanced(&app, &t).await;
}

/// The abuse run's defect: filament consumed against production order 999999 was accepted
/// (stock consumed, 1210 WIP / 1200 posted to nothing). Now only a released or in-progress
/// order takes material; every refusal leaves the books as they were.
#[tokio::test]
async fn consumption_needs_an_open_production_order() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = material(&app, &t, "MAT-OPEN", "1000").await;
    create(
        &app,
        &t,
        &format!("spool_number=SP-O&product_id={pla}&initial_weight_kg=1000"),
    )
    .await;
    let product = item("WIDGET-O").create(&app, &t).await;
    let draft = crate::common::api::ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/",
        Some(json!({"product_id": product, "quantity_ordered": "1"})),
    )
    .await["id"]
        .as_i64()
        .expect("draft");
    let (cancelled, _) = released_order(&app, &t, product, "1").await;
    crate::common::api::ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/production-orders/{cancelled}/cancel"),
        None,
    )
    .await;
    let before = books(&app).await;
    for (order, status, says) in [
        (999_999, StatusCode::NOT_FOUND, "Production order not found"),
        (draft, StatusCode::BAD_REQUEST, "is draft"),
        (cancelled, StatusCode::BAD_REQUEST, "is cancelled"),
    ] {
        let res = call(
            &app,
            Method::POST,
            &format!("/api/v1/spools/1/consume?production_order_id={order}&weight_consumed_g=10"),
            None,
            &t,
        )
        .await;
        assert_eq!(res.status, status, "order {order}: {}", res.text());
        assert!(res.text().contains(says), "order {order}: {}", res.text());
        assert_eq!(books(&app).await, before, "order {order} changed the books");
    }
    // Through GraphQL the same.
    let answer = crate::common::api::gql(
        &app,
        &t,
        "mutation { spoolConsume(id: 1, input: {productionOrderId: 999999, weightConsumedGrams: \"10\"}) { userErrors { field code message } } }",
        json!({}),
    )
    .await;
    assert!(
        answer.to_string().contains("Production order not found"),
        "{answer}"
    );
    assert_eq!(books(&app).await, before);
}
