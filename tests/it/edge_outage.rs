//! Writes while the database crashes and comes back: every answer is 2xx or 503, and no
//! acknowledged write is lost.
//!
//! The app reaches PostgreSQL through a TCP relay in this test. Cutting the relay is the
//! database going away for the app (its pooled connections die, new ones are refused), and
//! "hang" mode is a database that accepts connections but never answers.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use crate::common::api::{admin, call};
use crate::common::{TestApp, TestDatabase};
use axum::http::{Method, StatusCode};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

const UP: u8 = 0;
const REFUSE: u8 = 1;

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

#[tokio::test]
async fn a_crash_restart_under_concurrent_writes_loses_no_acknowledged_write() {
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
    let app = Arc::new(
        TestApp::spawn_with(&[("AUTH_MODE", "header"), ("DATABASE_URL", relayed.as_str())]).await,
    );
    let token = admin(&app).await;

    let writers: Vec<_> = (0..4)
        .map(|w| {
            let (app, token) = (app.clone(), token.clone());
            tokio::spawn(async move {
                let mut acknowledged = Vec::new();
                let mut unavailable = 0;
                for i in 0..40 {
                    let sku = format!("W{w}-{i:03}");
                    let body = json!({"sku": sku, "name": "Write", "item_type": "component"});
                    let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
                    match res.status {
                        s if s.is_success() => acknowledged.push(sku),
                        StatusCode::SERVICE_UNAVAILABLE => {
                            assert!(res.header("retry-after").is_some(), "{}", res.text());
                            unavailable += 1;
                        }
                        other => panic!("{sku}: unexpected {other}: {}", res.text()),
                    }
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                (acknowledged, unavailable)
            })
        })
        .collect();

    // The crash: every connection is reset and new ones are refused, then it is back.
    tokio::time::sleep(Duration::from_millis(300)).await;
    relay.set(REFUSE);
    tokio::time::sleep(Duration::from_millis(800)).await;
    relay.set(UP);

    let mut acknowledged = Vec::new();
    let mut unavailable = 0;
    for writer in writers {
        let (acked, refused) = writer.await.expect("writer");
        acknowledged.extend(acked);
        unavailable += refused;
    }
    assert!(!acknowledged.is_empty());
    assert!(unavailable > 0, "the outage was not observed");

    let (client, conn) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    let stored: Vec<String> = client
        .query("SELECT sku FROM items", &[])
        .await
        .expect("items")
        .iter()
        .map(|r| r.get(0))
        .collect();
    for sku in &acknowledged {
        assert!(stored.contains(sku), "acknowledged {sku} was lost");
    }
    // After the restart writes succeed again.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"sku": "AFTER", "name": "After", "item_type": "component"})),
        &token,
    )
    .await;
    assert!(res.status.is_success(), "{}", res.text());
}
