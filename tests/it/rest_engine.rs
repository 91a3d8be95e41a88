//! The REST engine's own behaviour, through real requests on a real database: start-up
//! validation of stored operations, `userErrors` found whatever their alias, idempotent
//! writes, file downloads, streamed exports, declared body types, access checked before the
//! body, and errors that name the REST parameter.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, operator, raw, table_json, upload};
use strata::platform::rest::AreaRoute;
use strata::platform::rest::{Body, Route, compile, compile_and_validate, types::TypeInfo};

fn types() -> TypeInfo {
    TypeInfo::from_sdl(&strata::application::areas::sdl()).expect("the SDL parses")
}

fn validator() -> strata::platform::graphql::AppSchema {
    strata::application::areas::schema(strata::platform::graphql::Mode::Validation, None)
}

fn area(route: Route) -> AreaRoute {
    AreaRoute {
        area: "test",
        route,
    }
}

#[test]
fn a_broken_stored_operation_stops_start_up_naming_the_route() {
    let broken = Route::get(
        "/broken/{id}",
        "query B($id: Int!) { item(id: $id) { nope } }",
        "item",
    );
    let error = compile_and_validate(&[area(broken)], &types(), &validator())
        .expect_err("an unknown field is refused");
    let text = format!("{error:#}");
    assert!(text.contains("GET /broken/{id}"), "{text}");
    assert!(text.contains("nope"), "{text}");

    let unparsable = Route::get("/worse", "query {", "x");
    let text = format!(
        "{:#}",
        compile_and_validate(&[area(unparsable)], &types(), &validator())
            .expect_err("a syntax error is refused")
    );
    assert!(
        text.contains("GET /worse") && text.contains("does not parse"),
        "{text}"
    );

    // A mutation that can report business errors must select them.
    let silent = Route::post(
        "/printers-silent",
        "mutation P($input: PrinterCreateInput!) { printerCreate(input: $input) { printer { id } } }",
        "printerCreate.printer",
    )
    .body(Body::Input("input"));
    let text = format!(
        "{:#}",
        compile(&[area(silent)], &types()).expect_err("a mutation without userErrors is refused")
    );
    assert!(
        text.contains("POST /printers-silent") && text.contains("userErrors"),
        "{text}"
    );

    // And the real table is valid, or the service would not start.
    assert!(strata::application::areas::route_table().is_ok());
}

#[tokio::test]
async fn an_aliased_user_errors_selection_still_answers_4xx() {
    let app = app().await;
    let token = admin(&app).await;
    let route = Route::post(
        "/printers-aliased",
        "mutation P($input: PrinterCreateInput!) { printerCreate(input: $input) { printer { id code } problems: userErrors { field code message } } }",
        "printerCreate.printer",
    )
    .body(Body::Input("input"))
    .status(201);
    let compiled = compile(&[area(route)], &types()).expect("compiles");
    let compiled = &compiled[0];
    assert_eq!(compiled.user_errors_key.as_deref(), Some("problems"));

    let mut meta = strata::platform::auth::RequestMeta::anonymous(
        "t-1",
        std::net::IpAddr::from([127, 0, 0, 1]),
    );
    meta.bearer = Some(token.clone());
    let input = json!({"input": {"code": "PRT-001", "name": "One", "model": "X1"}});
    let vars = input.as_object().cloned().expect("object");
    let first = strata::platform::rest::run_route(
        &app.state.rest_schema,
        compiled,
        vars.clone(),
        meta.clone(),
    )
    .await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let mut meta2 = meta.clone();
    meta2.viewer = Default::default();
    let second =
        strata::platform::rest::run_route(&app.state.rest_schema, compiled, vars, meta2).await;
    assert_eq!(
        second.status(),
        StatusCode::BAD_REQUEST,
        "a duplicate code is a business error"
    );
}

#[tokio::test]
async fn idempotent_creates_answer_the_first_result_and_change_nothing() {
    let app = app().await;
    let token = admin(&app).await;
    let auth = format!("Bearer {token}");
    let body = json!({"name": "Idempotent widget", "item_type": "finished_good", "unit": "EA"})
        .to_string();
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "create-widget-1"),
    ];
    let first = raw(&app, Method::POST, "/api/v1/items", &headers, &body).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text());
    let id = first.json()["id"].as_i64().expect("id");
    assert_eq!(
        first.header("location"),
        Some(format!("/api/v1/items/{id}").as_str())
    );
    let before = table_json(&app, "items").await;

    let second = raw(&app, Method::POST, "/api/v1/items", &headers, &body).await;
    assert_eq!(
        second.status,
        StatusCode::OK,
        "a replay is a 200: {}",
        second.text()
    );
    assert_eq!(second.json(), first.json(), "the same body");
    assert_eq!(second.header("location"), first.header("location"));
    assert_eq!(table_json(&app, "items").await, before, "nothing changed");

    // The same key with another request is refused; the table is unchanged.
    let other = json!({"name": "Another", "item_type": "finished_good", "unit": "EA"}).to_string();
    let reused = raw(&app, Method::POST, "/api/v1/items", &headers, &other).await;
    assert_eq!(
        reused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reused.text()
    );
    assert_eq!(
        reused.json()["details"]["errors"][0]["field"],
        "header.idempotency-key"
    );
    assert_eq!(table_json(&app, "items").await, before);

    // Another user's key space is their own; no key means no deduplication.
    let op = operator(&app, &token).await;
    let op_auth = format!("Bearer {op}");
    let op_headers = [
        ("authorization", op_auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "create-widget-1"),
    ];
    let theirs = raw(&app, Method::POST, "/api/v1/items", &op_headers, &body).await;
    assert_eq!(theirs.status, StatusCode::CREATED, "{}", theirs.text());
    assert_ne!(theirs.json()["id"], first.json()["id"]);

    // A failed request releases its key: the corrected retry runs.
    let bad_headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "create-widget-2"),
    ];
    let dup = json!({"sku": first.json()["sku"], "name": "Dup", "item_type": "finished_good", "unit": "EA"}).to_string();
    let failed = raw(&app, Method::POST, "/api/v1/items", &bad_headers, &dup).await;
    assert_eq!(failed.status, StatusCode::BAD_REQUEST, "{}", failed.text());
    let fixed = json!({"name": "Fixed", "item_type": "finished_good", "unit": "EA"}).to_string();
    let retry = raw(&app, Method::POST, "/api/v1/items", &bad_headers, &fixed).await;
    assert_eq!(retry.status, StatusCode::CREATED, "{}", retry.text());
}

#[tokio::test]
async fn concurrent_repeats_with_one_key_create_one_row() {
    let app = app().await;
    let token = admin(&app).await;
    let auth = format!("Bearer {token}");
    let body = json!({"name": "Raced", "item_type": "component", "unit": "EA"}).to_string();
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let router = app.router.clone();
        let (auth, body) = (auth.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            use tower::ServiceExt;
            let mut req = axum::http::Request::builder()
                .method(Method::POST)
                .uri("/api/v1/items")
                .header("authorization", auth)
                .header("content-type", "application/json")
                .header("idempotency-key", "race-1")
                .body(axum::body::Body::from(body))
                .expect("request");
            req.extensions_mut().insert(axum::extract::ConnectInfo(
                "127.0.0.1:40001"
                    .parse::<std::net::SocketAddr>()
                    .expect("addr"),
            ));
            router.oneshot(req).await.expect("infallible").status()
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.expect("task"));
    }
    assert!(
        statuses
            .iter()
            .all(|s| [StatusCode::CREATED, StatusCode::OK, StatusCode::CONFLICT].contains(s)),
        "{statuses:?}"
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CREATED)
            .count(),
        1,
        "{statuses:?}"
    );
    let items = call(
        &app,
        Method::GET,
        "/api/v1/items?search=Raced",
        None,
        &token,
    )
    .await;
    assert_eq!(items.json()["total"], 1);
}

#[tokio::test]
async fn item_files_download_with_their_name_and_type() {
    let app = app().await;
    let token = admin(&app).await;
    let item = call(
        &app,
        Method::POST,
        "/api/v1/items",
        Some(json!({"name": "Bracket", "item_type": "finished_good", "unit": "EA"})),
        &token,
    )
    .await
    .json();
    let id = item["id"].as_i64().expect("id");
    let content = b"solid bracket\nfacet normal 0 0 1\nendsolid bracket\n";
    let up = upload(
        &app,
        &format!("/api/v1/items/{id}/files"),
        &token,
        "bracket v2.stl",
        content,
        &[],
    )
    .await;
    assert_eq!(up.status, StatusCode::CREATED, "{}", up.text());
    let file = up.json();
    let url = file["download_url"].as_str().expect("download_url");
    assert_eq!(
        url,
        format!("/api/v1/items/{id}/files/{}/download", file["id"])
    );

    let got = call(&app, Method::GET, url, None, &token).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.body, content.to_vec(), "the same bytes");
    assert_eq!(got.header("content-type"), Some("model/stl"));
    assert_eq!(
        got.header("content-disposition"),
        Some("attachment; filename=\"bracket v2.stl\"; filename*=UTF-8''bracket%20v2%2Estl")
    );
    assert_eq!(
        got.header("content-length"),
        Some(content.len().to_string().as_str())
    );

    // The item's detail lists it with the same link; strangers and wrong ids get nothing.
    let detail = call(
        &app,
        Method::GET,
        &format!("/api/v1/items/{id}"),
        None,
        &token,
    )
    .await
    .json();
    assert_eq!(detail["files"][0]["download_url"], url);
    let anonymous = app.get(url).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let missing = call(
        &app,
        Method::GET,
        &format!("/api/v1/items/{id}/files/999999/download"),
        None,
        &token,
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn lists_stream_every_matching_row_as_csv_or_ndjson() {
    let app = app().await;
    let token = admin(&app).await;
    // More rows than one export page (250), so the stream needs several pages.
    {
        use diesel_async::RunQueryDsl;
        let mut conn = app.db.connect().await;
        diesel::sql_query(
            "INSERT INTO items (sku, name, item_type, unit) \
             SELECT 'EXP-' || lpad(n::text, 4, '0'), 'Export ' || n, 'component', 'EA' FROM generate_series(1, 620) n",
        )
        .execute(&mut conn)
        .await
        .expect("seed");
    }

    let csv = call(
        &app,
        Method::GET,
        "/api/v1/items?format=csv&search=EXP-",
        None,
        &token,
    )
    .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text());
    assert_eq!(csv.header("content-type"), Some("text/csv; charset=utf-8"));
    assert!(
        csv.header("content-disposition")
            .is_some_and(|d| d.contains("items.csv"))
    );
    let text = csv.text();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().expect("header row").clone();
    assert_eq!(&headers[0], "id");
    assert!(headers.iter().any(|h| h == "sku"));
    let sku_col = headers.iter().position(|h| h == "sku").expect("sku column");
    let skus: Vec<String> = reader
        .records()
        .map(|r| r.expect("record")[sku_col].to_string())
        .collect();
    assert_eq!(skus.len(), 620, "every matching row, not one page");
    assert_eq!(skus.first().map(String::as_str), Some("EXP-0001"));
    assert_eq!(skus.last().map(String::as_str), Some("EXP-0620"));

    let nd = call(
        &app,
        Method::GET,
        "/api/v1/items?format=ndjson&search=EXP-06",
        None,
        &token,
    )
    .await;
    assert_eq!(nd.header("content-type"), Some("application/x-ndjson"));
    let rows: Vec<Value> = nd
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(rows.len(), 21, "EXP-0600..EXP-0620");
    assert_eq!(rows[0]["sku"], "EXP-0600");

    let bad = call(&app, Method::GET, "/api/v1/items?format=xml", None, &token).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.json()["details"]["errors"][0]["field"], "query.format");

    // Customers (a bare-array list) export too, admins only.
    call(
        &app,
        Method::POST,
        "/api/v1/admin/customers/",
        Some(json!({"email": "c1@example.com", "first_name": "Cy", "last_name": "One"})),
        &token,
    )
    .await;
    let customers = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/?format=csv",
        None,
        &token,
    )
    .await;
    assert_eq!(customers.status, StatusCode::OK, "{}", customers.text());
    assert!(customers.text().contains("c1@example.com"));
    let op = operator(&app, &token).await;
    let refused = call(
        &app,
        Method::GET,
        "/api/v1/admin/customers/?format=csv",
        None,
        &op,
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn bodies_must_carry_the_type_their_route_reads() {
    let app = app().await;
    let token = admin(&app).await;
    let auth = format!("Bearer {token}");
    let body = json!({"name": "Typed", "item_type": "finished_good", "unit": "EA"}).to_string();
    let before = table_json(&app, "items").await;
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut headers = vec![("authorization", auth.as_str())];
        if let Some(ct) = content_type {
            headers.push(("content-type", ct));
        }
        let res = raw(&app, Method::POST, "/api/v1/items", &headers, &body).await;
        assert_eq!(
            res.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}: {}",
            res.text()
        );
    }
    assert_eq!(
        table_json(&app, "items").await,
        before,
        "nothing was created"
    );
    // Login declares form bodies, as the original SPA sends them.
    let form = raw(
        &app,
        Method::POST,
        "/api/v1/auth/login",
        &[("content-type", "application/x-www-form-urlencoded")],
        "username=ada%40example.com&password=Admin-pass1%21",
    )
    .await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text());
}

#[tokio::test]
async fn access_is_checked_before_the_body_is_read() {
    let app = app().await;
    let token = admin(&app).await;
    let op = operator(&app, &token).await;
    // An operator sending garbage to an admin-only route learns nothing about its input.
    let res = raw(
        &app,
        Method::POST,
        "/api/v1/admin/users/",
        &[
            ("authorization", &format!("Bearer {op}")),
            ("content-type", "application/json"),
        ],
        "{\"nonsense\": true}",
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.text());
    assert_eq!(res.json()["detail"], "Admin access required");
    let bad_token = raw(
        &app,
        Method::POST,
        "/api/v1/admin/users/",
        &[
            ("authorization", "Bearer not-a-token"),
            ("content-type", "application/json"),
        ],
        "[]",
    )
    .await;
    assert_eq!(bad_token.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn errors_name_the_rest_parameter_not_the_graphql_argument() {
    let app = app().await;
    let token = admin(&app).await;
    let res = call(&app, Method::GET, "/api/v1/items?limit=0", None, &token).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(
        res.json()["details"]["errors"][0]["field"],
        "query.limit",
        "{}",
        res.text()
    );
    let res = call(&app, Method::GET, "/api/v1/items?offset=-1", None, &token).await;
    assert_eq!(
        res.json()["details"]["errors"][0]["field"],
        "query.offset",
        "{}",
        res.text()
    );
}

#[tokio::test]
async fn the_service_version_is_served() {
    let app: TestApp = app().await;
    let res = app.get("/api/v1/system/version").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let body = res.json();
    assert_eq!(body["version"], strata::VERSION);
    assert_eq!(body["build_date"].as_str().map(str::len), Some(10));
    // Public, as FilaOps's app reads it before sign-in.
    assert_eq!(app.get("/api/v1/system/info").await.status, StatusCode::OK);
    let token = admin(&app).await;
    let info = call(&app, Method::GET, "/api/v1/system/info/", None, &token).await;
    assert_eq!(info.json()["tier"], "community");
}

#[tokio::test]
async fn codes_skus_and_names_refuse_control_and_text_direction_characters() {
    let app = app().await;
    let token = admin(&app).await;
    let before = table_json(&app, "items").await;
    for (body, field) in [
        (
            json!({"sku": "ABC\u{202E}123", "name": "Spoof", "item_type": "component", "unit": "EA"}),
            "sku",
        ),
        (
            json!({"name": "Tab\there", "item_type": "component", "unit": "EA"}),
            "name",
        ),
    ] {
        let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            res.text()
        );
        assert_eq!(res.json()["details"]["errors"][0]["field"], field);
    }
    assert_eq!(table_json(&app, "items").await, before);
    let printer = call(
        &app,
        Method::POST,
        "/api/v1/printers/",
        Some(json!({"code": "P\u{2066}1", "name": "Printer", "model": "X1"})),
        &token,
    )
    .await;
    assert_eq!(
        printer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        printer.text()
    );
    assert_eq!(printer.json()["details"]["errors"][0]["field"], "code");
}

/// Booleans are strict: a JSON body says `true` or `false` (the abuse run's `active: "yes"`
/// was taken as true); a query string or form spells them or writes 1 and 0.
#[tokio::test]
async fn booleans_are_strict() {
    let app = app().await;
    let token = admin(&app).await;
    let before = table_json(&app, "items").await;
    for active in [json!("yes"), json!("true"), json!(1), json!("on")] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/items",
            Some(json!({"name": "Strict", "item_type": "finished_good", "unit": "EA", "active": active})),
            &token,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "active: {active}: {}",
            res.text()
        );
        assert!(res.text().contains("\"active\""), "{}", res.text());
    }
    assert_eq!(
        table_json(&app, "items").await,
        before,
        "nothing was created"
    );
    let res = call(
        &app,
        Method::GET,
        "/api/v1/items?active_only=yes",
        None,
        &token,
    )
    .await;
    assert!(res.status.is_client_error(), "{}", res.text());
    let res = call(
        &app,
        Method::GET,
        "/api/v1/items?active_only=1",
        None,
        &token,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
}
