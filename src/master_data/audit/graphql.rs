//! The security audit log in the schema (admins only).

use async_graphql::{Context, Enum, Json, Object, SimpleObject};

use crate::master_data::audit::model::{self, AuditFilter, AuditRow};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Timestamp;

/// How an audited action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum AuditOutcome {
    /// It happened.
    Success,
    /// It was attempted and failed.
    Failure,
    /// It was refused.
    Denied,
}

/// One security event.
#[derive(Debug, Clone, SimpleObject)]
pub struct AuditEntry {
    /// Id.
    pub id: i64,
    /// What happened (`login`, `login_failed`, `refresh_token_reuse`, ...).
    pub event_type: String,
    /// How it ended.
    pub outcome: AuditOutcome,
    /// The user concerned.
    pub user_id: Option<i64>,
    /// That user's e-mail at the time.
    pub user_email: Option<String>,
    /// Client address.
    pub ip_address: Option<String>,
    /// Client user agent.
    pub user_agent: Option<String>,
    /// The request id (matches the logs).
    pub request_id: Option<String>,
    /// Extra facts.
    pub details: Json<serde_json::Value>,
    /// When.
    pub created_at: Timestamp,
}

impl From<AuditRow> for AuditEntry {
    fn from(r: AuditRow) -> Self {
        AuditEntry {
            id: r.id,
            event_type: r.event_type,
            outcome: match r.outcome.as_str() {
                "success" => AuditOutcome::Success,
                "failure" => AuditOutcome::Failure,
                _ => AuditOutcome::Denied,
            },
            user_id: r.user_id,
            user_email: r.user_email,
            ip_address: r.ip_address,
            user_agent: r.user_agent,
            request_id: r.request_id,
            details: Json(r.details),
            created_at: Timestamp(r.created_at),
        }
    }
}

crate::connection!(
    /// A page of security events.
    AuditEntryConnection,
    AuditEntry
);

/// Audit queries.
#[derive(Default)]
pub struct AuditQuery;

#[Object]
impl AuditQuery {
    /// Security events, newest first.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn security_audit_log(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-250, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 250))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Only this kind of event.")] event_type: Option<String>,
        #[graphql(desc = "Only events about this user.")] user_id: Option<i64>,
        #[graphql(desc = "Only events at or after this instant.")] since: Option<Timestamp>,
        #[graphql(desc = "Only events before this instant.")] until: Option<Timestamp>,
        #[graphql(desc = "Sort column (default created_at, newest first); ties are broken by id.")]
        sort_by: Option<model::AuditSort>,
        #[graphql(desc = "Sort direction (default desc for created_at, else asc).")]
        sort_order: Option<crate::platform::db::paging::SortOrder>,
    ) -> AppResult<AuditEntryConnection> {
        let page = Page::new(first, offset)?;
        let filter = AuditFilter {
            event_type,
            user_id,
            since: since.map(|t| t.0),
            until: until.map(|t| t.0),
            sort_by,
            sort_order,
        };
        let (rows, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(AuditEntryConnection {
            total_count: total,
            nodes: rows.into_iter().map(AuditEntry::from).collect(),
            page_info: page.info(total),
        })
    }
}

pub use super::remediate::{SecurityRemediationMutation, SecurityRemediationQuery};
pub use super::scan::SecurityScanQuery;
