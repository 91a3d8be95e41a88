//! Scrap reasons in the schema. Reading is for any signed-in user (an operator scrapping a
//! print picks a reason); adding, changing and deactivating them is for admins (spec 4.5
//! lists scrap reasons among the admin sections).

use async_graphql::{Context, InputObject, Json, MaybeUndefined, Object, SimpleObject};
use serde_json::{Map, Value};

use crate::auth::Access;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::graphql::context;
use crate::graphql::limits::length;
use crate::graphql::pagination::{Page, PageInfo};
use crate::graphql::scalars::Timestamp;
use crate::graphql::user_error::{UserError, UserErrorCode};
use crate::scrap_reasons::model::{self, ScrapReasonRow, ScrapReasonValues};
use crate::scrap_reasons::rules::{self, CODE_MAX, DESCRIPTION_MAX, NAME_MAX};

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
        #[graphql(desc = "Page size (1-250, default 50).")] first: Option<i64>,
        #[graphql(desc = "Rows to skip.")] offset: Option<i64>,
        #[graphql(desc = "Code, name or description contains this (case-insensitive).")]
        search: Option<String>,
        #[graphql(desc = "Include inactive reasons.", default = false)] include_inactive: bool,
        #[graphql(desc = "Sort column (default sequence, then code).")] sort_by: Option<
            model::ScrapReasonSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<
            crate::db::paging::SortOrder,
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

/// A new scrap reason.
#[derive(Debug, Clone, InputObject)]
pub struct ScrapReasonCreateInput {
    /// Code (1-50 characters, unique ignoring case; stored lower case).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: String,
    /// Name (1-100 characters).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: String,
    /// Description.
    #[graphql(directive = length::apply(DESCRIPTION_MAX))]
    pub description: Option<String>,
    /// Display order (default 0).
    #[graphql(default = 0)]
    pub sequence: i32,
}

/// Changes to a scrap reason (the code never changes: scrap records keep it).
#[derive(Debug, Clone, Default, InputObject)]
pub struct ScrapReasonUpdateInput {
    /// Name.
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: Option<String>,
    /// Description (null clears it).
    #[graphql(directive = length::apply(DESCRIPTION_MAX))]
    pub description: MaybeUndefined<String>,
    /// Active.
    pub active: Option<bool>,
    /// Display order.
    pub sequence: Option<i32>,
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

impl ScrapReasonPayload {
    fn ok(row: ScrapReasonRow) -> Self {
        ScrapReasonPayload {
            scrap_reason: Some(row.into()),
            ..Default::default()
        }
    }

    fn errors(user_errors: Vec<UserError>) -> Self {
        ScrapReasonPayload {
            user_errors,
            ..Default::default()
        }
    }
}

fn taken(code: &str) -> UserError {
    UserError::new(
        "code",
        UserErrorCode::Taken,
        format!("Scrap reason code '{code}' already exists"),
    )
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
        let mut errors = Vec::new();
        let code = rules::check_code(&mut errors, &input.code);
        let name = rules::check_name(&mut errors, &input.name);
        let description = rules::check_description(&mut errors, input.description);
        if !errors.is_empty() {
            return Ok(ScrapReasonPayload::errors(errors));
        }
        let mut conn = context::conn(ctx).await?;
        if model::find_by_code(&mut conn, &code).await?.is_some() {
            return Ok(ScrapReasonPayload::errors(vec![taken(&code)]));
        }
        let values = ScrapReasonValues {
            code: Some(code.clone()),
            name: Some(name),
            description: Some(description),
            sequence: Some(input.sequence),
            active: Some(true),
        };
        match model::insert(&mut conn, &values).await {
            Ok(row) => Ok(ScrapReasonPayload::ok(row)),
            // A concurrent insert of the same code lost the race to the unique index.
            Err(e) if e.code == ErrorCode::Conflict => {
                Ok(ScrapReasonPayload::errors(vec![taken(&code)]))
            }
            Err(e) => Err(e),
        }
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
        model::find(&mut conn, id).await?.ok_or_else(not_found)?;
        let mut errors = Vec::new();
        let name = input.name.map(|n| rules::check_name(&mut errors, &n));
        let description = match input.description {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(d) => Some(rules::check_description(&mut errors, Some(d))),
        };
        if !errors.is_empty() {
            return Ok(ScrapReasonPayload::errors(errors));
        }
        let values = ScrapReasonValues {
            code: None,
            name,
            description,
            sequence: input.sequence,
            active: input.active,
        };
        Ok(ScrapReasonPayload::ok(
            model::update(&mut conn, id, &values).await?,
        ))
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
            &ScrapReasonValues {
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
