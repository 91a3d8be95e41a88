//! Locations through REST and GraphQL (CONTRACT 5.9; admins only): list, filters, search,
//! pages, create, update, delete (deactivation of MAIN and of locations in use), the tree
//! rules, every kind of bad input with the table unchanged, and who may call what.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, gql, operator};

/// The whole table as JSON text, to prove a refused request changed nothing.
async fn table(app: &TestApp) -> String {
    crate::common::api::table_json(app, "locations").await
}

fn codes(list: &Value) -> Vec<&str> {
    list.as_array()
        .expect("a bare array")
        .iter()
        .map(|l| l["code"].as_str().unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn locations_list_create_update_and_delete_through_rest() {
    let app = app().await;
    let t = admin(&app).await;

    // The seeded main warehouse, in the contract's row shape, as a bare array.
    let res = call(&app, Method::GET, "/api/v1/admin/locations", None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let list = res.json();
    assert_eq!(
        list,
        json!([{"id": 1, "code": "MAIN", "name": "Main Warehouse", "type": "warehouse", "parent_id": null, "active": true}])
    );

    // Create: type defaults to warehouse; codes are stored upper case; both spellings.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/locations/",
        Some(json!({"code": "east", "name": "East Warehouse"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let east = res.json();
    assert_eq!(
        (
            east["code"].as_str(),
            east["type"].as_str(),
            east["active"].as_bool()
        ),
        (Some("EAST"), Some("warehouse"), Some(true))
    );
    let east_id = east["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/locations",
        Some(
            json!({"code": "E-SHELF-1", "name": "Shelf 1", "type": "Shelf", "parent_id": east_id}),
        ),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let shelf = res.json();
    assert_eq!(shelf["type"], "shelf");
    assert_eq!(shelf["parent_id"], east_id);
    let shelf_id = shelf["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/locations",
        Some(json!({"code": "E-BIN-1", "name": "Bin 1", "type": "bin", "parent_id": shelf_id})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());
    let bin_id = res.json()["id"].as_i64().expect("id");

    // Bad input: the right 4xx, and the table is unchanged.
    let before = table(&app).await;
    let cases = [
        (
            json!({"code": "Main", "name": "Dup"}),
            StatusCode::BAD_REQUEST,
            "Location code 'MAIN' already exists",
        ),
        (
            json!({"name": "No code"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "code",
        ),
        (
            json!({"code": "X1"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"code": "X1", "name": 5}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"code": "X1", "name": "n", "parent_id": "up"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "parent_id",
        ),
        (
            json!({"code": "X1", "name": "n", "parent_id": 999}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Location 999 does not exist",
        ),
        (
            json!({"code": "  ", "name": "n"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "code",
        ),
        (
            json!({"code": "X1", "name": "n", "type": "shelf/2"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "type",
        ),
        (
            json!({"code": "X".repeat(51), "name": "n"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 50",
        ),
    ];
    for (body, status, needle) in cases {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/admin/locations",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(res.status, status, "{body} -> {}", res.text());
        assert!(res.text().contains(needle), "{body} -> {}", res.text());
    }
    let not_json = app
        .request(
            Request::builder()
                .method(Method::POST)
                .uri("/api/v1/admin/locations")
                .header("authorization", format!("Bearer {t}"))
                .header("content-type", "application/json")
                .body(Body::from("{not json"))
                .expect("request"),
        )
        .await;
    assert_eq!(not_json.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Updates that break a rule.
    let updates = [
        (
            format!("/api/v1/admin/locations/{east_id}"),
            json!({"parent_id": bin_id}),
            StatusCode::BAD_REQUEST,
            "cannot be placed inside itself",
        ),
        (
            format!("/api/v1/admin/locations/{east_id}"),
            json!({"parent_id": east_id}),
            StatusCode::BAD_REQUEST,
            "cannot be placed inside itself",
        ),
        (
            format!("/api/v1/admin/locations/{east_id}"),
            json!({"code": "e-shelf-1"}),
            StatusCode::BAD_REQUEST,
            "Location code 'E-SHELF-1' already exists",
        ),
        (
            format!("/api/v1/admin/locations/{east_id}"),
            json!({"name": ""}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            format!("/api/v1/admin/locations/{east_id}"),
            json!({"active": "maybe"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "active",
        ),
        (
            "/api/v1/admin/locations/999".to_string(),
            json!({"name": "Nowhere"}),
            StatusCode::NOT_FOUND,
            "Location not found",
        ),
        (
            "/api/v1/admin/locations/abc".to_string(),
            json!({"name": "Nowhere"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "path.id",
        ),
    ];
    for (path, body, status, needle) in updates {
        let res = call(&app, Method::PUT, &path, Some(body.clone()), &t).await;
        assert_eq!(res.status, status, "{path} {body} -> {}", res.text());
        assert!(
            res.text().contains(needle),
            "{path} {body} -> {}",
            res.text()
        );
    }
    let res = call(
        &app,
        Method::DELETE,
        "/api/v1/admin/locations/999",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(table(&app).await, before, "nothing written on bad input");

    // List: by code; search; filter by type and parent; pages.
    let all = call(&app, Method::GET, "/api/v1/admin/locations/", None, &t)
        .await
        .json();
    assert_eq!(codes(&all), ["E-BIN-1", "E-SHELF-1", "EAST", "MAIN"]);
    let found = call(
        &app,
        Method::GET,
        "/api/v1/admin/locations?search=shelf",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(codes(&found), ["E-SHELF-1"]);
    let bins = call(
        &app,
        Method::GET,
        "/api/v1/admin/locations?type=bin",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(codes(&bins), ["E-BIN-1"]);
    let inside = call(
        &app,
        Method::GET,
        &format!("/api/v1/admin/locations?parent_id={east_id}"),
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(codes(&inside), ["E-SHELF-1"]);
    let page = call(
        &app,
        Method::GET,
        "/api/v1/admin/locations?limit=2&offset=1",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(codes(&page), ["E-SHELF-1", "EAST"]);
    let bad = call(
        &app,
        Method::GET,
        "/api/v1/admin/locations?include_inactive=perhaps",
        None,
        &t,
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.text().contains("query.include_inactive"),
        "{}",
        bad.text()
    );

    // Update: rename, move to the top, change the type; GET one.
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/admin/locations/{bin_id}"),
        Some(json!({"name": "Bin One", "parent_id": null, "type": "staging area"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"id": bin_id, "code": "E-BIN-1", "name": "Bin One", "type": "staging_area", "parent_id": null, "active": true})
    );
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/admin/locations/{bin_id}/"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.json()["name"], "Bin One");
    let res = call(
        &app,
        Method::PUT,
        &format!("/api/v1/admin/locations/{bin_id}"),
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "an empty change answers the row"
    );
    assert_eq!(res.json()["name"], "Bin One");

    // Delete: an unused location is removed; one with sub-locations and MAIN are deactivated.
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/locations/{bin_id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"message": "Location 'E-BIN-1' deleted", "deleted": true})
    );
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/admin/locations/{bin_id}"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    let res = call(
        &app,
        Method::DELETE,
        &format!("/api/v1/admin/locations/{east_id}/"),
        None,
        &t,
    )
    .await;
    assert_eq!(
        res.json(),
        json!({"message": "Location 'EAST' deactivated (it is referenced by sub-locations)", "deleted": false})
    );
    let res = call(&app, Method::DELETE, "/api/v1/admin/locations/1", None, &t).await;
    assert_eq!(
        res.json(),
        json!({"message": "Location 'MAIN' deactivated (the main warehouse is never deleted)", "deleted": false})
    );
    let active = call(&app, Method::GET, "/api/v1/admin/locations", None, &t)
        .await
        .json();
    assert_eq!(codes(&active), ["E-SHELF-1"]);
    let every = call(
        &app,
        Method::GET,
        "/api/v1/admin/locations?include_inactive=true",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(codes(&every), ["E-SHELF-1", "EAST", "MAIN"]);
    // Reactivate.
    let res = call(
        &app,
        Method::PUT,
        "/api/v1/admin/locations/1",
        Some(json!({"active": true})),
        &t,
    )
    .await;
    assert_eq!(res.json()["active"], true);
}

#[tokio::test]
async fn locations_are_for_admins_only() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let before = table(&app).await;
    for (method, path, body) in [
        (Method::GET, "/api/v1/admin/locations", None),
        (Method::GET, "/api/v1/admin/locations/1", None),
        (
            Method::POST,
            "/api/v1/admin/locations",
            Some(json!({"code": "OP", "name": "Op"})),
        ),
        (
            Method::PUT,
            "/api/v1/admin/locations/1",
            Some(json!({"name": "Op"})),
        ),
        (Method::DELETE, "/api/v1/admin/locations/1", None),
    ] {
        let res = call(&app, method.clone(), path, body.clone(), &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(res.json(), json!({"detail": "Admin access required"}));
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
    let body = gql(&app, &op, "{ locations { totalCount } }", json!({})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "FORBIDDEN");
}

#[tokio::test]
async fn locations_through_graphql() {
    let app = app().await;
    let t = admin(&app).await;
    let create = "mutation($input: LocationCreateInput!) { locationCreate(input: $input) { location { id code type parentId active } userErrors { field code message } } }";
    let mut ids = Vec::new();
    for (code, kind) in [("B-2", "bin"), ("B-1", "bin"), ("S-1", "shelf")] {
        let body = gql(
            &app,
            &t,
            create,
            json!({"input": {"code": code, "name": code, "type": kind}}),
        )
        .await;
        assert!(body.get("errors").is_none(), "{body}");
        ids.push(
            body["data"]["locationCreate"]["location"]["id"]
                .as_i64()
                .expect("id"),
        );
    }
    let body = gql(
        &app,
        &t,
        create,
        json!({"input": {"code": "b-1", "name": "dup"}}),
    )
    .await;
    assert_eq!(
        body["data"]["locationCreate"],
        json!({"location": null, "userErrors": [{"field": "code", "code": "TAKEN", "message": "Location code 'B-1' already exists"}]})
    );
    // Missing required input field: refused by validation, before anything runs.
    let body = gql(&app, &t, create, json!({"input": {"code": "Z"}})).await;
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("name"),
        "{body}"
    );

    let list = "query($first: Int, $offset: Int, $type: String, $search: String) { locations(first: $first, offset: $offset, type: $type, search: $search) { totalCount nodes { code } pageInfo { hasNextPage hasPreviousPage offset limit } } }";
    let body = gql(&app, &t, list, json!({"first": 2, "offset": 1})).await;
    assert_eq!(body["data"]["locations"]["totalCount"], 4);
    assert_eq!(
        body["data"]["locations"]["nodes"],
        json!([{"code": "B-2"}, {"code": "MAIN"}])
    );
    assert_eq!(body["data"]["locations"]["pageInfo"]["hasNextPage"], true);
    let body = gql(&app, &t, list, json!({"type": "BIN"})).await;
    assert_eq!(body["data"]["locations"]["totalCount"], 2);
    let body = gql(&app, &t, list, json!({"search": "main"})).await;
    assert_eq!(
        body["data"]["locations"]["nodes"],
        json!([{"code": "MAIN"}])
    );
    let body = gql(&app, &t, list, json!({"first": 0})).await;
    assert_eq!(
        body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT",
        "{body}"
    );

    // Move the bins onto the shelf, then try to put the shelf into a bin: a cycle.
    let update = "mutation($id: Int!, $input: LocationUpdateInput!) { locationUpdate(id: $id, input: $input) { location { code parentId } userErrors { field code message } } }";
    for bin in &ids[..2] {
        let body = gql(
            &app,
            &t,
            update,
            json!({"id": bin, "input": {"parentId": ids[2]}}),
        )
        .await;
        assert_eq!(
            body["data"]["locationUpdate"]["location"]["parentId"],
            ids[2]
        );
    }
    let body = gql(
        &app,
        &t,
        update,
        json!({"id": ids[2], "input": {"parentId": ids[0]}}),
    )
    .await;
    assert_eq!(
        body["data"]["locationUpdate"]["userErrors"][0]["code"],
        "NOT_ALLOWED"
    );
    assert_eq!(
        body["data"]["locationUpdate"]["userErrors"][0]["field"],
        "parentId"
    );
    let body = gql(&app, &t, update, json!({"id": 999, "input": {"name": "x"}})).await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "NOT_FOUND");

    let delete = "mutation($id: Int!) { locationDelete(id: $id) { deleted message location { code active } userErrors { code } } }";
    let body = gql(&app, &t, delete, json!({"id": ids[2]})).await;
    assert_eq!(body["data"]["locationDelete"]["deleted"], false);
    assert_eq!(body["data"]["locationDelete"]["location"]["active"], false);
    let body = gql(&app, &t, delete, json!({"id": ids[0]})).await;
    assert_eq!(body["data"]["locationDelete"]["deleted"], true);
    let body = gql(
        &app,
        &t,
        "query($id: Int!) { location(id: $id) { code } }",
        json!({"id": ids[0]}),
    )
    .await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "NOT_FOUND");
}
