//! Photos of an inspection: images only (the content is sniffed, not the name believed), at
//! most [`PHOTO_MAX_BYTES`], stored under `UPLOADS_DIR/qc/<inspection>/` by a generated
//! name; the row is the record of the file. Refused while quality management is `off`.

use async_graphql::{Context, SimpleObject, Upload};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::settings::model::QualityMode;
use crate::operations::quality::policy;
use crate::platform::db::schema::{qc_inspections, qc_photos, users};
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Timestamp;

/// Largest photo (25 MB; a larger one is a 413).
pub const PHOTO_MAX_BYTES: usize = 25 * 1024 * 1024;
/// Longest caption.
pub const CAPTION_MAX: usize = 255;

/// A photo of an inspection.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = qc_photos, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "QcPhoto", complex)]
pub struct PhotoRow {
    /// Id.
    pub id: i64,
    /// The inspection.
    pub qc_inspection_id: i64,
    /// The stored file's name.
    pub file_name: String,
    /// Caption.
    pub caption: Option<String>,
    /// Content type (`image/png`, ...).
    pub mime_type: String,
    /// Size in bytes.
    pub file_size: i64,
    /// Where the file lies under the uploads directory.
    #[graphql(skip)]
    pub storage_key: String,
    /// Who uploaded it.
    #[graphql(skip)]
    pub uploaded_by: Option<i64>,
    /// When.
    pub created_at: Timestamp,
}

#[async_graphql::ComplexObject]
impl PhotoRow {
    /// Always `local`: the file is stored by this server.
    async fn storage_type(&self) -> &'static str {
        "local"
    }

    /// Where the image is downloaded.
    async fn download_url(&self) -> String {
        format!(
            "/api/v1/production-orders/qc-inspections/{}/photos/{}/download",
            self.qc_inspection_id, self.id
        )
    }

    /// The uploader's e-mail.
    async fn uploaded_by(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        let Some(id) = self.uploaded_by else {
            return Ok(None);
        };
        Ok(users::table
            .find(id)
            .select(users::email)
            .first::<String>(&mut *context::conn(ctx).await?)
            .await
            .optional()?)
    }

    /// The file's name, for a download.
    async fn filename(&self) -> &str {
        &self.file_name
    }

    /// The content type, for a download.
    async fn content_type(&self) -> &str {
        &self.mime_type
    }

    /// The stored file, for a download.
    async fn storage_key(&self) -> &str {
        &self.storage_key
    }
}

/// Photos are refused while quality management is off (403).
pub async fn check_enabled(conn: &mut AsyncPgConnection) -> AppResult<()> {
    if policy::current(conn).await?.mode == QualityMode::Off {
        return Err(AppError::forbidden(
            "Quality module is disabled (quality_mode=off)",
        ));
    }
    Ok(())
}

async fn inspection_exists(conn: &mut AsyncPgConnection, id: i64) -> AppResult<()> {
    let found: bool = diesel::select(diesel::dsl::exists(qc_inspections::table.find(id)))
        .get_result(conn)
        .await?;
    if found {
        Ok(())
    } else {
        Err(AppError::not_found("QC inspection not found"))
    }
}

/// The photos of an inspection, newest first.
pub async fn list(conn: &mut AsyncPgConnection, inspection: i64) -> AppResult<Vec<PhotoRow>> {
    check_enabled(conn).await?;
    inspection_exists(conn, inspection).await?;
    Ok(qc_photos::table
        .filter(qc_photos::qc_inspection_id.eq(inspection))
        .order(qc_photos::id.desc())
        .select(PhotoRow::as_select())
        .load(conn)
        .await?)
}

/// One photo of an inspection.
pub async fn find(
    conn: &mut AsyncPgConnection,
    inspection: i64,
    photo: i64,
) -> AppResult<PhotoRow> {
    check_enabled(conn).await?;
    qc_photos::table
        .find(photo)
        .filter(qc_photos::qc_inspection_id.eq(inspection))
        .select(PhotoRow::as_select())
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("Photo not found"))
}

fn caption_checked(caption: Option<String>) -> AppResult<Option<String>> {
    let caption = caption
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty());
    if caption
        .as_ref()
        .is_some_and(|c| c.chars().count() > CAPTION_MAX || c.chars().any(char::is_control))
    {
        return Err(AppError::bad_request(format!(
            "Caption must be at most {CAPTION_MAX} characters of text"
        )));
    }
    Ok(caption)
}

/// Stores a photo for an inspection.
pub async fn upload(
    ctx: &Context<'_>,
    inspection: i64,
    file: Upload,
    caption: Option<String>,
    user: i64,
) -> AppResult<PhotoRow> {
    let filename = file
        .value(ctx)
        .map(|v| v.filename.clone())
        .unwrap_or_default();
    let bytes = crate::platform::graphql::upload::read(ctx, file)?;
    let mut conn = context::conn(ctx).await?;
    check_enabled(&mut conn).await?;
    inspection_exists(&mut conn, inspection).await?;
    let caption = caption_checked(caption)?;
    if bytes.len() > PHOTO_MAX_BYTES {
        return Err(AppError::new(
            ErrorCode::PayloadTooLarge,
            "Photo too large. Maximum size: 25MB",
        ));
    }
    let (ext, mime) = crate::platform::graphql::upload::image_type(&filename, &bytes)
        .map_err(AppError::bad_request)?;
    let stamp = chrono::Utc::now().format("%Y%m%d_%H%M%S");
    let tag = &uuid::Uuid::new_v4().simple().to_string()[..8];
    let file_name = format!("qc{inspection}_{stamp}_{tag}.{ext}");
    let key = format!("qc/{inspection}/{file_name}");
    let uploads = &context::config(ctx)?.uploads_dir;
    tokio::fs::create_dir_all(uploads.join(format!("qc/{inspection}")))
        .await
        .map_err(AppError::internal)?;
    let path = uploads.join(&key);
    tokio::fs::write(&path, &bytes)
        .await
        .map_err(AppError::internal)?;
    let inserted = diesel::insert_into(qc_photos::table)
        .values((
            qc_photos::qc_inspection_id.eq(inspection),
            qc_photos::file_name.eq(&file_name),
            qc_photos::caption.eq(caption),
            qc_photos::mime_type.eq(mime),
            qc_photos::file_size.eq(bytes.len() as i64),
            qc_photos::storage_key.eq(&key),
            qc_photos::uploaded_by.eq(Some(user)),
        ))
        .returning(PhotoRow::as_returning())
        .get_result(&mut conn)
        .await;
    match inserted {
        Ok(row) => Ok(row),
        Err(e) => {
            // Without its row the file must not stay behind.
            let _ = tokio::fs::remove_file(&path).await;
            Err(e.into())
        }
    }
}

/// Changes a photo's caption.
pub async fn set_caption(
    conn: &mut AsyncPgConnection,
    inspection: i64,
    photo: i64,
    caption: Option<String>,
) -> AppResult<PhotoRow> {
    find(conn, inspection, photo).await?;
    let caption = caption_checked(caption)?;
    Ok(diesel::update(qc_photos::table.find(photo))
        .set(qc_photos::caption.eq(caption))
        .returning(PhotoRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Removes a photo (row, then file).
pub async fn delete(ctx: &Context<'_>, inspection: i64, photo: i64) -> AppResult<PhotoRow> {
    let mut conn = context::conn(ctx).await?;
    let row = find(&mut conn, inspection, photo).await?;
    diesel::delete(qc_photos::table.find(photo))
        .execute(&mut conn)
        .await?;
    let path = context::config(ctx)?.uploads_dir.join(&row.storage_key);
    if let Err(e) = tokio::fs::remove_file(&path).await {
        tracing::warn!(file = %row.storage_key, error = %e, "a deleted photo's file could not be removed");
    }
    Ok(row)
}
