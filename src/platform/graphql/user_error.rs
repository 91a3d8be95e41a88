//! Business-rule violations as data: every mutation payload carries `userErrors`.

use async_graphql::{Enum, SimpleObject};

use crate::platform::error::{ErrorCode, FieldError};

/// What kind of rule a user error broke; the REST facade maps it to a status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "SCREAMING_SNAKE_CASE")]
pub enum UserErrorCode {
    /// A value is malformed or missing (REST 422).
    Invalid,
    /// A password breaks the strength rules (REST 400).
    WeakPassword,
    /// A unique value is already used (REST 400).
    Taken,
    /// The action is not allowed in the current state (REST 400).
    NotAllowed,
    /// A referenced record does not exist (REST 404).
    NotFound,
    /// The record's state conflicts with the change (REST 409): undo what depends on it
    /// first.
    Conflict,
}

impl UserErrorCode {
    /// The error kind (and so HTTP status) this code maps to.
    pub fn error_code(self) -> ErrorCode {
        match self {
            UserErrorCode::Invalid => ErrorCode::BadUserInput,
            UserErrorCode::WeakPassword | UserErrorCode::Taken | UserErrorCode::NotAllowed => {
                ErrorCode::BadRequest
            }
            UserErrorCode::NotFound => ErrorCode::NotFound,
            UserErrorCode::Conflict => ErrorCode::Conflict,
        }
    }

    /// Reads the GraphQL name back.
    pub fn from_name(name: &str) -> Option<UserErrorCode> {
        [
            UserErrorCode::Invalid,
            UserErrorCode::WeakPassword,
            UserErrorCode::Taken,
            UserErrorCode::NotAllowed,
            UserErrorCode::NotFound,
            UserErrorCode::Conflict,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }

    /// The GraphQL name.
    pub fn name(self) -> &'static str {
        match self {
            UserErrorCode::Invalid => "INVALID",
            UserErrorCode::WeakPassword => "WEAK_PASSWORD",
            UserErrorCode::Taken => "TAKEN",
            UserErrorCode::NotAllowed => "NOT_ALLOWED",
            UserErrorCode::NotFound => "NOT_FOUND",
            UserErrorCode::Conflict => "CONFLICT",
        }
    }
}

/// One violated rule.
#[derive(Debug, Clone, SimpleObject)]
pub struct UserError {
    /// The input field at fault (camelCase, dotted for nested fields), if one is.
    pub field: Option<String>,
    /// The kind of rule.
    pub code: UserErrorCode,
    /// What is wrong, for people.
    pub message: String,
}

/// A field-level `Invalid` error: the one constructor every area's rules use for "this value
/// is wrong" (422 over REST).
pub fn invalid(field: &str, message: impl Into<String>) -> UserError {
    UserError::new(field, UserErrorCode::Invalid, message)
}

impl UserError {
    /// An error on `field`.
    pub fn new(field: impl Into<String>, code: UserErrorCode, message: impl Into<String>) -> Self {
        UserError {
            field: Some(field.into()),
            code,
            message: message.into(),
        }
    }

    /// An error on no particular field.
    pub fn general(code: UserErrorCode, message: impl Into<String>) -> Self {
        UserError {
            field: None,
            code,
            message: message.into(),
        }
    }

    /// As a REST field error.
    pub fn to_field_error(&self) -> FieldError {
        FieldError::new(self.field.clone().unwrap_or_default(), self.message.clone())
    }
}

/// Why a multi-step write stopped: a broken business rule, answered as `userErrors`, or a
/// failure. Returning either from a database transaction rolls the whole transaction back,
/// so a rule found broken after the first rows were written still leaves nothing behind.
///
/// ```text
/// let outcome = conn.transaction::<_, Stop, _>(async |conn| { ... }).await;
/// Ok(Stop::settle(outcome)?.into())
/// ```
///
/// A resolver writes that as `Ok(in_transaction!(ctx, |conn| rules::create(conn, form)).into())`.
#[derive(Debug)]
pub enum Stop {
    /// A rule refused the change.
    Refused(Vec<UserError>),
    /// Something failed (database, bug): a top-level error.
    Failed(crate::platform::error::AppError),
}

impl Stop {
    /// A refusal on one field.
    pub fn refuse(field: &str, code: UserErrorCode, message: impl Into<String>) -> Stop {
        Stop::Refused(vec![UserError::new(field, code, message)])
    }

    /// The outcome as a read wants it: a refusal becomes the error its code maps to (one
    /// field-level 422 for invalid input, else the first refusal's 400 or 404).
    pub fn into_app<T>(outcome: Result<T, Stop>) -> crate::platform::error::AppResult<T> {
        use crate::platform::error::AppError;
        match outcome {
            Ok(value) => Ok(value),
            Err(Stop::Failed(error)) => Err(error),
            Err(Stop::Refused(errors)) => {
                let first = errors.first().map(|e| (e.code, e.message.clone()));
                Err(match first {
                    Some((UserErrorCode::NotFound, message)) => AppError::not_found(message),
                    Some((UserErrorCode::Conflict, message)) => AppError::conflict(message),
                    Some((UserErrorCode::Invalid, _)) | None => {
                        AppError::validation(errors.iter().map(UserError::to_field_error).collect())
                    }
                    Some((_, message)) => AppError::bad_request(message),
                })
            }
        }
    }

    /// The outcome of a transaction as a mutation wants it: rule violations as data,
    /// failures as errors.
    pub fn settle<T>(
        outcome: Result<T, Stop>,
    ) -> crate::platform::error::AppResult<Result<T, Vec<UserError>>> {
        match outcome {
            Ok(value) => Ok(Ok(value)),
            Err(Stop::Refused(errors)) => Ok(Err(errors)),
            Err(Stop::Failed(error)) => Err(error),
        }
    }
}

impl From<diesel::result::Error> for Stop {
    fn from(e: diesel::result::Error) -> Self {
        Stop::Failed(e.into())
    }
}

impl From<crate::platform::error::AppError> for Stop {
    fn from(e: crate::platform::error::AppError) -> Self {
        Stop::Failed(e)
    }
}

impl From<UserError> for Stop {
    fn from(error: UserError) -> Self {
        Stop::Refused(vec![error])
    }
}

impl From<Vec<UserError>> for Stop {
    fn from(errors: Vec<UserError>) -> Self {
        Stop::Refused(errors)
    }
}

/// Runs a rule in one database transaction on the request's connection and settles it:
/// `Ok(value)`, `Err(userErrors)` (the transaction rolled back), or `?` returns the failure.
///
/// ```text
/// Ok(in_transaction!(ctx, |conn| rules::create(conn, form, lines)).into())
/// ```
#[macro_export]
macro_rules! in_transaction {
    ($ctx:expr, |$conn:ident| $body:expr) => {{
        use ::diesel_async::AsyncConnection as _;
        let mut connection = $crate::platform::graphql::context::conn($ctx).await?;
        let outcome = connection
            .transaction::<_, $crate::platform::graphql::user_error::Stop, _>(async move |$conn| {
                $body.await
            })
            .await;
        $crate::platform::graphql::user_error::Stop::settle(outcome)?
    }};
}

/// Implements `From<Result<Row, Vec<UserError>>>` for a mutation payload of the usual shape
/// (`$field: Option<Row>` plus `user_errors`), so a resolver ends in
/// `Ok(in_transaction!(ctx, |conn| rules::change(conn, ...)).into())`.
///
/// ```text
/// crate::payload_from_result!(SalesOrderPayload { sales_order: SalesOrderRow });
/// ```
#[macro_export]
macro_rules! payload_from_result {
    ($payload:ident { $field:ident: $row:ty }) => {
        impl From<Result<$row, Vec<$crate::platform::graphql::user_error::UserError>>>
            for $payload
        {
            fn from(
                result: Result<$row, Vec<$crate::platform::graphql::user_error::UserError>>,
            ) -> Self {
                match result {
                    Ok(row) => $payload {
                        $field: Some(row),
                        user_errors: Vec::new(),
                    },
                    Err(user_errors) => $payload {
                        $field: None,
                        user_errors,
                    },
                }
            }
        }
    };
}
