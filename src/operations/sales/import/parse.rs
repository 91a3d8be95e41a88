//! Reading the file: money, units, dates and shop statuses, rows grouped into orders by
//! Order ID, and each row's problems with its file line.

use super::*;

/// A price or amount as shops write it: `$1,234.50`, `€12`, ` 3.75 `, to the cent.
pub(super) fn money(text: &str) -> Option<BigDecimal> {
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '$' | ',' | '€' | '£' | ' ' | '\u{a0}'))
        .collect();
    let value: BigDecimal = cleaned.parse().ok()?;
    Some(cents(&value))
}

/// A whole number of units (`2` or `2.0`).
pub(super) fn units(text: &str) -> Option<i64> {
    let value: BigDecimal = text.trim().parse().ok()?;
    if !value.is_integer() {
        return None;
    }
    value.to_i64()
}

/// An order date as shops write it; a date alone is noon UTC, so it stays the same day in
/// every time zone of the Americas and Europe.
pub(super) fn order_date(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&Utc));
    }
    for format in [
        "%Y-%m-%d %H:%M:%S %z",
        "%Y-%m-%d %H:%M:%S%z",
        "%Y-%m-%d %H:%M %z",
    ] {
        if let Ok(t) = DateTime::parse_from_str(text, format) {
            return Some(t.with_timezone(&Utc));
        }
    }
    for format in [
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%m/%d/%Y %H:%M:%S",
        "%m/%d/%Y %H:%M",
    ] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, format) {
            return Some(t.and_utc());
        }
    }
    let noon = NaiveTime::from_hms_opt(12, 0, 0)?;
    ["%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y", "%b %d, %Y", "%d %b %Y"]
        .iter()
        .filter_map(|f| NaiveDate::parse_from_str(text, f).ok())
        // `%Y` also reads "26" as the year 26: a two-digit year is left to `%y`.
        .find(|d| d.year() >= 1900)
        .map(|d| d.and_time(noon).and_utc())
}

/// What a shop's order status means here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ShopStatus {
    /// Open: imported as pending.
    Open,
    /// Cancelled, refunded or voided: not imported.
    Cancelled,
    /// Shipped, fulfilled or delivered: imported as pending, reported.
    Shipped,
}

pub(super) fn shop_status(text: Option<&str>) -> ShopStatus {
    let Some(text) = text else {
        return ShopStatus::Open;
    };
    match normalize_header(text).as_str() {
        "cancelled" | "canceled" | "refunded" | "voided" | "void" | "declined" | "rejected" => {
            ShopStatus::Cancelled
        }
        "shipped" | "fulfilled" | "delivered" | "completed" | "complete" | "closed"
        | "partiallyfulfilled" | "partial" => ShopStatus::Shipped,
        _ => ShopStatus::Open,
    }
}

pub(super) fn shop_paid(text: Option<&str>) -> bool {
    text.is_some_and(|t| {
        matches!(
            normalize_header(t).as_str(),
            "paid" | "completed" | "complete" | "partiallypaid" | "captured" | "settled"
        )
    })
}

/// One row's line of an order, as read.
#[derive(Debug, Clone)]
pub(super) struct RowLine {
    pub(super) row: i64,
    pub(super) sku: Option<String>,
    pub(super) quantity: Option<i32>,
    pub(super) unit_price: Option<BigDecimal>,
}

/// An order as read from its rows.
#[derive(Debug, Clone, Default)]
pub(super) struct FileOrder {
    /// The shop's order id.
    pub(super) order_id: String,
    /// File lines of its rows.
    pub(super) rows: Vec<i64>,
    pub(super) lines: Vec<RowLine>,
    pub(super) date: Option<DateTime<Utc>>,
    pub(super) status: Option<String>,
    pub(super) payment: Option<String>,
    pub(super) email: Option<String>,
    pub(super) name: Option<String>,
    pub(super) phone: Option<String>,
    pub(super) shipping: Option<BigDecimal>,
    pub(super) tax: Option<BigDecimal>,
    pub(super) address: [Option<String>; 6],
    pub(super) notes: Option<String>,
    pub(super) problems: Vec<ImportRowError>,
}

impl FileOrder {
    pub(super) fn refuse(&mut self, row: i64, column: Option<Column>, reason: impl Into<String>) {
        self.problems.push(ImportRowError {
            row,
            field: column.map(|c| c.field().to_string()),
            reason: reason.into(),
        });
    }
}

/// A file as read: its orders in first-seen order, and the rows that belong to none.
#[derive(Debug)]
pub(super) struct ParsedFile {
    pub(super) source: Option<SalesOrderSource>,
    pub(super) total_rows: usize,
    pub(super) orders: Vec<FileOrder>,
    /// Rows without an Order ID (or unreadable rows): each is an error of its own.
    pub(super) loose: Vec<ImportRowError>,
}

pub(super) fn parse(bytes: &[u8]) -> AppResult<ParsedFile> {
    let text = csv_engine::decode(bytes);
    let mut reader = csv_engine::reader(&text);
    let lines = csv_engine::Lines::of(&text);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| csv_engine::file_error(format!("Not a readable CSV file: {e}")))?
        .iter()
        .map(str::to_string)
        .collect();
    let compact: HashSet<String> = headers.iter().map(|h| normalize_header(h)).collect();
    let source = detect_source(&compact);
    let columns = Columns::of(&headers, source);
    let missing: Vec<&str> = REQUIRED
        .iter()
        .filter(|c| !columns.0.contains_key(c))
        .map(|c| c.header())
        .collect();
    if !missing.is_empty() {
        return Err(csv_engine::file_error(format!(
            "Missing required columns: {}. The template's header is: {}",
            missing.join(", "),
            template().lines().next().unwrap_or_default()
        )));
    }
    let mut file = ParsedFile {
        source,
        total_rows: 0,
        orders: Vec::new(),
        loose: Vec::new(),
    };
    let mut index: HashMap<String, usize> = HashMap::new();
    for (n, record) in reader.records().enumerate() {
        file.total_rows += 1;
        if file.total_rows > MAX_ROWS {
            return Err(csv_engine::file_error(format!(
                "The file has more than {MAX_ROWS} rows; split it into smaller files"
            )));
        }
        let fallback = i64::try_from(n).unwrap_or(i64::MAX - 2) + 2;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let row = e.position().map_or(fallback, |p| lines.line_at(p.byte()));
                file.loose.push(ImportRowError {
                    row,
                    field: None,
                    reason: format!("Not a readable CSV row: {e}"),
                });
                continue;
            }
        };
        let row = lines.line_of(&record, fallback);
        let nul = csv_engine::nul_columns(&headers, &record);
        let Some(order_id) = columns.get(&record, Column::OrderId) else {
            file.loose.push(ImportRowError {
                row,
                field: Some(Column::OrderId.field().into()),
                reason: "Order ID is required".into(),
            });
            continue;
        };
        let key = order_id.trim_start_matches('#').to_string();
        let at = *index.entry(key.clone()).or_insert_with(|| {
            file.orders.push(FileOrder {
                order_id: key.clone(),
                ..FileOrder::default()
            });
            file.orders.len() - 1
        });
        let Some(order) = file.orders.get_mut(at) else {
            continue;
        };
        order.rows.push(row);
        if !nul.is_empty() {
            order.refuse(
                row,
                None,
                format!("{}: {}", nul.join(", "), csv_engine::NUL_CELL),
            );
            continue;
        }
        if columns
            .0
            .keys()
            .filter(|c| !matches!(c, Column::Notes | Column::Line1 | Column::Line2))
            .any(|c| {
                columns
                    .get(&record, *c)
                    .is_some_and(csv_engine::spans_lines)
            })
        {
            order.refuse(row, None, csv_engine::OPEN_QUOTE);
            continue;
        }
        read_row(order, &columns, &record, row);
    }
    Ok(file)
}

/// Reads one row into its order: the line, and the order's values the order has not yet.
pub(super) fn read_row(
    order: &mut FileOrder,
    columns: &Columns,
    record: &csv::StringRecord,
    row: i64,
) {
    let cells = RowCells {
        columns,
        record,
        row,
    };
    let sku = cells.text(order, Column::Sku, SHORT_MAX);
    if cells.get(Column::Sku).is_none() {
        order.refuse(row, Some(Column::Sku), "Product SKU is required");
    }
    let quantity = cells.quantity(order);
    let unit_price = cells.amount(order, Column::UnitPrice);
    let shipping = cells.amount(order, Column::ShippingCost);
    let tax = cells.amount(order, Column::TaxAmount);
    order.lines.push(RowLine {
        row,
        sku,
        quantity,
        unit_price,
    });
    if order.shipping.is_none() {
        order.shipping = shipping;
    }
    if order.tax.is_none() {
        order.tax = tax;
    }
    read_order_values(order, &cells);
}

/// Takes the order's values from a row for those the order has not yet: date, e-mail,
/// address, name, phone, notes, status and payment.
fn read_order_values(order: &mut FileOrder, cells: &RowCells) {
    let row = cells.row;
    if order.date.is_none()
        && let Some(value) = cells.get(Column::OrderDate)
    {
        match order_date(value) {
            Some(d) => order.date = Some(d),
            None => order.refuse(
                row,
                Some(Column::OrderDate),
                format!("'{value}' is not a date (use YYYY-MM-DD)"),
            ),
        }
    }
    if order.email.is_none() {
        order.email = cells
            .text(order, Column::Email, SHORT_MAX)
            .map(|e| e.to_lowercase());
        if let Some(e) = &order.email
            && !plausible_email(e)
        {
            order.refuse(
                row,
                Some(Column::Email),
                format!("'{e}' is not an e-mail address"),
            );
        }
    }
    for (slot, column, max) in [
        (0, Column::Line1, SHORT_MAX),
        (1, Column::Line2, SHORT_MAX),
        (2, Column::City, SHORT_MAX),
        (3, Column::State, SHORT_MAX),
        (4, Column::Zip, SHORT_MAX),
        (5, Column::Country, SHORT_MAX),
    ] {
        if order.address[slot].is_none() {
            order.address[slot] = cells.text(order, column, max);
        }
    }
    if order.name.is_none() {
        order.name = cells.text(order, Column::Name, SHORT_MAX);
    }
    if order.phone.is_none() {
        order.phone = cells.text(order, Column::Phone, SHORT_MAX);
    }
    if order.notes.is_none() {
        order.notes = cells.text(order, Column::Notes, NOTES_MAX);
    }
    if order.status.is_none() {
        order.status = cells.get(Column::OrderStatus).map(str::to_string);
    }
    if order.payment.is_none() {
        order.payment = cells.get(Column::PaymentStatus).map(str::to_string);
    }
}

/// One row of the file, read cell by cell; a bad cell is refused on the row's order.
struct RowCells<'a> {
    columns: &'a Columns,
    record: &'a csv::StringRecord,
    /// The row's file line.
    row: i64,
}

impl<'a> RowCells<'a> {
    /// The trimmed value of a column, when it is present and not empty.
    fn get(&self, c: Column) -> Option<&'a str> {
        self.columns.get(self.record, c)
    }

    /// A text value of at most `max` characters.
    fn text(&self, order: &mut FileOrder, c: Column, max: usize) -> Option<String> {
        let value = self.get(c)?;
        if value.chars().count() > max {
            order.refuse(
                self.row,
                Some(c),
                format!("String should have at most {max} characters"),
            );
            return None;
        }
        Some(value.to_string())
    }

    /// The quantity: required, a whole number from 1 to [`LINE_QUANTITY_MAX`].
    fn quantity(&self, order: &mut FileOrder) -> Option<i32> {
        let row = self.row;
        match self.get(Column::Quantity) {
            None => {
                order.refuse(row, Some(Column::Quantity), "Quantity is required");
                None
            }
            Some(q) => match units(q) {
                Some(n) if (1..=i64::from(LINE_QUANTITY_MAX)).contains(&n) => i32::try_from(n).ok(),
                Some(_) => {
                    order.refuse(
                        row,
                        Some(Column::Quantity),
                        format!("Quantity must be between 1 and {LINE_QUANTITY_MAX}"),
                    );
                    None
                }
                None => {
                    order.refuse(
                        row,
                        Some(Column::Quantity),
                        format!("'{q}' is not a whole number"),
                    );
                    None
                }
            },
        }
    }

    /// An amount that is not negative.
    fn amount(&self, order: &mut FileOrder, c: Column) -> Option<BigDecimal> {
        let value = self.get(c)?;
        match money(value) {
            Some(v) if v >= BigDecimal::zero() => Some(v),
            Some(_) => {
                order.refuse(self.row, Some(c), "Must not be negative");
                None
            }
            None => {
                order.refuse(self.row, Some(c), format!("'{value}' is not an amount"));
                None
            }
        }
    }
}

pub(super) fn plausible_email(e: &str) -> bool {
    match e.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !e.contains(char::is_whitespace)
        }
        None => false,
    }
}

/// The domain of [`placeholder_email`].
pub(super) const PLACEHOLDER_DOMAIN: &str = "@placeholder.local";

/// The address an order without an e-mail is filed under (CONTRACT 5.11).
pub(super) fn placeholder_email(order_id: &str) -> String {
    let id: String = order_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(64)
        .collect();
    format!("import-{}{PLACEHOLDER_DOMAIN}", id.to_lowercase())
}
