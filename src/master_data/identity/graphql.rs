//! The identity part of the schema: setup, sessions, password reset, the viewer and team
//! members.

use async_graphql::{Context, Enum, InputObject, MaybeUndefined, Object, SimpleObject};

use crate::master_data::identity::model::{self, UserFilter, UserRow};
use crate::master_data::identity::password_reset::{self, LinkStatus};
use crate::master_data::identity::{Deps, Email, sessions, setup, team};
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

pub use crate::master_data::identity::model::{
    AccountType, TeamMemberCreateInput, TeamMemberUpdateInput, UserStatus,
};

/// A staff account (admin or operator).
#[derive(Debug, Clone, SimpleObject)]
pub struct User {
    /// Id.
    pub id: i64,
    /// E-mail (lower case); the sign-in name.
    pub email: String,
    /// Given name.
    pub first_name: Option<String>,
    /// Family name.
    pub last_name: Option<String>,
    /// Given and family name together.
    pub full_name: String,
    /// Company, when given at setup.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Role.
    pub account_type: AccountType,
    /// Whether the account may sign in.
    pub status: UserStatus,
    /// Whether the e-mail address is verified.
    pub email_verified: bool,
    /// Last successful sign-in.
    pub last_login_at: Option<Timestamp>,
    /// Created.
    pub created_at: Timestamp,
    /// Last changed.
    pub updated_at: Timestamp,
}

impl From<UserRow> for User {
    fn from(u: UserRow) -> Self {
        User {
            full_name: u.full_name(),
            id: u.id,
            email: u.email,
            first_name: u.first_name,
            last_name: u.last_name,
            company_name: u.company_name,
            phone: u.phone,
            account_type: u.account_type,
            status: u.status,
            email_verified: u.email_verified,
            last_login_at: u.last_login_at.map(Timestamp),
            created_at: Timestamp(u.created_at),
            updated_at: Timestamp(u.updated_at),
        }
    }
}

/// Whether the first-run wizard should run.
#[derive(Debug, Clone, SimpleObject)]
pub struct SetupStatus {
    /// True exactly when no user exists.
    pub needs_setup: bool,
    /// What to tell the person at the screen.
    pub message: String,
}

/// The first admin.
#[derive(Debug, Clone, InputObject)]
pub struct SetupInitialAdminInput {
    /// E-mail (special-use domains such as `.local` are refused).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::platform::email::EMAIL_MAX))]
    #[graphql(directive = crate::platform::graphql::limits::email_address::apply())]
    pub email: String,
    /// Password (spec 5.5 rules).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::platform::auth::password::MAX_PASSWORD_LEN))]
    pub password: String,
    /// Full name; split at the first space into given and family name.
    pub full_name: String,
    /// Company name (optional).
    pub company_name: Option<String>,
}

/// The result of a sign-in, a refresh or the first-run setup. In cookie mode
/// (`AUTH_MODE=cookie`) the tokens travel in httpOnly cookies and are null here.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct AuthPayload {
    /// What happened.
    pub message: Option<String>,
    /// `bearer` (tokens in this payload) or `cookie` (tokens in cookies).
    pub token_type: String,
    /// The access token (header mode).
    pub access_token: Option<String>,
    /// The refresh token (header mode).
    pub refresh_token: Option<String>,
    /// Setup only, cookie mode: a short-lived (5 minute) access token for the onboarding
    /// wizard's own calls.
    pub setup_token: Option<String>,
    /// Setup only: the admin's e-mail.
    pub email: Option<String>,
    /// The signed-in user.
    pub user: Option<User>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// A plain confirmation.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MessagePayload {
    /// What happened.
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// The answer to a reset request: the same generic message whether or not the address
/// belongs to someone.
#[derive(Debug, Clone, SimpleObject)]
pub struct PasswordResetRequestPayload {
    /// The generic message.
    pub message: String,
    /// Only without mail, for an existing account: the request id.
    pub request_id: Option<i64>,
    /// Only without mail, for an existing account: the reset token.
    pub reset_token: Option<String>,
    /// Only without mail, for an existing account: `/reset-password/<token>`.
    pub reset_url: Option<String>,
    /// Rule violations (an invalid address).
    pub user_errors: Vec<UserError>,
}

/// The answer to approve or deny.
#[derive(Debug, Clone, SimpleObject)]
pub struct PasswordResetReviewPayload {
    /// What happened.
    pub message: String,
    /// The requesting user's e-mail.
    pub user_email: String,
    /// `approved` or `denied`.
    pub status: String,
    /// Approved by an admin on the Team Members page while mail is not configured: the link
    /// (valid 1 hour) to hand to the user.
    pub reset_url: Option<String>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

impl PasswordResetReviewPayload {
    fn refused(error: UserError) -> Self {
        PasswordResetReviewPayload {
            message: String::new(),
            user_email: String::new(),
            status: String::new(),
            reset_url: None,
            user_errors: vec![error],
        }
    }
}

impl From<password_reset::ReviewOutcome> for PasswordResetReviewPayload {
    fn from(out: password_reset::ReviewOutcome) -> Self {
        PasswordResetReviewPayload {
            message: out.message,
            user_email: out.user_email,
            status: out.status,
            reset_url: out.reset_url,
            user_errors: vec![],
        }
    }
}

/// A denial's reason, trimmed (blank is none), or the error for one over 500 characters.
fn denial_reason(reason: Option<String>) -> Result<Option<String>, UserError> {
    let reason = reason
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    if reason.as_ref().is_some_and(|r| r.chars().count() > 500) {
        return Err(UserError::new(
            "reason",
            UserErrorCode::Invalid,
            "String should have at most 500 characters",
        ));
    }
    Ok(reason)
}

/// The state of a reset link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum ResetLinkState {
    /// No such link.
    Invalid,
    /// Waiting for an admin.
    Pending,
    /// Refused by an admin.
    Denied,
    /// Already used.
    Completed,
    /// Too old.
    Expired,
    /// Usable now.
    Approved,
}

/// What the holder of a reset link may do.
#[derive(Debug, Clone, SimpleObject)]
pub struct PasswordResetStatus {
    /// The link's state.
    pub status: ResetLinkState,
    /// What to tell the person.
    pub message: String,
    /// True when a new password may be set now.
    pub can_reset: bool,
}

/// The result of a team-member change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct TeamMemberPayload {
    /// The account after the change.
    pub user: Option<User>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// Head counts of the team.
#[derive(Debug, Clone, SimpleObject)]
pub struct TeamStats {
    /// Active admins.
    pub active_admins: i64,
    /// Active operators.
    pub active_operators: i64,
    /// Inactive or suspended accounts.
    pub inactive_users: i64,
    /// Active accounts.
    pub total_active: i64,
}

crate::connection!(
    /// A page of team members.
    UserConnection,
    User
);

/// Identity queries.
#[derive(Default)]
pub struct IdentityQuery;

#[Object]
impl IdentityQuery {
    /// Whether the first-run wizard should run (true exactly when no user exists).
    #[graphql(guard = "Access::Public")]
    async fn setup_status(&self, ctx: &Context<'_>) -> AppResult<SetupStatus> {
        let d = Deps::from_ctx(ctx)?;
        let needs_setup = setup::needs_setup(&mut *d.conn().await?).await?;
        Ok(SetupStatus {
            needs_setup,
            message: if needs_setup {
                "Welcome to Strata! Create your admin account to get started.".into()
            } else {
                "Setup complete. Please log in.".into()
            },
        })
    }

    /// The signed-in user.
    #[graphql(guard = "Access::User")]
    async fn me(&self, ctx: &Context<'_>) -> AppResult<User> {
        let viewer = current_user(ctx).await?;
        let d = Deps::from_ctx(ctx)?;
        let row = model::find(&mut *d.conn().await?, viewer.id)
            .await?
            .ok_or_else(|| AppError::unauthenticated("Could not validate credentials"))?;
        Ok(row.into())
    }

    /// Password reset requests waiting for an admin (mail not configured, production),
    /// oldest first (admins; the Team Members page approves or denies them).
    #[graphql(guard = "Access::Admin")]
    async fn pending_password_resets(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<password_reset::PendingReset>> {
        let d = Deps::from_ctx(ctx)?;
        password_reset::pending(&mut *d.conn().await?).await
    }

    /// What the holder of a reset link may do.
    #[graphql(guard = "Access::Public")]
    async fn password_reset_status(
        &self,
        ctx: &Context<'_>,
        token: String,
    ) -> AppResult<PasswordResetStatus> {
        let d = Deps::from_ctx(ctx)?;
        let s = password_reset::status(&d, &token).await?;
        Ok(PasswordResetStatus {
            status: match s {
                LinkStatus::Invalid => ResetLinkState::Invalid,
                LinkStatus::Pending => ResetLinkState::Pending,
                LinkStatus::Denied => ResetLinkState::Denied,
                LinkStatus::Completed => ResetLinkState::Completed,
                LinkStatus::Expired => ResetLinkState::Expired,
                LinkStatus::Approved => ResetLinkState::Approved,
            },
            message: s.message().into(),
            can_reset: s == LinkStatus::Approved,
        })
    }

    /// Staff accounts, newest first.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn team_members(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-250, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 250))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Only this role.")] account_type: Option<AccountType>,
        #[graphql(desc = "Include inactive and suspended accounts.", default = false)]
        include_inactive: bool,
        #[graphql(desc = "Match e-mail or name.")] search: Option<String>,
        #[graphql(desc = "Sort column (default created_at, newest first); ties are broken by id.")]
        sort_by: Option<model::UserSort>,
        #[graphql(desc = "Sort direction (default desc for created_at, else asc).")]
        sort_order: Option<crate::platform::db::paging::SortOrder>,
    ) -> AppResult<UserConnection> {
        let page = Page::new(first, offset)?;
        let d = Deps::from_ctx(ctx)?;
        let filter = UserFilter {
            account_type,
            include_inactive,
            search,
            sort_by,
            sort_order,
        };
        let (rows, total) =
            model::list(&mut *d.conn().await?, &filter, page.limit, page.offset).await?;
        Ok(UserConnection {
            total_count: total,
            nodes: rows.into_iter().map(User::from).collect(),
            page_info: page.info(total),
        })
    }

    /// One staff account.
    #[graphql(guard = "Access::Admin")]
    async fn team_member(&self, ctx: &Context<'_>, id: i64) -> AppResult<User> {
        let d = Deps::from_ctx(ctx)?;
        model::find(&mut *d.conn().await?, id)
            .await?
            .map(User::from)
            .ok_or_else(|| AppError::not_found("User not found"))
    }

    /// Head counts of the team.
    #[graphql(guard = "Access::Admin")]
    async fn team_stats(&self, ctx: &Context<'_>) -> AppResult<TeamStats> {
        let d = Deps::from_ctx(ctx)?;
        let (admins, operators, inactive) = model::stats(&mut *d.conn().await?).await?;
        Ok(TeamStats {
            active_admins: admins,
            active_operators: operators,
            inactive_users: inactive,
            total_active: admins + operators,
        })
    }
}

/// Identity mutations.
#[derive(Default)]
pub struct IdentityMutation;

fn invalid_email(errors: Vec<UserError>) -> AuthPayload {
    AuthPayload {
        user_errors: errors,
        ..Default::default()
    }
}

/// The answer of a sign-in or a refresh: the new pair as cookies (cookie mode) or in the
/// body (bearer mode), with the user.
fn signed_in(
    ctx: &Context<'_>,
    d: &Deps<'_>,
    message: &str,
    user: UserRow,
    pair: sessions::TokenPair,
) -> AuthPayload {
    let mut payload = AuthPayload {
        message: Some(message.into()),
        ..Default::default()
    };
    if sessions::cookie_mode(d.config) {
        sessions::set_cookies(ctx, d.config, &pair.access_token, Some(&pair.refresh_token));
        payload.token_type = "cookie".into();
    } else {
        payload.token_type = "bearer".into();
        payload.access_token = Some(pair.access_token);
        payload.refresh_token = Some(pair.refresh_token);
    }
    payload.user = Some(user.into());
    payload
}

#[Object]
impl IdentityMutation {
    /// Creates the first admin and signs them in. Refused (403) once any user exists;
    /// 3 calls a minute per client address.
    #[graphql(guard = "Access::Public")]
    async fn setup_initial_admin(
        &self,
        ctx: &Context<'_>,
        input: SetupInitialAdminInput,
    ) -> AppResult<AuthPayload> {
        let d = Deps::from_ctx(ctx)?;
        d.limit("initial_admin", "setup_initial_admin").await?;
        let valid = match setup::validate(
            &input.email,
            &input.password,
            &input.full_name,
            input.company_name.as_deref(),
        ) {
            Ok(v) => v,
            Err(errors) => return Ok(invalid_email(errors)),
        };
        let user = match setup::create_initial_admin(&d, valid).await? {
            Ok(u) => u,
            Err(e) => return Ok(invalid_email(vec![e])),
        };
        let (pair, session_id) =
            sessions::start(&mut *d.conn().await?, d.keys, d.config, &user, d.meta).await?;
        let mut payload = AuthPayload {
            message: Some("Admin account created successfully! Welcome to Strata.".into()),
            email: Some(user.email.clone()),
            ..Default::default()
        };
        if sessions::cookie_mode(d.config) {
            sessions::set_cookies(ctx, d.config, &pair.access_token, Some(&pair.refresh_token));
            payload.token_type = "cookie".into();
            payload.setup_token = Some(d.keys.issue(
                user.id,
                user.session_version,
                session_id,
                crate::platform::auth::tokens::TokenType::Access,
                chrono::Duration::minutes(5),
            )?);
        } else {
            payload.token_type = "bearer".into();
            payload.access_token = Some(pair.access_token);
            payload.refresh_token = Some(pair.refresh_token);
        }
        payload.user = Some(user.into());
        Ok(payload)
    }

    /// Signs in with e-mail and password. Failures get one generic message and are
    /// throttled per address and per account.
    #[graphql(guard = "Access::Public")]
    async fn login(
        &self,
        ctx: &Context<'_>,
        email: String,
        password: String,
    ) -> AppResult<AuthPayload> {
        let d = Deps::from_ctx(ctx)?;
        let user = sessions::authenticate(&d, &email, &password).await?;
        sessions::remember_device(ctx, d.config, d.keys, &user.email);
        let (pair, _) =
            sessions::start(&mut *d.conn().await?, d.keys, d.config, &user, d.meta).await?;
        Ok(signed_in(ctx, &d, "Login successful", user, pair))
    }

    /// Exchanges a refresh token (the `refresh_token` cookie first, else the argument) for a
    /// new pair; the old one dies. Presented again within 10 seconds (two tabs refreshing at
    /// once) it returns the same new refresh token; presented later, it revokes the whole
    /// session family.
    #[graphql(guard = "Access::Public")]
    async fn refresh_session(
        &self,
        ctx: &Context<'_>,
        refresh_token: Option<String>,
    ) -> AppResult<AuthPayload> {
        let d = Deps::from_ctx(ctx)?;
        d.limit("refresh", "refresh_session").await?;
        let raw = d
            .meta
            .and_then(|m| m.cookies.get("refresh_token").cloned())
            .filter(|t| !t.is_empty())
            .or(refresh_token)
            .ok_or_else(|| AppError::unauthenticated(sessions::INVALID_REFRESH))?;
        let (user, pair) =
            sessions::rotate(&mut *d.conn().await?, d.keys, d.config, &raw, d.meta).await?;
        Ok(signed_in(ctx, &d, "Token refreshed", user, pair))
    }

    /// Ends the session: revokes its whole token family, found from the refresh token
    /// (cookie or argument) and from the access token (bearer header or cookie), so the
    /// session's access tokens stop working at once; clears the cookies. Always succeeds.
    #[graphql(guard = "Access::Public")]
    async fn logout(
        &self,
        ctx: &Context<'_>,
        refresh_token: Option<String>,
    ) -> AppResult<MessagePayload> {
        let d = Deps::from_ctx(ctx)?;
        let refresh = d
            .meta
            .and_then(|m| m.cookies.get("refresh_token").cloned())
            .filter(|t| !t.is_empty())
            .or(refresh_token);
        let access = d.meta.and_then(|m| m.access_token());
        if refresh.is_some() || access.is_some() {
            let mut conn = d.conn().await?;
            let ended =
                sessions::end_sessions(&mut conn, d.keys, refresh.as_deref(), access).await?;
            for user_id in ended {
                let email = model::find(&mut conn, user_id)
                    .await?
                    .map(|u| u.email)
                    .unwrap_or_default();
                d.audit(
                    crate::master_data::audit::AuditEvent::new(
                        "logout",
                        crate::master_data::audit::Outcome::Success,
                    )
                    .user(user_id, email),
                )
                .await;
            }
        }
        sessions::clear_cookies(ctx, d.config);
        Ok(MessagePayload {
            message: Some("Logged out".into()),
            user_errors: vec![],
        })
    }

    /// Asks for a password reset. The answer is the same whether or not the address belongs
    /// to someone; without mail configured an existing account gets its link at once.
    #[graphql(guard = "Access::Public")]
    async fn password_reset_request(
        &self,
        ctx: &Context<'_>,
        email: String,
    ) -> AppResult<PasswordResetRequestPayload> {
        let d = Deps::from_ctx(ctx)?;
        d.limit("reset_request", "password_reset_request").await?;
        let email = match Email::parse(&email) {
            Ok(e) => e,
            Err(m) => {
                return Ok(PasswordResetRequestPayload {
                    message: String::new(),
                    request_id: None,
                    reset_token: None,
                    reset_url: None,
                    user_errors: vec![UserError::new("email", UserErrorCode::Invalid, m)],
                });
            }
        };
        let out = password_reset::request(&d, &email).await?;
        Ok(PasswordResetRequestPayload {
            message: out.message,
            request_id: out.request_id,
            reset_token: out.reset_token,
            reset_url: out.reset_url,
            user_errors: vec![],
        })
    }

    /// Approves a pending reset (the token from the admin's e-mail); the user is e-mailed a
    /// link valid for 1 hour.
    #[graphql(guard = "Access::Public")]
    async fn password_reset_approve(
        &self,
        ctx: &Context<'_>,
        approval_token: String,
    ) -> AppResult<PasswordResetReviewPayload> {
        let d = Deps::from_ctx(ctx)?;
        d.limit("reset_review", "password_reset_approve").await?;
        let key = password_reset::ReviewKey::Token(approval_token);
        Ok(password_reset::approve(&d, key).await?.into())
    }

    /// Approves a pending reset by its id (admins, from the Team Members page). Without mail
    /// the answer carries the link (valid 1 hour) for the admin to hand to the user.
    #[graphql(guard = "Access::Admin")]
    async fn password_reset_request_approve(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The request's id.")] id: i64,
    ) -> AppResult<PasswordResetReviewPayload> {
        let d = Deps::from_ctx(ctx)?;
        let key = password_reset::ReviewKey::Id(id);
        Ok(password_reset::approve(&d, key).await?.into())
    }

    /// Denies a pending reset by its id (admins, from the Team Members page).
    #[graphql(guard = "Access::Admin")]
    async fn password_reset_request_deny(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The request's id.")] id: i64,
        #[graphql(desc = "Why (at most 500 characters); shown to the user.")] reason: Option<
            String,
        >,
    ) -> AppResult<PasswordResetReviewPayload> {
        let d = Deps::from_ctx(ctx)?;
        let reason = match denial_reason(reason) {
            Ok(r) => r,
            Err(e) => return Ok(PasswordResetReviewPayload::refused(e)),
        };
        let key = password_reset::ReviewKey::Id(id);
        Ok(password_reset::deny(&d, key, reason.as_deref())
            .await?
            .into())
    }

    /// Denies a pending reset; the user is told.
    #[graphql(guard = "Access::Public")]
    async fn password_reset_deny(
        &self,
        ctx: &Context<'_>,
        approval_token: String,
        #[graphql(desc = "Why (at most 500 characters); shown to the user.")] reason: Option<
            String,
        >,
    ) -> AppResult<PasswordResetReviewPayload> {
        let d = Deps::from_ctx(ctx)?;
        d.limit("reset_review", "password_reset_deny").await?;
        let reason = match denial_reason(reason) {
            Ok(r) => r,
            Err(e) => return Ok(PasswordResetReviewPayload::refused(e)),
        };
        let key = password_reset::ReviewKey::Token(approval_token);
        Ok(password_reset::deny(&d, key, reason.as_deref())
            .await?
            .into())
    }

    /// Sets a new password with an approved reset link; every session of the user ends.
    #[graphql(guard = "Access::Public")]
    async fn password_reset_complete(
        &self,
        ctx: &Context<'_>,
        token: String,
        new_password: String,
    ) -> AppResult<MessagePayload> {
        let d = Deps::from_ctx(ctx)?;
        Ok(match password_reset::complete(&d, &token, &new_password).await? {
            Ok(()) => MessagePayload {
                message: Some("Password has been reset successfully. You can now login with your new password.".into()),
                user_errors: vec![],
            },
            Err(e) => MessagePayload {
                message: None,
                user_errors: vec![e],
            },
        })
    }

    /// Creates a staff account.
    #[graphql(guard = "Access::Admin")]
    async fn team_member_create(
        &self,
        ctx: &Context<'_>,
        input: TeamMemberCreateInput,
    ) -> AppResult<TeamMemberPayload> {
        let actor = current_user(ctx).await?;
        let d = Deps::from_ctx(ctx)?;
        let result = team::create(&d, &actor, input).await?;
        Ok(member_payload(result))
    }

    /// Changes a staff account (guards: no self-demotion or self-deactivation, never the last
    /// active admin, e-mail unique).
    #[graphql(guard = "Access::Admin")]
    async fn team_member_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: TeamMemberUpdateInput,
    ) -> AppResult<TeamMemberPayload> {
        let actor = current_user(ctx).await?;
        let d = Deps::from_ctx(ctx)?;
        let result = team::update(&d, &actor, id, input).await?;
        Ok(member_payload(result))
    }

    /// Deactivates a staff account (it can be reactivated); its sessions end.
    #[graphql(guard = "Access::Admin")]
    async fn team_member_deactivate(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<TeamMemberPayload> {
        let actor = current_user(ctx).await?;
        let d = Deps::from_ctx(ctx)?;
        let changes = TeamMemberUpdateInput {
            status: MaybeUndefined::Value(UserStatus::Inactive),
            ..Default::default()
        };
        Ok(member_payload(team::update(&d, &actor, id, changes).await?))
    }

    /// Reactivates a staff account.
    #[graphql(guard = "Access::Admin")]
    async fn team_member_reactivate(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<TeamMemberPayload> {
        let actor = current_user(ctx).await?;
        let d = Deps::from_ctx(ctx)?;
        let changes = TeamMemberUpdateInput {
            status: MaybeUndefined::Value(UserStatus::Active),
            ..Default::default()
        };
        Ok(member_payload(team::update(&d, &actor, id, changes).await?))
    }

    /// Sets a new password for a staff account; every session of that account ends.
    #[graphql(guard = "Access::Admin")]
    async fn team_member_reset_password(
        &self,
        ctx: &Context<'_>,
        id: i64,
        new_password: String,
    ) -> AppResult<MessagePayload> {
        let actor = current_user(ctx).await?;
        let d = Deps::from_ctx(ctx)?;
        Ok(
            match team::reset_password(&d, &actor, id, &new_password).await? {
                Ok(()) => MessagePayload {
                    message: Some("Password reset successfully".into()),
                    user_errors: vec![],
                },
                Err(e) => MessagePayload {
                    message: None,
                    user_errors: vec![e],
                },
            },
        )
    }
}

fn member_payload(result: Result<UserRow, Vec<UserError>>) -> TeamMemberPayload {
    match result {
        Ok(u) => TeamMemberPayload {
            user: Some(u.into()),
            user_errors: vec![],
        },
        Err(errors) => TeamMemberPayload {
            user: None,
            user_errors: errors,
        },
    }
}
