//! The engine of GraphQL subscriptions: announcements made in the database reach the
//! subscribers of every Strata process.
//!
//! An area announces a change with `pg_notify('strata_live', <json with a "kind">)`, best
//! from a trigger (see the production area's `live.rs` and its migration): NOTIFY is
//! transactional, so a rolled-back change announces nothing and a committed one is announced
//! once, after its commit, to every process listening (a multi-instance deployment included).
//! A process listens on one dedicated connection, opened when its first subscriber arrives
//! and closed when the last one has gone, and fans each announcement out through a broadcast
//! channel ([`LiveHub`]). The area's subscription resolvers pick the kinds they serve
//! ([`LiveHub::stream`]).

use std::sync::{Arc, Weak};
use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use tokio::sync::{Mutex, broadcast};

use crate::platform::error::{AppError, AppResult};

/// The PostgreSQL channel announcements are made on.
pub const CHANNEL: &str = "strata_live";

/// Events a slow subscriber may fall behind by before it misses some (it then continues with
/// the newest: a live board needs the present, not a replay).
const BACKLOG: usize = 256;

/// How often the listener checks that it still has subscribers.
const IDLE_CHECK: Duration = Duration::from_secs(30);

/// One announcement's JSON, parsed once for all subscribers.
pub type Announcement = Arc<serde_json::Value>;

/// A process's fan-out of the announcements to its subscribers. Cheap to clone.
#[derive(Clone)]
pub struct LiveHub {
    inner: Arc<Hub>,
}

struct Hub {
    /// Where the listener connects (the application's database).
    url: String,
    /// Every subscriber holds a receiver.
    sender: broadcast::Sender<Announcement>,
    /// True while a listener task runs.
    listening: Mutex<bool>,
}

impl LiveHub {
    /// A hub for the database at `url`; nothing connects until the first subscriber.
    pub fn new(url: impl Into<String>) -> LiveHub {
        let (sender, _) = broadcast::channel(BACKLOG);
        LiveHub {
            inner: Arc::new(Hub {
                url: url.into(),
                sender,
                listening: Mutex::new(false),
            }),
        }
    }

    /// Every announcement from now on. Returns once the listener is listening, so a change
    /// committed after this returns is never missed; fails (503) when the database cannot be
    /// reached.
    pub async fn subscribe(&self) -> AppResult<broadcast::Receiver<Announcement>> {
        // Subscribed before the listener is checked: a listener that is just stopping for
        // want of subscribers sees this one (see `listen`).
        let receiver = self.inner.sender.subscribe();
        let mut listening = self.inner.listening.lock().await;
        if !*listening {
            let conn = connect(&self.inner.url).await.map_err(|e| {
                tracing::warn!(error = %e, "live updates: cannot listen");
                AppError::unavailable("Live updates are unavailable; try again shortly")
            })?;
            tokio::spawn(listen(Arc::downgrade(&self.inner), conn));
            *listening = true;
        }
        Ok(receiver)
    }

    /// A subscriber's stream of what `pick` makes of the announcements (`None`: not for this
    /// subscriber). A subscriber that fell behind skips what it missed and goes on.
    pub async fn stream<T: Send + 'static>(
        &self,
        pick: impl Fn(&serde_json::Value) -> Option<T> + Send + 'static,
    ) -> AppResult<BoxStream<'static, T>> {
        let receiver = self.subscribe().await?;
        Ok(
            futures_util::stream::unfold(receiver, |mut receiver| async move {
                loop {
                    match receiver.recv().await {
                        Ok(announcement) => return Some((announcement, receiver)),
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    }
                }
            })
            .filter_map(move |announcement| std::future::ready(pick(&announcement)))
            .boxed(),
        )
    }
}

async fn connect(url: &str) -> diesel::QueryResult<AsyncPgConnection> {
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .map_err(|e| diesel::result::Error::QueryBuilderError(Box::new(e)))?;
    diesel::sql_query(format!("LISTEN {CHANNEL}"))
        .execute(&mut conn)
        .await?;
    Ok(conn)
}

/// Reads announcements until the hub is gone or has had no subscriber for a while; a lost
/// connection is reopened with a growing pause (subscribers keep their streams meanwhile).
async fn listen(hub: Weak<Hub>, mut conn: AsyncPgConnection) {
    let mut pause = Duration::from_millis(250);
    loop {
        let next = {
            let notifications = conn.notifications_stream();
            let mut notifications = std::pin::pin!(notifications);
            tokio::time::timeout(IDLE_CHECK, notifications.next()).await
        };
        let Some(hub) = hub.upgrade() else { return };
        match next {
            Ok(Some(Ok(notification))) => {
                pause = Duration::from_millis(250);
                match serde_json::from_str(&notification.payload) {
                    // No receiver is not an error: the idle check below ends the task.
                    Ok(value) => drop(hub.sender.send(Arc::new(value))),
                    Err(e) => tracing::warn!(error = %e, "live updates: not JSON, skipped"),
                }
            }
            Err(_idle) => {
                let mut listening = hub.listening.lock().await;
                if hub.sender.receiver_count() == 0 {
                    *listening = false;
                    return;
                }
            }
            Ok(Some(Err(_)) | None) => loop {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(30));
                {
                    let mut listening = hub.listening.lock().await;
                    if hub.sender.receiver_count() == 0 {
                        *listening = false;
                        return;
                    }
                }
                match connect(&hub.url).await {
                    Ok(fresh) => {
                        tracing::info!("live updates: listening again");
                        conn = fresh;
                        break;
                    }
                    Err(e) => tracing::warn!(error = %e, "live updates: cannot listen"),
                }
            },
        }
    }
}
