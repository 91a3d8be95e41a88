//! Binding a request to a stored operation's variables: path segments, query parameters,
//! JSON (objects or arrays), form and multipart bodies, and declared headers, each coerced to
//! the variable's declared type. Whatever does not fit is reported field by field (CONTRACT
//! 8's 422) before anything runs.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::http::{HeaderMap, Uri, header};
use serde_json::{Map, Value};

use super::compile::{CompiledRoute, Variable};
use super::route::Body;
use super::types::{Source, TypeInfo, camel_case, not_given, snake_case};
use crate::platform::error::{AppError, ErrorCode, FieldError};

/// What kind of body a request declares with its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyType {
    Json,
    Form,
    Multipart,
}

fn body_type(headers: &HeaderMap) -> Option<BodyType> {
    let ct = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    let essence = ct.split(';').next().unwrap_or_default().trim();
    if essence.eq_ignore_ascii_case("application/json") || essence.ends_with("+json") {
        Some(BodyType::Json)
    } else if essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
        Some(BodyType::Form)
    } else if essence.eq_ignore_ascii_case("multipart/form-data") {
        Some(BodyType::Multipart)
    } else {
        None
    }
}

fn unsupported(expected: &str) -> AppError {
    AppError::new(
        ErrorCode::UnsupportedMediaType,
        format!("Unsupported media type: send {expected}"),
    )
}

/// Checks that a body carries the type its route reads: JSON routes take
/// `application/json`, form bodies only where a route declares them, uploads
/// `multipart/form-data`. An empty body needs no type.
pub fn check_content_type(
    route: &CompiledRoute,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<(), AppError> {
    if route.route.body == Body::None || body.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    match (route.route.body, body_type(headers)) {
        (Body::Multipart, Some(BodyType::Multipart)) => Ok(()),
        (Body::Multipart, _) => Err(unsupported("multipart/form-data")),
        (_, Some(BodyType::Json)) => Ok(()),
        (_, Some(BodyType::Form)) if route.route.accepts_form => Ok(()),
        (_, _) if route.route.accepts_form => Err(unsupported(
            "application/json or application/x-www-form-urlencoded",
        )),
        _ => Err(unsupported("application/json")),
    }
}

/// Reads a multipart body: text parts become a form-encoded body for [`bind`], file parts
/// become uploads (spooled to anonymous temporary files, as async-graphql expects).
pub async fn read_multipart(
    headers: &HeaderMap,
    body: Bytes,
) -> Result<(Bytes, Vec<(String, async_graphql::UploadValue)>), AppError> {
    let bad =
        |m: String| AppError::validation(vec![FieldError::new("body", m).with_kind("multipart")]);
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let boundary = multer::parse_boundary(content_type)
        .map_err(|_| bad("Expected a multipart/form-data body".into()))?;
    let stream = futures_util::stream::once(async move { Ok::<Bytes, std::io::Error>(body) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    let mut text: Vec<(String, String)> = Vec::new();
    let mut uploads = Vec::new();
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| bad(format!("Malformed multipart body: {e}")))?
    {
        let name = camel_case(field.name().unwrap_or_default());
        match field.file_name().map(str::to_string) {
            Some(filename) => {
                let content_type = field.content_type().map(|m| m.to_string());
                let data = field
                    .bytes()
                    .await
                    .map_err(|e| bad(format!("Malformed multipart body: {e}")))?;
                let mut file = tempfile::tempfile().map_err(AppError::internal)?;
                std::io::Write::write_all(&mut file, &data).map_err(AppError::internal)?;
                std::io::Seek::rewind(&mut file).map_err(AppError::internal)?;
                uploads.push((
                    name,
                    async_graphql::UploadValue {
                        filename,
                        content_type,
                        content: file,
                    },
                ));
            }
            None => {
                let value = field
                    .text()
                    .await
                    .map_err(|e| bad(format!("Malformed multipart body: {e}")))?;
                text.push((snake_case(&name), value));
            }
        }
    }
    let encoded = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(text)
        .finish();
    Ok((Bytes::from(encoded), uploads))
}

/// True for the `Upload` scalar (bound from multipart file parts).
pub fn is_upload(ty: &async_graphql::parser::types::Type) -> bool {
    super::types::named_type(ty) == "Upload"
}

/// The decoded body: JSON (any value) or form fields.
fn read_body(
    route: &CompiledRoute,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Option<Value>, Vec<FieldError>> {
    match route.route.body {
        Body::None => Ok(None),
        _ if body.iter().all(u8::is_ascii_whitespace) => Ok(Some(Value::Object(Map::new()))),
        Body::Multipart => Ok(Some(Value::Object(form_to_map(body)))),
        _ if body_type(headers) == Some(BodyType::Form) => {
            Ok(Some(Value::Object(form_to_map(body))))
        }
        _ => serde_json::from_slice::<Value>(body)
            .map(Some)
            .map_err(|e| {
                vec![
                    FieldError::new("body", format!("JSON decode error: {e}"))
                        .with_kind("json_invalid"),
                ]
            }),
    }
}

/// Binds path, body, header and query values to the operation's variables.
pub fn bind(
    route: &CompiledRoute,
    types: &TypeInfo,
    pattern: &str,
    uri: &Uri,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Map<String, Value>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut out = Map::new();

    // Path parameters, matched against the declared pattern.
    let from_path = path_params(pattern, uri);

    let body_value = read_body(route, headers, body)?;
    let body_source =
        if route.route.body == Body::Multipart || body_type(headers) == Some(BodyType::Form) {
            Source::Text
        } else {
            Source::Json
        };
    let body_object = body_object(route, &body_value)?;

    let query = uri
        .query()
        .map(|q| form_to_map(q.as_bytes()))
        .unwrap_or_default();

    let given = Given {
        route,
        types,
        headers,
        from_path,
        body_value,
        body_object,
        body_source,
        query,
    };
    for var in &route.variables {
        // Files are bound (and reported missing) by the handler from the multipart parts.
        if is_upload(&var.ty) {
            continue;
        }
        if let Some(c) = given.value_of(var, &mut errors) {
            out.insert(var.name.clone(), c);
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        // A whole-body input that is not even the right kind of value is the body's fault.
        for e in &mut errors {
            if e.field.is_empty() {
                e.field = "body".into();
            }
        }
        Err(errors)
    }
}

/// The path's parameters by camelCase name, percent-decoded, matched against `pattern`.
fn path_params(pattern: &str, uri: &Uri) -> HashMap<String, Value> {
    let mut from_path: HashMap<String, Value> = HashMap::new();
    let actual_segments: Vec<&str> = {
        let path = uri.path().trim_end_matches('/');
        let pattern_len = pattern.trim_end_matches('/').split('/').count();
        let all: Vec<&str> = path.split('/').collect();
        all[all.len().saturating_sub(pattern_len)..].to_vec()
    };
    for (seg, actual) in pattern
        .trim_end_matches('/')
        .split('/')
        .zip(actual_segments)
    {
        if let Some(name) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            let decoded = percent_encoding::percent_decode_str(actual)
                .decode_utf8_lossy()
                .into_owned();
            from_path.insert(camel_case(name), Value::String(decoded));
        }
    }
    from_path
}

/// The body's named fields: an object, refused where the route reads fields of a non-object.
fn body_object(
    route: &CompiledRoute,
    body_value: &Option<Value>,
) -> Result<Option<Map<String, Value>>, Vec<FieldError>> {
    // Named fields (`Body::Fields`, multipart) need an object; `Body::Input` takes any value
    // its variable's type accepts (an object, or an array for list inputs).
    match (body_value, route.route.body) {
        (Some(Value::Object(map)), _) => Ok(Some(map.clone())),
        (Some(_), Body::Fields | Body::Multipart) => Err(vec![
            FieldError::new(
                "body",
                "Input should be a valid dictionary or object to extract fields from",
            )
            .with_kind("model_attributes_type"),
        ]),
        _ => Ok(None),
    }
}

/// What a request gives to bind from: path parameters, declared headers, body and query.
struct Given<'a> {
    /// The route bound to.
    route: &'a CompiledRoute,
    /// The schema's types, to coerce with.
    types: &'a TypeInfo,
    /// The request's headers.
    headers: &'a HeaderMap,
    /// Path parameters by camelCase name.
    from_path: HashMap<String, Value>,
    /// The decoded body, on a route that reads one.
    body_value: Option<Value>,
    /// The body's fields, when it is an object.
    body_object: Option<Map<String, Value>>,
    /// How the body's values are coerced (text for forms and multipart).
    body_source: Source,
    /// The query parameters.
    query: Map<String, Value>,
}

impl Given<'_> {
    /// A variable's coerced value from the path, a header, the body or the query, in that order.
    fn value_of(&self, var: &Variable, errors: &mut Vec<FieldError>) -> Option<Value> {
        let Given {
            route,
            types,
            headers,
            from_path,
            body_value,
            body_object,
            body_source,
            query,
        } = self;
        let rest_name = snake_case(&var.name);
        if let Some(v) = from_path.get(&var.name) {
            return types.coerce(
                Some(v),
                &var.ty,
                Source::Text,
                &format!("path.{rest_name}"),
                errors,
            );
        }
        if let Some((header_name, _)) = route.route.headers.iter().find(|(_, v)| *v == var.name) {
            let given = headers
                .get(*header_name)
                .and_then(|v| v.to_str().ok())
                .map(|v| Value::String(v.to_string()));
            let field = format!("header.{}", header_name.to_ascii_lowercase());
            return types.coerce(given.as_ref(), &var.ty, Source::Text, &field, errors);
        }
        match (route.route.body, body_value, body_object) {
            // No body: the input's fields may come as query parameters, as FilaOps's client
            // sends some writes (`adjust-quantity?product_id=...`).
            (Body::Input(name), Some(Value::Object(given)), _)
                if name == var.name && given.is_empty() && !query.is_empty() =>
            {
                let fields = Value::Object(query.clone());
                let bound = types.coerce(Some(&fields), &var.ty, Source::Text, "query", errors);
                var.limits.check_required(bound.as_ref(), "query", errors);
                return bound;
            }
            (Body::Input(name), Some(whole), _) if name == var.name => {
                let bound = types.coerce(Some(whole), &var.ty, *body_source, "", errors);
                var.limits.check_required(bound.as_ref(), "", errors);
                return bound;
            }
            (Body::Fields | Body::Multipart, _, Some(obj))
                if obj.contains_key(&rest_name) || obj.contains_key(&var.name) =>
            {
                let given = obj.get(&rest_name).or_else(|| obj.get(&var.name));
                if not_given(given, &var.ty, var.has_default) {
                    return None;
                }
                return types.coerce(given, &var.ty, *body_source, &rest_name, errors);
            }
            _ => {}
        }
        let given = query.get(&rest_name).or_else(|| query.get(&var.name));
        if given.is_none() && var.has_default {
            return None;
        }
        let field = match route.route.body {
            Body::Fields => rest_name.clone(),
            _ => format!("query.{rest_name}"),
        };
        types.coerce(given, &var.ty, Source::Text, &field, errors)
    }
}

/// The error for values that did not bind: a 400 naming the parameter when every one of them
/// is a query parameter the route declares CONTRACT answers that way
/// ([`super::route::Route::bad_request_for`]), otherwise CONTRACT 8's field-level 422.
pub fn refusal(route: &CompiledRoute, fields: Vec<FieldError>) -> AppError {
    let declared = |f: &FieldError| {
        f.field
            .strip_prefix("query.")
            .is_some_and(|name| route.route.bad_request_params.contains(&name))
    };
    match fields.first() {
        Some(first) if fields.iter().all(declared) => {
            let name = first.field.trim_start_matches("query.");
            AppError::bad_request(format!("Invalid {name}: {}", first.message))
        }
        _ => AppError::validation(fields),
    }
}

/// Reads `a=1&b=2&b=3` into `{a: "1", b: ["2", "3"]}`.
pub fn form_to_map(bytes: &[u8]) -> Map<String, Value> {
    let mut map = Map::new();
    for (k, v) in url::form_urlencoded::parse(bytes) {
        let v = Value::String(v.into_owned());
        match map.get_mut(k.as_ref()) {
            Some(Value::Array(items)) => items.push(v),
            Some(existing) => {
                let first = existing.take();
                *existing = Value::Array(vec![first, v]);
            }
            None => {
                map.insert(k.into_owned(), v);
            }
        }
    }
    map
}
