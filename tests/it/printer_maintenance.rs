//! Printer maintenance logs through REST (the original's `/maintenance/` routes; any
//! signed-in user, like printers): create with 201 + Location and an Idempotency-Key, the
//! list with filters and pages, a printer's history, one log, change and delete, every
//! refusal with the table unchanged, what is due (overdue and upcoming), and who may call.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use chrono::{Duration, SecondsFormat, Utc};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, operator};

async fn table(app: &TestApp) -> String {
    crate::common::api::table_json(app, "printer_maintenance").await
}

async fn printer(app: &TestApp, t: &str, code: &str) -> i64 {
    let res = call(
        app,
        Method::POST,
        "/api/v1/printers/",
        Some(json!({"code": code, "name": format!("Printer {code}"), "model": "MK4", "brand": "prusa"})),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()["id"].as_i64().expect("id")
}

/// An instant `days` from now (negative: in the past), as the API writes it.
fn ago(days: i64, hours: i64) -> String {
    (Utc::now() + Duration::days(days) + Duration::hours(hours))
        .to_rfc3339_opts(SecondsFormat::Secs, true)
}

async fn log(app: &TestApp, t: &str, printer: i64, body: Value) -> Value {
    let res = call(
        app,
        Method::POST,
        &format!("/api/v1/maintenance/printers/{printer}/maintenance"),
        Some(body),
        t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()
}

fn ids(page: &Value) -> Vec<i64> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|l| l["id"].as_i64())
        .collect()
}

#[tokio::test]
async fn maintenance_logs_through_rest() {
    let app = app().await;
    let t = admin(&app).await;
    // Any signed-in user keeps the logs, as with printers: the operator does it here.
    let op = operator(&app, &t).await;
    let mk4 = printer(&app, &op, "PRT-001").await;
    let x1 = printer(&app, &op, "PRT-002").await;

    let empty = call(&app, Method::GET, "/api/v1/maintenance/", None, &op).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text());
    assert_eq!(
        empty.json(),
        json!({"items": [], "total": 0, "page": 1, "page_size": 50, "total_pages": 1})
    );

    // Create: 201, Location, the shape, defaults (performed now, by the recording user).
    let res = call(
        &app,
        Method::POST,
        &format!("/api/v1/maintenance/printers/{mk4}/maintenance"),
        Some(json!({
            "maintenance_type": "nozzle_change", "description": "  0.4 mm hardened steel nozzle ",
            "cost": "24.90", "downtime_minutes": 20, "parts_used": "Nozzle 0.4 HS",
            "next_due_at": ago(90, 0)
        })),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let first = res.json();
    let first_id = first["id"].as_i64().expect("id");
    assert_eq!(
        res.header("location"),
        Some(format!("/api/v1/maintenance/{first_id}").as_str())
    );
    let keys: Vec<&str> = first
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "printer_id",
            "maintenance_type",
            "description",
            "performed_by",
            "performed_at",
            "next_due_at",
            "cost",
            "downtime_minutes",
            "parts_used",
            "notes",
            "created_by",
            "created_at",
            "updated_at",
            "printer_code",
            "printer_name"
        ]
    );
    assert_eq!(first["printer_id"], mk4);
    assert_eq!(first["printer_code"], "PRT-001");
    assert_eq!(first["printer_name"], "Printer PRT-001");
    assert_eq!(first["maintenance_type"], "nozzle_change");
    assert_eq!(first["description"], "0.4 mm hardened steel nozzle");
    assert_eq!(first["performed_by"], "op@example.com");
    assert_eq!(first["cost"], "24.90");
    assert_eq!(first["downtime_minutes"], 20);
    assert_eq!(first["notes"], Value::Null);
    assert!(
        first["performed_at"]
            .as_str()
            .unwrap_or_default()
            .ends_with('Z')
    );

    let older = log(
        &app,
        &t,
        mk4,
        json!({"maintenance_type": "cleaning", "description": "Bed wash", "performed_by": "Sam", "performed_at": ago(-20, 0)}),
    )
    .await;
    assert_eq!(older["performed_by"], "Sam");
    let calibration = log(
        &app,
        &t,
        x1,
        json!({"maintenance_type": "calibration", "description": "Flow and PA", "performed_at": ago(-5, 0)}),
    )
    .await;
    let older_id = older["id"].as_i64().expect("id");
    let cal_id = calibration["id"].as_i64().expect("id");

    // The list: newest first; filters; pages; both trailing-slash spellings.
    let all = call(&app, Method::GET, "/api/v1/maintenance", None, &op).await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.text());
    let all = all.json();
    assert_eq!(ids(&all), [first_id, cal_id, older_id]);
    assert_eq!(all["total"], 3);
    for (query, want) in [
        (format!("printer_id={mk4}"), vec![first_id, older_id]),
        ("maintenance_type=calibration".to_string(), vec![cal_id]),
        (
            format!(
                "start_date={}",
                (Utc::now() - Duration::days(6)).format("%Y-%m-%d")
            ),
            vec![first_id, cal_id],
        ),
        (
            format!(
                "end_date={}",
                (Utc::now() - Duration::days(10)).format("%Y-%m-%d")
            ),
            vec![older_id],
        ),
        (format!("printer_id={x1}&maintenance_type=cleaning"), vec![]),
    ] {
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/maintenance/?{query}"),
            None,
            &op,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{query}: {}", res.text());
        assert_eq!(ids(&res.json()), want, "{query}");
    }
    let page2 = call(
        &app,
        Method::GET,
        "/api/v1/maintenance/?page=2&page_size=2",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(ids(&page2), [older_id]);
    assert_eq!(
        (&page2["page"], &page2["page_size"], &page2["total_pages"]),
        (&json!(2), &json!(2), &json!(2))
    );

    // A printer's history.
    let history = call(
        &app,
        Method::GET,
        &format!("/api/v1/maintenance/printers/{mk4}/maintenance"),
        None,
        &op,
    )
    .await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.text());
    assert_eq!(ids(&history.json()), [first_id, older_id]);

    // One log; a change (omitted keeps, null clears); delete.
    let one = call(
        &app,
        Method::GET,
        &format!("/api/v1/maintenance/{first_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text());
    assert_eq!(one.json(), first);
    let changed = call(
        &app,
        Method::PUT,
        &format!("/api/v1/maintenance/{first_id}"),
        Some(
            json!({"notes": "Checked after 10 prints", "cost": null, "maintenance_type": "repair"}),
        ),
        &op,
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    let changed = changed.json();
    assert_eq!(changed["notes"], "Checked after 10 prints");
    assert_eq!(changed["cost"], Value::Null);
    assert_eq!(changed["maintenance_type"], "repair");
    assert_eq!(changed["description"], first["description"]);
    assert_eq!(changed["next_due_at"], first["next_due_at"]);

    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/maintenance/{older_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.json(), json!({"message": "Maintenance log deleted"}));
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/maintenance/{older_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(res.json(), json!({"detail": "Maintenance log not found"}));
}

#[tokio::test]
async fn refused_maintenance_requests_change_nothing() {
    let app = app().await;
    let t = admin(&app).await;
    let mk4 = printer(&app, &t, "PRT-001").await;
    let existing = log(
        &app,
        &t,
        mk4,
        json!({"maintenance_type": "routine", "description": "Rods", "performed_at": ago(-10, 0), "next_due_at": ago(-2, 0)}),
    )
    .await;
    let id = existing["id"].as_i64().expect("id");
    let before = table(&app).await;

    let create = format!("/api/v1/maintenance/printers/{mk4}/maintenance");
    let base = || json!({"maintenance_type": "cleaning", "description": "Bed"});
    let with = |k: &str, v: Value| {
        let mut b = base();
        b[k] = v;
        b
    };
    let cases: Vec<(Method, String, Option<Value>, StatusCode, &str)> = vec![
        (
            Method::POST,
            create.clone(),
            Some(with("performed_at", json!(ago(0, 1)))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "performed_at",
        ),
        (
            Method::POST,
            create.clone(),
            Some(
                json!({"maintenance_type": "cleaning", "description": "Bed", "performed_at": ago(-1, 0), "next_due_at": ago(-2, 0)}),
            ),
            StatusCode::UNPROCESSABLE_ENTITY,
            "next_due_at",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("cost", json!("-0.01"))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "cost",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("cost", json!("1.001"))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "2 decimal places",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("downtime_minutes", json!(-1))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "downtime_minutes",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("description", json!("d".repeat(1001)))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 1000",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("description", json!("   "))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "description",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("performed_by", json!("p".repeat(101)))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "performed_by",
        ),
        (
            Method::POST,
            create.clone(),
            Some(json!({"maintenance_type": "cleaning"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "description",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("maintenance_type", json!("polishing"))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "maintenance_type",
        ),
        (
            Method::POST,
            create.clone(),
            Some(with("performed_at", json!("yesterday"))),
            StatusCode::UNPROCESSABLE_ENTITY,
            "performed_at",
        ),
        (
            Method::POST,
            "/api/v1/maintenance/printers/999999/maintenance".into(),
            Some(base()),
            StatusCode::NOT_FOUND,
            "Printer not found",
        ),
        (
            Method::GET,
            "/api/v1/maintenance/printers/999999/maintenance".into(),
            None,
            StatusCode::NOT_FOUND,
            "Printer not found",
        ),
        (
            Method::PUT,
            format!("/api/v1/maintenance/{id}"),
            Some(json!({"performed_at": ago(-1, 0)})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "performed_at",
        ),
        (
            Method::PUT,
            format!("/api/v1/maintenance/{id}"),
            Some(json!({"description": ""})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "description",
        ),
        (
            Method::PUT,
            "/api/v1/maintenance/999999".into(),
            Some(json!({"notes": "x"})),
            StatusCode::NOT_FOUND,
            "Maintenance log not found",
        ),
        (
            Method::DELETE,
            "/api/v1/maintenance/999999".into(),
            None,
            StatusCode::NOT_FOUND,
            "Maintenance log not found",
        ),
        (
            Method::GET,
            "/api/v1/maintenance/999999".into(),
            None,
            StatusCode::NOT_FOUND,
            "Maintenance log not found",
        ),
        (
            Method::GET,
            "/api/v1/maintenance/due?days_ahead=-1".into(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "days_ahead",
        ),
        (
            Method::GET,
            "/api/v1/maintenance/?page=0".into(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "page",
        ),
        (
            Method::GET,
            "/api/v1/maintenance/?start_date=2026-02-01&end_date=2026-01-01".into(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "end_date",
        ),
        (
            Method::GET,
            "/api/v1/maintenance/?maintenance_type=polishing".into(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "maintenance_type",
        ),
    ];
    for (method, path, body, status, needle) in cases {
        let res = call(&app, method.clone(), &path, body.clone(), &t).await;
        assert_eq!(
            res.status,
            status,
            "{method} {path} {body:?} -> {}",
            res.text()
        );
        assert!(
            res.text().contains(needle),
            "{method} {path} {body:?} -> {}",
            res.text()
        );
    }
    assert_eq!(table(&app).await, before);
}

#[tokio::test]
async fn due_lists_overdue_and_upcoming_printers_by_their_latest_log() {
    let app = app().await;
    let t = admin(&app).await;
    let late = printer(&app, &t, "LATE").await;
    let soon = printer(&app, &t, "SOON").await;
    let far = printer(&app, &t, "FAR").await;
    let redone = printer(&app, &t, "REDONE").await;
    let retired = printer(&app, &t, "RETIRED").await;
    let never = printer(&app, &t, "NEVER").await;
    let _ = never;
    let body = |performed: String, due: Option<String>| json!({"maintenance_type": "routine", "description": "Service", "performed_at": performed, "next_due_at": due});
    log(&app, &t, late, body(ago(-30, 0), Some(ago(-3, -1)))).await;
    log(&app, &t, soon, body(ago(-30, 0), Some(ago(2, 1)))).await;
    log(&app, &t, far, body(ago(-30, 0), Some(ago(10, -1)))).await;
    // An overdue log followed by a newer one that is not due: the newest decides.
    log(&app, &t, redone, body(ago(-60, 0), Some(ago(-20, 0)))).await;
    log(&app, &t, redone, body(ago(-1, 0), Some(ago(60, 0)))).await;
    // A deactivated printer is not due for anything.
    log(&app, &t, retired, body(ago(-30, 0), Some(ago(-5, 0)))).await;
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/printers/{retired}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());

    let res = call(&app, Method::GET, "/api/v1/maintenance/due", None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let due = res.json();
    let rows: Vec<(String, i64, bool)> = due["printers"]
        .as_array()
        .expect("printers")
        .iter()
        .map(|p| {
            (
                p["printer_code"].as_str().unwrap_or_default().to_string(),
                p["days_overdue"].as_i64().unwrap_or(i64::MIN),
                p["overdue"].as_bool().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("LATE".to_string(), 3, true),
            ("SOON".to_string(), -2, false)
        ]
    );
    assert_eq!(
        (
            &due["total_overdue"],
            &due["total_due_soon"],
            &due["days_ahead"]
        ),
        (&json!(1), &json!(1), &json!(7))
    );
    let first = &due["printers"][0];
    assert_eq!(first["printer_id"], late);
    assert_eq!(first["printer_name"], "Printer LATE");
    assert_eq!(first["last_maintenance_type"], "routine");
    assert!(first["last_maintenance_at"].is_string());
    assert!(first["next_due_at"].is_string());

    let wider = call(
        &app,
        Method::GET,
        "/api/v1/maintenance/due?days_ahead=10",
        None,
        &t,
    )
    .await
    .json();
    let codes: Vec<&str> = wider["printers"]
        .as_array()
        .expect("printers")
        .iter()
        .filter_map(|p| p["printer_code"].as_str())
        .collect();
    assert_eq!(codes, ["LATE", "SOON", "FAR"]);
    let none = call(
        &app,
        Method::GET,
        "/api/v1/maintenance/due/?days_ahead=0",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(none["printers"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn a_repeated_create_with_the_same_idempotency_key_logs_once() {
    let app = app().await;
    let t = admin(&app).await;
    let mk4 = printer(&app, &t, "PRT-001").await;
    let body = json!({"maintenance_type": "belt_tension", "description": "X and Y belts"});
    let keyed = |body: &Value, key: &str| {
        Request::builder()
            .method(Method::POST)
            .uri(format!("/api/v1/maintenance/printers/{mk4}/maintenance"))
            .header("authorization", format!("Bearer {t}"))
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(Body::from(body.to_string()))
            .expect("request")
    };
    let first = app.request(keyed(&body, "belts-1")).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text());
    let again = app.request(keyed(&body, "belts-1")).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(first.json(), again.json());
    let other = app
        .request(keyed(
            &json!({"maintenance_type": "belt_tension", "description": "Z belt"}),
            "belts-1",
        ))
        .await;
    assert_eq!(
        other.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        other.text()
    );
    let list = call(&app, Method::GET, "/api/v1/maintenance/", None, &t)
        .await
        .json();
    assert_eq!(list["total"], 1);
    let next = app.request(keyed(&body, "belts-2")).await;
    assert_eq!(next.status, StatusCode::CREATED, "{}", next.text());
}

#[tokio::test]
async fn maintenance_needs_a_signed_in_user_and_operators_may_write() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let mk4 = printer(&app, &t, "PRT-001").await;
    let created = log(
        &app,
        &op,
        mk4,
        json!({"maintenance_type": "firmware_update", "description": "4.7.1"}),
    )
    .await;
    let id = created["id"].as_i64().expect("id");
    let before = table(&app).await;
    for (method, path, body) in [
        (Method::GET, "/api/v1/maintenance/".to_string(), None),
        (Method::GET, "/api/v1/maintenance/due".to_string(), None),
        (
            Method::GET,
            format!("/api/v1/maintenance/printers/{mk4}/maintenance"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/maintenance/printers/{mk4}/maintenance"),
            Some(json!({"maintenance_type": "other", "description": "x"})),
        ),
        (Method::GET, format!("/api/v1/maintenance/{id}"), None),
        (
            Method::PUT,
            format!("/api/v1/maintenance/{id}"),
            Some(json!({"notes": "x"})),
        ),
        (Method::DELETE, format!("/api/v1/maintenance/{id}"), None),
    ] {
        let mut b = Request::builder().method(method.clone()).uri(&path);
        if body.is_some() {
            b = b.header("content-type", "application/json");
        }
        let anon = app
            .request(
                b.body(Body::from(body.map(|v| v.to_string()).unwrap_or_default()))
                    .expect("request"),
            )
            .await;
        assert_eq!(anon.status, StatusCode::UNAUTHORIZED, "{method} {path}");
    }
    assert_eq!(table(&app).await, before);
    // The operator changes and deletes what an admin could.
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/maintenance/{id}"),
        Some(json!({"notes": "Done by the operator"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/maintenance/{id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
}
