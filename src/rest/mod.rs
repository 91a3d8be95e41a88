//! The REST facade: every `/api/v1` route is a [`Route`] declaration that runs a stored
//! GraphQL operation in-process on the one schema, with the caller's credentials.
//!
//! Request flow: match the path -> bind path, query and body values to the operation's
//! variables (coerced to their declared types; anything that does not fit is a 422 in the
//! shape of CONTRACT 8) -> execute -> map `errors` / `userErrors` through the one error
//! table ([`crate::error`]) or return the declared field of `data` with the declared status.

pub mod openapi;
mod route;
pub mod types;

use std::collections::HashMap;
use std::sync::Arc;

use async_graphql::parser::types::{DocumentOperations, OperationDefinition, Selection, Type};
use async_graphql::{ServerError, Variables};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter, on};
use serde_json::{Map, Value};

use crate::app::AppState;
use crate::error::{AppError, ErrorCode, FieldError};
use crate::graphql::AppSchema;
use crate::graphql::errors::code_of;
use crate::graphql::user_error::UserErrorCode;
use crate::http::{ClientIp, RequestId};

pub use route::{Body, Method, Route};
use types::{Source, TypeInfo, camel_case, snake_case};

/// Every route of the service, area by area.
pub fn routes() -> Vec<Route> {
    let mut all = Vec::new();
    all.extend_from_slice(crate::identity::rest::ROUTES);
    all.extend_from_slice(crate::audit::rest::ROUTES);
    all.extend_from_slice(crate::catalog::rest::ROUTES);
    all.extend_from_slice(crate::partners::rest::ROUTES);
    all.extend_from_slice(crate::locations::rest::ROUTES);
    all.extend_from_slice(crate::printers::rest::ROUTES);
    all.extend_from_slice(crate::scrap_reasons::rest::ROUTES);
    all.extend_from_slice(crate::settings::rest::ROUTES);
    all
}

/// A variable of a stored operation.
#[derive(Debug, Clone)]
pub struct Variable {
    /// The camelCase name.
    pub name: String,
    /// Its declared type.
    pub ty: Type,
    /// Whether it has a default value.
    pub has_default: bool,
}

/// A route with its operation parsed.
#[derive(Debug)]
pub struct CompiledRoute {
    /// The declaration.
    pub route: Route,
    /// The operation's variables.
    pub variables: Vec<Variable>,
    /// The root fields the operation selects (what the authorization test walks).
    pub root_fields: Vec<String>,
    /// Path parameter names, in order.
    pub path_params: Vec<String>,
}

/// Parses a stored operation: one operation per document.
pub fn parse_operation(text: &str) -> anyhow::Result<(Vec<Variable>, Vec<String>)> {
    let doc = async_graphql::parser::parse_query(text)?;
    let op: &OperationDefinition = match &doc.operations {
        DocumentOperations::Single(op) => &op.node,
        DocumentOperations::Multiple(ops) if ops.len() == 1 => match ops.values().next() {
            Some(op) => &op.node,
            None => anyhow::bail!("no operation"),
        },
        DocumentOperations::Multiple(_) => anyhow::bail!("one operation per document"),
    };
    let variables = op
        .variable_definitions
        .iter()
        .map(|v| Variable {
            name: v.node.name.node.to_string(),
            ty: v.node.var_type.node.clone(),
            has_default: v.node.default_value.is_some(),
        })
        .collect();
    let root_fields = op
        .selection_set
        .node
        .items
        .iter()
        .filter_map(|s| match &s.node {
            Selection::Field(f) => Some(f.node.name.node.to_string()),
            _ => None,
        })
        .collect();
    Ok((variables, root_fields))
}

/// Parses every route's operation.
pub fn compile(routes: &[Route]) -> anyhow::Result<Vec<Arc<CompiledRoute>>> {
    routes
        .iter()
        .map(|route| {
            let (variables, root_fields) = parse_operation(route.operation)
                .map_err(|e| anyhow::anyhow!("{} {}: {e}", route.method.as_str(), route.path))?;
            let path_params = route
                .path
                .split('/')
                .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
                .map(str::to_string)
                .collect();
            Ok(Arc::new(CompiledRoute {
                route: *route,
                variables,
                root_fields,
                path_params,
            }))
        })
        .collect()
}

/// The `/api/v1` router of every declared route (both trailing-slash spellings, aliases
/// included), plus the OpenAPI document.
pub fn router(
    schema: &AppSchema,
    config: &crate::config::Config,
) -> anyhow::Result<Router<AppState>> {
    let types = Arc::new(TypeInfo::from_sdl(&schema.sdl())?);
    let compiled = compile(&routes())?;
    let mut by_path: HashMap<String, MethodRouter<AppState>> = HashMap::new();
    for route in &compiled {
        for path in route.route.all_paths() {
            let trimmed = path.trim_end_matches('/');
            for spelling in [trimmed.to_string(), format!("{trimmed}/")] {
                let method = route.route.method;
                let multipart = route.route.body == Body::Multipart;
                let route = route.clone();
                let types = types.clone();
                let pattern = path.to_string();
                let handler = move |state: State<AppState>,
                                    client_ip: ClientIp,
                                    request_id: Extension<RequestId>,
                                    uri: Uri,
                                    headers: HeaderMap,
                                    body: Result<
                    Bytes,
                    axum::extract::rejection::BytesRejection,
                >| {
                    handle(
                        route, types, pattern, state, client_ip, request_id, uri, headers, body,
                    )
                };
                let filter = match method {
                    Method::Get => MethodFilter::GET,
                    Method::Post => MethodFilter::POST,
                    Method::Put => MethodFilter::PUT,
                    Method::Patch => MethodFilter::PATCH,
                    Method::Delete => MethodFilter::DELETE,
                };
                // Uploads get their own, larger, body limit; everything else the API's.
                let limit = if multipart {
                    config.max_upload_bytes
                } else {
                    config.max_body_bytes
                };
                let method_router =
                    on(filter, handler).layer(axum::extract::DefaultBodyLimit::max(limit));
                let entry = by_path.remove(&spelling).unwrap_or_default();
                by_path.insert(spelling, entry.merge(method_router));
            }
        }
    }
    let mut router = Router::new();
    for (path, methods) in by_path {
        router = router.route(&path, methods);
    }
    let document = Arc::new(openapi::document(&compiled, &types));
    Ok(router
        .route(
            "/openapi.json",
            axum::routing::get(move || {
                let document = document.clone();
                async move { axum::Json((*document).clone()) }
            }),
        )
        .route("/docs", axum::routing::get(openapi::docs_page))
        .route("/docs/", axum::routing::get(openapi::docs_page))
        .method_not_allowed_fallback(method_not_allowed))
}

async fn method_not_allowed() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        axum::Json(serde_json::json!({ "detail": "Method Not Allowed" })),
    )
        .into_response()
}

#[allow(clippy::too_many_arguments)]
async fn handle(
    route: Arc<CompiledRoute>,
    types: Arc<TypeInfo>,
    pattern: String,
    State(state): State<AppState>,
    ClientIp(client_ip): ClientIp,
    Extension(request_id): Extension<RequestId>,
    uri: Uri,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return AppError::new(ErrorCode::PayloadTooLarge, "Request body too large")
                .into_response();
        }
        Err(e) => return AppError::bad_request(e.body_text()).into_response(),
    };
    let mut meta = crate::http::meta::request_meta(&headers, client_ip, &request_id);
    // Without any credential a protected route answers 401 before the body is looked at
    // (the guard would say the same; this keeps a malformed body from answering 422 first).
    if route.route.access != crate::auth::Access::Public && meta.access_token().is_none() {
        return AppError::unauthenticated("Not authenticated").into_response();
    }
    if let Some(name) = route.route.rate_limit
        && let Some(limit) = state.rate_limits.named(name)
    {
        if let Err(e) = limit.check(client_ip) {
            tracing::warn!(limit = name, client = %client_ip, "rate limit exceeded");
            crate::audit::record(
                &state.pool,
                Some(&meta),
                crate::audit::AuditEvent::new("rate_limited", crate::audit::Outcome::Denied)
                    .details(serde_json::json!({ "limit": name, "path": uri.path() })),
            )
            .await;
            return e.into_response();
        }
        meta.counted_limit = Some(name);
    }
    let (body, uploads) = if route.route.body == Body::Multipart {
        match read_multipart(&headers, body).await {
            Ok(parts) => parts,
            Err(e) => return e.into_response(),
        }
    } else {
        (body, Vec::new())
    };
    let mut variables = match bind(&route, &types, &pattern, &uri, &headers, &body) {
        Ok(v) => v,
        Err(fields) => return AppError::validation(fields).into_response(),
    };
    let mut missing = Vec::new();
    for var in &route.variables {
        if is_upload(&var.ty) {
            if uploads.iter().any(|(name, _)| *name == var.name) {
                variables.insert(var.name.clone(), Value::Null);
            } else if !var.ty.nullable {
                missing.push(
                    FieldError::new(snake_case(&var.name), "Field required").with_kind("missing"),
                );
            }
        }
    }
    if !missing.is_empty() {
        return AppError::validation(missing).into_response();
    }
    run_with_uploads(
        &state.schema,
        Some(&state.pool),
        &route,
        variables,
        meta,
        uploads,
    )
    .await
}

fn is_upload(ty: &Type) -> bool {
    matches!(&ty.base, async_graphql::parser::types::BaseType::Named(n) if n.as_str() == "Upload")
}

/// Reads a multipart body: text parts become a form-encoded body for [`bind`], file parts
/// become uploads (spooled to anonymous temporary files, as async-graphql expects).
async fn read_multipart(
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

/// Binds path, body and query values to the operation's variables.
fn bind(
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

    // The body: JSON or form-encoded.
    let body_object: Option<Map<String, Value>> = match route.route.body {
        Body::None => None,
        _ if body.iter().all(u8::is_ascii_whitespace) => Some(Map::new()),
        _ => {
            let form = route.route.body == Body::Multipart
                || headers
                    .get(header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
            if form {
                Some(form_to_map(body))
            } else {
                match serde_json::from_slice::<Value>(body) {
                    Ok(Value::Object(map)) => Some(map),
                    Ok(_) => {
                        errors.push(
                            FieldError::new("body", "Input should be a valid dictionary or object to extract fields from")
                                .with_kind("model_attributes_type"),
                        );
                        return Err(errors);
                    }
                    Err(e) => {
                        errors.push(
                            FieldError::new("body", format!("JSON decode error: {e}"))
                                .with_kind("json_invalid"),
                        );
                        return Err(errors);
                    }
                }
            }
        }
    };
    let body_source = if route.route.body == Body::Multipart
        || headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"))
    {
        Source::Text
    } else {
        Source::Json
    };

    let query = uri
        .query()
        .map(|q| form_to_map(q.as_bytes()))
        .unwrap_or_default();

    for var in &route.variables {
        // Files are bound (and reported missing) by `handle` from the multipart parts.
        if is_upload(&var.ty) {
            continue;
        }
        let rest_name = snake_case(&var.name);
        if let Some(v) = from_path.get(&var.name) {
            if let Some(c) = types.coerce(
                Some(v),
                &var.ty,
                Source::Text,
                &format!("path.{rest_name}"),
                &mut errors,
            ) {
                out.insert(var.name.clone(), c);
            }
            continue;
        }
        match (route.route.body, &body_object) {
            (Body::Input(name), Some(obj)) if name == var.name => {
                let whole = Value::Object(obj.clone());
                if let Some(c) = types.coerce(Some(&whole), &var.ty, body_source, "", &mut errors) {
                    out.insert(var.name.clone(), c);
                }
                continue;
            }
            (Body::Fields | Body::Multipart, Some(obj))
                if obj.contains_key(&rest_name) || obj.contains_key(&var.name) =>
            {
                let given = obj.get(&rest_name).or_else(|| obj.get(&var.name));
                if let Some(c) = types.coerce(given, &var.ty, body_source, &rest_name, &mut errors)
                {
                    out.insert(var.name.clone(), c);
                }
                continue;
            }
            _ => {}
        }
        let given = query.get(&rest_name).or_else(|| query.get(&var.name));
        if given.is_none() && var.has_default {
            continue;
        }
        let field = match route.route.body {
            Body::Fields => rest_name.clone(),
            _ => format!("query.{rest_name}"),
        };
        if let Some(c) = types.coerce(given, &var.ty, Source::Text, &field, &mut errors) {
            out.insert(var.name.clone(), c);
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Reads `a=1&b=2&b=3` into `{a: "1", b: ["2", "3"]}`.
fn form_to_map(bytes: &[u8]) -> Map<String, Value> {
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

/// Runs a route's operation and shapes the HTTP response.
pub async fn run(
    schema: &AppSchema,
    route: &CompiledRoute,
    variables: Map<String, Value>,
    meta: crate::auth::RequestMeta,
) -> Response {
    run_with_uploads(schema, None, route, variables, meta, Vec::new()).await
}

async fn run_with_uploads(
    schema: &AppSchema,
    pool: Option<&crate::db::DbPool>,
    route: &CompiledRoute,
    variables: Map<String, Value>,
    meta: crate::auth::RequestMeta,
    uploads: Vec<(String, async_graphql::UploadValue)>,
) -> Response {
    let mut request = async_graphql::Request::new(route.route.operation)
        .variables(Variables::from_json(Value::Object(variables)))
        .data(meta);
    if let Some(pool) = pool {
        request = crate::graphql::per_request(request, pool);
    }
    for (name, upload) in uploads {
        request.set_upload(&format!("variables.{name}"), upload);
    }
    let response = schema.execute(request).await;
    let mut http = match shape(route, response.data.into_json(), &response.errors) {
        Ok(body) => {
            let status = StatusCode::from_u16(route.route.status).unwrap_or(StatusCode::OK);
            match route.route.raw {
                _ if status == StatusCode::NO_CONTENT => status.into_response(),
                Some(content_type) => (
                    status,
                    [(header::CONTENT_TYPE, content_type)],
                    body.as_str().unwrap_or_default().to_string(),
                )
                    .into_response(),
                None => (status, axum::Json(body)).into_response(),
            }
        }
        Err(error) => error.into_response(),
    };
    for (name, value) in response.http_headers.iter() {
        http.headers_mut().append(name.clone(), value.clone());
    }
    http
}

fn shape(
    route: &CompiledRoute,
    data: Result<Value, serde_json::Error>,
    errors: &[ServerError],
) -> Result<Value, AppError> {
    if let Some(error) = errors.first() {
        return Err(to_app_error(error));
    }
    let mut data = data.map_err(AppError::internal)?;
    let mut segments = route.route.response.split('.');
    let root = segments.next().unwrap_or_default();
    let mut value = data.get_mut(root).map(Value::take).unwrap_or(Value::Null);
    if let Some(obj) = value.as_object_mut()
        && let Some(Value::Array(user_errors)) = obj.remove("userErrors")
        && !user_errors.is_empty()
    {
        return Err(user_errors_to_app_error(&user_errors));
    }
    for segment in segments {
        value = value
            .get_mut(segment)
            .map(Value::take)
            .unwrap_or(Value::Null);
    }
    if value.is_null() && route.route.method == Method::Get {
        return Err(AppError::not_found("Not found"));
    }
    if let Some(obj) = value.as_object_mut() {
        for key in route.route.flatten {
            if let Some(Value::Object(inner)) = obj.remove(*key) {
                obj.extend(inner);
            }
        }
    }
    if route.route.omit_nulls
        && let Some(obj) = value.as_object_mut()
    {
        obj.retain(|_, v| !v.is_null());
    }
    Ok(value)
}

fn to_app_error(error: &ServerError) -> AppError {
    let code = code_of(error);
    let ext = error.extensions.as_ref();
    let mut app = AppError::new(code, error.message.clone());
    if let Some(async_graphql::Value::List(fields)) = ext.and_then(|e| e.get("fields")) {
        for f in fields {
            if let async_graphql::Value::Object(m) = f {
                let get = |k: &str| match m.get(k) {
                    Some(async_graphql::Value::String(s)) => s.clone(),
                    _ => String::new(),
                };
                app.fields
                    .push(FieldError::new(get("field"), get("message")).with_kind(get("type")));
            }
        }
    }
    if let Some(async_graphql::Value::Number(n)) = ext.and_then(|e| e.get("retryAfter")) {
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

fn user_errors_to_app_error(errors: &[Value]) -> AppError {
    let parsed: Vec<(Option<String>, UserErrorCode, String)> = errors
        .iter()
        .map(|e| {
            (
                e.get("field").and_then(Value::as_str).map(snake_case),
                e.get("code")
                    .and_then(Value::as_str)
                    .and_then(UserErrorCode::from_name)
                    .unwrap_or(UserErrorCode::Invalid),
                e.get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
            )
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
    let (_, code, message) = &parsed[0];
    AppError::new(code.error_code(), message.clone())
}
