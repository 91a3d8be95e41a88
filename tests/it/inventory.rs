//! Stock and books through REST and GraphQL (CONTRACT 5.8, 5.18, 6.5, 6.8; DOMAIN
//! "Postings" and "Costing"): manual transactions with their journal entries, moving
//! averages, transfers, negative stock, cycle counts, idempotent retries, closed periods,
//! the trial balance and the ledger's own consistency check; bad input is a 4xx and leaves
//! every table as it was.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::create_item;
use crate::common::api::{admin, app, call, gql, operator};

/// Every table a posting writes, as JSON text.
async fn books(app: &TestApp) -> String {
    let mut all = String::new();
    for table in [
        "inventory_transactions",
        "inventory_balances",
        "gl_journal_entries",
        "gl_journal_entry_lines",
        "items",
    ] {
        all.push_str(&crate::common::api::table_json(app, table).await);
    }
    all
}

/// The ledgers' rows and the quantities of every balance (not their count dates).
async fn postings(app: &TestApp) -> String {
    let mut all = String::new();
    for table in [
        "inventory_transactions",
        "gl_journal_entries",
        "gl_journal_entry_lines",
    ] {
        all.push_str(&crate::common::api::table_json(app, table).await);
    }
    let balances: Value =
        serde_json::from_str(&crate::common::api::table_json(app, "inventory_balances").await)
            .unwrap_or_default();
    for row in balances.as_array().into_iter().flatten() {
        all.push_str(&format!(
            "{} {} {} {};",
            row["item_id"], row["location_id"], row["on_hand_quantity"], row["allocated_quantity"]
        ));
    }
    all
}

async fn post(app: &TestApp, t: &str, body: Value) -> Value {
    let res = call(
        app,
        Method::POST,
        "/api/v1/admin/inventory/transactions",
        Some(body),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()
}

async fn location(app: &TestApp, t: &str, code: &str) -> i64 {
    let res = call(
        app,
        Method::POST,
        "/api/v1/admin/locations",
        Some(json!({"code": code, "name": format!("Shelf {code}"), "type": "shelf"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()["id"].as_i64().expect("id")
}

async fn trial_balance(app: &TestApp, t: &str) -> Value {
    let res = call(
        app,
        Method::GET,
        "/api/v1/accounting/trial-balance",
        None,
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()
}

fn account<'a>(tb: &'a Value, code: &str) -> &'a Value {
    tb["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .find(|a| a["account_code"] == code)
        .unwrap_or_else(|| panic!("account {code} in {tb}"))
}

async fn consistent(app: &TestApp, t: &str) {
    let res = call(
        app,
        Method::POST,
        "/api/v1/inventory/validate-consistency",
        None,
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json(), json!({"consistent": true, "mismatches": []}));
}

#[tokio::test]
async fn manual_transactions_move_stock_value_it_at_the_moving_average_and_book_it() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = create_item(
        &app,
        &t,
        json!({"sku": "MAT-PLA", "name": "PLA Black", "item_type": "material"}),
    )
    .await;

    // Two receipts at different costs: the average is weighted by quantity.
    let first = post(
        &app,
        &t,
        json!({"product_id": pla, "transaction_type": "receipt", "quantity": "1000", "cost_per_unit": "0.02", "lot_number": "LOT-1"}),
    )
    .await;
    let keys: Vec<&str> = first
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    for key in [
        "id",
        "product_id",
        "product_sku",
        "product_name",
        "product_unit",
        "location_id",
        "location_name",
        "transaction_type",
        "quantity",
        "unit",
        "cost_per_unit",
        "total_cost",
        "reference_type",
        "reference_id",
        "lot_number",
        "serial_number",
        "notes",
        "created_at",
        "created_by",
        "to_location_id",
        "to_location_name",
    ] {
        assert!(keys.contains(&key), "{key} missing from {first}");
    }
    assert_eq!(first["product_sku"], "MAT-PLA");
    assert_eq!(first["unit"], "G");
    assert_eq!(first["location_name"], "Main Warehouse");
    assert_eq!(first["total_cost"], "20.00");
    assert!(first["journal_entry_id"].is_i64(), "{first}");
    post(&app, &t, json!({"product_id": pla, "transaction_type": "receipt", "quantity": 1000, "cost_per_unit": 0.03})).await;
    let pla_row = call(&app, Method::GET, &format!("/api/v1/items/{pla}"), None, &t)
        .await
        .json();
    assert_eq!(pla_row["average_cost"], "0.025", "{pla_row}");
    assert_eq!(pla_row["last_cost"], "0.03", "{pla_row}");
    assert_eq!(pla_row["on_hand_qty"], "2000.00", "{pla_row}");

    // An issue is valued at the average; a transfer posts an issue and a receipt and moves
    // no money; scrap goes to 5020.
    let issue = post(
        &app,
        &t,
        json!({"product_id": pla, "transaction_type": "issue", "quantity": "500"}),
    )
    .await;
    assert_eq!(issue["quantity"], "-500.00");
    assert_eq!(issue["total_cost"], "-12.50");
    let shelf = location(&app, &t, "S1").await;
    let transfer = post(
        &app,
        &t,
        json!({"product_id": pla, "transaction_type": "transfer", "quantity": "200", "to_location_id": shelf}),
    )
    .await;
    assert_eq!(transfer["transaction_type"], "issue");
    assert_eq!(transfer["to_location_name"], "Shelf S1");
    assert!(transfer["journal_entry_id"].is_null(), "{transfer}");
    post(&app, &t, json!({"product_id": pla, "location_id": shelf, "transaction_type": "scrap", "quantity": "20"})).await;
    post(&app, &t, json!({"product_id": pla, "transaction_type": "adjustment", "quantity": "-100", "reason": "damaged"})).await;

    let summary = call(
        &app,
        Method::GET,
        "/api/v1/inventory/cycle-count/",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(summary["total"], 2, "{summary}");
    let main = &summary["items"][0];
    assert_eq!(main["location_name"], "Main Warehouse", "{summary}");
    assert_eq!(main["on_hand_quantity"], "1200.00", "{summary}");
    assert_eq!(
        summary["items"][1]["on_hand_quantity"], "180.00",
        "{summary}"
    );
    assert_eq!(summary["limit"], 100);
    assert_eq!(summary["offset"], 0);
    // The original's spelling answers the same.
    let same = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory/transactions/inventory-summary",
        None,
        &t,
    )
    .await;
    assert_eq!(same.json(), summary);

    // The books: 2000 x 0.025 = 50.00 in, 12.50 issued, 0.50 scrapped, 2.50 adjusted away.
    let tb = trial_balance(&app, &t).await;
    assert_eq!(tb["is_balanced"], true, "{tb}");
    assert_eq!(account(&tb, "1200")["debit_balance"], "34.50", "{tb}");
    assert_eq!(account(&tb, "5020")["debit_balance"], "0.50", "{tb}");
    assert_eq!(account(&tb, "5030")["credit_balance"], "35.00", "{tb}");
    assert_eq!(tb["total_debits"], tb["total_credits"]);
    let valuation = call(
        &app,
        Method::GET,
        "/api/v1/accounting/inventory-valuation",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(valuation["is_reconciled"], true, "{valuation}");
    assert_eq!(valuation["total_inventory_value"], "34.50", "{valuation}");
    consistent(&app, &t).await;

    // The list: newest first, filters, both spellings, a streamed CSV.
    let list = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory-transactions/",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(list.as_array().map(Vec::len), Some(7), "{list}");
    assert_eq!(list[0]["transaction_type"], "adjustment");
    let receipts = call(
        &app,
        Method::GET,
        &format!(
            "/api/v1/admin/inventory/transactions?transaction_type=receipt&location_id={shelf}"
        ),
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(receipts.as_array().map(Vec::len), Some(1), "{receipts}");
    // A search counts only the matching rows; a page past the first keeps the total.
    let searched = gql(
        &app,
        &t,
        "{ all: inventoryTransactions(first: 1) { totalCount } pla: inventoryTransactions(search: \"mat-pla\", first: 2, offset: 1) { totalCount nodes { productSku } } none: inventoryTransactions(search: \"nothing\") { totalCount nodes { id } } }",
        json!({}),
    )
    .await;
    assert_eq!(searched["data"]["all"]["totalCount"], 7, "{searched}");
    let pla_total = searched["data"]["pla"]["totalCount"].as_i64().unwrap_or(0);
    assert_eq!(pla_total, 7, "every row here is MAT-PLA: {searched}");
    assert!(
        searched["data"]["pla"]["nodes"]
            .as_array()
            .is_some_and(|n| !n.is_empty() && n.iter().all(|r| r["productSku"] == "MAT-PLA")),
        "{searched}"
    );
    assert_eq!(searched["data"]["none"]["totalCount"], 0, "{searched}");
    let csv = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory/transactions?format=csv",
        None,
        &t,
    )
    .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(csv.text().lines().count(), 8, "{}", csv.text());

    // GraphQL for report builders: item -> stock by location -> transactions -> journal
    // entry -> lines -> account.
    let nested = gql(
        &app,
        &t,
        "query($id: Int!) { item(id: $id) { sku onHandQty stock { locationCode onHandQuantity transactions(first: 2) { transactionType journalEntry { entryNumber lines { accountCode debitAmount creditAmount } } } } } }",
        json!({"id": pla}),
    )
    .await;
    let stock = &nested["data"]["item"]["stock"];
    assert_eq!(stock[0]["locationCode"], "MAIN", "{nested}");
    let entry = &stock[0]["transactions"][0]["journalEntry"];
    assert!(
        entry["entryNumber"]
            .as_str()
            .is_some_and(|n| n.starts_with("JE-")),
        "{nested}"
    );
    assert_eq!(entry["lines"].as_array().map(Vec::len), Some(2), "{nested}");
}

#[tokio::test]
async fn bad_transactions_are_refused_and_change_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = create_item(
        &app,
        &t,
        json!({"sku": "MAT-PLA", "name": "PLA", "item_type": "material"}),
    )
    .await;
    let svc = create_item(
        &app,
        &t,
        json!({"sku": "SRV-1", "name": "Design", "item_type": "service"}),
    )
    .await;
    post(&app, &t, json!({"product_id": pla, "transaction_type": "receipt", "quantity": "10", "cost_per_unit": "1"})).await;
    let before = books(&app).await;
    let path = "/api/v1/admin/inventory/transactions";

    let cases: Vec<(Value, StatusCode, &str)> = vec![
        (
            json!({"product_id": pla, "transaction_type": "shipment", "quantity": 1}),
            StatusCode::BAD_REQUEST,
            "Invalid transaction_type. Must be one of: receipt, issue, transfer, adjustment, consumption, scrap",
        ),
        (
            json!({"product_id": pla, "transaction_type": "issue", "quantity": 11}),
            StatusCode::BAD_REQUEST,
            "Insufficient stock of MAT-PLA at MAIN: 10 on hand, 11 requested",
        ),
        (
            json!({"product_id": pla, "transaction_type": "issue", "quantity": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "greater than 0",
        ),
        (
            json!({"product_id": pla, "transaction_type": "receipt", "quantity": "1.00001"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "decimal places",
        ),
        (
            json!({"product_id": pla, "transaction_type": "receipt", "quantity": 1, "cost_per_unit": -1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "greater than or equal to 0",
        ),
        (
            json!({"product_id": pla, "transaction_type": "adjustment", "quantity": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "must change",
        ),
        (
            json!({"product_id": pla, "transaction_type": "transfer", "quantity": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "destination",
        ),
        (
            json!({"product_id": pla, "transaction_type": "transfer", "quantity": 1, "to_location_id": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "different destination",
        ),
        (
            json!({"product_id": 999_999, "transaction_type": "receipt", "quantity": 1}),
            StatusCode::NOT_FOUND,
            "Item 999999 not found",
        ),
        (
            json!({"product_id": pla, "location_id": 999_999, "transaction_type": "receipt", "quantity": 1}),
            StatusCode::NOT_FOUND,
            "Location 999999 not found",
        ),
        (
            json!({"product_id": svc, "transaction_type": "receipt", "quantity": 1}),
            StatusCode::BAD_REQUEST,
            "carries no stock",
        ),
        (
            json!({"product_id": pla, "transaction_type": "receipt", "quantity": 1, "lot_number": "A\u{202e}B"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "text-direction",
        ),
        (
            json!({"product_id": pla, "transaction_type": "receipt"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "quantity",
        ),
        (
            json!({"product_id": pla, "transaction_type": "receipt", "quantity": "ten"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "quantity",
        ),
        (
            json!({"product_id": pla, "transaction_type": "receipt", "quantity": "1e30"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "quantity",
        ),
    ];
    for (body, status, message) in cases {
        let res = call(&app, Method::POST, path, Some(body.clone()), &t).await;
        assert_eq!(res.status, status, "{body}: {}", res.text());
        assert!(res.text().contains(message), "{body}: {}", res.text());
    }
    // Operators are staff but the ledger is admin-only (spec 4.5): 403 before the body.
    let op = operator(&app, &t).await;
    let res = call(
        &app,
        Method::POST,
        path,
        Some(json!({"nonsense": true})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.text());
    assert_eq!(
        books(&app).await,
        before,
        "a refused request changed the books"
    );
    consistent(&app, &t).await;
}

#[tokio::test]
async fn negative_stock_is_refused_unless_allowed_then_flagged_for_approval() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = create_item(
        &app,
        &t,
        json!({"sku": "FG-1", "name": "Widget", "standard_cost": "2"}),
    )
    .await;
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({"allow_negative_inventory": true})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let issue = post(
        &app,
        &t,
        json!({"product_id": widget, "transaction_type": "issue", "quantity": "3"}),
    )
    .await;
    assert_eq!(issue["requires_approval"], true, "{issue}");
    // Valued at the standard cost while there is no average: Dr 5030 / Cr 1220.
    assert_eq!(issue["total_cost"], "-6.00");
    let report = call(
        &app,
        Method::GET,
        "/api/v1/inventory/negative-inventory-report",
        None,
        &t,
    )
    .await
    .json();
    // FilaOps's envelope: the held movement, pending.
    assert_eq!(report["total_transactions"], 1, "{report}");
    assert_eq!(report["pending_approvals"], 1, "{report}");
    assert_eq!(
        report["transactions"][0]["transaction_id"], issue["id"],
        "{report}"
    );
    assert_eq!(
        report["transactions"][0]["display_status"], "pending",
        "{report}"
    );
    assert_eq!(report["transactions"][0]["quantity"], "-3.00", "{report}");
    let pending = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory/transactions?pending_approval=true",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(pending.as_array().map(Vec::len), Some(1), "{pending}");
    let id = issue["id"].as_i64().expect("id");
    let ok = call(
        &app,
        Method::POST,
        &format!("/api/v1/inventory/transactions/{id}/approve-negative"),
        None,
        &t,
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());
    assert!(ok.json()["approved_at"].is_string());
    let twice = call(
        &app,
        Method::POST,
        &format!("/api/v1/inventory/transactions/{id}/approve-negative"),
        None,
        &t,
    )
    .await;
    assert_eq!(twice.status, StatusCode::BAD_REQUEST, "{}", twice.text());
    // Approved: out of the client's pending view, in the full report as approved.
    let pending_only = call(
        &app,
        Method::GET,
        "/api/v1/inventory/negative-inventory-report?include_approved=false&include_pending=true",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(pending_only["transactions"], json!([]), "{pending_only}");
    let all = call(
        &app,
        Method::GET,
        "/api/v1/inventory/negative-inventory-report",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(all["approved_transactions"], 1, "{all}");
    assert_eq!(
        all["transactions"][0]["display_status"], "approved",
        "{all}"
    );
    let tb = trial_balance(&app, &t).await;
    assert_eq!(account(&tb, "1220")["credit_balance"], "6.00", "{tb}");
    assert_eq!(tb["is_balanced"], true);
    consistent(&app, &t).await;
}

#[tokio::test]
async fn a_cycle_count_posts_each_variance_once_even_when_retried() {
    let app = app().await;
    let t = admin(&app).await;
    let a = create_item(
        &app,
        &t,
        json!({"sku": "FG-A", "name": "A", "standard_cost": "4"}),
    )
    .await;
    let b = create_item(
        &app,
        &t,
        json!({"sku": "BOX-1", "name": "Box", "item_type": "packaging", "standard_cost": "0.5"}),
    )
    .await;
    post(
        &app,
        &t,
        json!({"product_id": a, "transaction_type": "receipt", "quantity": "10"}),
    )
    .await;

    let count = json!({
        "items": [
            {"product_id": a, "counted_quantity": "7", "reason": "cycle_count"},
            {"product_id": b, "counted_quantity": "20", "reason": "found"},
            {"product_id": 999_999, "counted_quantity": "1", "reason": "x"},
            {"product_id": a, "counted_quantity": "8", "reason": "again"},
            {"product_id": b, "counted_quantity": "-1", "reason": "x"},
        ],
        "count_reference": "Count 1"
    });
    let send = || {
        app.request(
            Request::builder()
                .method(Method::POST)
                .uri("/api/v1/admin/inventory/transactions/batch")
                .header("authorization", format!("Bearer {t}"))
                .header("content-type", "application/json")
                .header("idempotency-key", "count-1")
                .body(Body::from(count.to_string()))
                .expect("request"),
        )
    };
    let first = send().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let result = first.json();
    assert_eq!(result["total_items"], 5, "{result}");
    assert_eq!(result["successful"], 2, "{result}");
    assert_eq!(result["failed"], 3, "{result}");
    assert_eq!(result["count_reference"], "Count 1");
    let lines = result["results"].as_array().expect("results");
    assert_eq!(lines[0]["previous_quantity"], "10.00");
    assert_eq!(lines[0]["variance"], "-3.00");
    assert!(lines[0]["journal_entry_id"].is_i64(), "{result}");
    assert_eq!(lines[1]["variance"], "20.00");
    assert_eq!(lines[2]["error"], "Item 999999 not found");
    assert_eq!(lines[3]["error"], "Counted twice in this batch");
    assert_eq!(lines[4]["error"], "Counted quantity cannot be negative");
    let before_retry = books(&app).await;

    // The same key again: the first answer, nothing posted twice.
    let again = send().await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json(), result);
    assert_eq!(books(&app).await, before_retry);

    // Shortage of finished goods: Dr 5030 / Cr 1220 12.00; overage of packaging: Dr 1230 / Cr 5030 10.00.
    let tb = trial_balance(&app, &t).await;
    assert_eq!(account(&tb, "1220")["debit_balance"], "28.00", "{tb}");
    assert_eq!(account(&tb, "1230")["debit_balance"], "10.00", "{tb}");
    assert_eq!(tb["is_balanced"], true);
    let summary = call(
        &app,
        Method::GET,
        "/api/v1/inventory/cycle-count/?search=FG-A",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(summary["items"][0]["on_hand_quantity"], "7.00", "{summary}");
    assert!(summary["items"][0]["last_counted"].is_string(), "{summary}");

    // A count with nothing in it, or no reason at all, is refused whole.
    let empty = call(
        &app,
        Method::POST,
        "/api/v1/inventory/cycle-count/",
        Some(json!({"items": []})),
        &t,
    )
    .await;
    assert_eq!(
        empty.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        empty.text()
    );
    let missing = call(
        &app,
        Method::POST,
        "/api/v1/inventory/cycle-count/",
        Some(json!({"items": [{"product_id": a, "counted_quantity": 1}]})),
        &t,
    )
    .await;
    assert_eq!(
        missing.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        missing.text()
    );
    assert_eq!(books(&app).await, before_retry);
    consistent(&app, &t).await;

    // An adjustment sent twice with one key posts once; the same key with another body is
    // refused, and a new key posts again.
    let adjust = |key: &'static str, qty: &'static str| {
        app.request(
            Request::builder()
                .method(Method::POST)
                .uri("/api/v1/admin/inventory-transactions/")
                .header("authorization", format!("Bearer {t}"))
                .header("content-type", "application/json")
                .header("idempotency-key", key)
                .body(Body::from(
                    json!({"product_id": a, "transaction_type": "adjustment", "quantity": qty, "reason": "damaged"})
                        .to_string(),
                ))
                .expect("request"),
        )
    };
    let first_adjustment = adjust("adjust-1", "-1").await;
    assert_eq!(
        first_adjustment.status,
        StatusCode::CREATED,
        "{}",
        first_adjustment.text()
    );
    let after_first = books(&app).await;
    let replay = adjust("adjust-1", "-1").await;
    assert_eq!(replay.status, StatusCode::OK, "{}", replay.text());
    assert_eq!(replay.json(), first_adjustment.json());
    assert_eq!(books(&app).await, after_first, "the retry posted again");
    let reused = adjust("adjust-1", "-2").await;
    assert!(reused.status.is_client_error(), "{}", reused.text());
    assert_eq!(books(&app).await, after_first);
    let second = adjust("adjust-2", "1").await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text());
}

#[tokio::test]
async fn a_closed_period_refuses_postings_and_the_stock_row_goes_with_the_entry() {
    let app = app().await;
    let t = admin(&app).await;
    let a = create_item(&app, &t, json!({"sku": "FG-A", "name": "A"})).await;
    post(&app, &t, json!({"product_id": a, "transaction_type": "receipt", "quantity": "2", "cost_per_unit": "5"})).await;
    let periods = call(&app, Method::GET, "/api/v1/accounting/periods", None, &t)
        .await
        .json();
    assert_eq!(periods.as_array().map(Vec::len), Some(1), "{periods}");
    assert_eq!(periods[0]["status"], "open");
    let id = periods[0]["id"].as_i64().expect("id");

    let unconfirmed = call(
        &app,
        Method::POST,
        &format!("/api/v1/accounting/periods/{id}/close"),
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(
        unconfirmed.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unconfirmed.text()
    );
    let closed = call(
        &app,
        Method::POST,
        &format!("/api/v1/accounting/periods/{id}/close"),
        Some(json!({"confirm": true})),
        &t,
    )
    .await;
    assert_eq!(closed.status, StatusCode::OK, "{}", closed.text());
    assert_eq!(closed.json()["status"], "closed");

    // The stock row is written first, then the entry is refused: neither remains.
    let before = books(&app).await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/inventory/transactions",
        Some(json!({"product_id": a, "transaction_type": "receipt", "quantity": "1", "cost_per_unit": "5"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(res.text().contains("is closed"), "{}", res.text());
    assert_eq!(books(&app).await, before);

    let again = call(
        &app,
        Method::POST,
        &format!("/api/v1/accounting/periods/{id}/close"),
        Some(json!({"confirm": true})),
        &t,
    )
    .await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.text());
    let reopened = call(
        &app,
        Method::POST,
        &format!("/api/v1/accounting/periods/{id}/reopen"),
        None,
        &t,
    )
    .await;
    assert_eq!(reopened.status, StatusCode::OK, "{}", reopened.text());
    post(&app, &t, json!({"product_id": a, "transaction_type": "receipt", "quantity": "1", "cost_per_unit": "5"})).await;

    // Ledger and entries read back.
    let ledger = call(
        &app,
        Method::GET,
        "/api/v1/accounting/ledger/1220",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(ledger["account_code"], "1220", "{ledger}");
    assert_eq!(ledger["total"], 2, "{ledger}");
    assert_eq!(ledger["lines"][1]["running_balance"], "15.00", "{ledger}");
    let csv = call(
        &app,
        Method::GET,
        "/api/v1/accounting/ledger/1220?format=csv",
        None,
        &t,
    )
    .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text());
    let csv = csv.text();
    assert!(
        csv.lines()
            .next()
            .is_some_and(|h| h.contains("running_balance")),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3, "a header and two lines: {csv}");
    let recent = call(
        &app,
        Method::GET,
        "/api/v1/accounting/recent-entries?limit=1",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(
        recent[0]["lines"].as_array().map(Vec::len),
        Some(2),
        "{recent}"
    );
    assert_eq!(recent[0]["total_debit"], "5.00", "{recent}");
    let summary = call(&app, Method::GET, "/api/v1/accounting/summary", None, &t)
        .await
        .json();
    assert_eq!(summary["inventory_value"], "15.00", "{summary}");
    assert_eq!(summary["is_balanced"], true);
    let missing = call(
        &app,
        Method::GET,
        "/api/v1/accounting/ledger/9999",
        None,
        &t,
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_database_refuses_an_unbalanced_entry_and_any_edit_of_the_ledgers() {
    let app = app().await;
    let t = admin(&app).await;
    let a = create_item(&app, &t, json!({"sku": "FG-A", "name": "A"})).await;
    post(&app, &t, json!({"product_id": a, "transaction_type": "receipt", "quantity": "2", "cost_per_unit": "5"})).await;
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    let unbalanced = client
        .batch_execute(
            "BEGIN; \
             INSERT INTO gl_journal_entries (entry_number, entry_date, description, fiscal_period_id) \
               SELECT 'JE-X', current_date, 'bad', id FROM gl_fiscal_periods LIMIT 1; \
             INSERT INTO gl_journal_entry_lines (journal_entry_id, account_id, debit_amount) \
               SELECT currval('gl_journal_entries_id_seq'), id, 10 FROM gl_accounts WHERE account_code = '1000'; \
             INSERT INTO gl_journal_entry_lines (journal_entry_id, account_id, credit_amount) \
               SELECT currval('gl_journal_entries_id_seq'), id, 9.99 FROM gl_accounts WHERE account_code = '4000'; \
             COMMIT;",
        )
        .await;
    assert!(
        unbalanced
            .as_ref()
            .is_err_and(|e| format!("{e:?}").contains("does not balance")),
        "{unbalanced:?}"
    );
    let _ = client.batch_execute("ROLLBACK").await;
    for sql in [
        "UPDATE inventory_transactions SET quantity = 5",
        "DELETE FROM inventory_transactions",
        "UPDATE gl_journal_entry_lines SET debit_amount = debit_amount + 1",
        "DELETE FROM gl_journal_entries",
    ] {
        let res = client.batch_execute(sql).await;
        assert!(
            res.as_ref()
                .is_err_and(|e| format!("{e:?}").contains("never")),
            "{sql}: {res:?}"
        );
    }
    let tb = trial_balance(&app, &t).await;
    assert_eq!(tb["is_balanced"], true);
}

#[tokio::test]
async fn quantity_corrections_and_a_reconciliation_count_what_they_should_and_nothing_twice() {
    let app = app().await;
    let t = admin(&app).await;
    // No warehouse yet: an empty reconciliation, not an error.
    let empty = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory/reconciliation",
        None,
        &t,
    )
    .await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text());
    assert_eq!(empty.json()["balances"], 0, "{}", empty.text());

    let a = create_item(
        &app,
        &t,
        json!({"sku": "FG-A", "name": "A", "standard_cost": "2"}),
    )
    .await;
    let b = create_item(
        &app,
        &t,
        json!({"sku": "FG-B", "name": "B", "standard_cost": "3"}),
    )
    .await;
    for id in [a, b] {
        post(
            &app,
            &t,
            json!({"product_id": id, "transaction_type": "receipt", "quantity": "10"}),
        )
        .await;
    }

    // Bad corrections are refused with the field named, and post nothing.
    let before = books(&app).await;
    for (body, field) in [
        (
            json!({"product_id": a, "reason": "damaged"}),
            "new_quantity",
        ),
        (
            json!({"product_id": a, "new_quantity": 4, "quantity_change": -1, "reason": "damaged"}),
            "new_quantity",
        ),
        (
            json!({"product_id": a, "new_quantity": 4, "reason": " "}),
            "reason",
        ),
        (
            json!({"product_id": 999_999, "new_quantity": 4, "reason": "lost"}),
            "product_id",
        ),
        (
            json!({"product_id": a, "quantity_change": 0, "reason": "lost"}),
            "quantity_change",
        ),
        (
            json!({"product_id": a, "new_quantity": -4, "reason": "lost"}),
            "new_quantity",
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/inventory/adjust-quantity",
            Some(body.clone()),
            &t,
        )
        .await;
        assert!(res.status.is_client_error(), "{body}: {}", res.text());
        assert!(res.text().contains(field), "{body}: {}", res.text());
    }
    assert_eq!(books(&app).await, before);

    // A new quantity: an adjustment for the difference, with its entry; sent twice with one
    // key, posted once.
    let send = |body: Value, key: &'static str| {
        app.request(
            Request::builder()
                .method(Method::POST)
                .uri("/api/v1/inventory/adjust-quantity")
                .header("authorization", format!("Bearer {t}"))
                .header("content-type", "application/json")
                .header("idempotency-key", key)
                .body(Body::from(body.to_string()))
                .expect("request"),
        )
    };
    let set = json!({"product_id": a, "new_quantity": "6", "reason": "damaged"});
    let first = send(set.clone(), "set-a").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let result = first.json();
    assert_eq!(result["previous_quantity"], 10.0, "{result}");
    assert_eq!(result["new_quantity"], 6.0, "{result}");
    assert_eq!(result["variance"], "-4.00", "{result}");
    assert!(result["journal_entry_id"].is_i64(), "{result}");
    let after = books(&app).await;
    let replay = send(set, "set-a").await;
    assert_eq!(replay.json(), result);
    assert_eq!(books(&app).await, after, "the retry posted again");

    // A signed change applies to what is on hand.
    let change = send(
        json!({"product_id": b, "quantity_change": "2.5", "reason": "found", "notes": "Behind the dryer"}),
        "change-b",
    )
    .await;
    assert_eq!(change.status, StatusCode::OK, "{}", change.text());
    assert_eq!(change.json()["new_quantity"], 12.5, "{}", change.text());
    let tb = trial_balance(&app, &t).await;
    // FG: 20 + 30 received, -8 (A) +7.50 (B).
    assert_eq!(account(&tb, "1220")["debit_balance"], "49.50", "{tb}");
    assert_eq!(tb["is_balanced"], true);
    consistent(&app, &t).await;

    // The reconciliation: A was counted today (a new quantity is a count), B was not (a
    // change is not).
    let recon = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory/reconciliation?remaining_only=true",
        None,
        &t,
    )
    .await;
    assert_eq!(recon.status, StatusCode::OK, "{}", recon.text());
    let recon = recon.json();
    assert_eq!(recon["balances"], 2, "{recon}");
    assert_eq!(recon["counted"], 1, "{recon}");
    assert_eq!(recon["remaining"], 1, "{recon}");
    assert_eq!(recon["total"], 1, "{recon}");
    assert_eq!(recon["items"][0]["product_sku"], "FG-B", "{recon}");
    assert_eq!(recon["limit"], 100, "{recon}");
    let location = recon["location_id"].as_i64().expect("location");

    // Counting through the reconciliation's own path, then the rest at stored quantities.
    let counted = call(
        &app,
        Method::POST,
        "/api/v1/admin/inventory/reconciliation/count",
        Some(json!({"items": [{"product_id": b, "counted_quantity": "12.5", "reason": "cycle_count"}], "location_id": location})),
        &t,
    )
    .await;
    assert_eq!(counted.status, StatusCode::OK, "{}", counted.text());
    assert_eq!(
        counted.json()["results"][0]["variance"],
        "0.00",
        "{}",
        counted.text()
    );
    let c = create_item(&app, &t, json!({"sku": "FG-C", "name": "C"})).await;
    post(
        &app,
        &t,
        json!({"product_id": c, "transaction_type": "receipt", "quantity": "1"}),
    )
    .await;
    let before_confirm = postings(&app).await;
    let confirm = call(
        &app,
        Method::POST,
        "/api/v1/admin/inventory/reconciliation/count/all-to-stored",
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(confirm.status, StatusCode::OK, "{}", confirm.text());
    assert_eq!(confirm.json()["confirmed"], 1, "{}", confirm.text());
    let done = call(
        &app,
        Method::GET,
        "/api/v1/admin/inventory/reconciliation",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(done["remaining"], 0, "{done}");
    assert_eq!(done["total"], 3, "{done}");
    // Confirming moved no stock and booked nothing (only the count dates changed).
    assert_eq!(postings(&app).await, before_confirm);
    let nowhere = call(
        &app,
        Method::POST,
        "/api/v1/admin/inventory/reconciliation/count/all-to-stored",
        Some(json!({"location_id": 999_999})),
        &t,
    )
    .await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND, "{}", nowhere.text());
    consistent(&app, &t).await;
}

#[tokio::test]
async fn the_pickers_list_locations_adjustment_reasons_and_the_chart_of_accounts() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    // Locations for the transaction form: the seeded main warehouse and a new bin.
    let created = crate::common::api::ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/admin/locations",
        Some(json!({"code": "BIN-A1", "name": "Bin A1", "type": "bin"})),
    )
    .await;
    let locations = crate::common::api::ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/inventory/transactions/locations",
        None,
    )
    .await;
    let codes: Vec<&str> = locations
        .as_array()
        .expect("a bare array")
        .iter()
        .filter_map(|l| l["code"].as_str())
        .collect();
    assert!(
        codes.contains(&"MAIN") && codes.contains(&"BIN-A1"),
        "{locations}"
    );
    let bin = locations
        .as_array()
        .and_then(|a| a.iter().find(|l| l["id"] == created["id"]))
        .expect("the new bin");
    assert_eq!(bin["name"], "Bin A1");
    assert_eq!(bin["type"], "bin");

    // Adjustment reasons: the closed set, in order, each with a label.
    let reasons = crate::common::api::ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/inventory/transactions/adjustment-reasons",
        None,
    )
    .await;
    let reasons = reasons.as_array().expect("a bare array");
    assert_eq!(reasons.len(), 10);
    assert_eq!(reasons[0]["code"], "cycle_count");
    assert_eq!(reasons[0]["name"], "Cycle count");
    assert_eq!(reasons[9]["code"], "other");
    assert!(reasons.iter().all(|r| r["description"].is_string()));

    // The chart of accounts, by code, with the system accounts the postings use.
    let accounts =
        crate::common::api::ok(&app, &t, Method::GET, "/api/v1/accounting/accounts", None).await;
    let accounts = accounts.as_array().expect("a bare array");
    let codes: Vec<&str> = accounts
        .iter()
        .filter_map(|a| a["account_code"].as_str())
        .collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    assert_eq!(codes, sorted, "by code");
    for code in ["1200", "1210", "1220", "2000", "5020"] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    let raw = accounts
        .iter()
        .find(|a| a["account_code"] == "1200")
        .expect("1200");
    assert_eq!(raw["account_type"], "asset");
    assert_eq!(raw["is_system"], true);
    assert_eq!(raw["active"], true);

    // Operators see none of the three (admins' pickers).
    for path in [
        "/api/v1/admin/inventory/transactions/locations",
        "/api/v1/admin/inventory/transactions/adjustment-reasons",
        "/api/v1/accounting/accounts",
    ] {
        let res = call(&app, Method::GET, path, None, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
    }
}

#[tokio::test]
async fn graphql_walks_an_account_to_its_entries_and_lines_and_a_spool_to_its_material() {
    let app = app().await;
    let t = admin(&app).await;
    let pla = create_item(
        &app,
        &t,
        json!({"sku": "MAT-PETG", "name": "PETG Grey", "item_type": "material"}),
    )
    .await;
    let receipt = post(
        &app,
        &t,
        json!({"product_id": pla, "transaction_type": "receipt", "quantity": "2000", "cost_per_unit": "0.025"}),
    )
    .await;
    let entry_id = receipt["journal_entry_id"].as_i64().expect("entry");

    // Raw materials (1200) -> its latest entries -> their lines -> each line's account.
    let walked = gql(
        &app,
        &t,
        "{ glAccounts { accountCode accountType entries(first: 5) { id entryNumber sourceType totalDebit
             lines { lineOrder debitAmount creditAmount accountCode account { accountCode name } } } } }",
        json!({}),
    )
    .await;
    assert!(walked["errors"].is_null(), "{walked}");
    let raw = walked["data"]["glAccounts"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["accountCode"] == "1200"))
        .expect("1200");
    assert_eq!(raw["accountType"], "asset");
    let entry = &raw["entries"][0];
    assert_eq!(entry["id"], entry_id, "{raw}");
    assert!(
        entry["entryNumber"]
            .as_str()
            .is_some_and(|n| n.starts_with("JE-"))
    );
    assert_eq!(entry["totalDebit"], "50.00");
    let lines = entry["lines"].as_array().expect("lines");
    let sides: Vec<(String, String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["account"]["accountCode"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                l["debitAmount"].as_str().unwrap_or_default().to_string(),
                l["creditAmount"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(sides.len(), 2, "{sides:?}");
    assert!(
        sides.contains(&("1200".into(), "50.00".into(), "0.00".into())),
        "{sides:?}"
    );
    assert!(
        lines
            .iter()
            .all(|l| l["accountCode"] == l["account"]["accountCode"])
    );

    // A spool registered over REST, read back through GraphQL with its material.
    let spool = crate::common::api::ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/spools/?spool_number=SP-G1&product_id={pla}&initial_weight_kg=1000"),
        None,
    )
    .await;
    let read = gql(
        &app,
        &t,
        "query($id: Int!, $p: Int!) { spool(id: $id) { spoolNumber currentWeightGrams status productSku }
           spools(productId: $p) { totalCount nodes { spoolNumber } } }",
        json!({"id": spool["id"], "p": pla}),
    )
    .await;
    assert!(read["errors"].is_null(), "{read}");
    assert_eq!(read["data"]["spool"]["spoolNumber"], "SP-G1");
    assert_eq!(read["data"]["spool"]["productSku"], "MAT-PETG");
    assert_eq!(read["data"]["spool"]["status"], "active");
    let grams: f64 = read["data"]["spool"]["currentWeightGrams"]
        .as_str()
        .and_then(|g| g.parse().ok())
        .expect("grams");
    assert_eq!(grams, 1000.0);
    assert_eq!(read["data"]["spools"]["totalCount"], 1);
    // An unknown spool is a not-found error, not a crash.
    let missing = gql(&app, &t, "{ spool(id: 999999) { id } }", json!({})).await;
    assert_eq!(
        missing["errors"][0]["extensions"]["code"], "NOT_FOUND",
        "{missing}"
    );
}
