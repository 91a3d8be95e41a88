//! Overload: beyond the in-flight and queue limits, database-bound routes answer 503 with
//! `Retry-After` at once, `/health` keeps answering, and the admitted requests finish.

use std::time::Duration;

use crate::common::TestApp;
use crate::common::api::{admin, call};
use axum::http::{Method, StatusCode};

#[tokio::test]
async fn a_full_queue_answers_503_with_retry_after_and_health_keeps_answering() {
    // One connection: 4 requests in flight and 8 queued at most.
    let db = crate::common::TestDatabase::migrated().await;
    let url = format!("{}?pool_size=1&max_overflow=0", db.url);
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header"), ("DATABASE_URL", &url)]).await;
    let token = admin(&app).await;

    // Make the item list slow: it waits on a lock we hold.
    let (client, conn) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .batch_execute("BEGIN; LOCK TABLE items IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("lock");

    let app = std::sync::Arc::new(app);
    let requests: Vec<_> = (0..40)
        .map(|_| {
            let app = app.clone();
            let token = token.clone();
            tokio::spawn(
                async move { call(&app, Method::GET, "/api/v1/items", None, &token).await },
            )
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let health = tokio::time::timeout(Duration::from_secs(5), app.get("/health"))
        .await
        .expect("/health answers while the API is saturated");
    // It is not shed: it answers its own report (the one connection is busy, so the database
    // check may fail, which is the truth).
    assert!(health.json()["status"].is_string(), "{}", health.text());
    tokio::time::sleep(Duration::from_millis(300)).await;
    client.batch_execute("ROLLBACK").await.expect("unlock");

    let mut ok = 0;
    let mut shed = 0;
    for request in requests {
        let res = request.await.expect("request task");
        match res.status {
            StatusCode::OK => ok += 1,
            StatusCode::SERVICE_UNAVAILABLE => {
                assert!(res.header("retry-after").is_some(), "{}", res.text());
                shed += 1;
            }
            other => panic!("unexpected {other}: {}", res.text()),
        }
    }
    assert!(shed >= 40 - 12, "{shed} shed, {ok} served");
    assert!(ok >= 1, "{shed} shed, {ok} served");
}
