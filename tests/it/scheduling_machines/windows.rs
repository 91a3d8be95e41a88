//! Maintenance windows through REST in FilaOps's shapes: plan (with the operations booked
//! over the window listed), list and filter, cancel, complete (a printer's window writes its
//! maintenance log in the same transaction; of two completes at once one wins), and every
//! refusal with the table unchanged.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use super::{at, booked_operation, field_errors, keys, printer, resource, work_center};
use crate::common::TestApp;
use crate::common::api::{admin, app, call, gql, ok, operator, table_json};

const WINDOW_KEYS: [&str; 10] = [
    "id",
    "printer_id",
    "resource_id",
    "starts_at",
    "ends_at",
    "reason",
    "status",
    "maintenance_log_id",
    "created_by",
    "created_at",
];

async fn window(app: &TestApp, t: &str, body: Value) -> Value {
    let res = call(
        app,
        Method::POST,
        "/api/v1/maintenance-windows",
        Some(body),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()
}

fn ids(list: &Value) -> Vec<i64> {
    list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|w| w["id"].as_i64())
        .collect()
}

#[tokio::test]
async fn maintenance_windows_through_rest() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let pool = work_center(&app, &op, "FDM").await;
    let x1 = printer(&app, &op, "PRT-001").await;
    let ws = resource(&app, &op, pool, "WS-01").await["id"]
        .as_i64()
        .expect("id");

    let empty = ok(&app, &op, Method::GET, "/api/v1/maintenance-windows", None).await;
    assert_eq!(empty, json!({"items": [], "total": 0}));

    // Plan: 201, FilaOps's shape plus the operations booked over it (none here).
    let first = window(
        &app,
        &op,
        json!({"printer_id": x1, "starts_at": at(120), "ends_at": at(180), "reason": " Replace belts "}),
    )
    .await;
    let mut shape: Vec<&str> = vec!["conflicting_operations"];
    shape.extend(WINDOW_KEYS);
    assert_eq!(keys(&first), shape);
    assert_eq!(first["conflicting_operations"], json!([]));
    assert_eq!(first["printer_id"], x1);
    assert_eq!(first["resource_id"], Value::Null);
    assert_eq!(first["reason"], "Replace belts");
    assert_eq!(first["status"], "scheduled");
    assert_eq!(first["maintenance_log_id"], Value::Null);
    assert_eq!(first["created_by"], "op@example.com");
    let first_id = first["id"].as_i64().expect("id");

    // An operation already booked on the machine does not stop a window: it is listed.
    let booked = booked_operation(&app, &op, "GEAR", pool, ("printer_id", x1), 300, 360).await;
    let second = window(
        &app,
        &op,
        json!({"printer_id": x1, "starts_at": at(330), "ends_at": at(400), "reason": null}),
    )
    .await;
    assert_eq!(second["conflicting_operations"], json!([booked]));
    let second_id = second["id"].as_i64().expect("id");
    // Touching the first window is no overlap; a resource's window lives apart.
    let third = window(
        &app,
        &op,
        json!({"resource_id": ws, "starts_at": at(60), "ends_at": at(120)}),
    )
    .await;
    let third_id = third["id"].as_i64().expect("id");
    assert_eq!(third["resource_id"], ws);

    // The list: by start; filters; finished ones only when asked.
    let all = ok(&app, &op, Method::GET, "/api/v1/maintenance-windows", None).await;
    assert_eq!(ids(&all), [third_id, first_id, second_id]);
    assert_eq!(all["total"], 3);
    assert_eq!(keys(&all["items"][0]), WINDOW_KEYS);
    filtered(&app, &op, (x1, ws), [first_id, second_id, third_id]).await;

    // Cancel: the window, cancelled; then it no longer blocks nor lists by default.
    let cancelled = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/maintenance-windows/{first_id}/cancel"),
        Some(json!({})),
    )
    .await;
    assert_eq!(keys(&cancelled), WINDOW_KEYS);
    assert_eq!(cancelled["status"], "cancelled");
    let list = ok(&app, &op, Method::GET, "/api/v1/maintenance-windows", None).await;
    assert_eq!(ids(&list), [third_id, second_id]);
    let list = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/maintenance-windows?include_finished=true",
        None,
    )
    .await;
    assert_eq!(ids(&list), [third_id, first_id, second_id]);

    // A resource's window just closes when completed (FilaOps's client posts `{}`).
    let done = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/maintenance-windows/{third_id}/complete"),
        Some(json!({})),
    )
    .await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["maintenance_log_id"], Value::Null);

    finished_windows_refuse(&app, &op, first_id, third_id).await;

    // A cancelled window no longer blocks: the same time can be planned again.
    window(
        &app,
        &op,
        json!({"printer_id": x1, "starts_at": at(120), "ends_at": at(180)}),
    )
    .await;
}

/// A timestamp as a query-string value (`+` would read as a space).
fn urlencoding(text: &str) -> String {
    text.replace(':', "%3A").replace('+', "%2B")
}

#[tokio::test]
async fn refused_windows_change_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let pool = work_center(&app, &t, "FDM").await;
    let x1 = printer(&app, &t, "PRT-001").await;
    let ws = resource(&app, &t, pool, "WS-01").await["id"]
        .as_i64()
        .expect("id");
    window(
        &app,
        &t,
        json!({"printer_id": x1, "starts_at": at(60), "ends_at": at(120)}),
    )
    .await;
    let before = table_json(&app, "maintenance_windows").await;

    let base = || json!({"printer_id": x1, "starts_at": at(600), "ends_at": at(660)});
    let with = |k: &str, v: Value| {
        let mut b = base();
        b[k] = v;
        b
    };
    let exactly_one = "Exactly one of printer_id or resource_id is required";
    for (body, status, detail) in [
        (
            json!({"starts_at": at(600), "ends_at": at(660)}),
            StatusCode::BAD_REQUEST,
            exactly_one,
        ),
        (
            json!({"printer_id": null, "resource_id": null, "starts_at": at(600), "ends_at": at(660)}),
            StatusCode::BAD_REQUEST,
            exactly_one,
        ),
        (
            with("resource_id", json!(ws)),
            StatusCode::BAD_REQUEST,
            exactly_one,
        ),
        (
            with("printer_id", json!(999999)),
            StatusCode::NOT_FOUND,
            "Printer not found",
        ),
        (
            json!({"resource_id": 999999, "starts_at": at(600), "ends_at": at(660)}),
            StatusCode::NOT_FOUND,
            "Resource not found",
        ),
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/maintenance-windows",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, status, "{body}: {}", res.text());
        assert_eq!(res.json()["detail"], detail, "{body}");
    }
    // Overlapping another blocking window of the machine is a 400 naming it.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/maintenance-windows",
        Some(json!({"printer_id": x1, "starts_at": at(90), "ends_at": at(150)})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert!(
        res.json()["detail"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Overlaps maintenance window #"),
        "{}",
        res.text()
    );
    refused_window_fields(&app, &t, x1).await;
    assert_eq!(table_json(&app, "maintenance_windows").await, before);
}

/// The list's filters: by machine, by time range (ending after `start`, starting before
/// `end`). `windows` are the first and second (the printer's) and the third (the resource's).
async fn filtered(app: &TestApp, op: &str, machines: (i64, i64), windows: [i64; 3]) {
    let (x1, ws) = machines;
    let [first_id, second_id, third_id] = windows;
    let start = urlencoding(&at(200));
    for (query, want) in [
        (format!("printer_id={x1}"), vec![first_id, second_id]),
        (format!("resource_id={ws}"), vec![third_id]),
        (format!("start={start}"), vec![second_id]),
        (format!("end={start}"), vec![third_id, first_id]),
        (
            format!(
                "start={}&end={}",
                urlencoding(&at(130)),
                urlencoding(&at(140))
            ),
            vec![first_id],
        ),
    ] {
        let list = ok(
            app,
            op,
            Method::GET,
            &format!("/api/v1/maintenance-windows?{query}"),
            None,
        )
        .await;
        assert_eq!(ids(&list), want, "{query}");
    }
}

/// Finished windows cannot be cancelled or completed; unknown ones are 404.
async fn finished_windows_refuse(app: &TestApp, op: &str, cancelled: i64, completed: i64) {
    let (first_id, third_id) = (cancelled, completed);
    // Finished windows cannot be cancelled or completed; unknown ones are 404.
    for (path, status, detail) in [
        (
            format!("{first_id}/cancel"),
            StatusCode::BAD_REQUEST,
            format!("Maintenance window {first_id} is cancelled and cannot be cancelled"),
        ),
        (
            format!("{first_id}/complete"),
            StatusCode::BAD_REQUEST,
            format!("Maintenance window {first_id} is cancelled and cannot be completed"),
        ),
        (
            format!("{third_id}/cancel"),
            StatusCode::BAD_REQUEST,
            format!("Maintenance window {third_id} is completed and cannot be cancelled"),
        ),
        (
            "999999/cancel".to_string(),
            StatusCode::NOT_FOUND,
            "Maintenance window not found".to_string(),
        ),
        (
            "999999/complete".to_string(),
            StatusCode::NOT_FOUND,
            "Maintenance window not found".to_string(),
        ),
    ] {
        let res = call(
            app,
            Method::POST,
            &format!("/api/v1/maintenance-windows/{path}"),
            Some(json!({})),
            op,
        )
        .await;
        assert_eq!(res.status, status, "{path}: {}", res.text());
        assert_eq!(res.json(), json!({"detail": detail}), "{path}");
    }
}

/// The field rules of a new window answer a 422 naming the field, through REST and as
/// userErrors through GraphQL.
async fn refused_window_fields(app: &TestApp, t: &str, x1: i64) {
    let base = || json!({"printer_id": x1, "starts_at": at(600), "ends_at": at(660)});
    let with = |k: &str, v: Value| {
        let mut b = base();
        b[k] = v;
        b
    };
    for (body, field, message) in [
        (
            with("ends_at", json!(at(600))),
            "ends_at",
            "Must be after startsAt",
        ),
        (
            with("ends_at", json!(at(500))),
            "ends_at",
            "Must be after startsAt",
        ),
        (
            with("reason", json!("r".repeat(256))),
            "reason",
            "String should have at most 255 characters",
        ),
        (
            with("starts_at", json!("tomorrow")),
            "starts_at",
            "Input should be a valid datetime (RFC 3339, with a time zone)",
        ),
        (
            json!({"printer_id": x1, "ends_at": at(660)}),
            "starts_at",
            "Field required",
        ),
    ] {
        let res = call(
            app,
            Method::POST,
            "/api/v1/maintenance-windows",
            Some(body.clone()),
            t,
        )
        .await;
        let errors = field_errors(&res);
        assert!(
            errors.iter().any(|(f, m)| f == field && m == message),
            "{body}: {errors:?}"
        );
    }
    // Through GraphQL: field-level userErrors.
    let answer = gql(
        app,
        t,
        "mutation($p: Int!, $s: DateTime!) { maintenanceWindowCreate(input: {printerId: $p, startsAt: $s, endsAt: $s}) { maintenanceWindow { id } conflictingOperations userErrors { field code message } } }",
        json!({"p": x1, "s": at(700)}),
    )
    .await;
    assert_eq!(
        answer["data"]["maintenanceWindowCreate"],
        json!({"maintenanceWindow": null, "conflictingOperations": null, "userErrors": [{"field": "endsAt", "code": "INVALID", "message": "Must be after startsAt"}]})
    );
}

#[tokio::test]
async fn completing_a_printer_window_writes_its_maintenance_log() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let x1 = printer(&app, &op, "PRT-001").await;

    // A window that ended an hour ago: the log is performed at its end, down for its span.
    let past = window(
        &app,
        &op,
        json!({"printer_id": x1, "starts_at": at(-180), "ends_at": at(-60), "reason": "Hotend swap"}),
    )
    .await;
    let past_id = past["id"].as_i64().expect("id");
    let done = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/maintenance-windows/{past_id}/complete"),
        Some(json!({})),
    )
    .await;
    assert_eq!(keys(&done), WINDOW_KEYS);
    assert_eq!(done["status"], "completed");
    let log_id = done["maintenance_log_id"].as_i64().expect("a log");
    let log = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/maintenance/{log_id}"),
        None,
    )
    .await;
    assert_eq!(log["printer_id"], x1);
    assert_eq!(log["maintenance_type"], "routine");
    assert_eq!(log["description"], "Hotend swap");
    assert_eq!(log["performed_by"], "op@example.com");
    assert_eq!(log["performed_at"], past["ends_at"]);
    assert_eq!(log["downtime_minutes"], 120);
    assert_eq!(log["next_due_at"], Value::Null);

    // A window under way, completed early with what the log should say.
    let now_window = window(
        &app,
        &op,
        json!({"printer_id": x1, "starts_at": at(-30), "ends_at": at(60)}),
    )
    .await;
    let now_id = now_window["id"].as_i64().expect("id");
    let before_logs = table_json(&app, "printer_maintenance").await;
    // A log the printers' rules refuse leaves the window open and writes nothing.
    for (body, field) in [
        (json!({"next_due_at": at(-120)}), "next_due_at"),
        (json!({"cost": "-1"}), "cost"),
        (json!({"performed_by": "p".repeat(101)}), "performed_by"),
        (json!({"maintenance_type": "polishing"}), "maintenance_type"),
    ] {
        let res = call(
            &app,
            Method::POST,
            &format!("/api/v1/maintenance-windows/{now_id}/complete"),
            Some(body.clone()),
            &op,
        )
        .await;
        let errors = field_errors(&res);
        assert!(errors.iter().any(|(f, _)| f == field), "{body}: {errors:?}");
    }
    assert_eq!(table_json(&app, "printer_maintenance").await, before_logs);
    let due = at(60 * 24 * 30);
    let done = ok(
        &app,
        &op,
        Method::POST,
        &format!("/api/v1/maintenance-windows/{now_id}/complete"),
        Some(json!({"maintenance_type": "calibration", "performed_by": "Sam", "next_due_at": due, "cost": "12.50", "notes": "Flow and PA"})),
    )
    .await;
    let log = ok(
        &app,
        &op,
        Method::GET,
        &format!(
            "/api/v1/maintenance/{}",
            done["maintenance_log_id"].as_i64().expect("a log")
        ),
        None,
    )
    .await;
    assert_eq!(log["maintenance_type"], "calibration");
    assert_eq!(log["description"], "Planned maintenance");
    assert_eq!(log["performed_by"], "Sam");
    assert_eq!(log["cost"], "12.50");
    assert_eq!(log["notes"], "Flow and PA");
    let downtime = log["downtime_minutes"].as_i64().expect("downtime");
    assert!((29..=31).contains(&downtime), "down until now: {downtime}");
    // The printers' due list reads the latest log's next due date.
    let due_list = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/maintenance/due?days_ahead=31",
        None,
    )
    .await;
    assert_eq!(due_list["printers"][0]["printer_id"], x1, "{due_list}");
}

#[tokio::test]
async fn two_completes_at_once_write_one_log() {
    let app = app().await;
    let t = admin(&app).await;
    let x1 = printer(&app, &t, "PRT-001").await;
    for round in 0..3 {
        let w = window(
            &app,
            &t,
            json!({"printer_id": x1, "starts_at": at(-100 - 200 * round), "ends_at": at(-40 - 200 * round)}),
        )
        .await;
        let path = format!("/api/v1/maintenance-windows/{}/complete", w["id"]);
        let (a, b) = tokio::join!(
            call(&app, Method::POST, &path, Some(json!({})), &t),
            call(&app, Method::POST, &path, Some(json!({})), &t),
        );
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::BAD_REQUEST],
            "{} / {}",
            a.text(),
            b.text()
        );
        let loser = if a.status == StatusCode::OK { &b } else { &a };
        assert!(
            loser.json()["detail"]
                .as_str()
                .unwrap_or_default()
                .ends_with("is completed and cannot be completed"),
            "{}",
            loser.text()
        );
    }
    assert_eq!(
        app.scalar("SELECT count(*) FROM printer_maintenance").await,
        3
    );
    assert_eq!(
        app.scalar(
            "SELECT count(*) FROM maintenance_windows w JOIN printer_maintenance m ON m.id = w.maintenance_log_id WHERE w.status = 'completed'"
        )
        .await,
        3
    );
}
