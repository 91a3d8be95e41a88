//! First-run setup (spec 3.1, 4.1; CONTRACT 2): the first admin, created exactly once.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::identity::model::{self, AccountType, UserForm, UserRow};
use crate::master_data::identity::{Deps, Email};
use crate::platform::auth::password;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The 403 once any user exists.
pub const SETUP_COMPLETE: &str = "Setup already complete. Admin creation is disabled.";

/// The validated input of the first admin.
pub struct InitialAdmin {
    /// Their e-mail.
    pub email: Email,
    /// Their password (checked for strength).
    pub password: String,
    /// Given name (the full name up to its first space).
    pub first_name: String,
    /// Family name (the rest; empty for a one-word name).
    pub last_name: String,
    /// The company, when given.
    pub company_name: Option<String>,
}

/// Checks the input's shape (CONTRACT 2: these are the 422s that come first).
pub fn validate(
    email: &str,
    password: &str,
    full_name: &str,
    company_name: Option<&str>,
) -> Result<InitialAdmin, Vec<UserError>> {
    let mut errors = Vec::new();
    let email = Email::parse(email)
        .map_err(|m| errors.push(UserError::new("email", UserErrorCode::Invalid, m)))
        .ok();
    if password.chars().count() < 8 {
        errors.push(UserError::new(
            "password",
            UserErrorCode::Invalid,
            "String should have at least 8 characters",
        ));
    }
    let full_name = full_name.trim();
    if full_name.is_empty() {
        errors.push(UserError::new(
            "fullName",
            UserErrorCode::Invalid,
            "String should have at least 1 character",
        ));
    } else if full_name.chars().count() > 100 {
        errors.push(UserError::new(
            "fullName",
            UserErrorCode::Invalid,
            "String should have at most 100 characters",
        ));
    }
    let company = company_name.map(str::trim).filter(|c| !c.is_empty());
    if company.is_some_and(|c| c.chars().count() > 100) {
        errors.push(UserError::new(
            "companyName",
            UserErrorCode::Invalid,
            "String should have at most 100 characters",
        ));
    }
    match email {
        Some(email) if errors.is_empty() => {
            let (first, last) = full_name.split_once(' ').unwrap_or((full_name, ""));
            Ok(InitialAdmin {
                email,
                password: password.to_string(),
                first_name: first.to_string(),
                last_name: last.trim().to_string(),
                company_name: company.map(str::to_string),
            })
        }
        _ => Err(errors),
    }
}

/// Whether the wizard should run: no user exists.
pub async fn needs_setup(conn: &mut AsyncPgConnection) -> AppResult<bool> {
    Ok(model::count(conn).await? == 0)
}

/// Creates the first admin. Two simultaneous calls on an empty database create exactly one:
/// the insert runs under a table lock that makes the count-then-insert atomic.
pub async fn create_initial_admin(
    d: &Deps<'_>,
    input: InitialAdmin,
) -> AppResult<Result<UserRow, UserError>> {
    // No connection is held while argon2 works: concurrent attempts must not starve the pool.
    if !needs_setup(&mut *d.conn().await?).await? {
        d.audit(
            AuditEvent::new("setup_initial_admin", Outcome::Denied).email(input.email.as_str()),
        )
        .await;
        return Err(AppError::forbidden(SETUP_COMPLETE));
    }
    if let Err(message) = password::check_strength(&input.password) {
        return Ok(Err(UserError::new(
            "password",
            UserErrorCode::WeakPassword,
            message,
        )));
    }
    let hash = password::hash(&input.password).await?;
    let mut conn = d.conn().await?;
    let created = conn
        .transaction::<_, AppError, _>(async |conn| {
            diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE")
                .execute(conn)
                .await?;
            if model::count(conn).await? > 0 {
                return Err(AppError::forbidden(SETUP_COMPLETE));
            }
            let admin = UserForm {
                email: Some(input.email.as_str().to_string()),
                password_hash: Some(hash.clone()),
                first_name: Some(input.first_name.clone()),
                last_name: Some(input.last_name.clone()),
                company_name: Some(input.company_name.clone()),
                account_type: Some(AccountType::Admin),
                email_verified: Some(true),
                ..Default::default()
            };
            let user = model::insert(conn, &admin).await?;
            // The wizard's company name is the company's name (CONTRACT 2), saved with the
            // admin so a failed setup leaves neither behind.
            if let Some(company) = input.company_name.as_deref() {
                crate::master_data::settings::model::get_for_update(conn).await?;
                crate::master_data::settings::model::update(
                    conn,
                    &crate::master_data::settings::model::SettingsForm {
                        company_name: Some(Some(company.to_owned())),
                        ..Default::default()
                    },
                )
                .await?;
            }
            Ok(user)
        })
        .await;
    match created {
        Ok(user) => {
            d.audit(
                AuditEvent::new("setup_initial_admin", Outcome::Success).user(user.id, &user.email),
            )
            .await;
            Ok(Ok(user))
        }
        Err(e) => {
            d.audit(
                AuditEvent::new("setup_initial_admin", Outcome::Denied).email(input.email.as_str()),
            )
            .await;
            Err(e)
        }
    }
}

/// Deletes every user with their sessions and reset requests in one transaction, which
/// brings the setup wizard back (spec 3.1, last row). Returns the number of users deleted.
pub async fn reset(conn: &mut AsyncPgConnection) -> AppResult<usize> {
    use crate::platform::db::schema::{password_reset_requests, refresh_tokens, users};
    conn.transaction::<_, AppError, _>(async move |conn| {
        diesel::delete(refresh_tokens::table).execute(conn).await?;
        diesel::delete(password_reset_requests::table)
            .execute(conn)
            .await?;
        let n = diesel::delete(users::table).execute(conn).await?;
        crate::master_data::audit::record_in(
            conn,
            None,
            &AuditEvent::new("setup_reset", Outcome::Success)
                .details(serde_json::json!({ "users_deleted": n, "by": "strata reset-setup" })),
        )
        .await?;
        Ok(n)
    })
    .await
}
