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

//!
//! In steps: [`parse`] (the file into orders, rows and their problems), [`plan`] (what each
//! order would write: products, customers, duplicates, the preview and the report shapes) and
//! [`write`] (the multi-row inserts in one transaction, and the report). The columns, their
//! aliases and the template are here.

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

mod parse;
mod plan;
mod write;

use parse::*;
pub use plan::*;
use write::*;

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
