//! Load shedding in front of the database-bound routes (`/api/v1`, `/graphql`; never
//! `/health`): at most `in_flight` requests run at once, at most `queue` more wait for a
//! turn, and any request beyond that is answered at once with 503 and `Retry-After`
//! before it reads its body or touches the database, so nothing is half-written and the
//! requests that are admitted keep their latency.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use crate::platform::error::AppError;

/// The shared limit.
#[derive(Clone)]
pub struct Overload {
    permits: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    queue: usize,
}

impl Overload {
    /// A limit of `in_flight` running requests and `queue` waiting ones.
    pub fn new(in_flight: usize, queue: usize) -> Overload {
        Overload {
            permits: Arc::new(Semaphore::new(in_flight.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            queue,
        }
    }

    /// The limit for a pool of `connections`: a few requests per connection run (most of a
    /// request's time is not spent holding a connection), and a queue as long again waits.
    pub fn for_pool(connections: usize) -> Overload {
        let in_flight = connections.max(1) * 4;
        Overload::new(in_flight, in_flight * 2)
    }
}

/// The middleware: admits, queues or refuses a request.
pub async fn limit(State(overload): State<Overload>, request: Request, next: Next) -> Response {
    let permit = match overload.permits.clone().try_acquire_owned() {
        Ok(permit) => permit,
        Err(_) => {
            // Count ourselves in the queue first, so concurrent arrivals cannot overshoot it.
            let position = overload.waiting.fetch_add(1, Ordering::SeqCst);
            if position >= overload.queue {
                overload.waiting.fetch_sub(1, Ordering::SeqCst);
                tracing::warn!("overloaded: request refused with 503");
                return AppError::unavailable("The server is busy; please retry shortly")
                    .into_response();
            }
            let acquired = overload.permits.clone().acquire_owned().await;
            overload.waiting.fetch_sub(1, Ordering::SeqCst);
            match acquired {
                Ok(permit) => permit,
                Err(_) => {
                    return AppError::unavailable("The server is shutting down").into_response();
                }
            }
        }
    };
    let response = next.run(request).await;
    drop(permit);
    response
}
