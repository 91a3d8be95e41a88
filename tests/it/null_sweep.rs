//! Nulls as FilaOps's client sends them (issue 37): on every write route with a JSON body,
//! each optional field (one that may be omitted) set to an explicit `null` means "not
//! given". The sweep sends every such route a body with all its optional fields null (one
//! level into arrays of objects as well) and checks the answer is never a 5xx and never a
//! 422 that names a field it nulled. Required fields are left out, so a 422 naming *them*
//! is expected; path ids are 1 (most routes then answer 404, after binding, which is the
//! point: binding is what the sweep is about).

use axum::http::{Method, StatusCode};
use serde_json::{Map, Value, json};

use crate::common::api::{admin, app, call};

/// Routes whose side effects would end the sweep's session or the database it runs on.
const SKIPPED_PREFIXES: &[&str] = &["/auth/", "/setup/", "/admin/users/"];

/// The names a schema's properties may be nulled under: those not in `required`.
fn optional_properties(schema: &Value) -> Vec<(String, Value)> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema["properties"]
        .as_object()
        .map(|p| {
            p.iter()
                .filter(|(name, _)| !required.contains(&name.as_str()))
                .map(|(name, s)| (name.clone(), s.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// A body with every optional field null, and required arrays of objects given one element
/// whose optional fields are null; with the paths (`lines.0.notes`) of what was nulled.
fn all_nulls(schema: &Value) -> (Value, Vec<String>) {
    let mut body = Map::new();
    let mut nulled = Vec::new();
    for (name, _) in optional_properties(schema) {
        body.insert(name.clone(), Value::Null);
        nulled.push(name);
    }
    for name in schema["required"].as_array().into_iter().flatten() {
        let Some(name) = name.as_str() else { continue };
        let property = &schema["properties"][name];
        if property["type"] == "array" && property["items"]["type"] == "object" {
            let (element, inner) = all_nulls(&property["items"]);
            nulled.extend(inner.into_iter().map(|f| format!("{name}.0.{f}")));
            body.insert(name.to_string(), json!([element]));
        }
    }
    (Value::Object(body), nulled)
}

#[tokio::test]
async fn every_optional_field_takes_an_explicit_null() {
    let app = app().await;
    let t = admin(&app).await;
    let document = app.get("/api/v1/openapi.json").await.json();
    let mut swept = 0;
    let mut nulled_fields = 0;
    let mut failures = Vec::new();
    let parameter = regex::Regex::new(r"\{[^}]+\}").expect("re");
    for (path, operations) in document["paths"].as_object().expect("paths") {
        if SKIPPED_PREFIXES.iter().any(|p| path.starts_with(p)) {
            continue;
        }
        for (method, operation) in operations.as_object().expect("operations") {
            let method = match method.as_str() {
                "post" => Method::POST,
                "put" => Method::PUT,
                "patch" => Method::PATCH,
                _ => continue,
            };
            let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
            if schema["type"] != "object" {
                continue;
            }
            let (body, nulled) = all_nulls(schema);
            if nulled.is_empty() {
                continue;
            }
            let concrete = parameter.replace_all(path, "1").into_owned();
            let res = call(
                &app,
                method.clone(),
                &format!("/api/v1{concrete}"),
                Some(body.clone()),
                &t,
            )
            .await;
            swept += 1;
            nulled_fields += nulled.len();
            if res.status.is_server_error() {
                failures.push(format!("{method} {path}: {} {}", res.status, res.text()));
                continue;
            }
            if res.status == StatusCode::UNPROCESSABLE_ENTITY {
                let answer = res.json();
                for error in answer["details"]["errors"].as_array().into_iter().flatten() {
                    let field = error["field"].as_str().unwrap_or_default();
                    // "Field required" is right for a null where the field is needed:
                    // null means "not given", and not giving it is what is refused.
                    let required = error["message"] == "Field required";
                    if nulled.iter().any(|n| n == field) && !required {
                        failures.push(format!(
                            "{method} {path}: null {field} refused: {}",
                            error["message"]
                        ));
                    }
                }
            }
        }
    }
    println!("null sweep: {swept} write routes, {nulled_fields} optional fields sent as null");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(swept >= 80, "only {swept} write routes swept");
}
