//! Bulk exports: the row (which is also the GraphQL `BulkExport`), the closed sets and the
//! queries.

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::bulk_exports;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Timestamp;

/// How long a finished export's file may be downloaded.
pub const EXPIRY_HOURS: i64 = 24;

crate::text_enum! {
    /// The file format of a bulk export.
    pub enum BulkExportFormat {
        /// One JSON object per line, one line per node of the query's list.
        Jsonl,
        /// A header row then one row per node; only for flat selections (no nested objects).
        Csv,
    }
}

impl BulkExportFormat {
    /// The file's media type.
    pub fn content_type(self) -> &'static str {
        match self {
            BulkExportFormat::Jsonl => "application/jsonl",
            BulkExportFormat::Csv => "text/csv; charset=utf-8",
        }
    }

    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            BulkExportFormat::Jsonl => "jsonl",
            BulkExportFormat::Csv => "csv",
        }
    }
}

crate::text_enum! {
    /// Where a bulk export stands.
    pub enum BulkExportStatus {
        /// Waiting for the job worker.
        Queued,
        /// Rows are being written.
        Running,
        /// The file is ready to download (until `expiresAt`).
        Completed,
        /// It stopped; `error` says why.
        Failed,
        /// The file was deleted after its expiry.
        Expired,
    }
}

/// A bulk export: the stored row.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = bulk_exports, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "BulkExport", complex)]
pub struct BulkExportRow {
    /// Id.
    pub id: i64,
    /// The user who asked for it (its rows are what this user may read).
    pub user_id: i64,
    /// The GraphQL query it runs.
    pub query: String,
    /// The query's variables.
    #[graphql(skip)]
    pub variables: serde_json::Value,
    /// The file format.
    pub format: BulkExportFormat,
    /// The stored status (see the computed `status`, which also says when it expired).
    #[graphql(skip)]
    pub status: BulkExportStatus,
    /// Rows written so far (the progress while it runs).
    #[graphql(name = "progress")]
    pub rows_written: i64,
    /// Bytes written so far.
    pub size_bytes: i64,
    /// Why it failed.
    pub error: Option<String>,
    /// Where the file is, under `UPLOADS_DIR`.
    #[graphql(skip)]
    pub storage_key: Option<String>,
    /// When it was asked for.
    pub created_at: Timestamp,
    /// When the worker started it.
    pub started_at: Option<Timestamp>,
    /// When the file was finished.
    pub completed_at: Option<Timestamp>,
    /// When the file stops being downloadable (and is deleted).
    pub expires_at: Option<Timestamp>,
}

impl BulkExportRow {
    /// The status as of now: a completed export past its expiry is expired even before the
    /// sweep deleted its file.
    pub fn current_status(&self) -> BulkExportStatus {
        match (&self.status, &self.expires_at) {
            (BulkExportStatus::Completed, Some(at)) if at.0 <= chrono::Utc::now() => {
                BulkExportStatus::Expired
            }
            (status, _) => *status,
        }
    }

    /// The file's name for a download.
    pub fn filename(&self) -> String {
        format!("bulk-export-{}.{}", self.id, self.format.extension())
    }
}

/// A new export.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = bulk_exports)]
pub struct NewBulkExport {
    /// Who asks.
    pub user_id: i64,
    /// The query.
    pub query: String,
    /// Its variables.
    pub variables: serde_json::Value,
    /// The format.
    pub format: BulkExportFormat,
}

/// One export.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<BulkExportRow>> {
    Ok(bulk_exports::table
        .find(id)
        .select(BulkExportRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// One export the viewer may see: their own, or any for an admin (404 otherwise, so an
/// export's existence does not leak).
pub async fn visible(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: &crate::platform::auth::viewer::CurrentUser,
) -> AppResult<BulkExportRow> {
    match find(conn, id).await? {
        Some(row) if row.user_id == user.id || user.is_admin() => Ok(row),
        _ => Err(AppError::not_found("Bulk export not found")),
    }
}

/// A user's exports, newest first.
pub async fn of_user(
    conn: &mut AsyncPgConnection,
    user_id: i64,
    limit: i64,
) -> AppResult<Vec<BulkExportRow>> {
    Ok(bulk_exports::table
        .filter(bulk_exports::user_id.eq(user_id))
        .order(bulk_exports::id.desc())
        .limit(limit)
        .select(BulkExportRow::as_select())
        .load(conn)
        .await?)
}

/// Inserts an export.
pub async fn insert(conn: &mut AsyncPgConnection, new: &NewBulkExport) -> AppResult<BulkExportRow> {
    Ok(diesel::insert_into(bulk_exports::table)
        .values(new)
        .returning(BulkExportRow::as_returning())
        .get_result(conn)
        .await?)
}
