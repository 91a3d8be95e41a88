//! Reading a GraphQL `Upload` (a multipart file of the REST facade or `/graphql`): every
//! upload of every area is read here, bounded by `MAX_UPLOAD_BYTES`.

use std::io::Read;

use async_graphql::{Context, Upload};

use crate::platform::error::{AppError, AppResult, ErrorCode, FieldError};
use crate::platform::graphql::context;

/// Reads an upload into memory, bounded by `MAX_UPLOAD_BYTES` (a larger file is a 413).
pub fn read(ctx: &Context<'_>, upload: Upload) -> AppResult<Vec<u8>> {
    let max = context::config(ctx)?.max_upload_bytes;
    let value = upload
        .value(ctx)
        .map_err(|e| AppError::validation(vec![FieldError::new("file", e.to_string())]))?;
    let mut bytes = Vec::new();
    value
        .into_read()
        .take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(AppError::internal)?;
    if bytes.len() > max {
        return Err(AppError::new(
            ErrorCode::PayloadTooLarge,
            format!("The file is larger than {max} bytes"),
        ));
    }
    Ok(bytes)
}

/// The upload's bytes when its name ends in `.csv`; otherwise a 400 "File must be a CSV"
/// (CONTRACT 5.11).
pub fn read_csv(ctx: &Context<'_>, upload: Upload) -> AppResult<Vec<u8>> {
    let value = upload
        .value(ctx)
        .map_err(|e| AppError::validation(vec![FieldError::new("file", e.to_string())]))?;
    if !value.filename.to_ascii_lowercase().ends_with(".csv") {
        return Err(AppError::new(ErrorCode::BadRequest, "File must be a CSV"));
    }
    read(ctx, upload)
}

/// The image formats an image upload may be, by extension: the extension and the content
/// type, when the bytes really are that image (the content is sniffed, the name is not
/// trusted). `Err` says why not.
pub fn image_type(filename: &str, bytes: &[u8]) -> Result<(&'static str, &'static str), String> {
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let (ok, ext, mime) = match ext.as_str() {
        "png" => (bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "png", "image/png"),
        "jpg" | "jpeg" => (bytes.starts_with(b"\xFF\xD8\xFF"), "jpg", "image/jpeg"),
        "gif" => (
            bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a"),
            "gif",
            "image/gif",
        ),
        "webp" => (
            bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP",
            "webp",
            "image/webp",
        ),
        _ => {
            return Err(format!(
                "File type not allowed ('.{ext}'). Accepted: .jpg, .jpeg, .png, .webp, .gif"
            ));
        }
    };
    if bytes.is_empty() {
        return Err("The file is empty".into());
    }
    if ok {
        Ok((ext, mime))
    } else {
        Err(format!(
            "The content of the file is not a valid .{ext} image"
        ))
    }
}
