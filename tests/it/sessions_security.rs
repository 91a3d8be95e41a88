//! Sessions and passwords hardening (issue 11): the sign-in throttle counts before it
//! verifies and never locks the owner out, argon2 work is capped (503 + Retry-After past
//! the cap), a refresh race inside the grace window keeps the session, logout ends the
//! session for both tokens, and cookie-authenticated unsafe requests need an allowed origin.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::{TestApp, TestResponse};

const ADMIN_EMAIL: &str = "ada@example.com";
const ADMIN_PASSWORD: &str = "Admin-pass1!";
const SPA_ORIGIN: &str = "http://localhost:5173";

/// Tests in this binary share the process-wide password gate; the one that fills it takes
/// this lock exclusively so no other test's hashing is refused meanwhile.
static PASSWORD_GATE: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

/// A request with headers, an optional JSON body and an optional client address.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
    ip: Option<&str>,
) -> TestResponse {
    let mut b = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let mut req = match body {
        Some(v) => b
            .header("content-type", "application/json")
            .body(Body::from(v.to_string())),
        None => b.body(Body::empty()),
    }
    .expect("request");
    if let Some(ip) = ip {
        let peer: SocketAddr = SocketAddr::new(ip.parse().expect("ip"), 5000);
        req.extensions_mut().insert(ConnectInfo(peer));
    }
    app.request(req).await
}

async fn login(app: &TestApp, email: &str, password: &str, ip: &str) -> TestResponse {
    send(
        app,
        Method::POST,
        "/api/v1/auth/login",
        &[],
        Some(&json!({"username": email, "password": password})),
        Some(ip),
    )
    .await
}

async fn refresh(app: &TestApp, token: &str) -> TestResponse {
    send(
        app,
        Method::POST,
        "/api/v1/auth/refresh",
        &[],
        Some(&json!({"refresh_token": token})),
        None,
    )
    .await
}

async fn me(app: &TestApp, access: &str) -> StatusCode {
    send(
        app,
        Method::GET,
        "/api/v1/auth/me",
        &[("authorization", &format!("Bearer {access}"))],
        None,
        None,
    )
    .await
    .status
}

/// A header-mode app with its first admin; returns the app.
async fn header_app_with_admin() -> TestApp {
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header")]).await;
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    app
}

/// Access and refresh token of a fresh header-mode login.
async fn tokens(app: &TestApp) -> (String, String) {
    let res = login(app, ADMIN_EMAIL, ADMIN_PASSWORD, "192.0.2.10").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    (
        body["access_token"].as_str().expect("access").to_string(),
        body["refresh_token"].as_str().expect("refresh").to_string(),
    )
}

async fn sql_count(app: &TestApp, sql: &str) -> i64 {
    app.scalar(sql).await
}

async fn sql_exec(app: &TestApp, sql: &str) {
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client.batch_execute(sql).await.expect(sql);
}

/// The `name=value` pairs of every Set-Cookie header, joined for a Cookie header.
fn cookie_jar(res: &TestResponse) -> String {
    res.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|c| c.split(';').next())
        .collect::<Vec<_>>()
        .join("; ")
}

// ------------------------------------------------------------------- sign-in throttle

#[tokio::test]
async fn twenty_parallel_wrong_passwords_reach_verification_at_most_five_times() {
    let _shared = PASSWORD_GATE.read().await;
    let app = header_app_with_admin().await;
    let attempts = (0..20).map(|_| login(&app, ADMIN_EMAIL, "Wrong-pass1!", "198.51.100.7"));
    let answers = futures_util::future::join_all(attempts).await;
    let refused = answers
        .iter()
        .filter(|r| r.status == StatusCode::UNAUTHORIZED)
        .count();
    let throttled: Vec<&TestResponse> = answers
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!(refused, 5, "the (account, address) quota, no more");
    assert_eq!(throttled.len(), 15);
    assert!(throttled.iter().all(|r| r.header("retry-after").is_some()));
    assert_eq!(
        sql_count(
            &app,
            "SELECT count(*) FROM security_audit_log WHERE event_type = 'login_failed'"
        )
        .await,
        5,
        "only five attempts reached the password check"
    );
}

#[tokio::test]
async fn the_owner_signs_in_from_another_address_while_an_attacker_is_throttled() {
    let _shared = PASSWORD_GATE.read().await;
    let app = header_app_with_admin().await;
    for _ in 0..5 {
        let res = login(&app, ADMIN_EMAIL, "Wrong-pass1!", "198.51.100.7").await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    }
    let res = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "198.51.100.7").await;
    assert_eq!(
        res.status,
        StatusCode::TOO_MANY_REQUESTS,
        "the attacker's address waits"
    );

    let owner = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "203.0.113.5").await;
    assert_eq!(owner.status, StatusCode::OK, "{}", owner.text());

    // IPv6 is counted by /64: another address of the attacker's network is throttled too,
    // another network is not.
    for _ in 0..5 {
        login(&app, ADMIN_EMAIL, "Wrong-pass1!", "2001:db8:1:2::1").await;
    }
    let same_net = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "2001:db8:1:2::ffff").await;
    assert_eq!(same_net.status, StatusCode::TOO_MANY_REQUESTS);
    let other_net = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "2001:db8:1:3::1").await;
    assert_eq!(other_net.status, StatusCode::OK, "{}", other_net.text());
}

// ------------------------------------------------------------------ argon2 capacity

#[tokio::test]
async fn password_work_over_capacity_answers_503_with_retry_after() {
    let _exclusive = PASSWORD_GATE.write().await;
    let app = header_app_with_admin().await;
    let gate = strata::platform::auth::password::gate();
    let slots = strata::platform::auth::password::gate_slots() as u32;
    let held = gate.occupy_all(slots).await.expect("every slot");
    let res = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "192.0.2.20").await;
    drop(held);
    assert_eq!(
        res.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        res.text()
    );
    assert_eq!(res.header("retry-after"), Some("1"));
    assert!(
        res.json()["detail"]
            .as_str()
            .is_some_and(|d| d.contains("busy"))
    );
    let res = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "192.0.2.20").await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "served again once a slot is free"
    );
}

// ------------------------------------------------------------------ refresh rotation

#[tokio::test]
async fn two_simultaneous_refreshes_with_one_token_keep_the_session() {
    let _shared = PASSWORD_GATE.read().await;
    let app = header_app_with_admin().await;
    let (_, token) = tokens(&app).await;
    let live = "SELECT count(*) FROM refresh_tokens WHERE NOT revoked";
    let live_before = sql_count(&app, live).await;
    let (a, b) = tokio::join!(refresh(&app, &token), refresh(&app, &token));
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(b.status, StatusCode::OK, "{}", b.text());
    let (a, b) = (a.json(), b.json());
    assert_eq!(
        a["refresh_token"], b["refresh_token"],
        "both callers get the one successor"
    );
    for access in [&a["access_token"], &b["access_token"]] {
        assert_eq!(
            me(&app, access.as_str().expect("access")).await,
            StatusCode::OK
        );
    }
    let next = refresh(&app, a["refresh_token"].as_str().expect("successor")).await;
    assert_eq!(
        next.status,
        StatusCode::OK,
        "the family lives on: {}",
        next.text()
    );
    assert_eq!(
        sql_count(
            &app,
            "SELECT count(*) FROM security_audit_log WHERE event_type = 'refresh_token_reuse'"
        )
        .await,
        0
    );
    assert_eq!(
        sql_count(&app, live).await,
        live_before,
        "one live token per session: the race forked nothing"
    );
}

#[tokio::test]
async fn reuse_after_the_grace_window_still_revokes_the_family() {
    let _shared = PASSWORD_GATE.read().await;
    let app = header_app_with_admin().await;
    let (_, token) = tokens(&app).await;
    let rotated = refresh(&app, &token).await;
    assert_eq!(rotated.status, StatusCode::OK);
    let body = rotated.json();
    let successor = body["refresh_token"].as_str().expect("successor");
    let access = body["access_token"].as_str().expect("access");
    // The window passes (the rotation is moved back in time).
    sql_exec(
        &app,
        "UPDATE refresh_tokens SET revoked_at = revoked_at - interval '1 minute' WHERE replaced_by_id IS NOT NULL",
    )
    .await;
    assert_eq!(refresh(&app, &token).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refresh(&app, successor).await.status,
        StatusCode::UNAUTHORIZED,
        "the whole family is revoked"
    );
    assert_eq!(
        me(&app, access).await,
        StatusCode::UNAUTHORIZED,
        "and with it the session's access tokens"
    );
    assert_eq!(
        sql_count(
            &app,
            "SELECT count(*) FROM security_audit_log WHERE event_type = 'refresh_token_reuse'"
        )
        .await,
        1
    );
}

// ------------------------------------------------------------------------- logout

#[tokio::test]
async fn bearer_only_logout_ends_the_access_and_the_refresh_token() {
    let _shared = PASSWORD_GATE.read().await;
    let app = header_app_with_admin().await;
    let (access, refresh_token) = tokens(&app).await;
    let (other_access, _) = tokens(&app).await;
    assert_eq!(me(&app, &access).await, StatusCode::OK);
    let out = send(
        &app,
        Method::POST,
        "/api/v1/auth/logout",
        &[("authorization", &format!("Bearer {access}"))],
        Some(&json!({})),
        None,
    )
    .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.text());
    assert_eq!(me(&app, &access).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refresh(&app, &refresh_token).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        me(&app, &other_access).await,
        StatusCode::OK,
        "another session of the same user is untouched"
    );
    assert_eq!(
        sql_count(
            &app,
            "SELECT count(*) FROM security_audit_log WHERE event_type = 'logout'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn refresh_token_logout_ends_the_sessions_access_tokens() {
    let _shared = PASSWORD_GATE.read().await;
    let app = header_app_with_admin().await;
    let (access, refresh_token) = tokens(&app).await;
    let out = send(
        &app,
        Method::POST,
        "/api/v1/auth/logout",
        &[],
        Some(&json!({"refresh_token": refresh_token})),
        None,
    )
    .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.text());
    assert_eq!(me(&app, &access).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refresh(&app, &refresh_token).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn cookie_logout_ends_the_session_and_the_old_access_cookie_is_refused() {
    let _shared = PASSWORD_GATE.read().await;
    let app = TestApp::spawn().await;
    app.send_json(
        Method::POST,
        "/api/v1/setup/initial-admin",
        &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada"}),
    )
    .await;
    let res = login(&app, ADMIN_EMAIL, ADMIN_PASSWORD, "192.0.2.10").await;
    assert_eq!(res.status, StatusCode::OK);
    let jar = cookie_jar(&res);
    let out = send(
        &app,
        Method::POST,
        "/api/v1/auth/logout",
        &[("cookie", &jar), ("origin", SPA_ORIGIN)],
        None,
        None,
    )
    .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.text());
    let after = send(
        &app,
        Method::GET,
        "/api/v1/auth/me",
        &[("cookie", &jar)],
        None,
        None,
    )
    .await;
    assert_eq!(after.status, StatusCode::UNAUTHORIZED, "{}", after.text());
    let again = send(
        &app,
        Method::POST,
        "/api/v1/auth/refresh",
        &[("cookie", &jar), ("origin", SPA_ORIGIN)],
        None,
        None,
    )
    .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
}

// --------------------------------------------------------------------------- CSRF

#[tokio::test]
async fn cookie_authenticated_unsafe_requests_need_an_allowed_origin() {
    let _shared = PASSWORD_GATE.read().await;
    let app = TestApp::spawn().await; // cookie mode
    let setup = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "full_name": "Ada"}),
        )
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text());
    let jar = cookie_jar(&setup);
    let bearer = setup.json()["setup_token"]
        .as_str()
        .expect("setup token")
        .to_string();
    let query = json!({"query": "mutation { logout { message } }"});
    let before = sql_count(
        &app,
        "SELECT count(*) FROM refresh_tokens WHERE NOT revoked",
    )
    .await;

    // A foreign page posting with the user's cookies: 403 before anything runs.
    for (path, body) in [("/graphql", Some(&query)), ("/api/v1/auth/logout", None)] {
        let forged = send(
            &app,
            Method::POST,
            path,
            &[("cookie", &jar), ("origin", "https://evil.example")],
            body,
            None,
        )
        .await;
        assert_eq!(
            forged.status,
            StatusCode::FORBIDDEN,
            "{path}: {}",
            forged.text()
        );
        assert!(
            forged.json()["detail"]
                .as_str()
                .is_some_and(|d| d.contains("origin"))
        );
    }
    // A form post with no Origin at all (a browser always sends one): refused too.
    let form = send(
        &app,
        Method::POST,
        "/api/v1/auth/logout",
        &[
            ("cookie", &jar),
            ("content-type", "application/x-www-form-urlencoded"),
        ],
        None,
        None,
    )
    .await;
    assert_eq!(form.status, StatusCode::FORBIDDEN);
    assert_eq!(
        sql_count(
            &app,
            "SELECT count(*) FROM refresh_tokens WHERE NOT revoked"
        )
        .await,
        before,
        "nothing changed"
    );

    // Same origin (allowed origin, Sec-Fetch-Site, the request's own host) passes.
    let me_query = json!({"query": "query { me { email } }"});
    for headers in [
        vec![("cookie", jar.as_str()), ("origin", SPA_ORIGIN)],
        vec![("cookie", jar.as_str()), ("sec-fetch-site", "same-origin")],
        vec![
            ("cookie", jar.as_str()),
            ("origin", "http://strata.internal:8000"),
            ("host", "strata.internal:8000"),
        ],
    ] {
        let ok = send(
            &app,
            Method::POST,
            "/graphql",
            &headers,
            Some(&me_query),
            None,
        )
        .await;
        assert_eq!(ok.status, StatusCode::OK, "{headers:?}: {}", ok.text());
        assert_eq!(ok.json()["data"]["me"]["email"], ADMIN_EMAIL, "{headers:?}");
    }
    // A bearer request is not cookie-authenticated: a foreign Origin is CORS's business.
    let auth = format!("Bearer {bearer}");
    let ok = send(
        &app,
        Method::POST,
        "/graphql",
        &[("authorization", &auth), ("origin", "https://evil.example")],
        Some(&me_query),
        None,
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());
    assert_eq!(ok.json()["data"]["me"]["email"], ADMIN_EMAIL);
    // Reads are not guarded.
    let read = send(
        &app,
        Method::GET,
        "/api/v1/auth/me",
        &[("cookie", &jar), ("origin", "https://evil.example")],
        None,
        None,
    )
    .await;
    assert_eq!(read.status, StatusCode::OK);
}
