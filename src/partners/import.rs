//! Customer CSV import (onboarding step 4; CONTRACT 5.5 "Import").
//!
//! Headers are matched loosely with the aliases of common exports (Shopify customers,
//! WooCommerce, Etsy, Squarespace). Every row is checked first; rows with errors are reported
//! by number and skipped; every valid row is inserted in ONE transaction, so the report says
//! exactly which rows were applied. A UTF-8 byte-order mark is ignored. Existing e-mails are
//! skipped and listed as warnings (customers are never overwritten by an import).

use std::collections::{HashMap, HashSet};

use async_graphql::Json;
use diesel_async::{AsyncConnection, AsyncPgConnection};

use crate::catalog::import::{ImportPreviewRow, ImportReport, ImportRowError};
use crate::error::{AppError, AppResult, FieldError};
use crate::identity::Email;
use crate::partners::model::{self, NewCustomer};

/// The template offered for download.
pub const TEMPLATE: &str = "Email,First Name,Last Name,Company,Phone,Address Line 1,Address Line 2,City,State,Zip,Country,Notes\n\
bea.buyer@example.com,Bea,Buyer,Buyer & Co,555-0100,1 Main St,,Austin,TX,78701,USA,Wholesale\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Col {
    Email,
    First,
    Last,
    FullName,
    Company,
    Phone,
    Line1,
    Line2,
    City,
    State,
    Zip,
    Country,
    Notes,
}

fn column(header: &str) -> Option<Col> {
    let n: String = header
        .trim()
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    Some(match n.as_str() {
        "email" | "emailaddress" | "customeremail" | "buyeremail" => Col::Email,
        "firstname" | "givenname" | "billingfirstname" | "first" => Col::First,
        "lastname" | "surname" | "familyname" | "billinglastname" | "last" => Col::Last,
        "name" | "fullname" | "customername" | "buyername" => Col::FullName,
        "company" | "companyname" | "billingcompany" | "defaultaddresscompany" | "organization" => {
            Col::Company
        }
        "phone" | "phonenumber" | "billingphone" | "defaultaddressphone" | "telephone" => {
            Col::Phone
        }
        "address"
        | "address1"
        | "addressline1"
        | "billingaddress1"
        | "defaultaddressaddress1"
        | "street"
        | "shippingaddressline1" => Col::Line1,
        "address2"
        | "addressline2"
        | "billingaddress2"
        | "defaultaddressaddress2"
        | "shippingaddressline2" => Col::Line2,
        "city" | "billingcity" | "defaultaddresscity" | "shippingcity" => Col::City,
        "state"
        | "province"
        | "provincecode"
        | "billingstate"
        | "defaultaddressprovincecode"
        | "region"
        | "shippingstate" => Col::State,
        "zip" | "zipcode" | "postalcode" | "postcode" | "billingpostcode" | "defaultaddresszip"
        | "shippingzip" => Col::Zip,
        "country"
        | "countrycode"
        | "billingcountry"
        | "defaultaddresscountrycode"
        | "shippingcountry" => Col::Country,
        "notes" | "note" | "comments" => Col::Notes,
        _ => return None,
    })
}

/// Imports (or, with `dry_run`, checks) a CSV of customers.
pub async fn import_customers(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    dry_run: bool,
) -> AppResult<ImportReport> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| {
            AppError::validation(vec![FieldError::new(
                "file",
                format!("Not a readable CSV file: {e}"),
            )])
        })?
        .iter()
        .map(str::to_string)
        .collect();
    let mapping: Vec<Option<Col>> = headers.iter().map(|h| column(h)).collect();
    if !mapping.contains(&Some(Col::Email)) {
        return Err(AppError::validation(vec![FieldError::new(
            "file",
            "The file needs an Email column",
        )]));
    }
    let lower: HashSet<String> = headers.iter().map(|h| h.to_ascii_lowercase()).collect();
    let mut report = ImportReport {
        detected_format: if lower.contains("accepts email marketing")
            || lower.contains("default address company")
        {
            "shopify".into()
        } else if lower.contains("billing first name") {
            "woocommerce".into()
        } else {
            "strata".into()
        },
        ..Default::default()
    };
    let mut seen = HashSet::new();
    let mut valid: Vec<(i64, NewCustomer)> = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let row = i as i64 + 2;
        let Ok(record) = record else {
            report.total_rows += 1;
            report.error_rows += 1;
            report.errors.push(ImportRowError {
                row,
                field: None,
                reason: "Unreadable row".into(),
            });
            continue;
        };
        if record.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        report.total_rows += 1;
        let mut f: HashMap<Col, String> = HashMap::new();
        for (v, c) in record.iter().zip(&mapping) {
            if let Some(c) = c
                && !v.trim().is_empty()
            {
                f.entry(*c).or_insert_with(|| v.trim().to_string());
            }
        }
        let get = |c: Col| f.get(&c).cloned();
        let mut errors: Vec<(&str, String)> = Vec::new();
        let email = match get(Col::Email).map(|e| Email::parse(&e)) {
            Some(Ok(e)) => Some(e),
            Some(Err(m)) => {
                errors.push(("email", m));
                None
            }
            None => {
                errors.push(("email", "Email is required".into()));
                None
            }
        };
        let (mut first, mut last) = (get(Col::First), get(Col::Last));
        if (first.is_none() || last.is_none())
            && let Some(full) = get(Col::FullName)
        {
            let (a, b) = full.split_once(' ').unwrap_or((full.as_str(), ""));
            first = first.or_else(|| Some(a.to_string()));
            last = last.or_else(|| (!b.trim().is_empty()).then(|| b.trim().to_string()));
        }
        if first.is_none() {
            errors.push(("first_name", "First name is required".into()));
        }
        if last.is_none() {
            errors.push(("last_name", "Last name is required".into()));
        }
        if let Some(e) = &email
            && !seen.insert(e.as_str().to_string())
        {
            errors.push((
                "email",
                format!("{} appears more than once in the file", e.as_str()),
            ));
        }
        if report.rows.len() < 100 {
            report.rows.push(ImportPreviewRow {
                row_number: row,
                data: Json(serde_json::json!({
                    "email": email.as_ref().map(|e| e.as_str().to_string()),
                    "first_name": first, "last_name": last,
                    "company_name": get(Col::Company), "city": get(Col::City),
                })),
                errors: errors.iter().map(|(_, m)| m.clone()).collect(),
                valid: errors.is_empty(),
            });
        } else {
            report.truncated = true;
        }
        let (Some(email), true) = (email, errors.is_empty()) else {
            report.error_rows += 1;
            for (field, reason) in errors {
                if report.errors.len() < 200 {
                    report.errors.push(ImportRowError {
                        row,
                        field: Some(field.into()),
                        reason,
                    });
                }
            }
            continue;
        };
        valid.push((
            row,
            NewCustomer {
                email: email.as_str().to_string(),
                first_name: first.unwrap_or_default(),
                last_name: last.unwrap_or_default(),
                company_name: get(Col::Company),
                phone: get(Col::Phone),
                status: "active".into(),
                billing_address_line1: get(Col::Line1),
                billing_address_line2: get(Col::Line2),
                billing_city: get(Col::City),
                billing_state: get(Col::State),
                billing_zip: get(Col::Zip),
                billing_country: get(Col::Country),
                shipping_address_line1: get(Col::Line1),
                shipping_address_line2: get(Col::Line2),
                shipping_city: get(Col::City),
                shipping_state: get(Col::State),
                shipping_zip: get(Col::Zip),
                shipping_country: get(Col::Country),
                notes: get(Col::Notes),
                ..Default::default()
            },
        ));
    }
    report.valid_rows = valid.len() as i64;
    let emails: Vec<String> = valid.iter().map(|(_, c)| c.email.clone()).collect();
    let existing: HashSet<String> = model::existing_customer_emails(conn, &emails)
        .await?
        .into_iter()
        .collect();
    let (skip, new): (Vec<_>, Vec<_>) = valid
        .into_iter()
        .partition(|(_, c)| existing.contains(&c.email));
    for (row, c) in &skip {
        report.warnings.push(format!(
            "Row {row}: {} is already a customer and was skipped",
            c.email
        ));
    }
    report.skipped = report.error_rows + skip.len() as i64;
    if dry_run {
        report.created = new.len() as i64;
        report.message = format!(
            "Checked {} rows: {} would be created, {} skipped",
            report.total_rows, report.created, report.skipped
        );
        return Ok(report);
    }
    let created = conn
        .transaction::<_, AppError, _>(async |conn| {
            let numbers = model::next_customer_numbers(conn, new.len()).await?;
            let rows: Vec<NewCustomer> = new
                .into_iter()
                .zip(numbers)
                .map(|((_, mut c), n)| {
                    c.customer_number = n;
                    c
                })
                .collect();
            let mut inserted = 0;
            for chunk in rows.chunks(1000) {
                inserted += model::insert_customers_skipping_taken(conn, chunk)
                    .await?
                    .len();
            }
            Ok(inserted as i64)
        })
        .await?;
    report.created = created;
    report.applied = true;
    report.message = format!(
        "Imported {} rows: {} created, {} skipped",
        report.total_rows, created, report.skipped
    );
    Ok(report)
}
