//! The materials CSV import (CONTRACT 5.11 `POST /materials/import`): one row per material
//! item, e.g. `PLA Matte,MAT-FDM-PLA-MATTE-CHAR,PLA Matte Charcoal,PLA_MATTE,Charcoal,
//! #0C0C0C,kg,Active,19.99,0`. Each row creates (or, with `update_existing`, updates) the
//! material item (type `material`, stocked in G, bought in the row's unit at the row's
//! price per that unit), its material type, colour and their link, its category under
//! "Filament", and its on-hand grams at `MAIN` as an opening balance through the stock
//! ledger. Rows with errors are reported by file line and skipped; everything else is
//! written in ONE transaction with ONE journal entry (inventory / 3000 Owner's equity).
//! Lookups and inserts are batched, so thousands of rows import in well under a second.

use crate::platform::import::CsvRow;
use std::collections::{HashMap, HashSet};

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::ledger::Movement;
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::materials::model::code_of;
use crate::ledgers::materials::stock_import::{Opening, main_location};
use crate::master_data::catalog::import::{ImportRowError, parse_money};
use crate::master_data::catalog::model::{
    self as catalog, CategoryForm, ItemForm, ItemType, ProcurementType, StockingPolicy,
};
use crate::platform::db::schema::{colors, items, material_colors, material_types};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::Stop;

/// The template offered for download (CONTRACT 5.11's example row).
pub const TEMPLATE: &str = "Category,SKU,Name,Material Type,Material Color Name,HEX Code,Unit,Status,Price,On Hand (g)\n\
PLA Matte,MAT-FDM-PLA-MATTE-CHAR,PLA Matte Charcoal,PLA_MATTE,Charcoal,#0C0C0C,kg,Active,19.99,0\n";

/// Row problems listed in a report.
const MAX_ERRORS: usize = 500;
/// The root category materials nest under.
pub const FILAMENT: &str = "Filament";

/// What a materials import did.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MaterialImportReport {
    /// Data rows in the file (blank lines not counted).
    pub total_rows: i64,
    /// Material items created.
    pub created: i64,
    /// Material items updated (`updateExisting`).
    pub updated: i64,
    /// Rows skipped: errors, and existing SKUs without `updateExisting`.
    pub skipped: i64,
    /// Row problems (the first 500), by file line (the header is line 1).
    pub errors: Vec<ImportRowError>,
    /// Material types created.
    pub material_types_created: i64,
    /// Colours created.
    pub colors_created: i64,
    /// Categories created.
    pub categories_created: i64,
    /// Stock transactions posted (opening balances and their corrections).
    pub inventory_transactions: i64,
    /// The journal entry that booked the opening stock, if any value moved.
    pub journal_entry_id: Option<i64>,
    /// A one-line summary.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Col {
    Category,
    Sku,
    Name,
    MaterialType,
    Color,
    Hex,
    Unit,
    Status,
    Price,
    OnHand,
}

fn column(header: &str) -> Option<Col> {
    Some(
        match crate::platform::import::normalize_header(header).as_str() {
            "category" | "categoryname" | "productcategory" => Col::Category,
            "sku" | "productsku" | "itemsku" | "materialsku" => Col::Sku,
            "name" | "productname" | "itemname" | "materialname" => Col::Name,
            "materialtype" | "materialtypecode" | "type" | "material" => Col::MaterialType,
            "materialcolorname" | "materialcolor" | "colorname" | "color" | "colourname"
            | "colour" => Col::Color,
            "hexcode" | "hex" | "colorhex" | "hexcolor" | "colourhex" => Col::Hex,
            "unit" | "uom" | "purchaseunit" | "purchaseuom" => Col::Unit,
            "status" | "active" => Col::Status,
            "price" | "cost" | "priceperkg" | "costperkg" | "unitcost" | "standardcost" => {
                Col::Price
            }
            "onhandg" | "onhand" | "onhandgrams" | "quantity" | "qty" | "quantityg" | "stock"
            | "inventory" => Col::OnHand,
            _ => return None,
        },
    )
}

/// `#0c0c0c`, `0C0C0C` -> `#0C0C0C`.
fn parse_hex(raw: &str) -> Result<String, String> {
    let digits = raw.trim().trim_start_matches('#');
    if digits.len() == 6 && digits.chars().all(|c| c.is_ascii_hexdigit()) {
        Ok(format!("#{}", digits.to_ascii_uppercase()))
    } else {
        Err(format!("'{raw}' is not a colour like #0C0C0C"))
    }
}

fn parse_status(raw: &str) -> Result<bool, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" | "active" | "true" | "yes" | "y" | "1" => Ok(true),
        "inactive" | "discontinued" | "false" | "no" | "n" | "0" => Ok(false),
        other => Err(format!("'{other}' is not Active or Inactive")),
    }
}

struct Row {
    line: i64,
    sku: String,
    name: String,
    category: Option<String>,
    type_name: String,
    color: Option<(String, Option<String>)>,
    purchase_uom: String,
    factor: BigDecimal,
    cost_per_gram: Option<BigDecimal>,
    active: bool,
    on_hand: Option<BigDecimal>,
}

impl Row {
    fn values(&self, category_id: Option<i64>) -> ItemForm {
        ItemForm {
            sku: Some(self.sku.clone()),
            name: Some(self.name.clone()),
            item_type: Some(ItemType::Material),
            procurement_type: Some(ProcurementType::Buy),
            unit: Some("G".into()),
            purchase_uom: Some(self.purchase_uom.clone()),
            purchase_factor: Some(Decimal(self.factor.clone())),
            standard_cost: self.cost_per_gram.clone().map(|c| Some(Decimal(c))),
            category_id: Some(category_id),
            stocking_policy: Some(StockingPolicy::Stocked),
            is_raw_material: Some(true),
            active: Some(self.active),
            ..Default::default()
        }
    }
}

fn push_error(report: &mut MaterialImportReport, line: i64, field: Option<&str>, reason: String) {
    if report.errors.len() < MAX_ERRORS {
        report.errors.push(ImportRowError {
            row: line,
            field: field.map(str::to_string),
            reason,
        });
    }
}

/// Reads the file into checked rows; row problems go into the report.
async fn read_rows(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    report: &mut MaterialImportReport,
) -> AppResult<Vec<Row>> {
    let file = crate::platform::import::CsvFile::read(bytes)?;
    let headers = file.headers();
    let mapping: Vec<Option<Col>> = headers.iter().map(|h| column(h)).collect();
    for (needed, name) in [(Col::Sku, "SKU"), (Col::MaterialType, "Material Type")] {
        if !mapping.contains(&Some(needed)) {
            return Err(crate::platform::import::file_error(format!(
                "The file needs a {name} column"
            )));
        }
    }
    let grams_per = grams_per_unit(conn).await?;

    let mut reader = RowReader {
        headers,
        mapping: &mapping,
        grams_per: &grams_per,
        seen: HashSet::new(),
    };
    let mut rows = Vec::new();
    for row in file.rows() {
        report.total_rows += 1;
        match row {
            CsvRow::Record { line, record } => {
                if let Some(row) = reader.read_row(report, line, &record) {
                    rows.push(row);
                }
            }
            CsvRow::Unreadable { line, error: e } => {
                report.skipped += 1;
                push_error(report, line, None, format!("Unreadable row: {e}"));
            }
        }
    }
    Ok(rows)
}

/// The active weight units and their grams per unit.
async fn grams_per_unit(conn: &mut AsyncPgConnection) -> AppResult<HashMap<String, BigDecimal>> {
    let units: Vec<catalog::UomRow> = catalog::units(conn).await?;
    let gram = units
        .iter()
        .find(|u| u.code == "G")
        .map(|u| u.to_base_factor.clone())
        .filter(|f| !f.is_zero())
        .ok_or_else(|| AppError::internal("the unit G is missing"))?;
    Ok(units
        .iter()
        .filter(|u| u.uom_class == "weight" && u.active)
        .map(|u| {
            (
                u.code.clone(),
                (&u.to_base_factor / &gram).with_scale_round(4, RoundingMode::HalfUp),
            )
        })
        .collect())
}

/// The recognised cells of one row by column (the first of repeated columns wins).
struct Fields<'r>(HashMap<Col, &'r str>);

impl Fields<'_> {
    /// The trimmed value of a column, when it is present and not empty.
    fn get(&self, c: Col) -> Option<&str> {
        self.0.get(&c).copied().filter(|v| !v.is_empty())
    }
}

/// A row's problems in order: the column at fault and what is wrong.
type RowErrors = Vec<(&'static str, String)>;

/// The checked unit, status, price and quantity of a row.
struct Amounts {
    /// The unit the material is bought in.
    purchase_uom: String,
    /// Grams per purchase unit.
    factor: BigDecimal,
    active: bool,
    cost_per_gram: Option<BigDecimal>,
    /// Grams on hand.
    on_hand: Option<BigDecimal>,
}

/// What the rows of one file are read against, and the SKUs met so far in it.
struct RowReader<'a> {
    headers: &'a [String],
    mapping: &'a [Option<Col>],
    grams_per: &'a HashMap<String, BigDecimal>,
    seen: HashSet<String>,
}

impl RowReader<'_> {
    /// Reads and checks one row into the report: the row to import, or `None` when it is
    /// skipped.
    fn read_row(
        &mut self,
        report: &mut MaterialImportReport,
        line: i64,
        record: &csv::StringRecord,
    ) -> Option<Row> {
        let nul = crate::platform::import::nul_columns(self.headers, record);
        if !nul.is_empty() {
            for column in nul {
                push_error(
                    report,
                    line,
                    Some(&column),
                    crate::platform::import::NUL_CELL.into(),
                );
            }
            report.skipped += 1;
            return None;
        }
        let mut fields: HashMap<Col, &str> = HashMap::new();
        for (value, col) in record.iter().zip(self.mapping) {
            if let Some(c) = col {
                fields.entry(*c).or_insert(value.trim());
            }
        }
        if fields
            .values()
            .any(|v| crate::platform::import::spans_lines(v))
        {
            push_error(
                report,
                line,
                None,
                crate::platform::import::OPEN_QUOTE.into(),
            );
            report.skipped += 1;
            return None;
        }
        let mut errors: RowErrors = Vec::new();
        let row = self.check_row(line, &Fields(fields), &mut errors);
        if !errors.is_empty() {
            for (field, message) in errors {
                push_error(report, line, Some(field), message);
            }
            report.skipped += 1;
            return None;
        }
        row
    }

    /// Checks every value of a row, noting each problem in `errors` (in column order); the
    /// row when its SKU, material type and name are known.
    fn check_row(&mut self, line: i64, fields: &Fields, errors: &mut RowErrors) -> Option<Row> {
        for (field, col) in [
            ("sku", Col::Sku),
            ("name", Col::Name),
            ("category", Col::Category),
            ("material_type", Col::MaterialType),
            ("material_color_name", Col::Color),
        ] {
            if let Some(e) = fields
                .get(col)
                .and_then(|v| crate::platform::db::text::hidden_characters(field, v))
            {
                errors.push((field, e.message));
            }
        }
        let sku = fields.get(Col::Sku).map(str::to_uppercase);
        match &sku {
            None => errors.push(("sku", "SKU is required".into())),
            Some(s) if s.chars().count() > 50 => {
                errors.push(("sku", "SKU is longer than 50 characters".into()))
            }
            Some(s) if !self.seen.insert(s.clone()) => errors.push((
                "sku",
                format!("SKU '{s}' appears more than once in the file"),
            )),
            Some(_) => {}
        }
        let type_name = fields.get(Col::MaterialType).map(str::to_string);
        match &type_name {
            None => errors.push(("material_type", "Material Type is required".into())),
            Some(t) if code_of(t).is_empty() || t.chars().count() > 255 => errors.push((
                "material_type",
                format!("'{t}' is not a usable material type"),
            )),
            Some(_) => {}
        }
        let color_name = fields.get(Col::Color).map(str::to_string);
        if let Some(c) = &color_name
            && (code_of(c).is_empty() || c.chars().count() > 255)
        {
            errors.push((
                "material_color_name",
                format!("'{c}' is not a usable colour"),
            ));
        }
        let hex = match fields.get(Col::Hex).map(parse_hex) {
            Some(Ok(h)) => Some(h),
            Some(Err(e)) => {
                errors.push(("hex_code", e));
                None
            }
            None => None,
        };
        let amounts = self.check_amounts(fields, errors);
        let name = fields.get(Col::Name).map(str::to_string).or_else(|| {
            type_name
                .as_ref()
                .map(|t| format!("{t} {}", color_name.clone().unwrap_or_default()))
                .map(|n| n.trim().to_string())
        });
        if let Some(n) = &name
            && n.chars().count() > 255
        {
            errors.push(("name", "Name is longer than 255 characters".into()));
        }
        if let Some(c) = fields.get(Col::Category)
            && c.chars().count() > 255
        {
            errors.push(("category", "Category is longer than 255 characters".into()));
        }
        let (Some(sku), Some(type_name), Some(name)) = (sku, type_name, name) else {
            return None;
        };
        Some(Row {
            line,
            sku,
            name,
            category: fields.get(Col::Category).map(str::to_string),
            type_name,
            color: color_name.map(|c| (c, hex)),
            purchase_uom: amounts.purchase_uom,
            factor: amounts.factor,
            cost_per_gram: amounts.cost_per_gram,
            active: amounts.active,
            on_hand: amounts.on_hand,
        })
    }

    /// Checks the unit, status, price and on-hand quantity of a row.
    fn check_amounts(&self, fields: &Fields, errors: &mut RowErrors) -> Amounts {
        let purchase_uom = fields
            .get(Col::Unit)
            .map_or_else(|| "KG".to_string(), str::to_uppercase);
        let factor = match self.grams_per.get(&purchase_uom) {
            Some(f) => f.clone(),
            None => {
                errors.push((
                    "unit",
                    format!("'{purchase_uom}' is not a weight unit (G, KG, LB, OZ)"),
                ));
                BigDecimal::from(1)
            }
        };
        let active = match fields.get(Col::Status).map(parse_status) {
            Some(Ok(a)) => a,
            Some(Err(e)) => {
                errors.push(("status", e));
                true
            }
            None => true,
        };
        let cost_per_gram = match fields.get(Col::Price).map(parse_money) {
            Some(Ok(Some(p))) if p >= 10_000_000_000i64 => {
                errors.push(("price", "The price is too large".into()));
                None
            }
            Some(Ok(p)) => p.map(|p| (p / &factor).with_scale_round(4, RoundingMode::HalfUp)),
            Some(Err(e)) => {
                errors.push(("price", e));
                None
            }
            None => None,
        };
        let on_hand = check_on_hand(fields, errors);
        Amounts {
            purchase_uom,
            factor,
            active,
            cost_per_gram,
            on_hand,
        }
    }
}

/// Checks a row's grams on hand: a usable quantity, not too large.
fn check_on_hand(fields: &Fields, errors: &mut RowErrors) -> Option<BigDecimal> {
    match fields.get(Col::OnHand).map(parse_money) {
        Some(Ok(Some(q))) => {
            let mut problems = Vec::new();
            crate::ledgers::inventory::rules::check_quantity(&mut problems, "on_hand", &q);
            if let Some(p) = <[_]>::first(&problems) {
                errors.push(("on_hand", p.message.clone()));
                None
            } else if q >= 100_000_000_000i64 {
                errors.push(("on_hand", "The quantity is too large".into()));
                None
            } else {
                Some(q)
            }
        }
        Some(Ok(None)) | None => None,
        Some(Err(e)) => {
            errors.push(("on_hand", e));
            None
        }
    }
}

/// Ids of the material types (or colours) of these names, creating the missing ones in one
/// statement; answers code -> id and how many were created.
async fn ensure_types(
    conn: &mut AsyncPgConnection,
    names: &[&String],
) -> AppResult<(HashMap<String, i64>, i64)> {
    let mut wanted: HashMap<String, &String> = HashMap::new();
    for n in names {
        wanted.entry(code_of(n)).or_insert(n);
    }
    let codes: Vec<&String> = wanted.keys().collect();
    let mut ids: HashMap<String, i64> = material_types::table
        .filter(material_types::code.eq_any(&codes))
        .select((material_types::code, material_types::id))
        .load::<(String, i64)>(conn)
        .await?
        .into_iter()
        .collect();
    let new: Vec<_> = wanted
        .iter()
        .filter(|(code, _)| !ids.contains_key(*code))
        .map(|(code, name)| {
            (
                material_types::code.eq(code.clone()),
                material_types::name.eq((*name).clone()),
            )
        })
        .collect();
    let mut created = 0;
    for chunk in new.chunks(5000) {
        let rows: Vec<(String, i64)> = diesel::insert_into(material_types::table)
            .values(chunk)
            .on_conflict_do_nothing()
            .returning((material_types::code, material_types::id))
            .get_results(conn)
            .await?;
        created += rows.len() as i64;
        ids.extend(rows);
    }
    Ok((ids, created))
}

async fn ensure_colors(
    conn: &mut AsyncPgConnection,
    wanted_list: &[&(String, Option<String>)],
) -> AppResult<(HashMap<String, i64>, i64)> {
    let mut wanted: HashMap<String, &(String, Option<String>)> = HashMap::new();
    for c in wanted_list {
        wanted.entry(code_of(&c.0)).or_insert(c);
    }
    let codes: Vec<&String> = wanted.keys().collect();
    let mut ids: HashMap<String, i64> = colors::table
        .filter(colors::code.eq_any(&codes))
        .select((colors::code, colors::id))
        .load::<(String, i64)>(conn)
        .await?
        .into_iter()
        .collect();
    let new: Vec<_> = wanted
        .iter()
        .filter(|(code, _)| !ids.contains_key(*code))
        .map(|(code, (name, hex))| {
            (
                colors::code.eq(code.clone()),
                colors::name.eq(name.clone()),
                colors::hex_code.eq(hex.clone()),
            )
        })
        .collect();
    let mut created = 0;
    for chunk in new.chunks(5000) {
        let rows: Vec<(String, i64)> = diesel::insert_into(colors::table)
            .values(chunk)
            .on_conflict_do_nothing()
            .returning((colors::code, colors::id))
            .get_results(conn)
            .await?;
        created += rows.len() as i64;
        ids.extend(rows);
    }
    Ok((ids, created))
}

/// Category ids by the names rows give: an existing category of that name or code, else
/// (with `create`) a new one under "Filament" (created when missing).
async fn ensure_categories(
    conn: &mut AsyncPgConnection,
    names: &[&String],
    create: bool,
) -> AppResult<(HashMap<String, i64>, i64)> {
    let mut all = catalog::categories(conn).await?;
    let mut out = HashMap::new();
    let mut created = 0;
    let mut filament: Option<i64> = None;
    for name in names {
        let key = name.to_lowercase();
        if out.contains_key(&key) {
            continue;
        }
        let code = code_of(name);
        if let Some(c) = all
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name) || c.code.eq_ignore_ascii_case(&code))
        {
            out.insert(key, c.id);
            continue;
        }
        if !create || code.is_empty() {
            continue;
        }
        let parent = match filament {
            Some(id) => id,
            None => {
                let id = match all.iter().find(|c| {
                    c.name.eq_ignore_ascii_case(FILAMENT) || c.code.eq_ignore_ascii_case(FILAMENT)
                }) {
                    Some(c) => c.id,
                    None => {
                        let row = catalog::insert_category(
                            conn,
                            &CategoryForm {
                                code: Some(FILAMENT.to_uppercase()),
                                name: Some(FILAMENT.into()),
                                ..Default::default()
                            },
                        )
                        .await?;
                        created += 1;
                        let id = row.id;
                        all.push(row);
                        id
                    }
                };
                filament = Some(id);
                id
            }
        };
        let row = catalog::insert_category(
            conn,
            &CategoryForm {
                code: Some(code),
                name: Some((*name).clone()),
                parent_id: Some(Some(parent)),
                ..Default::default()
            },
        )
        .await?;
        created += 1;
        out.insert(key, row.id);
        all.push(row);
    }
    Ok((out, created))
}

/// Imports a materials CSV (see the module documentation).
pub async fn import_materials(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    update_existing: bool,
    import_categories: bool,
    user: i64,
) -> AppResult<MaterialImportReport> {
    let mut report = MaterialImportReport::default();
    let rows = read_rows(conn, bytes, &mut report).await?;
    let outcome = conn
        .transaction::<_, Stop, _>(async move |conn| {
            let mut report = report;
            let (creates, updates) =
                sort_existing(conn, &rows, update_existing, &mut report).await?;
            let applied: Vec<&Row> = creates
                .iter()
                .copied()
                .chain(updates.iter().map(|(r, _)| *r))
                .collect();
            let type_names: Vec<&String> = applied.iter().map(|r| &r.type_name).collect();
            let (type_ids, types_created) = ensure_types(conn, &type_names).await?;
            let color_list: Vec<&(String, Option<String>)> =
                applied.iter().filter_map(|r| r.color.as_ref()).collect();
            let (color_ids, colors_created) = ensure_colors(conn, &color_list).await?;
            let category_names: Vec<&String> =
                applied.iter().filter_map(|r| r.category.as_ref()).collect();
            let (category_ids, categories_created) =
                ensure_categories(conn, &category_names, import_categories).await?;

            let item_ids = write_items(conn, &creates, &updates, &category_ids).await?;
            link_colors(conn, &applied, &type_ids, &color_ids, &item_ids).await?;

            // Opening stock at MAIN: receipts for new items, corrections for updated ones.
            let location = main_location(conn).await?;
            let mut opening = Opening::new(user, "Opening stock from the materials import");
            let receipts: Vec<Movement> = creates
                .iter()
                .filter_map(|r| {
                    let qty = r.on_hand.clone().filter(|q| *q > BigDecimal::zero())?;
                    let id = *item_ids.get(&r.sku)?;
                    Some(opening.receipt(id, location, qty, r.cost_per_gram.clone(), None))
                })
                .collect();
            opening.post_receipts(conn, location, &receipts).await?;
            for (row, id) in &updates {
                if let Some(qty) = &row.on_hand {
                    opening.set(conn, *id, location, qty.clone(), None).await?;
                }
            }
            report.inventory_transactions = opening.transactions() as i64;
            report.journal_entry_id = opening.book(conn).await?;
            report.created = creates.len() as i64;
            report.updated = updates.len() as i64;
            report.material_types_created = types_created;
            report.colors_created = colors_created;
            report.categories_created = categories_created;
            Ok(report)
        })
        .await;
    let mut report = match outcome {
        Ok(r) => r,
        Err(Stop::Failed(e)) => return Err(e),
        Err(Stop::Refused(errors)) => {
            return Err(AppError::bad_request(
                errors
                    .into_iter()
                    .map(|e| e.message)
                    .collect::<Vec<_>>()
                    .join("; "),
            ));
        }
    };
    report.message = format!(
        "Imported {} rows: {} created, {} updated, {} skipped",
        report.total_rows, report.created, report.updated, report.skipped
    );
    Ok(report)
}

/// Rows to create and rows to update (with their item ids), after looking up which SKUs
/// exist (one query); rows whose SKU is another kind of item, or exists without
/// `update_existing`, are skipped.
async fn sort_existing<'r>(
    conn: &mut AsyncPgConnection,
    rows: &'r [Row],
    update_existing: bool,
    report: &mut MaterialImportReport,
) -> AppResult<(Vec<&'r Row>, Vec<(&'r Row, i64)>)> {
    let skus: Vec<&String> = rows.iter().map(|r| &r.sku).collect();
    let existing: HashMap<String, (i64, String)> = items::table
        .filter(items::sku.eq_any(&skus))
        .select((items::sku, items::id, items::item_type))
        .load::<(String, i64, String)>(conn)
        .await?
        .into_iter()
        .map(|(s, id, t)| (s.to_uppercase(), (id, t)))
        .collect();
    let mut creates = Vec::new();
    let mut updates = Vec::new();
    for row in rows {
        match existing.get(&row.sku) {
            None => creates.push(row),
            Some((_, kind)) if kind != "material" => {
                push_error(
                    report,
                    row.line,
                    Some("sku"),
                    format!("SKU '{}' exists and is not a material ({kind})", row.sku),
                );
                report.skipped += 1;
            }
            Some((id, _)) if update_existing => updates.push((row, *id)),
            Some(_) => report.skipped += 1,
        }
    }
    Ok((creates, updates))
}

/// Inserts the new items (in a few statements) and updates the existing ones; answers the
/// item id of every SKU written.
async fn write_items(
    conn: &mut AsyncPgConnection,
    creates: &[&Row],
    updates: &[(&Row, i64)],
    category_ids: &HashMap<String, i64>,
) -> AppResult<HashMap<String, i64>> {
    let category_of = |r: &Row| {
        r.category
            .as_ref()
            .and_then(|c| category_ids.get(&c.to_lowercase()).copied())
    };
    // An item that arrives with stock and a price starts at that cost: the receipt's
    // moving average over nothing on hand. Written with the row, the opening receipt
    // finds it already right and does not rewrite 5,000 freshly inserted items (an
    // update that touches every index, the trigram ones included).
    let new_items: Vec<_> = creates
        .iter()
        .map(|r| {
            let opening_cost = r
                .on_hand
                .as_ref()
                .filter(|q| **q > BigDecimal::zero())
                .and(r.cost_per_gram.clone());
            (
                r.values(category_of(r)),
                items::average_cost.eq(opening_cost.clone()),
                items::last_cost.eq(opening_cost),
            )
        })
        .collect();
    let mut item_ids: HashMap<String, i64> = HashMap::with_capacity(creates.len() + updates.len());
    for chunk in new_items.chunks(1000) {
        let written: Vec<(String, i64)> = diesel::insert_into(items::table)
            .values(chunk)
            .returning((items::sku, items::id))
            .get_results(conn)
            .await?;
        item_ids.extend(written);
    }
    for (row, id) in updates {
        let mut values = row.values(category_of(row));
        values.sku = None;
        if row.category.is_none() {
            values.category_id = None;
        }
        catalog::update(conn, *id, &values).await?;
        item_ids.insert(row.sku.clone(), *id);
    }
    Ok(item_ids)
}

/// Upserts the type x colour links, pointing at the item (the last row of a pair wins: one
/// upsert may not touch a row twice).
async fn link_colors(
    conn: &mut AsyncPgConnection,
    applied: &[&Row],
    type_ids: &HashMap<String, i64>,
    color_ids: &HashMap<String, i64>,
    item_ids: &HashMap<String, i64>,
) -> AppResult<()> {
    let mut pairs: HashMap<(i64, i64), Option<i64>> = HashMap::new();
    for r in applied {
        let Some((color, _)) = r.color.as_ref() else {
            continue;
        };
        let (Some(t), Some(c)) = (
            type_ids.get(&code_of(&r.type_name)),
            color_ids.get(&code_of(color)),
        ) else {
            continue;
        };
        pairs.insert((*t, *c), item_ids.get(&r.sku).copied());
    }
    let links: Vec<_> = pairs
        .into_iter()
        .map(|((t, c), item)| {
            (
                material_colors::material_type_id.eq(t),
                material_colors::color_id.eq(c),
                material_colors::item_id.eq(item),
            )
        })
        .collect();
    for chunk in links.chunks(3000) {
        diesel::insert_into(material_colors::table)
            .values(chunk)
            .on_conflict((material_colors::material_type_id, material_colors::color_id))
            .do_update()
            .set(material_colors::item_id.eq(excluded(material_colors::item_id)))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// The reference type opening-balance postings carry.
pub const OPENING_REFERENCE: ReferenceType = ReferenceType::InventoryImport;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_hex_and_status_are_read_loosely() {
        assert_eq!(column("Material Color Name"), Some(Col::Color));
        assert_eq!(column("color name"), Some(Col::Color));
        assert_eq!(column("material_type"), Some(Col::MaterialType));
        assert_eq!(column("HEX"), Some(Col::Hex));
        assert_eq!(column("On Hand (g)"), Some(Col::OnHand));
        assert_eq!(column("quantity"), Some(Col::OnHand));
        assert_eq!(parse_hex("0c0c0c"), Ok("#0C0C0C".to_string()));
        assert!(parse_hex("#12345").is_err());
        assert_eq!(parse_status("Active"), Ok(true));
        assert_eq!(parse_status("inactive"), Ok(false));
        assert!(parse_status("maybe").is_err());
    }
}
