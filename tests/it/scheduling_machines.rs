//! The machine master data around the scheduling engine (issue 32), through REST in
//! FilaOps's shapes and through GraphQL: resources of a work center (create with 201 and
//! Location, list, one, change and move, status, delete refused while open operations are
//! booked), maintenance windows (plan, list and filter, cancel, complete, which writes the
//! printer's maintenance log in the same transaction, and two completes at once), working
//! hours (the week, exceptions, and the engine's calendars built from them), material
//! needs, and every refusal with its field and the tables unchanged.

use axum::http::{Method, StatusCode};
use chrono::{Duration, SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, gql, item, ok, operator, released_order, table_json};

mod windows;

/// An instant `minutes` from now (negative: in the past), whole seconds, as the API reads it.
fn at(minutes: i64) -> String {
    (Utc::now() + Duration::minutes(minutes)).to_rfc3339_opts(SecondsFormat::Secs, true)
}

async fn work_center(app: &TestApp, t: &str, code: &str) -> i64 {
    let wc = ok(
        app,
        t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": code, "name": format!("{code} bench"), "center_type": "post_processing"})),
    )
    .await;
    wc["id"].as_i64().expect("work center id")
}

async fn printer(app: &TestApp, t: &str, code: &str) -> i64 {
    let p = ok(
        app,
        t,
        Method::POST,
        "/api/v1/printers/",
        Some(json!({"code": code, "name": format!("Printer {code}"), "model": "X1 Carbon"})),
    )
    .await;
    p["id"].as_i64().expect("printer id")
}

async fn resource(app: &TestApp, t: &str, wc: i64, code: &str) -> Value {
    let res = call(
        app,
        Method::POST,
        &format!("/api/v1/work-centers/{wc}/resources"),
        Some(json!({"code": code, "name": format!("Resource {code}")})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()
}

/// A released order whose one operation (at `wc`) is booked on a machine from `from` to
/// `to` minutes from now: `machine` is `printer_id` or `resource_id`. Answers the operation.
async fn booked_operation(
    app: &TestApp,
    t: &str,
    sku: &str,
    wc: i64,
    machine: (&str, i64),
    from: i64,
    to: i64,
) -> i64 {
    let product = item(sku).create(app, t).await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": product, "operations": [
            {"operation_code": "wash", "operation_name": "Wash", "work_center_id": wc, "run_minutes": "20"}
        ]})),
    )
    .await;
    let (order, _) = released_order(app, t, product, "1").await;
    let (column, id) = machine;
    app.scalar(&format!(
        "UPDATE production_order_operations SET {column} = {id}, \
         scheduled_start = now() + interval '{from} minutes', scheduled_end = now() + interval '{to} minutes' \
         WHERE production_order_id = {order} RETURNING id"
    ))
    .await
}

/// The field-level errors of a 422, as `(field, message)`.
fn field_errors(res: &crate::common::TestResponse) -> Vec<(String, String)> {
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    res.json()["details"]["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap_or_default().to_string(),
                e["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// The codes of a list of resources, in order.
fn codes(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("array")
        .iter()
        .map(|r| r["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

const RESOURCE_KEYS: [&str; 15] = [
    "code",
    "name",
    "machine_type",
    "serial_number",
    "bambu_device_id",
    "bambu_ip_address",
    "capacity_hours_per_day",
    "status",
    "is_active",
    "id",
    "work_center_id",
    "created_at",
    "updated_at",
    "work_center_code",
    "work_center_name",
];

#[tokio::test]
async fn resources_through_rest() {
    let app = app().await;
    let t = admin(&app).await;
    // Any signed-in user keeps the resources, as in FilaOps.
    let op = operator(&app, &t).await;
    let wash = work_center(&app, &op, "WASH").await;
    let cure = work_center(&app, &op, "CURE").await;

    let empty = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/work-centers/{wash}/resources"),
        None,
    )
    .await;
    assert_eq!(empty, json!([]));

    // Create as FilaOps's form sends it: blanks for empty texts, the capacity as text, an
    // extra `printer_id` and `work_center_id` the route ignores.
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/work-centers/{wash}/resources"),
        Some(json!({
            "code": " ws-01 ", "name": "Wash station 1", "machine_type": "Wash & cure",
            "serial_number": "", "bambu_device_id": "", "bambu_ip_address": "",
            "capacity_hours_per_day": "16", "status": "available", "is_active": true,
            "printer_id": null, "work_center_id": cure
        })),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let ws = res.json();
    let ws_id = ws["id"].as_i64().expect("id");
    assert_eq!(
        res.header("location"),
        Some(format!("/api/v1/work-centers/resources/{ws_id}").as_str())
    );
    assert_eq!(keys(&ws), RESOURCE_KEYS);
    assert_eq!(ws["code"], "WS-01");
    assert_eq!(ws["machine_type"], "Wash & cure");
    assert_eq!(ws["serial_number"], Value::Null);
    assert_eq!(ws["capacity_hours_per_day"], "16.00");
    assert_eq!(ws["status"], "available");
    assert_eq!(ws["is_active"], true);
    assert_eq!(ws["work_center_id"], wash);
    assert_eq!(ws["work_center_code"], "WASH");
    assert_eq!(ws["work_center_name"], "WASH bench");

    // Defaults; an inactive one is left out of the default list.
    let spare = resource(&app, &op, wash, "ws-00").await;
    assert_eq!(spare["status"], "available");
    assert_eq!(spare["capacity_hours_per_day"], Value::Null);
    let spare_id = spare["id"].as_i64().expect("id");
    let off = ok(
        &app,
        &op,
        Method::PUT,
        &format!("/api/v1/work-centers/resources/{spare_id}"),
        Some(json!({"is_active": false, "capacity_hours_per_day": null, "code": null})),
    )
    .await;
    assert_eq!(off["is_active"], false);
    assert_eq!(off["code"], "WS-00", "a null code changes nothing");
    for (query, want) in [
        ("", vec!["WS-01"]),
        ("?active_only=true", vec!["WS-01"]),
        ("?active_only=false", vec!["WS-00", "WS-01"]),
    ] {
        let list = ok(
            &app,
            &op,
            Method::GET,
            &format!("/api/v1/work-centers/{wash}/resources{query}"),
            None,
        )
        .await;
        assert_eq!(codes(&list), want, "{query}");
    }

    change_move_and_delete(&app, &op, &ws, wash, cure).await;
}

/// One resource read, changed, moved to another work center, its status set, and deleted;
/// the work center routes of production still answer beside these.
async fn change_move_and_delete(app: &TestApp, op: &str, ws: &Value, wash: i64, cure: i64) {
    let ws_id = ws["id"].as_i64().expect("id");
    // One; a change that moves it to another work center.
    let one = ok(
        app,
        op,
        Method::GET,
        &format!("/api/v1/work-centers/resources/{ws_id}"),
        None,
    )
    .await;
    assert_eq!(&one, ws);
    let moved = ok(
        app,
        op,
        Method::PUT,
        &format!("/api/v1/work-centers/resources/{ws_id}"),
        Some(json!({"work_center_id": cure, "name": "Wash and cure", "serial_number": "SN-9"})),
    )
    .await;
    assert_eq!(keys(&moved), RESOURCE_KEYS);
    assert_eq!(moved["work_center_id"], cure);
    assert_eq!(moved["work_center_code"], "CURE");
    assert_eq!(moved["name"], "Wash and cure");
    assert_eq!(moved["serial_number"], "SN-9");
    assert_eq!(moved["machine_type"], "Wash & cure", "omitted keeps");
    let cure_list = ok(
        app,
        op,
        Method::GET,
        &format!("/api/v1/work-centers/{cure}/resources"),
        None,
    )
    .await;
    assert_eq!(codes(&cure_list), ["WS-01"]);

    // The quick status change answers `{id, status}`.
    let status = ok(
        app,
        op,
        Method::PATCH,
        &format!("/api/v1/work-centers/resources/{ws_id}/status?new_status=maintenance"),
        None,
    )
    .await;
    assert_eq!(status, json!({"id": ws_id, "status": "maintenance"}));

    // The work center routes of production still answer beside these.
    let wc = ok(
        app,
        op,
        Method::GET,
        &format!("/api/v1/work-centers/{wash}"),
        None,
    )
    .await;
    assert_eq!(wc["code"], "WASH");
    let renamed = ok(
        app,
        op,
        Method::PUT,
        &format!("/api/v1/work-centers/{wash}"),
        Some(json!({"name": "Wash room"})),
    )
    .await;
    assert_eq!(renamed["name"], "Wash room");
    let all = ok(app, op, Method::GET, "/api/v1/work-centers/", None).await;
    assert_eq!(all.as_array().map(Vec::len), Some(2));

    // Delete: 204, then it is gone.
    let res = call(
        app,
        Method::DELETE,
        &format!("/api/v1/work-centers/resources/{ws_id}"),
        None,
        op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT, "{}", res.text());
    let res = call(
        app,
        Method::GET,
        &format!("/api/v1/work-centers/resources/{ws_id}"),
        None,
        op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(res.json(), json!({"detail": "Resource not found"}));

    // GraphQL lists every work center's resources when none is named.
    let all = gql(
        app,
        op,
        "{ resources(activeOnly: false) { code workCenterCode } }",
        json!({}),
    )
    .await;
    assert_eq!(
        all["data"]["resources"],
        json!([{"code": "WS-00", "workCenterCode": "WASH"}])
    );
}

#[tokio::test]
async fn refused_resource_requests_change_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let wash = work_center(&app, &t, "WASH").await;
    let existing = resource(&app, &t, wash, "WS-01").await;
    let id = existing["id"].as_i64().expect("id");
    let second = resource(&app, &t, wash, "WS-02").await["id"]
        .as_i64()
        .expect("id");
    let before = table_json(&app, "resources").await;

    refused_resource_fields(&app, &t, wash, id).await;
    let create = format!("/api/v1/work-centers/{wash}/resources");
    let one = format!("/api/v1/work-centers/resources/{id}");
    let body = |k: &str, v: Value| {
        let mut b = json!({"code": "WS-03", "name": "Wash 3"});
        b[k] = v;
        b
    };
    // A taken code (any case) is a 400; a missing work center or resource a 404.
    let mut others = vec![
        (
            Method::POST,
            create.clone(),
            Some(body("code", json!("ws-01"))),
            StatusCode::BAD_REQUEST,
            "A resource with code WS-01 already exists",
        ),
        (
            Method::POST,
            "/api/v1/work-centers/999999/resources".to_string(),
            Some(body("code", json!("WS-09"))),
            StatusCode::NOT_FOUND,
            "Work center not found",
        ),
        (
            Method::GET,
            "/api/v1/work-centers/999999/resources".to_string(),
            None,
            StatusCode::NOT_FOUND,
            "Work center not found",
        ),
        (
            Method::PUT,
            one.clone(),
            Some(json!({"work_center_id": 999999})),
            StatusCode::NOT_FOUND,
            "Work center not found",
        ),
        (
            Method::GET,
            "/api/v1/work-centers/resources/999999".to_string(),
            None,
            StatusCode::NOT_FOUND,
            "Resource not found",
        ),
        (
            Method::PUT,
            "/api/v1/work-centers/resources/999999".to_string(),
            Some(json!({"name": "X"})),
            StatusCode::NOT_FOUND,
            "Resource not found",
        ),
        (
            Method::DELETE,
            "/api/v1/work-centers/resources/999999".to_string(),
            None,
            StatusCode::NOT_FOUND,
            "Resource not found",
        ),
        (
            Method::PATCH,
            "/api/v1/work-centers/resources/999999/status?new_status=busy".to_string(),
            None,
            StatusCode::NOT_FOUND,
            "Resource not found",
        ),
    ];
    others.push((
        Method::PUT,
        format!("/api/v1/work-centers/resources/{second}"),
        Some(json!({"code": "Ws-01"})),
        StatusCode::BAD_REQUEST,
        "A resource with code WS-01 already exists",
    ));
    for (method, path, b, status, detail) in others {
        let res = call(&app, method.clone(), &path, b, &t).await;
        assert_eq!(res.status, status, "{method} {path}: {}", res.text());
        assert_eq!(res.json()["detail"], detail, "{method} {path}");
    }
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/work-centers/resources/{id}/status?new_status=asleep"),
        None,
        &t,
    )
    .await;
    assert_eq!(field_errors(&res)[0].0, "query.new_status");
    assert_eq!(table_json(&app, "resources").await, before);

    refused_through_graphql(&app, &t, wash).await;
    assert_eq!(table_json(&app, "resources").await, before);
}

/// Each field rule of a resource answers a 422 naming its field.
async fn refused_resource_fields(app: &TestApp, t: &str, wash: i64, id: i64) {
    let create = format!("/api/v1/work-centers/{wash}/resources");
    let one = format!("/api/v1/work-centers/resources/{id}");
    let body = |k: &str, v: Value| {
        let mut b = json!({"code": "WS-03", "name": "Wash 3"});
        b[k] = v;
        b
    };
    // 422s name their field.
    for (method, path, b, field, message) in [
        (
            Method::POST,
            &create,
            body("code", json!("c".repeat(51))),
            "code",
            "String should have at most 50 characters",
        ),
        (
            Method::POST,
            &create,
            body("code", json!("  ")),
            "code",
            "String should have at least 1 character",
        ),
        (
            Method::POST,
            &create,
            json!({"name": "No code"}),
            "code",
            "Field required",
        ),
        (
            Method::POST,
            &create,
            body("name", json!("n".repeat(201))),
            "name",
            "String should have at most 200 characters",
        ),
        (
            Method::POST,
            &create,
            body("machine_type", json!("m".repeat(101))),
            "machine_type",
            "String should have at most 100 characters",
        ),
        (
            Method::POST,
            &create,
            body("bambu_ip_address", json!("1".repeat(51))),
            "bambu_ip_address",
            "String should have at most 50 characters",
        ),
        (
            Method::POST,
            &create,
            body("capacity_hours_per_day", json!("24.5")),
            "capacity_hours_per_day",
            "Input should be less than or equal to 24",
        ),
        (
            Method::POST,
            &create,
            body("capacity_hours_per_day", json!(-1)),
            "capacity_hours_per_day",
            "Input should be greater than or equal to 0",
        ),
        (
            Method::POST,
            &create,
            body("status", json!("broken")),
            "status",
            "Input should be 'available', 'busy', 'maintenance' or 'offline'",
        ),
        (
            Method::PUT,
            &one,
            json!({"name": ""}),
            "name",
            "String should have at least 1 character",
        ),
        (
            Method::PUT,
            &one,
            json!({"capacity_hours_per_day": 25}),
            "capacity_hours_per_day",
            "Input should be less than or equal to 24",
        ),
    ] {
        let res = call(app, method.clone(), path, Some(b.clone()), t).await;
        let errors = field_errors(&res);
        assert!(
            errors.iter().any(|(f, m)| f == field && m == message),
            "{method} {path} {b}: {errors:?}"
        );
    }
}

/// Through GraphQL the resource rules are userErrors with camelCase fields.
async fn refused_through_graphql(app: &TestApp, t: &str, wash: i64) {
    // Through GraphQL the same rules are userErrors with camelCase fields.
    let answer = gql(
        app,
        t,
        "mutation($wc: Int!) { resourceCreate(workCenterId: $wc, input: {code: \"WS-04\", name: \"x\", capacityHoursPerDay: \"30\"}) { resource { id } userErrors { field code message } } }",
        json!({"wc": wash}),
    )
    .await;
    assert_eq!(
        answer["data"]["resourceCreate"],
        json!({"resource": null, "userErrors": [{"field": "capacityHoursPerDay", "code": "INVALID", "message": "Input should be less than or equal to 24"}]})
    );
    let answer = gql(
        app,
        t,
        "mutation { resourceCreate(workCenterId: 999999, input: {code: \"WS-03\", name: \"x\"}) { userErrors { field code message } } }",
        json!({}),
    )
    .await;
    assert_eq!(
        answer["data"]["resourceCreate"]["userErrors"],
        json!([{"field": "workCenterId", "code": "NOT_FOUND", "message": "Work center not found"}])
    );
}

#[tokio::test]
async fn a_resource_with_open_operations_is_not_deleted() {
    let app = app().await;
    let t = admin(&app).await;
    let wash = work_center(&app, &t, "WASH").await;
    let ws = resource(&app, &t, wash, "WS-01").await["id"]
        .as_i64()
        .expect("id");
    let op = booked_operation(&app, &t, "BRACKET", wash, ("resource_id", ws), 60, 80).await;
    let before = table_json(&app, "resources").await;

    let path = format!("/api/v1/work-centers/resources/{ws}");
    let res = call(&app, Method::DELETE, &path, None, &t).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text());
    assert_eq!(
        res.json()["detail"],
        format!(
            "Resource WS-01 has 1 operation(s) booked that are not complete ({op}); move or finish them first"
        )
    );
    assert_eq!(table_json(&app, "resources").await, before);

    // Once the operation is done the resource goes; the operation keeps its history.
    app.scalar(&format!(
        "UPDATE production_order_operations SET status = 'complete' WHERE id = {op} RETURNING id"
    ))
    .await;
    let res = call(&app, Method::DELETE, &path, None, &t).await;
    assert_eq!(res.status, StatusCode::NO_CONTENT, "{}", res.text());
    assert_eq!(
        app.scalar(&format!(
            "SELECT count(*) FROM production_order_operations WHERE id = {op} AND resource_id IS NULL"
        ))
        .await,
        1
    );
}

#[tokio::test]
async fn working_hours_and_their_calendars() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let wc = work_center(&app, &op, "FDM").await;
    let hours = format!("/api/v1/work-centers/{wc}/hours");

    let fresh = ok(&app, &op, Method::GET, &hours, None).await;
    assert_eq!(
        fresh,
        json!({"work_center_id": wc, "always_open": true, "weekly": [], "exceptions": []})
    );

    weekly_hours(&app, &op, &hours).await;
    let christmas = hours_exceptions(&app, &op, &hours).await;
    calendars_of(&app, &op, wc).await;

    // Delete an exception: 204, then 404. An empty week is open around the clock again.
    let path = format!("/api/v1/work-centers/hours/exceptions/{christmas}");
    let res = call(&app, Method::DELETE, &path, None, &op).await;
    assert_eq!(res.status, StatusCode::NO_CONTENT, "{}", res.text());
    let res = call(&app, Method::DELETE, &path, None, &op).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(res.json(), json!({"detail": "Hours exception not found"}));
    let open = ok(&app, &op, Method::PUT, &hours, Some(json!({"periods": []}))).await;
    assert_eq!(open["always_open"], true);
    assert_eq!(open["weekly"], json!([]));

    // A work center that does not exist.
    for (method, path, body) in [
        (Method::GET, "/api/v1/work-centers/999999/hours", None),
        (
            Method::PUT,
            "/api/v1/work-centers/999999/hours",
            Some(json!({"periods": []})),
        ),
        (
            Method::POST,
            "/api/v1/work-centers/999999/hours/exceptions",
            Some(json!({"day": "2026-12-25"})),
        ),
    ] {
        let res = call(&app, method.clone(), path, body, &op).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{method} {path}");
        assert_eq!(res.json(), json!({"detail": "Work center not found"}));
    }
}

/// A week set in any order answers sorted; refused weeks change nothing and name the
/// period at fault.
async fn weekly_hours(app: &TestApp, op: &str, hours: &str) {
    // The week, given in any order, answers sorted.
    let set = ok(
        app,
        op,
        Method::PUT,
        hours,
        Some(json!({"periods": [
            {"weekday": 0, "opens_minute": 780, "closes_minute": 1020},
            {"weekday": 0, "opens_minute": 480, "closes_minute": 720},
            {"weekday": 4, "opens_minute": 480, "closes_minute": 960},
            {"weekday": 5, "opens_minute": 720, "closes_minute": 1440}
        ]})),
    )
    .await;
    assert_eq!(set["always_open"], false);
    assert_eq!(
        set["weekly"],
        json!([
            {"weekday": 0, "opens_minute": 480, "closes_minute": 720},
            {"weekday": 0, "opens_minute": 780, "closes_minute": 1020},
            {"weekday": 4, "opens_minute": 480, "closes_minute": 960},
            {"weekday": 5, "opens_minute": 720, "closes_minute": 1440}
        ])
    );
    let stored = table_json(app, "work_center_hours").await;

    // Refused weeks change nothing and name the period at fault.
    for (periods, field, message) in [
        (
            json!([{"weekday": 1, "opens_minute": 480, "closes_minute": 720}, {"weekday": 1, "opens_minute": 700, "closes_minute": 800}]),
            "periods.1.opens_minute",
            "Overlaps another period of the same day",
        ),
        (
            json!([{"weekday": 1, "opens_minute": 720, "closes_minute": 720}]),
            "periods.0.closes_minute",
            "Must be after opensMinute",
        ),
        (
            json!([{"weekday": 1, "opens_minute": 0, "closes_minute": 1441}]),
            "periods.0.closes_minute",
            "Input should be between 1 and 1440",
        ),
        (
            json!([{"weekday": 1, "opens_minute": -1, "closes_minute": 60}]),
            "periods.0.opens_minute",
            "Input should be between 0 and 1439",
        ),
        (
            json!([{"weekday": 7, "opens_minute": 0, "closes_minute": 60}]),
            "periods.0.weekday",
            "Input should be between 0 (Monday) and 6 (Sunday)",
        ),
    ] {
        let res = call(
            app,
            Method::PUT,
            hours,
            Some(json!({"periods": periods})),
            op,
        )
        .await;
        let errors = field_errors(&res);
        assert!(
            errors.iter().any(|(f, m)| f == field && m == message),
            "{periods}: {errors:?}"
        );
    }
    let res = call(app, Method::PUT, hours, Some(json!({})), op).await;
    assert_eq!(
        field_errors(&res)[0],
        ("periods".into(), "Field required".into())
    );
    assert_eq!(table_json(app, "work_center_hours").await, stored);
}

/// Exceptions: a closed day, a short day, and what a day's exceptions refuse. Answers the
/// closed day's id.
async fn hours_exceptions(app: &TestApp, op: &str, hours: &str) -> i64 {
    // Exceptions: a closed day, a short day, and what a day's exceptions refuse.
    let exceptions = format!("{hours}/exceptions");
    let res = call(
        app,
        Method::POST,
        &exceptions,
        Some(json!({"day": "2026-12-25", "reason": "Christmas"})),
        op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let christmas = res.json();
    assert_eq!(
        keys(&christmas),
        [
            "id",
            "work_center_id",
            "day",
            "opens_minute",
            "closes_minute",
            "reason"
        ]
    );
    assert_eq!(christmas["opens_minute"], Value::Null);
    let short = ok(
        app,
        op,
        Method::POST,
        &exceptions,
        Some(json!({"day": "2026-12-24", "opens_minute": 480, "closes_minute": 720})),
    )
    .await;
    assert_eq!(short["closes_minute"], 720);
    ok(
        app,
        op,
        Method::POST,
        &exceptions,
        Some(
            json!({"day": "2026-12-24", "opens_minute": 720, "closes_minute": 780, "reason": null}),
        ),
    )
    .await;
    let stored_exceptions = table_json(app, "work_center_exceptions").await;
    for (body, status, detail) in [
        (
            json!({"day": "2026-12-25", "opens_minute": 480, "closes_minute": 600}),
            StatusCode::BAD_REQUEST,
            "2026-12-25 is closed all day; delete that exception first",
        ),
        (
            json!({"day": "2026-12-24"}),
            StatusCode::BAD_REQUEST,
            "2026-12-24 already has its own hours; delete them first to close the day",
        ),
        (
            json!({"day": "2026-12-24", "opens_minute": 600, "closes_minute": 900}),
            StatusCode::BAD_REQUEST,
            "Overlaps the hours already set for 2026-12-24",
        ),
    ] {
        let res = call(app, Method::POST, &exceptions, Some(body.clone()), op).await;
        assert_eq!(res.status, status, "{body}: {}", res.text());
        assert_eq!(res.json()["detail"], detail, "{body}");
    }
    for (body, field) in [
        (
            json!({"day": "2026-12-26", "opens_minute": 480}),
            "closes_minute",
        ),
        (
            json!({"day": "2026-12-26", "opens_minute": 600, "closes_minute": 480}),
            "closes_minute",
        ),
        (
            json!({"day": "2026-12-26", "reason": "r".repeat(256)}),
            "reason",
        ),
        (json!({"day": "26/12/2026"}), "day"),
    ] {
        let res = call(app, Method::POST, &exceptions, Some(body.clone()), op).await;
        let errors = field_errors(&res);
        assert!(errors.iter().any(|(f, _)| f == field), "{body}: {errors:?}");
    }
    assert_eq!(
        table_json(app, "work_center_exceptions").await,
        stored_exceptions
    );
    let all = ok(app, op, Method::GET, hours, None).await;
    let days: Vec<(&str, Value)> = all["exceptions"]
        .as_array()
        .expect("exceptions")
        .iter()
        .map(|e| {
            (
                e["day"].as_str().unwrap_or_default(),
                e["opens_minute"].clone(),
            )
        })
        .collect();
    assert_eq!(
        days,
        [
            ("2026-12-24", json!(480)),
            ("2026-12-24", json!(720)),
            ("2026-12-25", Value::Null)
        ]
    );
    christmas["id"].as_i64().expect("id")
}

/// The engine's calendars built from the stored hours, as the scheduler reads them.
async fn calendars_of(app: &TestApp, op: &str, wc: i64) {
    use chrono::NaiveDate;
    // The engine's calendars, as the scheduler reads them.
    let mut conn = app.db.connect().await;
    let other = work_center(app, op, "QC").await;
    let calendars = strata::operations::scheduling::hours::calendars(&mut conn, &[wc, other])
        .await
        .expect("calendars");
    let day = |d: u32| NaiveDate::from_ymd_opt(2026, 12, d).expect("date");
    let fdm = &calendars[&wc];
    assert_eq!(
        fdm.periods_on(day(7)),
        [(480, 720), (780, 1020)],
        "a Monday"
    );
    assert!(fdm.periods_on(day(8)).is_empty(), "Tuesdays are closed");
    assert_eq!(
        fdm.periods_on(day(24)),
        [(480, 780)],
        "touching periods merge"
    );
    assert!(
        fdm.periods_on(day(25)).is_empty(),
        "closed on Christmas (a Friday)"
    );
    assert_eq!(fdm.periods_on(day(26)), [(720, 1440)], "a Saturday");
    assert!(
        calendars[&other].weekly.is_none(),
        "no hours: open around the clock"
    );
}

#[tokio::test]
async fn material_types_say_what_they_need_of_a_printer() {
    let app = app().await;
    let t = admin(&app).await;
    let create = "mutation($input: MaterialTypeCreateInput!) { materialTypeCreate(input: $input) { materialType { id code requiresEnclosure nozzleTempC bedTempC } userErrors { field code message } } }";
    let made = gql(
        &app,
        &t,
        create,
        json!({"input": {"code": " asa ", "name": "ASA", "requiresEnclosure": true, "nozzleTempC": 260, "bedTempC": 100}}),
    )
    .await;
    let asa = &made["data"]["materialTypeCreate"]["materialType"];
    assert_eq!(asa["code"], "ASA", "{made}");
    assert_eq!(asa["requiresEnclosure"], true);
    assert_eq!(
        (asa["nozzleTempC"].clone(), asa["bedTempC"].clone()),
        (json!(260), json!(100))
    );
    let id = asa["id"].as_i64().expect("id");

    for (input, field) in [
        (
            json!({"code": "PC", "name": "PC", "nozzleTempC": 501}),
            "nozzleTempC",
        ),
        (
            json!({"code": "PC", "name": "PC", "nozzleTempC": 99}),
            "nozzleTempC",
        ),
        (
            json!({"code": "PC", "name": "PC", "bedTempC": 201}),
            "bedTempC",
        ),
        (
            json!({"code": "PC", "name": "PC", "bedTempC": -1}),
            "bedTempC",
        ),
        (json!({"code": "asa", "name": "Again"}), "code"),
    ] {
        let answer = gql(&app, &t, create, json!({"input": input})).await;
        let errors = &answer["data"]["materialTypeCreate"]["userErrors"];
        assert_eq!(errors[0]["field"], field, "{input}: {answer}");
    }
    let update = "mutation($id: Int!, $input: MaterialTypeUpdateInput!) { materialTypeUpdate(id: $id, input: $input) { materialType { code nozzleTempC bedTempC requiresEnclosure } userErrors { field message } } }";
    let changed = gql(
        &app,
        &t,
        update,
        json!({"id": id, "input": {"nozzleTempC": null, "bedTempC": 90}}),
    )
    .await;
    assert_eq!(
        changed["data"]["materialTypeUpdate"]["materialType"],
        json!({"code": "ASA", "nozzleTempC": null, "bedTempC": 90, "requiresEnclosure": true})
    );
    let refused = gql(
        &app,
        &t,
        update,
        json!({"id": id, "input": {"bedTempC": 250}}),
    )
    .await;
    assert_eq!(
        refused["data"]["materialTypeUpdate"]["userErrors"],
        json!([{"field": "bedTempC", "message": "Input should be between 0 and 200"}])
    );
    let listed = gql(
        &app,
        &t,
        "{ materialTypes { code requiresEnclosure bedTempC } }",
        json!({}),
    )
    .await;
    assert_eq!(
        listed["data"]["materialTypes"],
        json!([{"code": "ASA", "requiresEnclosure": true, "bedTempC": 90}])
    );
    // Material types are for admins.
    let op = operator(&app, &t).await;
    let denied = gql(
        &app,
        &op,
        create,
        json!({"input": {"code": "PETG", "name": "PETG"}}),
    )
    .await;
    assert_eq!(
        denied["errors"][0]["extensions"]["code"], "FORBIDDEN",
        "{denied}"
    );
}
