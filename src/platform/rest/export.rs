//! Streamed exports of list routes: `?format=csv` or `?format=ndjson` answers every row that
//! matches the request's filters, read page by page through the route's own operation (so the
//! same guards, filters and fields apply) and written to the client as each page arrives. At
//! most one page is held in memory, whatever the table's size.

use std::sync::Arc;

use async_graphql::Value as ConstValue;
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};
use tracing::Instrument;

use super::compile::CompiledRoute;
use super::respond::{execute, shape};
use crate::platform::auth::RequestMeta;
use crate::platform::db::DbPool;
use crate::platform::error::{AppError, FieldError};
use crate::platform::graphql::AppSchema;

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `text/csv`, a header row then one row per record (nested values as JSON text).
    Csv,
    /// `application/x-ndjson`, one JSON object per line.
    Ndjson,
}

impl Format {
    /// Reads `?format=` (`json` is no export; without `format`, `default`).
    pub fn from_query(
        query: Option<&str>,
        default: Option<Format>,
    ) -> Result<Option<Format>, AppError> {
        let format = query.and_then(|q| {
            url::form_urlencoded::parse(q.as_bytes())
                .find(|(k, _)| k == "format")
                .map(|(_, v)| v.into_owned())
        });
        match format.as_deref() {
            None => Ok(default),
            Some("json") => Ok(None),
            Some("csv") => Ok(Some(Format::Csv)),
            Some("ndjson") => Ok(Some(Format::Ndjson)),
            Some(_) => Err(AppError::validation(vec![
                FieldError::new("query.format", "Input should be 'json', 'csv' or 'ndjson'")
                    .with_kind("enum"),
            ])),
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Ndjson => "application/x-ndjson",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Ndjson => "ndjson",
        }
    }
}

fn rows_of(route: &CompiledRoute, value: ConstValue) -> Vec<ConstValue> {
    let rows_key = route.route.export.map(|e| e.rows).unwrap_or_default();
    let rows = match (value, rows_key) {
        (list @ ConstValue::List(_), "") => list,
        (ConstValue::Object(mut obj), key) => obj.shift_remove(key).unwrap_or(ConstValue::Null),
        _ => ConstValue::Null,
    };
    match rows {
        ConstValue::List(items) => items,
        _ => Vec::new(),
    }
}

/// One CSV cell. Text a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return: OWASP's CSV injection) is written with a leading `'`,
/// which spreadsheets show as text; numbers written as text (`-5.00`) are left as they are.
fn cell(value: &ConstValue) -> String {
    match value {
        ConstValue::Null => String::new(),
        ConstValue::String(s) => neutralised(s),
        ConstValue::Enum(e) => e.to_string(),
        ConstValue::Number(n) => n.to_string(),
        ConstValue::Boolean(b) => b.to_string(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

fn neutralised(text: &str) -> String {
    let risky = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && text.trim().parse::<f64>().is_err() {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// Writes one page; the CSV header is written before the first row.
fn encode(
    format: Format,
    rows: &[ConstValue],
    header: &mut Option<Vec<String>>,
) -> Result<Bytes, AppError> {
    encode_page(format, rows, header).map(Bytes::from)
}

/// One page of rows as NDJSON lines or CSV records (the CSV header, from the first row's
/// keys, is written before the first row): the one encoder of the list exports and the
/// bulk exports.
pub fn encode_page(
    format: Format,
    rows: &[ConstValue],
    header: &mut Option<Vec<String>>,
) -> Result<Vec<u8>, AppError> {
    let mut out = Vec::with_capacity(rows.len() * 256);
    match format {
        Format::Ndjson => {
            for row in rows {
                serde_json::to_writer(&mut out, row).map_err(AppError::internal)?;
                out.push(b'\n');
            }
        }
        Format::Csv => {
            let mut writer = csv::Writer::from_writer(&mut out);
            for row in rows {
                let ConstValue::Object(obj) = row else {
                    continue;
                };
                let columns = match header {
                    Some(columns) => columns,
                    None => {
                        let columns: Vec<String> = obj.keys().map(|k| k.to_string()).collect();
                        writer.write_record(&columns).map_err(AppError::internal)?;
                        header.insert(columns)
                    }
                };
                let record: Vec<String> = columns
                    .iter()
                    .map(|c| obj.get(c.as_str()).map(cell).unwrap_or_default())
                    .collect();
                writer.write_record(&record).map_err(AppError::internal)?;
            }
            writer.flush().map_err(AppError::internal)?;
        }
    }
    Ok(out)
}

/// Answers a list route with every matching row in `format`. The first page runs before the
/// answer starts, so a bad request or a refused viewer still gets its error status; later
/// failures end the stream early (and are logged).
pub async fn stream(
    schema: AppSchema,
    pool: DbPool,
    route: Arc<CompiledRoute>,
    variables: Map<String, Value>,
    meta: RequestMeta,
    format: Format,
) -> Result<Response, AppError> {
    let Some(export) = route.route.export else {
        return Err(AppError::not_found("This list has no export"));
    };
    // An operation without paging variables answers every row at once: it runs once.
    let paged = !export.limit.is_empty();
    let page = move |offset: i64| {
        let mut vars = variables.clone();
        if paged {
            vars.insert(export.limit.to_string(), Value::from(export.page_size));
            vars.insert(export.offset.to_string(), Value::from(offset));
        }
        vars
    };
    let first = execute(
        &schema,
        Some(&pool),
        &route,
        page(0),
        meta.clone(),
        Vec::new(),
    )
    .await;
    let first_rows = rows_of(&route, shape(&route, first.data, &first.errors)?);
    let mut header = None;
    let first_chunk = encode(format, &first_rows, &mut header)?;
    let full_page = usize::try_from(export.page_size).unwrap_or(usize::MAX);

    // The file is named after the list (`/sales-journal/export` -> `sales-journal.csv`).
    let name = route
        .route
        .path
        .trim_end_matches('/')
        .rsplit('/')
        .find(|segment| *segment != "export" && !segment.is_empty())
        .unwrap_or("export")
        .to_string();
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let more = paged && first_rows.len() >= full_page;
    tokio::spawn(
        async move {
            if tx.send(first_chunk).await.is_err() || !more {
                return;
            }
            let mut offset = export.page_size;
            loop {
                let response = execute(
                    &schema,
                    Some(&pool),
                    &route,
                    page(offset),
                    meta.clone(),
                    Vec::new(),
                )
                .await;
                let rows = match shape(&route, response.data, &response.errors) {
                    Ok(value) => rows_of(&route, value),
                    Err(e) => {
                        tracing::warn!(error = %e.message, "export stopped early");
                        return;
                    }
                };
                let chunk = match encode(format, &rows, &mut header) {
                    Ok(chunk) => chunk,
                    Err(e) => {
                        tracing::warn!(error = %e.message, "export stopped early");
                        return;
                    }
                };
                if tx.send(chunk).await.is_err() || rows.len() < full_page {
                    return;
                }
                offset += export.page_size;
            }
        }
        .instrument(tracing::Span::current()),
    );
    let body = Body::from_stream(futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|chunk| (Ok::<_, std::convert::Infallible>(chunk), rx))
    }));
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    if let Ok(v) = HeaderValue::from_str(&super::download::content_disposition(&format!(
        "{name}.{}",
        format.extension()
    ))) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formulas_are_written_as_text_and_numbers_as_numbers() {
        for (given, written) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+cmd", "'+cmd"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-5.00", "-5.00"),
            ("Widget", "Widget"),
        ] {
            assert_eq!(super::neutralised(given), written, "{given}");
        }
    }
}
