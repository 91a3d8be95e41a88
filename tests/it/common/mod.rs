//! The integration-test harness: the app in-process against a database of its own.
//!
//! A template database is migrated once per migration set (its name carries a digest of the
//! migrations, and an advisory lock makes concurrent test binaries agree), then each test
//! clones it with `CREATE DATABASE ... TEMPLATE`, which takes milliseconds. The test's
//! database is dropped when its [`TestApp`] goes away.
//!
//! `TEST_DATABASE_URL` names the cluster (any database in it; `scripts/test` sets it).

#![allow(dead_code)]

pub mod api;
pub mod books;
pub mod redis;
pub mod smtp;

use std::net::SocketAddr;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use strata::application::app::{AppState, router};
use strata::platform::config::Config;

/// A 64-hex-character key for tests.
pub const TEST_SECRET_KEY: &str =
    "5f2b9c1e7a3d4f6081b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718";

static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// The cluster URL with its database replaced by `db`.
pub fn database_url(db: &str) -> String {
    let base = std::env::var("TEST_DATABASE_URL").unwrap_or_else(|_| {
        panic!("TEST_DATABASE_URL is not set: run the tests with scripts/test (it starts a private PostgreSQL)")
    });
    let mut url = url::Url::parse(&base).expect("TEST_DATABASE_URL is a URL");
    url.set_path(db);
    if url.password().is_none() {
        // The private test cluster trusts loopback connections and ignores this password; it
        // is here so that production-mode configurations (which refuse an empty one) load.
        url.set_password(Some("Test-Only-Pw-7f3a"))
            .expect("password");
    }
    url.to_string()
}

/// Runs one SQL statement against the cluster's maintenance database.
pub async fn admin_sql(sql: &str) {
    let mut conn = AsyncPgConnection::establish(&database_url("postgres"))
        .await
        .expect("connect to the test cluster");
    diesel::sql_query(sql)
        .execute(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

async fn template() -> String {
    TEMPLATE
        .get_or_init(|| async {
            let name = format!(
                "strata_tpl_{}",
                strata::platform::db::migrations::fingerprint()
            );
            let mut conn = AsyncPgConnection::establish(&database_url("postgres"))
                .await
                .expect("connect to the test cluster");
            diesel::sql_query("SELECT pg_advisory_lock(727272)")
                .execute(&mut conn)
                .await
                .expect("advisory lock");
            #[derive(diesel::QueryableByName)]
            struct Exists {
                #[diesel(sql_type = diesel::sql_types::Bool)]
                exists: bool,
            }
            let exists: Exists = diesel::sql_query(
                "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS exists",
            )
            .bind::<diesel::sql_types::Text, _>(&name)
            .get_result(&mut conn)
            .await
            .expect("look up the template");
            if !exists.exists {
                // Build under a temporary name and publish by renaming, so a crash halfway
                // never leaves a half-migrated template behind.
                let building = format!("{name}_building");
                diesel::sql_query(format!("DROP DATABASE IF EXISTS \"{building}\""))
                    .execute(&mut conn)
                    .await
                    .expect("drop stale template");
                diesel::sql_query(format!("CREATE DATABASE \"{building}\""))
                    .execute(&mut conn)
                    .await
                    .expect("create template");
                strata::platform::db::migrations::run_pending(&database_url(&building))
                    .await
                    .expect("migrate the template");
                diesel::sql_query(format!(
                    "ALTER DATABASE \"{building}\" RENAME TO \"{name}\""
                ))
                .execute(&mut conn)
                .await
                .expect("publish template");
            }
            diesel::sql_query("SELECT pg_advisory_unlock(727272)")
                .execute(&mut conn)
                .await
                .expect("advisory unlock");
            name
        })
        .await
        .clone()
}

/// A fresh, fully migrated database; dropped when the guard is dropped.
pub struct TestDatabase {
    /// The database's name.
    pub name: String,
    /// Its connection URL.
    pub url: String,
}

impl TestDatabase {
    /// Clones the migrated template.
    pub async fn migrated() -> TestDatabase {
        let template = template().await;
        let name = format!("strata_test_{}", uuid::Uuid::new_v4().simple());
        admin_sql(&format!(
            "CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""
        ))
        .await;
        TestDatabase {
            url: database_url(&name),
            name,
        }
    }

    /// An empty database with no migrations applied.
    pub async fn empty() -> TestDatabase {
        let name = format!("strata_test_{}", uuid::Uuid::new_v4().simple());
        admin_sql(&format!("CREATE DATABASE \"{name}\"")).await;
        TestDatabase {
            url: database_url(&name),
            name,
        }
    }

    /// A direct connection for assertions on the data.
    pub async fn connect(&self) -> AsyncPgConnection {
        AsyncPgConnection::establish(&self.url)
            .await
            .expect("connect to the test database")
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let sql = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        // Drop runs outside any async context we can rely on: use a short-lived runtime on
        // its own thread and wait for it, so the database is gone before the test ends.
        let _ = std::thread::spawn(move || {
            if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                rt.block_on(async {
                    if let Ok(mut conn) =
                        AsyncPgConnection::establish(&database_url("postgres")).await
                    {
                        let _ = diesel::sql_query(sql).execute(&mut conn).await;
                    }
                });
            }
        })
        .join();
    }
}

/// The base configuration of a test app: development, quiet, a fixed key.
pub fn test_vars(database_url: &str) -> Vec<(String, String)> {
    vec![
        (
            "DATABASE_URL".into(),
            format!("{database_url}?pool_size=2&max_overflow=3"),
        ),
        ("SECRET_KEY".into(), TEST_SECRET_KEY.into()),
        (
            "ALLOWED_ORIGINS".into(),
            "http://localhost:5173,https://erp.example.com".into(),
        ),
        ("SPA_DIR".into(), "/nonexistent-spa-dir".into()),
        ("LOG_LEVEL".into(), "WARNING".into()),
    ]
}

/// The app, in-process, on its own database.
pub struct TestApp {
    /// The state the router was built with.
    pub state: AppState,
    /// The router; requests go through every middleware layer.
    pub router: Router,
    /// The database; dropped with the app.
    pub db: TestDatabase,
    /// The socket address requests appear to come from.
    pub peer: SocketAddr,
}

impl TestApp {
    /// An app on a fresh migrated database with the default test configuration.
    pub async fn spawn() -> TestApp {
        Self::spawn_with(&[]).await
    }

    /// Like [`TestApp::spawn`], with extra or overriding environment variables.
    pub async fn spawn_with(extra: &[(&str, &str)]) -> TestApp {
        Self::spawn_on(extra, None).await
    }

    /// Like [`TestApp::spawn_with`], with a pool that counts every SQL statement into the
    /// returned counter (how tests prove a read has no N+1).
    ///
    /// The answer cache is off unless `extra` sets `RESPONSE_CACHE_MB`: a count measures what
    /// an operation costs, and a repeated read answered from the cache (when nothing committed
    /// in between) would measure the cache instead.
    pub async fn spawn_counting(
        extra: &[(&str, &str)],
    ) -> (TestApp, std::sync::Arc<std::sync::atomic::AtomicU64>) {
        let counter = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut vars = vec![("RESPONSE_CACHE_MB", "0")];
        vars.extend_from_slice(extra);
        (Self::spawn_on(&vars, Some(counter.clone())).await, counter)
    }

    async fn spawn_on(
        extra: &[(&str, &str)],
        counter: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    ) -> TestApp {
        let db = TestDatabase::migrated().await;
        let mut vars = test_vars(&db.url);
        for (k, v) in extra {
            vars.retain(|(name, _)| name != k);
            vars.push((k.to_string(), v.to_string()));
        }
        let config = Config::from_vars(vars).expect("test configuration is valid");
        let pool = match counter {
            Some(counter) => strata::platform::db::build_pool_counting(&config.database, counter),
            None => strata::platform::db::build_pool(&config.database),
        }
        .expect("pool");
        let state = AppState::new(config, pool);
        TestApp {
            router: router(state.clone()).expect("the route table is valid"),
            state,
            db,
            peer: "127.0.0.1:40000".parse().expect("socket address"),
        }
    }

    /// The first column of the one row `sql` answers, as a number (`SELECT count(*) ...`),
    /// read on a connection of its own.
    pub async fn scalar(&self, sql: &str) -> i64 {
        let (client, conn) = tokio_postgres::connect(&self.db.url, tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client
            .query_one(sql, &[])
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .get::<_, i64>(0)
    }

    /// Sends a request through the full middleware stack.
    pub async fn request(&self, mut req: Request<Body>) -> TestResponse {
        if req.extensions().get::<ConnectInfo<SocketAddr>>().is_none() {
            req.extensions_mut().insert(ConnectInfo(self.peer));
        }
        let response = self
            .router
            .clone()
            .oneshot(req)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("read body")
            .to_bytes()
            .to_vec();
        TestResponse {
            status,
            headers,
            body,
        }
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> TestResponse {
        self.request(
            Request::builder()
                .uri(path)
                .body(Body::empty())
                .expect("request"),
        )
        .await
    }

    /// A request with a JSON body.
    pub async fn send_json(&self, method: Method, path: &str, body: &Value) -> TestResponse {
        let body = body.to_string();
        self.request(
            Request::builder()
                .method(method)
                .uri(path)
                .header("content-type", "application/json")
                .header("content-length", body.len())
                .body(Body::from(body))
                .expect("request"),
        )
        .await
    }

    /// Runs a GraphQL operation through `POST /graphql` and returns the whole response body.
    pub async fn graphql(&self, query: &str, variables: Value) -> Value {
        let res = self
            .send_json(
                Method::POST,
                "/graphql",
                &serde_json::json!({ "query": query, "variables": variables }),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "graphql transport status");
        res.json()
    }
}

/// A buffered response.
pub struct TestResponse {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl TestResponse {
    /// The body as JSON (panics with the text when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("body is not JSON: {}", String::from_utf8_lossy(&self.body)))
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// One header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// Every declared REST route of the service, in registry order.
pub fn routes() -> Vec<strata::platform::rest::Route> {
    strata::application::areas::routes()
        .into_iter()
        .map(|r| r.route)
        .collect()
}
