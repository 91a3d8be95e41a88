//! Product images (FilaOps's `/admin/uploads/product-image`): an image uploaded for an
//! item's `image_url`, stored under `UPLOADS_DIR/products/` by a generated name (the
//! uploaded name is never used as a path), at most [`IMAGE_MAX_BYTES`], the content sniffed.
//! Replacing an image is uploading a new one and deleting the old.

use async_graphql::{Context, Object, SimpleObject, Upload};

use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;

/// Largest product image (5 MB).
pub const IMAGE_MAX_BYTES: usize = 5 * 1024 * 1024;
/// The folder under the uploads directory.
const FOLDER: &str = "products";

/// An uploaded product image.
#[derive(Debug, Clone, SimpleObject)]
pub struct ProductImage {
    /// The stored file's name.
    pub filename: String,
    /// Where it is read (`GET`, signed in).
    pub url: String,
    /// Size in bytes.
    pub size: i64,
    /// Content type (downloads).
    pub content_type: String,
    /// The stored file (downloads).
    pub storage_key: String,
}

/// What deleting an image did.
#[derive(Debug, Clone, SimpleObject)]
pub struct ProductImageDeleted {
    /// `File deleted successfully`.
    pub message: String,
}

/// A stored name is 32 hex digits and an image extension; nothing else is ever a path.
fn stored_name(filename: &str) -> Option<(&str, &'static str)> {
    let (stem, ext) = filename.rsplit_once('.')?;
    let mime = match ext {
        "png" => "image/png",
        "jpg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        _ => return None,
    };
    (stem.len() == 32
        && stem
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()))
    .then_some((stem, mime))
}

fn view(filename: String, size: i64, content_type: &str) -> ProductImage {
    ProductImage {
        url: format!("/api/v1/admin/uploads/product-image/{filename}"),
        storage_key: format!("{FOLDER}/{filename}"),
        filename,
        size,
        content_type: content_type.into(),
    }
}

/// Product image queries (staff).
#[derive(Default)]
pub struct ProductImageQuery;

#[Object]
impl ProductImageQuery {
    /// A stored product image (for its download).
    #[graphql(guard = "Access::User")]
    async fn product_image(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The stored file's name.")] filename: String,
    ) -> AppResult<ProductImage> {
        let Some((_, mime)) = stored_name(&filename) else {
            return Err(AppError::bad_request("Invalid filename"));
        };
        let path = context::config(ctx)?
            .uploads_dir
            .join(FOLDER)
            .join(&filename);
        let size = tokio::fs::metadata(&path)
            .await
            .map_err(|_| AppError::not_found("File not found"))?
            .len();
        Ok(view(filename, size as i64, mime))
    }
}

/// Product image mutations (staff).
#[derive(Default)]
pub struct ProductImageMutation;

#[Object]
impl ProductImageMutation {
    /// Stores a product image (PNG, JPEG, WebP or GIF, at most 5 MB, the content checked):
    /// its `url` goes into an item's `imageUrl`.
    #[graphql(guard = "Access::User")]
    async fn product_image_upload(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The image.")] file: Upload,
    ) -> AppResult<ProductImage> {
        let original = file
            .value(ctx)
            .map(|v| v.filename.clone())
            .unwrap_or_default();
        if original.trim().is_empty() {
            return Err(AppError::bad_request("No filename provided"));
        }
        let bytes = crate::platform::graphql::upload::read(ctx, file)?;
        if bytes.len() > IMAGE_MAX_BYTES {
            return Err(AppError::bad_request("File too large. Maximum size: 5MB"));
        }
        let (ext, mime) = crate::platform::graphql::upload::image_type(&original, &bytes)
            .map_err(AppError::bad_request)?;
        let filename = format!("{}.{ext}", uuid::Uuid::new_v4().simple());
        let dir = context::config(ctx)?.uploads_dir.join(FOLDER);
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(AppError::internal)?;
        let path = dir.join(&filename);
        if let Err(e) = tokio::fs::write(&path, &bytes).await {
            let _ = tokio::fs::remove_file(&path).await;
            return Err(AppError::internal(format!("Failed to save file: {e}")));
        }
        Ok(view(filename, bytes.len() as i64, mime))
    }

    /// Deletes a stored product image.
    #[graphql(guard = "Access::User")]
    async fn product_image_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The stored file's name.")] filename: String,
    ) -> AppResult<ProductImageDeleted> {
        if stored_name(&filename).is_none() {
            return Err(AppError::bad_request("Invalid filename"));
        }
        let path = context::config(ctx)?
            .uploads_dir
            .join(FOLDER)
            .join(&filename);
        match tokio::fs::remove_file(&path).await {
            Ok(()) => Ok(ProductImageDeleted {
                message: "File deleted successfully".into(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(AppError::not_found("File not found"))
            }
            Err(e) => Err(AppError::internal(format!("Failed to delete file: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::stored_name;

    #[test]
    fn only_generated_names_are_paths() {
        assert!(stored_name("0123456789abcdef0123456789abcdef.png").is_some());
        for bad in [
            "../0123456789abcdef0123456789abcdef.png",
            "0123456789ABCDEF0123456789ABCDEF.png",
            "0123456789abcdef0123456789abcdef.exe",
            "a.png",
            "0123456789abcdef0123456789abcdef",
        ] {
            assert!(stored_name(bad).is_none(), "{bad}");
        }
    }
}
