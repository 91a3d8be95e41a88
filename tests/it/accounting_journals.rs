//! The journals and reports of `/admin/accounting/*` and the audit trail of
//! `/admin/audit/transactions*` (CONTRACT 5.17, 5.18) through REST: after two orders are
//! shipped and paid and one refund is made, each journal lists exactly those rows with exact
//! amounts, its totals equal the trial balance's accounts, the CSV exports carry a header
//! row and the same rows, operators get 403, bad dates 422, an unknown order 404, and the
//! sales journal costs the same statements for one invoice as for twenty.

use std::sync::atomic::Ordering;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::item;
use crate::common::api::{admin, app, call, ok, operator};
use crate::common::books::{receive, sql_num};

async fn customer(app: &TestApp, t: &str) -> i64 {
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "buyer@shop.test", "first_name": "Bea", "last_name": "Buyer", "shipping_address_line1": "1 Elm St", "shipping_city": "Austin", "shipping_state": "TX", "shipping_zip": "73301"})),
    )
    .await["id"]
        .as_i64()
        .expect("customer")
}

/// An order for `qty` widgets, confirmed (the stock is on hand, so it is reserved).
async fn confirmed_order(app: &TestApp, t: &str, widget: i64, qty: i64, extra: Value) -> Value {
    let mut body = json!({"lines": [{"product_id": widget, "quantity": qty}], "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    let o = ok(app, t, Method::POST, "/api/v1/sales-orders/", Some(body)).await;
    ok(
        app,
        t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{}/status", o["id"]),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    o
}

async fn ship(app: &TestApp, t: &str, id: &Value) {
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
}

async fn pay(app: &TestApp, t: &str, path: &str, order: &Value, amount: &str, method: &str) {
    ok(
        app,
        t,
        Method::POST,
        path,
        Some(json!({"sales_order_id": order["id"], "amount": amount, "payment_method": method})),
    )
    .await;
}

/// A widget (25.00, 3.00 at cost) shipped in a box (packaging, 0.40), tax 8.25 %.
async fn shop(app: &TestApp, t: &str, widgets: &str) -> i64 {
    ok(
        app,
        t,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"tax_enabled": true, "tax_rate_percent": "8.25"})),
    )
    .await;
    let box_ = item("BOX")
        .kind("packaging")
        .price(None)
        .create(app, t)
        .await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .price(Some("25.00"))
        .create(app, t)
        .await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": widget, "lines": [
            {"component_id": box_, "quantity": "1", "consume_stage": "shipping"}
        ]})),
    )
    .await;
    receive(app, t, box_, widgets, "0.40").await;
    receive(app, t, widget, widgets, "3").await;
    widget
}

/// The trial balance's net balance of an account (on its normal side).
fn tb_net(tb: &Value, code: &str) -> String {
    tb["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .find(|a| a["account_code"] == code)
        .map(|a| a["net_balance"].as_str().expect("net").to_string())
        .unwrap_or_else(|| "0.00".into())
}

/// A CSV body as records (the header first).
fn csv_records(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.expect("csv record").iter().map(str::to_string).collect())
        .collect()
}

/// The CSV export of `path`: a header row with the JSON rows' keys, then the same rows.
async fn same_rows_as_csv(app: &TestApp, t: &str, path: &str, rows: &Value) {
    let res = call(app, Method::GET, path, None, t).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
    assert_eq!(res.header("content-type"), Some("text/csv; charset=utf-8"));
    let disposition = res.header("content-disposition").expect("disposition");
    assert!(disposition.starts_with("attachment"), "{disposition}");
    let records = csv_records(&res.text());
    let rows = rows.as_array().expect("rows");
    let header: Vec<String> = rows[0].as_object().expect("row").keys().cloned().collect();
    assert_eq!(records[0], header, "{path}");
    assert_eq!(records.len(), rows.len() + 1, "{path}: {}", res.text());
    for (record, row) in records[1..].iter().zip(rows) {
        let expected: Vec<String> = header
            .iter()
            .map(|k| match &row[k] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        assert_eq!(record, &expected, "{path}");
    }
}

#[tokio::test]
async fn journals_list_exactly_the_invoices_and_cash_and_tie_to_the_trial_balance() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let widget = shop(&app, &t, "10").await;
    let c = customer(&app, &t).await;

    // A: 2 x 25.00 + 5.00 shipping, tax 4.13 (4.125 half up) = 59.13; B: 25.00 + 2.06 = 27.06.
    let a = confirmed_order(
        &app,
        &t,
        widget,
        2,
        json!({"customer_id": c, "shipping_cost": "5.00"}),
    )
    .await;
    let b = confirmed_order(&app, &t, widget, 1, json!({})).await;
    // C is confirmed but never shipped: not a sale yet.
    let _c = confirmed_order(&app, &t, widget, 1, json!({})).await;
    assert_eq!(a["grand_total"], "59.13");
    assert_eq!(b["grand_total"], "27.06");
    ship(&app, &t, &a["id"]).await;
    ship(&app, &t, &b["id"]).await;
    pay(&app, &t, "/api/v1/payments", &a, "59.13", "cash").await;
    pay(&app, &t, "/api/v1/payments", &b, "27.06", "credit_card").await;
    pay(&app, &t, "/api/v1/payments/refund", &a, "5.00", "cash").await;

    let tb = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/accounting/trial-balance",
        None,
    )
    .await;

    // The sales journal (default window: the last 30 days).
    let sj = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/sales-journal",
        None,
    )
    .await;
    let today = chrono::Utc::now().date_naive();
    assert_eq!(sj["end_date"], today.to_string());
    assert_eq!(
        sj["start_date"],
        (today - chrono::Days::new(29)).to_string()
    );
    assert_eq!(sj["total"], 2, "{sj}");
    assert_eq!(
        (sj["limit"].clone(), sj["offset"].clone()),
        (json!(100), json!(0))
    );
    let rows = sj["rows"].as_array().expect("rows");
    let pick = |r: &Value| {
        json!([
            r["order_number"],
            r["customer_name"],
            r["subtotal"],
            r["tax"],
            r["shipping"],
            r["grand_total"],
            r["date"]
        ])
    };
    assert_eq!(
        rows.iter().map(pick).collect::<Vec<_>>(),
        vec![
            json!([
                a["order_number"],
                "Bea Buyer",
                "50.00",
                "4.13",
                "5.00",
                "59.13",
                today.to_string()
            ]),
            json!([
                b["order_number"],
                Value::Null,
                "25.00",
                "2.06",
                "0.00",
                "27.06",
                today.to_string()
            ]),
        ]
    );
    assert_eq!(rows[0]["sales_order_id"], a["id"]);
    assert_eq!(rows[0]["customer_id"], c);
    assert!(
        rows[0]["entry_number"]
            .as_str()
            .expect("je")
            .starts_with("JE-")
    );
    assert_eq!(
        sj["totals"],
        json!({"invoice_count": 2, "subtotal": "75.00", "tax": "6.19", "shipping": "5.00", "grand_total": "86.19"})
    );
    assert_eq!(tb_net(&tb, "4000"), "75.00");
    assert_eq!(tb_net(&tb, "2100"), "6.19");
    assert_eq!(tb_net(&tb, "4200"), "5.00");
    // What was invoiced to 1100, less the cash that came in for it, is what is still owed.
    assert_eq!(tb_net(&tb, "1100"), "5.00");

    // The payments journal: two payments and a refund, signed, by method.
    let pj = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/payments-journal",
        None,
    )
    .await;
    assert_eq!(pj["total"], 3, "{pj}");
    let pick = |r: &Value| {
        json!([
            r["order_number"],
            r["kind"],
            r["payment_method"],
            r["amount"],
            r["payment_status"]
        ])
    };
    assert_eq!(
        pj["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(pick)
            .collect::<Vec<_>>(),
        vec![
            json!([a["order_number"], "payment", "cash", "59.13", "completed"]),
            json!([
                b["order_number"],
                "payment",
                "credit_card",
                "27.06",
                "completed"
            ]),
            json!([a["order_number"], "refund", "cash", "-5.00", "completed"]),
        ]
    );
    assert!(
        pj["rows"][0]["payment_number"]
            .as_str()
            .expect("pay")
            .starts_with("PAY-")
    );
    assert_eq!(
        pj["totals"],
        json!({"entry_count": 3, "payments": "86.19", "refunds": "-5.00", "voids": "0.00", "net": "81.19"})
    );
    assert_eq!(
        pj["by_method"],
        json!([
            {"payment_method": "cash", "entry_count": 2, "amount": "54.13"},
            {"payment_method": "credit_card", "entry_count": 1, "amount": "27.06"}
        ])
    );
    assert_eq!(tb_net(&tb, "1000"), "81.19");

    // The tax summary of today's month (one bucket), from the 2100 postings.
    let day = format!("start_date={today}&end_date={today}");
    let ts = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/accounting/tax-summary?{day}"),
        None,
    )
    .await;
    assert_eq!(
        ts["periods"],
        json!([{
            "period": today.format("%Y-%m").to_string(),
            "start_date": today.to_string(), "end_date": today.to_string(),
            "invoice_count": 2, "taxable_sales": "75.00", "non_taxable_sales": "0.00", "tax_collected": "6.19"
        }])
    );
    assert_eq!(
        ts["totals"],
        json!({"invoice_count": 2, "taxable_sales": "75.00", "non_taxable_sales": "0.00", "tax_collected": "6.19"})
    );

    // COGS: 3 widgets at 3.00 and 3 boxes at 0.40 against 80.00 of revenue.
    let cg = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/cogs-summary",
        None,
    )
    .await;
    assert_eq!(
        cg,
        json!({
            "start_date": sj["start_date"], "end_date": sj["end_date"], "invoice_count": 2,
            "sales_revenue": "75.00", "shipping_revenue": "5.00", "revenue": "80.00",
            "cogs": "9.00", "packaging": "1.20", "total_cogs": "10.20",
            "gross_margin": "69.80", "gross_margin_percent": "87.25"
        })
    );
    assert_eq!(tb_net(&tb, "5000"), "9.00");
    assert_eq!(tb_net(&tb, "5010"), "1.20");

    let d = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/dashboard",
        None,
    )
    .await;
    // The books' window beside FilaOps's month- and year-to-date blocks (both orders
    // shipped today): revenue before tax and shipping, tax, payments received (the 5.00
    // refund is not a receipt, so 86.19 against the cash account's 81.19), what every open
    // order still owes (the unshipped one too, unlike receivables), the month's COGS and
    // gross profit.
    let mut d = d;
    let stamps = d
        .as_object_mut()
        .map(|o| (o.remove("as_of"), o.remove("fiscal_year_start")));
    assert!(
        stamps.is_some_and(
            |(a, f)| a.is_some_and(|a| a.is_string()) && f.is_some_and(|f| f.is_string())
        ),
        "as_of and fiscal_year_start"
    );
    assert_eq!(
        d,
        json!({
            "start_date": sj["start_date"], "end_date": sj["end_date"],
            "window_revenue": "80.00", "window_cogs": "10.20", "gross_margin": "69.80", "gross_margin_percent": "87.25",
            "accounts_receivable": "5.00", "cash": "81.19", "tax_liability": "6.19",
            "revenue": {"mtd": 75.0, "mtd_orders": 2, "ytd": 75.0, "ytd_orders": 2},
            "payments": {"mtd_received": 86.19, "ytd_received": 86.19, "outstanding": 32.06, "outstanding_orders": 2},
            "tax": {"mtd_collected": 6.19, "ytd_collected": 6.19},
            "cogs": {"mtd": 10.2},
            "profit": {"mtd_gross": 64.8, "mtd_margin_pct": 86.4},
            "unjournaled_txn_count": 0
        })
    );

    // The CSV exports: a header row and the same rows.
    same_rows_as_csv(
        &app,
        &t,
        "/api/v1/admin/accounting/sales-journal/export",
        &sj["rows"],
    )
    .await;
    same_rows_as_csv(
        &app,
        &t,
        "/api/v1/admin/accounting/payments-journal/export",
        &pj["rows"],
    )
    .await;
    same_rows_as_csv(
        &app,
        &t,
        &format!("/api/v1/admin/accounting/tax-summary/export?{day}"),
        &ts["periods"],
    )
    .await;
    let res = call(
        &app,
        Method::GET,
        "/api/v1/admin/accounting/sales-journal/export",
        None,
        &t,
    )
    .await;
    assert!(
        res.header("content-disposition")
            .expect("disposition")
            .contains("sales-journal.csv"),
        "{:?}",
        res.header("content-disposition")
    );

    // An empty window answers zeros, not an error.
    let empty = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/sales-journal?start_date=2020-01-01&end_date=2020-01-31",
        None,
    )
    .await;
    assert_eq!(empty["rows"], json!([]));
    assert_eq!(empty["totals"]["grand_total"], "0.00");
    // A page past the first still carries the window's totals.
    let second = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/sales-journal?limit=1&offset=1",
        None,
    )
    .await;
    assert_eq!(second["rows"].as_array().expect("rows").len(), 1);
    assert_eq!(second["rows"][0]["order_number"], b["order_number"]);
    assert_eq!(second["totals"]["grand_total"], "86.19");
    let past = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/sales-journal?limit=1&offset=5",
        None,
    )
    .await;
    assert_eq!(
        (past["rows"].clone(), past["total"].clone()),
        (json!([]), json!(2))
    );
    assert_eq!(past["totals"]["grand_total"], "86.19");

    // Operators are refused every route.
    for path in [
        "/api/v1/admin/accounting/sales-journal",
        "/api/v1/admin/accounting/sales-journal/export",
        "/api/v1/admin/accounting/payments-journal",
        "/api/v1/admin/accounting/payments-journal/export",
        "/api/v1/admin/accounting/tax-summary",
        "/api/v1/admin/accounting/tax-summary/export",
        "/api/v1/admin/accounting/cogs-summary",
        "/api/v1/admin/accounting/dashboard",
        "/api/v1/admin/audit/transactions",
        "/api/v1/admin/audit/transactions/summary",
        &format!("/api/v1/admin/audit/transactions/order/{}", a["id"]),
        &format!("/api/v1/admin/audit/transactions/timeline/{}", a["id"]),
    ] {
        let res = call(&app, Method::GET, path, None, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
        assert_eq!(
            res.json(),
            json!({"detail": "Admin access required"}),
            "{path}"
        );
    }

    // Bad dates: 422 naming the field.
    for (query, field) in [
        ("start_date=2026-13-01", "query.start_date"),
        ("end_date=yesterday", "query.end_date"),
        (
            "start_date=2026-02-01&end_date=2026-01-31",
            "query.start_date",
        ),
        (
            "start_date=2000-01-01&end_date=2026-01-31",
            "query.end_date",
        ),
    ] {
        for route in [
            "sales-journal",
            "payments-journal/export",
            "tax-summary",
            "cogs-summary",
            "dashboard",
        ] {
            let path = format!("/api/v1/admin/accounting/{route}?{query}");
            let res = call(&app, Method::GET, &path, None, &t).await;
            assert_eq!(
                res.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{path}: {}",
                res.text()
            );
            let fields: Vec<Value> = res.json()["details"]["errors"]
                .as_array()
                .expect("errors")
                .iter()
                .map(|e| e["field"].clone())
                .collect();
            assert_eq!(fields, vec![json!(field)], "{path}: {}", res.text());
        }
    }
    let res = call(
        &app,
        Method::GET,
        "/api/v1/admin/audit/transactions?start_date=2026-02-01&end_date=2026-01-31",
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
    assert_eq!(
        res.json()["details"]["errors"][0]["field"],
        "query.start_date"
    );
}

#[tokio::test]
async fn the_audit_trail_lists_the_ledger_and_everything_an_order_posted() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = shop(&app, &t, "10").await;
    let a = confirmed_order(&app, &t, widget, 2, json!({"shipping_cost": "5.00"})).await;
    let b = confirmed_order(&app, &t, widget, 1, json!({})).await;
    ship(&app, &t, &a["id"]).await;
    pay(&app, &t, "/api/v1/payments", &a, "59.13", "cash").await;
    pay(&app, &t, "/api/v1/payments/refund", &a, "5.00", "cash").await;
    let (aid, bid) = (a["id"].as_i64().expect("a"), b["id"].as_i64().expect("b"));

    // The trail is the inventory ledger: the same rows as /admin/inventory/transactions.
    let all = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/audit/transactions?limit=500",
        None,
    )
    .await;
    let ledger = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/inventory/transactions?limit=500",
        None,
    )
    .await;
    let ids = |rows: &Value| -> Vec<Value> {
        rows.as_array()
            .expect("rows")
            .iter()
            .map(|r| r["id"].clone())
            .collect()
    };
    assert_eq!(ids(&all["items"]), ids(&ledger));
    let count = sql_num(&app, "SELECT count(*) FROM inventory_transactions").await;
    assert_eq!(all["total"], json!(count as i64));
    let first = &all["items"][0];
    for key in [
        "product_sku",
        "product_name",
        "location_name",
        "quantity",
        "total_cost",
        "reference_type",
        "created_by",
        "created_at",
    ] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }

    // Filters: one order's rows, one item's rows, a window that holds nothing.
    let mine = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/audit/transactions?reference_type=sales_order&reference_id={aid}"),
        None,
    )
    .await;
    let of_a = sql_num(&app, &format!("SELECT count(*) FROM inventory_transactions WHERE reference_type = 'sales_order' AND reference_id = {aid}")).await;
    assert_eq!(mine["total"], json!(of_a as i64));
    assert!(
        of_a >= 3.0,
        "reservation, shipment and the box at least: {mine}"
    );
    let widgets = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/audit/transactions?product_id={widget}"),
        None,
    )
    .await;
    assert!(
        widgets["items"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|r| r["product_sku"] == "WIDGET")
    );
    let old = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/audit/transactions?start_date=2020-01-01&end_date=2020-12-31",
        None,
    )
    .await;
    assert_eq!(old["total"], 0);
    let today = chrono::Utc::now().date_naive();
    let now = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/audit/transactions?start_date={today}&end_date={today}"),
        None,
    )
    .await;
    assert_eq!(now["total"], all["total"]);

    // The summary counts every type as the table does.
    let summary = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/audit/transactions/summary",
        None,
    )
    .await;
    assert_eq!(summary["total_count"], json!(count as i64));
    for row in summary["by_type"].as_array().expect("types") {
        let kind = row["transaction_type"].as_str().expect("type");
        let n = sql_num(
            &app,
            &format!(
                "SELECT count(*) FROM inventory_transactions WHERE transaction_type = '{kind}'"
            ),
        )
        .await;
        let q = sql_num(
            &app,
            &format!(
                "SELECT sum(quantity) FROM inventory_transactions WHERE transaction_type = '{kind}'"
            ),
        )
        .await;
        assert_eq!(row["count"], json!(n as i64), "{kind}");
        assert_eq!(
            row["total_quantity"]
                .as_str()
                .expect("qty")
                .parse::<f64>()
                .expect("num"),
            q,
            "{kind}"
        );
    }
    let shipped = summary["by_type"]
        .as_array()
        .expect("types")
        .iter()
        .find(|r| r["transaction_type"] == "shipment")
        .expect("shipment row");
    assert_eq!(
        shipped["total_quantity"]
            .as_str()
            .map(|q| q.parse::<f64>().expect("num")),
        Some(-2.0)
    );

    // One order: its stock moves and its entries (shipment cost, invoice, payment, refund).
    let audit = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/audit/transactions/order/{aid}"),
        None,
    )
    .await;
    assert_eq!(audit["sales_order"]["order_number"], a["order_number"]);
    assert_eq!(audit["sales_order"]["status"], "shipped");
    assert_eq!(
        audit["inventory_transactions"]
            .as_array()
            .expect("moves")
            .len() as f64,
        of_a
    );
    let entries: Vec<String> = audit["journal_entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["description"].as_str().expect("description").to_string())
        .collect();
    assert_eq!(entries.len(), 4, "{entries:?}");
    assert!(entries[0].starts_with("Shipment SHP-"), "{entries:?}");
    assert!(entries[1].starts_with("Invoice INV-"), "{entries:?}");
    assert!(entries[2].starts_with("Payment PAY-"), "{entries:?}");
    assert!(entries[3].starts_with("Refund PAY-"), "{entries:?}");
    assert_eq!(audit["journal_entries"][1]["total_debit"], "59.13");
    // B was never shipped: its reservation only, no entry.
    let audit_b = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/audit/transactions/order/{bid}"),
        None,
    )
    .await;
    assert_eq!(audit_b["journal_entries"], json!([]));
    assert_eq!(
        audit_b["inventory_transactions"][0]["transaction_type"],
        "reservation"
    );

    // The timeline: the same records merged, oldest first.
    let tl = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/audit/transactions/timeline/{aid}"),
        None,
    )
    .await;
    let events = tl["events"].as_array().expect("events");
    assert_eq!(events.len() as f64, of_a + 4.0);
    let times: Vec<String> = events
        .iter()
        .map(|e| e["at"].as_str().expect("at").to_string())
        .collect();
    let mut sorted = times.clone();
    sorted.sort();
    assert_eq!(times, sorted);
    let invoice = events
        .iter()
        .find(|e| e["title"] == audit["journal_entries"][1]["entry_number"])
        .expect("invoice event");
    assert_eq!(invoice["kind"], "journal_entry");
    assert_eq!(invoice["amount"], "59.13");
    assert_eq!(invoice["reference_type"], "sales_order");
    let moved = events
        .iter()
        .find(|e| e["kind"] == "inventory_transaction")
        .expect("a stock event");
    assert!(
        moved["inventory_transaction"]["product_sku"].is_string(),
        "{moved}"
    );

    for path in [
        "/api/v1/admin/audit/transactions/order/999999",
        "/api/v1/admin/audit/transactions/timeline/999999",
    ] {
        let res = call(&app, Method::GET, path, None, &t).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(res.json(), json!({"detail": "Sales order not found"}));
    }
}

#[tokio::test]
async fn the_sales_journal_costs_the_same_statements_for_one_invoice_as_for_twenty() {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let widget = shop(&app, &t, "40").await;
    let mut shipped = 0;
    let mut counts = Vec::new();
    for n in [1, 20] {
        while shipped < n {
            let o = confirmed_order(&app, &t, widget, 1, json!({})).await;
            ship(&app, &t, &o["id"]).await;
            shipped += 1;
        }
        let mut least = u64::MAX;
        for _ in 0..3 {
            let before = counter.load(Ordering::SeqCst);
            let sj = ok(
                &app,
                &t,
                Method::GET,
                "/api/v1/admin/accounting/sales-journal",
                None,
            )
            .await;
            assert_eq!(sj["rows"].as_array().expect("rows").len(), n);
            least = least.min(counter.load(Ordering::SeqCst) - before);
        }
        counts.push(least);
    }
    println!(
        "statements for 1 invoice: {}, for 20: {}",
        counts[0], counts[1]
    );
    assert!(
        counts[1] <= counts[0] && counts[1] <= 4,
        "the statement count grows with the invoices: {counts:?}"
    );
}
