//! Scrap reasons in the schema. Reading is for any signed-in user (an operator scrapping a
//! print picks a reason); adding, changing and deactivating them is for admins (spec 4.5
//! lists scrap reasons among the admin sections).

use async_graphql::{Context, Json, Object, SimpleObject};
use serde_json::{Map, Value};

use crate::operations::scrap_reasons::model::{
    self, ScrapReasonCreateInput, ScrapReasonForm, ScrapReasonRow, ScrapReasonUpdateInput,
};
use crate::operations::scrap_reasons::rules;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::{Page, PageInfo};
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::UserError;

/// Why produced parts were thrown away (bed adhesion, layer shift, ...).
#[derive(Debug, Clone, SimpleObject)]
pub struct ScrapReason {
    /// Id.
    pub id: i64,
    /// Code (lower case, unique ignoring case), e.g. `layer_shift`; scrap records keep it.
    pub code: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Display order (lowest first).
    pub sequence: i32,
    /// Active (deleting a reason deactivates it; inactive reasons are not offered).
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl From<ScrapReasonRow> for ScrapReason {
    fn from(r: ScrapReasonRow) -> Self {
        ScrapReason {
            id: r.id,
            code: r.code,
            name: r.name,
            description: r.description,
            sequence: r.sequence,
            active: r.active,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// A page of scrap reasons in display order, with the codes and descriptions of the page
/// for pickers.
#[derive(Debug, Clone, SimpleObject)]
pub struct ScrapReasonConnection {
    /// How many reasons match, over all pages.
    pub total_count: i64,
    /// The reasons of this page.
    pub nodes: Vec<ScrapReason>,
    /// Where this page sits.
    pub page_info: PageInfo,
    /// The codes of this page, in order.
    pub codes: Vec<String>,
    /// A JSON object from each code of this page to its description (its name when it has
    /// none).
    pub descriptions: Json<Value>,
}

/// Scrap reason queries (any signed-in user).
#[derive(Default)]
pub struct ScrapReasonsQuery;

#[Object]
impl ScrapReasonsQuery {
    /// Scrap reasons in display order (sequence, then code).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn scrap_reasons(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-250, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 250))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Code, name or description contains this (case-insensitive).")]
        search: Option<String>,
        #[graphql(desc = "Include inactive reasons.", default = false)] include_inactive: bool,
        #[graphql(desc = "Sort column (default sequence, then code).")] sort_by: Option<
            model::ScrapReasonSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<
            crate::platform::db::paging::SortOrder,
        >,
    ) -> AppResult<ScrapReasonConnection> {
        let page = Page::new(first, offset)?;
        let (rows, total) = model::list(
            &mut *context::conn(ctx).await?,
            include_inactive,
            search.as_deref(),
            (sort_by, sort_order),
            page.limit,
            page.offset,
        )
        .await?;
        let codes = rows.iter().map(|r| r.code.clone()).collect();
        let descriptions: Map<String, Value> = rows
            .iter()
            .map(|r| {
                let text = r.description.clone().unwrap_or_else(|| r.name.clone());
                (r.code.clone(), Value::String(text))
            })
            .collect();
        Ok(ScrapReasonConnection {
            total_count: total,
            nodes: rows.into_iter().map(ScrapReason::from).collect(),
            page_info: page.info(total),
            codes,
            descriptions: Json(Value::Object(descriptions)),
        })
    }

    /// One scrap reason by id.
    #[graphql(guard = "Access::User")]
    async fn scrap_reason(&self, ctx: &Context<'_>, id: i64) -> AppResult<ScrapReason> {
        model::find(&mut *context::conn(ctx).await?, id)
            .await?
            .map(ScrapReason::from)
            .ok_or_else(not_found)
    }
}

fn not_found() -> AppError {
    AppError::not_found("Scrap reason not found")
}

/// The result of a scrap reason change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ScrapReasonPayload {
    /// The reason after the change.
    pub scrap_reason: Option<ScrapReason>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<ScrapReasonRow, Vec<UserError>>> for ScrapReasonPayload {
    fn from(saved: Result<ScrapReasonRow, Vec<UserError>>) -> Self {
        match saved {
            Ok(row) => ScrapReasonPayload {
                scrap_reason: Some(row.into()),
                ..Default::default()
            },
            Err(user_errors) => ScrapReasonPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// Scrap reason mutations (admins).
#[derive(Default)]
pub struct ScrapReasonsMutation;

#[Object]
impl ScrapReasonsMutation {
    /// Adds a scrap reason.
    #[graphql(guard = "Access::Admin")]
    async fn scrap_reason_create(
        &self,
        ctx: &Context<'_>,
        input: ScrapReasonCreateInput,
    ) -> AppResult<ScrapReasonPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::save(&mut conn, None, input.into()).await?.into())
    }

    /// Changes a scrap reason's name, description, order or active state.
    #[graphql(guard = "Access::Admin")]
    async fn scrap_reason_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: ScrapReasonUpdateInput,
    ) -> AppResult<ScrapReasonPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::save(&mut conn, Some(id), input.into()).await?.into())
    }

    /// Deletes (deactivates) a scrap reason: it is no longer offered, and the scrap records
    /// that name it keep it.
    #[graphql(guard = "Access::Admin")]
    async fn scrap_reason_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<ScrapReasonPayload> {
        let mut conn = context::conn(ctx).await?;
        model::find(&mut conn, id).await?.ok_or_else(not_found)?;
        let row = model::update(
            &mut conn,
            id,
            &ScrapReasonForm {
                active: Some(false),
                ..Default::default()
            },
        )
        .await?;
        Ok(ScrapReasonPayload {
            message: Some(format!("Scrap reason '{}' has been deactivated", row.code)),
            scrap_reason: Some(row.into()),
            user_errors: vec![],
        })
    }
}
