//! Every rule of sales orders: prices from the items' selling prices, tax from the company
//! settings to the cent, the status flow of CONTRACT 6.1 with its messages, what confirming
//! does (reserve finished goods through the stock ledger, production orders for what is
//! short, through `production::rules::create`), what cancelling and deleting may do, and what
//! happens when every production order of an order has passed QC. Every function runs in the
//! caller's database transaction.

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
use crate::operations::production::model::{
    OrderRow as ProductionOrderRow, OrderSource, OrderStatus,
};
use crate::operations::sales::model::{
    self, NewEvent, NewLine, RushLevel, SalesEventType, SalesOrderLineRow, SalesOrderRow,
    SalesOrderSource, SalesOrderStatus, SalesPaymentStatus,
};
use crate::platform::db::schema::{
    company_settings, customers, items, payments, production_orders, quotes, sales_order_events,
    sales_order_lines, sales_orders,
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

/// The company's tax rate (a fraction), zero when tax is off.
pub async fn company_tax_rate(
    conn: &mut AsyncPgConnection,
) -> crate::platform::error::AppResult<BigDecimal> {
    let row: Option<(bool, BigDecimal)> = company_settings::table
        .select((company_settings::tax_enabled, company_settings::tax_rate))
        .order(company_settings::id)
        .first(conn)
        .await
        .optional()?;
    Ok(match row {
        Some((true, rate)) => rate,
        _ => BigDecimal::zero(),
    })
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

/// Records an event on an order.
pub async fn event(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    event_type: SalesEventType,
    title: impl Into<String>,
    description: Option<String>,
    change: Option<(SalesOrderStatus, SalesOrderStatus)>,
    user: Option<i64>,
) -> Result<(), Stop> {
    diesel::insert_into(sales_order_events::table)
        .values(NewEvent {
            sales_order_id: order_id,
            event_type,
            title: title.into(),
            description,
            old_status: change.map(|(f, _)| f.to_string()),
            new_status: change.map(|(_, t)| t.to_string()),
            created_by: user,
        })
        .execute(conn)
        .await?;
    Ok(())
}

/// Creates a `pending` order with its lines: prices from the products' selling prices, tax
/// from the company settings, the shipping address from the customer when missing.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: SalesOrderCreateInput,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let mut errors = Vec::new();
    if input.lines.is_empty() {
        errors.push(invalid(
            "lines",
            "List should have at least 1 item after validation, not 0",
        ));
    }
    for (i, l) in input.lines.iter_mut().enumerate() {
        if !(1..=LINE_QUANTITY_MAX).contains(&l.quantity) {
            errors.push(invalid(
                &format!("lines.{i}.quantity"),
                if l.quantity < 1 {
                    "Input should be greater than or equal to 1".to_string()
                } else {
                    "Input should be less than or equal to 10000".to_string()
                },
            ));
        }
        optional_text(
            &mut errors,
            &format!("lines.{i}.notes"),
            &mut l.notes,
            NOTES_MAX,
        );
    }
    let shipping = input
        .shipping_cost
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    if shipping < BigDecimal::zero() {
        errors.push(invalid(
            "shippingCost",
            "Input should be greater than or equal to 0",
        ));
    }
    for (field, value) in [
        ("sourceOrderId", &mut input.source_order_id),
        ("customerEmail", &mut input.customer_email),
        ("shippingAddressLine1", &mut input.shipping_address_line1),
        ("shippingAddressLine2", &mut input.shipping_address_line2),
        ("shippingCity", &mut input.shipping_city),
        ("shippingState", &mut input.shipping_state),
        ("shippingZip", &mut input.shipping_zip),
        ("shippingCountry", &mut input.shipping_country),
    ] {
        optional_text(&mut errors, field, value, SHORT_MAX);
    }
    optional_text(
        &mut errors,
        "customerNotes",
        &mut input.customer_notes,
        NOTES_MAX,
    );
    optional_text(
        &mut errors,
        "internalNotes",
        &mut input.internal_notes,
        NOTES_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    // Products: 404, discontinued, no price (CONTRACT 5.2).
    let ids: Vec<i64> = input.lines.iter().map(|l| l.product_id).collect();
    let found: Vec<(i64, String, String, bool, Option<BigDecimal>)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((
            items::id,
            items::sku,
            items::name,
            items::active,
            items::selling_price,
        ))
        .load(conn)
        .await?;
    let mut priced = Vec::new();
    for l in &input.lines {
        let Some(p) = found
            .iter()
            .find(|f| f.0 == l.product_id)
            .map(|f| ProductFacts {
                sku: f.1.clone(),
                name: f.2.clone(),
                active: f.3,
                selling_price: f.4.clone(),
            })
        else {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotFound,
                format!("Product ID {} not found", l.product_id),
            ));
        };
        if !p.active {
            return Err(not_allowed(format!(
                "Product '{}' is discontinued and cannot be ordered",
                p.sku
            )));
        }
        let price = match &p.selling_price {
            Some(price) if *price > BigDecimal::zero() => cents(price),
            _ => {
                return Err(not_allowed(format!(
                    "Product '{}' has no selling price configured",
                    p.sku
                )));
            }
        };
        priced.push((l.clone(), p, price));
    }
    let customer = customer_facts(conn, input.customer_id, input.customer_email.as_deref()).await?;
    let line_totals: Vec<BigDecimal> = priced
        .iter()
        .map(|(l, _, price)| line_total(l.quantity, price, &BigDecimal::zero()))
        .collect();
    let t = totals(&line_totals, &shipping, &company_tax_rate(conn).await?);
    let product_name = match priced.as_slice() {
        [(l, p, _)] => format!("{} x{}", p.name, l.quantity),
        many => format!("{} items", many.len()),
    };
    let no_address = input.shipping_address_line1.is_none();
    let [a1, a2, city, state, zip, country] = customer.address.clone();
    let pick = |given: Option<String>, theirs: Option<String>| {
        if no_address { theirs } else { given }
    };
    let number = next_number(conn, "sales_order_seq", "SO").await?;
    let order: SalesOrderRow = diesel::insert_into(sales_orders::table)
        .values(NewOrder {
            order_number: number,
            user_id: Some(user),
            customer_id: customer.id,
            quote_id: None,
            order_type: model::SalesOrderType::LineItem,
            source: input.source.unwrap_or(SalesOrderSource::Manual),
            source_order_id: input.source_order_id,
            rush_level: input.rush_level.unwrap_or(RushLevel::Standard),
            product_name: Some(product_name),
            customer_name: customer.name,
            customer_email: customer.email,
            customer_phone: customer.phone,
            subtotal: t.subtotal,
            tax_rate: t.tax_rate,
            tax_amount: t.tax_amount,
            shipping_cost: t.shipping_cost,
            grand_total: t.grand_total,
            shipping_address_line1: pick(input.shipping_address_line1, a1),
            shipping_address_line2: pick(input.shipping_address_line2, a2),
            shipping_city: pick(input.shipping_city, city),
            shipping_state: pick(input.shipping_state, state),
            shipping_zip: pick(input.shipping_zip, zip),
            shipping_country: pick(input.shipping_country, country).or_else(|| Some("USA".into())),
            customer_notes: input.customer_notes,
            internal_notes: input.internal_notes,
            due_date: input.due_date,
            created_at: None,
        })
        .returning(SalesOrderRow::as_returning())
        .get_result(conn)
        .await?;
    let lines: Vec<NewLine> = priced
        .into_iter()
        .zip(line_totals)
        .enumerate()
        .map(|(i, ((l, _, price), total))| NewLine {
            sales_order_id: order.id,
            line_number: i as i32 + 1,
            product_id: l.product_id,
            quantity: l.quantity,
            unit_price: price,
            total,
            notes: l.notes,
        })
        .collect();
    diesel::insert_into(sales_order_lines::table)
        .values(&lines)
        .execute(conn)
        .await?;
    event(
        conn,
        order.id,
        SalesEventType::Created,
        "Order Created",
        Some(format!("Order {} created", order.order_number)),
        None,
        Some(user),
    )
    .await?;
    Ok(model::find(conn, order.id).await?)
}

async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<SalesOrderRow, Stop> {
    model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Sales order not found"))
}

/// The order, locked, when the viewer may act on it (owner or admin; 403 otherwise).
pub async fn locked_for(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: i64,
    admin: bool,
) -> Result<SalesOrderRow, Stop> {
    let order = locked(conn, id).await?;
    if !admin && order.user_id != Some(user) {
        return Err(Stop::Failed(crate::platform::error::AppError::forbidden(
            "Not authorized to view this order",
        )));
    }
    Ok(order)
}

/// A new shipping address (`PATCH /sales-orders/{id}/address`): omitted fields keep their
/// value.
#[derive(Debug, Clone, Default, InputObject)]
pub struct SalesOrderAddressInput {
    /// Street.
    pub shipping_address_line1: Option<String>,
    /// Second line.
    pub shipping_address_line2: Option<String>,
    /// City.
    pub shipping_city: Option<String>,
    /// State.
    pub shipping_state: Option<String>,
    /// Postal code.
    pub shipping_zip: Option<String>,
    /// Country.
    pub shipping_country: Option<String>,
}

/// Shipping details of an order (`PATCH /sales-orders/{id}/shipping`, admins): omitted
/// fields keep their value.
#[derive(Debug, Clone, Default, InputObject)]
pub struct SalesOrderShippingInput {
    /// The carrier's tracking number.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub tracking_number: Option<String>,
    /// Carrier.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub carrier: Option<String>,
    /// When it left.
    pub shipped_at: Option<crate::platform::graphql::scalars::Timestamp>,
}

/// Columns an address or shipping change writes (`None` keeps a column).
#[derive(Debug, Clone, Default, PartialEq, AsChangeset)]
#[diesel(table_name = sales_orders)]
struct DetailsChanges {
    shipping_address_line1: Option<String>,
    shipping_address_line2: Option<String>,
    shipping_city: Option<String>,
    shipping_state: Option<String>,
    shipping_zip: Option<String>,
    shipping_country: Option<String>,
    tracking_number: Option<String>,
    carrier: Option<String>,
    shipped_at: Option<DateTime<Utc>>,
    updated_at: Option<DateTime<Utc>>,
}

/// Changes where an order ships (owner or admin) while it has not shipped: 400 `Cannot
/// change the address of a {status} order` after.
pub async fn change_address(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: SalesOrderAddressInput,
    user: i64,
    admin: bool,
) -> Result<SalesOrderRow, Stop> {
    let order = locked_for(conn, id, user, admin).await?;
    // Once it has left (a shipped, delivered or completed order, or one with a ship date
    // recorded by hand) or was called off, where it goes is history.
    if order.shipped_at.is_some()
        || matches!(
            order.status,
            SalesOrderStatus::Shipped
                | SalesOrderStatus::Delivered
                | SalesOrderStatus::Completed
                | SalesOrderStatus::Cancelled
        )
    {
        return Err(not_allowed(format!(
            "Cannot change the address of a {} order",
            order.status
        )));
    }
    let mut errors = Vec::new();
    for (field, value) in [
        ("shippingAddressLine1", &mut input.shipping_address_line1),
        ("shippingAddressLine2", &mut input.shipping_address_line2),
        ("shippingCity", &mut input.shipping_city),
        ("shippingState", &mut input.shipping_state),
        ("shippingZip", &mut input.shipping_zip),
        ("shippingCountry", &mut input.shipping_country),
    ] {
        optional_text(&mut errors, field, value, SHORT_MAX);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let changes = DetailsChanges {
        shipping_address_line1: input.shipping_address_line1,
        shipping_address_line2: input.shipping_address_line2,
        shipping_city: input.shipping_city,
        shipping_state: input.shipping_state,
        shipping_zip: input.shipping_zip,
        shipping_country: input.shipping_country,
        ..DetailsChanges::default()
    };
    write_details(
        conn,
        &order,
        changes,
        SalesEventType::AddressUpdated,
        "Shipping Address Updated",
        user,
    )
    .await
}

/// Records an order's carrier, tracking number or ship date (admins), e.g. for a parcel sent
/// outside Strata. Not for a cancelled order.
pub async fn change_shipping(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: SalesOrderShippingInput,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let order = locked(conn, id).await?;
    if order.status == SalesOrderStatus::Cancelled {
        return Err(not_allowed(
            "Cannot change the shipping of a cancelled order",
        ));
    }
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "trackingNumber",
        &mut input.tracking_number,
        SHORT_MAX,
    );
    optional_text(&mut errors, "carrier", &mut input.carrier, SHORT_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let changes = DetailsChanges {
        tracking_number: input.tracking_number,
        carrier: input.carrier,
        shipped_at: input.shipped_at.map(|t| t.0),
        ..DetailsChanges::default()
    };
    write_details(
        conn,
        &order,
        changes,
        SalesEventType::ShippingUpdated,
        "Shipping Details Updated",
        user,
    )
    .await
}

/// An admin's word on an order's payment (`PATCH /sales-orders/{id}/payment`). The status
/// otherwise follows the order's payments (CONTRACT 5.4), so only what payments cannot say
/// is accepted: `overdue` for an unpaid balance past due, `refunded` once refunds have given
/// everything back, or the status the payments already give (which clears a flag).
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderPaymentInput {
    /// The payment status.
    pub payment_status: SalesPaymentStatus,
    /// How the customer pays (free text, e.g. the marketplace's method); omitted keeps it.
    pub payment_method: Option<String>,
    /// The payment processor's reference; omitted keeps it.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub payment_transaction_id: Option<String>,
}

/// What an admin may set an order's payment status to, given what its payments say: `Err`
/// carries the 400 message.
pub fn payment_status_allowed(
    wanted: SalesPaymentStatus,
    order_status: SalesOrderStatus,
    grand_total: &BigDecimal,
    net_paid: &BigDecimal,
    refunded_any: bool,
) -> Result<(), String> {
    let from_payments = if *net_paid <= BigDecimal::zero() {
        SalesPaymentStatus::Pending
    } else if net_paid >= grand_total {
        SalesPaymentStatus::Paid
    } else {
        SalesPaymentStatus::Partial
    };
    match wanted {
        SalesPaymentStatus::Overdue if order_status == SalesOrderStatus::Cancelled => {
            Err("A cancelled order cannot be overdue".into())
        }
        SalesPaymentStatus::Overdue if from_payments == SalesPaymentStatus::Paid => {
            Err("The order is paid in full; it cannot be overdue".into())
        }
        SalesPaymentStatus::Overdue => Ok(()),
        SalesPaymentStatus::Refunded if refunded_any && from_payments == SalesPaymentStatus::Pending => {
            Ok(())
        }
        SalesPaymentStatus::Refunded => Err(
            "Only an order whose payments were refunded in full can be marked refunded; record the refund on Payments".into(),
        ),
        wanted if wanted == from_payments => Ok(()),
        wanted => Err(format!(
            "Payment status follows the order's payments: {} of {} is paid, so it is '{from_payments}', not '{wanted}'. Record a payment or refund on Payments to change it",
            crate::platform::documents::money(net_paid),
            crate::platform::documents::money(grand_total),
        )),
    }
}

/// Sets an order's payment status, method or transaction reference (admins) within what
/// [`payment_status_allowed`] lets through; records a payment event when something changed.
pub async fn change_payment(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: SalesOrderPaymentInput,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let order = locked(conn, id).await?;
    let mut errors = Vec::new();
    optional_text(&mut errors, "paymentMethod", &mut input.payment_method, 100);
    optional_text(
        &mut errors,
        "paymentTransactionId",
        &mut input.payment_transaction_id,
        SHORT_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let (net_paid, refunded_any) =
        crate::operations::sales::payments::paid_and_refunded(conn, order.id).await?;
    payment_status_allowed(
        input.payment_status,
        order.status,
        &order.grand_total.0,
        &net_paid,
        refunded_any,
    )
    .map_err(not_allowed)?;
    let method = input.payment_method.or(order.payment_method.clone());
    let reference = input
        .payment_transaction_id
        .or(order.payment_transaction_id.clone());
    if input.payment_status == order.payment_status
        && method == order.payment_method
        && reference == order.payment_transaction_id
    {
        return Ok(order);
    }
    diesel::update(sales_orders::table.find(order.id))
        .set((
            sales_orders::payment_status.eq(input.payment_status),
            sales_orders::payment_method.eq(&method),
            sales_orders::payment_transaction_id.eq(&reference),
            sales_orders::updated_at.eq(now()),
        ))
        .execute(conn)
        .await?;
    let description = (input.payment_status != order.payment_status)
        .then(|| format!("{} → {}", order.payment_status, input.payment_status));
    event(
        conn,
        order.id,
        SalesEventType::Payment,
        "Payment Details Updated",
        description,
        None,
        Some(user),
    )
    .await?;
    Ok(model::find(conn, order.id).await?)
}

async fn write_details(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    mut changes: DetailsChanges,
    event_type: SalesEventType,
    title: &str,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    if changes == DetailsChanges::default() {
        return Ok(model::find(conn, order.id).await?);
    }
    changes.updated_at = Some(now());
    diesel::update(sales_orders::table.find(order.id))
        .set(&changes)
        .execute(conn)
        .await?;
    event(conn, order.id, event_type, title, None, None, Some(user)).await?;
    Ok(model::find(conn, order.id).await?)
}

pub(crate) async fn set_status(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    to: SalesOrderStatus,
    user: Option<i64>,
) -> Result<(), Stop> {
    set_status_at(conn, order, to, user, now()).await
}

/// [`set_status`] with the moment the move happened (a carrier's delivery time) for the
/// status's own stamp (`confirmed_at`, `delivered_at`...); `updated_at` is still now.
pub(crate) async fn set_status_at(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    to: SalesOrderStatus,
    user: Option<i64>,
    at: DateTime<Utc>,
) -> Result<(), Stop> {
    if order.status == to {
        return Ok(());
    }
    diesel::update(sales_orders::table.find(order.id))
        .set((
            sales_orders::status.eq(to),
            sales_orders::updated_at.eq(now()),
        ))
        .execute(conn)
        .await?;
    match to {
        SalesOrderStatus::Confirmed if order.confirmed_at.is_none() => {
            diesel::update(sales_orders::table.find(order.id))
                .set(sales_orders::confirmed_at.eq(Some(at)))
                .execute(conn)
                .await?;
        }
        SalesOrderStatus::Delivered => {
            diesel::update(sales_orders::table.find(order.id))
                .set((
                    sales_orders::delivered_at.eq(Some(at)),
                    sales_orders::fulfillment_status.eq(model::LogisticsStatus::Delivered),
                ))
                .execute(conn)
                .await?;
        }
        SalesOrderStatus::Completed => {
            diesel::update(sales_orders::table.find(order.id))
                .set(sales_orders::actual_completion_date.eq(Some(at)))
                .execute(conn)
                .await?;
        }
        SalesOrderStatus::ReadyToShip => {
            diesel::update(sales_orders::table.find(order.id))
                .set(sales_orders::fulfillment_status.eq(model::LogisticsStatus::Ready))
                .execute(conn)
                .await?;
        }
        _ => {}
    }
    let title = match to {
        SalesOrderStatus::Confirmed => "Order Confirmed".to_string(),
        SalesOrderStatus::InProduction => "In Production".to_string(),
        SalesOrderStatus::ReadyToShip => "Ready to Ship".to_string(),
        SalesOrderStatus::Shipped => "Order Shipped".to_string(),
        SalesOrderStatus::Delivered => "Order Delivered".to_string(),
        SalesOrderStatus::Completed => "Order Completed".to_string(),
        SalesOrderStatus::Cancelled => "Order Cancelled".to_string(),
        SalesOrderStatus::OnHold => "Order On Hold".to_string(),
        s => format!("Status changed to {s}"),
    };
    event(
        conn,
        order.id,
        SalesEventType::StatusChange,
        title,
        None,
        Some((order.status, to)),
        user,
    )
    .await
}

/// Ships a locked order with the default carrier, in the caller's transaction. Shipping sits
/// above sales (it issues stock, books the invoice and assigns serials), so sales does not
/// call it by name: the application attaches this to every request
/// (`crate::application::hooks`) and the status change takes it from there.
pub type ShipOrder = for<'c> fn(
    &'c mut AsyncPgConnection,
    &'c SalesOrderRow,
    i64,
) -> futures_util::future::BoxFuture<'c, Result<(), Stop>>;

/// The request's [`ShipOrder`].
#[derive(Clone, Copy)]
pub struct Shipper(pub ShipOrder);

/// Moves an order along CONTRACT 6.1 (admins). Confirming allocates and orders production,
/// cancelling releases, shipping ships with the default carrier; the timestamps follow.
pub async fn change_status(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: SalesOrderStatusInput,
    user: i64,
    ship: Shipper,
) -> Result<SalesOrderRow, Stop> {
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "internalNotes",
        &mut input.internal_notes,
        NOTES_MAX,
    );
    optional_text(
        &mut errors,
        "productionNotes",
        &mut input.production_notes,
        NOTES_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let order = locked(conn, id).await?;
    check_transition(order.status, input.status)?;
    if let Some(n) = input.internal_notes {
        diesel::update(sales_orders::table.find(id))
            .set(sales_orders::internal_notes.eq(Some(n)))
            .execute(conn)
            .await?;
    }
    if let Some(n) = input.production_notes {
        diesel::update(sales_orders::table.find(id))
            .set(sales_orders::production_notes.eq(Some(n)))
            .execute(conn)
            .await?;
    }
    if order.status != input.status {
        match input.status {
            SalesOrderStatus::Confirmed => {
                confirm(conn, &order, Some(user)).await?;
            }
            SalesOrderStatus::Cancelled => {
                cancel_locked(conn, &order, None, Some(user)).await?;
            }
            SalesOrderStatus::Shipped => (ship.0)(conn, &order, user).await?,
            to => set_status(conn, &order, to, Some(user)).await?,
        }
    }
    Ok(model::find(conn, id).await?)
}

fn so_movement(order: &SalesOrderRow, item: i64, location: i64, q: BigDecimal) -> Movement {
    Movement {
        reference_type: Some(ReferenceType::SalesOrder),
        reference_id: Some(order.id),
        notes: Some(format!("Sales order {}", order.order_number)),
        ..Movement::new(item, location, MovementKind::Shipment, q)
    }
}

/// Reserves what each line still needs, as far as stock allows (DOMAIN "Allocation order").
/// Answers the lines after.
pub async fn allocate(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    user: Option<i64>,
) -> Result<Vec<SalesOrderLineRow>, Stop> {
    let lines = model::lock_lines(conn, order.id).await?;
    let mut location = None;
    for l in &lines {
        let open = BigDecimal::from(l.quantity) - &l.quantity_allocated.0 - &l.quantity_shipped.0;
        if open <= BigDecimal::zero() {
            continue;
        }
        let loc = match l.location_id.or(location) {
            Some(loc) => loc,
            None => default_location(conn).await?,
        };
        location = Some(loc);
        let (reserved, _) = ledger::reserve(
            conn,
            &Movement {
                created_by: user,
                ..so_movement(order, l.product_id, loc, open)
            },
        )
        .await?;
        diesel::update(sales_order_lines::table.find(l.id))
            .set((
                sales_order_lines::quantity_allocated
                    .eq((&l.quantity_allocated.0 + reserved).with_scale(QUANTITY_SCALE)),
                sales_order_lines::location_id.eq(Some(loc)),
            ))
            .execute(conn)
            .await?;
    }
    Ok(model::lock_lines(conn, order.id).await?)
}

/// Gives back every reservation of the order.
pub async fn release_allocations(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    user: Option<i64>,
) -> Result<(), Stop> {
    for l in model::lock_lines(conn, order.id).await? {
        if l.quantity_allocated.0 <= BigDecimal::zero() {
            continue;
        }
        let Some(loc) = l.location_id else { continue };
        ledger::release(
            conn,
            &Movement {
                created_by: user,
                ..so_movement(order, l.product_id, loc, l.quantity_allocated.0.clone())
            },
        )
        .await?;
        diesel::update(sales_order_lines::table.find(l.id))
            .set(sales_order_lines::quantity_allocated.eq(BigDecimal::zero()))
            .execute(conn)
            .await?;
    }
    Ok(())
}

const INACTIVE_PRODUCTION: [OrderStatus; 4] = [
    OrderStatus::Cancelled,
    OrderStatus::Complete,
    OrderStatus::Split,
    OrderStatus::Scrapped,
];

/// The production orders of a sales order that still run (not cancelled, complete, split or
/// scrapped).
pub async fn active_production_orders(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
) -> crate::platform::error::AppResult<Vec<String>> {
    Ok(production_orders::table
        .filter(production_orders::sales_order_id.eq(sales_order_id))
        .filter(production_orders::status.ne_all(INACTIVE_PRODUCTION))
        .order(production_orders::id)
        .select(production_orders::code)
        .load(conn)
        .await?)
}

/// Creates production orders (through the production area's own create rule) for what each
/// line lacks beyond its reservation, its shipped units and the production orders it already
/// has. Finished goods and items made in house are produced; services and other bought items
/// never are. Answers the orders created.
pub async fn generate_production_orders(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    user: Option<i64>,
) -> Result<Vec<ProductionOrderRow>, Stop> {
    let lines = model::lock_lines(conn, order.id).await?;
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let kinds: Vec<(i64, String, String)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((items::id, items::item_type, items::procurement_type))
        .load(conn)
        .await?;
    let existing: Vec<(Option<i64>, BigDecimal, BigDecimal)> = production_orders::table
        .filter(production_orders::sales_order_id.eq(order.id))
        .filter(production_orders::status.ne_all([
            OrderStatus::Cancelled,
            OrderStatus::Split,
            OrderStatus::Scrapped,
        ]))
        .select((
            production_orders::sales_order_line_id,
            production_orders::quantity_ordered,
            production_orders::quantity_scrapped,
        ))
        .load(conn)
        .await?;
    let mut created = Vec::new();
    for l in &lines {
        let makeable = kinds
            .iter()
            .find(|k| k.0 == l.product_id)
            .is_some_and(|k| k.1 != "service" && (k.2 != "buy" || k.1 == "finished_good"));
        if !makeable {
            continue;
        }
        let planned = existing
            .iter()
            .filter(|e| e.0 == Some(l.id))
            .fold(BigDecimal::zero(), |a, e| a + &e.1 - &e.2);
        let short = BigDecimal::from(l.quantity)
            - &l.quantity_allocated.0
            - &l.quantity_shipped.0
            - planned;
        if short <= BigDecimal::zero() {
            continue;
        }
        let row = crate::operations::production::rules::create(
            conn,
            crate::operations::production::rules::ProductionOrderCreateInput {
                product_id: l.product_id,
                quantity_ordered: Decimal(short.with_scale_round(QUANTITY_SCALE, RoundingMode::Up)),
                due_date: order.due_date,
                priority: None,
                notes: Some(format!("For sales order {}", order.order_number)),
                bom_id: None,
                routing_id: None,
                sales_order_id: Some(order.id),
                sales_order_line_id: Some(l.id),
                source: Some(OrderSource::SalesOrder),
                order_type: None,
                assigned_to: None,
                location_id: l.location_id,
            },
            user,
        )
        .await?;
        created.push(row);
    }
    if !created.is_empty() {
        event(
            conn,
            order.id,
            SalesEventType::Production,
            "Production Orders Created",
            Some(
                created
                    .iter()
                    .map(|o| o.code.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            None,
            user,
        )
        .await?;
    }
    Ok(created)
}

/// Confirms an order: reserves stock for its lines and orders production for the rest; the
/// status becomes `in_production` when production orders were created, else `confirmed`.
pub async fn confirm(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    user: Option<i64>,
) -> Result<usize, Stop> {
    allocate(conn, order, user).await?;
    let created = generate_production_orders(conn, order, user).await?;
    set_status(conn, order, SalesOrderStatus::Confirmed, user).await?;
    if !created.is_empty() {
        let confirmed = locked(conn, order.id).await?;
        set_status(conn, &confirmed, SalesOrderStatus::InProduction, user).await?;
    }
    Ok(created.len())
}

fn still_active(codes: &[String], verb: &str) -> Stop {
    not_allowed(format!(
        "Cannot {verb}: {} work order(s) still active ({}). Cancel work orders first.",
        codes.len(),
        codes.join(", ")
    ))
}

async fn cancel_locked(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    reason: Option<String>,
    user: Option<i64>,
) -> Result<(), Stop> {
    let active = active_production_orders(conn, order.id).await?;
    if !active.is_empty() {
        return Err(still_active(&active, "cancel"));
    }
    release_allocations(conn, order, user).await?;
    diesel::update(sales_orders::table.find(order.id))
        .set((
            sales_orders::cancelled_at.eq(Some(now())),
            sales_orders::cancellation_reason.eq(reason),
        ))
        .execute(conn)
        .await?;
    set_status(conn, order, SalesOrderStatus::Cancelled, user).await
}

/// Cancels an order (`POST /sales-orders/{id}/cancel`, owner or admin): only pending,
/// confirmed or on-hold orders (400 `Cannot cancel order with status '{s}'`), never while its
/// production orders run; reservations are released.
pub async fn cancel(
    conn: &mut AsyncPgConnection,
    id: i64,
    reason: String,
    user: i64,
    admin: bool,
) -> Result<SalesOrderRow, Stop> {
    let reason = reason.trim().to_string();
    if reason.is_empty() {
        return Err(Stop::Refused(vec![invalid(
            "cancellationReason",
            "Field required",
        )]));
    }
    if reason.chars().count() > REASON_MAX {
        return Err(Stop::Refused(vec![invalid(
            "cancellationReason",
            format!("String should have at most {REASON_MAX} characters"),
        )]));
    }
    let order = locked_for(conn, id, user, admin).await?;
    if !order.status.is_cancellable() {
        return Err(not_allowed(format!(
            "Cannot cancel order with status '{}'",
            order.status
        )));
    }
    cancel_locked(conn, &order, Some(reason), Some(user)).await?;
    Ok(model::find(conn, id).await?)
}

/// What a delete did.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesOrderRemoval {
    /// The deleted order's id.
    pub id: i64,
    /// Its number.
    pub order_number: String,
}

/// Deletes a pending or cancelled order (admins) with no running production orders and no
/// payments.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<SalesOrderRemoval, Stop> {
    let order = locked(conn, id).await?;
    if !matches!(
        order.status,
        SalesOrderStatus::Pending | SalesOrderStatus::Cancelled
    ) {
        return Err(not_allowed(format!(
            "Cannot delete order with status '{}'. Only cancelled or pending orders can be deleted.",
            order.status
        )));
    }
    let active = active_production_orders(conn, id).await?;
    if !active.is_empty() {
        return Err(still_active(&active, "delete"));
    }
    let paid: i64 = payments::table
        .filter(payments::sales_order_id.eq(id))
        .count()
        .get_result(conn)
        .await?;
    if paid > 0 {
        return Err(not_allowed("Cannot delete an order with payments"));
    }
    release_allocations(conn, &order, None).await?;
    diesel::update(quotes::table.filter(quotes::sales_order_id.eq(id)))
        .set(quotes::sales_order_id.eq(None::<i64>))
        .execute(conn)
        .await?;
    diesel::update(production_orders::table.filter(production_orders::sales_order_id.eq(id)))
        .set((
            production_orders::sales_order_id.eq(None::<i64>),
            production_orders::sales_order_line_id.eq(None::<i64>),
        ))
        .execute(conn)
        .await?;
    diesel::delete(sales_orders::table.find(id))
        .execute(conn)
        .await?;
    Ok(SalesOrderRemoval {
        id,
        order_number: order.order_number,
    })
}

/// [`on_production_passed_qc`] as production's QC calls it
/// (`crate::operations::production::rules::OnSalesOrderPassedQc`).
pub fn production_passed_qc(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
) -> futures_util::future::BoxFuture<'_, Result<(bool, Option<String>), Stop>> {
    Box::pin(on_production_passed_qc(conn, sales_order_id))
}

/// Called by production (in the QC transaction) when every production order of a sales order
/// has passed QC: the finished goods just received are reserved for the order's lines and an
/// `in_production` (or `confirmed`) order moves to `ready_to_ship`. Answers `(moved, status)`.
pub async fn on_production_passed_qc(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
) -> Result<(bool, Option<String>), Stop> {
    let Some(order) = model::lock(conn, sales_order_id).await? else {
        return Ok((false, None));
    };
    if !matches!(
        order.status,
        SalesOrderStatus::InProduction | SalesOrderStatus::Confirmed
    ) {
        return Ok((false, None));
    }
    allocate(conn, &order, None).await?;
    set_status(conn, &order, SalesOrderStatus::ReadyToShip, None).await?;
    Ok((true, Some(SalesOrderStatus::ReadyToShip.to_string())))
}

/// Recomputes an order's payment status from its completed payments (CONTRACT 5.4): paid
/// at most zero is `pending`, at least the grand total `paid` (and `paid_at` set), otherwise
/// `partial`.
pub async fn recompute_payment_status(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
) -> Result<SalesPaymentStatus, Stop> {
    let paid = model::paid_of(conn, &[order.id])
        .await?
        .into_iter()
        .next()
        .map(|(_, p)| p)
        .unwrap_or_default();
    let status = if paid <= BigDecimal::zero() {
        SalesPaymentStatus::Pending
    } else if paid >= order.grand_total.0 {
        SalesPaymentStatus::Paid
    } else {
        SalesPaymentStatus::Partial
    };
    let paid_at = if status == SalesPaymentStatus::Paid {
        Some(order.paid_at.as_ref().map(|t| t.0).unwrap_or_else(now))
    } else {
        None
    };
    diesel::update(sales_orders::table.find(order.id))
        .set((
            sales_orders::payment_status.eq(status),
            sales_orders::paid_at.eq(paid_at),
        ))
        .execute(conn)
        .await?;
    Ok(status)
}
