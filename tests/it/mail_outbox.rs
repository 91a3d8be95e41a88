//! Mail goes through the durable job queue: reset requests take the same time whether the
//! account exists or not, queued mail survives a crash of the worker, refused sends are
//! retried, and a production server without mail says so on /health.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode};
use serde_json::json;

use crate::common::TestApp;
use crate::common::smtp::{Behaviour, SmtpServer};
use strata::platform::jobs::{WorkerHandle, WorkerOptions};

const ADMIN_EMAIL: &str = "ada@example.com";

async fn mail_app(smtp: &SmtpServer) -> TestApp {
    let mut vars = smtp.vars();
    vars.push(("AUTH_MODE".into(), "header".into()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn_with(&vars).await;
    crate::common::api::admin(&app).await;
    app
}

fn fast_options() -> WorkerOptions {
    WorkerOptions {
        poll_interval: Duration::from_millis(50),
        retry_base: Duration::from_millis(200),
        ..WorkerOptions::default()
    }
}

fn worker(app: &TestApp, options: WorkerOptions) -> WorkerHandle {
    strata::application::app::start_jobs(&app.state, options)
}

/// Asks for a reset from its own client address (the limit is per address) and returns
/// how long the answer took.
async fn timed_reset_request(app: &TestApp, email: &str, client: u8) -> Duration {
    let mut req = Request::builder()
        .method(Method::POST)
        .uri("/api/v1/auth/password-reset/request")
        .header("content-type", "application/json")
        .body(Body::from(json!({ "email": email }).to_string()))
        .expect("request");
    let peer: SocketAddr = ([10, 0, 0, client], 40000).into();
    req.extensions_mut().insert(ConnectInfo(peer));
    let started = Instant::now();
    let res = app.request(req).await;
    let took = started.elapsed();
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert!(
        res.json()["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("If an account exists")),
        "{}",
        res.text()
    );
    assert_eq!(res.json()["reset_token"], serde_json::Value::Null);
    took
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = app.db.connect().await;
    let row: Count = diesel_async::RunQueryDsl::get_result(diesel::sql_query(sql), &mut conn)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    row.n
}

#[tokio::test]
async fn a_known_address_answers_as_fast_as_an_unknown_one_and_the_mail_follows() {
    // A mail server that takes 2 s per session: sending inside the request would show.
    let smtp = SmtpServer::start_with(Behaviour {
        delay: Duration::from_secs(2),
        ..Behaviour::default()
    })
    .await;
    let app = mail_app(&smtp).await;
    let _worker = worker(&app, fast_options());

    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for round in 0..3u8 {
        unknown.push(timed_reset_request(&app, "nobody@example.com", 10 + round).await);
        known.push(timed_reset_request(&app, ADMIN_EMAIL, 20 + round).await);
    }
    known.sort();
    unknown.sort();
    let slowest_known = known[known.len() - 1];
    assert!(
        slowest_known < Duration::from_millis(1000),
        "a known address waited for the mail server: {known:?}"
    );
    let (median_known, median_unknown) = (known[1], unknown[1]);
    assert!(
        median_known <= median_unknown + Duration::from_millis(150),
        "known {known:?} vs unknown {unknown:?}"
    );

    // The approver's mail arrives afterwards (one: the later requests find it pending).
    let mails = smtp.wait_for_within(1, Duration::from_secs(15)).await;
    assert_eq!(mails[0].to, vec!["approver@example.com"]);
    assert!(
        mails[0]
            .text()
            .contains("asked to reset their Strata password")
    );
    assert_eq!(
        count(&app, "SELECT count(*) AS n FROM password_reset_requests").await,
        1
    );
}

#[tokio::test]
async fn queued_mail_survives_a_worker_that_dies_mid_send() {
    let smtp = SmtpServer::start_with(Behaviour {
        delay: Duration::from_millis(1500),
        ..Behaviour::default()
    })
    .await;
    let app = mail_app(&smtp).await;
    // The first worker holds a job for 3 s; it is killed while the SMTP server still keeps
    // it waiting.
    let first = worker(
        &app,
        WorkerOptions {
            lease: Duration::from_secs(3),
            ..fast_options()
        },
    );
    timed_reset_request(&app, ADMIN_EMAIL, 1).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        count(
            &app,
            "SELECT count(*) AS n FROM jobs WHERE kind = 'send_mail' AND locked_until > now()"
        )
        .await,
        1,
        "the first worker is sending"
    );
    drop(first);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(smtp.mails().is_empty(), "the killed worker sent nothing");

    // A new worker (a restarted server) takes the job up once the dead one's lease ends.
    let _second = worker(&app, fast_options());
    let mails = smtp.wait_for_within(1, Duration::from_secs(15)).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, vec!["approver@example.com"]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(count(&app, "SELECT count(*) AS n FROM jobs").await, 0);
}

#[tokio::test]
async fn a_request_made_while_no_worker_runs_is_sent_after_a_restart() {
    let smtp = SmtpServer::start().await;
    let app = mail_app(&smtp).await;
    timed_reset_request(&app, ADMIN_EMAIL, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(smtp.mails().is_empty());
    assert_eq!(count(&app, "SELECT count(*) AS n FROM jobs").await, 1);

    let _worker = worker(&app, fast_options());
    let mails = smtp.wait_for(1).await;
    assert_eq!(mails[0].to, vec!["approver@example.com"]);
}

#[tokio::test]
async fn a_refused_send_is_retried_with_backoff() {
    // The server refuses the first two messages with a temporary error.
    let smtp = SmtpServer::start_with(Behaviour {
        refuse_first: 2,
        ..Behaviour::default()
    })
    .await;
    let app = mail_app(&smtp).await;
    let _worker = worker(&app, fast_options());
    timed_reset_request(&app, ADMIN_EMAIL, 1).await;

    let mails = smtp.wait_for_within(1, Duration::from_secs(15)).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, vec!["approver@example.com"]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(count(&app, "SELECT count(*) AS n FROM jobs").await, 0);
}

#[tokio::test]
async fn a_send_that_never_succeeds_is_given_up_and_kept() {
    // Nothing listens on this port: every attempt fails.
    let dead_port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port().to_string()
    };
    let app = TestApp::spawn_with(&[
        ("AUTH_MODE", "header"),
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", &dead_port),
        ("SMTP_USER", "u@example.com"),
        ("SMTP_PASSWORD", "p"),
        ("ADMIN_APPROVAL_EMAIL", "approver@example.com"),
    ])
    .await;
    crate::common::api::admin(&app).await;
    let _worker = worker(
        &app,
        WorkerOptions {
            retry_base: Duration::from_millis(50),
            retry_cap: Duration::from_millis(100),
            ..fast_options()
        },
    );
    timed_reset_request(&app, ADMIN_EMAIL, 1).await;
    let failed = "SELECT count(*) AS n FROM jobs WHERE kind = 'send_mail' \
                  AND failed_at IS NOT NULL AND attempts = max_attempts AND last_error <> ''";
    for _ in 0..200 {
        if count(&app, failed).await == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the mail job was not given up after its attempts");
}

#[tokio::test]
async fn production_without_mail_warns_on_health_but_stays_healthy() {
    let app = TestApp::spawn_with(&[("ENVIRONMENT", "production")]).await;
    let res = app.get("/health").await;
    assert_eq!(res.status, StatusCode::OK);
    let body = res.json();
    assert_eq!(body["status"], "healthy");
    assert_eq!(body["checks"]["database"], "ok");
    assert!(body["version"].is_string());
    let mail = body["checks"]["mail"].as_str().expect("mail check");
    assert!(
        mail.starts_with("warning: mail is not configured"),
        "{mail}"
    );

    // Development (and production with mail) show no mail check at all.
    let dev = TestApp::spawn().await;
    let body = dev.get("/health").await.json();
    assert!(body["checks"].get("mail").is_none(), "{body}");
}

#[tokio::test]
async fn required_starttls_sends_nothing_to_a_server_without_it() {
    // The test server offers no STARTTLS. With `starttls` required (the default for any
    // host but loopback) the mailer must not fall back to plain text: nothing is accepted
    // and the job keeps the reason for the next attempt.
    let smtp = SmtpServer::start().await;
    let mut vars = smtp.vars();
    vars.push(("AUTH_MODE".into(), "header".into()));
    vars.push(("SMTP_SECURITY".into(), "starttls".into()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn_with(&vars).await;
    crate::common::api::admin(&app).await;
    let _worker = worker(&app, fast_options());
    timed_reset_request(&app, ADMIN_EMAIL, 1).await;

    let refused = "SELECT count(*) AS n FROM jobs WHERE kind = 'send_mail' \
                   AND attempts >= 1 AND last_error ILIKE '%tls%'";
    for _ in 0..100 {
        if count(&app, refused).await == 1 {
            assert!(smtp.mails().is_empty(), "mail went out in the clear");
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the send was not refused for want of STARTTLS");
}
