//! Running a compiled route and turning the GraphQL response into the HTTP answer: the
//! declared part of `data` serialised once, straight from async-graphql's value, or the
//! error in the one error shape.

use async_graphql::{Name, ServerError, Value as ConstValue, Variables};
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::{Map, Value};

use super::compile::CompiledRoute;
use super::route::Method;
use super::types::snake_case;
use crate::platform::error::{AppError, ErrorCode, FieldError};
use crate::platform::graphql::AppSchema;
use crate::platform::graphql::errors::code_of;
use crate::platform::graphql::user_error::UserErrorCode;

pub use crate::platform::http::answer_cache::Answer;

/// Executes a route's pre-parsed operation with these variables and this request's data.
pub async fn execute(
    schema: &AppSchema,
    pool: Option<&crate::platform::db::DbPool>,
    route: &CompiledRoute,
    variables: Map<String, Value>,
    meta: crate::platform::auth::RequestMeta,
    uploads: Vec<(String, async_graphql::UploadValue)>,
) -> async_graphql::Response {
    let mut request = async_graphql::Request::new(String::new())
        .variables(Variables::from_json(Value::Object(variables)))
        .data(meta);
    request.set_parsed_query(route.document.clone());
    if let Some(pool) = pool {
        request = schema.per_request(request, pool);
    }
    for (name, upload) in uploads {
        request.set_upload(&format!("variables.{name}"), upload);
    }
    crate::platform::graphql::execute(schema, request).await
}

/// The body value a route answers with, or its error.
pub fn shape(
    route: &CompiledRoute,
    data: ConstValue,
    errors: &[ServerError],
) -> Result<ConstValue, AppError> {
    if let Some(error) = errors.first() {
        return Err(to_app_error(route, error));
    }
    let mut segments = route.response_path.iter();
    let mut value = match (data, segments.next()) {
        (ConstValue::Object(mut map), Some(root)) => {
            map.shift_remove(root.as_str()).unwrap_or(ConstValue::Null)
        }
        _ => ConstValue::Null,
    };
    if let (Some(key), ConstValue::Object(obj)) = (&route.user_errors_key, &mut value)
        && let Some(ConstValue::List(user_errors)) = obj.shift_remove(key.as_str())
        && !user_errors.is_empty()
    {
        return Err(user_errors_to_app_error(&user_errors));
    }
    for segment in segments {
        value = match value {
            ConstValue::Object(mut map) => map
                .shift_remove(segment.as_str())
                .unwrap_or(ConstValue::Null),
            _ => ConstValue::Null,
        };
    }
    if value == ConstValue::Null && route.route.method == Method::Get && !route.route.null_ok {
        return Err(AppError::not_found("Not found"));
    }
    if let (Some(field), ConstValue::List(items)) = (route.route.keyed_by, &value) {
        value = keyed(items, field);
    }
    if let ConstValue::Object(obj) = &mut value {
        for key in route.route.flatten {
            if let Some(ConstValue::Object(inner)) = obj.shift_remove(*key) {
                obj.extend(inner);
            }
        }
        if route.route.omit_nulls {
            obj.retain(|_, v| *v != ConstValue::Null);
        }
    }
    if let Some(key) = route.route.wrap {
        let mut outer = async_graphql::indexmap::IndexMap::new();
        outer.insert(async_graphql::Name::new(key), value);
        value = ConstValue::Object(outer);
    }
    Ok(value)
}

/// The elements of a list by their `field` (as text), each without that field.
fn keyed(items: &[ConstValue], field: &str) -> ConstValue {
    let mut out = async_graphql::indexmap::IndexMap::new();
    for item in items {
        if let ConstValue::Object(obj) = item {
            let mut obj = obj.clone();
            let key = match obj.shift_remove(field) {
                Some(ConstValue::Number(n)) => n.to_string(),
                Some(ConstValue::String(s)) => s,
                _ => continue,
            };
            out.insert(async_graphql::Name::new(key), ConstValue::Object(obj));
        }
    }
    ConstValue::Object(out)
}

/// Turns a successful body value into the answer: JSON serialised once, a raw string, or 204.
pub fn answer(route: &CompiledRoute, value: &ConstValue) -> Result<Answer, AppError> {
    let status = StatusCode::from_u16(route.route.status).unwrap_or(StatusCode::OK);
    let mut headers = HeaderMap::new();
    // 201 names what was created, 202 where to watch what was queued.
    if matches!(status, StatusCode::CREATED | StatusCode::ACCEPTED)
        && let Some(template) = route.route.location
        && let Some(location) = fill_template(template, value)
        && let Ok(v) = HeaderValue::from_str(&location)
    {
        headers.insert(header::LOCATION, v);
    }
    let (body, content_type) = match (status, route.route.raw, value) {
        (StatusCode::NO_CONTENT, _, _) => (Bytes::new(), "application/json"),
        (_, Some(content_type), ConstValue::String(text)) => {
            (Bytes::from(text.clone()), content_type)
        }
        (_, Some(content_type), _) => (Bytes::new(), content_type),
        _ => (
            Bytes::from(serde_json::to_vec(value).map_err(AppError::internal)?),
            "application/json",
        ),
    };
    Ok(Answer {
        status,
        body,
        content_type,
        headers,
    })
}

/// Copies the headers resolvers set (cookies) onto an answer.
pub fn with_resolver_headers(mut answer: Answer, headers: &HeaderMap) -> Answer {
    for (name, value) in headers {
        answer.headers.append(name.clone(), value.clone());
    }
    answer
}

/// `/api/v1/items/{id}` with `{id}` taken from the body.
fn fill_template(template: &str, value: &ConstValue) -> Option<String> {
    let ConstValue::Object(obj) = value else {
        return None;
    };
    let mut out = String::with_capacity(template.len() + 8);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}')? + start;
        out.push_str(&rest[..start]);
        let key = &rest[start + 1..end];
        match obj.get(key)? {
            ConstValue::Number(n) => out.push_str(&n.to_string()),
            ConstValue::String(s) => out.push_str(
                &percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC)
                    .to_string(),
            ),
            _ => return None,
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// A GraphQL error as the REST error, naming the REST parameter behind a root argument.
pub fn to_app_error(route: &CompiledRoute, error: &ServerError) -> AppError {
    let code = code_of(error);
    let ext = error.extensions.as_ref();
    let mut app = AppError::new(code, error.message.clone());
    if let Some(ConstValue::List(fields)) = ext.and_then(|e| e.get("fields")) {
        for f in fields {
            if let ConstValue::Object(m) = f {
                let get = |k: &str| match m.get(k) {
                    Some(ConstValue::String(s)) => s.clone(),
                    _ => String::new(),
                };
                let field = get("field");
                let field = route
                    .argument_fields
                    .get(&field)
                    .filter(|rest| !rest.is_empty())
                    .cloned()
                    .unwrap_or(field);
                app.fields
                    .push(FieldError::new(field, get("message")).with_kind(get("type")));
            }
        }
    }
    if let Some(ConstValue::Number(n)) = ext.and_then(|e| e.get("retryAfter")) {
        app.retry_after = n.as_u64();
    }
    if code == ErrorCode::BadUserInput {
        if app.fields.is_empty() {
            app.fields
                .push(FieldError::new("body", error.message.clone()));
        }
        app.message = "Request validation failed".into();
    }
    app
}

fn text_of(obj: &async_graphql::indexmap::IndexMap<Name, ConstValue>, key: &str) -> Option<String> {
    match obj.get(key) {
        Some(ConstValue::String(s)) => Some(s.clone()),
        Some(ConstValue::Enum(e)) => Some(e.to_string()),
        _ => None,
    }
}

fn user_errors_to_app_error(errors: &[ConstValue]) -> AppError {
    let parsed: Vec<(Option<String>, UserErrorCode, String)> = errors
        .iter()
        .filter_map(|e| match e {
            ConstValue::Object(obj) => Some((
                text_of(obj, "field").map(|f| snake_case(&f)),
                text_of(obj, "code")
                    .and_then(|c| UserErrorCode::from_name(&c))
                    .unwrap_or(UserErrorCode::Invalid),
                text_of(obj, "message").unwrap_or_default(),
            )),
            _ => None,
        })
        .collect();
    let invalid: Vec<FieldError> = parsed
        .iter()
        .filter(|(_, code, _)| *code == UserErrorCode::Invalid)
        .map(|(field, _, message)| {
            FieldError::new(field.clone().unwrap_or_default(), message.clone())
        })
        .collect();
    if !invalid.is_empty() {
        return AppError::validation(invalid);
    }
    match parsed.first() {
        Some((_, code, message)) => AppError::new(code.error_code(), message.clone()),
        None => AppError::internal("a mutation reported malformed userErrors"),
    }
}
