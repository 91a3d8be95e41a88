//! Bulk exports in the schema (any signed-in user; an export is seen by its owner and by
//! admins): `bulkExport(query, format)` queues one, `bulkExport(id)` and `bulkExports` say
//! where it stands, `bulkExportFile(id)` is what the download route serves.

pub use crate::read_models::reporting::order_costs::OrderCostQuery;
use async_graphql::{ComplexObject, Context, Json, Object, SimpleObject};

use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::UserError;
use crate::read_models::reporting::export::RunBulkExport;
use crate::read_models::reporting::model::{
    self, BulkExportFormat, BulkExportRow, BulkExportStatus, NewBulkExport,
};
use crate::read_models::reporting::rules;

/// The most exports `bulkExports` lists.
pub const MAX_EXPORT_LIST: i64 = 100;

#[ComplexObject]
impl BulkExportRow {
    /// Where it stands now (a completed export past `expiresAt` is expired).
    async fn status(&self) -> BulkExportStatus {
        self.current_status()
    }

    /// Rows in the file, once it is complete.
    async fn row_count(&self) -> Option<i64> {
        (self.status == BulkExportStatus::Completed).then_some(self.rows_written)
    }

    /// Where to download the file (`GET`, same credentials), while it is complete and not
    /// expired.
    async fn download_url(&self) -> Option<String> {
        (self.current_status() == BulkExportStatus::Completed)
            .then(|| format!("/api/v1/bulk-exports/{}/download", self.id))
    }
}

/// A finished export's file, as the download route serves it.
#[derive(Debug, Clone, SimpleObject)]
pub struct BulkExportFile {
    /// The file's name.
    pub filename: String,
    /// Its media type.
    pub content_type: String,
    /// Where it is under `UPLOADS_DIR`.
    pub storage_key: String,
}

/// The result of queueing an export.
#[derive(Debug, Clone, SimpleObject)]
pub struct BulkExportPayload {
    /// The export, queued.
    pub bulk_export: Option<BulkExportRow>,
    /// Why it was refused.
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(BulkExportPayload {
    bulk_export: BulkExportRow
});

/// Bulk export queries.
#[derive(Default)]
pub struct ReportingQuery;

#[Object]
impl ReportingQuery {
    /// One bulk export (its owner's or, for admins, anyone's).
    #[graphql(guard = "Access::User")]
    async fn bulk_export(&self, ctx: &Context<'_>, id: i64) -> AppResult<BulkExportRow> {
        let user = current_user(ctx).await?;
        let mut conn = context::conn(ctx).await?;
        model::visible(&mut conn, id, &user).await
    }

    /// The viewer's bulk exports, newest first.
    #[graphql(guard = "Access::User")]
    async fn bulk_exports(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-100, default 20).", default = 20, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        first: i64,
    ) -> AppResult<Vec<BulkExportRow>> {
        let user = current_user(ctx).await?;
        let mut conn = context::conn(ctx).await?;
        model::of_user(&mut conn, user.id, first.clamp(1, MAX_EXPORT_LIST)).await
    }

    /// A completed export's file (what `GET /api/v1/bulk-exports/{id}/download` sends): its
    /// owner's or, for admins, anyone's; 404 once expired.
    #[graphql(guard = "Access::User")]
    async fn bulk_export_file(&self, ctx: &Context<'_>, id: i64) -> AppResult<BulkExportFile> {
        let user = current_user(ctx).await?;
        let mut conn = context::conn(ctx).await?;
        let export = model::visible(&mut conn, id, &user).await?;
        match (export.current_status(), &export.storage_key) {
            (BulkExportStatus::Completed, Some(key)) => Ok(BulkExportFile {
                filename: export.filename(),
                content_type: export.format.content_type().to_string(),
                storage_key: key.clone(),
            }),
            (BulkExportStatus::Expired, _) => Err(AppError::not_found("Bulk export has expired")),
            _ => Err(AppError::bad_request("Bulk export is not complete")),
        }
    }
}

/// Bulk export mutations.
#[derive(Default)]
pub struct ReportingMutation;

#[Object]
impl ReportingMutation {
    /// Runs a GraphQL query as a background job, as the viewer (with their permissions), and
    /// writes one line (JSONL) or row (CSV, flat selections only) per node of its single
    /// top-level list or connection to a file that can be downloaded for 24 hours. The
    /// export pages through the list itself (it sets the root field's `first` and `offset`).
    #[graphql(guard = "Access::User")]
    async fn bulk_export(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The query: one operation, one top-level list or connection.")]
        query: String,
        #[graphql(
            desc = "The file format (default jsonl).",
            default_with = "BulkExportFormat::Jsonl"
        )]
        format: BulkExportFormat,
        #[graphql(desc = "The query's variables.")] variables: Option<Json<serde_json::Value>>,
    ) -> AppResult<BulkExportPayload> {
        let user = current_user(ctx).await?;
        let variables = variables
            .map(|v| v.0)
            .unwrap_or_else(|| serde_json::json!({}));
        if !variables.is_object() {
            return Ok(BulkExportPayload::from(Err(vec![UserError::new(
                "variables",
                crate::platform::graphql::user_error::UserErrorCode::Invalid,
                "Variables must be a JSON object",
            )])));
        }
        let validator = &ctx
            .data::<crate::platform::graphql::Validator>()
            .map_err(|e| AppError::internal(e.message))?
            .0;
        if let Err(errors) = rules::plan(
            validator,
            &query,
            &async_graphql::Variables::from_json(variables.clone()),
            format,
        )
        .await
        {
            return Ok(BulkExportPayload::from(Err(errors)));
        }
        let new = NewBulkExport {
            user_id: user.id,
            query,
            variables,
            format,
        };
        Ok(crate::in_transaction!(ctx, |conn| async move {
            let row = model::insert(conn, &new).await?;
            crate::platform::jobs::enqueue(conn, &RunBulkExport { id: row.id }).await?;
            Ok::<_, crate::platform::graphql::user_error::Stop>(row)
        })
        .into())
    }
}
