//! Team members (CONTRACT 5.15): admins manage staff accounts, with guards that keep at
//! least one active admin and stop admins from locking themselves out.

use diesel_async::{AsyncConnection, AsyncPgConnection};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::identity::model::{
    self, AccountType, TeamMemberCreateInput, TeamMemberUpdateInput, UserForm, UserRow, UserStatus,
};
use crate::master_data::identity::{Deps, Email, sessions};
use crate::platform::auth::password;
use crate::platform::auth::viewer::CurrentUser;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

fn not_found() -> AppError {
    AppError::not_found("User not found")
}

async fn email_taken(
    conn: &mut AsyncPgConnection,
    email: &str,
    except: Option<i64>,
) -> AppResult<bool> {
    Ok(model::find_by_email(conn, email)
        .await?
        .is_some_and(|u| Some(u.id) != except))
}

/// Checks and normalises a new (`creating`) or changed account's form: the e-mail parsed
/// and lower-cased, the names trimmed.
pub fn check(form: &mut UserForm, creating: bool) -> Result<(), Vec<UserError>> {
    let mut errors = Vec::new();
    match form.email.take() {
        Some(raw) => match Email::parse(&raw) {
            Ok(email) => form.email = Some(email.as_str().to_string()),
            Err(m) => errors.push(UserError::new("email", UserErrorCode::Invalid, m)),
        },
        None if creating => errors.push(UserError::new(
            "email",
            UserErrorCode::Invalid,
            "Field required",
        )),
        None => {}
    }
    for name in [&mut form.first_name, &mut form.last_name]
        .into_iter()
        .flatten()
    {
        *name = name.trim().to_string();
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Creates a staff account (active, e-mail not yet verified).
pub async fn create(
    d: &Deps<'_>,
    actor: &CurrentUser,
    mut input: TeamMemberCreateInput,
) -> AppResult<Result<UserRow, Vec<UserError>>> {
    let password = std::mem::take(&mut input.password);
    let mut form = UserForm::from(input);
    let mut errors = check(&mut form, true).err().unwrap_or_default();
    if password.chars().count() < 8 {
        errors.push(UserError::new(
            "password",
            UserErrorCode::Invalid,
            "String should have at least 8 characters",
        ));
    }
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    if let Err(message) = password::check_strength(&password) {
        return Ok(Err(vec![UserError::new(
            "password",
            UserErrorCode::WeakPassword,
            message,
        )]));
    }
    let email = form.email.clone().unwrap_or_default();
    if email_taken(&mut *d.conn().await?, &email, None).await? {
        return Ok(Err(vec![UserError::new(
            "email",
            UserErrorCode::Taken,
            "Email already registered",
        )]));
    }
    // No connection is held while argon2 works.
    form.password_hash = Some(password::hash(&password).await?);
    let mut conn = d.conn().await?;
    let user = match model::insert(&mut conn, &form).await {
        Ok(u) => u,
        // A concurrent insert of the same address lost the race to the unique index.
        Err(e) if e.code == crate::platform::error::ErrorCode::Conflict => {
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
            .details(
                serde_json::json!({ "by": actor.id, "account_type": user.account_type.as_ref() }),
            ),
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
    input: TeamMemberUpdateInput,
) -> AppResult<Result<UserRow, Vec<UserError>>> {
    let mut changes = UserForm::from(input);
    if let Err(errors) = check(&mut changes, false) {
        return Ok(Err(errors));
    }
    let mut conn = d.conn().await?;
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
            let was_admin = user.account_type == AccountType::Admin;
            let demoting = was_admin
                && changes
                    .account_type
                    .is_some_and(|t| t != AccountType::Admin);
            let deactivating =
                user.is_active() && changes.status.is_some_and(|s| s != UserStatus::Active);
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
                && was_admin
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
            if let Some(e) = &changes.email
                && email_taken(conn, e, Some(id)).await?
            {
                return Ok(Err(vec![UserError::new(
                    "email",
                    UserErrorCode::Taken,
                    "Email already in use",
                )]));
            }
            let updated = model::update(conn, id, &changes).await?;
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
                "account_type": {
                    "from": before.account_type.as_ref(),
                    "to": after.account_type.as_ref(),
                },
                "status": { "from": before.status.as_ref(), "to": after.status.as_ref() },
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
