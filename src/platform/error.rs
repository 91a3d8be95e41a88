//! One error model for the whole service.
//!
//! A resolver returns [`AppError`]; GraphQL carries its [`ErrorCode`] in
//! `extensions.code`; the REST facade and plain handlers turn the same code into an HTTP
//! status and a `{"detail": ...}` body (or the 422 validation shape of CONTRACT 8). This
//! module is the only place that knows the mapping.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

pub mod tracking;

/// The closed set of error kinds. `as_str` is the GraphQL `extensions.code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// No or bad credentials: 401.
    Unauthenticated,
    /// Authenticated but not allowed: 403.
    Forbidden,
    /// The thing does not exist: 404.
    NotFound,
    /// A business rule refused the request: 400 (the original's `HTTPException(400)`).
    BadRequest,
    /// Input failed validation: 422 with field-level details.
    BadUserInput,
    /// A uniqueness or concurrency conflict: 409.
    Conflict,
    /// The body is larger than allowed: 413.
    PayloadTooLarge,
    /// The body's `Content-Type` is not one the route reads: 415.
    UnsupportedMediaType,
    /// Too many requests: 429.
    RateLimited,
    /// A dependency (the database) is down: 503.
    Unavailable,
    /// A bug or an unexpected failure: 500, with no internals in the body.
    Internal,
}

impl ErrorCode {
    /// Every code, for the mapping tests and documentation.
    pub const ALL: [ErrorCode; 11] = [
        ErrorCode::Unauthenticated,
        ErrorCode::Forbidden,
        ErrorCode::NotFound,
        ErrorCode::BadRequest,
        ErrorCode::BadUserInput,
        ErrorCode::Conflict,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::RateLimited,
        ErrorCode::Unavailable,
        ErrorCode::Internal,
    ];

    /// The GraphQL `extensions.code` value.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Unauthenticated => "UNAUTHENTICATED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::BadRequest => "BAD_REQUEST",
            ErrorCode::BadUserInput => "BAD_USER_INPUT",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            ErrorCode::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            ErrorCode::RateLimited => "RATE_LIMITED",
            ErrorCode::Unavailable => "UNAVAILABLE",
            ErrorCode::Internal => "INTERNAL_SERVER_ERROR",
        }
    }

    /// Reads an `extensions.code` back (unknown codes are internal errors).
    pub fn from_code(code: &str) -> ErrorCode {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == code)
            .unwrap_or(ErrorCode::Internal)
    }

    /// The HTTP status of this kind of error.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::Unauthenticated => StatusCode::UNAUTHORIZED,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::BadUserInput => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Conflict => StatusCode::CONFLICT,
            ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// One field that failed validation (CONTRACT 8: `{field, message, type}`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FieldError {
    /// Dotted path of the field (`email`, `lines.0.quantity`, `query.limit`).
    pub field: String,
    /// What is wrong, in words a user understands.
    pub message: String,
    /// A short machine-readable kind (`value_error`, `missing`, `int_parsing`...).
    #[serde(rename = "type")]
    pub kind: String,
}

impl FieldError {
    /// A field error of kind `value_error`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
            kind: "value_error".into(),
        }
    }

    /// A field error with an explicit kind.
    pub fn with_kind(mut self, kind: impl Into<String>) -> Self {
        self.kind = kind.into();
        self
    }
}

/// The error every layer returns.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct AppError {
    /// The kind, which decides the status.
    pub code: ErrorCode,
    /// The message shown to the client (never internals for `Internal`).
    pub message: String,
    /// Field-level details for validation errors.
    pub fields: Vec<FieldError>,
    /// Seconds to wait, for rate limits.
    pub retry_after: Option<u64>,
}

/// Seconds a client is told to wait after a 503 (a restarting database is usually back
/// within a few seconds).
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

/// Shorthand for results of this crate.
pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    /// An error of `code` with `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        AppError {
            code,
            message: message.into(),
            fields: Vec::new(),
            retry_after: None,
        }
    }

    /// 401 with the contract's message for a bad or missing credential.
    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthenticated, message)
    }

    /// 403.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// 400: a business rule refused the request.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, message)
    }

    /// 409.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Conflict, message)
    }

    /// 422 `Request validation failed` with field-level details.
    pub fn validation(fields: Vec<FieldError>) -> Self {
        AppError {
            code: ErrorCode::BadUserInput,
            message: "Request validation failed".into(),
            fields,
            retry_after: None,
        }
    }

    /// 422 `Request validation failed` on one field.
    pub fn invalid_field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::validation(vec![FieldError::new(field, message)])
    }

    /// 429 with a `Retry-After`.
    pub fn rate_limited(message: impl Into<String>, retry_after_secs: u64) -> Self {
        AppError {
            retry_after: Some(retry_after_secs.max(1)),
            ..Self::new(ErrorCode::RateLimited, message)
        }
    }

    /// 503: the database (or another dependency) cannot be reached.
    pub fn unavailable(message: impl Into<String>) -> Self {
        AppError {
            retry_after: Some(UNAVAILABLE_RETRY_AFTER_SECS),
            ..Self::new(ErrorCode::Unavailable, message)
        }
    }

    /// A 500 error. The cause is logged here, with the request id of the current span, and
    /// never sent to the client.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        tracking::capture_server_error("internal", &cause);
        Self::new(
            ErrorCode::Internal,
            "An unexpected error occurred. Please try again later.",
        )
    }

    /// The REST body of this error (CONTRACT 8).
    pub fn rest_body(&self) -> Value {
        match self.code {
            ErrorCode::BadUserInput => json!({
                "error": "VALIDATION_ERROR",
                "message": self.message,
                "details": { "errors": self.fields },
                "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            }),
            ErrorCode::RateLimited => json!({ "error": self.message }),
            ErrorCode::Internal => json!({
                "error": "INTERNAL_ERROR",
                "message": self.message,
                "detail": self.message,
                "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            }),
            _ => json!({ "detail": self.message }),
        }
    }

    /// The `extensions` of the GraphQL error for this error: `code`, and `fields` for
    /// validation errors, `retryAfter` for rate limits.
    pub fn graphql_extensions(&self) -> async_graphql::ErrorExtensionValues {
        use async_graphql::{Name, Value as GqlValue};
        let mut ext = async_graphql::ErrorExtensionValues::default();
        ext.set("code", self.code.as_str());
        if !self.fields.is_empty() {
            let fields = self
                .fields
                .iter()
                .map(|f| {
                    let mut m = async_graphql::indexmap::IndexMap::new();
                    m.insert(Name::new("field"), GqlValue::from(f.field.clone()));
                    m.insert(Name::new("message"), GqlValue::from(f.message.clone()));
                    m.insert(Name::new("type"), GqlValue::from(f.kind.clone()));
                    GqlValue::Object(m)
                })
                .collect();
            ext.set("fields", GqlValue::List(fields));
        }
        if let Some(secs) = self.retry_after {
            ext.set("retryAfter", secs);
        }
        ext
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        crate::platform::db::errors::app_error(e)
    }
}

impl From<crate::platform::db::PoolError> for AppError {
    fn from(e: crate::platform::db::PoolError) -> Self {
        tracing::warn!(error = %e, "database pool unavailable");
        AppError::unavailable("The database is unavailable")
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.code.status();
        // Internal errors were reported where they arose (with their cause); the other
        // 5xx (a dependency down) are reported as they leave.
        if status.is_server_error() && self.code != ErrorCode::Internal {
            tracking::capture_server_error(self.code.as_str(), &self.message);
        }
        let mut response = (status, axum::Json(self.rest_body())).into_response();
        let headers = response.headers_mut();
        if let Some(secs) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            headers.insert(header::RETRY_AFTER, v);
        }
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_map_to_statuses() {
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(code.as_str()), code);
        }
        assert_eq!(ErrorCode::from_code("SOMETHING_ELSE"), ErrorCode::Internal);
        assert_eq!(
            ErrorCode::Unauthenticated.status(),
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            ErrorCode::BadUserInput.status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(
            ErrorCode::RateLimited.status(),
            StatusCode::TOO_MANY_REQUESTS
        );
    }

    #[test]
    fn validation_body_has_the_contract_shape() {
        let e = AppError::validation(vec![FieldError::new(
            "email",
            "value is not a valid email address",
        )]);
        let body = e.rest_body();
        assert_eq!(body["error"], "VALIDATION_ERROR");
        assert_eq!(body["message"], "Request validation failed");
        assert_eq!(body["details"]["errors"][0]["field"], "email");
        assert_eq!(body["details"]["errors"][0]["type"], "value_error");
    }

    #[test]
    fn graphql_extensions_carry_the_code() {
        let ext = AppError::forbidden("Admin access required").graphql_extensions();
        assert_eq!(
            ext.get("code"),
            Some(&async_graphql::Value::from("FORBIDDEN"))
        );
        // Resolvers use `?`: the blanket conversion keeps the AppError as the source.
        let e: async_graphql::Error = AppError::forbidden("Admin access required").into();
        assert_eq!(e.message, "Admin access required");
    }
}
