//! Team members (CONTRACT 5.15): admins manage staff accounts, with guards that keep at
//! least one active admin and stop admins from locking themselves out.

use diesel_async::{AsyncConnection, AsyncPgConnection};

use crate::audit::{AuditEvent, Outcome};
use crate::auth::password;
use crate::auth::viewer::CurrentUser;
use crate::error::{AppError, AppResult};
use crate::graphql::user_error::{UserError, UserErrorCode};
use crate::identity::model::{self, NewUser, UserChanges, UserRow};
use crate::identity::{Deps, Email, sessions};

/// A new staff account.
pub struct NewMember {
    /// E-mail (raw; parsed here).
    pub email: String,
    /// Initial password.
    pub password: String,
    /// Given name.
    pub first_name: Option<String>,
    /// Family name.
    pub last_name: Option<String>,
    /// admin or operator.
    pub account_type: String,
}

/// Changes to a staff account; `None` keeps the value.
#[derive(Default)]
pub struct MemberChanges {
    /// New e-mail.
    pub email: Option<String>,
    /// New given name.
    pub first_name: Option<String>,
    /// New family name.
    pub last_name: Option<String>,
    /// New role.
    pub account_type: Option<String>,
    /// New status.
    pub status: Option<String>,
}

fn not_found() -> AppError {
    AppError::not_found("User not found")
}

async fn email_taken(
    conn: &mut AsyncPgConnection,
    email: &Email,
    except: Option<i64>,
) -> AppResult<bool> {
    Ok(model::find_by_email(conn, email.as_str())
        .await?
        .is_some_and(|u| Some(u.id) != except))
}

/// Creates a staff account.
pub async fn create(
    d: &Deps<'_>,
    actor: &CurrentUser,
    input: NewMember,
) -> AppResult<Result<UserRow, Vec<UserError>>> {
    let mut errors = Vec::new();
    let email = Email::parse(&input.email)
        .map_err(|m| errors.push(UserError::new("email", UserErrorCode::Invalid, m)))
        .ok();
    if input.password.chars().count() < 8 {
        errors.push(UserError::new(
            "password",
            UserErrorCode::Invalid,
            "String should have at least 8 characters",
        ));
    }
    let (Some(email), true) = (email, errors.is_empty()) else {
        return Ok(Err(errors));
    };
    if let Err(message) = password::check_strength(&input.password) {
        return Ok(Err(vec![UserError::new(
            "password",
            UserErrorCode::WeakPassword,
            message,
        )]));
    }
    if email_taken(&mut *d.conn().await?, &email, None).await? {
        return Ok(Err(vec![UserError::new(
            "email",
            UserErrorCode::Taken,
            "Email already registered",
        )]));
    }
    // No connection is held while argon2 works.
    let hash = password::hash(&input.password).await?;
    let mut conn = d.conn().await?;
    let first = input.first_name.as_deref().map(str::trim);
    let last = input.last_name.as_deref().map(str::trim);
    let user = model::insert(
        &mut conn,
        &NewUser {
            email: email.as_str(),
            password_hash: &hash,
            first_name: first,
            last_name: last,
            company_name: None,
            account_type: &input.account_type,
            status: "active",
            email_verified: false,
        },
    )
    .await;
    let user = match user {
        Ok(u) => u,
        // A concurrent insert of the same address lost the race to the unique index.
        Err(e) if e.code == crate::error::ErrorCode::Conflict => {
            return Ok(Err(vec![UserError::new(
                "email",
                UserErrorCode::Taken,
                "Email already registered",
            )]));
        }
        Err(e) => return Err(e),
    };
    d.audit(
        AuditEvent::new("user_created", Outcome::Success)
            .user(user.id, &user.email)
            .details(serde_json::json!({ "by": actor.id, "account_type": user.account_type })),
    )
    .await;
    Ok(Ok(user))
}

/// Applies changes with the contract's guards (self-demotion, self-deactivation, the last
/// active admin, a taken e-mail).
pub async fn update(
    d: &Deps<'_>,
    actor: &CurrentUser,
    id: i64,
    changes: MemberChanges,
) -> AppResult<Result<UserRow, Vec<UserError>>> {
    let mut conn = d.conn().await?;
    let email = match changes.email.as_deref() {
        Some(raw) => match Email::parse(raw) {
            Ok(e) => Some(e),
            Err(m) => {
                return Ok(Err(vec![UserError::new(
                    "email",
                    UserErrorCode::Invalid,
                    m,
                )]));
            }
        },
        None => None,
    };
    let actor_id = actor.id;
    let result = conn
        .transaction::<_, AppError, _>(async move |conn| {
            // Serialise role changes so two admins cannot demote each other at once and
            // leave none.
            diesel_async::RunQueryDsl::execute(
                diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE"),
                conn,
            )
            .await?;
            let user = model::find(conn, id).await?.ok_or_else(not_found)?;
            let demoting = changes
                .account_type
                .as_deref()
                .is_some_and(|t| t != "admin")
                && user.account_type == "admin";
            let deactivating =
                changes.status.as_deref().is_some_and(|s| s != "active") && user.is_active();
            if demoting && id == actor_id {
                return Ok(Err(vec![UserError::new(
                    "accountType",
                    UserErrorCode::NotAllowed,
                    "Cannot demote yourself. Have another admin change your role.",
                )]));
            }
            if deactivating && id == actor_id {
                return Ok(Err(vec![UserError::new(
                    "status",
                    UserErrorCode::NotAllowed,
                    "Cannot deactivate your own account",
                )]));
            }
            if (demoting || deactivating)
                && user.account_type == "admin"
                && user.is_active()
                && model::count_other_active_admins(conn, id).await? == 0
            {
                let (field, message) = if demoting {
                    ("accountType", "Cannot demote the last active admin")
                } else {
                    ("status", "Cannot deactivate the last active admin")
                };
                return Ok(Err(vec![UserError::new(
                    field,
                    UserErrorCode::NotAllowed,
                    message,
                )]));
            }
            if let Some(e) = &email
                && email_taken(conn, e, Some(id)).await?
            {
                return Ok(Err(vec![UserError::new(
                    "email",
                    UserErrorCode::Taken,
                    "Email already in use",
                )]));
            }
            let updated = model::update(
                conn,
                id,
                &UserChanges {
                    email: email.map(|e| e.as_str().to_string()),
                    first_name: changes.first_name.map(|s| Some(s.trim().to_string())),
                    last_name: changes.last_name.map(|s| Some(s.trim().to_string())),
                    account_type: changes.account_type.clone(),
                    status: changes.status.clone(),
                },
            )
            .await?;
            if deactivating {
                sessions::revoke_all(conn, id).await?;
            }
            Ok(Ok((user, updated)))
        })
        .await?;
    let (before, after) = match result {
        Ok(pair) => pair,
        Err(errors) => return Ok(Err(errors)),
    };
    d.audit(
        AuditEvent::new("user_updated", Outcome::Success)
            .user(after.id, &after.email)
            .details(serde_json::json!({
                "by": actor.id,
                "account_type": { "from": before.account_type, "to": after.account_type },
                "status": { "from": before.status, "to": after.status },
                "email_changed": before.email != after.email,
            })),
    )
    .await;
    Ok(Ok(after))
}

/// Sets a new password for a user (admin action): every session of that user ends.
pub async fn reset_password(
    d: &Deps<'_>,
    actor: &CurrentUser,
    id: i64,
    new_password: &str,
) -> AppResult<Result<(), UserError>> {
    if let Err(message) = password::check_strength(new_password) {
        return Ok(Err(UserError::new(
            "newPassword",
            UserErrorCode::WeakPassword,
            message,
        )));
    }
    let hash = password::hash(new_password).await?;
    let mut conn = d.conn().await?;
    let user = model::find(&mut conn, id).await?.ok_or_else(not_found)?;
    conn.transaction::<_, AppError, _>(async |conn| {
        model::set_password(conn, id, &hash).await?;
        sessions::revoke_all(conn, id).await?;
        Ok(())
    })
    .await?;
    d.audit(
        AuditEvent::new("user_password_reset_by_admin", Outcome::Success)
            .user(user.id, &user.email)
            .details(serde_json::json!({ "by": actor.id })),
    )
    .await;
    Ok(Ok(()))
}
