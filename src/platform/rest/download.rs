//! File answers: a route whose response value describes a stored file (`filename`,
//! `content_type`, `storage_key`) sends the file's bytes, streamed from disk, with
//! `Content-Type`, `Content-Length` and `Content-Disposition`. The resolver decided who may
//! see the file; this only reads it, and only from under `UPLOADS_DIR`. A value with
//! `content_base64` instead (a document written on request, such as a quote PDF) is sent
//! as those bytes, `inline` so a browser shows it.

use std::path::{Component, Path};

use async_graphql::Value as ConstValue;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::platform::error::AppError;

fn text<'a>(value: &'a ConstValue, key: &str) -> Option<&'a str> {
    match value {
        ConstValue::Object(obj) => match obj.get(key) {
            Some(ConstValue::String(s)) => Some(s.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// `attachment; filename="..."; filename*=UTF-8''...` for any name, safely quoted.
pub fn content_disposition(filename: &str) -> String {
    disposition("attachment", filename)
}

/// `{kind}; filename="..."; filename*=UTF-8''...` for any name, safely quoted.
fn disposition(kind: &str, filename: &str) -> String {
    let ascii: String = filename
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded =
        percent_encoding::utf8_percent_encode(filename, percent_encoding::NON_ALPHANUMERIC);
    format!("{kind}; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// Streams the file a response value describes.
pub async fn send(uploads_dir: &Path, value: &ConstValue) -> Result<Response, AppError> {
    if let (Some(filename), Some(encoded)) =
        (text(value, "filename"), text(value, "content_base64"))
    {
        return generated(filename, text(value, "content_type"), encoded);
    }
    let (Some(filename), Some(key)) = (text(value, "filename"), text(value, "storage_key")) else {
        return Err(AppError::internal(
            "a download route's operation must select filename and storage_key or content_base64",
        ));
    };
    let content_type = text(value, "content_type").unwrap_or("application/octet-stream");
    let relative = Path::new(key);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(AppError::internal(
            "a stored file key left the uploads directory",
        ));
    }
    let path = uploads_dir.join(relative);
    let file = match tokio::fs::File::open(&path).await {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            tracing::warn!(file = %key, "a stored file is missing on disk");
            return Err(AppError::not_found("File not found"));
        }
        Err(e) => return Err(AppError::internal(e)),
    };
    let length = file.metadata().await.map_err(AppError::internal)?.len();
    let body = Body::from_stream(tokio_util::io::ReaderStream::new(file));
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(content_type) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    if let Ok(v) = HeaderValue::from_str(&content_disposition(filename)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    Ok(response)
}

/// A document written on request: the decoded bytes, shown inline.
fn generated(
    filename: &str,
    content_type: Option<&str>,
    encoded: &str,
) -> Result<Response, AppError> {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(AppError::internal)?;
    let length = bytes.len();
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    let content_type = content_type.unwrap_or("application/octet-stream");
    if let Ok(v) = HeaderValue::from_str(content_type) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    if let Ok(v) = HeaderValue::from_str(&disposition("inline", filename)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_quoted_safely() {
        assert_eq!(
            super::content_disposition("bracket \"v2\".stl"),
            "attachment; filename=\"bracket _v2_.stl\"; filename*=UTF-8''bracket%20%22v2%22%2Estl"
        );
        assert!(
            super::content_disposition("käse.3mf").starts_with("attachment; filename=\"k_se.3mf\"")
        );
    }
}
