//! Audit rows and the queries on them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use crate::platform::auth::RequestMeta;
use crate::platform::db::DbPool;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::security_audit_log;
use crate::platform::error::AppResult;

/// How an audited action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It happened.
    Success,
    /// It was attempted and failed (bad password, bad token).
    Failure,
    /// It was refused (rate limit, not allowed).
    Denied,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failure => "failure",
            Outcome::Denied => "denied",
        }
    }
}

/// One event to record.
#[derive(Debug, Clone)]
pub struct AuditEvent {
    /// What happened (`login`, `login_failed`, `refresh_token_reuse`, ...).
    pub event_type: &'static str,
    /// How it ended.
    pub outcome: Outcome,
    /// The user it concerns, when known.
    pub user_id: Option<i64>,
    /// That user's e-mail (kept even if the account goes away).
    pub user_email: Option<String>,
    /// Anything else worth keeping (never secrets).
    pub details: Value,
}

impl AuditEvent {
    /// An event with no user and no details.
    pub fn new(event_type: &'static str, outcome: Outcome) -> AuditEvent {
        AuditEvent {
            event_type,
            outcome,
            user_id: None,
            user_email: None,
            details: Value::Object(Default::default()),
        }
    }

    /// Names the user.
    pub fn user(mut self, id: i64, email: impl Into<String>) -> AuditEvent {
        self.user_id = Some(id);
        self.user_email = Some(email.into());
        self
    }

    /// Names only the e-mail (an unknown account, a failed login).
    pub fn email(mut self, email: impl Into<String>) -> AuditEvent {
        self.user_email = Some(email.into());
        self
    }

    /// Adds details.
    pub fn details(mut self, details: Value) -> AuditEvent {
        self.details = details;
        self
    }
}

#[derive(Insertable)]
#[diesel(table_name = security_audit_log)]
struct NewAuditRow<'a> {
    event_type: &'a str,
    outcome: &'a str,
    user_id: Option<i64>,
    user_email: Option<&'a str>,
    ip_address: Option<String>,
    user_agent: Option<&'a str>,
    request_id: Option<&'a str>,
    details: &'a Value,
}

/// Records an event on an existing connection (inside the caller's transaction, so the
/// event and the change it describes commit together).
pub async fn record_in(
    conn: &mut AsyncPgConnection,
    meta: Option<&RequestMeta>,
    event: &AuditEvent,
) -> AppResult<()> {
    let row = NewAuditRow {
        event_type: event.event_type,
        outcome: event.outcome.as_str(),
        user_id: event.user_id,
        user_email: event.user_email.as_deref(),
        ip_address: meta.map(|m| m.client_ip.to_string()),
        user_agent: meta.and_then(|m| m.user_agent.as_deref()).map(|ua| {
            if ua.len() > 512 {
                &ua[..ua.floor_char_boundary(512)]
            } else {
                ua
            }
        }),
        request_id: meta.map(|m| m.request_id.as_str()),
        details: &event.details,
    };
    diesel::insert_into(security_audit_log::table)
        .values(&row)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records an event on its own connection. Failures to audit are logged, never fatal to
/// the request (the request's own outcome matters more to the user).
pub async fn record(pool: &DbPool, meta: Option<&RequestMeta>, event: AuditEvent) {
    let result = async {
        let mut conn = pool.get().await?;
        record_in(&mut conn, meta, &event).await
    }
    .await;
    if let Err(e) = result {
        tracing::error!(error = %e, event = event.event_type, "could not write the security audit log");
    }
}

/// A stored event.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = security_audit_log)]
pub struct AuditRow {
    /// Row id.
    pub id: i64,
    /// Event kind.
    pub event_type: String,
    /// success, failure or denied.
    pub outcome: String,
    /// The user concerned.
    pub user_id: Option<i64>,
    /// That user's e-mail.
    pub user_email: Option<String>,
    /// Client address.
    pub ip_address: Option<String>,
    /// Client user agent.
    pub user_agent: Option<String>,
    /// Request id.
    pub request_id: Option<String>,
    /// Extra facts.
    pub details: Value,
    /// When.
    pub created_at: DateTime<Utc>,
}

/// Filters of the audit-log list.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// Only this kind of event.
    pub event_type: Option<String>,
    /// Only events about this user.
    pub user_id: Option<i64>,
    /// Only events at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only events before this time.
    pub until: Option<DateTime<Utc>>,
    /// Sort column (default created_at, newest first).
    pub sort_by: Option<AuditSort>,
    /// Sort direction.
    pub sort_order: Option<SortOrder>,
}

crate::text_enum! {
    /// The columns audit events can be sorted by (default `created_at`, newest first).
    pub enum AuditSort {
        /// When it happened.
        CreatedAt,
        /// Kind of event.
        EventType,
        /// Outcome.
        Outcome,
        /// The user's e-mail.
        UserEmail,
        /// Client address.
        IpAddress,
    }
}

/// One page of events, newest first, and the total matching the filter.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &AuditFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<AuditRow>, i64)> {
    let build = || {
        let mut q = security_audit_log::table
            .select((AuditRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(t) = &filter.event_type {
            q = q.filter(security_audit_log::event_type.eq(t.clone()));
        }
        if let Some(u) = filter.user_id {
            q = q.filter(security_audit_log::user_id.eq(u));
        }
        if let Some(s) = filter.since {
            q = q.filter(security_audit_log::created_at.ge(s));
        }
        if let Some(u) = filter.until {
            q = q.filter(security_audit_log::created_at.lt(u));
        }
        let (sort, default_order) = match filter.sort_by {
            Some(sort) => (sort, SortOrder::Asc),
            None => (AuditSort::CreatedAt, SortOrder::Desc),
        };
        let order = filter.sort_order.unwrap_or(default_order);
        let id = security_audit_log::id;
        match sort {
            AuditSort::CreatedAt => paging::sorted(q, security_audit_log::created_at, id, order),
            AuditSort::EventType => paging::sorted(q, security_audit_log::event_type, id, order),
            AuditSort::Outcome => paging::sorted(q, security_audit_log::outcome, id, order),
            AuditSort::UserEmail => paging::sorted(q, security_audit_log::user_email, id, order),
            AuditSort::IpAddress => paging::sorted(q, security_audit_log::ip_address, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// Records a request that a route's rate limit refused (the REST engine calls it through
/// `AppState::on_rate_limited`).
pub fn rate_limited<'a>(
    pool: &'a DbPool,
    meta: &'a RequestMeta,
    limit: &'static str,
    path: &'a str,
) -> futures_util::future::BoxFuture<'a, ()> {
    Box::pin(record(
        pool,
        Some(meta),
        AuditEvent::new("rate_limited", Outcome::Denied)
            .details(serde_json::json!({ "limit": limit, "path": path })),
    ))
}
