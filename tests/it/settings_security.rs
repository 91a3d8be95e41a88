//! The typed settings (`/system/settings`, `/system/settings/{key}`), the AI provider
//! connection test (`POST /settings/ai/test`, against a real in-process HTTP server) and the
//! security remediation guidance (`/security/remediate/*`): admins only, secrets masked,
//! nothing changed on the host, every call in the security audit log.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::common::TestApp;
use crate::common::api::{admin, call, operator};

async fn audit_events(app: &TestApp, t: &str, event_type: &str) -> Vec<Value> {
    let res = call(
        app,
        Method::GET,
        &format!("/api/v1/security/audit-log/?event_type={event_type}"),
        None,
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    res.json()["items"].as_array().expect("items").clone()
}

#[tokio::test]
async fn system_settings_are_typed_masked_validated_and_audited() {
    let app = TestApp::spawn_with(&[
        ("AUTH_MODE", "header"),
        ("SMTP_USER", "mailer"),
        ("SMTP_PASSWORD", "smtp-secret-value"),
        ("ANTHROPIC_API_KEY", "sk-ant-secret-value"),
    ])
    .await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    // Admins only.
    for (method, path) in [
        (Method::GET, "/api/v1/system/settings"),
        (Method::GET, "/api/v1/system/settings/company_name"),
        (Method::PUT, "/api/v1/system/settings/company_name"),
    ] {
        let body = (method == Method::PUT).then(|| json!({"value": "X"}));
        let res = call(&app, method.clone(), path, body, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}: {}", res.text());
    }
    assert_eq!(
        app.get("/api/v1/system/settings").await.status,
        StatusCode::UNAUTHORIZED
    );

    // The list: every key once, secrets never in clear.
    let res = call(&app, Method::GET, "/api/v1/system/settings", None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let text = res.text();
    assert!(!text.contains("smtp-secret-value"), "{text}");
    assert!(!text.contains("sk-ant-secret-value"), "{text}");
    let list = res.json();
    let items = list.as_array().expect("array");
    let by_key = |k: &str| {
        items
            .iter()
            .find(|s| s["key"] == json!(k))
            .unwrap_or_else(|| panic!("{k} missing"))
            .clone()
    };
    let company_name = by_key("company_name");
    let keys: Vec<&str> = company_name
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "key",
            "section",
            "type",
            "value",
            "is_set",
            "masked",
            "read_only",
            "source",
            "env_var",
            "nullable",
            "options",
            "description"
        ]
    );
    let password = by_key("smtp_password");
    assert_eq!(password["value"], json!("********"));
    assert_eq!(password["masked"], json!(true));
    assert_eq!(password["is_set"], json!(true));
    assert_eq!(password["read_only"], json!(true));
    assert_eq!(password["env_var"], json!("SMTP_PASSWORD"));
    assert_eq!(by_key("ai_api_key")["value"], json!("********"));
    assert_eq!(by_key("secret_key")["value"], json!("********"));
    assert_eq!(by_key("smtp_user")["value"], json!("mailer"));
    assert_eq!(by_key("timezone")["value"], json!("UTC"));
    assert_eq!(by_key("timezone")["source"], json!("database"));
    assert_eq!(
        by_key("ai_provider")["options"],
        json!(["anthropic", "ollama"])
    );
    assert_eq!(by_key("company_address_line1")["type"], json!("text"));

    let res = call(
        &app,
        Method::GET,
        "/api/v1/system/settings?section=mail",
        None,
        &t,
    )
    .await;
    assert!(
        res.json()
            .as_array()
            .expect("array")
            .iter()
            .all(|s| s["section"] == json!("mail"))
    );

    // One key; an unknown one is a 404 that names the known keys.
    let res = call(
        &app,
        Method::GET,
        "/api/v1/system/settings/tax_rate_percent",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["value"], json!(0.0));
    for method in [Method::GET, Method::PUT] {
        let body = (method == Method::PUT).then(|| json!({"value": 1}));
        let res = call(
            &app,
            method,
            "/api/v1/system/settings/no_such_key",
            body,
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
        let detail = res.json()["detail"].as_str().expect("detail").to_owned();
        assert!(detail.contains("Unknown setting 'no_such_key'"), "{detail}");
        assert!(detail.contains("company_name"), "{detail}");
    }

    // Changes: typed, through the section's rules, audited like the section's own update.
    let company_before = crate::common::api::table_json(&app, "company_settings").await;
    for (key, value, expected) in [
        ("tax_enabled", json!("yes"), "valid boolean"),
        ("business_hours_start", json!(30), "between 0 and 23"),
        ("tax_rate_percent", json!("lots"), "decimal"),
        ("timezone", json!("Mars/Olympus"), "Unknown time zone"),
        ("timezone", json!(""), "at least 1 character"),
        ("timezone", Value::Null, "Field required"),
        ("company_email", json!("not-an-email"), ""),
    ] {
        let res = call(
            &app,
            Method::PUT,
            &format!("/api/v1/system/settings/{key}"),
            Some(json!({ "value": value })),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{key}: {}",
            res.text()
        );
        let errors = &res.json()["details"]["errors"];
        assert_eq!(errors[0]["field"], json!("value"), "{key}: {errors}");
        assert!(
            errors[0]["message"]
                .as_str()
                .expect("message")
                .contains(expected),
            "{key}: {errors}"
        );
    }
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/system/settings/company_name",
        Some(json!({})),
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
        crate::common::api::table_json(&app, "company_settings").await,
        company_before,
        "refused changes leave the row as it was"
    );

    let res = call(
        &app,
        Method::PUT,
        "/api/v1/system/settings/tax_rate_percent",
        Some(json!({"value": "8.25"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["value"], json!(8.25));
    assert_eq!(res.json()["key"], json!("tax_rate_percent"));
    let res = call(&app, Method::GET, "/api/v1/settings/company", None, &t).await;
    assert_eq!(res.json()["tax_rate"], json!("0.0825"));

    for (value, expected) in [(json!(" Acme "), json!("Acme")), (json!(""), Value::Null)] {
        let res = call(
            &app,
            Method::PUT,
            "/api/v1/system/settings/company_name",
            Some(json!({ "value": value })),
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text());
        assert_eq!(res.json()["value"], expected);
        assert_eq!(res.json()["is_set"], json!(expected != Value::Null));
    }
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/system/settings/ai_provider",
        Some(json!({"value": "ollama"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["value"], json!("ollama"));
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/system/settings/ai_ollama_url",
        Some(json!({"value": "http://169.254.169.254/latest"})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("metadata"), "{}", res.text());

    // Settings from the environment are read-only.
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/system/settings/smtp_password",
        Some(json!({"value": "new"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.json()["detail"]
            .as_str()
            .expect("detail")
            .contains("SMTP_PASSWORD"),
        "{}",
        res.text()
    );

    let events = audit_events(&app, &t, "settings_changed").await;
    let details: Vec<&Value> = events.iter().map(|e| &e["details"]).collect();
    assert!(
        details.contains(&&json!({"section": "company", "fields": ["tax_rate_percent"]})),
        "{details:?}"
    );
    assert!(
        details.contains(&&json!({"section": "ai", "fields": ["provider"]})),
        "{details:?}"
    );
    assert_eq!(
        events.len(),
        4,
        "refused changes are not recorded as changes"
    );
}

/// A one-request-at-a-time HTTP server that answers every request with `status` and
/// reports the request lines it saw.
async fn http_server(
    status: &'static str,
) -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = vec![0u8; 4096];
            let n = socket.read(&mut buf).await.unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]).into_owned();
            let _ = tx.send(request.lines().next().unwrap_or_default().to_owned());
            let body = r#"{"models":[]}"#;
            let answer = format!(
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        }
    });
    (format!("http://{addr}"), rx)
}

async fn set_ai(app: &TestApp, t: &str, body: Value) {
    let res = call(app, Method::PATCH, "/api/v1/settings/ai", Some(body), t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
}

async fn ai_test(app: &TestApp, t: &str) -> crate::common::TestResponse {
    call(app, Method::POST, "/api/v1/settings/ai/test", None, t).await
}

#[tokio::test]
async fn the_ai_connection_test_reaches_a_local_ollama_and_reports_failures() {
    let app = crate::common::api::app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    assert_eq!(ai_test(&app, &op).await.status, StatusCode::FORBIDDEN);

    // Nothing configured: 400.
    let res = ai_test(&app, &t).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.json()["detail"]
            .as_str()
            .expect("detail")
            .contains("provider")
    );
    set_ai(&app, &t, json!({"provider": "ollama"})).await;
    let res = ai_test(&app, &t).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.json()["detail"]
            .as_str()
            .expect("detail")
            .contains("ollama_url")
    );
    // Anthropic without ANTHROPIC_API_KEY in the environment: 400.
    set_ai(&app, &t, json!({"provider": "anthropic"})).await;
    let res = ai_test(&app, &t).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.json()["detail"]
            .as_str()
            .expect("detail")
            .contains("ANTHROPIC_API_KEY")
    );

    // A metadata address is refused when it is saved.
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/ai",
        Some(json!({"provider": "ollama", "ollama_url": "http://169.254.169.254"})),
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
        json!("ollama_url")
    );

    // A real local server that answers: success, with the latency.
    let (base, mut seen) = http_server("200 OK").await;
    set_ai(&app, &t, json!({"provider": "ollama", "ollama_url": base})).await;
    let res = ai_test(&app, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let r = res.json();
    let keys: Vec<&str> = r
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["success", "message", "provider", "latency_ms"]);
    assert_eq!(r["success"], json!(true), "{r}");
    assert_eq!(r["provider"], json!("ollama"));
    assert!(r["latency_ms"].as_i64().expect("latency") >= 0);
    assert_eq!(
        seen.recv().await.expect("request"),
        "GET /api/tags HTTP/1.1"
    );

    // A server that is not Ollama: a failed test is still a 200.
    let (base, _seen) = http_server("404 Not Found").await;
    set_ai(&app, &t, json!({"ollama_url": format!("{base}/")})).await;
    let res = ai_test(&app, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["success"], json!(false));
    assert!(
        res.json()["message"]
            .as_str()
            .expect("message")
            .contains("404")
    );

    // Nothing listening: a failed test with no latency.
    let closed = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = closed.local_addr().expect("addr");
    drop(closed);
    set_ai(&app, &t, json!({"ollama_url": format!("http://{addr}")})).await;
    let res = ai_test(&app, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["success"], json!(false));
    assert_eq!(res.json()["latency_ms"], Value::Null);
    assert!(
        res.json()["message"]
            .as_str()
            .expect("message")
            .contains("Could not reach Ollama")
    );

    let events = audit_events(&app, &t, "ai_connection_test").await;
    let outcomes: Vec<&Value> = events.iter().map(|e| &e["outcome"]).collect();
    assert_eq!(
        outcomes,
        [&json!("failure"), &json!("failure"), &json!("success")]
    );
    assert_eq!(events[2]["details"]["provider"], json!("ollama"));
    assert_eq!(events[2]["details"]["host"], json!("127.0.0.1"));
}

#[tokio::test]
async fn remediation_guidance_changes_nothing_and_is_audited() {
    let app = crate::common::api::app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    let posts = [
        "fix-dependencies",
        "fix-dotfile-blocking",
        "fix-rate-limiting",
        "generate-secret-key",
        "open-env-file",
        "open-restart-terminal",
        "setup-https",
        "update-secret-key",
    ];
    for p in posts {
        let res = call(
            &app,
            Method::POST,
            &format!("/api/v1/security/remediate/{p}"),
            None,
            &op,
        )
        .await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{p}");
    }
    for p in ["check-caddy", "secret_key"] {
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/security/remediate/{p}"),
            None,
            &op,
        )
        .await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{p}");
    }

    // Guidance for every check of the scan, with its status now.
    let scan = call(&app, Method::GET, "/api/v1/security/audit", None, &t)
        .await
        .json();
    for check in scan["checks"].as_array().expect("checks") {
        let id = check["id"].as_str().expect("id");
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/security/remediate/{id}"),
            None,
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{id}: {}", res.text());
        let g = res.json();
        let keys: Vec<&str> = g
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "check_id",
                "title",
                "severity",
                "status",
                "steps",
                "commands",
                "docs",
                "automated"
            ]
        );
        assert_eq!(g["check_id"], json!(id));
        assert_eq!(g["status"], check["status"], "{id}");
        assert_eq!(g["severity"], check["category"], "{id}");
        assert_eq!(g["title"], check["name"], "{id}");
        assert_eq!(g["automated"], json!(false));
        assert!(!g["steps"].as_array().expect("steps").is_empty(), "{id}");
    }
    let res = call(
        &app,
        Method::GET,
        "/api/v1/security/remediate/no_such_check",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
    assert!(res.text().contains("secret_key"), "{}", res.text());

    // The action routes: guidance, nothing applied.
    for p in [
        "fix-dependencies",
        "fix-dotfile-blocking",
        "fix-rate-limiting",
        "open-env-file",
        "open-restart-terminal",
        "setup-https",
    ] {
        let res = call(
            &app,
            Method::POST,
            &format!("/api/v1/security/remediate/{p}"),
            None,
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{p}: {}", res.text());
        let g = res.json();
        assert_eq!(g["applied"], json!(false), "{p}");
        assert_eq!(g["automated"], json!(false), "{p}");
        assert!(
            g["message"]
                .as_str()
                .expect("message")
                .contains("nothing was applied"),
            "{p}"
        );
        assert!(!g["steps"].as_array().expect("steps").is_empty(), "{p}");
    }
    let https = call(
        &app,
        Method::POST,
        "/api/v1/security/remediate/setup-https",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(https["check_id"], json!("https"));
    assert_eq!(https["status"], json!("warn"));

    // A generated key: 64 hex characters, fresh each time, not cached, not logged.
    let mut keys = Vec::new();
    for _ in 0..2 {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/security/remediate/generate-secret-key",
            None,
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text());
        assert_eq!(res.header("cache-control"), Some("no-store"));
        let g = res.json();
        let key = g["secret_key"].as_str().expect("key").to_owned();
        assert_eq!(key.len(), 64);
        assert!(key.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(g["env_var"], json!("SECRET_KEY"));
        assert_eq!(g["bits"], json!(256));
        assert_eq!(g["applied"], json!(false));
        keys.push(key);
    }
    assert_ne!(keys[0], keys[1]);

    let res = call(
        &app,
        Method::POST,
        "/api/v1/security/remediate/update-secret-key",
        Some(json!({"secret_key": "ab".repeat(32)})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(res.text().contains("SECRET_KEY"), "{}", res.text());

    // The proxy check reads X-Forwarded-Proto.
    let res = call(
        &app,
        Method::GET,
        "/api/v1/security/remediate/check-caddy",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json()["proxy_detected"], json!(false));
    assert_eq!(res.json()["status"], json!("warn"));
    let req = axum::http::Request::builder()
        .uri("/api/v1/security/remediate/check-caddy")
        .header("authorization", format!("Bearer {t}"))
        .header("x-forwarded-proto", "https")
        .body(axum::body::Body::empty())
        .expect("request");
    let res = app.request(req).await;
    let g = res.json();
    assert_eq!(g["proxy_detected"], json!(true), "{g}");
    assert_eq!(g["tls"], json!(true));
    assert_eq!(g["forwarded_proto"], json!("https"));
    assert_eq!(g["status"], json!("pass"));

    // Every call is in the audit log; the generated keys never are.
    let events = audit_events(&app, &t, "security_remediation").await;
    let text = serde_json::to_string(&events).expect("json");
    for key in &keys {
        assert!(!text.contains(key.as_str()));
    }
    let actions: Vec<&str> = events
        .iter()
        .map(|e| e["details"]["action"].as_str().expect("action"))
        .collect();
    for a in [
        "guidance",
        "fix_dependencies",
        "fix_dotfile_blocking",
        "fix_rate_limiting",
        "open_env_file",
        "open_restart_terminal",
        "setup_https",
        "generate_secret_key",
        "update_secret_key",
        "check_caddy",
    ] {
        assert!(actions.contains(&a), "{a} missing from {actions:?}");
    }
    let denied = events
        .iter()
        .find(|e| e["details"]["action"] == json!("update_secret_key"))
        .expect("update");
    assert_eq!(denied["outcome"], json!("denied"));
}
