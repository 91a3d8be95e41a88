//! Printer CSV import (CONTRACT 5.13 `POST /printers/import-csv`, admins) through the shared
//! CSV engine (`crate::platform::import`: encoding, separator, loose headers, file line numbers, open
//! quotes and NUL cells as row errors). Columns: code, name, model, brand, serial number,
//! IP address, location, notes. Every row is checked with the printers' own rules
//! (`rules::check_fields`); rows with errors and codes that exist already (or repeat in the
//! file) are reported by file line and skipped; the valid rows are written in ONE statement
//! inside one transaction.

use crate::platform::import::CsvRow;
use std::collections::{HashMap, HashSet};

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::operations::printers::model::{PrinterBrand, PrinterForm};
use crate::operations::printers::rules;
use crate::platform::db::schema::printers;
use crate::platform::db::text::{normalize_code, upper};
use crate::platform::error::{AppError, AppResult};

/// Row problems listed in a report.
const MAX_ERRORS: usize = 200;

/// One problem with one row.
#[derive(Debug, Clone, PartialEq, Eq, SimpleObject)]
pub struct PrinterImportError {
    /// The row's line in the file (the header is line 1).
    pub row: i64,
    /// The column at fault, when one is (snake_case).
    pub field: Option<String>,
    /// What is wrong.
    pub reason: String,
}

/// What a printer import did.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PrinterImportReport {
    /// Printers created.
    pub created: i64,
    /// Rows not imported (errors and codes that exist already).
    pub skipped: i64,
    /// Why rows were skipped (the first 200).
    pub errors: Vec<PrinterImportError>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Col {
    Code,
    Name,
    Model,
    Brand,
    Serial,
    Ip,
    Location,
    Notes,
}

/// The column a header names (compared in the engine's loose form).
fn column(header: &str) -> Option<Col> {
    Some(
        match crate::platform::import::normalize_header(header).as_str() {
            "code" | "printercode" => Col::Code,
            "name" | "printername" => Col::Name,
            "model" | "printermodel" => Col::Model,
            "brand" | "make" | "manufacturer" => Col::Brand,
            "serialnumber" | "serial" | "serialno" | "sn" => Col::Serial,
            "ipaddress" | "ip" | "address" | "host" | "hostname" => Col::Ip,
            "location" => Col::Location,
            "notes" | "note" | "comments" => Col::Notes,
            _ => return None,
        },
    )
}

/// A brand as people write it (`Bambu Lab`, `bambu`, `Prusa Research`); blank is generic.
pub fn parse_brand(raw: &str) -> Result<PrinterBrand, String> {
    Ok(
        match crate::platform::import::normalize_header(raw).as_str() {
            "" | "generic" | "other" => PrinterBrand::Generic,
            "bambulab" | "bambu" => PrinterBrand::Bambulab,
            "klipper" | "moonraker" | "mainsail" | "fluidd" => PrinterBrand::Klipper,
            "octoprint" => PrinterBrand::Octoprint,
            "prusa" | "prusaresearch" | "prusalink" => PrinterBrand::Prusa,
            "creality" => PrinterBrand::Creality,
            _ => {
                return Err(format!(
                    "'{raw}' is not a brand (bambulab, klipper, octoprint, prusa, creality, generic)"
                ));
            }
        },
    )
}

fn push(report: &mut PrinterImportReport, row: i64, field: Option<String>, reason: String) {
    if report.errors.len() < MAX_ERRORS {
        report
            .errors
            .push(PrinterImportError { row, field, reason });
    }
}

/// Imports a CSV of printers. A file the engine cannot read, or without code, name and
/// model columns, is a 422 on `file`.
pub async fn import_printers(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
) -> AppResult<PrinterImportReport> {
    let file = crate::platform::import::CsvFile::read(bytes)?;
    let headers = file.headers();
    let mapping: Vec<Option<Col>> = headers.iter().map(|h| column(h)).collect();
    let missing: Vec<&str> = [
        (Col::Code, "code"),
        (Col::Name, "name"),
        (Col::Model, "model"),
    ]
    .iter()
    .filter(|(c, _)| !mapping.contains(&Some(*c)))
    .map(|(_, n)| *n)
    .collect();
    if !missing.is_empty() {
        return Err(crate::platform::import::file_error(format!(
            "The file needs the columns code, name and model (missing: {})",
            missing.join(", ")
        )));
    }

    let mut report = PrinterImportReport::default();
    let mut valid: Vec<(i64, PrinterForm)> = Vec::new();
    let mut in_file: HashSet<String> = HashSet::new();
    for row in file.rows() {
        let (row, read) = match row {
            CsvRow::Record { line, record } => {
                (line, read_row(headers, &mapping, &mut in_file, &record))
            }
            CsvRow::Unreadable {
                line: row,
                error: e,
            } => (row, Err(vec![(None, format!("Unreadable row: {e}"))])),
        };
        match read {
            Ok(form) => valid.push((row, form)),
            Err(errors) => {
                report.skipped += 1;
                for (field, reason) in errors {
                    push(&mut report, row, field, reason);
                }
            }
        }
    }

    conn.transaction::<_, AppError, _>(async |conn| write_new(conn, valid, &mut report).await)
        .await?;
    report.errors.sort_by_key(|e| e.row);
    Ok(report)
}

/// A row's problems in order: the column at fault (snake_case, when one is) and what is
/// wrong.
type RowErrors = Vec<(Option<String>, String)>;

/// Reads and checks one row with the printers' own rules: the printer to create, or the
/// row's problems. A code already met in the file is refused.
fn read_row(
    headers: &[String],
    mapping: &[Option<Col>],
    in_file: &mut HashSet<String>,
    record: &csv::StringRecord,
) -> Result<PrinterForm, RowErrors> {
    let nul = crate::platform::import::nul_columns(headers, record);
    if !nul.is_empty() {
        return Err(nul
            .into_iter()
            .map(|column| (Some(column), crate::platform::import::NUL_CELL.into()))
            .collect());
    }
    let mut fields: HashMap<Col, String> = HashMap::new();
    for (value, col) in record.iter().zip(mapping) {
        if let Some(c) = col {
            fields.entry(*c).or_insert_with(|| value.trim().to_string());
        }
    }
    let get = |c: Col| fields.get(&c).cloned();
    if [Col::Code, Col::Name, Col::Model]
        .iter()
        .any(|c| get(*c).is_some_and(|v| crate::platform::import::spans_lines(&v)))
    {
        return Err(vec![(None, crate::platform::import::OPEN_QUOTE.into())]);
    }
    let mut errors: RowErrors = Vec::new();
    let brand = match parse_brand(&get(Col::Brand).unwrap_or_default()) {
        Ok(b) => Some(b),
        Err(e) => {
            errors.push((Some("brand".into()), e));
            None
        }
    };
    let clear = |c: Col| Some(get(c));
    let mut form = PrinterForm {
        code: get(Col::Code).filter(|v| !v.is_empty()),
        name: get(Col::Name).filter(|v| !v.is_empty()),
        model: get(Col::Model).filter(|v| !v.is_empty()),
        brand,
        serial_number: clear(Col::Serial),
        ip_address: clear(Col::Ip),
        location: clear(Col::Location),
        notes: clear(Col::Notes),
        ..Default::default()
    };
    // The same rules as a printer made by hand.
    for e in rules::check_fields(&mut form, true) {
        let field = e
            .field
            .as_deref()
            .map(crate::platform::rest::types::snake_case);
        let reason = match &field {
            Some(f) => format!("{f}: {}", e.message),
            None => e.message,
        };
        errors.push((field, reason));
    }
    if errors.is_empty()
        && let Some(code) = &form.code
        && !in_file.insert(normalize_code(code))
    {
        errors.push((
            Some("code".into()),
            format!("Printer code '{code}' appears more than once in the file"),
        ));
    }
    if errors.is_empty() {
        Ok(form)
    } else {
        Err(errors)
    }
}

/// Creates the valid printers whose code does not exist yet (any case) in one statement;
/// the others are reported.
async fn write_new(
    conn: &mut AsyncPgConnection,
    valid: Vec<(i64, PrinterForm)>,
    report: &mut PrinterImportReport,
) -> AppResult<()> {
    // Codes that exist already (any case): reported, not created.
    let codes: Vec<String> = valid
        .iter()
        .filter_map(|(_, f)| f.code.as_deref().map(normalize_code))
        .collect();
    let taken: HashSet<String> = printers::table
        .filter(upper(printers::code).eq_any(&codes))
        .select(printers::code)
        .load::<String>(conn)
        .await?
        .into_iter()
        .map(|c| normalize_code(&c))
        .collect();
    let mut forms = Vec::new();
    for (row, form) in valid {
        let code = form.code.clone().unwrap_or_default();
        if taken.contains(&normalize_code(&code)) {
            report.skipped += 1;
            push(
                report,
                row,
                Some("code".into()),
                format!("Printer code '{code}' already exists"),
            );
        } else {
            forms.push(form);
        }
    }
    if !forms.is_empty() {
        let n = diesel::insert_into(printers::table)
            .values(&forms)
            .execute(conn)
            .await?;
        report.created = i64::try_from(n).unwrap_or(i64::MAX);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brands_and_headers_are_read_loosely() {
        assert_eq!(parse_brand("Bambu Lab"), Ok(PrinterBrand::Bambulab));
        assert_eq!(parse_brand(""), Ok(PrinterBrand::Generic));
        assert_eq!(parse_brand("Prusa Research"), Ok(PrinterBrand::Prusa));
        assert!(parse_brand("makerbot").is_err());
        assert_eq!(column("Serial Number"), Some(Col::Serial));
        assert_eq!(column("IP-Address"), Some(Col::Ip));
        assert_eq!(column("colour"), None);
        assert_eq!(
            crate::platform::rest::types::snake_case("serialNumber"),
            "serial_number"
        );
    }
}
