//! The bulk export jobs: [`RunBulkExport`] runs the query page by page as the user who asked
//! and writes each page's rows to the file as it arrives (one page in memory, whatever the
//! list's size), recording progress after every page; [`ExpireBulkExports`] deletes the files
//! whose expiry passed.

use std::path::PathBuf;

use async_graphql::{Value, Variables};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

use crate::platform::auth::roles::{AccountType, UserStatus};
use crate::platform::auth::viewer::CurrentUser;
use crate::platform::auth::{RequestMeta, Viewer};
use crate::platform::db::schema::{bulk_exports, users};
use crate::platform::error::{AppError, AppResult};
use crate::platform::jobs::{Job, JobContext, JobError};
use crate::read_models::reporting::model::{
    self, BulkExportFormat, BulkExportRow, BulkExportStatus,
};
use crate::read_models::reporting::rules;

/// The folder under `UPLOADS_DIR` the files are written to.
pub const FOLDER: &str = "bulk-exports";

/// Longest an export may run: within the job worker's lease (120 s by default), so a long
/// export fails with a clear error rather than being cut off and retried.
pub const MAX_RUN: std::time::Duration = std::time::Duration::from_secs(100);

/// Runs one bulk export.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunBulkExport {
    /// The export.
    pub id: i64,
}

/// Expires every bulk export whose time is up (queued for each export's expiry; also safe to
/// run at any time).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExpireBulkExports;

#[async_trait::async_trait]
impl Job for RunBulkExport {
    const KIND: &'static str = "bulk_export.run";
    const MAX_ATTEMPTS: i32 = 3;

    async fn run(self, ctx: &JobContext) -> Result<(), JobError> {
        let mut conn = ctx.pool.get().await.map_err(JobError::retry)?;
        let Some(export) = model::find(&mut conn, self.id).await? else {
            return Ok(());
        };
        if !matches!(
            export.status,
            BulkExportStatus::Queued | BulkExportStatus::Running
        ) {
            return Ok(());
        }
        diesel::update(bulk_exports::table.find(export.id))
            .set((
                bulk_exports::status.eq(BulkExportStatus::Running),
                bulk_exports::started_at.eq(diesel::dsl::now),
                bulk_exports::rows_written.eq(0),
                bulk_exports::size_bytes.eq(0),
                bulk_exports::error.eq(None::<String>),
            ))
            .execute(&mut conn)
            .await
            .map_err(AppError::from)?;
        drop(conn);
        let outcome = match tokio::time::timeout(MAX_RUN, write(ctx, &export)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(AppError::bad_request(format!(
                "The export ran longer than {} s; narrow the query with its filters",
                MAX_RUN.as_secs()
            ))),
        };
        match outcome {
            Ok(()) => Ok(()),
            Err(error) => {
                let mut conn = ctx.pool.get().await.map_err(JobError::retry)?;
                diesel::update(bulk_exports::table.find(export.id))
                    .set((
                        bulk_exports::status.eq(BulkExportStatus::Failed),
                        bulk_exports::error.eq(Some(error.message.clone())),
                    ))
                    .execute(&mut conn)
                    .await
                    .map_err(AppError::from)?;
                if let Some(path) = part_path(ctx, &export) {
                    let _ = tokio::fs::remove_file(path).await;
                }
                tracing::warn!(export = export.id, error = %error.message, "bulk export failed");
                Ok(())
            }
        }
    }
}

#[async_trait::async_trait]
impl Job for ExpireBulkExports {
    const KIND: &'static str = "bulk_export.expire";

    async fn run(self, ctx: &JobContext) -> Result<(), JobError> {
        sweep_expired(&ctx.pool, &ctx.config.uploads_dir).await?;
        Ok(())
    }
}

fn part_path(ctx: &JobContext, export: &BulkExportRow) -> Option<PathBuf> {
    Some(ctx.config.uploads_dir.join(FOLDER).join(format!(
        "{}.{}.part",
        export.id,
        export.format.extension()
    )))
}

/// The user an export runs as, as of now (an account deactivated since cannot export).
async fn user(conn: &mut AsyncPgConnection, id: i64) -> AppResult<CurrentUser> {
    let row: Option<(i64, String, AccountType, UserStatus)> = users::table
        .find(id)
        .select((users::id, users::email, users::account_type, users::status))
        .first(conn)
        .await
        .optional()?;
    match row {
        Some((id, email, account_type, status)) if status == UserStatus::Active => {
            Ok(CurrentUser {
                id,
                email,
                account_type,
                status,
            })
        }
        _ => Err(AppError::forbidden(
            "The user who asked for the export is no longer active",
        )),
    }
}

/// Encodes a page of rows with the REST exports' encoder; the CSV header is written before
/// the first row.
fn encode(
    format: BulkExportFormat,
    rows: &[Value],
    header: &mut Option<Vec<String>>,
) -> AppResult<Vec<u8>> {
    let format = match format {
        BulkExportFormat::Jsonl => crate::platform::rest::ExportFormat::Ndjson,
        BulkExportFormat::Csv => crate::platform::rest::ExportFormat::Csv,
    };
    crate::platform::rest::encode_page(format, rows, header)
}

/// Runs the export's query page by page and writes the file; records progress after every
/// page and the result at the end.
async fn write(ctx: &JobContext, export: &BulkExportRow) -> AppResult<()> {
    let variables = Variables::from_json(export.variables.clone());
    let validator = ctx
        .validator
        .as_ref()
        .ok_or_else(|| AppError::internal("the job worker has no validating schema"))?;
    let plan = rules::plan(validator, &export.query, &variables, export.format)
        .await
        .map_err(|errors| {
            AppError::bad_request(
                errors
                    .into_iter()
                    .map(|e| e.message)
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        })?;
    let viewer = {
        let mut conn = ctx.pool.get().await?;
        Viewer::User(user(&mut conn, export.user_id).await?)
    };
    let schema = match &ctx.schema {
        Some(schema) => schema.clone(),
        None => return Err(AppError::internal("the job worker has no GraphQL schema")),
    };

    let folder = ctx.config.uploads_dir.join(FOLDER);
    tokio::fs::create_dir_all(&folder)
        .await
        .map_err(AppError::internal)?;
    let name = format!("{}.{}", export.id, export.format.extension());
    let part = folder.join(format!("{name}.part"));
    let file = tokio::fs::File::create(&part)
        .await
        .map_err(AppError::internal)?;
    let mut file = tokio::io::BufWriter::with_capacity(256 * 1024, file);

    let mut header = None;
    let mut rows_written: i64 = 0;
    let mut size: i64 = 0;
    let mut offset: u64 = 0;
    loop {
        let meta = RequestMeta::anonymous(
            format!("bulk-export-{}", export.id),
            std::net::IpAddr::from([127, 0, 0, 1]),
        );
        meta.viewer
            .set(viewer.clone())
            .map_err(|_| AppError::internal("the export's viewer was already set"))?;
        let mut request = async_graphql::Request::new("")
            .variables(variables.clone())
            .data(meta);
        request.set_parsed_query(plan.page(offset));
        let request = schema.per_request(request, &ctx.pool);
        let response = crate::platform::graphql::execute(&schema, request).await;
        if let Some(error) = <[async_graphql::ServerError]>::first(&response.errors) {
            return Err(AppError::bad_request(format!(
                "The query failed at row {rows_written}: {}",
                error.message
            )));
        }
        let rows = plan.rows(response.data);
        if rows.is_empty() {
            break;
        }
        let bytes = encode(export.format, &rows, &mut header)?;
        file.write_all(&bytes).await.map_err(AppError::internal)?;
        rows_written += rows.len() as i64;
        size += bytes.len() as i64;
        offset += rows.len() as u64;
        let mut conn = ctx.pool.get().await?;
        diesel::update(bulk_exports::table.find(export.id))
            .set((
                bulk_exports::rows_written.eq(rows_written),
                bulk_exports::size_bytes.eq(size),
            ))
            .execute(&mut conn)
            .await?;
        if plan.page_size.is_none() {
            break;
        }
    }
    file.flush().await.map_err(AppError::internal)?;
    drop(file);
    tokio::fs::rename(&part, folder.join(&name))
        .await
        .map_err(AppError::internal)?;

    let mut conn = ctx.pool.get().await?;
    let expires_at = chrono::Utc::now() + chrono::Duration::hours(model::EXPIRY_HOURS);
    diesel::update(bulk_exports::table.find(export.id))
        .set((
            bulk_exports::status.eq(BulkExportStatus::Completed),
            bulk_exports::rows_written.eq(rows_written),
            bulk_exports::size_bytes.eq(size),
            bulk_exports::storage_key.eq(Some(format!("{FOLDER}/{name}"))),
            bulk_exports::completed_at.eq(diesel::dsl::now),
            bulk_exports::expires_at.eq(Some(expires_at)),
        ))
        .execute(&mut conn)
        .await?;
    crate::platform::jobs::enqueue_at(&mut conn, &ExpireBulkExports, expires_at).await?;
    tracing::info!(
        export = export.id,
        rows = rows_written,
        bytes = size,
        "bulk export completed"
    );
    Ok(())
}

/// Deletes the files of completed exports whose expiry passed and marks them expired; the
/// number expired.
pub async fn sweep_expired(
    pool: &crate::platform::db::DbPool,
    uploads_dir: &std::path::Path,
) -> AppResult<usize> {
    let mut conn = pool.get().await?;
    let due: Vec<(i64, Option<String>)> = bulk_exports::table
        .filter(bulk_exports::status.eq(BulkExportStatus::Completed))
        .filter(bulk_exports::expires_at.le(diesel::dsl::now))
        .select((bulk_exports::id, bulk_exports::storage_key))
        .load(&mut conn)
        .await?;
    for (id, key) in &due {
        if let Some(key) = key {
            match tokio::fs::remove_file(uploads_dir.join(key)).await {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(AppError::internal(e)),
            }
        }
        diesel::update(bulk_exports::table.find(*id))
            .set((
                bulk_exports::status.eq(BulkExportStatus::Expired),
                bulk_exports::storage_key.eq(None::<String>),
            ))
            .execute(&mut conn)
            .await?;
    }
    Ok(due.len())
}
