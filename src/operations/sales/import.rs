//! Order CSV import (CONTRACT 5.11, spec `POST /orders/import/`, onboarding step 5).
//!
//! A file from a spreadsheet or a shop (the template, Shopify, Squarespace, WooCommerce, Etsy
//! or TikTok exports) is read by the shared CSV engine ([`crate::platform::import`]): byte-order mark,
//! Windows-1252, `;` and tab separators, file line numbers. Rows sharing an Order ID are one
//! order, whatever their place in the file; values a shop writes only on an order's first row
//! (e-mail, address, shipping, tax) are taken from the first row that has them.
//!
//! An order is imported whole or not at all: one bad row (an unknown SKU, a quantity that is
//! not a whole number...) skips its order and is listed with its line and column. An order
//! already imported from the same source (same Order ID) is skipped, so importing a file
//! twice creates nothing the second time. Customers are found by e-mail and, when asked,
//! created. Imported orders are `pending`: a shop's "shipped" or "paid" is reported, not
//! copied, because stock and the books only move through Strata's own shipments and
//! payments (DOMAIN: both ledgers stay true).
//!
//! Without `dry_run` everything is written in ONE transaction with multi-row inserts, under
//! an advisory lock so two imports of the same file cannot both create an order; if the
//! database fails half-way nothing is imported and the call fails.

use std::collections::{HashMap, HashSet};

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::cents;
use crate::ledgers::inventory::rules::NOTES_MAX;
use crate::master_data::catalog::import::ImportRowError;
use crate::master_data::partners::customer::{self, CustomerCreateInput};
use crate::master_data::partners::model as partners;
use crate::operations::sales::model::{
    NewEvent, NewLine, RushLevel, SalesEventType, SalesOrderSource, SalesOrderType,
};
use crate::operations::sales::rules::{self, LINE_QUANTITY_MAX, NewOrder, SHORT_MAX};
use crate::platform::db::schema::{
    customers, items, sales_order_events, sales_order_lines, sales_orders,
};
use crate::platform::db::text::{lower, upper};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::import::{self as csv_engine, normalize_header};

/// Largest number of data rows in one file.
pub const MAX_ROWS: usize = 50_000;
/// Orders shown in a report.
pub const PREVIEW_ORDERS: usize = 100;
/// Row problems listed in a report.
pub const MAX_ERRORS: usize = 200;
/// Orders per INSERT (31 columns each, far below PostgreSQL's 65,535 parameters).
const ORDER_CHUNK: usize = 1_000;
/// Lines or events per INSERT.
const LINE_CHUNK: usize = 5_000;
/// Values per look-up.
const LOOKUP_CHUNK: usize = 5_000;
/// The columns a file must have (CONTRACT 5.11).
const REQUIRED: [Column; 4] = [
    Column::OrderId,
    Column::Email,
    Column::Sku,
    Column::Quantity,
];

/// The template offered for download (CONTRACT 5.11's header and an example order of two
/// lines).
pub fn template() -> String {
    [
        "Order ID,Order Date,Order Status,Payment Status,Customer Email,Customer Name,Product SKU,Quantity,Unit Price,Shipping Cost,Tax Amount,Shipping Address Line 1,Shipping City,Shipping State,Shipping Zip,Shipping Country,Customer Notes",
        "1001,2026-01-15,pending,paid,jane.doe@example.com,Jane Doe,FG-BENCHY,2,$24.99,5.00,3.75,123 Main St,Springfield,IL,62701,USA,Gift wrap please",
        "1001,2026-01-15,,,jane.doe@example.com,Jane Doe,FG-VASE,1,39.00,,,,,,,,",
        "",
    ]
    .join("\r\n")
}

// ------------------------------------------------------------------------------ columns

/// What a column of the file can mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Column {
    OrderId,
    OrderDate,
    OrderStatus,
    PaymentStatus,
    Email,
    Name,
    Phone,
    Sku,
    Quantity,
    UnitPrice,
    ShippingCost,
    TaxAmount,
    Line1,
    Line2,
    City,
    State,
    Zip,
    Country,
    Notes,
}

impl Column {
    /// The snake_case name a row error gives (the template's header, compacted).
    fn field(self) -> &'static str {
        match self {
            Column::OrderId => "order_id",
            Column::OrderDate => "order_date",
            Column::OrderStatus => "order_status",
            Column::PaymentStatus => "payment_status",
            Column::Email => "customer_email",
            Column::Name => "customer_name",
            Column::Phone => "customer_phone",
            Column::Sku => "product_sku",
            Column::Quantity => "quantity",
            Column::UnitPrice => "unit_price",
            Column::ShippingCost => "shipping_cost",
            Column::TaxAmount => "tax_amount",
            Column::Line1 => "shipping_address_line1",
            Column::Line2 => "shipping_address_line2",
            Column::City => "shipping_city",
            Column::State => "shipping_state",
            Column::Zip => "shipping_zip",
            Column::Country => "shipping_country",
            Column::Notes => "customer_notes",
        }
    }

    /// The header the template writes.
    fn header(self) -> &'static str {
        match self {
            Column::OrderId => "Order ID",
            Column::Email => "Customer Email",
            Column::Sku => "Product SKU",
            Column::Quantity => "Quantity",
            other => other.field(),
        }
    }
}

/// Each column's header spellings (compacted by [`normalize_header`]), best first: the
/// template's, then the shops' exports.
const ALIASES: &[(Column, &[&str])] = &[
    (
        Column::OrderId,
        &[
            "orderid",
            "ordernumber",
            "orderno",
            "ordernum",
            "order",
            "salesorderid",
            "externalorderid",
        ],
    ),
    (
        Column::OrderDate,
        &[
            "orderdate",
            "createdat",
            "datecreated",
            "saledate",
            "createdtime",
            "orderdatetime",
            "date",
        ],
    ),
    (
        Column::OrderStatus,
        &["orderstatus", "fulfillmentstatus", "status"],
    ),
    (Column::PaymentStatus, &["paymentstatus", "financialstatus"]),
    (
        Column::Email,
        &[
            "customeremail",
            "email",
            "buyeremail",
            "billingemail",
            "billingemailaddress",
            "emailaddress",
        ],
    ),
    (
        Column::Name,
        &[
            "customername",
            "shippingname",
            "billingname",
            "buyername",
            "fullname",
            "shipname",
            "recipient",
            "buyer",
            "customer",
        ],
    ),
    (
        Column::Phone,
        &["customerphone", "phone", "shippingphone", "billingphone"],
    ),
    (
        Column::Sku,
        &[
            "productsku",
            "sku",
            "lineitemsku",
            "itemsku",
            "sellersku",
            "variantsku",
            "skucode",
        ],
    ),
    (
        Column::Quantity,
        &[
            "quantity",
            "qty",
            "lineitemquantity",
            "itemquantity",
            "quantitypurchased",
        ],
    ),
    (
        Column::UnitPrice,
        &[
            "unitprice",
            "lineitemprice",
            "itemprice",
            "itemcost",
            "skuunitoriginalprice",
            "priceeach",
            "price",
        ],
    ),
    (
        Column::ShippingCost,
        &[
            "shippingcost",
            "shipping",
            "shippingprice",
            "ordershipping",
            "shippingfeeafterdiscount",
            "shippingfee",
            "shippingtotal",
        ],
    ),
    (
        Column::TaxAmount,
        &[
            "taxamount",
            "taxes",
            "tax",
            "taxestotal",
            "ordertotaltax",
            "salestax",
            "taxtotal",
        ],
    ),
    (
        Column::Line1,
        &[
            "shippingaddressline1",
            "shippingaddress1",
            "shippingstreet",
            "shipaddress1",
            "shippingaddress",
            "addressline1",
            "address1",
            "street",
        ],
    ),
    (
        Column::Line2,
        &[
            "shippingaddressline2",
            "shippingaddress2",
            "shipaddress2",
            "addressline2",
            "address2",
        ],
    ),
    (Column::City, &["shippingcity", "shipcity", "city"]),
    (
        Column::State,
        &[
            "shippingstate",
            "shippingprovince",
            "shipstate",
            "shippingprovincename",
            "state",
            "province",
            "region",
        ],
    ),
    (
        Column::Zip,
        &[
            "shippingzip",
            "shippingpostcode",
            "shippingpostalcode",
            "shipzipcode",
            "zip",
            "zipcode",
            "postcode",
            "postalcode",
        ],
    ),
    (
        Column::Country,
        &[
            "shippingcountry",
            "shipcountry",
            "shippingcountrycode",
            "country",
            "countrycode",
        ],
    ),
    (
        Column::Notes,
        &[
            "customernotes",
            "notes",
            "note",
            "ordernotes",
            "customernote",
            "messagefrombuyer",
            "buyermessage",
        ],
    ),
];

/// Where a file came from, judged by its header.
fn detect_source(headers: &HashSet<String>) -> Option<SalesOrderSource> {
    let has = |h: &str| headers.contains(h);
    if has("lineitemsku") && has("name") && !has("orderid") {
        Some(SalesOrderSource::Shopify)
    } else if has("lineitemsku") {
        Some(SalesOrderSource::Squarespace)
    } else if has("itemcost") || has("ordertotaltax") {
        Some(SalesOrderSource::Woocommerce)
    } else if has("saledate") || has("shipzipcode") {
        Some(SalesOrderSource::Etsy)
    } else if has("sellersku") || has("skuunitoriginalprice") {
        Some(SalesOrderSource::Tiktok)
    } else {
        None
    }
}

/// Which field of a record each column is.
struct Columns(HashMap<Column, usize>);

impl Columns {
    fn of(headers: &[String], source: Option<SalesOrderSource>) -> Columns {
        let compact: Vec<String> = headers.iter().map(|h| normalize_header(h)).collect();
        let mut map = HashMap::new();
        for (column, aliases) in ALIASES {
            if let Some(i) = aliases
                .iter()
                .find_map(|a| compact.iter().position(|h| h == a))
            {
                map.insert(*column, i);
            }
        }
        // Shopify names the order number "Name" ("#1001").
        if source == Some(SalesOrderSource::Shopify)
            && !map.contains_key(&Column::OrderId)
            && let Some(i) = compact.iter().position(|h| h == "name")
        {
            map.insert(Column::OrderId, i);
        }
        Columns(map)
    }

    fn get<'r>(&self, record: &'r csv::StringRecord, column: Column) -> Option<&'r str> {
        self.0
            .get(&column)
            .and_then(|&i| record.get(i))
            .map(str::trim)
            .filter(|v| !v.is_empty())
    }
}

// ------------------------------------------------------------------------------ parsing

/// A price or amount as shops write it: `$1,234.50`, `€12`, ` 3.75 `, to the cent.
fn money(text: &str) -> Option<BigDecimal> {
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '$' | ',' | '€' | '£' | ' ' | '\u{a0}'))
        .collect();
    let value: BigDecimal = cleaned.parse().ok()?;
    Some(cents(&value))
}

/// A whole number of units (`2` or `2.0`).
fn units(text: &str) -> Option<i64> {
    let value: BigDecimal = text.trim().parse().ok()?;
    if !value.is_integer() {
        return None;
    }
    value.to_i64()
}

/// An order date as shops write it; a date alone is noon UTC, so it stays the same day in
/// every time zone of the Americas and Europe.
fn order_date(text: &str) -> Option<DateTime<Utc>> {
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
enum ShopStatus {
    /// Open: imported as pending.
    Open,
    /// Cancelled, refunded or voided: not imported.
    Cancelled,
    /// Shipped, fulfilled or delivered: imported as pending, reported.
    Shipped,
}

fn shop_status(text: Option<&str>) -> ShopStatus {
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

fn shop_paid(text: Option<&str>) -> bool {
    text.is_some_and(|t| {
        matches!(
            normalize_header(t).as_str(),
            "paid" | "completed" | "complete" | "partiallypaid" | "captured" | "settled"
        )
    })
}

/// One row's line of an order, as read.
#[derive(Debug, Clone)]
struct RowLine {
    row: i64,
    sku: Option<String>,
    quantity: Option<i32>,
    unit_price: Option<BigDecimal>,
}

/// An order as read from its rows.
#[derive(Debug, Clone, Default)]
struct FileOrder {
    /// The shop's order id.
    order_id: String,
    /// File lines of its rows.
    rows: Vec<i64>,
    lines: Vec<RowLine>,
    date: Option<DateTime<Utc>>,
    status: Option<String>,
    payment: Option<String>,
    email: Option<String>,
    name: Option<String>,
    phone: Option<String>,
    shipping: Option<BigDecimal>,
    tax: Option<BigDecimal>,
    address: [Option<String>; 6],
    notes: Option<String>,
    problems: Vec<ImportRowError>,
}

impl FileOrder {
    fn refuse(&mut self, row: i64, column: Option<Column>, reason: impl Into<String>) {
        self.problems.push(ImportRowError {
            row,
            field: column.map(|c| c.field().to_string()),
            reason: reason.into(),
        });
    }
}

/// A file as read: its orders in first-seen order, and the rows that belong to none.
#[derive(Debug)]
struct ParsedFile {
    source: Option<SalesOrderSource>,
    total_rows: usize,
    orders: Vec<FileOrder>,
    /// Rows without an Order ID (or unreadable rows): each is an error of its own.
    loose: Vec<ImportRowError>,
}

fn parse(bytes: &[u8]) -> AppResult<ParsedFile> {
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
fn read_row(order: &mut FileOrder, columns: &Columns, record: &csv::StringRecord, row: i64) {
    let get = |c: Column| columns.get(record, c);
    let text = |order: &mut FileOrder, c: Column, max: usize| -> Option<String> {
        let value = get(c)?;
        if value.chars().count() > max {
            order.refuse(
                row,
                Some(c),
                format!("String should have at most {max} characters"),
            );
            return None;
        }
        Some(value.to_string())
    };
    let sku = text(order, Column::Sku, SHORT_MAX);
    if get(Column::Sku).is_none() {
        order.refuse(row, Some(Column::Sku), "Product SKU is required");
    }
    let quantity = match get(Column::Quantity) {
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
    };
    let amount = |order: &mut FileOrder, c: Column| -> Option<BigDecimal> {
        let value = get(c)?;
        match money(value) {
            Some(v) if v >= BigDecimal::zero() => Some(v),
            Some(_) => {
                order.refuse(row, Some(c), "Must not be negative");
                None
            }
            None => {
                order.refuse(row, Some(c), format!("'{value}' is not an amount"));
                None
            }
        }
    };
    let unit_price = amount(order, Column::UnitPrice);
    let shipping = amount(order, Column::ShippingCost);
    let tax = amount(order, Column::TaxAmount);
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
    if order.date.is_none()
        && let Some(value) = get(Column::OrderDate)
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
        order.email = text(order, Column::Email, SHORT_MAX).map(|e| e.to_lowercase());
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
            order.address[slot] = text(order, column, max);
        }
    }
    if order.name.is_none() {
        order.name = text(order, Column::Name, SHORT_MAX);
    }
    if order.phone.is_none() {
        order.phone = text(order, Column::Phone, SHORT_MAX);
    }
    if order.notes.is_none() {
        order.notes = text(order, Column::Notes, NOTES_MAX);
    }
    if order.status.is_none() {
        order.status = get(Column::OrderStatus).map(str::to_string);
    }
    if order.payment.is_none() {
        order.payment = get(Column::PaymentStatus).map(str::to_string);
    }
}

fn plausible_email(e: &str) -> bool {
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
const PLACEHOLDER_DOMAIN: &str = "@placeholder.local";

/// The address an order without an e-mail is filed under (CONTRACT 5.11).
fn placeholder_email(order_id: &str) -> String {
    let id: String = order_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(64)
        .collect();
    format!("import-{}{PLACEHOLDER_DOMAIN}", id.to_lowercase())
}

// ------------------------------------------------------------------------------ report

/// One order of the file and what became of it.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderImportPreview {
    /// The shop's order id.
    pub order_id: String,
    /// The file line of its first row.
    pub first_row: i64,
    /// How many rows (lines) it has.
    pub line_count: i32,
    /// Units over all lines.
    pub units: i64,
    /// The customer's e-mail (a placeholder when the file has none).
    pub customer_email: String,
    /// The customer's name as the file writes it.
    pub customer_name: Option<String>,
    /// `existing`, `created` (or `new` in a preview) or `none` (not linked: customers are
    /// not created on request).
    pub customer: String,
    /// Sum of the lines.
    pub subtotal: Option<Decimal>,
    /// Tax (the file's, else the company rate).
    pub tax_amount: Option<Decimal>,
    /// Shipping charged.
    pub shipping_cost: Option<Decimal>,
    /// subtotal + tax + shipping.
    pub grand_total: Option<Decimal>,
    /// `ready` (preview), `created`, `duplicate`, `cancelled` or `invalid`.
    pub outcome: String,
    /// The Strata order number, once created (or the existing one for a duplicate).
    pub order_number: Option<String>,
    /// Why it is not imported.
    pub errors: Vec<String>,
}

/// What an order import did (or would do, for a preview): the REST shape of CONTRACT 5.11
/// (`total_rows`, `created`, `skipped`, `errors`) and more.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderImportReport {
    /// Data rows in the file.
    pub total_rows: i64,
    /// Distinct orders (Order IDs) in the file.
    pub orders_found: i64,
    /// Orders created (for a preview: orders that would be).
    pub created: i64,
    /// Orders not created: invalid, already imported or cancelled in the file.
    pub skipped: i64,
    /// Customers created (for a preview: that would be).
    pub customers_created: i64,
    /// Every row problem, by file line (at most 200).
    pub errors: Vec<ImportRowError>,
    /// Things to know that are not errors.
    pub warnings: Vec<String>,
    /// The first 100 orders of the file.
    pub orders: Vec<OrderImportPreview>,
    /// True when the file has more orders than `orders` lists.
    pub truncated: bool,
    /// `shopify`, `squarespace`, `woocommerce`, `etsy`, `tiktok` or `strata` (the template).
    pub detected_format: String,
    /// The source the created orders carry.
    pub source: SalesOrderSource,
    /// False for a preview.
    pub applied: bool,
    /// One sentence for the user.
    pub message: String,
}

// ------------------------------------------------------------------------------ planning

#[derive(Debug, Clone)]
struct Product {
    id: i64,
    sku: String,
    name: String,
    active: bool,
    price: Option<BigDecimal>,
}

/// A customer the file names that exists: what an order copies, and whether it is active.
type Known = (rules::CustomerFacts, bool);

/// An order ready to write.
struct Planned {
    at: usize,
    customer_email: String,
    existing_customer: Option<i64>,
    new_customer: Option<partners::CustomerForm>,
    customer_name: Option<String>,
    phone: Option<String>,
    address: [Option<String>; 6],
    totals: rules::Totals,
    lines: Vec<(i64, i32, BigDecimal, BigDecimal)>,
    product_name: String,
}

/// Options of one import.
#[derive(Debug, Clone, Copy)]
pub struct ImportOptions {
    /// Create customers that do not exist (by e-mail).
    pub create_customers: bool,
    /// The source the orders carry (default: judged from the file, else manual).
    pub source: Option<SalesOrderSource>,
    /// Only check and report.
    pub dry_run: bool,
}

/// Previews (`dry_run`) or imports an order CSV file for `user`.
pub async fn import_orders(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    options: ImportOptions,
    user: i64,
) -> AppResult<OrderImportReport> {
    let file = parse(bytes)?;
    if options.dry_run {
        return plan_and_write(conn, file, options, user).await;
    }
    conn.transaction::<_, AppError, _>(async |conn| {
        // Two imports of one file at once would both see its orders as new.
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext('strata.order_import'))")
            .execute(conn)
            .await?;
        plan_and_write(conn, file, options, user).await
    })
    .await
}

async fn plan_and_write(
    conn: &mut AsyncPgConnection,
    mut file: ParsedFile,
    options: ImportOptions,
    user: i64,
) -> AppResult<OrderImportReport> {
    let source = options
        .source
        .or(file.source)
        .unwrap_or(SalesOrderSource::Manual);
    let products = products_of(conn, &file.orders).await?;
    let duplicates = existing_orders(conn, source, &file.orders).await?;
    for order in &mut file.orders {
        if order.email.is_none() {
            order.email = Some(placeholder_email(&order.order_id));
        }
    }
    let customers = customers_of(conn, &file.orders).await?;
    let tax_rate = rules::company_tax_rate(conn).await?;
    let mut outcomes: Vec<(String, Option<String>)> =
        vec![(String::new(), None); file.orders.len()];
    let mut planned: Vec<Planned> = Vec::new();
    let mut shipped_in_file = 0usize;
    let mut paid_in_file = 0usize;
    let mut new_emails: HashSet<String> = HashSet::new();
    for (at, order) in file.orders.iter_mut().enumerate() {
        let first_row = order.rows.as_slice().first().copied().unwrap_or(0);
        if let Some(number) = duplicates.get(&order.order_id) {
            outcomes[at] = ("duplicate".into(), Some(number.clone()));
            order.refuse(
                first_row,
                Some(Column::OrderId),
                format!("Order {} was already imported as {number}", order.order_id),
            );
            continue;
        }
        let mut lines = Vec::new();
        for line in order.lines.clone() {
            let (Some(sku), Some(quantity)) = (&line.sku, line.quantity) else {
                continue;
            };
            let Some(p) = products.get(&sku.to_uppercase()) else {
                order.refuse(
                    line.row,
                    Some(Column::Sku),
                    format!("Product SKU '{sku}' not found"),
                );
                continue;
            };
            if !p.active {
                order.refuse(
                    line.row,
                    Some(Column::Sku),
                    format!("Product '{}' is discontinued and cannot be ordered", p.sku),
                );
                continue;
            }
            let price = match (&line.unit_price, &p.price) {
                (Some(given), _) => given.clone(),
                (None, Some(price)) if *price > BigDecimal::zero() => cents(price),
                _ => {
                    order.refuse(
                        line.row,
                        Some(Column::UnitPrice),
                        format!(
                            "Product '{}' has no selling price configured; give a Unit Price",
                            p.sku
                        ),
                    );
                    continue;
                }
            };
            let total = rules::line_total(quantity, &price, &BigDecimal::zero());
            lines.push((p.clone(), quantity, price, total));
        }
        let email = order.email.clone().unwrap_or_default();
        let known = customers.get(&email);
        if let Some(k) = known
            && !k.1
        {
            order.refuse(
                first_row,
                Some(Column::Email),
                format!("Customer {email} is not active"),
            );
        }
        let new_customer = match known {
            None if options.create_customers && !new_emails.contains(&email) => {
                match new_customer(order, &email) {
                    Ok(c) => Some(c),
                    Err(reason) => {
                        order.refuse(first_row, Some(Column::Name), reason);
                        None
                    }
                }
            }
            _ => None,
        };
        if shop_status(order.status.as_deref()) == ShopStatus::Cancelled {
            outcomes[at] = ("cancelled".into(), None);
            continue;
        }
        if !order.problems.is_empty() {
            outcomes[at] = ("invalid".into(), None);
            continue;
        }
        if shop_status(order.status.as_deref()) == ShopStatus::Shipped {
            shipped_in_file += 1;
        }
        if shop_paid(order.payment.as_deref()) {
            paid_in_file += 1;
        }
        if new_customer.is_some() {
            new_emails.insert(email.clone());
        }
        let line_totals: Vec<BigDecimal> = lines.iter().map(|l| l.3.clone()).collect();
        let shipping = order.shipping.clone().unwrap_or_default();
        let mut totals = rules::totals(&line_totals, &shipping, &tax_rate);
        if let Some(tax) = &order.tax {
            // The shop's tax is what the customer paid; keep it, with its effective rate.
            totals.tax_amount = tax.clone();
            totals.tax_rate = if totals.subtotal.is_zero() {
                BigDecimal::zero()
            } else {
                (tax / &totals.subtotal)
                    .with_scale_round(6, bigdecimal::RoundingMode::HalfUp)
                    .min(BigDecimal::from(9))
            };
            totals.grand_total = &totals.subtotal + &totals.shipping_cost + tax;
        }
        let product_name = match lines.as_slice() {
            [(p, q, _, _)] => format!("{} x{q}", p.name),
            many => format!("{} items", many.len()),
        };
        let address = if order.address.iter().any(Option::is_some) {
            order.address.clone()
        } else {
            known.map(|k| k.0.address.clone()).unwrap_or_default()
        };
        outcomes[at] = ("ready".into(), None);
        planned.push(Planned {
            at,
            customer_email: email,
            existing_customer: known.and_then(|k| k.0.id),
            new_customer,
            customer_name: order
                .name
                .clone()
                .or_else(|| known.and_then(|k| k.0.name.clone())),
            phone: order
                .phone
                .clone()
                .or_else(|| known.and_then(|k| k.0.phone.clone())),
            address,
            totals,
            lines: lines
                .into_iter()
                .map(|(p, q, price, total)| (p.id, q, price, total))
                .collect(),
            product_name,
        });
    }
    let customers_created = planned.iter().filter(|p| p.new_customer.is_some()).count();
    let mut numbers: HashMap<usize, String> = HashMap::new();
    if !options.dry_run && !planned.is_empty() {
        numbers = write(conn, &file, &planned, source, user).await?;
    }
    for p in &planned {
        outcomes[p.at] = if options.dry_run {
            ("ready".into(), None)
        } else {
            ("created".into(), numbers.get(&p.at).cloned())
        };
    }
    Ok(report(
        &file,
        &planned,
        &outcomes,
        ReportFacts {
            source,
            applied: !options.dry_run,
            customers_created,
            create_customers: options.create_customers,
            shipped_in_file,
            paid_in_file,
            customers: &customers,
        },
    ))
}

/// The customer an order creates: the file's name split into given and family name (a
/// single word is the given name; no name at all takes the e-mail's local part).
fn new_customer(order: &FileOrder, email: &str) -> Result<partners::CustomerForm, String> {
    let full = order.name.clone().unwrap_or_default();
    let mut parts = full.trim().splitn(2, char::is_whitespace);
    let given = parts.next().map(str::trim).filter(|s| !s.is_empty());
    let family = parts.next().map(str::trim).filter(|s| !s.is_empty());
    let local = email.split('@').next().unwrap_or(email).to_string();
    let [line1, line2, city, state, zip, country] = order.address.clone();
    // The placeholder's reserved `.local` domain is refused by the e-mail rule on purpose: it
    // is checked as an ordinary address and stored as it is.
    let checked = if email.ends_with(PLACEHOLDER_DOMAIN) {
        "import@example.com".to_string()
    } else {
        email.to_string()
    };
    let input = CustomerCreateInput {
        email: checked,
        first_name: given.map_or(local, str::to_string),
        last_name: family.unwrap_or("-").to_string(),
        phone: order.phone.clone(),
        shipping_address_line1: line1,
        shipping_address_line2: line2,
        shipping_city: city,
        shipping_state: state,
        shipping_zip: zip,
        shipping_country: country,
        notes: Some(format!(
            "Created by the order import (order {})",
            order.order_id
        )),
        ..Default::default()
    };
    customer::new_form(input)
        .map(|new| partners::CustomerForm {
            email: Some(email.to_string()),
            ..new
        })
        .map_err(|errors| {
            errors
                .iter()
                .map(|e| match &e.field {
                    Some(field) => format!("customer {field}: {}", e.message),
                    None => format!("customer: {}", e.message),
                })
                .collect::<Vec<_>>()
                .join("; ")
        })
}

/// The products the file names, by upper-cased SKU (codes compare in upper case), in one statement per 5,000 SKUs.
async fn products_of(
    conn: &mut AsyncPgConnection,
    orders: &[FileOrder],
) -> AppResult<HashMap<String, Product>> {
    let skus: Vec<String> = orders
        .iter()
        .flat_map(|o| o.lines.iter().filter_map(|l| l.sku.as_ref()))
        .map(|s| s.to_uppercase())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut found = HashMap::new();
    for chunk in skus.chunks(LOOKUP_CHUNK) {
        let rows: Vec<(i64, String, String, bool, Option<BigDecimal>)> = items::table
            .filter(upper(items::sku).eq_any(chunk))
            .select((
                items::id,
                items::sku,
                items::name,
                items::active,
                items::selling_price,
            ))
            .load(conn)
            .await?;
        for (id, sku, name, active, price) in rows {
            found.insert(
                sku.to_uppercase(),
                Product {
                    id,
                    sku,
                    name,
                    active,
                    price,
                },
            );
        }
    }
    Ok(found)
}

/// The file's orders already imported from `source`: order id -> Strata number.
async fn existing_orders(
    conn: &mut AsyncPgConnection,
    source: SalesOrderSource,
    orders: &[FileOrder],
) -> AppResult<HashMap<String, String>> {
    let ids: Vec<String> = orders.iter().map(|o| o.order_id.clone()).collect();
    let mut found = HashMap::new();
    for chunk in ids.chunks(LOOKUP_CHUNK) {
        let rows: Vec<(Option<String>, String)> = sales_orders::table
            .filter(sales_orders::source.eq(source))
            .filter(sales_orders::source_order_id.eq_any(chunk))
            .select((sales_orders::source_order_id, sales_orders::order_number))
            .load(conn)
            .await?;
        found.extend(rows.into_iter().filter_map(|(id, n)| id.map(|id| (id, n))));
    }
    Ok(found)
}

/// The customers the file's e-mails name, by lower-cased e-mail.
async fn customers_of(
    conn: &mut AsyncPgConnection,
    orders: &[FileOrder],
) -> AppResult<HashMap<String, Known>> {
    let emails: Vec<String> = orders
        .iter()
        .filter_map(|o| o.email.clone())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut found = HashMap::new();
    for chunk in emails.chunks(LOOKUP_CHUNK) {
        let rows: Vec<rules::CustomerTuple> = customers::table
            .filter(lower(customers::email).eq_any(chunk))
            .select(rules::customer_columns())
            .load(conn)
            .await?;
        for row in rows {
            let known = rules::facts_of(row);
            if let Some(email) = known.0.email.clone() {
                found.insert(email.to_lowercase(), known);
            }
        }
    }
    Ok(found)
}

// ------------------------------------------------------------------------------ writing

/// Writes the planned orders: customers, orders, lines and events, each in multi-row
/// inserts. Returns each order's Strata number by its place in the file.
async fn write(
    conn: &mut AsyncPgConnection,
    file: &ParsedFile,
    planned: &[Planned],
    source: SalesOrderSource,
    user: i64,
) -> AppResult<HashMap<usize, String>> {
    // Customers first, so orders can name them.
    let fresh: Vec<&partners::CustomerForm> = planned
        .iter()
        .filter_map(|p| p.new_customer.as_ref())
        .collect();
    let mut customer_ids: HashMap<String, i64> = HashMap::new();
    if !fresh.is_empty() {
        let numbers = partners::next_customer_numbers(conn, fresh.len()).await?;
        let batch: Vec<partners::CustomerForm> = fresh
            .into_iter()
            .zip(numbers)
            .map(|(c, number)| partners::CustomerForm {
                customer_number: Some(number),
                ..c.clone()
            })
            .collect();
        for chunk in batch.chunks(ORDER_CHUNK) {
            let rows: Vec<(i64, String)> = diesel::insert_into(customers::table)
                .values(chunk)
                .returning((customers::id, customers::email))
                .get_results(conn)
                .await?;
            customer_ids.extend(rows.into_iter().map(|(id, e)| (e.to_lowercase(), id)));
        }
    }
    let numbers = rules::next_numbers(conn, "sales_order_seq", "SO", planned.len()).await?;
    let orders: Vec<NewOrder> = planned
        .iter()
        .zip(&numbers)
        .filter_map(|(p, number)| {
            let o = file.orders.get(p.at)?;
            let [a1, a2, city, state, zip, country] = p.address.clone();
            Some(NewOrder {
                order_number: number.clone(),
                user_id: Some(user),
                customer_id: p
                    .existing_customer
                    .or_else(|| customer_ids.get(&p.customer_email).copied()),
                quote_id: None,
                order_type: SalesOrderType::LineItem,
                source,
                source_order_id: Some(o.order_id.clone()),
                rush_level: RushLevel::Standard,
                product_name: Some(p.product_name.clone()),
                customer_name: p.customer_name.clone(),
                customer_email: Some(p.customer_email.clone()),
                customer_phone: p.phone.clone(),
                subtotal: p.totals.subtotal.clone(),
                tax_rate: p.totals.tax_rate.clone(),
                tax_amount: p.totals.tax_amount.clone(),
                shipping_cost: p.totals.shipping_cost.clone(),
                grand_total: p.totals.grand_total.clone(),
                shipping_address_line1: a1,
                shipping_address_line2: a2,
                shipping_city: city,
                shipping_state: state,
                shipping_zip: zip,
                shipping_country: country.or_else(|| Some("USA".into())),
                customer_notes: o.notes.clone(),
                internal_notes: Some(format!("Imported from {source} order {}", o.order_id)),
                due_date: None,
                created_at: o.date,
            })
        })
        .collect();
    let mut ids: HashMap<String, i64> = HashMap::new();
    for chunk in orders.chunks(ORDER_CHUNK) {
        let rows: Vec<(i64, String)> = diesel::insert_into(sales_orders::table)
            .values(chunk)
            .returning((sales_orders::id, sales_orders::order_number))
            .get_results(conn)
            .await?;
        ids.extend(rows.into_iter().map(|(id, n)| (n, id)));
    }
    let mut lines = Vec::new();
    let mut events = Vec::new();
    let mut by_place = HashMap::new();
    for (p, number) in planned.iter().zip(&numbers) {
        let Some(&order_id) = ids.get(number) else {
            continue;
        };
        by_place.insert(p.at, number.clone());
        for (i, (product_id, quantity, price, total)) in p.lines.iter().enumerate() {
            lines.push(NewLine {
                sales_order_id: order_id,
                line_number: i32::try_from(i + 1).unwrap_or(i32::MAX),
                product_id: *product_id,
                quantity: *quantity,
                unit_price: price.clone(),
                total: total.clone(),
                notes: None,
            });
        }
        let shop_id = file.orders.get(p.at).map(|o| o.order_id.as_str());
        events.push(NewEvent {
            sales_order_id: order_id,
            event_type: SalesEventType::Created,
            title: "Order Imported".into(),
            description: Some(format!(
                "Order {number} imported from {source} order {}",
                shop_id.unwrap_or_default()
            )),
            old_status: None,
            new_status: None,
            created_by: Some(user),
        });
    }
    for chunk in lines.chunks(LINE_CHUNK) {
        diesel::insert_into(sales_order_lines::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    for chunk in events.chunks(LINE_CHUNK) {
        diesel::insert_into(sales_order_events::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    Ok(by_place)
}

// ------------------------------------------------------------------------------ report

struct ReportFacts<'a> {
    source: SalesOrderSource,
    applied: bool,
    customers_created: usize,
    create_customers: bool,
    shipped_in_file: usize,
    paid_in_file: usize,
    customers: &'a HashMap<String, Known>,
}

fn report(
    file: &ParsedFile,
    planned: &[Planned],
    outcomes: &[(String, Option<String>)],
    facts: ReportFacts<'_>,
) -> OrderImportReport {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let mut errors: Vec<ImportRowError> = file
        .loose
        .iter()
        .cloned()
        .chain(file.orders.iter().flat_map(|o| o.problems.iter().cloned()))
        .collect();
    errors.sort_by_key(|e| e.row);
    let unlisted = errors.len().saturating_sub(MAX_ERRORS);
    errors.truncate(MAX_ERRORS);
    let plans: HashMap<usize, &Planned> = planned.iter().map(|p| (p.at, p)).collect();
    let money = |v: &BigDecimal| Some(Decimal(v.clone()));
    let orders: Vec<OrderImportPreview> = file
        .orders
        .iter()
        .enumerate()
        .take(PREVIEW_ORDERS)
        .map(|(at, o)| {
            let plan = plans.get(&at);
            let email = o.email.clone().unwrap_or_default();
            let customer = if facts.customers.contains_key(&email) {
                "existing"
            } else if plan.is_some_and(|p| p.new_customer.is_some())
                || (facts.create_customers && plan.is_some())
            {
                if facts.applied { "created" } else { "new" }
            } else {
                "none"
            };
            let (outcome, number) = outcomes.get(at).cloned().unwrap_or_default();
            OrderImportPreview {
                order_id: o.order_id.clone(),
                first_row: o.rows.as_slice().first().copied().unwrap_or(0),
                line_count: i32::try_from(o.lines.len()).unwrap_or(i32::MAX),
                units: o
                    .lines
                    .iter()
                    .filter_map(|l| l.quantity)
                    .map(i64::from)
                    .sum(),
                customer_email: email,
                customer_name: o.name.clone(),
                customer: customer.into(),
                subtotal: plan.and_then(|p| money(&p.totals.subtotal)),
                tax_amount: plan.and_then(|p| money(&p.totals.tax_amount)),
                shipping_cost: plan.and_then(|p| money(&p.totals.shipping_cost)),
                grand_total: plan.and_then(|p| money(&p.totals.grand_total)),
                outcome,
                order_number: number,
                errors: o
                    .problems
                    .iter()
                    .map(|e| match &e.field {
                        Some(f) => format!("row {}: {f}: {}", e.row, e.reason),
                        None => format!("row {}: {}", e.row, e.reason),
                    })
                    .collect(),
            }
        })
        .collect();
    let created = planned.len();
    let skipped = file.orders.len() - created;
    let cancelled: Vec<&str> = file
        .orders
        .iter()
        .zip(outcomes)
        .filter(|(_, (o, _))| o == "cancelled")
        .map(|(o, _)| o.order_id.as_str())
        .collect();
    let mut warnings = Vec::new();
    if !cancelled.is_empty() {
        warnings.push(format!(
            "{} cancelled or refunded order{} not imported: {}",
            cancelled.len(),
            if cancelled.len() == 1 { " is" } else { "s are" },
            cancelled
                .iter()
                .take(20)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if facts.shipped_in_file > 0 {
        warnings.push(format!(
            "{} order{} shipped in the file; imported orders start as pending: confirm and ship them in Strata so stock and the books follow",
            facts.shipped_in_file,
            if facts.shipped_in_file == 1 { " is" } else { "s are" }
        ));
    }
    if facts.paid_in_file > 0 {
        warnings.push(format!(
            "{} order{} paid in the file; record the payments in Strata (Payments) so the books follow",
            facts.paid_in_file,
            if facts.paid_in_file == 1 { " is" } else { "s are" }
        ));
    }
    if unlisted > 0 {
        warnings.push(format!(
            "{unlisted} more row problems are not listed; fix the ones shown and check the file again"
        ));
    }
    let message = if !facts.applied {
        format!("{created} of {} orders can be imported", file.orders.len())
    } else if skipped == 0 {
        format!("Imported {created} orders")
    } else {
        format!(
            "Imported {created} orders; skipped {skipped} (listed in errors and warnings; nothing else was changed)"
        )
    };
    OrderImportReport {
        total_rows: count(file.total_rows),
        orders_found: count(file.orders.len()),
        created: count(created),
        skipped: count(skipped),
        customers_created: count(facts.customers_created),
        errors,
        warnings,
        orders,
        truncated: file.orders.len() > PREVIEW_ORDERS,
        detected_format: file
            .source
            .map_or_else(|| "strata".to_string(), |s| s.to_string()),
        source: facts.source,
        applied: facts.applied,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_quantities_and_dates_as_shops_write_them() {
        assert_eq!(money("$1,234.5"), Some("1234.50".parse().unwrap()));
        assert_eq!(money(" €12 "), Some("12.00".parse().unwrap()));
        assert_eq!(money("abc"), None);
        assert_eq!(units("2.0"), Some(2));
        assert_eq!(units("2.5"), None);
        for text in [
            "2026-01-15",
            "01/15/2026",
            "01/15/26",
            "2026-01-15 10:22:33 -0500",
            "2026-01-15T10:22:33Z",
            "Jan 15, 2026",
        ] {
            let d = order_date(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(d.date_naive().to_string(), "2026-01-15", "{text}");
        }
        assert!(order_date("yesterday").is_none());
    }

    #[test]
    fn rows_group_by_order_id_and_values_come_from_the_first_row_that_has_them() {
        let file = parse(template().as_bytes()).unwrap();
        assert_eq!(file.total_rows, 2);
        assert_eq!(file.orders.len(), 1);
        let o = &file.orders[0];
        assert_eq!(o.rows, [2, 3]);
        assert_eq!(o.lines.len(), 2);
        assert_eq!(o.shipping, Some("5.00".parse().unwrap()));
        assert_eq!(o.email.as_deref(), Some("jane.doe@example.com"));
        assert!(o.problems.is_empty(), "{:?}", o.problems);
    }

    #[test]
    fn a_shopify_export_is_recognised_by_its_header() {
        let csv = "Name,Email,Financial Status,Lineitem quantity,Lineitem sku,Lineitem price\n#1001,a@b.co,paid,1,FG-1,10\n";
        let file = parse(csv.as_bytes()).unwrap();
        assert_eq!(file.source, Some(SalesOrderSource::Shopify));
        assert_eq!(file.orders[0].order_id, "1001");
    }

    #[test]
    fn missing_columns_are_named() {
        let err = parse(b"Order ID,Quantity\n1,2\n").unwrap_err();
        let text = format!("{err:?}");
        assert!(
            text.contains("Customer Email") && text.contains("Product SKU"),
            "{text}"
        );
    }
}
