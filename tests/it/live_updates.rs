//! Live updates over graphql-ws (`/graphql/ws`): a real WebSocket client on a real listener
//! signs in with `connection_init`, subscribes to `printerStatusChanged` and
//! `productionOrderChanged`, and hears the changes REST makes, after their commit. A client
//! without a valid user is closed with 4403, and another site's page cannot open a socket
//! with the session cookie.

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::common::TestApp;
use crate::common::api::{admin, app, call};

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The app on a real TCP listener (a WebSocket needs one).
async fn listen(app: &TestApp) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let state = app.state.clone();
    tokio::spawn(async move {
        strata::application::app::serve_on(listener, state, std::future::pending())
            .await
            .expect("serve");
    });
    addr
}

async fn open(addr: SocketAddr, extra: &[(&str, &str)]) -> Result<Socket, StatusCode> {
    let mut request = format!("ws://{addr}/graphql/ws")
        .into_client_request()
        .expect("request");
    let headers = request.headers_mut();
    headers.insert(
        "sec-websocket-protocol",
        "graphql-transport-ws".parse().expect("header"),
    );
    for (name, value) in extra {
        let name = axum::http::HeaderName::from_bytes(name.as_bytes()).expect("name");
        headers.insert(name, value.parse().expect("header"));
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => Err(response.status()),
        Err(e) => panic!("handshake: {e}"),
    }
}

async fn send(socket: &mut Socket, message: Value) {
    socket
        .send(Message::text(message.to_string()))
        .await
        .expect("send");
}

/// The next protocol message (pings answered), or the close frame's code and reason.
async fn next(socket: &mut Socket) -> Result<Value, Option<(CloseCode, String)>> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message within 10 s");
        match message {
            Some(Ok(Message::Text(text))) => {
                let value: Value = serde_json::from_str(&text).expect("json");
                if value["type"] == "ping" {
                    send(socket, json!({"type": "pong"})).await;
                    continue;
                }
                return Ok(value);
            }
            Some(Ok(Message::Close(frame))) => {
                return Err(frame.map(|f| (f.code, f.reason.to_string())));
            }
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Err(None),
        }
    }
}

/// A signed-in socket (`connection_init` with the bearer token, answered by `connection_ack`).
async fn signed_in(addr: SocketAddr, token: &str) -> Socket {
    let mut socket = open(addr, &[]).await.expect("handshake");
    send(
        &mut socket,
        json!({"type": "connection_init", "payload": {"authorization": format!("Bearer {token}")}}),
    )
    .await;
    assert_eq!(
        next(&mut socket).await.expect("ack")["type"],
        "connection_ack"
    );
    socket
}

async fn ok(app: &TestApp, t: &str, method: Method, path: &str, body: Value) -> Value {
    let res = call(app, method, path, Some(body), t).await;
    assert!(
        res.status.is_success(),
        "{path}: {} {}",
        res.status,
        res.text()
    );
    res.json()
}

/// Repeats `change` until the subscription `id` delivers an event (the first change may
/// commit while the subscription is still starting to listen), and returns that event.
async fn first_event<F, Fut>(socket: &mut Socket, id: &str, mut change: F) -> Value
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for attempt in 0..50 {
        change(attempt).await;
        if let Ok(Some(message)) =
            tokio::time::timeout(Duration::from_millis(200), socket.next()).await
        {
            let Ok(Message::Text(text)) = message else {
                continue;
            };
            let value: Value = serde_json::from_str(&text).expect("json");
            if value["id"] != id {
                // The end of an earlier subscription (`complete`).
                continue;
            }
            assert_eq!(value["type"], "next", "{value}");
            return value["payload"]["data"].clone();
        }
    }
    panic!("no event for subscription {id}");
}

#[tokio::test]
async fn a_printer_status_change_and_a_new_production_order_reach_a_graphql_ws_client() {
    let app = app().await;
    let t = admin(&app).await;
    let addr = listen(&app).await;
    let printer = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/printers/",
        json!({"code": "PRT-001", "name": "X1C #1", "model": "X1 Carbon", "status": "idle"}),
    )
    .await;
    let printer_id = printer["id"].as_i64().expect("id");

    let mut socket = signed_in(addr, &t).await;
    send(
        &mut socket,
        json!({"id": "printers", "type": "subscribe", "payload": {"query": "subscription { printerStatusChanged { id code name status active } }"}}),
    )
    .await;
    let statuses = ["printing", "paused"];
    let event = first_event(&mut socket, "printers", |attempt| {
        let (app, t) = (&app, &t);
        async move {
            let status = statuses[attempt % 2];
            ok(
                app,
                t,
                Method::PATCH,
                &format!("/api/v1/printers/{printer_id}/status"),
                json!({"status": status}),
            )
            .await;
        }
    })
    .await;
    let change = &event["printerStatusChanged"];
    assert_eq!(change["id"], printer_id);
    assert_eq!(change["code"], "PRT-001");
    assert_eq!(change["active"], true);

    // Listening now: the next change arrives as made, once.
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/printers/{printer_id}/status"),
        json!({"status": "maintenance"}),
    )
    .await;
    loop {
        let message = next(&mut socket).await.expect("event");
        let status = &message["payload"]["data"]["printerStatusChanged"]["status"];
        if status == "maintenance" {
            break;
        }
        // Only the changes of the loop above may come first.
        assert!(status == "printing" || status == "paused", "{message}");
    }
    send(&mut socket, json!({"id": "printers", "type": "complete"})).await;

    // A production order created by REST is announced with its code and status.
    send(
        &mut socket,
        json!({"id": "orders", "type": "subscribe", "payload": {"query": "subscription { productionOrderChanged { id code status qcStatus quantityOrdered quantityCompleted } }"}}),
    )
    .await;
    let widget = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/items",
        json!({"sku": "WIDGET", "name": "Widget", "item_type": "finished_good", "unit": "EA"}),
    )
    .await;
    let codes = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let event = first_event(&mut socket, "orders", |_| {
        let (app, t, widget) = (&app, &t, widget["id"].clone());
        let codes = codes.clone();
        async move {
            let order = ok(
                app,
                t,
                Method::POST,
                "/api/v1/production-orders/",
                json!({"product_id": widget, "quantity_ordered": "3"}),
            )
            .await;
            codes
                .borrow_mut()
                .push(order["code"].as_str().expect("code").to_string());
        }
    })
    .await;
    let change = &event["productionOrderChanged"];
    let codes = codes.borrow();
    assert!(
        codes.iter().any(|c| change["code"] == c.as_str()),
        "{change} {codes:?}"
    );
    assert!(change["code"].as_str().expect("code").starts_with("WO-"));
    assert_eq!(change["status"], "draft");
    assert_eq!(change["qcStatus"], "not_required");
    let completed: f64 = change["quantityCompleted"]
        .as_str()
        .expect("decimal")
        .parse()
        .expect("number");
    assert_eq!(completed, 0.0);
}

#[tokio::test]
async fn a_socket_without_a_valid_user_is_closed_and_a_foreign_page_cannot_open_one() {
    // Cookie sessions, as the SPA signs in.
    let app = TestApp::spawn().await;
    let res = app
        .send_json(
            Method::POST,
            "/api/v1/setup/initial-admin",
            &json!({"email": "ada@example.com", "password": "Admin-pass1!", "full_name": "Ada"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let cookie = res
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("access_token="))
        .and_then(|v| v.split(';').next())
        .expect("access cookie")
        .to_string();
    let addr = listen(&app).await;

    // No credential: closed at connection_init, saying why.
    let mut socket = open(addr, &[]).await.expect("handshake");
    send(
        &mut socket,
        json!({"type": "connection_init", "payload": {}}),
    )
    .await;
    let closed = (CloseCode::Protocol, "Not authenticated".to_string());
    assert_eq!(next(&mut socket).await.err(), Some(Some(closed)));

    // A forged token: the same.
    let mut socket = open(addr, &[]).await.expect("handshake");
    send(
        &mut socket,
        json!({"type": "connection_init", "payload": {"authorization": "Bearer not-a-token"}}),
    )
    .await;
    let closed = (
        CloseCode::Protocol,
        "Could not validate credentials".to_string(),
    );
    assert_eq!(next(&mut socket).await.err(), Some(Some(closed)));

    // Subscribing before connection_init: closed, nothing runs.
    let mut socket = open(addr, &[]).await.expect("handshake");
    send(&mut socket, json!({"id": "1", "type": "subscribe", "payload": {"query": "subscription { printerStatusChanged { id } }"}})).await;
    assert!(next(&mut socket).await.is_err());

    // The session cookie from another site's page: refused at the handshake.
    let refused = open(
        addr,
        &[("cookie", &cookie), ("origin", "https://evil.example")],
    )
    .await;
    assert_eq!(refused.err(), Some(StatusCode::FORBIDDEN));

    // The same cookie from the app's own origin: signed in by the cookie alone.
    let origin = format!("http://{addr}");
    let mut socket = open(addr, &[("cookie", &cookie), ("origin", &origin)])
        .await
        .expect("handshake");
    send(&mut socket, json!({"type": "connection_init"})).await;
    assert_eq!(
        next(&mut socket).await.expect("ack")["type"],
        "connection_ack"
    );
}
