//! The job queue over the key-value store (`KVSTORE_URL`; `jobs::kv`), against a real
//! `redis-server`: mail goes out through it, PostgreSQL keeps the record, a dead worker's job
//! comes back when its heartbeat stops, and neither a store that loses its lists nor one that
//! is down for a while loses a job.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode};
use serde_json::json;

use crate::common::TestApp;
use crate::common::redis::RedisServer;
use crate::common::smtp::{Behaviour, SmtpServer};
use strata::platform::jobs::{WorkerHandle, WorkerOptions, kv};

const ADMIN_EMAIL: &str = "ada@example.com";
const APPROVER: &str = "approver@example.com";

async fn kv_app(smtp: &SmtpServer, store: &RedisServer) -> TestApp {
    let mut vars = smtp.vars();
    vars.push(("AUTH_MODE".into(), "header".into()));
    vars.push(("KVSTORE_URL".into(), store.url()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn_with(&vars).await;
    crate::common::api::admin(&app).await;
    app
}

fn fast() -> WorkerOptions {
    WorkerOptions {
        poll_interval: Duration::from_millis(50),
        retry_base: Duration::from_millis(200),
        ..WorkerOptions::default()
    }
}

fn worker(app: &TestApp, options: WorkerOptions) -> WorkerHandle {
    strata::application::app::start_jobs(&app.state, options)
}

/// A password reset for the admin: it queues the approval mail.
async fn request_reset(app: &TestApp) {
    let mut req = Request::builder()
        .method(Method::POST)
        .uri("/api/v1/auth/password-reset/request")
        .header("content-type", "application/json")
        .body(Body::from(json!({ "email": ADMIN_EMAIL }).to_string()))
        .expect("request");
    let peer: SocketAddr = ([10, 0, 0, 1], 40000).into();
    req.extensions_mut().insert(ConnectInfo(peer));
    let res = app.request(req).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    app.scalar(sql).await
}

/// Waits until `sql` counts `n` (within 15 s).
async fn until(app: &TestApp, sql: &str, n: i64) {
    for _ in 0..300 {
        if count(app, sql).await == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{sql} never counted {n}");
}

async fn list_len(store: &RedisServer, key: &str) -> i64 {
    let mut conn = store.connect().await;
    redis::cmd("LLEN")
        .arg(key)
        .query_async(&mut conn)
        .await
        .expect("LLEN")
}

#[tokio::test]
async fn mail_goes_out_through_the_store_and_postgres_keeps_the_record() {
    let smtp = SmtpServer::start().await;
    let store = RedisServer::start().await;
    let app = kv_app(&smtp, &store).await;
    let _worker = worker(&app, fast());
    request_reset(&app).await;

    // Generous: on a loaded machine the reap, the claim and the slow send take a while.
    let mails = smtp.wait_for_within(1, Duration::from_secs(30)).await;
    assert_eq!(mails[0].to, vec![APPROVER]);
    until(&app, "SELECT count(*) FROM jobs", 0).await;
    assert_eq!(list_len(&store, kv::READY).await, 0);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(smtp.mails().len(), 1, "sent once");
}

#[tokio::test]
async fn a_refused_send_is_retried_through_the_store() {
    let smtp = SmtpServer::start_with(Behaviour {
        refuse_first: 2,
        ..Behaviour::default()
    })
    .await;
    let store = RedisServer::start().await;
    let app = kv_app(&smtp, &store).await;
    let _worker = worker(&app, fast());
    request_reset(&app).await;

    // Generous: on a loaded machine the reap, the claim and the slow send take a while.
    let mails = smtp.wait_for_within(1, Duration::from_secs(30)).await;
    assert_eq!(mails[0].to, vec![APPROVER]);
    until(&app, "SELECT count(*) FROM jobs", 0).await;
}

#[tokio::test]
async fn a_dead_workers_job_comes_back_when_its_heartbeat_stops() {
    // The first worker is killed while the SMTP server keeps it waiting; its lease in
    // PostgreSQL is long (60 s), so only the stopped heartbeat can bring the job back soon.
    let smtp = SmtpServer::start_with(Behaviour {
        delay: Duration::from_millis(1500),
        ..Behaviour::default()
    })
    .await;
    let store = RedisServer::start().await;
    let app = kv_app(&smtp, &store).await;
    let slow = WorkerOptions {
        lease: Duration::from_secs(60),
        ..fast()
    };
    let first = worker(&app, slow);
    request_reset(&app).await;
    until(
        &app,
        "SELECT count(*) FROM jobs WHERE kind = 'send_mail' AND locked_until > now()",
        1,
    )
    .await;
    drop(first);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    assert!(smtp.mails().is_empty(), "the killed worker sent nothing");

    let _second = worker(&app, slow);
    // Generous: on a loaded machine the reap, the claim and the slow send take a while.
    let mails = smtp.wait_for_within(1, Duration::from_secs(30)).await;
    assert_eq!(mails[0].to, vec![APPROVER]);
    until(&app, "SELECT count(*) FROM jobs", 0).await;
}

#[tokio::test]
async fn a_store_that_loses_its_lists_loses_no_job() {
    let smtp = SmtpServer::start().await;
    let mut store = RedisServer::start().await;
    let app = kv_app(&smtp, &store).await;
    request_reset(&app).await;
    // Handed over to the store by a relay, then the store restarts empty before any worker
    // took it.
    let lease = Duration::from_secs(1);
    let mut conn = store.connect().await;
    let handed = kv::relay(&app.state.pool, &mut conn, lease)
        .await
        .expect("relay");
    assert_eq!(handed, 1, "the reset request's job was handed over");
    assert_eq!(list_len(&store, kv::READY).await, 1);
    assert_eq!(
        kv::relay(&app.state.pool, &mut conn, lease)
            .await
            .expect("relay"),
        0,
        "handed over once until its lease has passed"
    );
    store.restart().await;
    assert_eq!(list_len(&store, kv::READY).await, 0, "the lists are gone");

    let _worker = worker(&app, WorkerOptions { lease, ..fast() });
    // Generous: on a loaded machine the reap, the claim and the slow send take a while.
    let mails = smtp.wait_for_within(1, Duration::from_secs(30)).await;
    assert_eq!(mails[0].to, vec![APPROVER]);
    until(&app, "SELECT count(*) FROM jobs", 0).await;
}

#[tokio::test]
async fn a_store_that_is_down_for_a_while_delays_mail_but_loses_none() {
    let smtp = SmtpServer::start().await;
    let mut store = RedisServer::start().await;
    let app = kv_app(&smtp, &store).await;
    store.stop();
    let _worker = worker(&app, fast());
    request_reset(&app).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(smtp.mails().is_empty(), "nothing can be delivered yet");
    assert!(count(&app, "SELECT count(*) FROM jobs").await >= 1);

    store.restart().await;
    let mails = smtp.wait_for_within(1, Duration::from_secs(20)).await;
    assert_eq!(mails[0].to, vec![APPROVER]);
    until(&app, "SELECT count(*) FROM jobs", 0).await;
}

#[tokio::test]
async fn a_key_value_store_url_that_is_not_one_is_a_configuration_error() {
    let problems = strata::platform::config::Config::from_vars([
        ("DATABASE_URL", "postgres://u:p@localhost/strata"),
        ("KVSTORE_URL", "http://kv:6379"),
    ])
    .expect_err("refused");
    assert!(
        problems.0.iter().any(|p| p.variable == "KVSTORE_URL"),
        "{problems}"
    );
}
