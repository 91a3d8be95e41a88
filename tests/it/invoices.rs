//! Invoices (issue 34): shipping writes one invoice for what the order has not been billed
//! (its one receivable posting); an admin can bill a deposit first and the shipment bills
//! the rest; payments apply to the invoices oldest first and what they leave over waits in
//! 2300 Customer Deposits, so 1100 is always the open invoices' balances; PATCH records a
//! payment or marks a draft sent; send e-mails the PDF through the job queue; void mirrors
//! the posting and is refused (409) while payments are applied. Every refusal leaves the
//! tables as they were.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, refused, table_json};
use crate::common::books::{account, balanced, exec, receive};
use crate::common::smtp::SmtpServer;

fn money(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().expect("decimal"),
        other => other.as_f64().expect("number"),
    }
}

/// A bought widget at 10.00 with 20 in stock, and a customer on `terms`.
async fn setup(app: &TestApp, t: &str, terms: &str, email: &str) -> (i64, i64) {
    let widget = item("W")
        .kind("component")
        .with("procurement_type", json!("buy"))
        .price(Some("10.00"))
        .create(app, t)
        .await;
    receive(app, t, widget, "20", "4.00").await;
    let c = ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(
            json!({"email": email, "first_name": "Bea", "last_name": "Buyer",
                    "company_name": "Buyer Co", "payment_terms": terms,
                    "approved_for_terms": terms.starts_with("net"),
                    "billing_address_line1": "9 Bill Rd", "billing_city": "Austin"}),
        ),
    )
    .await;
    (widget, c["id"].as_i64().expect("customer"))
}

/// A confirmed order of `units` widgets with shipping 5.00: its id and grand total.
async fn confirmed(app: &TestApp, t: &str, widget: i64, customer: i64, units: i64) -> (i64, f64) {
    let o = ok(
        app,
        t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(
            json!({"lines": [{"product_id": widget, "quantity": units}], "customer_id": customer,
                    "shipping_cost": "5.00",
                    "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}),
        ),
    )
    .await;
    let id = o["id"].as_i64().expect("id");
    ok(
        app,
        t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    (id, money(&o["grand_total"]))
}

async fn ship(app: &TestApp, t: &str, id: i64) {
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/sales-orders/{id}/ship"),
        Some(json!({})),
    )
    .await;
}

async fn invoices_of(app: &TestApp, t: &str, order: i64) -> Vec<Value> {
    ok(
        app,
        t,
        Method::GET,
        &format!("/api/v1/invoices?sales_order_id={order}&sort_by=created_at&sort_order=asc"),
        None,
    )
    .await
    .as_array()
    .expect("list")
    .clone()
}

/// Every table an invoice change writes, to show a refusal wrote nothing.
async fn books_snapshot(app: &TestApp) -> Vec<String> {
    let mut out = Vec::new();
    for table in [
        "invoices",
        "invoice_lines",
        "payments",
        "gl_journal_entries",
        "gl_journal_entry_lines",
        "sales_order_events",
        "jobs",
    ] {
        out.push(table_json(app, table).await);
    }
    out
}

#[tokio::test]
async fn a_shipped_order_is_invoiced_once_on_its_terms_and_paid_down_to_paid() {
    let app = app().await;
    let t = admin(&app).await;
    let (widget, cid) = setup(&app, &t, "net30", "bea@shop.test").await;
    let (order, total) = confirmed(&app, &t, widget, cid, 3).await;
    assert_eq!(total, 35.0);
    ship(&app, &t, order).await;

    let list = invoices_of(&app, &t, order).await;
    assert_eq!(list.len(), 1, "{list:?}");
    let id = list[0]["id"].as_i64().expect("id");
    let inv = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/invoices/{id}"),
        None,
    )
    .await;
    let number = inv["invoice_number"].as_str().expect("number").to_string();
    assert!(number.starts_with("INV-2"), "{inv}");
    assert_eq!(inv["status"], "draft", "{inv}");
    assert_eq!(inv["payment_terms"], "net30");
    assert_eq!(
        inv["due_date"],
        (chrono::Utc::now().date_naive() + chrono::Duration::days(30)).to_string()
    );
    assert_eq!(
        (
            money(&inv["subtotal"]),
            money(&inv["shipping_amount"]),
            money(&inv["total"]),
            money(&inv["amount_due"])
        ),
        (30.0, 5.0, 35.0, 35.0),
        "{inv}"
    );
    assert_eq!(inv["customer_company"], "Buyer Co");
    assert_eq!(inv["bill_to_line1"], "9 Bill Rd");
    assert!(inv["order_number"].as_str().expect("so").starts_with("SO-"));
    assert_eq!(inv["lines"][0]["sku"], "W", "{inv}");
    assert_eq!(money(&inv["lines"][0]["line_total"]), 30.0);
    // The shipment's one receivable entry is the invoice's.
    assert_eq!(account(&app, "1100").await, 35.0);
    assert_eq!(account(&app, "4000").await, -30.0);
    let entry = inv["journal_entry_id"].as_i64().expect("entry");
    let described = crate::common::books::sql(
        &app,
        &format!("SELECT description FROM gl_journal_entries WHERE id = {entry}"),
    )
    .await;
    assert!(described.contains(&number), "{described}");

    // Refusals, each with its message, each leaving the books as they were.
    let before = books_snapshot(&app).await;
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        "/api/v1/invoices",
        Some(json!({"sales_order_id": order})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.to_string()
            .contains(&format!("is fully invoiced ({number})")),
        "{body}"
    );
    let path = format!("/api/v1/invoices/{id}");
    let (status, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"status": "paid"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body.to_string().contains("cannot be set to 'paid'"),
        "{body}"
    );
    let (status, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"amount_paid": "40.00", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body.to_string()
            .contains("Payment amount (40.00) exceeds the invoice's balance due (35.00)"),
        "{body}"
    );
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("{path}/void"),
        Some(json!({"reason": "  "})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, _) = refused(&app, &t, Method::GET, "/api/v1/invoices/999999", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(books_snapshot(&app).await, before);

    // A first payment against the invoice: partly paid.
    let inv = ok(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"amount_paid": "10.00", "payment_method": "check", "payment_reference": "CHK-7"})),
    )
    .await;
    assert_eq!(inv["status"], "partially_paid", "{inv}");
    assert_eq!(money(&inv["amount_due"]), 25.0);
    assert_eq!(inv["payment_method"], "check");
    assert_eq!(inv["payment_reference"], "CHK-7");
    assert_eq!(account(&app, "1100").await, 25.0);

    // Paid in part, it cannot be voided.
    let before = books_snapshot(&app).await;
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("{path}/void"),
        Some(json!({"reason": "wrong customer"})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body.to_string().contains("has payments applied (10.00)"),
        "{body}"
    );
    assert_eq!(books_snapshot(&app).await, before);

    // The rest through the order's payments: paid.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": order, "amount": "25.00", "payment_method": "cash"})),
    )
    .await;
    let inv = ok(&app, &t, Method::GET, &path, None).await;
    assert_eq!(inv["status"], "paid", "{inv}");
    assert!(inv["paid_at"].is_string());
    assert_eq!(money(&inv["amount_due"]), 0.0);
    assert_eq!(account(&app, "1100").await, 0.0);
    assert_eq!(account(&app, "2300").await, 0.0);
    let (status, body) = refused(
        &app,
        &t,
        Method::PATCH,
        &path,
        Some(json!({"amount_paid": "1.00", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let summary = ok(&app, &t, Method::GET, "/api/v1/invoices/summary", None).await;
    assert_eq!(money(&summary["total_ar"]), 0.0, "{summary}");
    assert_eq!(summary["overdue_count"], 0);

    // The PDF.
    let res = call(&app, Method::GET, &format!("{path}/pdf"), None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.header("content-type"), Some("application/pdf"));
    assert!(
        res.header("content-disposition")
            .expect("disposition")
            .contains(&format!("{number}.pdf"))
    );
    balanced(&app, &t).await;
}

#[tokio::test]
async fn a_deposit_is_billed_first_and_the_shipment_bills_the_rest_while_prepayments_wait_in_deposits()
 {
    let app = app().await;
    let t = admin(&app).await;
    let (widget, cid) = setup(&app, &t, "prepay", "dep@shop.test").await;
    let (order, total) = confirmed(&app, &t, widget, cid, 4).await;
    assert_eq!(total, 45.0);

    // Paid ahead of any invoice: a customer deposit, not a negative receivable.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": order, "amount": "20.00", "payment_method": "cash"})),
    )
    .await;
    assert_eq!(account(&app, "1100").await, 0.0);
    assert_eq!(account(&app, "2300").await, -20.0);

    // Bad deposits: nothing written.
    let before = books_snapshot(&app).await;
    for (amount, message) in [
        ("0", "Amount must be more than 0"),
        (
            "50.00",
            "Amount (50.00) exceeds what is left to invoice (45.00)",
        ),
        ("1.005", "Amount must be more than 0, to the cent"),
    ] {
        let (status, body) = refused(
            &app,
            &t,
            Method::POST,
            "/api/v1/invoices",
            Some(json!({"sales_order_id": order, "amount": amount})),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{amount}: {body}");
        assert!(body.to_string().contains(message), "{body}");
    }
    assert_eq!(books_snapshot(&app).await, before);

    // A deposit invoice of 15.00, with an Idempotency-Key sent twice: one invoice.
    let keyed = || {
        Request::builder()
            .method(Method::POST)
            .uri("/api/v1/invoices")
            .header("authorization", format!("Bearer {t}"))
            .header("content-type", "application/json")
            .header("idempotency-key", "deposit-1")
            .body(Body::from(
                json!({"sales_order_id": order, "amount": "15.00"}).to_string(),
            ))
            .expect("request")
    };
    let first = app.request(keyed()).await;
    let again = app.request(keyed()).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text());
    assert_eq!(first.json(), again.json());
    let deposit = first.json();
    assert_eq!(invoices_of(&app, &t, order).await.len(), 1);
    assert_eq!(money(&deposit["total"]), 15.0);
    assert_eq!(deposit["status"], "paid", "{deposit}");
    assert!(
        deposit["lines"][0]["description"]
            .as_str()
            .expect("line")
            .starts_with("Deposit toward sales order SO-"),
        "{deposit}"
    );
    assert_eq!(account(&app, "1100").await, 0.0);
    assert_eq!(account(&app, "2300").await, -5.0);

    // Shipping bills the rest, less the deposit; the 5.00 left over is applied to it.
    ship(&app, &t, order).await;
    let list = invoices_of(&app, &t, order).await;
    assert_eq!(list.len(), 2, "{list:?}");
    let rest = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/invoices/{}", list[1]["id"]),
        None,
    )
    .await;
    assert_eq!(money(&rest["total"]), 30.0, "{rest}");
    assert_eq!(money(&rest["amount_paid"]), 5.0);
    assert_eq!(rest["status"], "partially_paid");
    let lines = rest["lines"].as_array().expect("lines");
    assert!(
        lines.iter().any(|l| l["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("Less billed on invoice INV-"))),
        "{rest}"
    );
    assert_eq!(account(&app, "1100").await, 25.0);
    assert_eq!(account(&app, "2300").await, 0.0);
    assert_eq!(
        account(&app, "4000").await + account(&app, "4200").await,
        -45.0
    );

    // A refund of 5.00 takes the money back off the newest invoice; it can then be voided,
    // its posting mirrored, and billed again.
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments/refund",
        Some(json!({"sales_order_id": order, "amount": "5.00", "payment_method": "cash"})),
    )
    .await;
    let rest_id = list[1]["id"].as_i64().expect("id");
    let voided = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/invoices/{rest_id}/void"),
        Some(json!({"reason": "billed the wrong shipping"})),
    )
    .await;
    assert_eq!(voided["status"], "voided", "{voided}");
    assert_eq!(voided["void_reason"], "billed the wrong shipping");
    assert_eq!(money(&voided["amount_due"]), 0.0);
    assert_eq!(account(&app, "1100").await, 0.0);
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/invoices/{rest_id}/void"),
        Some(json!({"reason": "again"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("Invoice is already voided"));
    let again = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/invoices",
        Some(json!({"sales_order_id": order})),
    )
    .await;
    assert_eq!(money(&again["total"]), 30.0, "{again}");
    assert_eq!(account(&app, "1100").await, 30.0);
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{order}/events"),
        None,
    )
    .await
    .to_string();
    for title in ["Invoice Created", "Invoice Voided"] {
        assert!(events.contains(title), "{title}: {events}");
    }
    balanced(&app, &t).await;
}

#[tokio::test]
async fn overdue_invoices_age_into_their_buckets_and_the_ageing_agrees_with_the_ledger() {
    let app = app().await;
    let t = admin(&app).await;
    let (widget, cid) = setup(&app, &t, "net15", "late@shop.test").await;
    let (a, _) = confirmed(&app, &t, widget, cid, 1).await;
    let (b, _) = confirmed(&app, &t, widget, cid, 2).await;
    ship(&app, &t, a).await;
    ship(&app, &t, b).await;
    let ia = invoices_of(&app, &t, a).await[0]["id"].as_i64().expect("a");
    let ib = invoices_of(&app, &t, b).await[0]["id"].as_i64().expect("b");
    for id in [ia, ib] {
        let sent = ok(
            &app,
            &t,
            Method::PATCH,
            &format!("/api/v1/invoices/{id}"),
            Some(json!({"status": "sent"})),
        )
        .await;
        assert_eq!(sent["status"], "sent", "{sent}");
    }
    // A is 45 days late, B not due yet.
    exec(
        &app,
        &format!("UPDATE invoices SET due_date = current_date - 45 WHERE id = {ia}"),
    )
    .await;
    let overdue = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/invoices?status=overdue",
        None,
    )
    .await;
    let overdue = overdue.as_array().expect("list");
    assert_eq!(overdue.len(), 1, "{overdue:?}");
    assert_eq!(overdue[0]["id"], ia);
    assert_eq!(overdue[0]["display_status"], "overdue");
    assert_eq!(overdue[0]["days_overdue"], 45);
    let summary = ok(&app, &t, Method::GET, "/api/v1/invoices/summary", None).await;
    assert_eq!(summary["overdue_count"], 1, "{summary}");
    assert_eq!(money(&summary["overdue_amount"]), 15.0);
    assert_eq!(money(&summary["total_ar"]), 40.0);

    let aging = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/accounting/ar-aging",
        None,
    )
    .await;
    assert_eq!(aging["ledger_agrees"], true, "{aging}");
    assert_eq!(money(&aging["ledger_balance"]), 40.0);
    assert_eq!(money(&aging["totals"]["current"]), 25.0, "{aging}");
    assert_eq!(money(&aging["totals"]["days_31_60"]), 15.0);
    assert_eq!(money(&aging["totals"]["total"]), 40.0);
    assert_eq!(aging["customers"][0]["customer_id"], cid);
    assert_eq!(aging["customers"][0]["customer_name"], "Buyer Co");
    assert_eq!(aging["customers"][0]["invoice_count"], 2);

    // Search and sort.
    let found = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/invoices?search=buyer%20co&sort_by=due_date&sort_order=asc",
        None,
    )
    .await;
    let found = found.as_array().expect("list");
    assert_eq!(found.len(), 2);
    assert_eq!(found[0]["id"], ia);
    let (status, _) = refused(&app, &t, Method::GET, "/api/v1/invoices?status=late", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn sending_an_invoice_e_mails_its_pdf_through_the_job_queue() {
    let smtp = SmtpServer::start().await;
    let mut vars = smtp.vars();
    // As the mail outbox tests run: admin() signs in through the header mode there.
    vars.push(("AUTH_MODE".into(), "header".into()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn_with(&vars).await;
    let t = admin(&app).await;
    let (widget, cid) = setup(&app, &t, "cod", "send@shop.test").await;
    let (order, _) = confirmed(&app, &t, widget, cid, 2).await;
    ship(&app, &t, order).await;
    let id = invoices_of(&app, &t, order).await[0]["id"]
        .as_i64()
        .expect("id");
    let number = invoices_of(&app, &t, order).await[0]["invoice_number"]
        .as_str()
        .expect("number")
        .to_string();

    let before = books_snapshot(&app).await;
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/invoices/{id}/send"),
        Some(json!({"to": "not an address"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(books_snapshot(&app).await, before);

    let sent = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/invoices/{id}/send"),
        Some(json!({})),
    )
    .await;
    assert_eq!(sent["status"], "sent", "{sent}");
    assert_eq!(sent["sent_to"], "send@shop.test");
    let _worker = strata::application::app::start_jobs(
        &app.state,
        strata::platform::jobs::WorkerOptions {
            poll_interval: Duration::from_millis(50),
            ..strata::platform::jobs::WorkerOptions::default()
        },
    );
    let mails = smtp.wait_for_within(1, Duration::from_secs(20)).await;
    assert_eq!(mails[0].to, vec!["send@shop.test"]);
    let data = &mails[0].data;
    assert!(data.contains(&format!("Invoice {number}")), "{data}");
    assert!(data.contains("application/pdf"), "{data}");
    assert!(data.contains(&format!("{number}.pdf")), "{data}");
    assert!(data.contains("attachment"), "{data}");
}

#[tokio::test]
async fn without_mail_sending_records_it_and_a_voided_invoice_is_not_sent() {
    let app = app().await;
    let t = admin(&app).await;
    let (widget, cid) = setup(&app, &t, "cod", "nomail@shop.test").await;
    let (order, _) = confirmed(&app, &t, widget, cid, 1).await;
    ship(&app, &t, order).await;
    let id = invoices_of(&app, &t, order).await[0]["id"]
        .as_i64()
        .expect("id");
    let res = crate::common::api::gql(
        &app,
        &t,
        "mutation($id: Int!) { invoiceSend(id: $id) { emailed invoice { status sentTo } userErrors { message } } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(res["data"]["invoiceSend"]["emailed"], false, "{res}");
    assert_eq!(res["data"]["invoiceSend"]["invoice"]["status"], "sent");
    assert_eq!(
        crate::common::books::sql_num(&app, "SELECT count(*) FROM jobs").await,
        0.0
    );
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/invoices/{id}/void"),
        Some(json!({"reason": "duplicate"})),
    )
    .await;
    let (status, body) = refused(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/invoices/{id}/send"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("Cannot send a voided invoice"));
    // Not for operators.
    let op = crate::common::api::operator(&app, &t).await;
    let (status, _) = refused(&app, &op, Method::GET, "/api/v1/invoices", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
