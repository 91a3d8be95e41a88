//! Reading the two ledgers from a test: SQL straight on the test database, stock per item,
//! GL account balances, a receipt, and the check that the books balance and stock agrees
//! with its ledger. Shared by the production and sales tests.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use super::TestApp;
use super::api::call;

/// A successful call's JSON (200 or 201).
async fn ok(app: &TestApp, t: &str, method: Method, path: &str, body: Option<Value>) -> Value {
    let res = call(app, method, path, body, t).await;
    assert!(
        res.status == StatusCode::OK || res.status == StatusCode::CREATED,
        "{path}: {} {}",
        res.status,
        res.text()
    );
    res.json()
}

/// A JSON number or decimal string as `f64`.
pub fn num(v: &Value) -> f64 {
    v.as_str()
        .map(|s| s.parse::<f64>().expect("number"))
        .or_else(|| v.as_f64())
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

/// One value of a query on the test database, as text (empty for NULL).
pub async fn sql(app: &TestApp, query: &str) -> String {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .query_one(&format!("SELECT ({query})::text"), &[])
        .await
        .expect("query")
        .get::<_, Option<String>>(0)
        .unwrap_or_default()
}

/// One numeric value of a query on the test database (0 for NULL).
pub async fn sql_num(app: &TestApp, query: &str) -> f64 {
    let v = sql(app, query).await;
    if v.is_empty() {
        0.0
    } else {
        v.parse().expect("number")
    }
}

/// Runs statements on the test database (what a test breaks on purpose).
pub async fn exec(app: &TestApp, statement: &str) {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client.batch_execute(statement).await.expect("exec");
}

/// Receives `qty` of an item at `cost` per unit.
pub async fn receive(app: &TestApp, t: &str, id: i64, qty: &str, cost: &str) {
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/inventory/transactions",
        Some(json!({"product_id": id, "transaction_type": "receipt", "quantity": qty, "cost_per_unit": cost})),
    )
    .await;
}

/// On hand and allocated of an item over every location.
pub async fn stock(app: &TestApp, id: i64) -> (f64, f64) {
    (
        sql_num(app, &format!("SELECT coalesce(sum(on_hand_quantity), 0) FROM inventory_balances WHERE item_id = {id}")).await,
        sql_num(app, &format!("SELECT coalesce(sum(allocated_quantity), 0) FROM inventory_balances WHERE item_id = {id}")).await,
    )
}

/// The balance (debits - credits) of a GL account.
pub async fn account(app: &TestApp, code: &str) -> f64 {
    sql_num(
        app,
        &format!(
            "SELECT coalesce(sum(l.debit_amount - l.credit_amount), 0) FROM gl_journal_entry_lines l \
             JOIN gl_accounts a ON a.id = l.account_id WHERE a.account_code = '{code}'"
        ),
    )
    .await
}

/// The trial balance balances and stock agrees with its ledger.
pub async fn balanced(app: &TestApp, t: &str) {
    let tb = ok(
        app,
        t,
        Method::GET,
        "/api/v1/accounting/trial-balance",
        None,
    )
    .await;
    assert_eq!(num(&tb["total_debits"]), num(&tb["total_credits"]), "{tb}");
    let res = ok(
        app,
        t,
        Method::POST,
        "/api/v1/inventory/validate-consistency",
        None,
    )
    .await;
    assert_eq!(res, json!({"consistent": true, "mismatches": []}));
}
