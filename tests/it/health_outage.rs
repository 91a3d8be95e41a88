//! `/health` while the database goes away and comes back, in one server process.
//!
//! The app reaches PostgreSQL through a TCP relay in this test. Cutting the relay is the
//! database going away for the app (its pooled connections die, new ones are refused), and
//! "hang" mode is a database that accepts connections but never answers.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use crate::common::{TestApp, TestDatabase};
use axum::http::StatusCode;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

const UP: u8 = 0;
const REFUSE: u8 = 1;
const HANG: u8 = 2;

struct Relay {
    addr: SocketAddr,
    mode: Arc<AtomicU8>,
    cut: watch::Sender<u64>,
}

impl Relay {
    async fn start(target: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind relay");
        let addr = listener.local_addr().expect("addr");
        let mode = Arc::new(AtomicU8::new(UP));
        let (cut, _) = watch::channel(0u64);
        let (mode2, cut2) = (mode.clone(), cut.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    break;
                };
                match mode2.load(Ordering::SeqCst) {
                    REFUSE => drop(client),
                    HANG => {
                        tokio::spawn(async move {
                            tokio::time::sleep(Duration::from_secs(60)).await;
                            drop(client);
                        });
                    }
                    _ => {
                        let mut cut_rx = cut2.subscribe();
                        tokio::spawn(async move {
                            let Ok(mut server) = TcpStream::connect(target).await else {
                                return;
                            };
                            tokio::select! {
                                _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                                _ = cut_rx.changed() => {}
                            }
                        });
                    }
                }
            }
        });
        Relay { addr, mode, cut }
    }

    fn set(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
        if mode != UP {
            self.cut.send_modify(|n| *n += 1);
        }
    }
}

async fn app_behind_relay() -> (TestApp, Relay, TestDatabase) {
    let db = TestDatabase::migrated().await;
    let url = url::Url::parse(&db.url).expect("url");
    let target: SocketAddr = format!(
        "{}:{}",
        url.host_str().expect("host"),
        url.port().unwrap_or(5432)
    )
    .parse()
    .expect("target");
    let relay = Relay::start(target).await;
    let mut relayed = url.clone();
    relayed.set_port(Some(relay.addr.port())).expect("port");
    let app = TestApp::spawn_with(&[("DATABASE_URL", relayed.as_str())]).await;
    (app, relay, db)
}

async fn health_status(app: &TestApp) -> (StatusCode, serde_json::Value, Duration) {
    let started = Instant::now();
    let res = app.get("/health").await;
    (res.status, res.json(), started.elapsed())
}

#[tokio::test]
async fn health_goes_503_quickly_and_recovers_without_restart() {
    let (app, relay, _db) = app_behind_relay().await;
    let (status, _, _) = health_status(&app).await;
    assert_eq!(status, StatusCode::OK);
    // The original's `/api/v1/system/health`: public, always 200, the database's state inside.
    let res = app.get("/api/v1/system/health").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(body["status"], "healthy");
    assert_eq!(body["database_connected"], true);
    assert_eq!(body["services"]["database"], "connected");
    assert_eq!(body["error"], serde_json::Value::Null);
    assert_eq!(body["version"], strata::VERSION);

    relay.set(REFUSE);
    let (status, body, took) = health_status(&app).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["status"], "unhealthy");
    assert_eq!(body["checks"]["database"], "failed");
    assert_eq!(body["version"], strata::VERSION);
    assert!(took < Duration::from_secs(3), "answered in {took:?}");
    let res = app.get("/api/v1/system/health").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["database_connected"], false);
    assert_eq!(body["services"]["database"], "disconnected");
    assert!(body["error"].is_string(), "{body}");

    relay.set(UP);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, body, _) = health_status(&app).await;
        if status == StatusCode::OK {
            assert_eq!(body["checks"]["database"], "ok");
            break;
        }
        assert!(Instant::now() < deadline, "health did not recover");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_database_that_never_answers_does_not_hang_health() {
    let (app, relay, _db) = app_behind_relay().await;
    relay.set(HANG);
    let (status, body, took) = health_status(&app).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["checks"]["database"], "failed");
    assert!(took < Duration::from_secs(3), "answered in {took:?}");
    relay.set(UP);
}
