//! `/graphql` at the edge: introspection for signed-in users only, the cost and alias limits
//! decided before anything executes (reported in `extensions.cost`), NUL characters in
//! variables, and the GraphQL-over-HTTP media types.

use std::time::Duration;

use crate::common::api::{admin, app, call};
use crate::common::{TestApp, TestResponse};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

async fn post(
    app: &TestApp,
    token: Option<&str>,
    accept: Option<&str>,
    body: Value,
) -> TestResponse {
    let mut b = Request::builder()
        .method(Method::POST)
        .uri("/graphql")
        .header("content-type", "application/json");
    if let Some(t) = token {
        b = b.header("authorization", format!("Bearer {t}"));
    }
    if let Some(a) = accept {
        b = b.header("accept", a);
    }
    app.request(b.body(Body::from(body.to_string())).expect("request"))
        .await
}

fn code(body: &Value) -> &str {
    body["errors"][0]["extensions"]["code"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test]
async fn introspection_needs_a_signed_in_user_and_graphiql_stays() {
    let app = app().await;
    let token = admin(&app).await;
    for query in [
        "{ __schema { queryType { name } } }",
        "{ __type(name: \"Item\") { name } }",
        "query Q { ...F } fragment F on Query { __schema { types { name } } }",
    ] {
        let res = post(&app, None, None, json!({ "query": query })).await;
        assert_eq!(res.status, StatusCode::OK);
        let body = res.json();
        assert_eq!(code(&body), "UNAUTHENTICATED", "{body}");
        assert!(body["data"].is_null(), "{body}");

        let res = post(&app, Some(&token), None, json!({ "query": query })).await;
        let body = res.json();
        assert!(body.get("errors").is_none(), "{body}");
    }
    // An invalid token is no better than none.
    let res = post(
        &app,
        Some("not-a-token"),
        None,
        json!({ "query": "{ __schema { queryType { name } } }" }),
    )
    .await;
    assert_eq!(code(&res.json()), "UNAUTHENTICATED");
    // `__typename` is not introspection of the schema.
    let res = post(&app, None, None, json!({ "query": "{ __typename }" })).await;
    assert_eq!(res.json()["data"]["__typename"], "Query");
    let res = app.get("/graphql").await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.text().contains("GraphiQL") || res.text().contains("graphiql"));
}

#[tokio::test]
async fn a_hundred_aliased_full_pages_are_refused_before_anything_runs() {
    let app = app().await;
    let token = admin(&app).await;
    let fields: String = (0..100)
        .map(|i| format!("a{i}: items(first: 250) {{ nodes {{ id sku }} }} "))
        .collect();
    let query = format!("{{ {fields} }}");

    // Hold an exclusive lock on `items`: any statement on it would wait, so an answer within
    // the timeout proves nothing was executed.
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .batch_execute("BEGIN; LOCK TABLE items IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("lock");

    let res = tokio::time::timeout(
        Duration::from_secs(10),
        post(&app, Some(&token), None, json!({ "query": query })),
    )
    .await
    .expect("refused before any statement on items ran");
    let body = res.json();
    assert_eq!(code(&body), "BAD_USER_INPUT", "{body}");
    assert!(body["data"].is_null());
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("too complex")
    );
    assert_eq!(body["extensions"]["cost"]["maximumAvailable"], 5000);

    // Twenty full pages: few aliases, but the list sizes multiply the cost.
    let fields: String = (0..20)
        .map(|i| format!("a{i}: items(first: $n) {{ nodes {{ id }} }} "))
        .collect();
    let res = tokio::time::timeout(
        Duration::from_secs(10),
        post(
            &app,
            Some(&token),
            None,
            json!({ "query": format!("query($n: Int) {{ {fields} }}"), "variables": {"n": 250} }),
        ),
    )
    .await
    .expect("refused before any statement on items ran");
    let body = res.json();
    assert_eq!(
        body["extensions"]["cost"]["requestedQueryCost"],
        20 * 251,
        "{body}"
    );
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("cost"),
        "{body}"
    );
    client.batch_execute("ROLLBACK").await.expect("unlock");

    // Too many root fields, even cheap ones.
    let wide: String = (0..31).map(|i| format!("v{i}: version ")).collect();
    let res = post(
        &app,
        None,
        None,
        json!({ "query": format!("{{ {wide} }}") }),
    )
    .await;
    assert!(
        res.json()["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("root fields")
    );

    // A reasonable query runs and reports its cost.
    let res = post(
        &app,
        Some(&token),
        None,
        json!({ "query": "{ items(first: 250) { totalCount nodes { id } } version }" }),
    )
    .await;
    let body = res.json();
    assert!(body.get("errors").is_none(), "{body}");
    assert_eq!(body["extensions"]["cost"]["requestedQueryCost"], 251);
}

#[tokio::test]
async fn nul_characters_in_variables_are_refused_before_execution() {
    let app = app().await;
    let token = admin(&app).await;
    let query = "query($s: String) { items(search: $s) { totalCount } }";
    let res = post(
        &app,
        Some(&token),
        None,
        json!({ "query": query, "variables": {"s": "ab\u{0}c"} }),
    )
    .await;
    let body = res.json();
    assert_eq!(code(&body), "BAD_USER_INPUT", "{body}");
    assert_eq!(
        body["errors"][0]["extensions"]["fields"][0]["field"],
        "variables.s"
    );
    let res = call(&app, Method::GET, "/api/v1/items?search=ok", None, &token).await;
    assert_eq!(res.status, StatusCode::OK);
}

#[tokio::test]
async fn media_types_follow_graphql_over_http() {
    let app = app().await;
    let ok = json!({ "query": "{ version }" });
    let syntax = json!({ "query": "{ version " });
    let invalid = json!({ "query": "{ noSuchField }" });

    for accept in [None, Some("application/json")] {
        for body in [&ok, &syntax, &invalid] {
            let res = post(&app, None, accept, body.clone()).await;
            assert_eq!(res.status, StatusCode::OK, "{accept:?} {body}");
            assert_eq!(res.header("content-type"), Some("application/json"));
        }
    }
    let accept = Some("application/graphql-response+json, application/json;q=0.9");
    let res = post(&app, None, accept, ok.clone()).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(
        res.header("content-type"),
        Some("application/graphql-response+json")
    );
    for body in [&syntax, &invalid] {
        let res = post(&app, None, accept, body.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(
            res.header("content-type"),
            Some("application/graphql-response+json")
        );
        assert!(res.json()["errors"][0]["message"].is_string());
    }
}

#[tokio::test]
async fn nul_characters_in_rest_input_are_a_field_level_422() {
    let app = app().await;
    let token = admin(&app).await;
    let before = crate::common::api::table_json(&app, "items").await;
    let res = call(
        &app,
        Method::GET,
        "/api/v1/items?search=a%00b",
        None,
        &token,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("search"), "{}", res.text());
    let body = json!({"sku": "NUL-1", "name": "a\u{0}b", "item_type": "component"});
    let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(res.json()["details"]["errors"][0]["field"], "name");
    assert_eq!(crate::common::api::table_json(&app, "items").await, before);
}
