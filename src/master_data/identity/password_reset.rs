//! Admin-approved password reset (spec 3.2, 5.7, 5.8; CONTRACT 3).
//!
//! Tokens are random, sent once (in an e-mail; without mail, in development or with
//! `PASSWORD_RESET_AUTO_APPROVE=true`, in the response; otherwise to the admin who approves
//! the request on the Team Members page) and stored only as SHA-256 hashes. The reset token is minted when a request is approved, so a
//! pending request has no usable link at all.

use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::identity::model::{self, UserRow};
use crate::master_data::identity::{Deps, Email, sessions};
use crate::platform::auth::password;
use crate::platform::auth::tokens::{random_token, sha256_hex};
use crate::platform::db::schema::{password_reset_requests as prr, users};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};
use crate::platform::mail::{OutgoingMail, SendMail};

/// The one answer to every reset request (anti-enumeration, spec 5.8).
pub const GENERIC_MESSAGE: &str =
    "If an account exists with this email, a password reset request has been submitted for review.";

/// How long a request waits for an admin.
pub const REQUEST_TTL: Duration = Duration::hours(24);
/// How long a reset link works after approval.
pub const LINK_TTL: Duration = Duration::hours(1);

crate::text_enum! {
    /// Where a password reset request stands.
    pub enum ResetStatus {
        /// Waiting for an admin (or for mail to be sent).
        Pending,
        /// Approved: the link works until it expires.
        Approved,
        /// Refused by an admin.
        Denied,
        /// The password was set with it.
        Completed,
        /// Superseded by a newer request, or its time ran out.
        Expired,
    }
}

/// A stored request.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = prr)]
pub struct ResetRow {
    /// Id.
    pub id: i64,
    /// The user.
    pub user_id: i64,
    /// Where it stands.
    pub status: ResetStatus,
    /// When the request (pending) or the link (approved) stops working.
    pub expires_at: DateTime<Utc>,
}

/// The answer to a reset request.
#[derive(Debug, Clone, Default)]
pub struct RequestOutcome {
    /// Always [`GENERIC_MESSAGE`].
    pub message: String,
    /// The request id (only when mail is not configured and the account exists).
    pub request_id: Option<i64>,
    /// The reset token (same condition).
    pub reset_token: Option<String>,
    /// `/reset-password/<token>` (same condition).
    pub reset_url: Option<String>,
}

#[derive(Insertable)]
#[diesel(table_name = prr)]
struct NewReset<'a> {
    user_id: i64,
    token_hash: &'a str,
    approval_token_hash: &'a str,
    status: ResetStatus,
    expires_at: DateTime<Utc>,
    approved_at: Option<DateTime<Utc>>,
}

fn token_prefix(token: &str) -> String {
    format!("{}...", &token[..token.floor_char_boundary(8)])
}

/// Handles `passwordResetRequest`. The caller has counted the rate limit and parsed the
/// address.
///
/// With mail configured, or in production without mail (where requests wait for an admin
/// on the Team Members page), the answer must not reveal whether the account exists, not
/// even through its timing: the request does the same constant work for every address (it
/// enqueues one [`ResetRequested`] job) and the worker looks the account up and records the
/// request (and e-mails the approver when it can). Only where immediate approval is allowed
/// (development, or `PASSWORD_RESET_AUTO_APPROVE=true`; spec 5.7) is the link in the
/// response for an existing account, which reveals it anyway; that path stays synchronous.
pub async fn request(d: &Deps<'_>, email: &Email) -> AppResult<RequestOutcome> {
    let generic = RequestOutcome {
        message: GENERIC_MESSAGE.into(),
        ..Default::default()
    };
    let mut conn = d.conn().await?;
    if d.mailer.is_configured() || !d.config.password_reset_auto_approve {
        crate::platform::jobs::enqueue(
            &mut conn,
            &ResetRequested {
                email: email.as_str().to_string(),
                client_ip: d.client_ip().to_string(),
            },
        )
        .await?;
        return Ok(generic);
    }
    match model::find_by_email(&mut conn, email.as_str()).await? {
        Some(user) if user.is_active() => auto_approve(d, &mut conn, &user).await,
        other => {
            audit_unusable_account(d, email.as_str(), other.is_some(), None).await;
            Ok(generic)
        }
    }
}

async fn audit_unusable_account(
    d: &Deps<'_>,
    email: &str,
    inactive: bool,
    client_ip: Option<&str>,
) {
    d.audit(
        AuditEvent::new("password_reset_requested", Outcome::Failure)
            .email(email)
            .details(serde_json::json!({
                "reason": if inactive { "inactive account" } else { "unknown account" },
                "client_ip": client_ip,
            })),
    )
    .await;
}

/// The background half of a reset request with mail configured (see [`request`]).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ResetRequested {
    /// The address as the requester typed it (already validated).
    pub email: String,
    /// Who asked, for the audit log (the worker has no request of its own).
    pub client_ip: String,
}

#[async_trait::async_trait]
impl crate::platform::jobs::Job for ResetRequested {
    const KIND: &'static str = "password_reset_requested";

    async fn run(
        self,
        ctx: &crate::platform::jobs::JobContext,
    ) -> Result<(), crate::platform::jobs::JobError> {
        let d = super::Deps::of_job(ctx);
        let mut conn = d.conn().await?;
        match model::find_by_email(&mut conn, &self.email).await? {
            Some(user) if user.is_active() => {
                record_pending(&d, &mut conn, &user, &self.client_ip).await?;
            }
            other => {
                audit_unusable_account(&d, &self.email, other.is_some(), Some(&self.client_ip))
                    .await;
            }
        }
        Ok(())
    }
}

/// Records a pending request for an admin to review: e-mailed to the approver when mail is
/// configured, otherwise listed for admins ([`pending`], approved or denied by id).
async fn record_pending(
    d: &Deps<'_>,
    conn: &mut AsyncPgConnection,
    user: &UserRow,
    client_ip: &str,
) -> AppResult<()> {
    let pending: i64 = prr::table
        .filter(prr::user_id.eq(user.id))
        .filter(prr::status.eq(ResetStatus::Pending))
        .filter(prr::expires_at.gt(diesel::dsl::now))
        .count()
        .get_result(conn)
        .await?;
    if pending > 0 {
        d.audit(
            AuditEvent::new("password_reset_requested", Outcome::Denied)
                .user(user.id, &user.email)
                .details(serde_json::json!({
                    "reason": "a request is already pending",
                    "client_ip": client_ip,
                })),
        )
        .await;
        return Ok(());
    }
    if !d.mailer.is_configured() {
        let id = insert_pending(conn, user.id, &random_token()).await?;
        audit_pending(
            d,
            user,
            id,
            "waiting for an admin (mail not configured)",
            client_ip,
        )
        .await;
        return Ok(());
    }
    let Some(admin_email) = approver_address(d, conn).await? else {
        tracing::error!(
            user_id = user.id,
            "password reset requested but no approver address (ADMIN_APPROVAL_EMAIL) and no active admin"
        );
        return Ok(());
    };
    let approval_token = random_token();
    let frontend = d.config.frontend_url.clone();
    let mail = SendMail(OutgoingMail {
        to: admin_email,
        subject: "Password reset request needs your approval".into(),
        body: format!(
            "{name} <{email}> asked to reset their Strata password.\n\n\
             Approve: {frontend}/admin/password-reset/approve/{approval_token}\n\
             Deny:    {frontend}/admin/password-reset/deny/{approval_token}\n\n\
             The request expires in 24 hours. If you did not expect it, deny it.\n",
            name = user.full_name(),
            email = user.email,
        ),
        attachments: Vec::new(),
    });
    // The row and the e-mail job commit together: no pending request that no admin will
    // ever hear of, and no e-mail about a request that does not exist. The worker retries
    // the e-mail until the server takes it.
    let user_id = user.id;
    let id = conn
        .transaction::<_, AppError, _>(async move |conn| {
            let id = insert_pending(conn, user_id, &approval_token).await?;
            crate::platform::jobs::enqueue(conn, &mail).await?;
            // "Notified" now means "the approval e-mail is queued durably".
            diesel::update(prr::table.find(id))
                .set(prr::admin_notified_at.eq(diesel::dsl::now))
                .execute(conn)
                .await?;
            Ok(id)
        })
        .await?;
    audit_pending(d, user, id, "e-mailed to admin", client_ip).await;
    Ok(())
}

/// Stores a pending request (no usable link yet; the approval token only as its hash).
async fn insert_pending(
    conn: &mut AsyncPgConnection,
    user_id: i64,
    approval_token: &str,
) -> AppResult<i64> {
    Ok(diesel::insert_into(prr::table)
        .values(&NewReset {
            user_id,
            token_hash: &sha256_hex(&random_token()),
            approval_token_hash: &sha256_hex(approval_token),
            status: ResetStatus::Pending,
            expires_at: Utc::now() + REQUEST_TTL,
            approved_at: None,
        })
        .returning(prr::id)
        .get_result(conn)
        .await?)
}

/// Audits a recorded pending request and how it reaches an approver.
async fn audit_pending(d: &Deps<'_>, user: &UserRow, id: i64, approval: &str, client_ip: &str) {
    d.audit(
        AuditEvent::new("password_reset_requested", Outcome::Success)
            .user(user.id, &user.email)
            .details(serde_json::json!({
                "request_id": id,
                "approval": approval,
                "client_ip": client_ip,
            })),
    )
    .await;
}

/// ADMIN_APPROVAL_EMAIL, or the oldest active admin when it is not set.
async fn approver_address(d: &Deps<'_>, conn: &mut AsyncPgConnection) -> AppResult<Option<String>> {
    if let Some(a) = d.mailer.admin_approval_email() {
        return Ok(Some(a.to_string()));
    }
    Ok(users::table
        .filter(users::account_type.eq(crate::platform::auth::roles::AccountType::Admin))
        .filter(users::status.eq(crate::platform::auth::roles::UserStatus::Active))
        .order(users::id.asc())
        .select(users::email)
        .first(conn)
        .await
        .optional()?)
}

async fn auto_approve(
    d: &Deps<'_>,
    conn: &mut AsyncPgConnection,
    user: &UserRow,
) -> AppResult<RequestOutcome> {
    let token = random_token();
    let user_id = user.id;
    let token_hash = sha256_hex(&token);
    let id = conn
        .transaction::<_, AppError, _>(async move |conn| {
            // Older links of this user stop working: only the newest one is valid.
            diesel::update(
                prr::table
                    .filter(prr::user_id.eq(user_id))
                    .filter(prr::status.eq_any([ResetStatus::Pending, ResetStatus::Approved])),
            )
            .set(prr::status.eq(ResetStatus::Expired))
            .execute(conn)
            .await?;
            let now = Utc::now();
            let id: i64 = diesel::insert_into(prr::table)
                .values(&NewReset {
                    user_id,
                    token_hash: &token_hash,
                    approval_token_hash: &sha256_hex(&random_token()),
                    status: ResetStatus::Approved,
                    expires_at: now + LINK_TTL,
                    approved_at: Some(now),
                })
                .returning(prr::id)
                .get_result(conn)
                .await?;
            Ok(id)
        })
        .await?;
    tracing::warn!(
        user_id = user.id,
        email = %user.email,
        token_prefix = %token_prefix(&token),
        "SECURITY WARNING: Password reset auto-approved because SMTP is not configured. This bypasses admin approval. Configure SMTP_USER and SMTP_PASSWORD to enable admin-approved password resets."
    );
    d.audit(
        AuditEvent::new("password_reset_requested", Outcome::Success)
            .user(user.id, &user.email)
            .details(serde_json::json!({ "request_id": id, "approval": "automatic (mail not configured)" })),
    )
    .await;
    Ok(RequestOutcome {
        message: GENERIC_MESSAGE.into(),
        request_id: Some(id),
        reset_url: Some(format!("/reset-password/{token}")),
        reset_token: Some(token),
    })
}

/// The answer to approve and deny.
#[derive(Debug, Clone)]
pub struct ReviewOutcome {
    /// What happened.
    pub message: String,
    /// The requesting user's e-mail.
    pub user_email: String,
    /// approved or denied.
    pub status: String,
    /// Approved by an admin without mail: the link to hand to the user.
    pub reset_url: Option<String>,
}

/// A request waiting for an admin (mail not configured), as the Team Members page lists it.
#[derive(Debug, Clone, Queryable, async_graphql::SimpleObject)]
#[graphql(name = "PendingPasswordReset")]
pub struct PendingReset {
    /// The request's id (approve or deny it by this).
    pub id: i64,
    /// The user who asked.
    pub user_id: i64,
    /// Their e-mail.
    pub email: String,
    /// Their first name.
    pub first_name: Option<String>,
    /// Their last name.
    pub last_name: Option<String>,
    /// When they asked.
    pub requested_at: DateTime<Utc>,
    /// When the request lapses unless reviewed.
    pub expires_at: DateTime<Utc>,
}

/// The pending, unexpired requests, oldest first.
pub async fn pending(conn: &mut AsyncPgConnection) -> AppResult<Vec<PendingReset>> {
    Ok(prr::table
        .inner_join(users::table)
        .filter(prr::status.eq(ResetStatus::Pending))
        .filter(prr::expires_at.gt(diesel::dsl::now))
        .order(prr::created_at.asc())
        .select((
            prr::id,
            prr::user_id,
            users::email,
            users::first_name,
            users::last_name,
            prr::created_at,
            prr::expires_at,
        ))
        .load(conn)
        .await?)
}

/// How a reviewer names a request: the token from the approver's e-mail, or (an admin
/// signed in, on the Team Members page) its id.
#[derive(Debug, Clone)]
pub enum ReviewKey {
    /// The approval token mailed to the approver.
    Token(String),
    /// The request's id.
    Id(i64),
}

async fn find_for_review(conn: &mut AsyncPgConnection, key: &ReviewKey) -> AppResult<ResetRow> {
    let query = prr::table.select(ResetRow::as_select()).for_update();
    match key {
        ReviewKey::Token(token) => {
            query
                .filter(prr::approval_token_hash.eq(sha256_hex(token)))
                .first(conn)
                .await
        }
        ReviewKey::Id(id) => query.filter(prr::id.eq(id)).first(conn).await,
    }
    .optional()?
    .ok_or_else(|| AppError::not_found("Password reset request not found"))
}

/// Approves a pending request: mints the reset link (valid 1 hour) and queues the e-mail
/// that brings it to the user, in one transaction. Without mail, an admin approving by id
/// gets the link to hand over ([`ReviewOutcome::reset_url`]).
pub async fn approve(d: &Deps<'_>, key: ReviewKey) -> AppResult<ReviewOutcome> {
    let mut conn = d.conn().await?;
    let token = random_token();
    let token_hash = sha256_hex(&token);
    let frontend = d.config.frontend_url.clone();
    let mailer = d.mailer;
    let by_admin = matches!(key, ReviewKey::Id(_));
    let link = format!("{frontend}/reset-password/{token}");
    let outcome = conn
        .transaction::<_, AppError, _>(async move |conn| {
                let row = find_for_review(conn, &key).await?;
                if row.status != ResetStatus::Pending {
                    return Ok(Err(AppError::bad_request(format!("Request has already been {}", row.status))));
                }
                if row.expires_at <= Utc::now() {
                    diesel::update(prr::table.find(row.id)).set(prr::status.eq(ResetStatus::Expired)).execute(conn).await?;
                    return Ok(Err(AppError::bad_request("Password reset request has expired")));
                }
                let user = model::find(conn, row.user_id)
                    .await?
                    .ok_or_else(|| AppError::not_found("User not found"))?;
                diesel::update(prr::table.find(row.id))
                    .set((
                        prr::status.eq(ResetStatus::Approved),
                        prr::approved_at.eq(diesel::dsl::now),
                        prr::expires_at.eq(Utc::now() + LINK_TTL),
                        prr::token_hash.eq(&token_hash),
                    ))
                    .execute(conn)
                    .await?;
                if mailer.is_configured() {
                    // Queued with the approval: both happen or neither does.
                    crate::platform::jobs::enqueue(
                        conn,
                        &SendMail(OutgoingMail {
                            to: user.email.clone(),
                            subject: "Your password reset was approved".into(),
                            body: format!(
                                "Your request to reset your Strata password was approved.\n\n\
                                 Set a new password here (the link works for 1 hour):\n{frontend}/reset-password/{token}\n"
                            ),
                            attachments: Vec::new(),
                        }),
                    )
                    .await?;
                } else if !by_admin {
                    tracing::warn!(user_id = user.id, "password reset approved but mail is not configured: the user cannot receive the link");
                }
                Ok(Ok(user))
            })
        .await?;
    let user = match outcome {
        Ok(u) => u,
        Err(e) => {
            d.audit(
                AuditEvent::new("password_reset_approved", Outcome::Failure)
                    .details(serde_json::json!({ "reason": e.message })),
            )
            .await;
            return Err(e);
        }
    };
    d.audit(
        AuditEvent::new("password_reset_approved", Outcome::Success).user(user.id, &user.email),
    )
    .await;
    let hand_over = by_admin && !d.mailer.is_configured();
    Ok(ReviewOutcome {
        message: if hand_over {
            "Password reset approved. Mail is not configured: give the user this link (it works for 1 hour).".into()
        } else {
            "Password reset approved. User has been notified via email.".into()
        },
        user_email: user.email,
        status: ResetStatus::Approved.to_string(),
        reset_url: hand_over.then_some(link),
    })
}

/// Denies a pending request and tells the user.
pub async fn deny(d: &Deps<'_>, key: ReviewKey, reason: Option<&str>) -> AppResult<ReviewOutcome> {
    let mut conn = d.conn().await?;
    let reason_owned = reason.map(str::to_string);
    let outcome = conn
        .transaction::<_, AppError, _>(async move |conn| {
            let row = find_for_review(conn, &key).await?;
            if row.status != ResetStatus::Pending {
                return Ok(Err(AppError::bad_request(format!(
                    "Request has already been {}",
                    row.status
                ))));
            }
            let user = model::find(conn, row.user_id)
                .await?
                .ok_or_else(|| AppError::not_found("User not found"))?;
            diesel::update(prr::table.find(row.id))
                .set((
                    prr::status.eq(ResetStatus::Denied),
                    prr::denied_at.eq(diesel::dsl::now),
                    prr::admin_notes.eq(reason_owned),
                ))
                .execute(conn)
                .await?;
            Ok(Ok(user))
        })
        .await?;
    let user = match outcome {
        Ok(u) => u,
        Err(e) => {
            d.audit(
                AuditEvent::new("password_reset_denied", Outcome::Failure)
                    .details(serde_json::json!({ "reason": e.message })),
            )
            .await;
            return Err(e);
        }
    };
    if d.mailer.is_configured() {
        let why = reason
            .map(|r| format!("\nReason given: {r}\n"))
            .unwrap_or_default();
        notify(
            d,
            OutgoingMail {
                to: user.email.clone(),
                subject: "Your password reset request was denied".into(),
                body: format!(
                    "An administrator denied your request to reset your Strata password.\n{why}\n\
                     If you still need access, contact your administrator.\n"
                ),
                attachments: Vec::new(),
            },
        )
        .await;
    }
    d.audit(
        AuditEvent::new("password_reset_denied", Outcome::Success)
            .user(user.id, &user.email)
            .details(serde_json::json!({ "reason": reason })),
    )
    .await;
    Ok(ReviewOutcome {
        message: "Password reset denied. User has been notified.".into(),
        user_email: user.email,
        status: ResetStatus::Denied.to_string(),
        reset_url: None,
    })
}

/// What a reset link's holder may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkStatus {
    /// No such token.
    Invalid,
    /// Waiting for an admin.
    Pending,
    /// Refused.
    Denied,
    /// Already used.
    Completed,
    /// Too old.
    Expired,
    /// Usable.
    Approved,
}

impl LinkStatus {
    /// The contract's message.
    pub fn message(self) -> &'static str {
        match self {
            LinkStatus::Invalid => "Invalid or expired reset token",
            LinkStatus::Pending => "Your request is awaiting admin approval",
            LinkStatus::Denied => "Your password reset request was denied",
            LinkStatus::Completed => "This reset link has already been used",
            LinkStatus::Expired => "This reset link has expired",
            LinkStatus::Approved => "You can now reset your password",
        }
    }
}

/// The status of a reset link, checked in the contract's order.
pub async fn status(d: &Deps<'_>, token: &str) -> AppResult<LinkStatus> {
    let mut conn = d.conn().await?;
    let row: Option<ResetRow> = prr::table
        .filter(prr::token_hash.eq(sha256_hex(token)))
        .select(ResetRow::as_select())
        .first(&mut conn)
        .await
        .optional()?;
    Ok(match row {
        None => LinkStatus::Invalid,
        Some(r) => match r.status {
            ResetStatus::Pending => LinkStatus::Pending,
            ResetStatus::Denied => LinkStatus::Denied,
            ResetStatus::Completed => LinkStatus::Completed,
            ResetStatus::Expired => LinkStatus::Expired,
            ResetStatus::Approved if r.expires_at <= Utc::now() => LinkStatus::Expired,
            ResetStatus::Approved => LinkStatus::Approved,
        },
    })
}

/// Completes a reset: new password, every session of the user ended (refresh tokens
/// revoked, and the session version bumped so outstanding access tokens die too).
pub async fn complete(
    d: &Deps<'_>,
    token: &str,
    new_password: &str,
) -> AppResult<Result<(), UserError>> {
    let mut conn = d.conn().await?;
    let row: ResetRow = prr::table
        .filter(prr::token_hash.eq(sha256_hex(token)))
        .select(ResetRow::as_select())
        .first(&mut conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::bad_request("Invalid reset token"))?;
    if row.status != ResetStatus::Approved {
        return Err(AppError::bad_request(format!(
            "Cannot reset password. Request status: {}",
            row.status
        )));
    }
    if row.expires_at <= Utc::now() {
        diesel::update(prr::table.find(row.id))
            .set(prr::status.eq(ResetStatus::Expired))
            .execute(&mut conn)
            .await?;
        return Err(AppError::bad_request(
            "Reset token has expired. Please request a new password reset.",
        ));
    }
    if let Err(message) = password::check_strength(new_password) {
        return Ok(Err(UserError::new(
            "newPassword",
            UserErrorCode::WeakPassword,
            message,
        )));
    }
    let hash = password::hash(new_password).await?;
    let user = model::find(&mut conn, row.user_id)
        .await?
        .ok_or_else(|| AppError::not_found("User not found"))?;
    let row_id = row.id;
    let user_id = user.id;
    let used = conn
        .transaction::<_, AppError, _>(async move |conn| {
            // Only one completion can win when the link is submitted twice at once.
            let n = diesel::update(
                prr::table
                    .find(row_id)
                    .filter(prr::status.eq(ResetStatus::Approved)),
            )
            .set((
                prr::status.eq(ResetStatus::Completed),
                prr::completed_at.eq(diesel::dsl::now),
            ))
            .execute(conn)
            .await?;
            if n == 0 {
                return Ok(false);
            }
            model::set_password(conn, user_id, &hash).await?;
            sessions::revoke_all(conn, user_id).await?;
            Ok(true)
        })
        .await?;
    if !used {
        return Err(AppError::bad_request(
            "Cannot reset password. Request status: completed",
        ));
    }
    d.audit(
        AuditEvent::new("password_reset_completed", Outcome::Success).user(user.id, &user.email),
    )
    .await;
    if d.mailer.is_configured() {
        notify(
            d,
            OutgoingMail {
                to: user.email.clone(),
                subject: "Your password was changed".into(),
                body: "Your Strata password was just reset and every session was signed out.\n\
                       If this was not you, contact your administrator at once.\n"
                    .into(),
                attachments: Vec::new(),
            },
        )
        .await;
    }
    Ok(Ok(()))
}

/// Queues a notice that follows a change already committed: the change stands whether or
/// not the notice can be queued, so a failure is only logged.
async fn notify(d: &Deps<'_>, mail: OutgoingMail) {
    let queued = match d.conn().await {
        Ok(mut conn) => crate::platform::jobs::enqueue(&mut conn, &SendMail(mail)).await,
        Err(e) => Err(e),
    };
    if let Err(e) = queued {
        tracing::error!(error = %e.message, "notice e-mail not queued");
    }
}
