//! A quote's picture (CONTRACT 5.3: `/quotes/{id}/image`): one PNG or JPEG of the part, stored
//! under `UPLOADS_DIR/quotes/` with a generated name recorded on the quote (`has_image`
//! follows it). Uploading replaces the previous picture; the old file is removed once the
//! row no longer points at it, and a file whose row was not written is removed too.

use async_graphql::{Context, SimpleObject, Upload};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::operations::sales::graphql::QuotePayload;
use crate::operations::sales::quotes::{QuoteRow, find as find_quote};
use crate::platform::db::schema::quotes;
use crate::platform::documents::ImageFormat;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The folder under `UPLOADS_DIR` that holds quote pictures.
const QUOTE_IMAGE_DIR: &str = "quotes";

/// A quote's stored picture, as a file to download.
#[derive(Debug, Clone, SimpleObject)]
pub struct QuoteImage {
    /// The name to save it as (`Q-2026-0001.png`).
    pub filename: String,
    /// `image/png` or `image/jpeg`.
    pub content_type: String,
    /// Where the file is, relative to `UPLOADS_DIR`.
    pub storage_key: String,
}

fn storage_key(stored: &str) -> String {
    format!("{QUOTE_IMAGE_DIR}/{stored}")
}

/// The picture of a quote; not found when the quote has none.
pub async fn image(ctx: &Context<'_>, id: i64) -> AppResult<QuoteImage> {
    let quote = find_quote(&mut *context::conn(ctx).await?, id).await?;
    let stored = quote
        .image_filename
        .ok_or_else(|| AppError::not_found("This quote has no image"))?;
    let format = ImageFormat::of_stored_name(&stored)
        .ok_or_else(|| AppError::not_found("This quote has no image"))?;
    Ok(QuoteImage {
        filename: format!("{}.{}", quote.quote_number, format.extension()),
        content_type: format.content_type().to_owned(),
        storage_key: storage_key(&stored),
    })
}

/// Points the quote at `stored` (or at nothing), the row locked; answers the row and the name
/// it replaced.
async fn set_image(
    ctx: &Context<'_>,
    id: i64,
    stored: Option<String>,
) -> AppResult<(QuoteRow, Option<String>)> {
    let mut conn = context::conn(ctx).await?;
    conn.transaction::<_, AppError, _>(async move |conn| {
        let previous: Option<String> = quotes::table
            .find(id)
            .select(quotes::image_filename)
            .for_update()
            .first(conn)
            .await
            .optional()?
            .ok_or_else(|| AppError::not_found("Quote not found"))?;
        let row = diesel::update(quotes::table.find(id))
            .set((
                quotes::image_filename.eq(&stored),
                quotes::updated_at.eq(diesel::dsl::now),
            ))
            .returning(QuoteRow::as_returning())
            .get_result(conn)
            .await?;
        Ok((row, previous))
    })
    .await
}

/// Removes a stored picture's file (its row no longer points at it).
pub async fn remove_stored(ctx: &Context<'_>, stored: &str) -> AppResult<()> {
    let path = context::config(ctx)?.uploads_dir.join(storage_key(stored));
    if let Err(e) = tokio::fs::remove_file(&path).await {
        // A file already gone is not an error: nothing points at it any more.
        tracing::warn!(error = %e, file = %stored, "old quote image not removed");
    }
    Ok(())
}

/// Stores a new picture for a quote (PNG or JPEG by content, at most `MAX_UPLOAD_BYTES`),
/// replacing the previous one.
pub async fn upload(ctx: &Context<'_>, id: i64, file: Upload) -> AppResult<QuotePayload> {
    let bytes = crate::platform::graphql::upload::read(ctx, file)?;
    find_quote(&mut *context::conn(ctx).await?, id).await?;
    let Some(format) = ImageFormat::sniff(&bytes) else {
        return Ok(QuotePayload {
            user_errors: vec![UserError::new(
                "file",
                UserErrorCode::Invalid,
                "The image must be a PNG or JPEG picture",
            )],
            ..Default::default()
        });
    };
    let stored = format!(
        "quote-{id}-{}.{}",
        uuid::Uuid::new_v4().simple(),
        format.extension()
    );
    let dir = context::config(ctx)?.uploads_dir.join(QUOTE_IMAGE_DIR);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(AppError::internal)?;
    let path = dir.join(&stored);
    tokio::fs::write(&path, &bytes)
        .await
        .map_err(AppError::internal)?;
    let (row, previous) = match set_image(ctx, id, Some(stored)).await {
        Ok(done) => done,
        Err(e) => {
            // Without the row pointing at it the file must not stay behind.
            let _ = tokio::fs::remove_file(&path).await;
            return Err(e);
        }
    };
    if let Some(old) = previous {
        remove_stored(ctx, &old).await?;
    }
    Ok(QuotePayload {
        quote: Some(row),
        user_errors: vec![],
    })
}

/// Removes a quote's picture (none stored answers not found).
pub async fn delete(ctx: &Context<'_>, id: i64) -> AppResult<QuotePayload> {
    let quote = find_quote(&mut *context::conn(ctx).await?, id).await?;
    if quote.image_filename.is_none() {
        return Err(AppError::not_found("This quote has no image"));
    }
    let (row, previous) = set_image(ctx, id, None).await?;
    if let Some(old) = previous {
        remove_stored(ctx, &old).await?;
    }
    Ok(QuotePayload {
        quote: Some(row),
        user_errors: vec![],
    })
}
