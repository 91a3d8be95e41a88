//! Customer messages (issue 34): FilaOps's `/notifications*` inbox (threads with unread
//! counts, a thread's messages, reply, mark a thread or one message read, the badge), plus
//! Strata's `POST /notifications` to start a thread on an order: the customer's message
//! recorded here is unread for the team, the team's is born read and e-mailed to the order's
//! customer through the job queue (a real SMTP server here), and each joins the order's
//! history. Every refusal leaves the table as it was.

use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, item, ok, operator, refused, table_json};
use crate::common::smtp::SmtpServer;

/// An order for a customer with an e-mail address: its id.
async fn order(app: &TestApp, t: &str, email: &str) -> i64 {
    let widget = item("MSG-W").price(Some("5.00")).create(app, t).await;
    let c = ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": email, "first_name": "Cara", "last_name": "Customer"})),
    )
    .await;
    let o = ok(
        app,
        t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 1}],
                     "customer_id": c["id"],
                     "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    o["id"].as_i64().expect("order id")
}

async fn start(app: &TestApp, t: &str, body: Value) -> Value {
    ok(app, t, Method::POST, "/api/v1/notifications", Some(body)).await
}

fn thread_of(message: &Value) -> String {
    message["thread_id"]
        .as_str()
        .expect("thread id")
        .to_string()
}

#[tokio::test]
async fn the_inbox_counts_unread_customer_messages_and_replies_mark_threads_read() {
    let app = app().await;
    let t = admin(&app).await;
    let so = order(&app, &t, "cara@shop.test").await;

    let empty = ok(&app, &t, Method::GET, "/api/v1/notifications/", None).await;
    assert_eq!(empty, json!([]));
    let badge = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/notifications/unread-count",
        None,
    )
    .await;
    assert_eq!(badge, json!({"unread_count": 0}));

    // The customer's e-mail, recorded on the order: unread for the team, named after them.
    let first = start(
        &app,
        &t,
        json!({"sales_order_id": so, "subject": "Colour change?", "sender_type": "customer",
                "body": "Could the vase be in galaxy black instead?"}),
    )
    .await;
    assert_eq!(first["sender_type"], "customer");
    assert_eq!(first["sender_name"], "Cara Customer");
    assert_eq!(first["source"], "email");
    assert_eq!(first["read_at"], Value::Null);
    assert_eq!(first["sales_order_id"], so);
    let thread = thread_of(&first);
    // A second, general thread written by the team: born read.
    let ours = start(
        &app,
        &t,
        json!({"subject": "Holiday hours", "body": "We close on the 24th."}),
    )
    .await;
    assert_eq!(ours["sender_type"], "admin");
    assert!(ours["read_at"].is_string(), "{ours}");
    assert_eq!(
        ours["emailed_to"],
        Value::Null,
        "no order: nobody to e-mail"
    );

    let badge = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/notifications/unread-count",
        None,
    )
    .await;
    assert_eq!(badge["unread_count"], 1);
    let inbox = ok(&app, &t, Method::GET, "/api/v1/notifications/", None).await;
    assert_eq!(inbox.as_array().map(Vec::len), Some(2));
    assert_eq!(
        inbox[0]["thread_subject"], "Holiday hours",
        "latest activity first"
    );
    let unread = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/notifications/?unread_only=true",
        None,
    )
    .await;
    assert_eq!(unread.as_array().map(Vec::len), Some(1));
    assert_eq!(unread[0]["thread_id"], thread.as_str());
    assert_eq!(unread[0]["unread_count"], 1);
    assert_eq!(unread[0]["message_count"], 1);
    assert_eq!(unread[0]["awaiting_reply"], true);
    assert!(
        unread[0]["order_number"]
            .as_str()
            .is_some_and(|n| n.starts_with("SO-"))
    );
    assert_eq!(unread[0]["customer_name"], "Cara Customer");
    let found = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/notifications/?search=galaxy",
        None,
    )
    .await;
    assert_eq!(found.as_array().map(Vec::len), Some(1));
    let by_order = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/notifications/?sales_order_id={so}"),
        None,
    )
    .await;
    assert_eq!(by_order.as_array().map(Vec::len), Some(1));

    // A reply: the thread's subject and order carried over, the thread read, no mail (none
    // configured here).
    let reply = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/notifications/{thread}/reply"),
        Some(json!({"body": "Yes, galaxy black it is."})),
    )
    .await;
    assert_eq!(reply["thread_subject"], "Colour change?");
    assert_eq!(reply["sales_order_id"], so);
    assert_eq!(reply["sender_type"], "admin");
    assert_eq!(reply["emailed_to"], Value::Null);
    let badge = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/notifications/unread-count",
        None,
    )
    .await;
    assert_eq!(badge["unread_count"], 0);
    let messages = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/notifications/{thread}"),
        None,
    )
    .await;
    let bodies: Vec<&str> = messages
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|m| m["body"].as_str())
        .collect();
    assert_eq!(
        bodies,
        [
            "Could the vase be in galaxy black instead?",
            "Yes, galaxy black it is."
        ]
    );

    // The customer answers (recorded by an operator, by phone); read by thread, then by message.
    let op = operator(&app, &t).await;
    let again = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/notifications/{thread}/reply"),
        Some(json!({"body": "Thanks!", "sender_type": "customer", "source": "phone"})),
    )
    .await;
    assert_eq!(again["read_at"], Value::Null);
    let marked = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/notifications/{thread}/read"),
        None,
    )
    .await;
    assert_eq!(marked, json!({"marked_read": 1}));
    let marked = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/notifications/{thread}/read"),
        None,
    )
    .await;
    assert_eq!(
        marked,
        json!({"marked_read": 0}),
        "marking again changes nothing"
    );
    let id = again["id"].as_i64().expect("id");
    let one = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/notifications/{id}/mark-read"),
        None,
    )
    .await;
    assert!(one["read_at"].is_string());

    // The order's history names each message.
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{so}/events"),
        None,
    )
    .await;
    let titles: Vec<String> = events["items"]
        .as_array()
        .or_else(|| events.as_array())
        .expect("events")
        .iter()
        .filter(|e| e["event_type"] == "message")
        .filter_map(|e| e["title"].as_str().map(str::to_string))
        .collect();
    assert_eq!(titles.len(), 3, "{events}");
    assert!(titles.contains(&"Message from customer: Colour change?".to_string()));
    assert!(titles.contains(&"Message to customer: Colour change?".to_string()));
}

#[tokio::test]
async fn refused_messages_say_why_and_leave_the_table_as_it_was() {
    let app = app().await;
    let t = admin(&app).await;
    let so = order(&app, &t, "r@shop.test").await;
    let first = start(
        &app,
        &t,
        json!({"sales_order_id": so, "subject": "Hi", "body": "Hello"}),
    )
    .await;
    let thread = thread_of(&first);
    let before = table_json(&app, "order_messages").await;
    let missing = "00000000-0000-4000-8000-000000000000";
    for (method, path, body, status, message) in [
        (
            Method::POST,
            "/api/v1/notifications".to_string(),
            json!({"subject": "x", "body": "   "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "String should have at least 1 character",
        ),
        (
            Method::POST,
            "/api/v1/notifications".to_string(),
            json!({"subject": "", "body": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "String should have at least 1 character",
        ),
        (
            Method::POST,
            "/api/v1/notifications".to_string(),
            json!({"subject": "x", "body": "y".repeat(5001)}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "String should have at most 5000 characters",
        ),
        (
            Method::POST,
            "/api/v1/notifications".to_string(),
            json!({"subject": "x", "body": "y", "sender_type": "system"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Only Strata writes system messages",
        ),
        (
            Method::POST,
            "/api/v1/notifications".to_string(),
            json!({"subject": "x", "body": "y", "sales_order_id": 999_999}),
            StatusCode::NOT_FOUND,
            "not found",
        ),
        (
            Method::POST,
            format!("/api/v1/notifications/{missing}/reply"),
            json!({"body": "y"}),
            StatusCode::NOT_FOUND,
            "Thread not found",
        ),
        (
            Method::POST,
            "/api/v1/notifications/not-a-uuid/reply".to_string(),
            json!({"body": "y"}),
            StatusCode::NOT_FOUND,
            "Thread not found",
        ),
        (
            Method::POST,
            format!("/api/v1/notifications/{thread}/reply"),
            json!({"body": ""}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "String should have at least 1 character",
        ),
        (
            Method::POST,
            format!("/api/v1/notifications/{thread}/reply"),
            json!({"body": "a\u{0}b"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "NUL",
        ),
        (
            Method::GET,
            format!("/api/v1/notifications/{missing}"),
            Value::Null,
            StatusCode::NOT_FOUND,
            "Thread not found",
        ),
        (
            Method::POST,
            format!("/api/v1/notifications/{missing}/read"),
            Value::Null,
            StatusCode::NOT_FOUND,
            "Thread not found",
        ),
        (
            Method::POST,
            "/api/v1/notifications/999999/mark-read".to_string(),
            Value::Null,
            StatusCode::NOT_FOUND,
            "Notification not found",
        ),
    ] {
        let body = (!body.is_null()).then_some(body);
        let (got, answer) = refused(&app, &t, method.clone(), &path, body).await;
        assert_eq!(got, status, "{method} {path}: {answer}");
        assert!(
            answer
                .to_string()
                .to_lowercase()
                .contains(&message.to_lowercase()),
            "{method} {path}: {answer} should say {message}"
        );
        assert_eq!(
            table_json(&app, "order_messages").await,
            before,
            "{method} {path}"
        );
    }
    // Someone else's order is not an operator's to write on (notes need the same access).
    let op = operator(&app, &t).await;
    let (status, _) = refused(
        &app,
        &op,
        Method::POST,
        "/api/v1/notifications",
        Some(json!({"sales_order_id": so, "subject": "x", "body": "y"})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(table_json(&app, "order_messages").await, before);
    // Signed out: 401.
    let (status, _) = refused(&app, "", Method::GET, "/api/v1/notifications/", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_teams_messages_are_e_mailed_to_the_orders_customer_once_per_idempotency_key() {
    let smtp = SmtpServer::start().await;
    let mut vars = smtp.vars();
    vars.push(("AUTH_MODE".into(), "header".into()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn_with(&vars).await;
    let t = admin(&app).await;
    let so = order(&app, &t, "mail@shop.test").await;
    let first = start(
        &app,
        &t,
        json!({"sales_order_id": so, "subject": "Your vase", "body": "It prints tonight."}),
    )
    .await;
    assert_eq!(first["emailed_to"], "mail@shop.test");
    // Not e-mailed when asked not to, nor the customer's own message.
    let quiet = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/notifications/{}/reply", thread_of(&first)),
        Some(json!({"body": "Internal: nozzle swapped.", "email_customer": false})),
    )
    .await;
    assert_eq!(quiet["emailed_to"], Value::Null);
    // The same reply sent twice with one Idempotency-Key is written (and e-mailed) once.
    let path = format!("/api/v1/notifications/{}/reply", thread_of(&first));
    for _ in 0..2 {
        let res = app
            .request(
                axum::http::Request::builder()
                    .method(Method::POST)
                    .uri(&path)
                    .header("authorization", format!("Bearer {t}"))
                    .header("content-type", "application/json")
                    .header("idempotency-key", "reply-once")
                    .body(axum::body::Body::from(
                        json!({"body": "Shipped today."}).to_string(),
                    ))
                    .expect("request"),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    }
    let thread = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/notifications/{}", thread_of(&first)),
        None,
    )
    .await;
    assert_eq!(thread.as_array().map(Vec::len), Some(3), "{thread}");

    let _worker = strata::application::app::start_jobs(
        &app.state,
        strata::platform::jobs::WorkerOptions {
            poll_interval: Duration::from_millis(50),
            ..strata::platform::jobs::WorkerOptions::default()
        },
    );
    let mails = smtp.wait_for_within(2, Duration::from_secs(20)).await;
    assert_eq!(mails.len(), 2);
    assert!(mails.iter().all(|m| m.to == vec!["mail@shop.test"]));
    assert!(mails.iter().any(|m| m.data.contains("It prints tonight.")));
    assert!(mails.iter().any(|m| m.data.contains("Shipped today.")));
    assert!(mails.iter().all(|m| !m.data.contains("nozzle")));
}
