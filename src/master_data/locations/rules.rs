//! Location rules (CONTRACT 5.9): codes unique ignoring case, codes and names without control
//! or text-direction characters, parents that exist and close no cycle, and a delete that
//! never loses history: a location in use (or the main warehouse) is deactivated instead, and
//! one holding stock is refused.

use bigdecimal::{BigDecimal, Zero};
use diesel_async::{AsyncConnection, AsyncPgConnection};

use crate::master_data::locations::model::{self, LocationForm, LocationRow, MAIN_CODE};
use crate::platform::db::text;
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// Longest code.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 255;
/// Longest kind.
pub const KIND_MAX: usize = 50;

/// A location's kind as stored: trimmed, lower case, spaces and dashes as underscores
/// (`Quality Hold` -> `quality_hold`). The set is open (warehouse, shelf, bin, ...).
pub fn normalize_kind(raw: &str) -> String {
    raw.trim()
        .to_lowercase()
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect()
}

use crate::platform::graphql::user_error::invalid;

fn not_found() -> AppError {
    AppError::not_found("Location not found")
}

/// Checks and normalises the values of a new (`creating`) or changed location.
fn check_fields(values: &mut LocationForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    match values.code.as_mut() {
        Some(code) => {
            *code = code.trim().to_uppercase();
            if code.is_empty() {
                errors.push(invalid("code", "String should have at least 1 character"));
            } else if code.chars().count() > CODE_MAX {
                errors.push(invalid(
                    "code",
                    format!("String should have at most {CODE_MAX} characters"),
                ));
            } else if let Some(error) = text::hidden_characters("code", code) {
                errors.push(error);
            }
        }
        None if creating => errors.push(invalid("code", "Field required")),
        None => {}
    }
    match values.name.as_mut() {
        Some(name) => {
            *name = name.trim().to_string();
            if name.is_empty() {
                errors.push(invalid("name", "String should have at least 1 character"));
            } else if let Some(error) = text::hidden_characters("name", name) {
                errors.push(error);
            } else if name.chars().count() > NAME_MAX {
                errors.push(invalid(
                    "name",
                    format!("String should have at most {NAME_MAX} characters"),
                ));
            }
        }
        None if creating => errors.push(invalid("name", "Field required")),
        None => {}
    }
    if let Some(kind) = values.kind.as_mut() {
        *kind = normalize_kind(kind);
        if kind.is_empty() {
            errors.push(invalid("type", "String should have at least 1 character"));
        } else if kind.chars().count() > KIND_MAX {
            errors.push(invalid(
                "type",
                format!("String should have at most {KIND_MAX} characters"),
            ));
        } else if !kind
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            errors.push(invalid(
                "type",
                "Use letters, digits, spaces, dashes or underscores (e.g. warehouse, shelf, bin)",
            ));
        }
    }
    errors
}

/// Refuses to take a location that holds stock out of use.
async fn check_no_stock(
    conn: &mut AsyncPgConnection,
    row: &LocationRow,
    action: &str,
) -> AppResult<Option<UserError>> {
    let on_hand = model::stock_at_location(conn, row.id).await?;
    Ok((on_hand > BigDecimal::zero()).then(|| {
        UserError::general(
            UserErrorCode::NotAllowed,
            format!(
                "Cannot {action} location '{}': it holds stock ({} on hand). Move the stock first.",
                row.code,
                on_hand.normalized()
            ),
        )
    }))
}

fn taken(code: &str) -> UserError {
    UserError::new(
        "code",
        UserErrorCode::Taken,
        format!("Location code '{code}' already exists"),
    )
}

/// Creates (`id` is `None`) or changes a location, in one transaction. Field errors come
/// back as `Err` and nothing is written.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut values: LocationForm,
) -> AppResult<Result<LocationRow, Vec<UserError>>> {
    let errors = check_fields(&mut values, id.is_none());
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    let code = values.code.clone().unwrap_or_default();
    let result = conn
        .transaction::<_, AppError, _>(async move |conn| {
            model::lock_tree(conn).await?;
            let existing = match id {
                Some(id) => Some(
                    model::find_for_update(conn, id)
                        .await?
                        .ok_or_else(not_found)?,
                ),
                None => None,
            };
            if let Some(code) = &values.code
                && let Some(other) = model::find_by_code(conn, code).await?
                && existing.as_ref().is_none_or(|e| e.id != other.id)
            {
                return Ok(Err(vec![taken(code)]));
            }
            if let Some(Some(parent)) = values.parent_id {
                if model::find(conn, parent).await?.is_none() {
                    return Ok(Err(vec![invalid(
                        "parentId",
                        format!("Location {parent} does not exist"),
                    )]));
                }
                if let Some(me) = &existing
                    && model::would_cycle(conn, me.id, parent).await?
                {
                    return Ok(Err(vec![UserError::new(
                        "parentId",
                        UserErrorCode::NotAllowed,
                        "A location cannot be placed inside itself or one of its sub-locations",
                    )]));
                }
            }
            if let Some(me) = &existing
                && values.active == Some(false)
                && me.active
                && let Some(e) = check_no_stock(conn, me, "deactivate").await?
            {
                return Ok(Err(vec![e]));
            }
            let row = match &existing {
                Some(me) => model::update(conn, me.id, &values).await?,
                None => model::insert(conn, &values).await?,
            };
            Ok(Ok(row))
        })
        .await;
    match result {
        // A concurrent insert of the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![taken(&code)])),
        other => other,
    }
}

/// What a delete did.
#[derive(Debug, Clone)]
pub struct Deleted {
    /// The location as it was (deleted) or is now (deactivated).
    pub row: LocationRow,
    /// True when the row is gone; false when it was deactivated instead.
    pub removed: bool,
    /// What happened, for people.
    pub message: String,
}

/// Deletes a location: refused while it holds stock; deactivated when it is the main
/// warehouse or anything refers to it (sub-locations, stock history, ...); removed for good
/// otherwise.
pub async fn delete(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Result<Deleted, UserError>> {
    conn.transaction::<_, AppError, _>(async move |conn| {
        model::lock_tree(conn).await?;
        let row = model::find_for_update(conn, id)
            .await?
            .ok_or_else(not_found)?;
        if let Some(e) = check_no_stock(conn, &row, "delete").await? {
            return Ok(Err(e));
        }
        let refs = model::references(conn, id).await?;
        let is_main = row.code.eq_ignore_ascii_case(MAIN_CODE);
        if is_main || !refs.is_empty() {
            let why = if is_main {
                "the main warehouse is never deleted".to_string()
            } else {
                let names: Vec<&str> = refs
                    .iter()
                    .map(|t| {
                        if t == "locations" {
                            "sub-locations"
                        } else {
                            t.as_str()
                        }
                    })
                    .collect();
                format!("it is referenced by {}", names.join(", "))
            };
            let row = model::update(
                conn,
                id,
                &LocationForm {
                    active: Some(false),
                    ..Default::default()
                },
            )
            .await?;
            return Ok(Ok(Deleted {
                message: format!("Location '{}' deactivated ({why})", row.code),
                row,
                removed: false,
            }));
        }
        model::delete(conn, id).await?;
        Ok(Ok(Deleted {
            message: format!("Location '{}' deleted", row.code),
            row,
            removed: true,
        }))
    })
    .await
}
