//! The shop schedule through REST (issue 32): auto-scheduling the whole shop books each
//! print on a printer that can run its material, in routing order, never over another
//! booking, a maintenance window or outside working hours; moves through FilaOps's
//! reschedule route are refused with the reason and the next free slot (a conflict, an
//! incompatible printer, maintenance, overtaking a later step) and leave the database as it
//! was; the board, capacity and dispatch routes answer FilaOps's shapes. A property test
//! makes random moves through the API and checks the same invariants in the database.

use axum::http::{Method, StatusCode};
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, item, ok, table_json};
use crate::common::books::exec;

struct Shop {
    enclosed: i64,
    open: i64,
    qc_station: i64,
    widget: i64,
}

/// An FDM pool with an enclosed X1 Carbon and an open A1 mini, a QC bench with one
/// station, and a widget printed in ABS (which needs an enclosure) then inspected.
async fn shop(app: &TestApp, t: &str) -> Shop {
    let pool = ok(
        app,
        t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": "FDM", "name": "FDM pool", "center_type": "printer_pool"})),
    )
    .await;
    let qc = ok(
        app,
        t,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": "QC", "name": "QC bench", "center_type": "qc"})),
    )
    .await;
    let printer = |code: &str, model: &str| json!({"code": code, "name": code, "model": model, "work_center_id": pool["id"], "status": "idle"});
    let enclosed = ok(
        app,
        t,
        Method::POST,
        "/api/v1/printers/",
        Some(printer("PRT-X1C", "X1 Carbon")),
    )
    .await["id"]
        .as_i64()
        .expect("id");
    let open = ok(
        app,
        t,
        Method::POST,
        "/api/v1/printers/",
        Some(printer("PRT-A1M", "A1 mini")),
    )
    .await["id"]
        .as_i64()
        .expect("id");
    let qc_station = ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/work-centers/{}/resources", qc["id"]),
        Some(json!({"code": "QC-1", "name": "Inspection station"})),
    )
    .await["id"]
        .as_i64()
        .expect("resource");
    let abs = item("ABS-BLK").kind("material").create(app, t).await;
    exec(app, &format!(
        "INSERT INTO material_types (code, name, requires_enclosure) VALUES ('ABS_T', 'ABS', TRUE); \
         INSERT INTO colors (code, name) VALUES ('BLK_T', 'Black'); \
         INSERT INTO material_colors (material_type_id, color_id, item_id) \
         SELECT m.id, c.id, {abs} FROM material_types m, colors c WHERE m.code = 'ABS_T' AND c.code = 'BLK_T'"
    ))
    .await;
    let widget = item("WIDGET").price(Some("20")).create(app, t).await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/admin/bom/",
        Some(json!({"product_id": widget, "lines": [{"component_id": abs, "quantity": "1"}]})),
    )
    .await;
    ok(
        app,
        t,
        Method::POST,
        "/api/v1/routings/",
        Some(json!({"product_id": widget, "operations": [
            {"operation_code": "print", "operation_name": "Print", "work_center_id": pool["id"], "setup_minutes": "10", "run_minutes": "30"},
            {"operation_code": "qc", "operation_name": "Inspect", "work_center_id": qc["id"], "run_minutes": "5"}
        ]})),
    )
    .await;
    Shop {
        enclosed,
        open,
        qc_station,
        widget,
    }
}

/// A released order of the widget with its operations, in routing order.
async fn order(app: &TestApp, t: &str, shop: &Shop, qty: &str) -> (i64, Vec<i64>) {
    let (id, _) = crate::common::api::released_order(app, t, shop.widget, qty).await;
    let ops = ok(
        app,
        t,
        Method::GET,
        &format!("/api/v1/production-orders/{id}"),
        None,
    )
    .await["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .map(|o| o["id"].as_i64().expect("op"))
        .collect();
    (id, ops)
}

fn at(v: &Value) -> DateTime<Utc> {
    v.as_str().expect("timestamp").parse().expect("rfc3339")
}

fn lane_of<'a>(board: &'a Value, key: &str) -> &'a Value {
    board["lanes"]
        .as_array()
        .expect("lanes")
        .iter()
        .find(|l| l["key"] == key)
        .expect("lane")
}

/// Every booking in the database keeps the rules: no two on one machine overlap, none
/// overlaps a blocking maintenance window, each step starts after the one before it ends,
/// and no ABS print is on the open printer.
async fn assert_invariants(app: &TestApp, shop: &Shop) {
    let overlaps = app
        .scalar(
            "SELECT count(*) FROM production_order_operations a JOIN production_order_operations b \
             ON a.id < b.id AND (a.printer_id = b.printer_id OR a.resource_id = b.resource_id) \
             AND a.scheduled_start < b.scheduled_end AND b.scheduled_start < a.scheduled_end \
             WHERE a.status NOT IN ('complete', 'skipped') AND b.status NOT IN ('complete', 'skipped')",
        )
        .await;
    assert_eq!(overlaps, 0, "double booking");
    let in_maintenance = app
        .scalar(
            "SELECT count(*) FROM production_order_operations o JOIN maintenance_windows w \
             ON (w.printer_id = o.printer_id OR w.resource_id = o.resource_id) \
             AND o.scheduled_start < w.ends_at AND w.starts_at < o.scheduled_end \
             WHERE w.status IN ('scheduled', 'in_progress')",
        )
        .await;
    assert_eq!(in_maintenance, 0, "booked over maintenance");
    let out_of_order = app
        .scalar(
            "SELECT count(*) FROM production_order_operations a JOIN production_order_operations b \
             ON a.production_order_id = b.production_order_id AND a.sequence < b.sequence \
             WHERE b.scheduled_start IS NOT NULL AND (a.scheduled_end IS NULL OR b.scheduled_start < a.scheduled_end)",
        )
        .await;
    assert_eq!(out_of_order, 0, "a step before its predecessor");
    let wrong_printer = app
        .scalar(&format!(
            "SELECT count(*) FROM production_order_operations WHERE printer_id = {}",
            shop.open
        ))
        .await;
    assert_eq!(wrong_printer, 0, "ABS on an open printer");
}

#[tokio::test]
async fn auto_schedule_books_the_shop_and_moves_are_refused_with_reasons() {
    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    let (first, first_ops) = order(&app, &t, &s, "2").await;
    let (_second, second_ops) = order(&app, &t, &s, "1").await;

    let start = urlencode(&(Utc::now() - Duration::hours(1)));
    let end = urlencode(&(Utc::now() + Duration::days(14)));
    let board = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/scheduling/board?start_date={start}&end_date={end}"),
        None,
    )
    .await;
    assert_eq!(
        board["unscheduled"].as_array().map(Vec::len),
        Some(2),
        "{board}"
    );
    assert_eq!(board["unscheduled"][0]["unscheduled_operation_count"], 2);

    let done = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/scheduling/auto-schedule",
        None,
    )
    .await;
    assert_eq!(done["scheduled_operations"], 4, "{done}");
    assert_eq!(done["late_orders"], 0);
    assert_invariants(&app, &s).await;

    let board = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/scheduling/board?start_date={start}&end_date={end}"),
        None,
    )
    .await;
    assert_eq!(board["unscheduled"].as_array().map(Vec::len), Some(0));
    let x1c = lane_of(&board, &format!("printer-{}", s.enclosed));
    assert_eq!(
        x1c["operations"].as_array().map(Vec::len),
        Some(2),
        "both ABS prints on the enclosed printer: {board}"
    );
    assert!(x1c["utilization_percent"].as_f64().expect("pct") > 0.0);
    assert_eq!(
        lane_of(&board, &format!("printer-{}", s.open))["operations"]
            .as_array()
            .map(Vec::len),
        Some(0)
    );
    let station = lane_of(&board, &format!("resource-{}", s.qc_station));
    assert_eq!(station["operations"].as_array().map(Vec::len), Some(2));

    let ops = |board: &Value, lane: &str| board_ops(board, lane);
    let x1c_ops = ops(&board, &format!("printer-{}", s.enclosed));
    let first_print = x1c_ops
        .iter()
        .find(|o| o["id"] == first_ops[0])
        .expect("first print")
        .clone();
    let second_print = x1c_ops
        .iter()
        .find(|o| o["id"] == second_ops[0])
        .expect("second print")
        .clone();
    // 10 minutes of set-up and 30 a unit: 70 minutes for two.
    assert_eq!(
        (at(&first_print["scheduled_end"]) - at(&first_print["scheduled_start"])).num_minutes(),
        70
    );

    let reschedule = |op: i64, order: i64, body: Value| {
        let app = &app;
        let t = &t;
        async move {
            ok(
                app,
                t,
                Method::POST,
                &format!("/api/v1/production-orders/{order}/operations/{op}/reschedule"),
                Some(body),
            )
            .await
        }
    };
    let second_order = second_print["production_order_id"].as_i64().expect("order");
    let before = table_json(&app, "production_order_operations").await;

    // Onto the first order's print: a conflict, with the next free slot.
    let refused = reschedule(
        second_ops[0],
        second_order,
        json!({"scheduled_start": first_print["scheduled_start"]}),
    )
    .await;
    assert_eq!(refused["success"], false, "{refused}");
    assert_eq!(refused["conflict_type"], "resource");
    assert_eq!(refused["conflicts"][0]["operation_id"], first_ops[0]);
    assert!(refused["next_available_start"].is_string());
    // Onto the open printer: ABS needs an enclosure.
    let refused = reschedule(
        second_ops[0],
        second_order,
        json!({"resource_id": s.open, "is_printer": true}),
    )
    .await;
    assert_eq!(refused["conflict_type"], "compatibility", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .expect("message")
            .contains("enclos"),
        "{refused}"
    );
    // Later than its inspection: it would overtake it.
    let later = at(&second_print["scheduled_end"]) + Duration::days(2);
    let refused = reschedule(
        second_ops[0],
        second_order,
        json!({"scheduled_start": later.to_rfc3339()}),
    )
    .await;
    assert_eq!(refused["conflict_type"], "successor", "{refused}");
    assert_eq!(
        refused["successor_conflicts"][0]["operation_id"],
        second_ops[1]
    );
    // Into a maintenance window of the enclosed printer.
    let window_start = later - Duration::hours(1);
    exec(&app, &format!(
        "INSERT INTO maintenance_windows (printer_id, starts_at, ends_at, reason) VALUES ({}, '{}', '{}', 'Nozzle swap')",
        s.enclosed, window_start.to_rfc3339(), (later + Duration::hours(3)).to_rfc3339()
    ))
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        &format!(
            "/api/v1/production-orders/{second_order}/operations/{}/unschedule",
            second_ops[1]
        ),
        None,
    )
    .await;
    let before_move = table_json(&app, "production_order_operations").await;
    let refused = reschedule(
        second_ops[0],
        second_order,
        json!({"scheduled_start": later.to_rfc3339()}),
    )
    .await;
    assert_eq!(refused["conflict_type"], "maintenance", "{refused}");
    assert!(at(&refused["next_available_start"]) >= later + Duration::hours(3));
    assert_eq!(
        table_json(&app, "production_order_operations").await,
        before_move
    );
    assert_ne!(before, before_move, "the unschedule changed the inspection");

    // A free time: accepted.
    let free = later + Duration::days(1);
    let moved = reschedule(
        second_ops[0],
        second_order,
        json!({"scheduled_start": free.to_rfc3339()}),
    )
    .await;
    assert_eq!(moved["success"], true, "{moved}");
    assert_eq!(at(&moved["scheduled_start"]), free);
    assert_eq!((at(&moved["scheduled_end"]) - free).num_minutes(), 40);
    assert_invariants(&app, &s).await;

    // Unknown operation, wrong order: FilaOps's 404s.
    let res = call(
        &app,
        Method::POST,
        &format!(
            "/api/v1/production-orders/{first}/operations/{}/reschedule",
            second_ops[0]
        ),
        Some(json!({"scheduled_start": free.to_rfc3339()})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert!(
        res.text().contains("does not belong to production order"),
        "{}",
        res.text()
    );
}

fn board_ops(board: &Value, lane: &str) -> Vec<Value> {
    lane_of(board, lane)["operations"]
        .as_array()
        .expect("ops")
        .clone()
}

#[tokio::test]
async fn capacity_slots_conflicts_next_available_and_dispatch_answer_filaops_shapes() {
    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    let (order_id, ops) = order(&app, &t, &s, "1").await;
    let start = crate::common::api::ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/production-orders/resources/next-available",
        Some(json!({"resource_id": s.enclosed, "is_printer": true, "duration_minutes": 40})),
    )
    .await;
    let from = at(&start["next_available"]);
    assert_eq!((at(&start["suggested_end"]) - from).num_minutes(), 40);

    // Dispatch the print to the open printer: refused (ABS); to the enclosed one: booked.
    let refused = call(
        &app,
        Method::POST,
        "/api/v1/dispatch/assign",
        Some(json!({"operation_id": ops[0], "printer_id": s.open})),
        &t,
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text());
    let assigned = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/dispatch/assign",
        Some(json!({"operation_id": ops[0], "printer_id": s.enclosed})),
    )
    .await;
    assert_eq!(assigned["operation_status"], "queued");
    assert_eq!(assigned["printer_code"], "PRT-X1C");
    let booked_from = at(&assigned["scheduled_start"]);
    let booked_to = at(&assigned["scheduled_end"]);

    let check = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/scheduling/capacity/check",
        Some(json!({
        "resource_id": s.enclosed, "is_printer": true,
        "start_time": booked_from.to_rfc3339(), "end_time": booked_to.to_rfc3339()})),
    )
    .await;
    assert_eq!(check["has_capacity"], false);
    assert_eq!(check["conflicts"][0]["type"], "operation");
    assert_eq!(check["conflicts"][0]["operation_id"], ops[0]);
    assert_eq!(check["conflicts"][0]["product_name"], "WIDGET item");
    let conflicts = ok(
        &app,
        &t,
        Method::GET,
        &format!(
            "/api/v1/scheduling/resource-conflicts?resource_id={}&is_printer=true&start={}&end={}",
            s.enclosed,
            urlencode(&booked_from),
            urlencode(&booked_to)
        ),
        None,
    )
    .await;
    assert_eq!(
        conflicts["conflicts"][0]["po_code"],
        conflicts["conflicts"][0]["production_order_code"]
    );
    let slots = ok(&app, &t, Method::GET, &format!(
        "/api/v1/scheduling/capacity/available-slots?resource_id={}&is_printer=true&start_date={}&end_date={}&duration_hours=1",
        s.enclosed, urlencode(&booked_from), urlencode(&(booked_from + Duration::days(1)))), None).await;
    assert_eq!(at(&slots[0]["start_time"]), booked_to, "{slots}");

    // One order auto-scheduled: FilaOps's answer, its inspection after its print.
    let one = ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/scheduling/auto-schedule?order_id={order_id}"),
        None,
    )
    .await;
    assert_eq!(one["order_id"], order_id);
    assert_eq!(one["resource_id"], s.qc_station);
    assert!(at(&one["scheduled_start"]) >= booked_to);
    // The inspection on the QC station: its schedule, what is in the way, its availability.
    let qc_from = at(&one["scheduled_start"]);
    let qc_to = at(&one["scheduled_end"]);
    let booked = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/resources/{}/schedule", s.qc_station),
        None,
    )
    .await;
    assert_eq!(booked["resource_code"], "QC-1");
    assert_eq!(booked["operations"][0]["operation_id"], ops[1], "{booked}");
    let window = format!("start={}&end={}", urlencode(&qc_from), urlencode(&qc_to));
    let busy = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/resources/{}/conflicts?{window}", s.qc_station),
        None,
    )
    .await;
    assert_eq!(busy["has_conflicts"], true);
    assert_eq!(busy["conflicts"][0]["operation_id"], ops[1]);
    let moving = ok(
        &app,
        &t,
        Method::GET,
        &format!(
            "/api/v1/resources/{}/conflicts?{window}&exclude_operation_id={}",
            s.qc_station, ops[1]
        ),
        None,
    )
    .await;
    assert_eq!(moving["has_conflicts"], false, "{moving}");
    let availability = ok(
        &app,
        &t,
        Method::GET,
        &format!(
            "/api/v1/scheduling/capacity/machine-availability?start_date={}&end_date={}",
            urlencode(&qc_from),
            urlencode(&(qc_from + Duration::days(1)))
        ),
        None,
    )
    .await;
    let station = availability
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["resource_id"] == s.qc_station)
        .expect("station")
        .clone();
    assert_eq!(station["scheduled_order_count"], 1);
    assert_eq!(station["total_hours"], 24.0);
    assert!(station["scheduled_hours"].as_f64().expect("hours") > 0.0);
    let none = call(
        &app,
        Method::POST,
        &format!("/api/v1/scheduling/auto-schedule?order_id={order_id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(
        none.status,
        StatusCode::CONFLICT,
        "nothing left: {}",
        none.text()
    );
    let missing = call(
        &app,
        Method::POST,
        "/api/v1/scheduling/auto-schedule?order_id=999999",
        None,
        &t,
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_invariants(&app, &s).await;
}

/// An instant for a query string (RFC 3339 in UTC, `Z`: nothing to escape).
fn urlencode(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_moves_through_the_api_keep_every_booking_rule() {
    use proptest::test_runner::{Config, TestRunner};

    let app = app().await;
    let t = admin(&app).await;
    let s = shop(&app, &t).await;
    // Working hours on the FDM pool: every day 08:00-20:00 UTC.
    exec(&app, "INSERT INTO work_center_hours (work_center_id, weekday, opens_minute, closes_minute) \
                SELECT w.id, d, 480, 1200 FROM work_centers w, generate_series(0, 6) d WHERE w.code = 'FDM'").await;
    let mut orders = Vec::new();
    for qty in ["1", "2", "3", "1"] {
        orders.push(order(&app, &t, &s, qty).await);
    }
    exec(&app, &format!(
        "INSERT INTO maintenance_windows (printer_id, starts_at, ends_at, reason) VALUES ({}, now() + interval '26 hours', now() + interval '30 hours', 'Belts')",
        s.enclosed
    ))
    .await;
    ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/scheduling/auto-schedule",
        None,
    )
    .await;
    assert_invariants(&app, &s).await;
    assert_within_hours(&app).await;

    let machines = [(s.enclosed, true), (s.open, true), (s.qc_station, false)];
    let moves =
        proptest::collection::vec((0usize..4, 0usize..2, 0usize..3, 0i64..(4 * 24 * 4)), 1..6);
    let mut runner = TestRunner::new(Config {
        cases: 12,
        ..Config::default()
    });
    let handle = tokio::runtime::Handle::current();
    let result = runner.run(&moves, |moves| {
        tokio::task::block_in_place(|| {
            handle.block_on(async {
                for (o, step, machine, quarters) in moves {
                    let (order_id, ops) = &orders[o];
                    let (resource, is_printer) = machines[machine];
                    let when = (Utc::now() + Duration::minutes(15 * quarters)).to_rfc3339();
                    let res = call(&app, Method::POST, &format!("/api/v1/production-orders/{order_id}/operations/{}/reschedule", ops[step]),
                        Some(json!({"resource_id": resource, "is_printer": is_printer, "scheduled_start": when})), &t).await;
                    // A move is answered (moved or refused with a reason), never an error.
                    assert!(res.status == StatusCode::OK || res.status == StatusCode::BAD_REQUEST, "{}", res.text());
                    assert_invariants(&app, &s).await;
                    assert_within_hours(&app).await;
                }
            })
        });
        Ok(())
    });
    result.expect("invariants hold");
}

/// Every booking on the FDM pool lies inside 08:00-20:00 UTC of one day.
async fn assert_within_hours(app: &TestApp) {
    let outside = app
        .scalar(
            "SELECT count(*) FROM production_order_operations o JOIN work_centers w ON w.id = o.work_center_id \
             WHERE w.code = 'FDM' AND o.scheduled_start IS NOT NULL AND ( \
               (o.scheduled_start AT TIME ZONE 'UTC')::time < '08:00' \
               OR (o.scheduled_end AT TIME ZONE 'UTC') > date_trunc('day', o.scheduled_start AT TIME ZONE 'UTC') + interval '20 hours')",
        )
        .await;
    assert_eq!(outside, 0, "booked outside working hours");
}
