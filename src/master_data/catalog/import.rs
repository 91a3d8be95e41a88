//! Product CSV import (onboarding step 3; CONTRACT 5.11 "POST /items/import").
//!
//! Headers are matched loosely (case, spaces and punctuation ignored) with the aliases of
//! common marketplace exports (Shopify, WooCommerce, Etsy, Amazon). Every row is checked
//! first; rows with errors are reported by number and skipped, and every valid row is
//! applied in ONE transaction, so the report says exactly what was applied. Prices may carry
//! `$` and thousands separators; a UTF-8 byte-order mark is ignored.

use crate::platform::import::CsvRow;
use std::collections::{HashMap, HashSet};

use async_graphql::{Json, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::catalog::items::sku_prefix;
use crate::master_data::catalog::model::{self, CategoryForm, ItemForm, ItemType, ProcurementType};
use crate::platform::db::schema::items;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;
use strum::VariantArray;

/// The template offered for download.
pub const TEMPLATE: &str = "SKU,Name,Description,Item Type,Procurement Type,Unit,Standard Cost,Selling Price,Reorder Point,UPC,Category,Active\n\
FG-100,Articulated Dragon,Print-in-place articulated dragon,finished_good,make,EA,3.20,24.99,5,012345678905,Toys,true\n";

/// Rows shown in a preview.
const PREVIEW_ROWS: usize = 100;
/// Errors listed in a report.
const MAX_ERRORS: usize = 200;

/// One problem with one row.
#[derive(Debug, Clone, SimpleObject)]
pub struct ImportRowError {
    /// The row number in the file (the header is row 1).
    pub row: i64,
    /// The column at fault, when one is.
    pub field: Option<String>,
    /// What is wrong.
    pub reason: String,
}

/// One row as read, for the preview.
#[derive(Debug, Clone, SimpleObject)]
pub struct ImportPreviewRow {
    /// The row number in the file.
    pub row_number: i64,
    /// The recognised values.
    pub data: Json<serde_json::Value>,
    /// Problems with the row.
    pub errors: Vec<String>,
    /// True when the row can be imported.
    pub valid: bool,
}

/// What an import did (or, with `dryRun`, would do).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ImportReport {
    /// Data rows in the file.
    pub total_rows: i64,
    /// Rows that passed the checks.
    pub valid_rows: i64,
    /// Rows with errors (skipped).
    pub error_rows: i64,
    /// Items created.
    pub created: i64,
    /// Items updated.
    pub updated: i64,
    /// Rows skipped (errors, blank rows, existing SKUs without `updateExisting`).
    pub skipped: i64,
    /// Row problems (the first 200).
    pub errors: Vec<ImportRowError>,
    /// Things worth knowing that did not stop a row.
    pub warnings: Vec<String>,
    /// The first 100 rows as read.
    pub rows: Vec<ImportPreviewRow>,
    /// True when the file has more rows than the preview shows.
    pub truncated: bool,
    /// Which export format the headers look like.
    pub detected_format: String,
    /// False for a dry run: nothing was written.
    pub applied: bool,
    /// A one-line summary.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Col {
    Sku,
    Name,
    Description,
    ItemType,
    Procurement,
    Unit,
    PurchaseUom,
    Cost,
    Price,
    ReorderPoint,
    Upc,
    Category,
    Active,
}

fn normalise(header: &str) -> String {
    crate::platform::import::normalize_header(header)
}

fn column(header: &str) -> Option<Col> {
    Some(match normalise(header).as_str() {
        "sku" | "variantsku" | "skucode" | "asin" | "sellersku" | "itemsku" | "productsku"
        | "partnumber" => Col::Sku,
        "name" | "title" | "varianttitle" | "productname" | "itemname" | "listingtitle" => {
            Col::Name
        }
        "description" | "bodyhtml" | "body" | "productdescription" | "shortdescription" => {
            Col::Description
        }
        "itemtype" => Col::ItemType,
        "procurementtype" | "procurement" => Col::Procurement,
        "unit" | "uom" | "unitofmeasure" | "stockingunit" => Col::Unit,
        "purchaseuom" | "purchaseunit" => Col::PurchaseUom,
        "standardcost" | "cost" | "costperitem" | "unitcost" | "variantcost" => Col::Cost,
        "sellingprice" | "price" | "variantprice" | "saleprice" | "regularprice" | "listprice"
        | "retailprice" => Col::Price,
        "reorderpoint" | "minstock" => Col::ReorderPoint,
        "upc" | "barcode" | "variantbarcode" | "gtin" | "ean" => Col::Upc,
        "category" | "productcategory" | "categories" => Col::Category,
        "active" | "isactive" | "status" | "published" => Col::Active,
        _ => return None,
    })
}

fn detect_format(headers: &[String]) -> &'static str {
    let n: HashSet<String> = headers.iter().map(|h| normalise(h)).collect();
    if n.contains("handle") && n.contains("variantsku") {
        "shopify"
    } else if n.contains("regularprice") || n.contains("parent") && n.contains("sku") {
        "woocommerce"
    } else if n.contains("asin") || n.contains("sellersku") {
        "amazon"
    } else if n.contains("listingid") || n.contains("title") && n.contains("quantity") {
        "etsy"
    } else {
        "strata"
    }
}

/// `$1,299.00` -> 1299.00.
pub fn parse_money(raw: &str) -> Result<Option<BigDecimal>, String> {
    let cleaned: String = raw
        .trim()
        .chars()
        .filter(|c| !matches!(c, '$' | ',' | ' ' | '\u{a0}'))
        .collect();
    if cleaned.is_empty() {
        return Ok(None);
    }
    let value: BigDecimal = cleaned
        .parse()
        .map_err(|_| format!("'{raw}' is not a number"))?;
    if value < BigDecimal::zero() {
        return Err(format!("'{raw}' is negative"));
    }
    Ok(Some(value))
}

fn parse_bool(raw: &str) -> Result<Option<bool>, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "true" | "yes" | "y" | "1" | "active" | "published" => Ok(Some(true)),
        "false" | "no" | "n" | "0" | "inactive" | "draft" | "archived" => Ok(Some(false)),
        other => Err(format!("'{other}' is not true/false or active/inactive")),
    }
}

struct Parsed {
    row: i64,
    values: ItemForm,
    category: Option<String>,
}

/// Imports (or, with `dry_run`, checks) a CSV of products.
pub async fn import_items(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    update_existing: bool,
    default_item_type: ItemType,
    dry_run: bool,
) -> AppResult<ImportReport> {
    // The shared engine: encoding, separator, line numbers, open quotes.
    let file = crate::platform::import::CsvFile::read(bytes)?;
    let headers = file.headers();
    let mut report = ImportReport {
        detected_format: detect_format(headers).into(),
        ..Default::default()
    };
    let mapping: Vec<Option<Col>> = headers.iter().map(|h| column(h)).collect();
    check_columns(headers, &mapping, &mut report)?;
    let units: HashSet<String> = model::units(conn)
        .await?
        .into_iter()
        .map(|u| u.code)
        .collect();

    let mut reader = RowReader {
        headers,
        mapping: &mapping,
        units: &units,
        default_item_type,
        seen: HashSet::new(),
    };
    let mut parsed: Vec<Parsed> = Vec::new();
    for row in file.rows() {
        report.total_rows += 1;
        match row {
            CsvRow::Record { line, record } => {
                if let Some(p) = reader.read_row(&mut report, line, &record) {
                    parsed.push(p);
                }
            }
            CsvRow::Unreadable {
                line: row,
                error: e,
            } => push_error(&mut report, row, None, format!("Unreadable row: {e}")),
        }
    }
    report.valid_rows = parsed.len() as i64;

    let (existing, updates, creates) = split_existing(conn, parsed).await?;
    if !update_existing {
        for p in &updates {
            report.warnings.push(format!(
                "Row {}: SKU '{}' exists and was skipped (updateExisting is off)",
                p.row,
                p.values.sku.clone().unwrap_or_default()
            ));
        }
    }
    report.skipped = report.error_rows
        + if update_existing {
            0
        } else {
            updates.len() as i64
        };
    let planned_updates = if update_existing {
        updates.len() as i64
    } else {
        0
    };

    if dry_run {
        report.created = creates.len() as i64;
        report.updated = planned_updates;
        report.message = format!(
            "Checked {} rows: {} would be created, {} updated, {} skipped",
            report.total_rows, report.created, report.updated, report.skipped
        );
        return Ok(report);
    }

    let (created, updated) = conn
        .transaction::<_, AppError, _>(async |conn| {
            write_items(conn, &creates, &updates, &existing, update_existing).await
        })
        .await?;
    report.created = created;
    report.updated = updated;
    report.applied = true;
    report.message = format!(
        "Imported {} rows: {} created, {} updated, {} skipped",
        report.total_rows, created, updated, report.skipped
    );
    Ok(report)
}

/// Warns about unused and repeated columns; refuses a file with neither a SKU nor a Name column.
fn check_columns(
    headers: &[String],
    mapping: &[Option<Col>],
    report: &mut ImportReport,
) -> AppResult<()> {
    let mut cols_seen = HashSet::new();
    for (h, c) in headers.iter().zip(mapping) {
        match c {
            Some(c) if !cols_seen.insert(*c) => report.warnings.push(format!(
                "Column '{h}' repeats an earlier column and is ignored"
            )),
            None if !h.is_empty() => report.warnings.push(format!("Column '{h}' is not used")),
            _ => {}
        }
    }
    if !mapping.contains(&Some(Col::Name)) && !mapping.contains(&Some(Col::Sku)) {
        return Err(AppError::validation(vec![
            crate::platform::error::FieldError::new(
                "file",
                "The file needs at least a SKU or a Name column",
            ),
        ]));
    }
    Ok(())
}

/// The recognised cells of one row by column (the first of repeated columns wins).
struct RowFields(HashMap<Col, String>);

impl RowFields {
    /// The trimmed value of a column, when it is present and not empty.
    fn get(&self, c: Col) -> Option<&str> {
        self.0.get(&c).map(String::as_str).filter(|v| !v.is_empty())
    }
}

/// A row's problems in order: the column at fault (when one is) and what is wrong.
type RowErrors = Vec<(Option<&'static str>, String)>;

/// The checked values of one row, before they become an [`ItemForm`].
struct RowValues {
    sku: Option<String>,
    name: Option<String>,
    item_type: ItemType,
    procurement: Option<ProcurementType>,
    unit: Option<String>,
    purchase_uom: Option<String>,
    cost: Option<BigDecimal>,
    price: Option<BigDecimal>,
    reorder: Option<BigDecimal>,
    active: Option<bool>,
}

/// What the rows of one file are read against, and the SKUs met so far in it.
struct RowReader<'a> {
    headers: &'a [String],
    mapping: &'a [Option<Col>],
    units: &'a HashSet<String>,
    default_item_type: ItemType,
    seen: HashSet<String>,
}

impl RowReader<'_> {
    /// Reads and checks one row into the report: the row to import, or `None` when it has errors.
    fn read_row(
        &mut self,
        report: &mut ImportReport,
        row: i64,
        record: &csv::StringRecord,
    ) -> Option<Parsed> {
        // A NUL cannot be stored or looked up: the row is refused before anything else.
        let nul = crate::platform::import::nul_columns(self.headers, record);
        if !nul.is_empty() {
            for column in nul {
                push_error(
                    report,
                    row,
                    Some(column),
                    crate::platform::import::NUL_CELL.into(),
                );
            }
            report.error_rows += 1;
            return None;
        }
        let mut fields: HashMap<Col, String> = HashMap::new();
        for (value, col) in record.iter().zip(self.mapping) {
            if let Some(c) = col {
                fields.entry(*c).or_insert_with(|| value.trim().to_string());
            }
        }
        let fields = RowFields(fields);
        // A quote left open swallows the next lines: refuse the row rather than store an
        // item whose SKU or name spans lines.
        if [Col::Sku, Col::Name].iter().any(|c| {
            fields
                .get(*c)
                .is_some_and(crate::platform::import::spans_lines)
        }) {
            push_error(
                report,
                row,
                None,
                crate::platform::import::OPEN_QUOTE.into(),
            );
            report.error_rows += 1;
            return None;
        }
        let mut errors: RowErrors = Vec::new();
        let values = self.check_values(&fields, &mut errors);
        preview_row(report, row, &fields, &values, &errors);
        if !errors.is_empty() {
            for (field, message) in errors {
                push_error(report, row, field.map(str::to_string), message);
            }
            report.error_rows += 1;
            return None;
        }
        Some(parsed_row(row, &fields, values))
    }

    /// Checks every value of a row, noting each problem in `errors` (in column order).
    fn check_values(&mut self, fields: &RowFields, errors: &mut RowErrors) -> RowValues {
        let (sku, name) = self.check_sku_and_name(fields, errors);
        let item_type = match fields
            .get(Col::ItemType)
            .map(|t| t.to_ascii_lowercase().replace([' ', '-'], "_"))
        {
            Some(t) => t.parse::<ItemType>().unwrap_or_else(|_| {
                let known: Vec<&str> = ItemType::VARIANTS.iter().map(|v| v.as_ref()).collect();
                errors.push((
                    Some("item_type"),
                    format!("'{t}' is not an item type ({})", known.join(", ")),
                ));
                self.default_item_type
            }),
            None => self.default_item_type,
        };
        let procurement = match fields.get(Col::Procurement).map(str::to_ascii_lowercase) {
            Some(p) if let Ok(p) = p.parse::<ProcurementType>() => Some(p),
            Some(p) => {
                errors.push((
                    Some("procurement_type"),
                    format!("'{p}' is not make, buy or make_or_buy"),
                ));
                None
            }
            None => None,
        };
        let mut unit_of =
            |col: Col, field: &'static str| match fields.get(col).map(str::to_uppercase) {
                Some(u) if self.units.contains(&u) => Some(u),
                Some(u) => {
                    errors.push((Some(field), format!("'{u}' is not a unit of measure")));
                    None
                }
                None => None,
            };
        let unit = unit_of(Col::Unit, "unit");
        let purchase_uom = unit_of(Col::PurchaseUom, "purchase_uom");
        let mut money = |col: Col, field: &'static str| match fields.get(col).map(parse_money) {
            Some(Ok(v)) => v,
            Some(Err(e)) => {
                errors.push((Some(field), e));
                None
            }
            None => None,
        };
        let cost = money(Col::Cost, "standard_cost");
        let price = money(Col::Price, "selling_price");
        let reorder = money(Col::ReorderPoint, "reorder_point");
        let active = match fields.get(Col::Active).map(parse_bool) {
            Some(Ok(v)) => v,
            Some(Err(e)) => {
                errors.push((Some("active"), e));
                None
            }
            None => None,
        };
        RowValues {
            sku,
            name,
            item_type,
            procurement,
            unit,
            purchase_uom,
            cost,
            price,
            reorder,
            active,
        }
    }

    /// Checks the SKU (length, repeats within the file), the name (required) and the hidden
    /// characters of SKU, name and category.
    fn check_sku_and_name(
        &mut self,
        fields: &RowFields,
        errors: &mut RowErrors,
    ) -> (Option<String>, Option<String>) {
        let sku = fields.get(Col::Sku).map(str::to_uppercase);
        let name = fields.get(Col::Name).map(str::to_string);
        if name.is_none() {
            errors.push((Some("name"), "Name is required".into()));
        }
        // The rule of items and categories made by hand (`db::text`).
        for (field, col) in [
            ("sku", Col::Sku),
            ("name", Col::Name),
            ("category", Col::Category),
        ] {
            if let Some(e) = fields
                .get(col)
                .and_then(|v| crate::platform::db::text::hidden_characters(field, v))
            {
                errors.push((Some(field), e.message));
            }
        }
        if let Some(s) = &sku {
            if s.chars().count() > crate::master_data::catalog::rules::SKU_MAX {
                errors.push((
                    Some("sku"),
                    format!(
                        "SKU is longer than {} characters",
                        crate::master_data::catalog::rules::SKU_MAX
                    ),
                ));
            } else if !self.seen.insert(s.clone()) {
                errors.push((
                    Some("sku"),
                    format!("SKU '{s}' appears more than once in the file"),
                ));
            }
        }
        (sku, name)
    }
}

/// Adds a row to the preview (the first [`PREVIEW_ROWS`]), or marks the preview truncated.
fn preview_row(
    report: &mut ImportReport,
    row: i64,
    fields: &RowFields,
    values: &RowValues,
    errors: &RowErrors,
) {
    let data = serde_json::json!({
        "sku": values.sku, "name": values.name, "item_type": values.item_type.as_ref(),
        "unit": values.unit,
        "standard_cost": values.cost.as_ref().map(|c| c.to_string()),
        "selling_price": values.price.as_ref().map(|p| p.to_string()),
        "category": fields.get(Col::Category),
    });
    if report.rows.len() < PREVIEW_ROWS {
        report.rows.push(ImportPreviewRow {
            row_number: row,
            data: Json(data),
            errors: errors.iter().map(|(_, m)| m.clone()).collect(),
            valid: errors.is_empty(),
        });
    } else {
        report.truncated = true;
    }
}

/// The item form of a valid row (materials default to grams, bought by the kilogram).
fn parsed_row(row: i64, fields: &RowFields, values: RowValues) -> Parsed {
    let material = values.item_type == ItemType::Material;
    Parsed {
        row,
        category: fields.get(Col::Category).map(str::to_string),
        values: ItemForm {
            sku: values.sku,
            name: values.name,
            description: Some(fields.get(Col::Description).map(str::to_string)),
            item_type: Some(values.item_type),
            procurement_type: values.procurement,
            unit: values.unit.or_else(|| material.then(|| "G".to_string())),
            purchase_uom: values
                .purchase_uom
                .or_else(|| material.then(|| "KG".to_string())),
            purchase_factor: material.then(|| Decimal(BigDecimal::from(1000))),
            standard_cost: Some(values.cost.map(Decimal)),
            selling_price: Some(values.price.map(Decimal)),
            reorder_point: Some(values.reorder.map(Decimal)),
            upc: Some(fields.get(Col::Upc).map(str::to_string)),
            is_raw_material: material.then_some(true),
            active: values.active,
            ..Default::default()
        },
    }
}

/// Looks up which SKUs exist already (one query) and splits the rows into updates and creates.
async fn split_existing(
    conn: &mut AsyncPgConnection,
    parsed: Vec<Parsed>,
) -> AppResult<(HashMap<String, i64>, Vec<Parsed>, Vec<Parsed>)> {
    let skus: Vec<String> = parsed.iter().filter_map(|p| p.values.sku.clone()).collect();
    let existing: HashMap<String, i64> = items::table
        .filter(items::sku.eq_any(&skus))
        .select((items::sku, items::id))
        .load::<(String, i64)>(conn)
        .await?
        .into_iter()
        .map(|(s, id)| (s.to_uppercase(), id))
        .collect();
    let (updates, creates): (Vec<Parsed>, Vec<Parsed>) = parsed.into_iter().partition(|p| {
        p.values
            .sku
            .as_ref()
            .is_some_and(|s| existing.contains_key(s))
    });
    Ok((existing, updates, creates))
}

/// Writes the rows (inside the import's transaction): categories first, then the new items,
/// then the updates. Returns how many were created and updated.
async fn write_items(
    conn: &mut AsyncPgConnection,
    creates: &[Parsed],
    updates: &[Parsed],
    existing: &HashMap<String, i64>,
    update_existing: bool,
) -> AppResult<(i64, i64)> {
    let category_of = resolve_categories(conn, creates, updates).await?;
    let rows = new_item_rows(conn, creates, &category_of).await?;
    let mut created = 0;
    for chunk in rows.chunks(1000) {
        created += diesel::insert_into(items::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    let mut updated = 0;
    if update_existing {
        for p in updates {
            let mut v = p.values.clone();
            if let Some(c) = &p.category {
                v.category_id = Some(category_of.get(c).copied());
            }
            v.sku = None;
            let id = existing[p.values.sku.as_deref().unwrap_or_default()];
            model::update(conn, id, &v).await?;
            updated += 1;
        }
    }
    Ok((created as i64, updated))
}

/// The category id of every category name the rows use, creating the categories not found
/// (matched by name or code, ignoring case).
async fn resolve_categories(
    conn: &mut AsyncPgConnection,
    creates: &[Parsed],
    updates: &[Parsed],
) -> AppResult<HashMap<String, i64>> {
    let mut categories = model::categories(conn).await?;
    let mut category_of = HashMap::new();
    for p in creates.iter().chain(updates.iter()) {
        let Some(name) = &p.category else { continue };
        if category_of.contains_key(name) {
            continue;
        }
        let id = match categories
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name) || c.code.eq_ignore_ascii_case(name))
        {
            Some(c) => c.id,
            None => {
                let code = name.to_uppercase().replace(' ', "_");
                let row = model::insert_category(
                    conn,
                    &CategoryForm {
                        code: Some(code),
                        name: Some(name.clone()),
                        ..Default::default()
                    },
                )
                .await?;
                let id = row.id;
                categories.push(row);
                id
            }
        };
        category_of.insert(name.clone(), id);
    }
    Ok(category_of)
}

/// The rows to insert: SKUs numbered for rows without one (in one round trip) and the
/// category ids filled in.
async fn new_item_rows(
    conn: &mut AsyncPgConnection,
    creates: &[Parsed],
    category_of: &HashMap<String, i64>,
) -> AppResult<Vec<ItemForm>> {
    let blanks = creates.iter().filter(|p| p.values.sku.is_none()).count() as i64;
    let numbers: Vec<i64> = if blanks > 0 {
        diesel::sql_query(format!(
            "SELECT nextval('item_sku_seq') AS n FROM generate_series(1, {blanks})"
        ))
        .load::<SeqRow>(conn)
        .await?
        .into_iter()
        .map(|r| r.n)
        .collect()
    } else {
        Vec::new()
    };
    let mut numbers = numbers.into_iter();
    let mut rows: Vec<ItemForm> = Vec::with_capacity(creates.len());
    for p in creates {
        let mut v = p.values.clone();
        if v.sku.is_none() {
            let n = numbers.next().unwrap_or_default();
            v.sku = Some(format!(
                "{}-{n:03}",
                sku_prefix(v.item_type.unwrap_or(ItemType::FinishedGood))
            ));
        }
        v.category_id = Some(
            p.category
                .as_ref()
                .and_then(|c| category_of.get(c).copied()),
        );
        rows.push(v);
    }
    Ok(rows)
}

#[derive(QueryableByName)]
struct SeqRow {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

fn push_error(report: &mut ImportReport, row: i64, field: Option<String>, reason: String) {
    if report.errors.len() < MAX_ERRORS {
        report.errors.push(ImportRowError { row, field, reason });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_and_headers_are_read_loosely() {
        assert_eq!(
            parse_money("$1,299.50").ok().flatten(),
            "1299.50".parse().ok()
        );
        assert_eq!(parse_money(" ").ok().flatten(), None);
        assert!(parse_money("abc").is_err());
        assert!(parse_money("-3").is_err());
        assert_eq!(column("Variant SKU"), Some(Col::Sku));
        assert_eq!(column("Title"), Some(Col::Name));
        assert_eq!(column("Variant Price"), Some(Col::Price));
        assert_eq!(column("Cost per item"), Some(Col::Cost));
        assert_eq!(column("Handle"), None);
        assert_eq!(
            detect_format(&["Handle".into(), "Variant SKU".into()]),
            "shopify"
        );
    }
}
