//! What a database error means to the client: every constraint violation is a field-level
//! 4xx (constraint names map to fields in [`CONSTRAINT_FIELDS`], and are never shown), every
//! outage (a closed, reset or administratively terminated connection, a server shutting
//! down or starting up, a cancelled statement) is a 503 with `Retry-After`, and only what is
//! left is a 500.

use diesel::result::{DatabaseErrorInformation, DatabaseErrorKind, Error};

use crate::platform::error::{AppError, FieldError};

/// Constraint names whose field cannot be read off the name (`{table}_{column}_fkey` and
/// `{table}_{column}_check` need no entry).
const CONSTRAINT_FIELDS: &[(&str, &str)] = &[
    ("item_categories_check", "parent_id"),
    ("locations_check", "parent_id"),
];

/// Messages (PostgreSQL's, in the server's default English) of errors that mean the
/// database is not reachable right now rather than that the request is wrong.
const OUTAGE_MESSAGES: &[&str] = &[
    "terminating connection",
    "the database system is",
    "server closed the connection",
    "connection closed",
    "connection reset",
    "broken pipe",
    "canceling statement due to statement timeout",
    "canceling statement due to user request",
    "cannot connect now",
    "no connection to the server",
    "the database system is in recovery mode",
];

/// Messages of data errors the client caused (a value PostgreSQL cannot store).
const INPUT_MESSAGES: &[(&str, &str)] = &[
    ("numeric field overflow", "Number is too large"),
    ("out of range", "Number is out of range"),
    ("value too long", "Text is too long"),
    (
        "invalid byte sequence",
        "Text contains a character that cannot be stored",
    ),
    ("invalid input syntax", "Value has an invalid format"),
];

/// The client-facing error of a diesel error.
pub fn app_error(e: Error) -> AppError {
    match e {
        Error::NotFound => AppError::not_found("Not found"),
        Error::DatabaseError(kind, info) => database_error(kind, info.as_ref()),
        other => AppError::internal(other),
    }
}

fn database_error(
    kind: DatabaseErrorKind,
    info: &(dyn DatabaseErrorInformation + Send + Sync),
) -> AppError {
    let message = info.message().to_ascii_lowercase();
    match kind {
        DatabaseErrorKind::UniqueViolation => {
            let field = field_of(info);
            let mut error = AppError::conflict("Already exists");
            if let Some(field) = field {
                error.fields = vec![FieldError::new(field, "Already exists").with_kind("unique")];
            }
            error
        }
        DatabaseErrorKind::SerializationFailure => {
            AppError::conflict("The record was changed by someone else; please retry")
        }
        DatabaseErrorKind::ForeignKeyViolation | DatabaseErrorKind::RestrictViolation
            if message.starts_with("update or delete") =>
        {
            AppError::conflict("It is still in use")
        }
        DatabaseErrorKind::ForeignKeyViolation => field_error(
            info,
            "Refers to a record that does not exist",
            "foreign_key",
        ),
        DatabaseErrorKind::NotNullViolation => field_error(info, "Field required", "missing"),
        DatabaseErrorKind::CheckViolation => {
            field_error(info, "Value is not allowed", "value_error")
        }
        DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand => {
            outage(info.message())
        }
        _ if OUTAGE_MESSAGES.iter().any(|m| message.contains(m)) => outage(info.message()),
        _ => match INPUT_MESSAGES.iter().find(|(m, _)| message.contains(m)) {
            Some((_, text)) => AppError::validation(vec![FieldError::new(
                field_of(info).unwrap_or_else(|| "body".into()),
                *text,
            )]),
            None => AppError::internal(format!("database error: {}", info.message())),
        },
    }
}

fn outage(cause: &str) -> AppError {
    tracing::warn!(error = %cause, "database unavailable");
    AppError::unavailable("The database is unavailable")
}

fn field_error(
    info: &(dyn DatabaseErrorInformation + Send + Sync),
    message: &str,
    kind: &str,
) -> AppError {
    let field = field_of(info).unwrap_or_else(|| "body".into());
    AppError::validation(vec![FieldError::new(field, message).with_kind(kind)])
}

/// The field a violation is about: the column PostgreSQL names, a constraint of the table,
/// or the column in a `{table}_{column}_{suffix}` constraint name.
fn field_of(info: &(dyn DatabaseErrorInformation + Send + Sync)) -> Option<String> {
    if let Some(column) = info.column_name() {
        return Some(column.to_string());
    }
    let constraint = info.constraint_name()?;
    if let Some((_, field)) = CONSTRAINT_FIELDS.iter().find(|(c, _)| *c == constraint) {
        return Some((*field).to_string());
    }
    let rest = match info.table_name() {
        Some(table) => constraint.strip_prefix(table)?.strip_prefix('_')?,
        None => constraint,
    };
    ["_fkey", "_check", "_key", "_idx", "_not_null"]
        .iter()
        .find_map(|suffix| rest.strip_suffix(suffix))
        .filter(|f| !f.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::error::ErrorCode;

    fn db(kind: DatabaseErrorKind, message: &str) -> Error {
        Error::DatabaseError(kind, Box::new(message.to_string()))
    }

    #[test]
    fn every_outage_is_a_503_with_retry_after() {
        for error in [
            db(DatabaseErrorKind::UnableToSendCommand, "connection closed"),
            db(
                DatabaseErrorKind::ClosedConnection,
                "server closed the connection unexpectedly",
            ),
            db(
                DatabaseErrorKind::Unknown,
                "terminating connection due to administrator command",
            ),
            db(
                DatabaseErrorKind::Unknown,
                "the database system is starting up",
            ),
            db(
                DatabaseErrorKind::Unknown,
                "canceling statement due to statement timeout",
            ),
            db(DatabaseErrorKind::Unknown, "connection reset by peer"),
        ] {
            let mapped = app_error(error);
            assert_eq!(mapped.code, ErrorCode::Unavailable, "{}", mapped.message);
            assert!(mapped.retry_after.is_some());
        }
    }

    #[test]
    fn data_errors_are_422_and_name_no_constraint() {
        let mapped = app_error(db(DatabaseErrorKind::Unknown, "numeric field overflow"));
        assert_eq!(mapped.code, ErrorCode::BadUserInput);
        let mapped = app_error(db(
            DatabaseErrorKind::ForeignKeyViolation,
            "insert or update violates",
        ));
        assert_eq!(mapped.code, ErrorCode::BadUserInput);
        let mapped = app_error(db(
            DatabaseErrorKind::ForeignKeyViolation,
            "update or delete on table \"item_categories\" violates foreign key constraint",
        ));
        assert_eq!(mapped.code, ErrorCode::Conflict);
        assert!(!mapped.message.contains("constraint"));
        let mapped = app_error(db(DatabaseErrorKind::UniqueViolation, "duplicate key"));
        assert_eq!(mapped.code, ErrorCode::Conflict);
        assert_eq!(mapped.message, "Already exists");
    }
}
