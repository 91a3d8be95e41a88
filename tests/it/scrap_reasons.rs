//! Scrap reasons through REST and GraphQL (CONTRACT 5.12): the active list in the original's
//! `{reasons, details, descriptions}` shape at both paths, the full list, create, update,
//! deactivate, bad input with the table unchanged, and the split between reading (any
//! signed-in user) and changing (admins).

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, gql, operator};

/// The whole table as JSON text, to prove a refused request changed nothing.
async fn table(app: &TestApp) -> String {
    crate::common::api::table_json(app, "scrap_reasons").await
}

const SEEDED: [&str; 14] = [
    "adhesion",
    "layer_shift",
    "stringing",
    "warping",
    "nozzle_clog",
    "damage",
    "quality_fail",
    "dimensional",
    "surface_defect",
    "material_defect",
    "wrong_material",
    "operator_error",
    "machine_failure",
    "other",
];

#[tokio::test]
async fn scrap_reasons_through_rest() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    // The seeded reasons, in sequence order, at the spec's path and the original's.
    for path in [
        "/api/v1/scrap-reasons/",
        "/api/v1/scrap-reasons",
        "/api/v1/production-orders/scrap-reasons",
        "/api/v1/production-orders/scrap-reasons/",
    ] {
        let res = call(&app, Method::GET, path, None, &op).await;
        assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
        let body = res.json();
        assert_eq!(body["reasons"], json!(SEEDED), "{path}");
        assert_eq!(
            body["details"][1],
            json!({"id": 2, "code": "layer_shift", "name": "Layer shift", "description": "Layers are offset from each other", "sequence": 20})
        );
        assert_eq!(
            body["descriptions"]["adhesion"],
            "The print came loose from the build plate"
        );
        assert_eq!(body["descriptions"].as_object().map(|o| o.len()), Some(14));
    }

    // Create (admins): codes lower case, sequence defaults to 0 (so it comes first).
    let res = call(
        &app,
        Method::POST,
        "/api/v1/scrap-reasons/",
        Some(json!({"code": "Spaghetti", "name": "Spaghetti"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let created = res.json();
    assert_eq!(
        created,
        json!({"id": created["id"], "code": "spaghetti", "name": "Spaghetti", "description": null, "sequence": 0, "active": true})
    );
    let id = created["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::POST,
        "/api/v1/production-orders/scrap-reasons",
        Some(json!({"code": "blob", "name": "Blob", "description": "  ", "sequence": 5})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    assert_eq!(res.json()["description"], Value::Null, "blank becomes null");
    let list = call(&app, Method::GET, "/api/v1/scrap-reasons", None, &op)
        .await
        .json();
    assert_eq!(list["reasons"][0], "spaghetti");
    assert_eq!(list["reasons"][1], "blob");
    assert_eq!(
        list["descriptions"]["spaghetti"], "Spaghetti",
        "no description: the name"
    );

    // Bad input: the right 4xx, and the table is unchanged.
    let before = table(&app).await;
    let cases = [
        (
            json!({"code": "LAYER_SHIFT", "name": "Again"}),
            StatusCode::BAD_REQUEST,
            "Scrap reason code 'layer_shift' already exists",
        ),
        (
            json!({"name": "No code"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "code",
        ),
        (
            json!({"code": "x"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"code": "", "name": "n"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at least 1",
        ),
        (
            json!({"code": "x".repeat(51), "name": "n"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 50",
        ),
        (
            json!({"code": "x", "name": "n".repeat(101)}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 100",
        ),
        (
            json!({"code": "x", "name": "n", "sequence": "first"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "sequence",
        ),
        (
            json!({"code": ["x"], "name": "n"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "code",
        ),
    ];
    for (body, status, needle) in cases {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/scrap-reasons/",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
        assert!(res.text().contains(needle), "{body} -> {}", res.text());
    }
    for (method, path, body, status) in [
        (
            Method::PUT,
            "/api/v1/scrap-reasons/999".to_string(),
            Some(json!({"name": "x"})),
            StatusCode::NOT_FOUND,
        ),
        (
            Method::DELETE,
            "/api/v1/scrap-reasons/999".to_string(),
            None,
            StatusCode::NOT_FOUND,
        ),
        (
            Method::PUT,
            format!("/api/v1/scrap-reasons/{id}"),
            Some(json!({"name": ""})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::PUT,
            format!("/api/v1/scrap-reasons/{id}"),
            Some(json!({"active": "no way"})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            Method::PUT,
            "/api/v1/scrap-reasons/abc".to_string(),
            Some(json!({"name": "x"})),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        // Operators read, but do not change.
        (
            Method::POST,
            "/api/v1/scrap-reasons/".to_string(),
            Some(json!({"code": "op", "name": "Op"})),
            StatusCode::FORBIDDEN,
        ),
        (
            Method::PUT,
            format!("/api/v1/scrap-reasons/{id}"),
            Some(json!({"name": "Op"})),
            StatusCode::FORBIDDEN,
        ),
        (
            Method::DELETE,
            format!("/api/v1/production-orders/scrap-reasons/{id}"),
            None,
            StatusCode::FORBIDDEN,
        ),
    ] {
        let token = if status == StatusCode::FORBIDDEN {
            &op
        } else {
            &t
        };
        let res = call(&app, method.clone(), &path, body.clone(), token).await;
        assert_eq!(
            res.status,
            status,
            "{method} {path} {body:?} -> {}",
            res.text()
        );
        if status == StatusCode::FORBIDDEN {
            assert_eq!(res.json(), json!({"detail": "Admin access required"}));
        }
    }
    assert_eq!(table(&app).await, before, "nothing written on bad input");

    // Update: the code stays; description cleared; sequence moves it.
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/production-orders/scrap-reasons/{id}/"),
        Some(json!({"name": "Spaghetti monster", "description": "Detached mid-print", "sequence": 1000, "code": "ignored"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let updated = res.json();
    assert_eq!(
        (
            updated["code"].as_str(),
            updated["name"].as_str(),
            updated["sequence"].as_i64()
        ),
        (Some("spaghetti"), Some("Spaghetti monster"), Some(1000))
    );
    let list = call(&app, Method::GET, "/api/v1/scrap-reasons/", None, &op)
        .await
        .json();
    assert_eq!(
        list["reasons"].as_array().and_then(|r| r.last()),
        Some(&json!("spaghetti"))
    );
    assert_eq!(list["descriptions"]["spaghetti"], "Detached mid-print");

    // Delete deactivates: gone from the active list, still in /all.
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/scrap-reasons/{id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"message": "Scrap reason 'spaghetti' has been deactivated"})
    );
    let list = call(&app, Method::GET, "/api/v1/scrap-reasons/", None, &op)
        .await
        .json();
    assert_eq!(list["reasons"].as_array().map(Vec::len), Some(15));
    assert!(list["descriptions"].get("spaghetti").is_none());
    for path in [
        "/api/v1/scrap-reasons/all",
        "/api/v1/production-orders/scrap-reasons/all/",
    ] {
        let all = call(&app, Method::GET, path, None, &op).await.json();
        let rows = all.as_array().expect("a bare array");
        assert_eq!(rows.len(), 16, "{path}");
        let gone = rows
            .iter()
            .find(|r| r["code"] == "spaghetti")
            .expect("still listed");
        assert_eq!(gone["active"], false);
    }
    // And back.
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/scrap-reasons/{id}"),
        Some(json!({"active": true})),
        &t,
    )
    .await;
    assert_eq!(res.json()["active"], true);

    // Nobody without a session.
    for path in [
        "/api/v1/scrap-reasons/",
        "/api/v1/scrap-reasons/all",
        "/api/v1/production-orders/scrap-reasons",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(res.json(), json!({"detail": "Not authenticated"}));
    }
}

#[tokio::test]
async fn scrap_reasons_through_graphql() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let list = "query($first: Int, $offset: Int, $search: String, $all: Boolean = false) { scrapReasons(first: $first, offset: $offset, search: $search, includeInactive: $all) { totalCount codes descriptions nodes { code sequence } pageInfo { hasNextPage } } }";
    let body = gql(&app, &op, list, json!({"first": 3, "offset": 1})).await;
    let page = &body["data"]["scrapReasons"];
    assert_eq!(page["totalCount"], 14, "{body}");
    assert_eq!(
        page["codes"],
        json!(["layer_shift", "stringing", "warping"])
    );
    assert_eq!(
        page["descriptions"]["warping"],
        "Corners lifted or the part bent while cooling"
    );
    assert_eq!(page["pageInfo"]["hasNextPage"], true);
    let body = gql(&app, &op, list, json!({"search": "NOZZLE"})).await;
    assert_eq!(
        body["data"]["scrapReasons"]["codes"],
        json!(["nozzle_clog"])
    );
    let body = gql(&app, &op, list, json!({"first": 251})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");

    let create = "mutation($input: ScrapReasonCreateInput!) { scrapReasonCreate(input: $input) { scrapReason { id code sequence } userErrors { field code message } } }";
    let body = gql(
        &app,
        &op,
        create,
        json!({"input": {"code": "x", "name": "X"}}),
    )
    .await;
    assert_eq!(
        body["errors"][0]["extensions"]["code"], "FORBIDDEN",
        "operators do not add reasons"
    );
    let body = gql(
        &app,
        &t,
        create,
        json!({"input": {"code": " Z_Fold ", "name": "Z fold", "sequence": 15}}),
    )
    .await;
    let reason = &body["data"]["scrapReasonCreate"]["scrapReason"];
    assert_eq!(
        (reason["code"].as_str(), reason["sequence"].as_i64()),
        (Some("z_fold"), Some(15)),
        "{body}"
    );
    let id = reason["id"].as_i64().expect("id");
    let body = gql(
        &app,
        &t,
        create,
        json!({"input": {"code": "z_FOLD", "name": "Again"}}),
    )
    .await;
    assert_eq!(
        body["data"]["scrapReasonCreate"]["userErrors"][0]["code"],
        "TAKEN"
    );
    let body = gql(&app, &t, create, json!({"input": {"code": "", "name": ""}})).await;
    let fields: Vec<&str> = body["data"]["scrapReasonCreate"]["userErrors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| e["field"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(fields, ["code", "name"]);
    let body = gql(&app, &op, list, json!({"first": 3})).await;
    assert_eq!(
        body["data"]["scrapReasons"]["codes"],
        json!(["adhesion", "z_fold", "layer_shift"])
    );

    let update = "mutation($id: Int!, $input: ScrapReasonUpdateInput!) { scrapReasonUpdate(id: $id, input: $input) { scrapReason { description active } userErrors { field } } }";
    let body = gql(
        &app,
        &t,
        update,
        json!({"id": id, "input": {"description": "Folded in Z"}}),
    )
    .await;
    assert_eq!(
        body["data"]["scrapReasonUpdate"]["scrapReason"]["description"],
        "Folded in Z"
    );
    let body = gql(
        &app,
        &t,
        update,
        json!({"id": id, "input": {"description": null}}),
    )
    .await;
    assert_eq!(
        body["data"]["scrapReasonUpdate"]["scrapReason"]["description"],
        Value::Null
    );
    let body = gql(&app, &t, update, json!({"id": 999, "input": {"name": "x"}})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "NOT_FOUND");

    let body = gql(
        &app,
        &t,
        "mutation($id: Int!) { scrapReasonDelete(id: $id) { message scrapReason { active } } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(
        body["data"]["scrapReasonDelete"]["message"],
        "Scrap reason 'z_fold' has been deactivated"
    );
    let body = gql(&app, &op, list, json!({"all": true})).await;
    assert_eq!(body["data"]["scrapReasons"]["totalCount"], 15);
    let body = gql(
        &app,
        &op,
        "query($id: Int!) { scrapReason(id: $id) { code active } }",
        json!({"id": id}),
    )
    .await;
    assert_eq!(
        body["data"]["scrapReason"],
        json!({"code": "z_fold", "active": false})
    );
}
