//! Every rule of sales orders: prices from the items' selling prices, tax from the company
//! settings to the cent, the status flow of CONTRACT 6.1 with its messages, what confirming
//! does (reserve finished goods through the stock ledger, production orders for what is
//! short, through `production::rules::create`), what cancelling and deleting may do, and what
//! happens when every production order of an order has passed QC. Every function runs in the
//! caller's database transaction.

//!
//! By concern: [`orders`] (events, create, locks, address, shipping and payment changes) and
//! [`fulfilment`] (status moves, allocation, production for the order, confirm, cancel,
//! delete, QC and payment status). Numbers, money, transitions and the inputs they share are
//! here.

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::cents;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{
    NOTES_MAX, QUANTITY_SCALE, default_location, optional_text, today,
};
pub use crate::master_data::tax::rules::{AppliedTax, TaxQuestion, resolve as resolve_tax};
use crate::operations::production::model::{
    OrderRow as ProductionOrderRow, OrderSource, OrderStatus,
};
use crate::operations::sales::model::{
    self, NewEvent, NewLine, RushLevel, SalesEventType, SalesOrderLineRow, SalesOrderRow,
    SalesOrderSource, SalesOrderStatus, SalesPaymentStatus,
};
use crate::platform::db::schema::{
    customers, items, payments, production_orders, quotes, sales_order_events, sales_order_lines,
    sales_orders,
};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest short text (references, tracking numbers, address parts).
pub const SHORT_MAX: usize = 255;
/// Longest cancellation reason.
pub const REASON_MAX: usize = 1000;
/// Most units on a line.
pub const LINE_QUANTITY_MAX: i32 = 10_000;

pub(crate) use crate::platform::graphql::user_error::invalid;

pub(crate) fn not_allowed(message: impl Into<String>) -> Stop {
    Stop::Refused(vec![UserError::general(UserErrorCode::NotAllowed, message)])
}

pub(crate) fn now() -> DateTime<Utc> {
    Utc::now()
}

diesel::define_sql_function! {
    /// PostgreSQL's `nextval`.
    fn nextval(sequence: diesel::sql_types::Text) -> diesel::sql_types::BigInt;
}

/// The next number of a sequence as `{prefix}-{YYYY}-{NNNN}` (gap-tolerant, DOMAIN 7).
pub async fn next_number(
    conn: &mut AsyncPgConnection,
    sequence: &str,
    prefix: &str,
) -> Result<String, Stop> {
    let n: i64 = diesel::select(nextval(sequence)).get_result(conn).await?;
    Ok(number(prefix, n))
}

/// `count` next numbers of a sequence (see [`next_number`]) in one statement, for imports.
pub async fn next_numbers(
    conn: &mut AsyncPgConnection,
    sequence: &str,
    prefix: &str,
    count: usize,
) -> diesel::QueryResult<Vec<String>> {
    Ok(crate::platform::db::next_values(conn, sequence, count)
        .await?
        .into_iter()
        .map(|n| number(prefix, n))
        .collect())
}

fn number(prefix: &str, n: i64) -> String {
    format!("{prefix}-{}-{n:04}", today().year())
}

// ------------------------------------------------------------------------------ money

/// The totals of an order or quote, each to the cent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Sum of the lines.
    pub subtotal: BigDecimal,
    /// The rate applied (zero when tax is off).
    pub tax_rate: BigDecimal,
    /// subtotal x rate, rounded half up to the cent.
    pub tax_amount: BigDecimal,
    /// Shipping.
    pub shipping_cost: BigDecimal,
    /// subtotal + tax + shipping.
    pub grand_total: BigDecimal,
}

/// quantity x unit price - discount, to the cent.
pub fn line_total(quantity: i32, unit_price: &BigDecimal, discount: &BigDecimal) -> BigDecimal {
    cents(&(BigDecimal::from(quantity) * unit_price - discount))
}

/// Totals from line totals, shipping and the tax rate (CONTRACT 5.2: tax = subtotal x rate
/// rounded to 0.01; grand total = subtotal + shipping + tax).
pub fn totals(line_totals: &[BigDecimal], shipping: &BigDecimal, tax_rate: &BigDecimal) -> Totals {
    let subtotal = cents(&line_totals.iter().fold(BigDecimal::zero(), |a, b| a + b));
    let shipping_cost = cents(shipping);
    let tax_amount = cents(&(&subtotal * tax_rate));
    let grand_total = &subtotal + &shipping_cost + &tax_amount;
    Totals {
        subtotal,
        tax_rate: tax_rate.clone(),
        tax_amount,
        shipping_cost,
        grand_total,
    }
}

/// The company's tax (the default rate, else the settings' rate; none when tax is off),
/// for documents without a customer or region to resolve against (imports).
pub async fn company_tax(
    conn: &mut AsyncPgConnection,
) -> crate::platform::error::AppResult<crate::master_data::tax::rules::AppliedTax> {
    Stop::into_app(crate::master_data::tax::rules::resolve(conn, Default::default()).await)
}

// ------------------------------------------------------------------------------ transitions

/// `Invalid sales order status transition: 'X' -> 'Y'. Allowed: [...]` (or `none (terminal
/// state)`), or `None` when the move is allowed (same to same always is).
pub fn transition_error(from: SalesOrderStatus, to: SalesOrderStatus) -> Option<String> {
    let allowed = from.allowed();
    if from == to || allowed.contains(&to) {
        return None;
    }
    let list = crate::platform::graphql::flow::allowed_list(allowed);
    Some(format!(
        "Invalid sales order status transition: '{from}' -> '{to}'. Allowed: {list}"
    ))
}

fn check_transition(from: SalesOrderStatus, to: SalesOrderStatus) -> Result<(), Stop> {
    match transition_error(from, to) {
        Some(message) => Err(not_allowed(message)),
        None => Ok(()),
    }
}

// ------------------------------------------------------------------------------ inputs

/// A line of a new order: the price comes from the item's selling price.
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderLineInput {
    /// The product.
    pub product_id: i64,
    /// Units (1 to 10000).
    pub quantity: i32,
    /// Ignored: the price is the product's selling price.
    pub unit_price: Option<Decimal>,
    /// Notes.
    pub notes: Option<String>,
}

/// A new sales order (`POST /sales-orders/`): it starts `pending`.
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderCreateInput {
    /// The lines (at least one).
    pub lines: Vec<SalesOrderLineInput>,
    /// The customer.
    pub customer_id: Option<i64>,
    /// The customer's e-mail (finds the customer when no id is given).
    pub customer_email: Option<String>,
    /// Where it came from (default manual).
    pub source: Option<SalesOrderSource>,
    /// The marketplace's order id.
    pub source_order_id: Option<String>,
    /// Ship to (copied from the customer when missing).
    pub shipping_address_line1: Option<String>,
    /// Ship to.
    pub shipping_address_line2: Option<String>,
    /// Ship to.
    pub shipping_city: Option<String>,
    /// Ship to.
    pub shipping_state: Option<String>,
    /// Ship to.
    pub shipping_zip: Option<String>,
    /// Ship to (default USA).
    pub shipping_country: Option<String>,
    /// Shipping charged (default 0).
    pub shipping_cost: Option<Decimal>,
    /// The customer's notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub customer_notes: Option<String>,
    /// Internal notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub internal_notes: Option<String>,
    /// When it is due.
    pub due_date: Option<NaiveDate>,
    /// Urgency (default standard).
    pub rush_level: Option<RushLevel>,
    /// The tax rate to charge (else the customer's exemption or rate, the shipping
    /// region's rate or the default decides).
    pub tax_rate_id: Option<i64>,
}

/// A status change (`PATCH /sales-orders/{id}/status`, admins).
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderStatusInput {
    /// The new status.
    pub status: SalesOrderStatus,
    /// Internal notes (replace).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub internal_notes: Option<String>,
    /// Production notes (replace).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub production_notes: Option<String>,
    /// Confirms an order that would take the customer over its credit limit all the same,
    /// for this reason (recorded in the order's history and the security audit log).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub credit_override_reason: Option<String>,
}

struct ProductFacts {
    sku: String,
    name: String,
    active: bool,
    selling_price: Option<BigDecimal>,
}

/// Who the order is for, as the order records it.
#[derive(Debug, Clone, Default)]
pub struct CustomerFacts {
    /// Id.
    pub id: Option<i64>,
    /// Name (company, else first and last).
    pub name: Option<String>,
    /// E-mail.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Shipping address: line1, line2, city, state, zip, country.
    pub address: [Option<String>; 6],
}

/// A customer row as [`customer_columns`] reads it.
pub(crate) type CustomerTuple = (
    i64,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    crate::master_data::partners::model::CustomerStatus,
    (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    ),
);

/// The customer by id (404 `Customer not found`, 400 when not active) or by e-mail (none
/// when no customer has it).
pub async fn customer_facts(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    email: Option<&str>,
) -> Result<CustomerFacts, Stop> {
    let row: Option<CustomerTuple> = match (id, email) {
        (Some(id), _) => {
            let row = customers::table
                .find(id)
                .select(customer_columns())
                .first(conn)
                .await
                .optional()?;
            if row.is_none() {
                return Err(Stop::refuse(
                    "customerId",
                    UserErrorCode::NotFound,
                    "Customer not found",
                ));
            }
            row
        }
        (None, Some(email)) => customers::table
            .filter(customers::email.ilike(email.trim()))
            .select(customer_columns())
            .first(conn)
            .await
            .optional()?,
        (None, None) => None,
    };
    let Some(row) = row else {
        return Ok(CustomerFacts {
            email: email.map(|e| e.trim().to_lowercase()),
            ..CustomerFacts::default()
        });
    };
    let (facts, active) = facts_of(row);
    if !active {
        return Err(not_allowed("Customer is not active"));
    }
    Ok(facts)
}

/// The customer columns an order copies (see [`facts_of`]).
#[allow(clippy::type_complexity)]
pub(crate) fn customer_columns() -> (
    customers::id,
    customers::email,
    customers::first_name,
    customers::last_name,
    customers::company_name,
    customers::phone,
    customers::status,
    (
        customers::shipping_address_line1,
        customers::shipping_address_line2,
        customers::shipping_city,
        customers::shipping_state,
        customers::shipping_zip,
        customers::shipping_country,
    ),
) {
    (
        customers::id,
        customers::email,
        customers::first_name,
        customers::last_name,
        customers::company_name,
        customers::phone,
        customers::status,
        (
            customers::shipping_address_line1,
            customers::shipping_address_line2,
            customers::shipping_city,
            customers::shipping_state,
            customers::shipping_zip,
            customers::shipping_country,
        ),
    )
}

/// What an order records of a customer (the name: company, else first and last), and
/// whether the customer is active.
pub(crate) fn facts_of(row: CustomerTuple) -> (CustomerFacts, bool) {
    let (id, email, first, last, company, phone, status, a) = row;
    let name = company
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| format!("{first} {last}").trim().to_string());
    let facts = CustomerFacts {
        id: Some(id),
        name: Some(name),
        email: Some(email),
        phone,
        address: [a.0, a.1, a.2, a.3, a.4, a.5],
    };
    (
        facts,
        status == crate::master_data::partners::model::CustomerStatus::Active,
    )
}

/// A new order row.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = sales_orders)]
pub struct NewOrder {
    /// Number.
    pub order_number: String,
    /// Who.
    pub user_id: Option<i64>,
    /// Customer.
    pub customer_id: Option<i64>,
    /// Quote.
    pub quote_id: Option<i64>,
    /// Type.
    pub order_type: model::SalesOrderType,
    /// Source.
    pub source: SalesOrderSource,
    /// Marketplace id.
    pub source_order_id: Option<String>,
    /// Rush.
    pub rush_level: RushLevel,
    /// Summary.
    pub product_name: Option<String>,
    /// Customer name.
    pub customer_name: Option<String>,
    /// Customer e-mail.
    pub customer_email: Option<String>,
    /// Customer phone.
    pub customer_phone: Option<String>,
    /// Subtotal.
    pub subtotal: BigDecimal,
    /// Rate.
    pub tax_rate: BigDecimal,
    /// Tax.
    pub tax_amount: BigDecimal,
    /// The named tax rate charged.
    pub tax_rate_id: Option<i64>,
    /// What the tax is called on the order.
    pub tax_rate_name: Option<String>,
    /// Shipping.
    pub shipping_cost: BigDecimal,
    /// Total.
    pub grand_total: BigDecimal,
    /// Ship to.
    pub shipping_address_line1: Option<String>,
    /// Ship to.
    pub shipping_address_line2: Option<String>,
    /// Ship to.
    pub shipping_city: Option<String>,
    /// Ship to.
    pub shipping_state: Option<String>,
    /// Ship to.
    pub shipping_zip: Option<String>,
    /// Ship to.
    pub shipping_country: Option<String>,
    /// Notes.
    pub customer_notes: Option<String>,
    /// Notes.
    pub internal_notes: Option<String>,
    /// Due.
    pub due_date: Option<NaiveDate>,
    /// When it was placed (now when `None`; an import gives the shop's order date).
    pub created_at: Option<DateTime<Utc>>,
}

mod amend;
mod credit;
mod fulfilment;
mod orders;

pub use amend::*;
pub use credit::*;
pub use fulfilment::*;
pub use orders::*;
