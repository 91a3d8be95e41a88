//! Printers in the schema (any signed-in user): the print farm's machines, their status and
//! how to reach them. The object is the row ([`PrinterRow`]); this file adds its computed
//! fields and the resolvers.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};

use crate::auth::Access;
use crate::db::paging::SortOrder;
use crate::error::{AppError, AppResult, FieldError};
use crate::graphql::context;
use crate::graphql::pagination::{DEFAULT_PAGE_SIZE, Page, PageInfo};
use crate::graphql::user_error::UserError;
use crate::printers::model::{
    self, PrinterBrand, PrinterCreateInput, PrinterFilter, PrinterForm, PrinterRow, PrinterSort,
    PrinterStatus, PrinterUpdateInput,
};
use crate::printers::rules;

/// The largest page of printers (CONTRACT 5.13: `page_size` up to 200).
pub const MAX_PRINTER_PAGE: i64 = 200;

#[ComplexObject]
impl PrinterRow {
    /// True unless the status is offline.
    async fn is_online(&self) -> bool {
        rules::is_online(self.status)
    }

    /// Whether the capabilities list an automatic material system (`has_ams`, `ams`,
    /// `ams_slots` or `ams_units`).
    async fn has_ams(&self) -> bool {
        rules::has_ams(&self.capabilities)
    }

    /// The spools consumed by the production orders that ran an operation on it, each once
    /// (consumption is recorded per order; the data model has no "spool loaded on a printer"
    /// relation).
    async fn spools(&self, ctx: &Context<'_>) -> AppResult<Vec<crate::spools::model::SpoolRow>> {
        Ok(ctx
            .data::<crate::spools::loaders::PrinterSpools>()
            .map_err(|e| AppError::internal(e.message))?
            .load_one(self.id)
            .await?
            .unwrap_or_default()
            .into_iter()
            .map(|p| p.spool)
            .collect())
    }

    /// Whether the capabilities list a camera (`has_camera` or `camera`).
    async fn has_camera(&self) -> bool {
        rules::has_camera(&self.capabilities)
    }

    /// How to reach it (a JSON object: access codes, API keys, ports...). These are secrets:
    /// admins read them; for anyone else the field is null (operators may still set them).
    async fn connection_config(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Option<async_graphql::Json<serde_json::Value>>> {
        let viewer = crate::auth::viewer::viewer(ctx).await?;
        Ok(Access::Admin
            .allows(&viewer)
            .is_ok()
            .then(|| async_graphql::Json(self.connection_config.clone())))
    }
}

/// A page of printers, with page-number fields for page-based screens.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterConnection {
    /// How many printers match, over all pages.
    pub total_count: i64,
    /// The printers of this page.
    pub nodes: Vec<PrinterRow>,
    /// Where this page sits.
    pub page_info: PageInfo,
    /// The page number (1-based).
    pub page: i64,
    /// The page size.
    pub page_size: i64,
    /// How many pages there are (at least 1).
    pub total_pages: i64,
}

/// A suggested printer code.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterCodeSuggestion {
    /// The next free code after the highest one with this prefix, e.g. `PRT-004`.
    pub code: String,
    /// The prefix used.
    pub prefix: String,
}

/// Printer queries (any signed-in user).
#[derive(Default)]
pub struct PrintersQuery;

#[Object]
impl PrintersQuery {
    /// Printers (by code unless `sortBy` says otherwise), with search and filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn printers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-200, default 50).")] first: Option<i64>,
        #[graphql(desc = "Rows to skip (not with `page`).")] offset: Option<i64>,
        #[graphql(desc = "Page number, 1-based (instead of `offset`).")] page: Option<i64>,
        #[graphql(
            desc = "Code, name, model, serial number, address or location contains this (case-insensitive)."
        )]
        search: Option<String>,
        #[graphql(desc = "Only this brand.")] brand: Option<PrinterBrand>,
        #[graphql(desc = "Only this status.")] status: Option<PrinterStatus>,
        #[graphql(
            desc = "Only active printers (default); false lists every printer.",
            default = true
        )]
        active_only: bool,
        #[graphql(desc = "Sort column (default code); ties are broken by id.")] sort_by: Option<
            PrinterSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<SortOrder>,
    ) -> AppResult<PrinterConnection> {
        let offset = match (page, offset) {
            (Some(_), Some(_)) => {
                return Err(AppError::validation(vec![FieldError::new(
                    "page",
                    "Give either page or offset, not both",
                )]));
            }
            (Some(p), None) if p < 1 => {
                return Err(AppError::validation(vec![
                    FieldError::new("page", "Input should be greater than or equal to 1")
                        .with_kind("greater_than_equal"),
                ]));
            }
            (Some(p), None) => Some((p - 1).saturating_mul(first.unwrap_or(DEFAULT_PAGE_SIZE))),
            (None, o) => o,
        };
        let page_req = Page::with_max(first, offset, MAX_PRINTER_PAGE)?;
        let filter = PrinterFilter {
            search,
            brand,
            status,
            active_only,
            sort_by,
            sort_order,
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page_req.limit,
            page_req.offset,
        )
        .await?;
        Ok(PrinterConnection {
            total_count: total,
            nodes,
            page_info: page_req.info(total),
            page: page_req.offset / page_req.limit + 1,
            page_size: page_req.limit,
            total_pages: ((total + page_req.limit - 1) / page_req.limit).max(1),
        })
    }

    /// One printer by id.
    #[graphql(guard = "Access::User")]
    async fn printer(&self, ctx: &Context<'_>, id: i64) -> AppResult<PrinterRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// The next free printer code for a prefix (`PRT` when none): a suggestion, nothing is
    /// reserved.
    #[graphql(guard = "Access::User")]
    async fn printer_code_suggestion(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Letters, digits, dashes or underscores (default PRT).")] prefix: Option<
            String,
        >,
    ) -> AppResult<PrinterCodeSuggestion> {
        let prefix = rules::normalize_prefix(prefix.as_deref())
            .map_err(|e| AppError::validation(vec![FieldError::new("prefix", e.message)]))?;
        let code = rules::suggest_code(&mut *context::conn(ctx).await?, &prefix).await?;
        Ok(PrinterCodeSuggestion { code, prefix })
    }
}

/// The result of a printer change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PrinterPayload {
    /// The printer after the change.
    pub printer: Option<PrinterRow>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<PrinterRow, Vec<UserError>>> for PrinterPayload {
    fn from(result: Result<PrinterRow, Vec<UserError>>) -> Self {
        match result {
            Ok(row) => PrinterPayload {
                printer: Some(row),
                ..Default::default()
            },
            Err(user_errors) => PrinterPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// Printer mutations (any signed-in user).
#[derive(Default)]
pub struct PrintersMutation;

#[Object]
impl PrintersMutation {
    /// Adds a printer.
    #[graphql(guard = "Access::User")]
    async fn printer_create(
        &self,
        ctx: &Context<'_>,
        input: PrinterCreateInput,
    ) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::save(&mut conn, None, input.into()).await?.into())
    }

    /// Changes a printer.
    #[graphql(guard = "Access::User")]
    async fn printer_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PrinterUpdateInput,
    ) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(rules::save(&mut conn, Some(id), input.into()).await?.into())
    }

    /// Sets what a printer is doing (any status but offline also marks it as just seen).
    #[graphql(guard = "Access::User")]
    async fn printer_update_status(
        &self,
        ctx: &Context<'_>,
        id: i64,
        status: PrinterStatus,
    ) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        let form = PrinterForm {
            status: Some(status),
            ..Default::default()
        };
        Ok(rules::save(&mut conn, Some(id), form).await?.into())
    }

    /// Deletes (deactivates) a printer; its history stays.
    #[graphql(guard = "Access::User")]
    async fn printer_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<PrinterPayload> {
        let mut conn = context::conn(ctx).await?;
        let form = PrinterForm {
            active: Some(false),
            ..Default::default()
        };
        let mut payload = PrinterPayload::from(rules::save(&mut conn, Some(id), form).await?);
        payload.message = payload
            .printer
            .as_ref()
            .map(|p| format!("Printer '{}' deactivated", p.code));
        Ok(payload)
    }
}

pub use super::brands::PrinterBrandsQuery;
