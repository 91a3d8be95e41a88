//! User rows and the queries on them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::auth::password::MAX_PASSWORD_LEN;
pub use crate::platform::auth::roles::{AccountType, UserStatus};
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::users;
use crate::platform::email::EMAIL_MAX;
use crate::platform::error::AppResult;
use crate::platform::graphql::limits::{email_address, length};

use crate::platform::db::text::lower;

/// A stored user (staff account).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    /// Id.
    pub id: i64,
    /// Lower-cased e-mail.
    pub email: String,
    /// argon2id hash.
    pub password_hash: String,
    /// Given name.
    pub first_name: Option<String>,
    /// Family name.
    pub last_name: Option<String>,
    /// Company.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// The role.
    pub account_type: AccountType,
    /// Whether the account may sign in.
    pub status: UserStatus,
    /// Whether the e-mail is verified.
    pub email_verified: bool,
    /// Bumped to end every session at once.
    pub session_version: i32,
    /// Last successful login.
    pub last_login_at: Option<DateTime<Utc>>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

impl UserRow {
    /// "First Last", or whichever exists.
    pub fn full_name(&self) -> String {
        [self.first_name.as_deref(), self.last_name.as_deref()]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// True when the account may sign in.
    pub fn is_active(&self) -> bool {
        self.status == UserStatus::Active
    }
}

crate::input_forms! {
    table = users;
    /// A new staff account.
    create TeamMemberCreateInput;
    /// Changes to a staff account; omitted fields, and fields sent as `null`, keep their
    /// value (as the contract's team API does).
    update TeamMemberUpdateInput;
    /// A staff account's writable columns, checked by `team::check`. The service sets the
    /// password hash, and at setup the company and the verified flag.
    form UserForm;
    {
        /// E-mail, the sign-in name (unique ignoring case, stored in lower case;
        /// special-use domains such as `.local` are refused).
        [directive = length::apply(EMAIL_MAX), directive = email_address::apply()]
        email: required String,
        // The names are `optional`, not `clearable`: the contract ignores a `null` name
        // rather than clearing it.
        /// Given name.
        first_name: optional String,
        /// Family name.
        last_name: optional String,
        /// Role.
        account_type: required AccountType,
        /// Whether the account may sign in (a new account is active).
        @create[skip]
        status: optional UserStatus,
        /// The argon2id hash of the password.
        @create[skip] @update[skip]
        password_hash: optional String,
        /// Company (the first admin's, given at setup).
        @create[skip] @update[skip]
        company_name: clearable String,
        /// Whether the e-mail is verified (the first admin's is).
        @create[skip] @update[skip]
        email_verified: optional bool,
    }
    inputs {
        /// Initial password (spec 5.5 rules).
        #[graphql(directive = length::apply(MAX_PASSWORD_LEN))]
        @update[skip]
        password: String,
    }
}

/// How many users exist.
pub async fn count(conn: &mut AsyncPgConnection) -> AppResult<i64> {
    Ok(users::table.count().get_result(conn).await?)
}

/// The user with this (lower-cased) e-mail.
pub async fn find_by_email(
    conn: &mut AsyncPgConnection,
    email: &str,
) -> AppResult<Option<UserRow>> {
    Ok(users::table
        .filter(lower(users::email).eq(email.to_lowercase()))
        .select(UserRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The user with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<UserRow>> {
    Ok(users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Inserts a user.
pub async fn insert(conn: &mut AsyncPgConnection, user: &UserForm) -> AppResult<UserRow> {
    Ok(diesel::insert_into(users::table)
        .values(user)
        .returning(UserRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Applies changes to a user.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    changes: &UserForm,
) -> AppResult<UserRow> {
    let result = diesel::update(users::table.find(id))
        .set(changes)
        .returning(UserRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id)
            .await?
            .ok_or_else(|| crate::platform::error::AppError::not_found("User not found")),
        other => Ok(other?),
    }
}

/// Records a successful login.
pub async fn touch_last_login(conn: &mut AsyncPgConnection, id: i64) -> AppResult<()> {
    diesel::update(users::table.find(id))
        .set(users::last_login_at.eq(diesel::dsl::now))
        .execute(conn)
        .await?;
    Ok(())
}

/// Replaces the password hash and ends every session (bumps the session version).
pub async fn set_password(conn: &mut AsyncPgConnection, id: i64, hash: &str) -> AppResult<()> {
    diesel::update(users::table.find(id))
        .set((
            users::password_hash.eq(hash),
            users::session_version.eq(users::session_version + 1),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

/// Active admins other than `except`.
pub async fn count_other_active_admins(
    conn: &mut AsyncPgConnection,
    except: i64,
) -> AppResult<i64> {
    Ok(users::table
        .filter(users::account_type.eq(AccountType::Admin))
        .filter(users::status.eq(UserStatus::Active))
        .filter(users::id.ne(except))
        .count()
        .get_result(conn)
        .await?)
}

/// Filters of the team list.
#[derive(Debug, Clone, Default)]
pub struct UserFilter {
    /// Only this role.
    pub account_type: Option<AccountType>,
    /// Include inactive and suspended accounts.
    pub include_inactive: bool,
    /// Match e-mail or name.
    pub search: Option<String>,
    /// Sort column (default created_at, newest first).
    pub sort_by: Option<UserSort>,
    /// Sort direction.
    pub sort_order: Option<SortOrder>,
}

crate::text_enum! {
    /// The columns staff accounts can be sorted by (default `created_at`, newest first).
    pub enum UserSort {
        /// E-mail.
        Email,
        /// First name.
        FirstName,
        /// Last name.
        LastName,
        /// Role.
        AccountType,
        /// Status.
        Status,
        /// Last sign-in.
        LastLoginAt,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// One page of users (newest first) and the total.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &UserFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<UserRow>, i64)> {
    let build = || {
        let mut q = users::table
            .select((UserRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(t) = filter.account_type {
            q = q.filter(users::account_type.eq(t));
        }
        if !filter.include_inactive {
            q = q.filter(users::status.eq(UserStatus::Active));
        }
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let pattern = crate::platform::db::like_pattern(s);
            q = q.filter(
                users::email
                    .ilike(pattern.clone())
                    .or(users::first_name.ilike(pattern.clone()))
                    .or(users::last_name.ilike(pattern)),
            );
        }
        let (sort, default_order) = match filter.sort_by {
            Some(sort) => (sort, SortOrder::Asc),
            None => (UserSort::CreatedAt, SortOrder::Desc),
        };
        let order = filter.sort_order.unwrap_or(default_order);
        let id = users::id;
        match sort {
            UserSort::Email => paging::sorted(q, users::email, id, order),
            UserSort::FirstName => paging::sorted(q, users::first_name, id, order),
            UserSort::LastName => paging::sorted(q, users::last_name, id, order),
            UserSort::AccountType => paging::sorted(q, users::account_type, id, order),
            UserSort::Status => paging::sorted(q, users::status, id, order),
            UserSort::LastLoginAt => paging::sorted(q, users::last_login_at, id, order),
            UserSort::CreatedAt => paging::sorted(q, users::created_at, id, order),
            UserSort::UpdatedAt => paging::sorted(q, users::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// Counts for the team summary: (active admins, active operators, inactive or suspended).
pub async fn stats(conn: &mut AsyncPgConnection) -> AppResult<(i64, i64, i64)> {
    let rows: Vec<(AccountType, UserStatus, i64)> = users::table
        .group_by((users::account_type, users::status))
        .select((
            users::account_type,
            users::status,
            diesel::dsl::count_star(),
        ))
        .load(conn)
        .await?;
    let mut admins = 0;
    let mut operators = 0;
    let mut inactive = 0;
    for (kind, status, n) in rows {
        match (kind, status) {
            (AccountType::Admin, UserStatus::Active) => admins += n,
            (AccountType::Operator, UserStatus::Active) => operators += n,
            _ => inactive += n,
        }
    }
    Ok((admins, operators, inactive))
}
