//! Gives every GraphQL error an `extensions.code` in one place.
//!
//! Resolvers return [`AppError`] with `?`; async-graphql keeps it as the error's source, and
//! [`classify`] (run on every response by `crate::platform::graphql::execute`) turns it into `code` (and `fields`, `retryAfter`). Errors async-graphql
//! raises itself (syntax, validation, variable coercion, limits) are the client's fault:
//! `BAD_USER_INPUT`. Anything else that escaped a resolver is a bug: its message is replaced
//! and the original is logged with the request id.

use async_graphql::ServerError;

use crate::platform::error::{AppError, ErrorCode};

/// Sets the code of one error (idempotent: an error that has a code keeps it).
pub fn classify(error: &mut ServerError) {
    if let Some(app) = error.source::<AppError>() {
        let ext = app.graphql_extensions();
        error.message = app.message.clone();
        error.extensions = Some(ext);
        return;
    }
    if error
        .extensions
        .as_ref()
        .is_some_and(|e| e.get("code").is_some())
    {
        return;
    }
    let code = if error.source.is_some() {
        tracing::error!(error = %error.message, "unhandled error in a resolver");
        error.message = "An unexpected error occurred. Please try again later.".into();
        ErrorCode::Internal
    } else {
        ErrorCode::BadUserInput
    };
    let mut ext = error.extensions.take().unwrap_or_default();
    ext.set("code", code.as_str());
    error.extensions = Some(ext);
}

/// The code of a classified error.
pub fn code_of(error: &ServerError) -> ErrorCode {
    error
        .extensions
        .as_ref()
        .and_then(|e| e.get("code"))
        .and_then(|v| match v {
            async_graphql::Value::String(s) => Some(ErrorCode::from_code(s)),
            _ => None,
        })
        .unwrap_or(ErrorCode::Internal)
}
