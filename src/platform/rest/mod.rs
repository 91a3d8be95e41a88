//! The REST facade: every `/api/v1` route is a [`Route`] declaration that runs a stored
//! GraphQL operation in-process on the one schema, with the caller's credentials.
//!
//! At start-up every stored operation is parsed, analysed and validated against the full
//! rules of `/graphql` ([`compile_and_validate`]); a broken one stops start-up, naming the
//! route. Per request: match the path -> check the route's declared access (401/403 before
//! the body is looked at) -> bind path, query, headers and body to the operation's variables
//! (coerced to their declared types; anything that does not fit is a 422 in the shape of
//! CONTRACT 8) -> execute the pre-parsed document -> answer with the declared part of `data`,
//! serialised once, or map `errors` / `userErrors` through the one error table
//! ([`crate::platform::error`]). Declared extras: idempotent writes, downloads, streamed exports.

mod bind;

/// A stored operation's text, compiled into the binary: the calling area's `rest/<file>`
/// followed by each named fragment, `rest/fragment_<name>.graphql` (paths are relative to the
/// area's `rest.rs`, where the macro is used).
///
/// ```text
/// Route::get("/printers/", stored_op!("printers_list.graphql", "printer"), "printers")
/// ```
#[macro_export]
macro_rules! stored_op {
    ($file:literal $(, $fragment:literal)*) => {
        concat!(
            include_str!(concat!("rest/", $file))
            $(, include_str!(concat!("rest/fragment_", $fragment, ".graphql")))*
        )
    };
}
mod compile;
mod download;
mod export;
pub use export::{Format as ExportFormat, encode_page};
mod idempotency;
pub mod openapi;
mod respond;
mod route;
pub mod types;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter, on};

use crate::platform::auth::{Access, RequestMeta, Viewer};
use crate::platform::error::{AppError, ErrorCode, FieldError};
use crate::platform::graphql::AppSchema;
use crate::platform::http::answer_cache::AnswerKey;
use crate::platform::http::state::AppState;
use crate::platform::http::{ClientIp, RequestId};

pub use compile::{
    CompiledRoute, Variable, compile, compile_and_validate, parse_operation, validate,
};
pub use route::{AreaRoute, Body, Export, Method, Route};
use types::{TypeInfo, snake_case};

/// The route table: every declared route compiled and validated, and the schema's types.
/// It depends on nothing but the binary, so a process builds it once (the application
/// keeps it: `crate::application::areas::route_table`).
pub struct RouteTable {
    /// The compiled routes.
    pub routes: Vec<Arc<CompiledRoute>>,
    /// What the facade knows of the schema's types.
    pub types: Arc<TypeInfo>,
}

impl RouteTable {
    /// Compiles these routes against the schema's SDL and validates each against the
    /// validating schema; the error names each broken one.
    pub fn build(
        routes: &[AreaRoute],
        sdl: &str,
        validator: &AppSchema,
    ) -> anyhow::Result<RouteTable> {
        let types = TypeInfo::from_sdl(sdl)?;
        let routes: Vec<Arc<CompiledRoute>> = compile_and_validate(routes, &types, validator)?
            .into_iter()
            .map(Arc::new)
            .collect();
        check_reachable(routes.iter().map(|r| &r.route))?;
        Ok(RouteTable {
            routes,
            types: Arc::new(types),
        })
    }
}

/// Refuses a route table in which a declared path would not reach its own route: two
/// spellings of one path (`/items/{id}` and `/items/{item_id}`), or a literal segment
/// (`/sales-orders/can-ship`) that a parameter route of the same method would answer in
/// its place. FastAPI matches in declaration order, so FilaOps had to declare such literals
/// first; the router here prefers literals, and this proves it for every route, with the
/// router's own matcher, before the process serves anything.
pub fn check_reachable<'a>(routes: impl Iterator<Item = &'a Route>) -> anyhow::Result<()> {
    let mut by_method: HashMap<Method, Vec<&'static str>> = HashMap::new();
    for route in routes {
        let paths = by_method.entry(route.method).or_default();
        for path in route.all_paths() {
            let path = path.trim_end_matches('/');
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    let mut problems = Vec::new();
    for (method, paths) in &by_method {
        let mut matcher = matchit::Router::new();
        for path in paths {
            if let Err(e) = matcher.insert(*path, *path) {
                problems.push(format!("{} {path}: {e}", method.as_str()));
            }
        }
        for path in paths {
            // A request for the path itself, parameters filled with a sample value.
            let sample: String = path
                .split('/')
                .map(|seg| if seg.starts_with('{') { "1" } else { seg })
                .collect::<Vec<_>>()
                .join("/");
            match matcher.at(&sample) {
                Ok(found) if found.value == path => {}
                Ok(found) => problems.push(format!(
                    "{} {path} is answered by {} (a literal segment swallowed by a parameter)",
                    method.as_str(),
                    found.value
                )),
                Err(_) if problems.iter().any(|p| p.contains(path)) => {}
                Err(e) => problems.push(format!("{} {path}: {e}", method.as_str())),
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        problems.sort();
        anyhow::bail!("unreachable REST routes:\n{}", problems.join("\n"))
    }
}

/// The `/api/v1` router of every declared route (both trailing-slash spellings, aliases
/// included), plus the OpenAPI document. Fails when a stored operation is broken.
pub fn router(
    config: &crate::platform::config::Config,
    table: &'static RouteTable,
) -> anyhow::Result<Router<AppState>> {
    let mut by_path: HashMap<String, MethodRouter<AppState>> = HashMap::new();
    for route in &table.routes {
        for path in route.route.all_paths() {
            let trimmed = path.trim_end_matches('/');
            for spelling in [trimmed.to_string(), format!("{trimmed}/")] {
                let method = route.route.method;
                let multipart = route.route.body == Body::Multipart;
                let route = route.clone();
                let types = table.types.clone();
                let pattern: Arc<str> = Arc::from(path);
                let handler = move |state: State<AppState>,
                                    client_ip: ClientIp,
                                    request_id: Extension<RequestId>,
                                    uri: Uri,
                                    headers: HeaderMap,
                                    body: Result<
                    Bytes,
                    axum::extract::rejection::BytesRejection,
                >| {
                    let request = Incoming {
                        route,
                        types,
                        pattern,
                        uri,
                        headers,
                    };
                    handle(request, state, client_ip, request_id, body)
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
    let document = Arc::new(openapi::document(&table.routes, &table.types));
    let production = config.is_production();
    let openapi = move |state: State<AppState>,
                        client_ip: ClientIp,
                        request_id: Extension<RequestId>,
                        headers: HeaderMap| {
        let document = document.clone();
        async move {
            if production {
                signed_in(&state, client_ip, &request_id, &headers).await?;
            }
            Ok::<_, AppError>(axum::Json((*document).clone()))
        }
    };
    let docs = move |state: State<AppState>,
                     client_ip: ClientIp,
                     request_id: Extension<RequestId>,
                     headers: HeaderMap| async move {
        if production {
            signed_in(&state, client_ip, &request_id, &headers).await?;
        }
        Ok::<_, AppError>(openapi::docs_page().await)
    };
    Ok(router
        .route("/openapi.json", axum::routing::get(openapi))
        .route("/docs", axum::routing::get(docs))
        .route("/docs/", axum::routing::get(docs))
        .method_not_allowed_fallback(method_not_allowed))
}

/// In production the API's description (OpenAPI document, docs page) is for signed-in users
/// only, as FilaOps hides its own there; the typed client and power users sign in first.
async fn signed_in(
    State(state): &State<AppState>,
    ClientIp(client_ip): ClientIp,
    Extension(request_id): &Extension<RequestId>,
    headers: &HeaderMap,
) -> Result<(), AppError> {
    let meta = crate::platform::http::meta::request_meta(headers, client_ip, request_id);
    if meta.access_token().is_none() {
        return Err(AppError::unauthenticated("Not authenticated"));
    }
    let viewer = state
        .viewers
        .resolve(&meta, &state.token_keys, &state.pool)
        .await?;
    Access::User.allows(&viewer)
}

async fn method_not_allowed() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        axum::Json(serde_json::json!({ "detail": "Method Not Allowed" })),
    )
        .into_response()
}

/// What a handler knows about the request before reading state.
struct Incoming {
    route: Arc<CompiledRoute>,
    types: Arc<TypeInfo>,
    pattern: Arc<str>,
    uri: Uri,
    headers: HeaderMap,
}

async fn handle(
    incoming: Incoming,
    State(state): State<AppState>,
    ClientIp(client_ip): ClientIp,
    Extension(request_id): Extension<RequestId>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match serve(incoming, state, client_ip, request_id, body).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

async fn serve(
    incoming: Incoming,
    state: AppState,
    client_ip: std::net::IpAddr,
    request_id: RequestId,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, AppError> {
    let body = received(body)?;
    let mut meta =
        crate::platform::http::meta::request_meta(&incoming.headers, client_ip, &request_id);

    // Who is asking, before anything about the request is looked at: a caller who may not
    // use the route learns nothing about its input from a 422.
    let viewer = who_asks(&state, &incoming.route, &meta).await?;
    rate_limit(&state, &incoming, client_ip, &mut meta).await?;
    let Bound {
        variables,
        uploads,
        export_format,
        fingerprint_body,
    } = bind_request(&incoming, body).await?;

    if let Some(format) = export_format {
        return export::stream(
            state.rest_schema.clone(),
            state.pool.clone(),
            incoming.route,
            variables,
            meta,
            format,
        )
        .await;
    }

    let cached = match cached_answer(&state, &incoming.route, viewer.as_ref(), &meta, &variables) {
        ControlFlow::Break(answer) => return Ok(answer),
        ControlFlow::Continue(cached) => cached,
    };
    let idempotency = match claim_key(&state, &incoming, viewer.as_ref(), &fingerprint_body).await?
    {
        ControlFlow::Break(answer) => return Ok(answer),
        ControlFlow::Continue(claim) => claim,
    };

    let result = run(&state, &incoming.route, variables, meta, uploads).await;
    if let Some(claim) = &idempotency {
        let succeeded = match &result {
            Ok(Outcome::Answer(answer)) if answer.status.is_success() => Some(answer),
            _ => None,
        };
        settle_key(&state, claim, succeeded).await?;
    }
    match result? {
        Outcome::Answer(answer) => {
            if let Some((key, snapshot)) = cached {
                state.answers.put(key, &snapshot, &answer);
            }
            Ok(answer.into_response())
        }
        Outcome::Streamed(response) => Ok(response),
    }
}

/// The request's body: 413 when it is over the route's limit, 400 when it cannot be read.
fn received(
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Bytes, AppError> {
    match body {
        Ok(b) => Ok(b),
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(AppError::new(
            ErrorCode::PayloadTooLarge,
            "Request body too large",
        )),
        Err(e) => Err(AppError::bad_request(e.body_text())),
    }
}

/// The viewer of a non-public route, once it may use the route (401/403 otherwise).
async fn who_asks(
    state: &AppState,
    route: &CompiledRoute,
    meta: &RequestMeta,
) -> Result<Option<Viewer>, AppError> {
    if route.route.access == Access::Public {
        return Ok(None);
    }
    if meta.access_token().is_none() {
        return Err(AppError::unauthenticated("Not authenticated"));
    }
    let viewer = state
        .viewers
        .resolve(meta, &state.token_keys, &state.pool)
        .await?;
    route
        .route
        .access
        .allows(&viewer)
        .map_err(|e| match route.route.forbidden {
            Some(message) if e.code == ErrorCode::Forbidden => AppError::forbidden(message),
            _ => e,
        })?;
    Ok(Some(viewer))
}

/// Counts the request against the route's named rate limit, if any (refused when over it).
async fn rate_limit(
    state: &AppState,
    incoming: &Incoming,
    client_ip: std::net::IpAddr,
    meta: &mut RequestMeta,
) -> Result<(), AppError> {
    if let Some(name) = incoming.route.route.rate_limit
        && let Some(limit) = state.rate_limits.named(name)
    {
        if let Err(e) = limit.check(client_ip) {
            tracing::warn!(limit = name, client = %client_ip, "rate limit exceeded");
            (state.on_rate_limited)(&state.pool, meta, name, incoming.uri.path()).await;
            return Err(e);
        }
        meta.counted_limit = Some(name);
    }
    Ok(())
}

/// What binding a request gave: variables, uploads, export format and the body as received.
struct Bound {
    /// The operation's variables.
    variables: serde_json::Map<String, serde_json::Value>,
    /// The uploaded files, by variable.
    uploads: Vec<(String, async_graphql::UploadValue)>,
    /// The export format, on an export route.
    export_format: Option<export::Format>,
    /// The body before any multipart decoding.
    fingerprint_body: Bytes,
}

/// Checks the content type, reads a multipart body, and binds path, body, headers and query.
async fn bind_request(incoming: &Incoming, body: Bytes) -> Result<Bound, AppError> {
    let Incoming {
        route,
        types,
        pattern,
        uri,
        headers,
    } = incoming;
    bind::check_content_type(route, headers, &body)?;
    let fingerprint_body = body.clone();
    let (body, uploads) = if route.route.body == Body::Multipart {
        bind::read_multipart(headers, body).await?
    } else {
        (body, Vec::new())
    };
    let export_format = match route.route.export {
        Some(_) => export::Format::from_query(
            uri.query(),
            route.route.export_by_default.then_some(export::Format::Csv),
        )?,
        None => None,
    };
    let mut variables = bind::bind(route, types, pattern, uri, headers, &body)
        .map_err(|fields| bind::refusal(route, fields))?;
    bind_uploads(route, &uploads, &mut variables)?;
    Ok(Bound {
        variables,
        uploads,
        export_format,
        fingerprint_body,
    })
}

/// Sets each uploaded file's variable to null; 422 names a required one not uploaded.
fn bind_uploads(
    route: &CompiledRoute,
    uploads: &[(String, async_graphql::UploadValue)],
    variables: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<(), AppError> {
    let mut missing = Vec::new();
    for var in &route.variables {
        if bind::is_upload(&var.ty) {
            if uploads.iter().any(|(name, _)| *name == var.name) {
                variables.insert(var.name.clone(), serde_json::Value::Null);
            } else if !var.ty.nullable {
                missing.push(
                    FieldError::new(snake_case(&var.name), "Field required").with_kind("missing"),
                );
            }
        }
    }
    if !missing.is_empty() {
        return Err(AppError::validation(missing));
    }
    Ok(())
}

/// An answer cached for this read, or the key and snapshot to keep this read's answer under.
fn cached_answer(
    state: &AppState,
    route: &CompiledRoute,
    viewer: Option<&Viewer>,
    meta: &RequestMeta,
    variables: &serde_json::Map<String, serde_json::Value>,
) -> ControlFlow<Response, Option<(AnswerKey, String)>> {
    // A signed-in read of a database that has not changed since the same read is answered
    // as it was then (see `http::answer_cache`: exact to the snapshot the viewer was read at).
    match (viewer, meta.snapshot.get(), meta.access_token()) {
        (Some(Viewer::User(_)), Some(snapshot), Some(token))
            if state.answers.is_on() && route.answers_are_cacheable() =>
        {
            let request = format!(
                "{} {}\n{}",
                route.route.method.as_str(),
                route.route.path,
                serde_json::Value::Object(variables.clone())
            );
            let key = AnswerKey::new(token, request);
            if let Some(answer) = state.answers.get(&key, snapshot) {
                return ControlFlow::Break(answer.into_response());
            }
            ControlFlow::Continue(Some((key, snapshot.clone())))
        }
        _ => ControlFlow::Continue(None),
    }
}

/// An idempotent write's claim: the user, the key and the request's fingerprint.
type KeyClaim = (i64, String, String);

/// Claims an idempotent write's key: the first result when the same user used it before.
async fn claim_key(
    state: &AppState,
    incoming: &Incoming,
    viewer: Option<&Viewer>,
    fingerprint_body: &Bytes,
) -> Result<ControlFlow<Response, Option<KeyClaim>>, AppError> {
    // Idempotent writes: the same key from the same user answers the first result.
    let idempotency = match (viewer, incoming.route.route.idempotent) {
        (Some(Viewer::User(user)), true) => idempotency::key_of(&incoming.headers)?.map(|key| {
            let fingerprint = idempotency::fingerprint(
                incoming.route.route.method.as_str(),
                incoming.uri.path(),
                incoming.uri.query(),
                fingerprint_body,
            );
            (user.id, key, fingerprint)
        }),
        _ => None,
    };
    if let Some((user_id, key, fingerprint)) = &idempotency {
        match idempotency::claim(&state.pool, *user_id, key, fingerprint).await? {
            idempotency::Claim::Fresh => {}
            idempotency::Claim::Replay(answer) => {
                return Ok(ControlFlow::Break(answer.into_response()));
            }
        }
    }
    Ok(ControlFlow::Continue(idempotency))
}

/// Keeps a successful answer under its idempotency key, or frees the key when there is none.
async fn settle_key(
    state: &AppState,
    (user_id, key, _): &KeyClaim,
    succeeded: Option<&respond::Answer>,
) -> Result<(), AppError> {
    match succeeded {
        Some(answer) => {
            idempotency::finish(&state.pool, *user_id, key, answer).await?;
        }
        None => idempotency::release(&state.pool, *user_id, key).await,
    }
    Ok(())
}

enum Outcome {
    Answer(respond::Answer),
    Streamed(Response),
}

async fn run(
    state: &AppState,
    route: &CompiledRoute,
    variables: serde_json::Map<String, serde_json::Value>,
    meta: crate::platform::auth::RequestMeta,
    uploads: Vec<(String, async_graphql::UploadValue)>,
) -> Result<Outcome, AppError> {
    let response = respond::execute(
        &state.rest_schema,
        Some(&state.pool),
        route,
        variables,
        meta,
        uploads,
    )
    .await;
    let value = respond::shape(route, response.data, &response.errors)?;
    if route.route.download {
        return Ok(Outcome::Streamed(
            download::send(&state.config.uploads_dir, &value).await?,
        ));
    }
    let answer = respond::answer(route, &value)?;
    Ok(Outcome::Answer(respond::with_resolver_headers(
        answer,
        &response.http_headers,
    )))
}

/// Runs a compiled route's operation with already-bound variables (tests and internal
/// callers), answering as the facade would.
pub async fn run_route(
    schema: &crate::platform::graphql::AppSchema,
    route: &CompiledRoute,
    variables: serde_json::Map<String, serde_json::Value>,
    meta: crate::platform::auth::RequestMeta,
) -> Response {
    let response = respond::execute(schema, None, route, variables, meta, Vec::new()).await;
    match respond::shape(route, response.data, &response.errors)
        .and_then(|value| respond::answer(route, &value))
    {
        Ok(answer) => {
            respond::with_resolver_headers(answer, &response.http_headers).into_response()
        }
        Err(e) => e.into_response(),
    }
}
