//! `GET /graphql/ws`: GraphQL subscriptions over WebSocket, in the graphql-ws protocol
//! (`graphql-transport-ws`; the older `graphql-ws` subprotocol is accepted too).
//!
//! Who may subscribe is settled once, when the client sends `connection_init`: the session
//! cookie of the handshake, or a bearer token in the init payload (`{"authorization":
//! "Bearer <token>"}`, which is how a non-browser client signs in since it cannot set
//! headers on a browser WebSocket). A connection without a signed-in, active user is closed
//! (1002, with the reason: `Not authenticated`, `Could not validate credentials`, `User
//! account is inactive`) before any subscription starts, and every subscription field still
//! has its guard. The handshake itself passes the CSRF guard like an unsafe request
//! ([`crate::platform::http::csrf`]), so another site's page cannot open a socket with the cookies.

use async_graphql::Data;
use async_graphql::http::ALL_WEBSOCKET_PROTOCOLS;
use async_graphql_axum::{GraphQLProtocol, GraphQLWebSocket};
use axum::extract::WebSocketUpgrade;
use axum::response::Response;

use crate::platform::auth::roles::UserStatus;
use crate::platform::auth::{RequestMeta, Viewer};

/// Upgrades the connection and serves its subscriptions on the `/graphql` schema.
pub fn serve(
    state: &crate::platform::http::state::AppState,
    meta: RequestMeta,
    protocol: GraphQLProtocol,
    upgrade: WebSocketUpgrade,
) -> Response {
    let schema = state.schema.clone();
    let keys = state.token_keys.clone();
    let pool = state.pool.clone();
    upgrade
        .protocols(ALL_WEBSOCKET_PROTOCOLS)
        .on_upgrade(move |socket| {
            GraphQLWebSocket::new(socket, schema, protocol)
                .on_connection_init(move |payload| async move {
                    let mut meta = meta;
                    if let Some(token) = bearer_of(&payload) {
                        meta.bearer = Some(token);
                    }
                    let viewer =
                        crate::platform::auth::viewer::resolve_meta(&meta, &keys, &pool).await;
                    match viewer {
                        Ok(Viewer::User(user)) if user.status == UserStatus::Active => {
                            let mut data = Data::default();
                            data.insert(meta);
                            Ok(data)
                        }
                        Ok(viewer) => Err(async_graphql::Error::new(
                            viewer
                                .require_user()
                                .err()
                                .map(|e| e.message)
                                .unwrap_or_else(|| "Not authenticated".to_string()),
                        )),
                        Err(e) => Err(async_graphql::Error::new(e.message)),
                    }
                })
                .serve()
        })
}

/// The bearer token of a `connection_init` payload: `authorization` (any case) as
/// `Bearer <token>`, or a bare `token`.
fn bearer_of(payload: &serde_json::Value) -> Option<String> {
    let object = payload.as_object()?;
    object.iter().find_map(|(key, value)| {
        let text = value.as_str()?.trim();
        if key.eq_ignore_ascii_case("authorization") {
            let (scheme, token) = text.split_once(' ')?;
            scheme
                .eq_ignore_ascii_case("bearer")
                .then(|| token.trim().to_string())
        } else if key == "token" {
            Some(text.to_string())
        } else {
            None
        }
        .filter(|t| !t.is_empty())
    })
}
