//! Printers through REST and GraphQL (CONTRACT 5.13; any signed-in user): the paged list
//! with search and filters, create, update, status, soft delete, suggested codes, every kind
//! of bad input with the table unchanged, and who may call what.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, gql, operator};

/// The whole table as JSON text, to prove a refused request changed nothing.
async fn table(app: &TestApp) -> String {
    crate::common::api::table_json(app, "printers").await
}

async fn create(app: &TestApp, t: &str, body: Value) -> Value {
    let res = call(app, Method::POST, "/api/v1/printers/", Some(body), t).await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    res.json()
}

fn codes(page: &Value) -> Vec<&str> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|p| p["code"].as_str().unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn printers_list_create_update_status_and_delete_through_rest() {
    let app = app().await;
    let t = admin(&app).await;
    // Any signed-in user manages printers: the operator does it all here.
    let op = operator(&app, &t).await;

    let empty = call(&app, Method::GET, "/api/v1/printers/", None, &op).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text());
    assert_eq!(
        empty.json(),
        json!({"items": [], "total": 0, "page": 1, "page_size": 50, "total_pages": 1})
    );

    // Create: the contract's response shape; defaults; codes upper case.
    let x1 = create(
        &app,
        &op,
        json!({
            "code": "prt-001", "name": "X1C #1", "model": "X1 Carbon", "brand": "bambulab",
            "serial_number": "01S00A", "ip_address": "192.168.1.21", "mqtt_topic": "device/01S00A/report",
            "location": "Rack 1", "connection_config": {"access_code": "1234"},
            "capabilities": {"ams": true, "camera": true}
        }),
    )
    .await;
    let keys: Vec<&str> = x1
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "code",
            "name",
            "model",
            "brand",
            "serial_number",
            "ip_address",
            "mqtt_topic",
            "location",
            "work_center_id",
            "notes",
            "active",
            "status",
            "connection_config",
            "capabilities",
            "last_seen",
            "created_at",
            "updated_at",
            "is_online",
            "has_ams",
            "has_camera"
        ]
    );
    assert_eq!(x1["code"], "PRT-001");
    assert_eq!(x1["status"], "offline");
    assert_eq!(x1["is_online"], false);
    assert_eq!(
        (x1["has_ams"].as_bool(), x1["has_camera"].as_bool()),
        (Some(true), Some(true))
    );
    // Connection secrets are write-only for operators: they set them, only admins read them.
    assert_eq!(x1["connection_config"], Value::Null);
    let as_admin = call(
        &app,
        Method::GET,
        &format!("/api/v1/printers/{}", x1["id"]),
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(
        as_admin["connection_config"],
        json!({"access_code": "1234"})
    );
    assert!(x1["created_at"].as_str().unwrap_or_default().ends_with('Z'));
    let x1_id = x1["id"].as_i64().expect("id");
    let mk3 = create(
        &app,
        &op,
        json!({"code": "PRT-002", "name": "Prusa MK3S", "model": "MK3S+", "brand": "prusa", "status": "idle", "ip_address": "mk3.lan"}),
    )
    .await;
    assert_eq!(mk3["is_online"], true);
    assert!(mk3["last_seen"].is_string(), "a live status marks it seen");
    assert_eq!(mk3["capabilities"], json!({}));
    assert_eq!(
        (mk3["has_ams"].as_bool(), mk3["has_camera"].as_bool()),
        (Some(false), Some(false))
    );
    for i in 3..=7 {
        create(
            &app,
            &op,
            json!({"code": format!("PRT-{i:03}"), "name": format!("Ender {i}"), "model": "Ender 3 V3", "brand": "creality"}),
        )
        .await;
    }

    // Suggested codes: after the highest, with or without a prefix.
    let res = call(
        &app,
        Method::GET,
        "/api/v1/printers/generate-code",
        None,
        &op,
    )
    .await;
    assert_eq!(res.json(), json!({"code": "PRT-008"}));
    let res = call(
        &app,
        Method::GET,
        "/api/v1/printers/generate-code/?prefix=bl",
        None,
        &op,
    )
    .await;
    assert_eq!(res.json(), json!({"code": "BL-001"}));
    let res = call(
        &app,
        Method::GET,
        "/api/v1/printers/generate-code?prefix=a%20b",
        None,
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );

    // Bad input: the right 4xx, and the table is unchanged.
    let before = table(&app).await;
    let cases = [
        (
            json!({"code": "prt-002", "name": "dup", "model": "m"}),
            StatusCode::BAD_REQUEST,
            "Printer code 'PRT-002' already exists",
        ),
        (
            json!({"name": "n", "model": "m"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "code",
        ),
        (
            json!({"code": "P9", "model": "m"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"code": "P9", "name": "n"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "model",
        ),
        (
            json!({"code": "P9", "name": "n", "model": " "}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "model",
        ),
        (
            json!({"code": 9, "name": "n", "model": "m"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "code",
        ),
        (
            json!({"code": "P9", "name": "n", "model": "m", "brand": "makerbot"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "brand",
        ),
        (
            json!({"code": "P9", "name": "n", "model": "m", "status": "asleep"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "status",
        ),
        (
            json!({"code": "P9", "name": "n", "model": "m", "capabilities": [1, 2]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "capabilities",
        ),
        (
            json!({"code": "P9", "name": "n", "model": "m", "connection_config": "host=x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "connection_config",
        ),
        (
            json!({"code": "P9", "name": "n", "model": "m", "ip_address": "not an address"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "ip_address",
        ),
        (
            json!({"code": "P9", "name": "n", "model": "m", "work_center_id": "one"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "work_center_id",
        ),
        (
            json!({"code": "P9", "name": "n".repeat(101), "model": "m"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 100",
        ),
    ];
    for (body, status, needle) in cases {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/printers",
            Some(body.clone()),
            &op,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
        assert!(res.text().contains(needle), "{body} -> {}", res.text());
    }
    for (method, path, body, status) in [
        (
            Method::PUT,
            "/api/v1/printers/999".to_string(),
            Some(json!({"name": "x"})),
            StatusCode::NOT_FOUND,
        ),
        (
            Method::GET,
            "/api/v1/printers/999".to_string(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::DELETE,
            "/api/v1/printers/999".to_string(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::PATCH,
            "/api/v1/printers/999/status".to_string(),
            Some(json!({"status": "idle"})),
            StatusCode::NOT_FOUND,
        ),
        (
            Method::PATCH,
            format!("/api/v1/printers/{x1_id}/status"),
            Some(json!({})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::PATCH,
            format!("/api/v1/printers/{x1_id}/status"),
            Some(json!({"status": "asleep"})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::PUT,
            format!("/api/v1/printers/{x1_id}"),
            Some(json!({"code": "prt-002"})),
            StatusCode::BAD_REQUEST,
        ),
        (
            Method::PUT,
            format!("/api/v1/printers/{x1_id}"),
            Some(json!({"name": ""})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::GET,
            "/api/v1/printers/?page_size=500".to_string(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::GET,
            "/api/v1/printers/?page=0".to_string(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::GET,
            "/api/v1/printers/?page=first".to_string(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::GET,
            "/api/v1/printers/?brand=makerbot".to_string(),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let res = call(&app, method.clone(), &path, body.clone(), &op).await;
        assert_eq!(
            res.status,
            status,
            "{method} {path} {body:?} -> {}",
            res.text()
        );
    }
    assert_eq!(table(&app).await, before, "nothing written on bad input");

    // List: search, filters, pages.
    let all = call(&app, Method::GET, "/api/v1/printers", None, &op)
        .await
        .json();
    assert_eq!(all["total"], 7);
    let page = call(
        &app,
        Method::GET,
        "/api/v1/printers/?page=2&page_size=3",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(codes(&page), ["PRT-004", "PRT-005", "PRT-006"]);
    assert_eq!(
        (
            page["page"].as_i64(),
            page["page_size"].as_i64(),
            page["total_pages"].as_i64(),
            page["total"].as_i64()
        ),
        (Some(2), Some(3), Some(3), Some(7))
    );
    let found = call(
        &app,
        Method::GET,
        "/api/v1/printers/?search=carbon",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(codes(&found), ["PRT-001"]);
    let found = call(
        &app,
        Method::GET,
        "/api/v1/printers/?search=mk3.lan",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(codes(&found), ["PRT-002"]);
    let creality = call(
        &app,
        Method::GET,
        "/api/v1/printers/?brand=creality",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(creality["total"], 5);
    let idle = call(
        &app,
        Method::GET,
        "/api/v1/printers/?status=idle",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(codes(&idle), ["PRT-002"]);

    // Update: clear and change fields; JSON objects are replaced whole. The work center
    // must exist (production's foreign key).
    let res = call(
        &app,
        Method::POST,
        "/api/v1/work-centers/",
        Some(json!({"code": "FDM", "name": "FDM pool"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let wc = res.json()["id"].as_i64().expect("work center");
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/printers/{x1_id}/"),
        Some(json!({"name": "X1C One", "location": null, "capabilities": {"ams_slots": 0}, "work_center_id": wc})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let x1 = res.json();
    assert_eq!(
        (
            x1["name"].as_str(),
            x1["location"].clone(),
            x1["has_ams"].as_bool(),
            x1["has_camera"].as_bool(),
            x1["work_center_id"].as_i64()
        ),
        (
            Some("X1C One"),
            Value::Null,
            Some(false),
            Some(false),
            Some(wc)
        )
    );
    assert_eq!(
        x1["serial_number"], "01S00A",
        "omitted fields keep their value"
    );

    // Status.
    let res = call(
        &app,
        Method::PATCH,
        &format!("/api/v1/printers/{x1_id}/status"),
        Some(json!({"status": "printing"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let x1 = res.json();
    assert_eq!(
        (x1["status"].as_str(), x1["is_online"].as_bool()),
        (Some("printing"), Some(true))
    );
    assert!(x1["last_seen"].is_string());
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/printers/{x1_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.json()["status"], "printing");

    // Delete deactivates: hidden from the default list, shown with active_only=false.
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/printers/{x1_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"message": "Printer 'PRT-001' deactivated"})
    );
    let active = call(&app, Method::GET, "/api/v1/printers/", None, &op)
        .await
        .json();
    assert_eq!(active["total"], 6);
    let every = call(
        &app,
        Method::GET,
        "/api/v1/printers/?active_only=false",
        None,
        &op,
    )
    .await
    .json();
    assert_eq!(every["total"], 7);
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/printers/{x1_id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.json()["active"], false);
}

#[tokio::test]
async fn printers_need_a_signed_in_user() {
    let app = app().await;
    let t = admin(&app).await;
    create(&app, &t, json!({"code": "P1", "name": "n", "model": "m"})).await;
    let before = table(&app).await;
    for (method, path, body) in [
        (Method::GET, "/api/v1/printers/", None),
        (Method::GET, "/api/v1/printers/1", None),
        (Method::GET, "/api/v1/printers/generate-code", None),
        (
            Method::POST,
            "/api/v1/printers/",
            Some(json!({"code": "P2", "name": "n", "model": "m"})),
        ),
        (
            Method::PUT,
            "/api/v1/printers/1",
            Some(json!({"name": "x"})),
        ),
        (
            Method::PATCH,
            "/api/v1/printers/1/status",
            Some(json!({"status": "idle"})),
        ),
        (Method::DELETE, "/api/v1/printers/1", None),
    ] {
        let mut b = Request::builder().method(method.clone()).uri(path);
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
        assert_eq!(anon.json(), json!({"detail": "Not authenticated"}));
    }
    assert_eq!(table(&app).await, before);
    let body = app.graphql("{ printers { totalCount } }", json!({})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");
}

#[tokio::test]
async fn printers_through_graphql() {
    let app = app().await;
    let t = admin(&app).await;
    let create_op = "mutation($input: PrinterCreateInput!) { printerCreate(input: $input) { printer { id code brand status isOnline hasAms connectionConfig } userErrors { field code message } } }";
    let body = gql(
        &app,
        &t,
        create_op,
        json!({"input": {"code": "bl-1", "name": "A1", "model": "A1 mini", "brand": "bambulab", "capabilities": {"has_ams": true}, "connectionConfig": {"port": 8883}}}),
    )
    .await;
    let printer = &body["data"]["printerCreate"]["printer"];
    assert_eq!(printer["code"], "BL-1", "{body}");
    assert_eq!(printer["hasAms"], true);
    assert_eq!(printer["connectionConfig"], json!({"port": 8883}));
    let id = printer["id"].as_i64().expect("id");
    let body = gql(
        &app,
        &t,
        create_op,
        json!({"input": {"code": "BL-1", "name": "A1", "model": "A1"}}),
    )
    .await;
    assert_eq!(
        body["data"]["printerCreate"]["userErrors"],
        json!([{"field": "code", "code": "TAKEN", "message": "Printer code 'BL-1' already exists"}])
    );
    let body = gql(
        &app,
        &t,
        create_op,
        json!({"input": {"code": "BL-2", "name": "A1", "model": "A1", "capabilities": 5}}),
    )
    .await;
    assert_eq!(
        body["data"]["printerCreate"]["userErrors"][0]["field"],
        "capabilities"
    );
    let body = gql(
        &app,
        &t,
        create_op,
        json!({"input": {"code": "BL-2", "name": "A1"}}),
    )
    .await;
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("model"),
        "{body}"
    );

    let list = "query($first: Int, $offset: Int, $page: Int, $status: PrinterStatus) { printers(first: $first, offset: $offset, page: $page, status: $status) { totalCount page pageSize totalPages nodes { code } pageInfo { hasNextPage offset } } }";
    for i in 2..=4 {
        gql(
            &app,
            &t,
            create_op,
            json!({"input": {"code": format!("BL-{i}"), "name": "A1", "model": "A1"}}),
        )
        .await;
    }
    let body = gql(&app, &t, list, json!({"first": 2, "offset": 2})).await;
    assert_eq!(
        body["data"]["printers"]["nodes"],
        json!([{"code": "BL-3"}, {"code": "BL-4"}])
    );
    assert_eq!(body["data"]["printers"]["page"], 2);
    let body = gql(&app, &t, list, json!({"first": 3, "page": 2})).await;
    assert_eq!(body["data"]["printers"]["nodes"], json!([{"code": "BL-4"}]));
    assert_eq!(body["data"]["printers"]["totalPages"], 2);
    assert_eq!(
        body["data"]["printers"]["pageInfo"],
        json!({"hasNextPage": false, "offset": 3})
    );
    let body = gql(&app, &t, list, json!({"page": 2, "offset": 1})).await;
    assert_eq!(
        body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT",
        "{body}"
    );

    let status_op = "mutation($id: Int!, $status: PrinterStatus!) { printerUpdateStatus(id: $id, status: $status) { printer { status isOnline lastSeen } userErrors { code } } }";
    let body = gql(
        &app,
        &t,
        status_op,
        json!({"id": id, "status": "maintenance"}),
    )
    .await;
    assert_eq!(
        body["data"]["printerUpdateStatus"]["printer"]["status"],
        "maintenance"
    );
    let body = gql(&app, &t, list, json!({"status": "maintenance"})).await;
    assert_eq!(body["data"]["printers"]["nodes"], json!([{"code": "BL-1"}]));
    let body = gql(&app, &t, status_op, json!({"id": 999, "status": "idle"})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "NOT_FOUND");

    let update = "mutation($id: Int!, $input: PrinterUpdateInput!) { printerUpdate(id: $id, input: $input) { printer { name notes } userErrors { field code } } }";
    let body = gql(
        &app,
        &t,
        update,
        json!({"id": id, "input": {"notes": "Nozzle 0.2"}}),
    )
    .await;
    assert_eq!(
        body["data"]["printerUpdate"]["printer"]["notes"],
        "Nozzle 0.2"
    );
    let body = gql(
        &app,
        &t,
        update,
        json!({"id": id, "input": {"ipAddress": "::not"}}),
    )
    .await;
    assert_eq!(
        body["data"]["printerUpdate"]["userErrors"][0]["field"],
        "ipAddress"
    );

    let body = gql(
        &app,
        &t,
        "mutation($id: Int!) { printerDelete(id: $id) { message printer { active } } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(body["data"]["printerDelete"]["printer"]["active"], false);
    let body = gql(
        &app,
        &t,
        "{ printerCodeSuggestion(prefix: \"bl\") { code prefix } }",
        json!({}),
    )
    .await;
    assert_eq!(
        body["data"]["printerCodeSuggestion"],
        json!({"code": "BL-005", "prefix": "BL"})
    );
}

#[tokio::test]
async fn printers_sort_by_any_listed_column_with_ties_broken_by_id() {
    let app = app().await;
    let t = admin(&app).await;
    for (code, name) in [
        ("PRT-001", "Charlie"),
        ("PRT-002", "Alpha"),
        ("PRT-003", "Bravo"),
        ("PRT-004", "Bravo"),
    ] {
        create(
            &app,
            &t,
            json!({"code": code, "name": name, "model": "MK4"}),
        )
        .await;
    }
    let list = |query: &'static str| {
        let app = &app;
        let t = &t;
        async move {
            let res = call(
                app,
                Method::GET,
                &format!("/api/v1/printers/{query}"),
                None,
                t,
            )
            .await;
            assert_eq!(res.status, StatusCode::OK, "{}", res.text());
            res.json()
        }
    };
    // The default order is unchanged: by code.
    assert_eq!(
        codes(&list("").await),
        ["PRT-001", "PRT-002", "PRT-003", "PRT-004"]
    );
    assert_eq!(
        codes(&list("?sort_by=code&sort_order=desc").await),
        ["PRT-004", "PRT-003", "PRT-002", "PRT-001"]
    );
    // Equal names keep a stable order (id), in both directions, across pages.
    let by_name = list("?sort_by=name").await;
    assert_eq!(
        codes(&by_name),
        ["PRT-002", "PRT-003", "PRT-004", "PRT-001"]
    );
    let second = list("?sort_by=name&page=2&page_size=2").await;
    assert_eq!(codes(&second), ["PRT-004", "PRT-001"]);
    assert_eq!(second["total"], 4);
    assert_eq!(
        codes(&list("?sort_by=name&sort_order=desc").await),
        ["PRT-001", "PRT-004", "PRT-003", "PRT-002"]
    );
    // A page past the end still knows the total.
    let past = list("?page=5&page_size=2").await;
    assert_eq!(past["total"], 4);
    assert_eq!(codes(&past), Vec::<&str>::new());

    // An unknown column or direction is a 422 naming the parameter.
    for (query, field) in [
        ("?sort_by=colour", "query.sort_by"),
        ("?sort_order=up", "query.sort_order"),
    ] {
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/printers/{query}"),
            None,
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            res.text()
        );
        assert!(res.text().contains(field), "{}", res.text());
    }
}

/// A page number far past the end (found by the fuzzer: it overflowed into a 500) is an
/// empty page, for printers and for payments alike; one past GraphQL's 32-bit `Int` is a
/// 422 naming the parameter, never a 500.
#[tokio::test]
async fn a_page_far_past_the_end_is_empty_not_an_error() {
    let app = app().await;
    let t = admin(&app).await;
    for path in [
        "/api/v1/printers/?page=2147483647",
        "/api/v1/printers/?page=2147483647&page_size=200",
        "/api/v1/payments?page=2147483647",
    ] {
        let res = call(&app, Method::GET, path, None, &t).await;
        assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
        assert_eq!(res.json()["items"], json!([]), "{path}");
    }
    for path in [
        "/api/v1/printers/?page=382690014747288704",
        "/api/v1/payments?page=9223372036854775807",
    ] {
        let res = call(&app, Method::GET, path, None, &t).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{path}: {}",
            res.text()
        );
        assert!(res.text().contains("query.page"), "{path}: {}", res.text());
    }
}
