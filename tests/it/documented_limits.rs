//! The limits the OpenAPI document states (`maxLength`, `minimum`, `maximum`, from the
//! schema's `@length` and `@range` directives) are the limits the server enforces: on each
//! create route below, every limited property is refused one step past its limit with a
//! field-level 422 that names it, and nothing is written.

use crate::common::api::{admin, app, call, table_json};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

/// A create route, a body it accepts, and the table it writes.
const ROUTES: &[(&str, &str, &str)] = &[
    ("/api/v1/vendors/", r#"{"name": "Vendor"}"#, "vendors"),
    (
        "/api/v1/admin/customers/",
        r#"{"email": "c@example.com", "first_name": "Ann", "last_name": "Lee"}"#,
        "customers",
    ),
    (
        "/api/v1/admin/locations",
        r#"{"code": "LIM-1", "name": "Shelf"}"#,
        "locations",
    ),
    (
        "/api/v1/printers/",
        r#"{"code": "LIM-P1", "name": "Printer", "model": "X1C"}"#,
        "printers",
    ),
    (
        "/api/v1/items",
        r#"{"name": "Item", "item_type": "finished_good", "unit": "EA"}"#,
        "items",
    ),
];

/// The JSON schema of a property, without the `null` branch of a nullable one.
fn non_null(schema: &Value) -> &Value {
    schema["anyOf"]
        .as_array()
        .and_then(|branches| branches.iter().find(|b| b["type"] != "null"))
        .unwrap_or(schema)
}

#[tokio::test]
async fn every_documented_limit_is_enforced_one_step_past_it() {
    let app = app().await;
    let t = admin(&app).await;
    let document = app.get("/api/v1/openapi.json").await.json();
    let mut checked = 0;
    for (path, body, table) in ROUTES {
        let documented = path.trim_start_matches("/api/v1");
        let schema = &document["paths"][documented]["post"]["requestBody"]["content"]["application/json"]
            ["schema"];
        let properties = schema["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{path}: no body schema in {schema}"));
        let before = table_json(&app, table).await;
        for (field, property) in properties {
            let property = non_null(property);
            let mut past = Vec::new();
            if let Some(max) = property["maxLength"].as_u64() {
                past.push(Value::String("x".repeat(max as usize + 1)));
            }
            if let Some(max) = property["maximum"].as_i64() {
                past.push(json!(max + 1));
            }
            if let Some(min) = property["minimum"].as_i64() {
                past.push(json!(min - 1));
            }
            for value in past {
                let mut sent: Value = serde_json::from_str(body).expect("body");
                sent[field] = value;
                let res = call(&app, Method::POST, path, Some(sent), &t).await;
                assert_eq!(
                    res.status,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "{path} {field}: {}",
                    res.text()
                );
                assert!(
                    res.text().contains(&format!("\"{field}\"")),
                    "{path}: the 422 does not name {field}: {}",
                    res.text()
                );
                checked += 1;
            }
        }
        assert_eq!(
            table_json(&app, table).await,
            before,
            "{path}: a refused body wrote"
        );
    }
    assert!(
        checked >= 50,
        "only {checked} documented limits on the create routes"
    );
}

#[tokio::test]
async fn the_schema_states_the_limits_as_directives() {
    let sdl = strata::application::areas::sdl();
    assert!(
        sdl.contains("directive @length(max: Int!) on"),
        "{sdl:.200}"
    );
    assert!(sdl.contains("directive @range(min: Int!, max: Int!) on"));
    assert!(sdl.contains("name: String! @length(max: 200)"));
    assert!(sdl.contains("rating: Int @range(min: 1, max: 5)"));
}
