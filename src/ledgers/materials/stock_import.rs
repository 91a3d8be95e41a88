//! The inventory CSV import (onboarding step 6; CONTRACT 5.11 `POST /admin/import/inventory`):
//! columns `SKU` and `Quantity` (required), `Location` (a location code, default `MAIN`),
//! `Lot Number`, `Mode` (`set`, the default, makes on hand equal the quantity by posting
//! the difference as an adjustment; `add` posts a receipt of the quantity). Rows with
//! errors are reported and skipped; every other row posts through the stock ledger in ONE
//! transaction, and the value is booked in ONE journal entry as an opening balance:
//! inventory / 3000 Owner's equity (DOMAIN "Manual transactions").
//!
//! [`Opening`] is the bookkeeping both imports share.

use crate::platform::import::CsvRow;
use std::collections::HashMap;

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount};
use crate::ledgers::accounting::model::EntryRow;
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{check_quantity, default_location, today};
use crate::master_data::catalog::model::ItemType;
use crate::master_data::locations::model::MAIN_CODE;
use crate::platform::db::schema::{items, locations};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::user_error::Stop;

use crate::platform::db::text::upper;

/// The template of the inventory import.
pub const TEMPLATE: &str = "SKU,Quantity,Location,Lot Number,Mode\nMAT-PLA-BLK,1000,MAIN,,set\n";

/// Row problems listed in a report.
const MAX_ERRORS: usize = 500;

/// The location opening stock goes to: `MAIN` when it exists and is active, else the first
/// warehouse (created as `MAIN` when there is none).
pub async fn main_location(conn: &mut AsyncPgConnection) -> Result<i64, Stop> {
    let main: Option<i64> = locations::table
        .filter(crate::platform::db::text::code_matches(
            locations::code,
            MAIN_CODE,
        ))
        .filter(locations::active.eq(true))
        .select(locations::id)
        .first(conn)
        .await
        .optional()?;
    match main {
        Some(id) => Ok(id),
        None => default_location(conn).await,
    }
}

/// Opening-balance postings of an import: each movement goes through the stock ledger, its
/// value is summed per inventory account, and [`Opening::book`] books the sum in one
/// journal entry against 3000 Owner's equity, linked to every ledger row.
pub struct Opening {
    user: i64,
    description: String,
    /// Value per inventory account of the batch receipts, whose rows carry the entry.
    received: HashMap<SystemAccount, BigDecimal>,
    /// Value per inventory account of single postings, linked when the entry is booked.
    posted: HashMap<SystemAccount, BigDecimal>,
    /// Ledger rows to link at [`Opening::book`].
    unlinked: Vec<i64>,
    /// Ledger rows posted in all.
    count: usize,
    /// The entry, once a batch of receipts with value opened it.
    entry: Option<EntryRow>,
}

impl Opening {
    /// Nothing posted yet; `description` is the journal entry's.
    pub fn new(user: i64, description: impl Into<String>) -> Opening {
        Opening {
            user,
            description: description.into(),
            received: HashMap::new(),
            posted: HashMap::new(),
            unlinked: Vec::new(),
            count: 0,
            entry: None,
        }
    }

    fn movement(&self, item: i64, location: i64, kind: MovementKind, qty: BigDecimal) -> Movement {
        Movement {
            reference_type: Some(ReferenceType::InventoryImport),
            created_by: Some(self.user),
            ..Movement::new(item, location, kind, qty)
        }
    }

    /// An opening receipt to give to [`Opening::post_receipts`].
    pub fn receipt(
        &self,
        item: i64,
        location: i64,
        qty: BigDecimal,
        unit_cost: Option<BigDecimal>,
        lot: Option<String>,
    ) -> Movement {
        Movement {
            lot_number: lot,
            ..self.movement(item, location, MovementKind::Receipt { unit_cost }, qty)
        }
    }

    /// The entry's header and lines so far: per account, `values` against 3000 Owner's
    /// equity.
    fn draft<'a>(
        &self,
        values: impl IntoIterator<Item = &'a HashMap<SystemAccount, BigDecimal>>,
    ) -> EntryDraft {
        let mut sums: HashMap<SystemAccount, BigDecimal> = HashMap::new();
        for map in values {
            for (account, value) in map {
                *sums.entry(*account).or_default() += value;
            }
        }
        let mut accounts: Vec<(SystemAccount, BigDecimal)> = sums.into_iter().collect();
        accounts.sort_by_key(|(a, _)| a.code());
        let mut draft = EntryDraft::new(today(), self.description.clone())
            .source(SourceType::InventoryImport, None)
            .by(Some(self.user));
        for (account, value) in accounts {
            draft = draft.transfer(account, SystemAccount::OwnersEquity, &value, None);
        }
        draft
    }

    /// Posts many opening receipts at one location in a few statements. When they move
    /// value, the journal entry is opened first and their ledger rows are written linked
    /// to it.
    pub async fn post_receipts(
        &mut self,
        conn: &mut AsyncPgConnection,
        location: i64,
        receipts: &[Movement],
    ) -> Result<(), Stop> {
        let prepared = ledger::prepare_receipts(conn, location, receipts).await?;
        if prepared.moves_value() && self.entry.is_none() {
            self.entry = Some(books::open(conn, &self.draft([])).await?);
        }
        let entry = self.entry.as_ref().map(|e| e.id);
        for r in prepared.write(conn, entry).await? {
            *self.received.entry(r.account).or_default() += r.value;
            if entry.is_none() {
                self.unlinked.push(r.transaction.id);
            }
            self.count += 1;
        }
        Ok(())
    }

    async fn post(&mut self, conn: &mut AsyncPgConnection, m: &Movement) -> Result<(), Stop> {
        let posted = ledger::post(conn, m).await?;
        *self.posted.entry(posted.account).or_default() += posted.value;
        self.unlinked
            .extend(posted.transactions.iter().map(|t| t.id));
        self.count += posted.transactions.len();
        Ok(())
    }

    /// Makes on hand of an item at a location equal `target`: the difference posts as an
    /// adjustment. Answers whether the item had a balance there before.
    pub async fn set(
        &mut self,
        conn: &mut AsyncPgConnection,
        item: i64,
        location: i64,
        target: BigDecimal,
        lot: Option<String>,
    ) -> Result<bool, Stop> {
        let before = ledger::balance(conn, item, location).await?;
        let had = before.is_some();
        let on_hand = before.map(|b| b.on_hand_quantity.0).unwrap_or_default();
        let diff = target - on_hand;
        if !diff.is_zero() {
            let m = Movement {
                lot_number: lot,
                reason: Some("Inventory import".into()),
                ..self.movement(
                    item,
                    location,
                    MovementKind::Adjustment { unit_cost: None },
                    diff,
                )
            };
            self.post(conn, &m).await?;
        }
        Ok(had)
    }

    /// Adds `qty` to on hand of an item at a location as a receipt at the item's cost.
    /// Answers whether the item had a balance there before.
    pub async fn add(
        &mut self,
        conn: &mut AsyncPgConnection,
        item: i64,
        location: i64,
        qty: BigDecimal,
        lot: Option<String>,
    ) -> Result<bool, Stop> {
        let had = ledger::balance(conn, item, location).await?.is_some();
        let m = self.receipt(item, location, qty, None, lot);
        self.post(conn, &m).await?;
        Ok(had)
    }

    /// Ledger rows posted so far.
    pub fn transactions(&self) -> usize {
        self.count
    }

    /// Books the value posted, per inventory account, against 3000 Owner's equity in one
    /// journal entry and links it to every ledger row; answers its id (none when no value
    /// moved).
    pub async fn book(&self, conn: &mut AsyncPgConnection) -> Result<Option<i64>, Stop> {
        let draft = self.draft([&self.received, &self.posted]);
        let entry = match &self.entry {
            None => match books::post(conn, draft).await? {
                Some(entry) => entry,
                None => return Ok(None),
            },
            Some(entry) => {
                // The receipts moved value, but later corrections may cancel it account by
                // account: the entry, already written, then books both sides apart.
                let draft = if draft.lines.is_empty() {
                    let received = self.draft([&self.received]);
                    let posted = self.draft([&self.posted]);
                    EntryDraft {
                        lines: received.lines.into_iter().chain(posted.lines).collect(),
                        ..received
                    }
                } else {
                    draft
                };
                books::add_lines(conn, entry, &draft).await?;
                entry.clone()
            }
        };
        for chunk in self.unlinked.chunks(10_000) {
            ledger::link_journal_entry(conn, chunk, entry.id).await?;
        }
        Ok(Some(entry.id))
    }
}

/// What an inventory import did (the original's `{created, updated, errors, total_processed}`).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct InventoryImportReport {
    /// Rows that put an item at a location for the first time.
    pub created: i64,
    /// Rows that changed (or confirmed) stock an item already had at the location.
    pub updated: i64,
    /// Row problems, as `Row N: ...` (the first 500); those rows were skipped.
    pub errors: Vec<String>,
    /// Data rows in the file (blank lines not counted).
    pub total_processed: i64,
    /// Stock transactions posted.
    pub inventory_transactions: i64,
    /// The journal entry that booked the value, if any value moved.
    pub journal_entry_id: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Col {
    Sku,
    Quantity,
    Location,
    Lot,
    Mode,
}

fn column(header: &str) -> Option<Col> {
    Some(
        match crate::platform::import::normalize_header(header).as_str() {
            "sku" | "productsku" | "itemsku" | "partnumber" => Col::Sku,
            "quantity" | "qty" | "onhand" | "onhandquantity" | "count" | "quantityonhand" => {
                Col::Quantity
            }
            "location" | "locationcode" | "warehouse" | "bin" => Col::Location,
            "lotnumber" | "lot" | "batch" | "batchnumber" => Col::Lot,
            "mode" => Col::Mode,
            _ => return None,
        },
    )
}

struct Line {
    line: i64,
    sku: String,
    location: Option<String>,
    quantity: BigDecimal,
    lot: Option<String>,
    add: bool,
}

fn row_error(errors: &mut Vec<String>, line: i64, message: impl AsRef<str>) {
    if errors.len() < MAX_ERRORS {
        errors.push(format!("Row {line}: {}", message.as_ref()));
    }
}

/// Imports an inventory CSV (see the module documentation).
pub async fn import_inventory(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    user: i64,
) -> AppResult<InventoryImportReport> {
    let file = crate::platform::import::CsvFile::read(bytes)?;
    let headers = file.headers();
    let mapping: Vec<Option<Col>> = headers.iter().map(|h| column(h)).collect();
    for (needed, name) in [(Col::Sku, "SKU"), (Col::Quantity, "Quantity")] {
        if !mapping.contains(&Some(needed)) {
            return Err(crate::platform::import::file_error(format!(
                "The file needs a {name} column"
            )));
        }
    }
    let mut report = InventoryImportReport::default();
    let mut parsed = Vec::new();
    for row in file.rows() {
        report.total_processed += 1;
        let read = match row {
            CsvRow::Record { line, record } => {
                read_line(headers, &mapping, line, &record).map_err(|e| (line, e))
            }
            CsvRow::Unreadable { line, error: e } => Err((line, format!("Unreadable row: {e}"))),
        };
        match read {
            Ok(l) => parsed.push(l),
            Err((line, message)) => row_error(&mut report.errors, line, message),
        }
    }
    let (found, places) = look_up(conn, &parsed).await?;

    let outcome = conn
        .transaction::<_, Stop, _>(async move |conn| {
            post_lines(conn, user, parsed, &found, &places, report).await
        })
        .await;
    match outcome {
        Ok(report) => Ok(report),
        Err(Stop::Failed(e)) => Err(e),
        Err(Stop::Refused(errors)) => Err(AppError::bad_request(
            errors
                .into_iter()
                .map(|e| e.message)
                .collect::<Vec<_>>()
                .join("; "),
        )),
    }
}

/// Reads and checks one row: the line to post, or what is wrong with it.
fn read_line(
    headers: &[String],
    mapping: &[Option<Col>],
    line: i64,
    record: &csv::StringRecord,
) -> Result<Line, String> {
    let nul = crate::platform::import::nul_columns(headers, record);
    if !nul.is_empty() {
        return Err(format!(
            "{}: {}",
            nul.join(", "),
            crate::platform::import::NUL_CELL
        ));
    }
    let mut fields: HashMap<Col, &str> = HashMap::new();
    for (value, col) in record.iter().zip(mapping) {
        if let Some(c) = col {
            fields.entry(*c).or_insert(value.trim());
        }
    }
    let get = |c: Col| fields.get(&c).copied().filter(|v| !v.is_empty());
    if fields
        .values()
        .any(|v| crate::platform::import::spans_lines(v))
    {
        return Err(crate::platform::import::OPEN_QUOTE.into());
    }
    let Some(sku) = get(Col::Sku).map(str::to_uppercase) else {
        return Err("SKU is required".into());
    };
    let add = match get(Col::Mode).map(str::to_ascii_lowercase).as_deref() {
        None | Some("set") => false,
        Some("add") => true,
        Some(other) => return Err(format!("Mode '{other}' is not set or add")),
    };
    let quantity = read_quantity(get(Col::Quantity), add)?;
    let lot = get(Col::Lot).map(str::to_string);
    if let Some(l) = &lot
        && (l.chars().count() > 100 || crate::platform::db::text::has_hidden_characters(l))
    {
        return Err("Lot Number must be plain text of at most 100 characters".into());
    }
    Ok(Line {
        line,
        sku,
        location: get(Col::Location).map(str::to_uppercase),
        quantity,
        lot,
        add,
    })
}

/// Checks a row's quantity: required, a usable quantity, not too large, above 0 in add mode.
fn read_quantity(cell: Option<&str>, add: bool) -> Result<BigDecimal, String> {
    let quantity = match cell.map(crate::master_data::catalog::import::parse_money) {
        None | Some(Ok(None)) => return Err("Quantity is required".into()),
        Some(Err(e)) => return Err(format!("Quantity {e}")),
        Some(Ok(Some(q))) => q,
    };
    let mut problems = Vec::new();
    check_quantity(&mut problems, "quantity", &quantity);
    if let Some(p) = <[_]>::first(&problems) {
        return Err(format!("Quantity: {}", p.message));
    }
    if quantity >= 100_000_000_000i64 {
        return Err("Quantity is too large".into());
    }
    if add && quantity.is_zero() {
        return Err("Quantity must be greater than 0 in add mode".into());
    }
    Ok(quantity)
}

/// Items by upper-case SKU: id and type.
type FoundItems = HashMap<String, (i64, ItemType)>;
/// Locations by upper-case code: id and whether active.
type FoundPlaces = HashMap<String, (i64, bool)>;

/// The items and locations the lines name, in two queries.
async fn look_up(
    conn: &mut AsyncPgConnection,
    parsed: &[Line],
) -> AppResult<(FoundItems, FoundPlaces)> {
    let skus: Vec<&String> = parsed.iter().map(|l| &l.sku).collect();
    let found: FoundItems = items::table
        .filter(items::sku.eq_any(&skus))
        .select((items::sku, items::id, items::item_type))
        .load::<(String, i64, ItemType)>(conn)
        .await?
        .into_iter()
        .map(|(s, id, t)| (s.to_uppercase(), (id, t)))
        .collect();
    let codes: Vec<&String> = parsed.iter().filter_map(|l| l.location.as_ref()).collect();
    let places: FoundPlaces = locations::table
        .filter(upper(locations::code).eq_any(codes.iter().map(|c| c.as_str())))
        .select((locations::code, locations::id, locations::active))
        .load::<(String, i64, bool)>(conn)
        .await?
        .into_iter()
        .map(|(c, id, a)| (c.to_uppercase(), (id, a)))
        .collect();
    Ok((found, places))
}

/// Posts every line whose item and location are usable (inside the import's transaction)
/// and books the opening balance; the other lines become row errors.
async fn post_lines(
    conn: &mut AsyncPgConnection,
    user: i64,
    parsed: Vec<Line>,
    found: &FoundItems,
    places: &FoundPlaces,
    mut report: InventoryImportReport,
) -> Result<InventoryImportReport, Stop> {
    let mut opening = Opening::new(user, "Opening stock from the inventory import");
    let mut main: Option<i64> = None;
    for l in parsed {
        let Some((item, kind)) = found.get(&l.sku) else {
            row_error(
                &mut report.errors,
                l.line,
                format!("SKU '{}' not found", l.sku),
            );
            continue;
        };
        if *kind == ItemType::Service {
            row_error(
                &mut report.errors,
                l.line,
                format!("{} is a service and carries no stock", l.sku),
            );
            continue;
        }
        let location = match &l.location {
            Some(code) => match places.get(code) {
                Some((id, true)) => *id,
                Some((_, false)) => {
                    row_error(
                        &mut report.errors,
                        l.line,
                        format!("Location '{code}' is inactive"),
                    );
                    continue;
                }
                None => {
                    row_error(
                        &mut report.errors,
                        l.line,
                        format!("Location '{code}' not found"),
                    );
                    continue;
                }
            },
            None => match main {
                Some(id) => id,
                None => {
                    let id = main_location(conn).await?;
                    main = Some(id);
                    id
                }
            },
        };
        let had = if l.add {
            opening
                .add(conn, *item, location, l.quantity, l.lot)
                .await?
        } else {
            opening
                .set(conn, *item, location, l.quantity, l.lot)
                .await?
        };
        if had {
            report.updated += 1;
        } else {
            report.created += 1;
        }
    }
    report.inventory_transactions = opening.transactions() as i64;
    report.journal_entry_id = opening.book(conn).await?;
    Ok(report)
}
