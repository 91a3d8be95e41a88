//! The answer cache (`http::answer_cache`): a signed-in read of an unchanged database is
//! answered without running its operation (one statement: the viewer's, which also reads the
//! snapshot), and never once anything has committed since, whoever wrote it.
//!
//! Snapshots are cluster-wide, so a commit by any other test changes them too: the tests of
//! this file take turns, and a hit is looked for over a few tries (autovacuum may commit in
//! between), while staleness is looked for on every read.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::TestApp;
use crate::common::api::item;
use crate::common::api::{admin, call, operator};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

/// One test at a time: another test's commits would change this one's snapshots.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A REST read's status, body and the statements it cost.
async fn read(app: &TestApp, counter: &AtomicU64, token: &str, path: &str) -> (Value, u64) {
    let before = counter.load(Ordering::SeqCst);
    let res = call(app, Method::GET, path, None, token).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
    (res.json(), counter.load(Ordering::SeqCst) - before)
}

/// A `/graphql` query's body and the statements it cost.
async fn query(app: &TestApp, counter: &AtomicU64, token: &str, text: &str) -> (Value, u64) {
    let before = counter.load(Ordering::SeqCst);
    let res = call(
        app,
        Method::POST,
        "/graphql",
        Some(json!({ "query": text })),
        token,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    (res.json(), counter.load(Ordering::SeqCst) - before)
}

/// Reads `path` (or runs `graphql`) until a repeat costs only the viewer's statement, and
/// returns what the full run and the cached answer said.
async fn hit(
    app: &TestApp,
    counter: &AtomicU64,
    token: &str,
    path: Option<&str>,
    graphql: Option<&str>,
) -> (Value, Value) {
    for _ in 0..20 {
        let (full, _) = match (path, graphql) {
            (Some(p), _) => read(app, counter, token, p).await,
            (_, Some(q)) => query(app, counter, token, q).await,
            _ => unreachable!(),
        };
        let (again, statements) = match (path, graphql) {
            (Some(p), _) => read(app, counter, token, p).await,
            (_, Some(q)) => query(app, counter, token, q).await,
            _ => unreachable!(),
        };
        if statements == 1 {
            return (full, again);
        }
    }
    panic!("{path:?}{graphql:?}: twenty repeats of an unchanged read all ran the operation");
}

#[tokio::test]
async fn a_repeated_read_of_an_unchanged_database_costs_only_the_viewer() {
    let _turn = TURN.lock().await;
    let (app, counter) =
        TestApp::spawn_counting(&[("AUTH_MODE", "header"), ("RESPONSE_CACHE_MB", "64")]).await;
    let t = admin(&app).await;
    let id = item("CACHE-1")
        .with("name", json!("CACHE-1"))
        .create(&app, &t)
        .await;
    item("CACHE-2")
        .with("name", json!("CACHE-2"))
        .create(&app, &t)
        .await;

    let by_id = format!("/api/v1/items/{id}");
    for path in ["/api/v1/items?limit=50", by_id.as_str()] {
        let (full, cached) = hit(&app, &counter, &t, Some(path), None).await;
        assert_eq!(full, cached, "{path}: the cached answer is the answer");
    }
    let (full, cached) = hit(
        &app,
        &counter,
        &t,
        None,
        Some("{ items(first: 10) { totalCount nodes { id sku } } }"),
    )
    .await;
    assert_eq!(full, cached);
    assert_eq!(cached["data"]["items"]["totalCount"], 2, "{cached}");

    // With variables and a fragment, as report builders write them.
    let text = "query One($id: Int!) { item(id: $id) { ...Fields } } \
                fragment Fields on Item { id sku name }";
    let mut hit_with_variables = false;
    for _ in 0..20 {
        let body = json!({ "query": text, "variables": { "id": id } });
        call(&app, Method::POST, "/graphql", Some(body.clone()), &t).await;
        let before = counter.load(Ordering::SeqCst);
        let res = call(&app, Method::POST, "/graphql", Some(body), &t).await;
        assert_eq!(
            res.json()["data"]["item"]["sku"],
            "CACHE-1",
            "{}",
            res.text()
        );
        if counter.load(Ordering::SeqCst) - before == 1 {
            hit_with_variables = true;
            break;
        }
    }
    assert!(
        hit_with_variables,
        "a query with variables was never answered from the cache"
    );
}

#[tokio::test]
async fn a_commit_from_anywhere_is_seen_by_the_very_next_read() {
    let _turn = TURN.lock().await;
    let (app, counter) =
        TestApp::spawn_counting(&[("AUTH_MODE", "header"), ("RESPONSE_CACHE_MB", "64")]).await;
    let t = admin(&app).await;
    let id = item("FRESH-1")
        .with("name", json!("FRESH-1"))
        .create(&app, &t)
        .await;
    let path = format!("/api/v1/items/{id}");
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);

    for round in 0..10 {
        // Warm: the same read twice, so the entry is there to be (wrongly) served.
        read(&app, &counter, &t, &path).await;
        read(&app, &counter, &t, &path).await;
        // Changed behind the service's back: no invalidation, no notification.
        let name = format!("Renamed by psql {round}");
        client
            .execute("UPDATE items SET name = $1 WHERE id = $2", &[&name, &id])
            .await
            .expect("update");
        let (answer, _) = read(&app, &counter, &t, &path).await;
        assert_eq!(
            answer["name"],
            name.as_str(),
            "round {round}: a stale answer"
        );
        let (answer, _) = query(
            &app,
            &counter,
            &t,
            &format!("{{ item(id: {id}) {{ name }} }}"),
        )
        .await;
        assert_eq!(
            answer["data"]["item"]["name"],
            name.as_str(),
            "round {round}"
        );

        // And through the service itself.
        let name = format!("Renamed by PATCH {round}");
        let res = call(
            &app,
            Method::PATCH,
            &path,
            Some(json!({ "name": name })),
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text());
        let (answer, _) = read(&app, &counter, &t, &path).await;
        assert_eq!(
            answer["name"],
            name.as_str(),
            "round {round}: a stale answer"
        );
    }
}

#[tokio::test]
async fn answers_are_kept_per_credential() {
    let _turn = TURN.lock().await;
    let (app, counter) =
        TestApp::spawn_counting(&[("AUTH_MODE", "header"), ("RESPONSE_CACHE_MB", "64")]).await;
    let admin_token = admin(&app).await;
    let operator_token = operator(&app, &admin_token).await;

    let (mine, _) = hit(&app, &counter, &admin_token, Some("/api/v1/auth/me"), None).await;
    assert_eq!(mine["email"], "ada@example.com");
    let (theirs, _) = read(&app, &counter, &operator_token, "/api/v1/auth/me").await;
    assert_eq!(
        theirs["email"], "op@example.com",
        "another user's cached answer"
    );

    // A logged-out session's cached answer is not served either: the viewer is checked first.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/auth/logout",
        None,
        &admin_token,
    )
    .await;
    assert!(res.status.is_success(), "{}", res.text());
    let res = call(&app, Method::GET, "/api/v1/auth/me", None, &admin_token).await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{}", res.text());
}

#[tokio::test]
async fn without_memory_for_it_every_read_runs_its_operation() {
    let _turn = TURN.lock().await;
    let (app, counter) =
        TestApp::spawn_counting(&[("AUTH_MODE", "header"), ("RESPONSE_CACHE_MB", "0")]).await;
    let t = admin(&app).await;
    let id = item("OFF-1")
        .with("name", json!("OFF-1"))
        .create(&app, &t)
        .await;
    let path = format!("/api/v1/items/{id}");
    for _ in 0..5 {
        let (_, statements) = read(&app, &counter, &t, &path).await;
        assert_eq!(statements, 2, "the viewer and the row");
    }
}

#[tokio::test]
async fn overlapping_reads_share_one_snapshot_read_and_still_see_every_commit() {
    let _turn = TURN.lock().await;
    let (app, counter) =
        TestApp::spawn_counting(&[("AUTH_MODE", "header"), ("RESPONSE_CACHE_MB", "64")]).await;
    let t = admin(&app).await;
    let id = item("SHARED-1")
        .with("name", json!("SHARED-1"))
        .create(&app, &t)
        .await;
    let path = format!("/api/v1/items/{id}");
    read(&app, &counter, &t, &path).await;
    read(&app, &counter, &t, &path).await;

    // 24 reads at once (the test pool sheds past 40), each of which alone would cost at
    // least one statement.
    let mut shared = false;
    for _ in 0..10 {
        let before = counter.load(Ordering::SeqCst);
        let answers = futures_util::future::join_all(
            (0..24).map(|_| call(&app, Method::GET, &path, None, &t)),
        )
        .await;
        let statements = counter.load(Ordering::SeqCst) - before;
        for a in &answers {
            assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        }
        if statements <= 12 {
            shared = true;
            break;
        }
    }
    assert!(
        shared,
        "24 overlapping reads never shared their snapshot reads"
    );

    // Whatever is shared, a read that starts after a commit sees it.
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    for round in 0..10 {
        let name = format!("Shared round {round}");
        client
            .execute("UPDATE items SET name = $1 WHERE id = $2", &[&name, &id])
            .await
            .expect("update");
        let answers = futures_util::future::join_all(
            (0..16).map(|_| call(&app, Method::GET, &path, None, &t)),
        )
        .await;
        for answer in answers {
            assert_eq!(answer.json()["name"], name.as_str(), "round {round}: stale");
        }
    }
}
