//! `POST /graphql`: what a client's document must pass before anything executes, and the
//! GraphQL-over-HTTP response media types.
//!
//! In order, before a resolver runs: variables carry no NUL character (PostgreSQL cannot
//! store one), the document parses, introspection (`__schema`, `__type`) is asked by a
//! signed-in user only, and the document's cost, root fields and aliases are within
//! [`crate::platform::graphql::cost`]'s limits. Then async-graphql validates and executes (depth and
//! complexity limits on), and the response carries `extensions.cost`.
//!
//! Media types (GraphQL over HTTP): a client that accepts `application/graphql-response+json`
//! gets it, and a request error (the document did not parse, validate or pass the checks
//! above: no `data` at all) answers 400; every other client gets `application/json` and 200.

use async_graphql::{ServerError, Value, Variables};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::platform::auth::Viewer;
use crate::platform::auth::roles::UserStatus;
use crate::platform::error::{AppError, FieldError};
use crate::platform::graphql::cost;
use crate::platform::http::answer_cache::{Answer, AnswerKey};

const GRAPHQL_RESPONSE: &str = "application/graphql-response+json";
const JSON: &str = "application/json";

/// Reads a `POST /graphql` body: a JSON request (`application/json` or a `+json` type) or a
/// GraphQL multipart upload. Anything else is a 415, and a body that does not parse a 400
/// (413 when a part is too large), each answered as GraphQL JSON
/// (`{"errors": [{"message", "extensions": {"code"}}]}`), never as plain text.
pub async fn read_request(
    headers: &HeaderMap,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<async_graphql::Request, Response> {
    let body = body.map_err(|rejection| {
        unreadable(AppError::new(
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                crate::platform::error::ErrorCode::PayloadTooLarge
            } else {
                crate::platform::error::ErrorCode::BadRequest
            },
            rejection.body_text(),
        ))
    })?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let readable =
        essence == JSON || essence.ends_with("+json") || essence == "multipart/form-data";
    if !readable {
        return Err(unreadable(AppError::new(
            crate::platform::error::ErrorCode::UnsupportedMediaType,
            "Unsupported media type: send application/json (or multipart/form-data for uploads)",
        )));
    }
    let reader = futures_util::io::Cursor::new(body);
    async_graphql::http::receive_body(
        Some(content_type),
        reader,
        async_graphql::http::MultipartOptions::default(),
    )
    .await
    .map_err(|e| {
        let code = match e {
            async_graphql::ParseRequestError::PayloadTooLarge => {
                crate::platform::error::ErrorCode::PayloadTooLarge
            }
            _ => crate::platform::error::ErrorCode::BadRequest,
        };
        unreadable(AppError::new(
            code,
            format!("The body is not a GraphQL request: {e}"),
        ))
    })
}

/// A body that could not be read as a request, as a GraphQL error with the error's status.
fn unreadable(error: AppError) -> Response {
    let status = error.code.status();
    let response = async_graphql::Response::from_errors(vec![app_error(error)]);
    match serde_json::to_vec(&response) {
        Ok(body) => (status, [(header::CONTENT_TYPE, JSON)], body).into_response(),
        Err(e) => AppError::internal(e).into_response(),
    }
}

/// Runs one client request on the `/graphql` schema and answers it.
pub async fn serve(
    state: &crate::platform::http::state::AppState,
    headers: &HeaderMap,
    meta: crate::platform::auth::RequestMeta,
    mut request: async_graphql::Request,
) -> Response {
    let media = ResponseMedia::negotiate(headers);

    if let Some((field, problem)) = bad_text_in_variables(&request.variables) {
        let error = AppError::validation(vec![FieldError::new(field, problem.message())]);
        return media.refuse(app_error(error), None);
    }

    let variables = std::mem::take(&mut request.variables);
    let operation_name = request.operation_name.clone();
    let analysis = match request.parsed_query() {
        Ok(document) => cost::analyse(document, operation_name.as_deref(), &variables),
        Err(mut error) => {
            crate::platform::graphql::errors::classify(&mut error);
            return media.refuse(error, None);
        }
    };
    request.variables = variables;

    if let Some(reason) = analysis.refusal() {
        let error = AppError::new(crate::platform::error::ErrorCode::BadUserInput, reason);
        return media.refuse(app_error(error), Some(&analysis));
    }

    if analysis.introspection {
        let viewer = state
            .viewers
            .resolve(&meta, &state.token_keys, &state.pool)
            .await;
        let refused = match viewer {
            Ok(Viewer::User(ref user)) if user.status == UserStatus::Active => None,
            Ok(_) => Some(AppError::unauthenticated(
                "Introspection requires a signed-in user",
            )),
            Err(e) => Some(e),
        };
        if let Some(error) = refused {
            return media.refuse(app_error(error), Some(&analysis));
        }
    }
    // A signed-in query of a database that has not changed since the same query is answered
    // as it was then (see `http::answer_cache`: exact to the snapshot the viewer was read at).
    let cached = match meta.access_token() {
        Some(token)
            if state.answers.is_on() && is_query(&mut request, operation_name.as_deref()) =>
        {
            let viewer = state
                .viewers
                .resolve(&meta, &state.token_keys, &state.pool)
                .await;
            let variables = serde_json::to_string(&request.variables);
            match (viewer, meta.snapshot.get(), variables) {
                (Ok(Viewer::User(_)), Some(snapshot), Ok(variables)) => {
                    // The operation name is quoted and the variables' JSON has no raw line
                    // break, so the key splits one way only.
                    let key = AnswerKey::new(
                        token,
                        format!(
                            "graphql {media:?} {operation_name:?}\n{}\n{variables}",
                            request.query,
                        ),
                    );
                    if let Some(answer) = state.answers.get(&key, snapshot) {
                        return answer.into_response();
                    }
                    Some((key, snapshot.clone()))
                }
                _ => None,
            }
        }
        _ => None,
    };

    let request = state.schema.per_request(request.data(meta), &state.pool);
    let mut response = crate::platform::graphql::execute(&state.schema, request).await;
    response
        .extensions
        .insert("cost".to_string(), analysis.extension());
    let complete = response.errors.is_empty();
    match media.answer(response) {
        Ok(answer) => {
            if let (Some((key, snapshot)), true) = (cached, complete) {
                state.answers.put(key, &snapshot, &answer);
            }
            answer.into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// True when the operation the request runs is a query (not a mutation or subscription).
fn is_query(request: &mut async_graphql::Request, operation_name: Option<&str>) -> bool {
    use async_graphql::parser::types::{DocumentOperations, OperationType};
    let Ok(document) = request.parsed_query() else {
        return false;
    };
    let operation = match (&document.operations, operation_name) {
        (DocumentOperations::Single(op), _) => Some(op),
        (DocumentOperations::Multiple(ops), Some(name)) => ops.get(name),
        // A named operation alone in its document (the parser keeps named ones in a map).
        (DocumentOperations::Multiple(ops), None) if ops.len() == 1 => ops.values().next(),
        (DocumentOperations::Multiple(_), None) => None,
    };
    operation.is_some_and(|op| op.node.ty == OperationType::Query)
}

/// What is wrong with a text in the variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadText {
    /// It holds a NUL character, which PostgreSQL cannot store.
    Nul,
    /// It is longer than any text input takes (`limits::DEFAULT_TEXT_MAX`); the message.
    TooLong(String),
}

impl BadText {
    /// The field-level message.
    pub fn message(self) -> String {
        match self {
            BadText::Nul => "Text must not contain a NUL character".into(),
            BadText::TooLong(message) => message,
        }
    }

    fn of(text: &str) -> Option<BadText> {
        if text.contains('\0') {
            Some(BadText::Nul)
        } else {
            crate::platform::graphql::limits::over_default_length(text).map(BadText::TooLong)
        }
    }
}

/// The first string of the variables with a NUL character or over the longest text any
/// field takes, as a dotted path (`variables.input.name`) and what is wrong with it.
pub fn bad_text_in_variables(variables: &Variables) -> Option<(String, BadText)> {
    fn walk(value: &Value, path: &mut Vec<String>, found: &mut Option<BadText>) -> bool {
        match value {
            Value::String(s) => {
                *found = BadText::of(s);
                found.is_some()
            }
            Value::List(items) => items.iter().enumerate().any(|(i, v)| {
                path.push(i.to_string());
                let hit = walk(v, path, found);
                if !hit {
                    path.pop();
                }
                hit
            }),
            Value::Object(map) => map.iter().any(|(k, v)| {
                path.push(k.to_string());
                if k.contains('\0') {
                    *found = Some(BadText::Nul);
                    return true;
                }
                let hit = walk(v, path, found);
                if !hit {
                    path.pop();
                }
                hit
            }),
            _ => false,
        }
    }
    let mut path = vec!["variables".to_string()];
    let mut found = None;
    for (name, value) in variables.iter() {
        path.push(name.to_string());
        if walk(value, &mut path, &mut found) {
            return found.map(|problem| (path.join("."), problem));
        }
        path.pop();
    }
    None
}

fn app_error(error: AppError) -> ServerError {
    let mut server = ServerError::new(error.message.clone(), None);
    server.extensions = Some(error.graphql_extensions());
    server
}

/// The media type the response is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ResponseMedia {
    /// `application/graphql-response+json`: request errors are 4xx.
    GraphqlResponse,
    /// `application/json` (also without an `Accept`): always 200.
    Json,
}

impl ResponseMedia {
    /// `application/graphql-response+json` when the client lists it before (or without)
    /// `application/json`; `application/json` otherwise.
    fn negotiate(headers: &HeaderMap) -> ResponseMedia {
        let accept = headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            });
        for media in accept {
            if media == GRAPHQL_RESPONSE {
                return ResponseMedia::GraphqlResponse;
            }
            if media == JSON || media == "*/*" || media == "application/*" {
                return ResponseMedia::Json;
            }
        }
        ResponseMedia::Json
    }

    fn content_type(self) -> &'static str {
        match self {
            ResponseMedia::GraphqlResponse => GRAPHQL_RESPONSE,
            ResponseMedia::Json => JSON,
        }
    }

    /// A request error: nothing executed.
    fn refuse(self, error: ServerError, analysis: Option<&cost::Analysis>) -> Response {
        let mut response = async_graphql::Response::from_errors(vec![error]);
        if let Some(analysis) = analysis {
            response
                .extensions
                .insert("cost".to_string(), analysis.extension());
        }
        self.respond(response)
    }

    fn respond(self, response: async_graphql::Response) -> Response {
        match self.answer(response) {
            Ok(answer) => answer.into_response(),
            Err(e) => e.into_response(),
        }
    }

    fn answer(self, response: async_graphql::Response) -> Result<Answer, AppError> {
        // No `data` at all and no error with a path: the request itself was refused (parse,
        // validation, variables, limits), which the new media type reports as a 4xx.
        let request_error = matches!(response.data, Value::Null)
            && !response.errors.is_empty()
            && response.errors.iter().all(|e| e.path.is_empty());
        let status = match self {
            ResponseMedia::GraphqlResponse if request_error => {
                let unauthenticated = response.errors.iter().all(|e| {
                    crate::platform::graphql::errors::code_of(e)
                        == crate::platform::error::ErrorCode::Unauthenticated
                });
                if unauthenticated {
                    StatusCode::UNAUTHORIZED
                } else {
                    StatusCode::BAD_REQUEST
                }
            }
            _ => StatusCode::OK,
        };
        let mut headers = response.http_headers.clone();
        headers.remove(header::CONTENT_TYPE);
        let body = serde_json::to_vec(&response).map_err(AppError::internal)?;
        Ok(Answer {
            status,
            body: body.into(),
            content_type: self.content_type(),
            headers,
        })
    }
}
