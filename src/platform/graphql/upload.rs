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
