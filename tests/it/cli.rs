//! The `strata` binary: migrations in a row, refusing to serve with pending migrations, and
//! refusing bad production configuration with a message that names the variable.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{TEST_SECRET_KEY, TestDatabase};

fn strata(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_strata"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("LOG_FORMAT", "text")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run strata")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test]
async fn migrate_revert_migrate_succeed_in_a_row() {
    let db = TestDatabase::empty().await;
    let env = [("DATABASE_URL", db.url.as_str())];

    let out = strata(&["migrate"], &env);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("applied"));

    let out = strata(&["migrate", "status"], &env);
    assert!(out.status.success());
    assert!(!text(&out).contains("[pending]"), "{}", text(&out));

    let out = strata(&["migrate", "revert"], &env);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("reverted"));

    let out = strata(&["migrate", "status"], &env);
    assert!(text(&out).contains("[pending]"), "{}", text(&out));

    let out = strata(&["migrate"], &env);
    assert!(out.status.success(), "{}", text(&out));
    let out = strata(&["migrate"], &env);
    assert!(text(&out).contains("database is up to date"));
}

#[tokio::test]
async fn serve_refuses_to_start_with_pending_migrations() {
    let db = TestDatabase::empty().await;
    let out = strata(
        &["serve", "--port", "0"],
        &[("DATABASE_URL", db.url.as_str())],
    );
    assert!(!out.status.success());
    let t = text(&out);
    assert!(t.contains("pending migration"), "{t}");
    assert!(t.contains("strata migrate"), "says how to apply them: {t}");
}

#[tokio::test]
async fn mark_applied_fixes_relation_already_exists() {
    let db = TestDatabase::migrated().await;
    // The schema exists but the tracker lost its rows (a restored dump without them, say).
    let env = [("DATABASE_URL", db.url.as_str())];
    crate::common::admin_sql("SELECT 1").await;
    {
        use diesel_async::RunQueryDsl;
        let mut conn = db.connect().await;
        diesel::sql_query("DELETE FROM __diesel_schema_migrations")
            .execute(&mut conn)
            .await
            .expect("clear tracker");
    }
    let out = strata(&["migrate"], &env);
    assert!(
        !out.status.success(),
        "migrating onto an existing schema fails"
    );
    assert!(text(&out).contains("already exists"), "{}", text(&out));

    let out = strata(&["migrate", "mark-applied"], &env);
    assert!(out.status.success(), "{}", text(&out));
    let out = strata(&["migrate"], &env);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("database is up to date"));
}

#[test]
fn production_refuses_a_malformed_secret_key_naming_it() {
    let out = strata(
        &["serve"],
        &[
            ("ENVIRONMENT", "production"),
            ("SECRET_KEY", "too-short"),
            ("DB_PASSWORD", "A-Strong-Pass-91"),
            ("ALLOWED_ORIGINS", "https://erp.example.com"),
        ],
    );
    assert!(!out.status.success());
    let t = text(&out);
    assert!(t.contains("SECRET_KEY"), "{t}");
    assert!(t.contains("64 hexadecimal"), "{t}");
    assert!(
        !t.contains("DB_PASSWORD:"),
        "only the wrong variable is named: {t}"
    );
}

#[test]
fn production_refuses_weak_database_passwords_and_wildcard_origins() {
    let out = strata(
        &["serve"],
        &[
            ("ENVIRONMENT", "production"),
            ("SECRET_KEY", TEST_SECRET_KEY),
            ("DB_PASSWORD", "postgres"),
            ("ALLOWED_ORIGINS", "*"),
        ],
    );
    assert!(!out.status.success());
    let t = text(&out);
    assert!(
        t.contains("DB_PASSWORD") && t.contains("ALLOWED_ORIGINS"),
        "{t}"
    );
}

#[test]
fn bad_log_level_is_a_clear_error_not_a_panic() {
    let out = strata(&["config"], &[("LOG_LEVEL", "chatty")]);
    assert_eq!(out.status.code(), Some(2));
    let t = text(&out);
    assert!(
        t.contains("LOG_LEVEL") && t.contains("DEBUG, INFO, WARNING, ERROR"),
        "{t}"
    );
    assert!(!t.contains("panicked"));
}

#[test]
fn config_prints_the_effective_configuration_without_secrets() {
    let out = strata(
        &["config"],
        &[
            (
                "DATABASE_URL",
                "postgres://app:hunter2@db:5432/erp?pool_size=4",
            ),
            ("SECRET_KEY", TEST_SECRET_KEY),
            ("SMTP_PASSWORD", "mail-secret"),
        ],
    );
    assert!(out.status.success());
    let t = text(&out);
    assert!(
        t.contains("DATABASE_URL=postgres://app:***@db:5432/erp"),
        "{t}"
    );
    assert!(t.contains("DB_POOL_SIZE=4"));
    for secret in ["hunter2", TEST_SECRET_KEY, "mail-secret"] {
        assert!(!t.contains(secret), "{secret} leaked");
    }
}

#[test]
fn schema_command_prints_the_committed_sdl() {
    let out = strata(&["schema"], &[]);
    assert!(out.status.success());
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema.graphql"))
        .expect("schema.graphql");
    assert_eq!(String::from_utf8_lossy(&out.stdout), committed);
}

#[tokio::test]
async fn serve_answers_health_and_stops_gracefully_on_sigterm() {
    let db = TestDatabase::migrated().await;
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_strata"))
        .args(["serve", "--host", "127.0.0.1", "--port", &port.to_string()])
        .env("DATABASE_URL", &db.url)
        .env("SECRET_KEY", TEST_SECRET_KEY)
        .env("LOG_FORMAT", "json")
        .env("SPA_DIR", "/nonexistent")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn strata serve");

    let url = format!("http://127.0.0.1:{port}/health");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let out = strata(&["healthcheck", "--url", &url], &[]);
        if out.status.success() {
            break;
        }
        assert!(Instant::now() < deadline, "server did not come up");
        std::thread::sleep(Duration::from_millis(200));
    }

    // SIGTERM: the server finishes and exits 0.
    let pid = child.id().to_string();
    let kill = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(kill.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "server did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "clean exit on SIGTERM");
    let out = child.wait_with_output().expect("output");
    let logs = String::from_utf8_lossy(&out.stdout);
    assert!(logs.contains("shutdown requested"), "{logs}");

    let out = strata(&["healthcheck", "--url", &url], &[]);
    assert!(
        !out.status.success(),
        "healthcheck fails when nothing listens"
    );
}
