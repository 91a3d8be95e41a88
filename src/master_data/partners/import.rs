//! Customer CSV import (CONTRACT 5.5 "Import", onboarding step 4).
//!
//! A file from a spreadsheet or a shop (the template, Shopify, WooCommerce, Squarespace,
//! Etsy or Amazon exports) is read with its header aliases: a UTF-8 byte-order mark is
//! dropped, Windows-1252 files are understood, and semicolon- or tab-separated files too.
//! Every row is checked with the same rules as a customer created by hand
//! ([`customer::new_form`]); e-mails already known, in the database or earlier in the
//! file, are refused row by row. Then, unless it is a dry run, every valid row is inserted in
//! ONE transaction with multi-row inserts. So the outcome is always exact: each row is either
//! imported or listed in `errors` with its line and reason, and if the database fails
//! half-way nothing at all is imported and the call fails.

use std::collections::{HashMap, HashSet};

use async_graphql::Json;
use diesel_async::{AsyncConnection, AsyncPgConnection};

use crate::master_data::catalog::import::{ImportPreviewRow, ImportReport, ImportRowError};
use crate::master_data::partners::customer::{self, CustomerCreateInput, CustomerStatus};
use crate::master_data::partners::model::{self, CustomerForm};
use crate::platform::db::forms::given;
use crate::platform::error::{AppError, AppResult, FieldError};

/// Largest number of data rows in one file.
pub const MAX_ROWS: usize = 50_000;
/// Rows shown in a preview.
pub const PREVIEW_ROWS: usize = 100;
/// Row problems listed in a report.
pub const MAX_ERRORS: usize = 200;
/// Rows per INSERT statement (20 columns each, far below PostgreSQL's 65,535 parameters).
const INSERT_CHUNK: usize = 1_000;
/// E-mails per duplicate look-up.
const LOOKUP_CHUNK: usize = 5_000;

/// Where a file came from, judged by its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportFormat {
    /// Strata's template or any file with ordinary column names.
    Generic,
    /// A Shopify customers export.
    Shopify,
    /// A WooCommerce customers export.
    Woocommerce,
    /// A Squarespace orders export (one customer per e-mail).
    Squarespace,
    /// An Etsy orders export (one customer per e-mail).
    Etsy,
    /// An Amazon (Business) orders report.
    Amazon,
}

impl ImportFormat {
    /// The name reported as `detected_format` (the generic format is `strata`, as for the
    /// product import).
    pub fn as_str(self) -> &'static str {
        match self {
            ImportFormat::Generic => "strata",
            ImportFormat::Shopify => "shopify",
            ImportFormat::Woocommerce => "woocommerce",
            ImportFormat::Squarespace => "squarespace",
            ImportFormat::Etsy => "etsy",
            ImportFormat::Amazon => "amazon",
        }
    }
}

/// The values read from one row, as they would be stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportData {
    /// E-mail (lower-cased).
    pub email: Option<String>,
    /// Given name.
    pub first_name: Option<String>,
    /// Family name.
    pub last_name: Option<String>,
    /// Company.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Billing street address.
    pub billing_address_line1: Option<String>,
    /// Billing second line.
    pub billing_address_line2: Option<String>,
    /// Billing city.
    pub billing_city: Option<String>,
    /// Billing state.
    pub billing_state: Option<String>,
    /// Billing postal code.
    pub billing_zip: Option<String>,
    /// Billing country.
    pub billing_country: Option<String>,
    /// Shipping street address.
    pub shipping_address_line1: Option<String>,
    /// Shipping second line.
    pub shipping_address_line2: Option<String>,
    /// Shipping city.
    pub shipping_city: Option<String>,
    /// Shipping state.
    pub shipping_state: Option<String>,
    /// Shipping postal code.
    pub shipping_zip: Option<String>,
    /// Shipping country.
    pub shipping_country: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Status (active unless the file says otherwise).
    pub status: Option<String>,
}

/// One problem with one row: the REST field name (snake_case) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    /// The field at fault (`email`, `first_name`...), empty for the whole row.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl RowProblem {
    fn new(field: &str, message: impl Into<String>) -> RowProblem {
        RowProblem {
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// `field: message`.
    pub fn text(&self) -> String {
        if self.field.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.field, self.message)
        }
    }
}

/// One data row and what became of it.
#[derive(Debug, Clone)]
pub struct ImportRow {
    /// The line of the file where the row starts (the header is line 1).
    pub row_number: i64,
    /// What was read.
    pub data: ImportData,
    /// Why it cannot be imported; empty for a valid row.
    pub errors: Vec<RowProblem>,
    /// True once it is in the database.
    pub imported: bool,
    new: Option<CustomerForm>,
}

impl ImportRow {
    /// True when nothing is wrong with the row.
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    fn refuse(&mut self, problem: RowProblem) {
        self.new = None;
        self.errors.push(problem);
    }
}

/// A file as read and checked.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The kind of file.
    pub format: ImportFormat,
    /// Every data row, in file order (blank lines are not rows).
    pub rows: Vec<ImportRow>,
}

impl ParsedFile {
    /// Rows without problems.
    pub fn valid_rows(&self) -> usize {
        self.rows.iter().filter(|r| r.valid()).count()
    }

    /// Rows written to the database.
    pub fn imported(&self) -> usize {
        self.rows.iter().filter(|r| r.imported).count()
    }

    /// The shared import report (the REST shape of CONTRACT 5.5).
    pub fn report(&self, applied: bool) -> ImportReport {
        let total = self.rows.len();
        let valid = self.valid_rows();
        let imported = self.imported();
        let mut errors = Vec::new();
        let mut unlisted = 0usize;
        for row in self.rows.iter().filter(|r| !r.valid()) {
            for p in &row.errors {
                if errors.len() < MAX_ERRORS {
                    errors.push(ImportRowError {
                        row: row.row_number,
                        field: (!p.field.is_empty()).then(|| p.field.clone()),
                        reason: p.message.clone(),
                    });
                } else {
                    unlisted += 1;
                }
            }
        }
        let mut warnings = Vec::new();
        if unlisted > 0 {
            warnings.push(format!(
                "{unlisted} more row problems are not listed; fix the ones shown and check the file again"
            ));
        }
        let rows = self
            .rows
            .iter()
            .take(PREVIEW_ROWS)
            .map(|r| ImportPreviewRow {
                row_number: r.row_number,
                data: Json(serde_json::to_value(&r.data).unwrap_or_default()),
                errors: r.errors.iter().map(RowProblem::text).collect(),
                valid: r.valid(),
            })
            .collect();
        let skipped = if applied {
            total - imported
        } else {
            total - valid
        };
        let message = if !applied {
            format!("{valid} of {total} rows can be imported")
        } else if skipped == 0 {
            format!("Imported {imported} customers")
        } else {
            format!(
                "Imported {imported} customers; skipped {skipped} rows (listed in errors; nothing else was changed)"
            )
        };
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        ImportReport {
            total_rows: count(total),
            valid_rows: count(valid),
            error_rows: count(total - valid),
            created: count(if applied { imported } else { valid }),
            updated: 0,
            skipped: count(skipped),
            errors,
            warnings,
            rows,
            truncated: total > PREVIEW_ROWS,
            detected_format: self.format.as_str().to_string(),
            applied,
            message,
        }
    }
}

/// The template offered for download: every column the generic format reads, and one
/// example row.
pub fn template() -> String {
    let mut out = String::new();
    out.push_str(
        "email,first_name,last_name,company_name,phone,\
         shipping_address_line1,shipping_address_line2,shipping_city,shipping_state,shipping_zip,shipping_country,\
         billing_address_line1,billing_address_line2,billing_city,billing_state,billing_zip,billing_country,\
         notes\r\n",
    );
    out.push_str(
        "jane.doe@example.com,Jane,Doe,Doe Designs,555-0100,\
         123 Main St,Suite 4,Springfield,IL,62701,USA,\
         123 Main St,Suite 4,Springfield,IL,62701,USA,\
         Prefers PETG\r\n",
    );
    out
}

fn file_error(message: impl Into<String>) -> AppError {
    AppError::validation(vec![
        FieldError::new("file", message).with_kind("value_error"),
    ])
}

// ------------------------------------------------------------------------ reading text

pub use crate::platform::import::decode;
use crate::platform::import::normalize_header as compact;

// ----------------------------------------------------------------------- header aliases

/// What a column can mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Target {
    Email,
    FirstName,
    LastName,
    FullName,
    Company,
    Phone,
    Notes,
    Status,
    Line1,
    Line2,
    City,
    State,
    Zip,
    Country,
    BillingLine1,
    BillingLine2,
    BillingCity,
    BillingState,
    BillingZip,
    BillingCountry,
    ShippingLine1,
    ShippingLine2,
    ShippingCity,
    ShippingState,
    ShippingZip,
    ShippingCountry,
}

/// Each target's header spellings (compacted), best first: when a file has several, the
/// first one present is used.
const ALIASES: &[(Target, &[&str])] = &[
    (
        Target::Email,
        &[
            "email",
            "emailaddress",
            "customeremail",
            "buyeremail",
            "billingemail",
            "contactemail",
            "mail",
        ],
    ),
    (
        Target::FirstName,
        &[
            "firstname",
            "givenname",
            "first",
            "fname",
            "forename",
            "customerfirstname",
            "billingfirstname",
            "defaultaddressfirstname",
            "shippingfirstname",
        ],
    ),
    (
        Target::LastName,
        &[
            "lastname",
            "surname",
            "familyname",
            "last",
            "lname",
            "customerlastname",
            "billinglastname",
            "defaultaddresslastname",
            "shippinglastname",
        ],
    ),
    (
        Target::FullName,
        &[
            "fullname",
            "customername",
            "buyername",
            "billingname",
            "shippingname",
            "shipname",
            "shiptoname",
            "recipientname",
            "contactname",
            "name",
        ],
    ),
    (
        Target::Company,
        &[
            "companyname",
            "company",
            "organization",
            "organisation",
            "businessname",
            "business",
            "billingcompany",
            "defaultaddresscompany",
            "shippingcompany",
        ],
    ),
    (
        Target::Phone,
        &[
            "phone",
            "phonenumber",
            "telephone",
            "tel",
            "mobile",
            "mobilephone",
            "cellphone",
            "billingphone",
            "defaultaddressphone",
            "shippingphone",
            "shipphonenumber",
            "shipphone",
            "buyerphone",
            "shiptophone",
        ],
    ),
    (Target::Notes, &["notes", "note", "comments", "comment"]),
    (Target::Status, &["status", "customerstatus"]),
    (
        Target::Line1,
        &[
            "addressline1",
            "address1",
            "address",
            "streetaddress",
            "streetaddress1",
            "street",
            "defaultaddressaddress1",
        ],
    ),
    (
        Target::Line2,
        &[
            "addressline2",
            "address2",
            "streetaddress2",
            "defaultaddressaddress2",
            "apartment",
            "suite",
        ],
    ),
    (Target::City, &["city", "town", "defaultaddresscity"]),
    (
        Target::State,
        &[
            "state",
            "province",
            "provincecode",
            "statecode",
            "stateprovince",
            "region",
            "county",
            "defaultaddressprovincecode",
            "defaultaddressprovince",
        ],
    ),
    (
        Target::Zip,
        &[
            "postalcode",
            "zip",
            "zipcode",
            "postcode",
            "postal",
            "defaultaddresszip",
        ],
    ),
    (
        Target::Country,
        &[
            "country",
            "countrycode",
            "defaultaddresscountrycode",
            "defaultaddresscountry",
        ],
    ),
    (
        Target::BillingLine1,
        &[
            "billingaddressline1",
            "billingaddress1",
            "billingaddress",
            "billingstreet",
            "billingstreetaddress",
        ],
    ),
    (
        Target::BillingLine2,
        &["billingaddressline2", "billingaddress2"],
    ),
    (Target::BillingCity, &["billingcity"]),
    (
        Target::BillingState,
        &[
            "billingstate",
            "billingprovince",
            "billingprovincecode",
            "billingstatecode",
        ],
    ),
    (
        Target::BillingZip,
        &[
            "billingzip",
            "billingpostcode",
            "billingpostalcode",
            "billingzipcode",
        ],
    ),
    (
        Target::BillingCountry,
        &["billingcountry", "billingcountrycode"],
    ),
    (
        Target::ShippingLine1,
        &[
            "shippingaddressline1",
            "shippingaddress1",
            "shippingaddress",
            "shippingstreet",
            "shipaddress1",
            "shipaddress",
            "shiptoaddress",
            "shiptoaddress1",
        ],
    ),
    (
        Target::ShippingLine2,
        &[
            "shippingaddressline2",
            "shippingaddress2",
            "shipaddress2",
            "shiptoaddress2",
        ],
    ),
    (
        Target::ShippingCity,
        &["shippingcity", "shipcity", "shiptocity"],
    ),
    (
        Target::ShippingState,
        &[
            "shippingstate",
            "shippingprovince",
            "shippingprovincecode",
            "shippingstatecode",
            "shipstate",
            "shiptostate",
        ],
    ),
    (
        Target::ShippingZip,
        &[
            "shippingzip",
            "shippingpostcode",
            "shippingpostalcode",
            "shippingzipcode",
            "shipzipcode",
            "shipzip",
            "shippostalcode",
            "shiptozip",
            "shiptopostalcode",
        ],
    ),
    (
        Target::ShippingCountry,
        &[
            "shippingcountry",
            "shippingcountrycode",
            "shipcountry",
            "shiptocountry",
        ],
    ),
];

/// Which column (index) holds each target.
#[derive(Debug, Default)]
struct Columns(HashMap<Target, usize>);

impl Columns {
    fn from_headers(headers: &[String]) -> Columns {
        let mut map = HashMap::new();
        for (target, aliases) in ALIASES {
            if let Some(i) = aliases
                .iter()
                .find_map(|a| headers.iter().position(|h| h == a))
            {
                map.insert(*target, i);
            }
        }
        Columns(map)
    }

    fn has(&self, t: Target) -> bool {
        self.0.contains_key(&t)
    }

    fn get<'r>(&self, record: &'r csv::StringRecord, t: Target) -> Option<&'r str> {
        self.0
            .get(&t)
            .and_then(|&i| record.get(i))
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
}

/// Judges the source of a file by its (compacted) headers.
fn detect(headers: &[String]) -> ImportFormat {
    let has = |h: &str| headers.iter().any(|x| x == h);
    if has("acceptsemailmarketing")
        || has("acceptsmarketing")
        || has("defaultaddressaddress1")
        || has("taxexempt")
        || (has("totalorders") && has("totalspent"))
    {
        ImportFormat::Shopify
    } else if has("billingfirstname") && (has("billingaddress1") || has("billingpostcode")) {
        ImportFormat::Woocommerce
    } else if has("shiptoaddress") || has("shiptocity") || has("shiptozip") {
        ImportFormat::Amazon
    } else if has("buyeremail") || has("shipzipcode") || (has("shipname") && has("shipaddress1")) {
        ImportFormat::Etsy
    } else if has("shippingname") {
        ImportFormat::Squarespace
    } else {
        ImportFormat::Generic
    }
}

// ------------------------------------------------------------------------------ parsing

use crate::platform::import::Lines;

/// Reads and checks a file without touching the database: the report's rows carry every
/// problem that can be seen in the file itself (duplicates within the file included).
/// File-level problems (no e-mail or name column, too many rows) are a 422 on `file`.
pub fn parse(bytes: &[u8]) -> AppResult<ParsedFile> {
    let text = decode(bytes);
    if text.trim().is_empty() {
        return Err(file_error("The file is empty"));
    }
    let mut reader = crate::platform::import::reader(&text);
    let written: Vec<String> = reader
        .headers()
        .map_err(|e| file_error(format!("The header row cannot be read: {e}")))?
        .iter()
        .map(str::to_string)
        .collect();
    let headers: Vec<String> = written.iter().map(|h| compact(h)).collect();
    let columns = Columns::from_headers(&headers);
    if !columns.has(Target::Email) {
        return Err(file_error(
            "The file has no e-mail column (expected a header such as email, E-mail or Email Address)",
        ));
    }
    let names = columns.has(Target::FullName)
        || (columns.has(Target::FirstName) && columns.has(Target::LastName));
    if !names {
        return Err(file_error(
            "The file has no name columns (expected first_name and last_name, or a full name column such as Name)",
        ));
    }
    let format = detect(&headers);
    let lines = Lines::of(&text);
    let mut rows = Vec::new();
    let mut first_seen: HashMap<String, i64> = HashMap::new();
    for result in reader.records() {
        let record = match result {
            Ok(r) => r,
            Err(e) => {
                let line = e
                    .position()
                    .map(|p| lines.line_at(p.byte()))
                    .unwrap_or_default();
                rows.push(ImportRow {
                    row_number: line,
                    data: ImportData::default(),
                    errors: vec![RowProblem::new("", format!("The row cannot be read: {e}"))],
                    imported: false,
                    new: None,
                });
                continue;
            }
        };
        if record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        if rows.len() == MAX_ROWS {
            return Err(file_error(format!(
                "The file has more than {MAX_ROWS} rows; split it into smaller files"
            )));
        }
        let line = record
            .position()
            .map(|p| lines.line_at(p.byte()))
            .unwrap_or_default();
        // A NUL cannot be stored or looked up: the row is refused before anything else.
        let nul = crate::platform::import::nul_columns(&written, &record);
        if !nul.is_empty() {
            rows.push(ImportRow {
                row_number: line,
                data: ImportData::default(),
                errors: nul
                    .iter()
                    .map(|column| RowProblem::new(column, crate::platform::import::NUL_CELL))
                    .collect(),
                imported: false,
                new: None,
            });
            continue;
        }
        let mut row = read_row(&columns, &record, line);
        if let Some(new) = &row.new {
            match first_seen.get(email_of(new)) {
                Some(first) => row.refuse(RowProblem::new(
                    "email",
                    format!("Duplicate of row {first} in this file (one customer per e-mail)"),
                )),
                None => {
                    first_seen.insert(email_of(new).to_string(), row.row_number);
                }
            }
        }
        rows.push(row);
    }
    Ok(ParsedFile { format, rows })
}

fn read_row(columns: &Columns, record: &csv::StringRecord, row_number: i64) -> ImportRow {
    let mut errors = Vec::new();
    let person = read_person(columns, record, &mut errors);
    let checked = customer::new_form(customer_input(columns, record, &person));
    if let Err(problems) = &checked {
        form_problems(problems, &person, &mut errors);
    }
    let data = match &checked {
        Ok(new) => data_of(new),
        Err(_) => data_as_read(columns, record, person),
    };
    let new = match checked {
        Ok(new) if errors.is_empty() => Some(new),
        _ => None,
    };
    ImportRow {
        row_number,
        data,
        errors,
        imported: false,
        new,
    }
}

/// Who a row is: e-mail, names, phone and status, as the file gives them.
struct Person {
    email: Option<String>,
    first: Option<String>,
    last: Option<String>,
    phone: Option<String>,
    status: Option<CustomerStatus>,
}

/// Reads who a row is (a full name split when the first or last name is missing) and notes
/// an unknown status and a missing e-mail or name in `errors`.
fn read_person(
    columns: &Columns,
    record: &csv::StringRecord,
    errors: &mut Vec<RowProblem>,
) -> Person {
    let get = |t: Target| columns.get(record, t).map(str::to_string);
    let (mut first, mut last) = (get(Target::FirstName), get(Target::LastName));
    if (first.is_none() || last.is_none())
        && let Some(full) = get(Target::FullName)
    {
        let mut parts = full.splitn(2, char::is_whitespace);
        let given = parts.next().map(str::trim).filter(|s| !s.is_empty());
        let family = parts.next().map(str::trim).filter(|s| !s.is_empty());
        if first.is_none() && last.is_none() {
            first = given.map(str::to_string);
            last = family.map(str::to_string);
        } else if first.is_none() {
            first = Some(full.clone());
        } else {
            last = Some(full.clone());
        }
    }
    // Spreadsheets keep a leading "+" by prefixing an apostrophe.
    let phone = get(Target::Phone).map(|p| p.trim_start_matches('\'').to_string());
    let status = match get(Target::Status) {
        None => None,
        Some(s) => match s.to_ascii_lowercase().parse::<CustomerStatus>() {
            Ok(status) => Some(status),
            Err(_) => {
                errors.push(RowProblem::new(
                    "status",
                    "Input should be 'active', 'inactive' or 'suspended'",
                ));
                None
            }
        },
    };
    let email = get(Target::Email);
    for (value, field) in [
        (&email, "email"),
        (&first, "first_name"),
        (&last, "last_name"),
    ] {
        if value.is_none() {
            errors.push(RowProblem::new(field, "Field required"));
        }
    }
    Person {
        email,
        first,
        last,
        phone,
        status,
    }
}

/// The customer a row describes, to be checked by the customers' own rules.
fn customer_input(
    columns: &Columns,
    record: &csv::StringRecord,
    p: &Person,
) -> CustomerCreateInput {
    let get = |t: Target| columns.get(record, t).map(str::to_string);
    CustomerCreateInput {
        customer_number: None,
        email: p.email.clone().unwrap_or_default(),
        first_name: p.first.clone().unwrap_or_default(),
        last_name: p.last.clone().unwrap_or_default(),
        company_name: get(Target::Company),
        phone: p.phone.clone(),
        status: p.status,
        billing_address_line1: get(Target::BillingLine1),
        billing_address_line2: get(Target::BillingLine2),
        billing_city: get(Target::BillingCity),
        billing_state: get(Target::BillingState),
        billing_zip: get(Target::BillingZip),
        billing_country: get(Target::BillingCountry),
        shipping_address_line1: get(Target::ShippingLine1),
        shipping_address_line2: get(Target::ShippingLine2),
        shipping_city: get(Target::ShippingCity),
        shipping_state: get(Target::ShippingState),
        shipping_zip: get(Target::ShippingZip),
        shipping_country: get(Target::ShippingCountry),
        notes: get(Target::Notes),
        address_line1: given(get(Target::Line1)),
        address_line2: given(get(Target::Line2)),
        city: given(get(Target::City)),
        state: given(get(Target::State)),
        postal_code: given(get(Target::Zip)),
        country: given(get(Target::Country)),
        // Terms and credit are an admin's decision, never taken from a file.
        ..CustomerCreateInput::default()
    }
}

/// Notes the customer rules' problems in `errors` by snake_case field, except "required"
/// ones already noted for a missing e-mail or name.
fn form_problems(
    problems: &[crate::platform::graphql::user_error::UserError],
    p: &Person,
    errors: &mut Vec<RowProblem>,
) {
    let missing: HashSet<&str> = [
        (p.email.is_none(), "email"),
        (p.first.is_none(), "first_name"),
        (p.last.is_none(), "last_name"),
    ]
    .into_iter()
    .filter_map(|(m, f)| m.then_some(f))
    .collect();
    for problem in problems {
        let field = problem
            .field
            .as_deref()
            .map(crate::platform::rest::types::snake_case)
            .unwrap_or_default();
        if !missing.contains(field.as_str()) {
            errors.push(RowProblem::new(&field, problem.message.clone()));
        }
    }
}

/// A row that cannot be imported, reported as read: the file is read again for it rather
/// than every row being copied before its check. A shared address fills billing and
/// shipping.
fn data_as_read(columns: &Columns, record: &csv::StringRecord, p: Person) -> ImportData {
    let get = |t: Target| columns.get(record, t).map(str::to_string);
    let [line1, line2, city, state, zip, country] = [
        Target::Line1,
        Target::Line2,
        Target::City,
        Target::State,
        Target::Zip,
        Target::Country,
    ]
    .map(get);
    ImportData {
        email: p.email.map(|e| e.to_lowercase()),
        first_name: p.first,
        last_name: p.last,
        company_name: get(Target::Company),
        phone: p.phone,
        billing_address_line1: get(Target::BillingLine1).or(line1.clone()),
        billing_address_line2: get(Target::BillingLine2).or(line2.clone()),
        billing_city: get(Target::BillingCity).or(city.clone()),
        billing_state: get(Target::BillingState).or(state.clone()),
        billing_zip: get(Target::BillingZip).or(zip.clone()),
        billing_country: get(Target::BillingCountry).or(country.clone()),
        shipping_address_line1: get(Target::ShippingLine1).or(line1),
        shipping_address_line2: get(Target::ShippingLine2).or(line2),
        shipping_city: get(Target::ShippingCity).or(city),
        shipping_state: get(Target::ShippingState).or(state),
        shipping_zip: get(Target::ShippingZip).or(zip),
        shipping_country: get(Target::ShippingCountry).or(country),
        notes: get(Target::Notes),
        status: p.status.map(|s| s.to_string()),
    }
}

/// The e-mail of a checked form (a checked new customer always has one).
fn email_of(form: &CustomerForm) -> &str {
    form.email.as_deref().unwrap_or_default()
}

fn data_of(new: &CustomerForm) -> ImportData {
    let text = |v: &Option<Option<String>>| v.clone().flatten();
    ImportData {
        email: new.email.clone(),
        first_name: new.first_name.clone(),
        last_name: new.last_name.clone(),
        company_name: text(&new.company_name),
        phone: text(&new.phone),
        billing_address_line1: text(&new.billing_address_line1),
        billing_address_line2: text(&new.billing_address_line2),
        billing_city: text(&new.billing_city),
        billing_state: text(&new.billing_state),
        billing_zip: text(&new.billing_zip),
        billing_country: text(&new.billing_country),
        shipping_address_line1: text(&new.shipping_address_line1),
        shipping_address_line2: text(&new.shipping_address_line2),
        shipping_city: text(&new.shipping_city),
        shipping_state: text(&new.shipping_state),
        shipping_zip: text(&new.shipping_zip),
        shipping_country: text(&new.shipping_country),
        notes: text(&new.notes),
        status: Some(new.status.unwrap_or(CustomerStatus::Active).to_string()),
    }
}

// ----------------------------------------------------------------------------- importing

/// Previews (`dry_run`) or imports a customer CSV file.
///
/// Rows whose e-mail a customer already has are refused (`Email already registered`).
/// Without `dry_run`, all valid rows are inserted in one transaction (multi-row inserts of
/// 1,000); a row that loses a race with a concurrent create of the same e-mail is refused the
/// same way. A database failure rolls everything back and is returned as the error: a file is
/// never half-imported.
pub async fn import_customers(
    conn: &mut AsyncPgConnection,
    csv_bytes: &[u8],
    dry_run: bool,
) -> AppResult<ImportReport> {
    let mut file = parse(csv_bytes)?;
    refuse_existing(conn, &mut file).await?;
    if dry_run {
        return Ok(file.report(false));
    }
    let pending: Vec<usize> = file
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.new.is_some())
        .map(|(i, _)| i)
        .collect();
    if !pending.is_empty() {
        let rows = &file.rows;
        let inserted: HashSet<String> = conn
            .transaction::<_, AppError, _>(async |conn| {
                let numbers = model::next_customer_numbers(conn, pending.len()).await?;
                let batch: Vec<CustomerForm> = pending
                    .iter()
                    .zip(numbers)
                    .filter_map(|(&i, number)| {
                        rows[i].new.as_ref().map(|new| CustomerForm {
                            customer_number: Some(number),
                            ..new.clone()
                        })
                    })
                    .collect();
                let mut inserted = HashSet::with_capacity(batch.len());
                for chunk in batch.chunks(INSERT_CHUNK) {
                    inserted.extend(model::insert_customers_skipping_taken(conn, chunk).await?);
                }
                Ok(inserted)
            })
            .await?;
        for &i in &pending {
            let row = &mut file.rows[i];
            if row
                .new
                .as_ref()
                .is_some_and(|n| inserted.contains(email_of(n)))
            {
                row.new = None;
                row.imported = true;
            } else {
                row.refuse(RowProblem::new(
                    "email",
                    format!("{} (added meanwhile)", customer::email_taken().message),
                ));
            }
        }
    }
    Ok(file.report(true))
}

/// Refuses the rows whose e-mail a customer already has.
async fn refuse_existing(conn: &mut AsyncPgConnection, file: &mut ParsedFile) -> AppResult<()> {
    let emails: Vec<String> = file
        .rows
        .iter()
        .filter_map(|r| r.new.as_ref().map(|n| email_of(n).to_string()))
        .collect();
    let mut existing = HashSet::new();
    for chunk in emails.chunks(LOOKUP_CHUNK) {
        existing.extend(model::existing_customer_emails(conn, chunk).await?);
    }
    for row in &mut file.rows {
        if row
            .new
            .as_ref()
            .is_some_and(|n| existing.contains(email_of(n)))
        {
            row.refuse(RowProblem::new("email", customer::email_taken().message));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
