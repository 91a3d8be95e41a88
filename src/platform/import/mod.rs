//! The one CSV engine of every import (items and customers now; orders, inventory and
//! materials later): how a file's bytes become records. UTF-8 with or without a byte-order
//! mark, else Windows-1252 (Excel's "CSV" on Windows, decoded by `encoding_rs`); `,`, `;` or
//! tab separators judged from the header line; headers compared in one loose form; rows
//! numbered by the file line they start on; a quote left open across lines and a NUL in a
//! cell are row errors.
//! Each import maps header aliases to its own columns and checks its own rules; preview and
//! import run the same code, and the import writes in one transaction.

use crate::platform::error::{AppError, FieldError};

/// The file as text: UTF-8 (a byte-order mark is dropped), else Windows-1252.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// The separator, judged by the header line: comma, semicolon (European spreadsheets) or
/// tab.
pub fn delimiter(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or_default();
    let count = |c: char| header.matches(c).count();
    let (commas, semis, tabs) = (count(','), count(';'), count('\t'));
    if tabs > commas && tabs >= semis {
        b'\t'
    } else if semis > commas {
        b';'
    } else {
        b','
    }
}

/// A header reduced to lower-case letters and digits: `E-mail` and `Email` read the same, as
/// do `First Name`, `first_name` and `FirstName`. Every import's alias table uses this form.
pub fn normalize_header(header: &str) -> String {
    header
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A CSV reader over decoded text with the sniffed separator, ragged rows allowed and
/// values trimmed.
pub fn reader(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .delimiter(delimiter(text))
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes())
}

/// File line numbers of records (1-based; the header is line 1), as an editor or a
/// spreadsheet shows them, also with CRLF, blank lines and quoted line breaks.
pub struct Lines<'t> {
    text: &'t [u8],
    /// Offsets of every `\n`.
    breaks: Vec<u64>,
}

impl<'t> Lines<'t> {
    /// The line index of a decoded file.
    pub fn of(text: &'t str) -> Lines<'t> {
        let breaks = text
            .bytes()
            .enumerate()
            .filter(|(_, b)| *b == b'\n')
            .map(|(i, _)| i as u64)
            .collect();
        Lines {
            text: text.as_bytes(),
            breaks,
        }
    }

    /// The line a record starts on (blank lines before it skipped, as the reader skips
    /// them); `fallback` when the record has no position.
    pub fn line_of(&self, record: &csv::StringRecord, fallback: i64) -> i64 {
        record
            .position()
            .map_or(fallback, |p| self.line_at(p.byte()))
    }

    /// The line of the record starting at byte offset `byte`.
    pub fn line_at(&self, byte: u64) -> i64 {
        let mut at = byte;
        while usize::try_from(at)
            .ok()
            .and_then(|i| self.text.get(i))
            .is_some_and(|b| matches!(b, b'\r' | b'\n'))
        {
            at += 1;
        }
        let before = self.breaks.partition_point(|&b| b < at);
        i64::try_from(before).unwrap_or(i64::MAX - 1) + 1
    }
}

/// True when a value that can never hold a line break does: the sign of a quote left open,
/// which swallowed the following lines into this value.
pub fn spans_lines(value: &str) -> bool {
    value.contains(['\n', '\r'])
}

/// The row error for [`spans_lines`].
pub const OPEN_QUOTE: &str =
    "A quote is left open here, so this value runs into the following lines; close the quote";

/// The row error for a NUL character in a cell (see [`nul_columns`]).
pub const NUL_CELL: &str =
    "Contains a NUL character, which no text can hold; the file may be damaged or not a CSV file";

/// The columns of a record whose value holds a NUL character, each named by its header as
/// the file writes it (`column N` when it has none). No text column can store a NUL
/// (PostgreSQL refuses it), so every import makes such a row a row error ([`NUL_CELL`]) before
/// any other check or any database look-up: the row is never written and the rest of the
/// file goes on.
pub fn nul_columns(headers: &[String], record: &csv::StringRecord) -> Vec<String> {
    record
        .iter()
        .enumerate()
        .filter(|(_, value)| value.contains('\0'))
        .map(|(i, _)| {
            let header: String = headers
                .get(i)
                .map(|h| h.trim().chars().filter(|c| !c.is_control()).collect())
                .unwrap_or_default();
            if header.is_empty() {
                format!("column {}", i + 1)
            } else {
                header
            }
        })
        .collect()
}

/// A CSV file read through the engine: decoded, its separator judged and its header row
/// read. The one driver of the imports' row loops ([`CsvFile::rows`]).
pub struct CsvFile {
    text: String,
    headers: Vec<String>,
}

/// One row of a [`CsvFile`] that is not blank, with the file line it starts on.
pub enum CsvRow {
    /// A row the reader could read.
    Record {
        /// Its file line.
        line: i64,
        /// Its values, trimmed.
        record: csv::StringRecord,
    },
    /// A row the reader could not read (`Unreadable row: {error}` in the imports).
    Unreadable {
        /// Its file line, as far as it is known (its position among the rows otherwise).
        line: i64,
        /// Why.
        error: csv::Error,
    },
}

impl CsvFile {
    /// Decodes a file and reads its header row: a 422 on `file` when it cannot be read.
    pub fn read(bytes: &[u8]) -> Result<CsvFile, AppError> {
        let text = decode(bytes);
        let headers = reader(&text)
            .headers()
            .map_err(|e| file_error(format!("Not a readable CSV file: {e}")))?
            .iter()
            .map(str::to_string)
            .collect();
        Ok(CsvFile { text, headers })
    }

    /// The header row as the file writes it.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// Every row after the header that is not blank, in file order, numbered by the file
    /// line it starts on.
    pub fn rows(&self) -> impl Iterator<Item = CsvRow> + '_ {
        let lines = Lines::of(&self.text);
        let mut reader = reader(&self.text);
        // The header row was read by `read`; reading it again moves past it.
        let _ = reader.headers();
        reader
            .into_records()
            .enumerate()
            .filter_map(move |(i, record)| {
                let fallback = i as i64 + 2;
                match record {
                    Ok(record) if record.iter().all(|v| v.trim().is_empty()) => None,
                    Ok(record) => Some(CsvRow::Record {
                        line: lines.line_of(&record, fallback),
                        record,
                    }),
                    Err(error) => Some(CsvRow::Unreadable {
                        line: fallback,
                        error,
                    }),
                }
            })
    }
}

/// A 422 on `file` (unreadable file, missing columns...).
pub fn file_error(message: impl Into<String>) -> AppError {
    AppError::validation(vec![FieldError::new("file", message)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_1252_semicolons_and_open_quotes() {
        let text = decode(b"SKU;Name\r\nA-1;Caf\xe9 \x80\r\n");
        assert_eq!(text, "SKU;Name\r\nA-1;Café €\r\n");
        assert_eq!(delimiter(&text), b';');
        assert_eq!(decode(b"\xEF\xBB\xBFsku\n"), "sku\n");
        assert_eq!(delimiter("a\tb\tc\n"), b'\t');
        let mut r = reader("sku,name\nA-1,\"Open\nB-2,Two\n");
        let records: Vec<_> = r.records().filter_map(Result::ok).collect();
        assert_eq!(records.len(), 1);
        assert!(spans_lines(&records[0][1]));
        assert_eq!(
            Lines::of("sku,name\nA-1,\"Open\nB-2,Two\n").line_of(&records[0], 0),
            2
        );
        assert_eq!(normalize_header("E-mail Address"), "emailaddress");
    }

    #[test]
    fn cells_with_a_nul_are_named_by_their_header() {
        let mut r = reader("SKU,Name,\nA\u{0}1,ok,x\u{0},\u{0}\nB-1,fine,,\n");
        let headers: Vec<String> = r
            .headers()
            .map(|h| h.iter().map(str::to_string).collect())
            .unwrap_or_default();
        let records: Vec<_> = r.records().filter_map(Result::ok).collect();
        assert_eq!(
            nul_columns(&headers, &records[0]),
            ["SKU", "column 3", "column 4"]
        );
        assert!(nul_columns(&headers, &records[1]).is_empty());
    }
}
