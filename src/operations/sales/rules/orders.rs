//! A sales order as it is entered and changed: its events, creation, locks, and changes of
//! address, shipping and payment.

use super::*;
use crate::master_data::pricing::rules::LevelPrice;

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
    event_noting(
        conn,
        order_id,
        event_type,
        title,
        description,
        change,
        user,
        None,
    )
    .await
}

/// Records an event on an order that carries one named fact (`payment_number` and the
/// payment's number), which the activity panel shows as "key: value".
#[allow(clippy::too_many_arguments)]
pub async fn event_noting(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    event_type: SalesEventType,
    title: impl Into<String>,
    description: Option<String>,
    change: Option<(SalesOrderStatus, SalesOrderStatus)>,
    user: Option<i64>,
    metadata: Option<(&str, String)>,
) -> Result<(), Stop> {
    let (metadata_key, metadata_value) = metadata
        .map(|(k, v)| (Some(k.to_string()), Some(v)))
        .unwrap_or_default();
    diesel::insert_into(sales_order_events::table)
        .values(NewEvent {
            sales_order_id: order_id,
            event_type,
            title: title.into(),
            description,
            old_status: change.map(|(f, _)| f.to_string()),
            new_status: change.map(|(_, t)| t.to_string()),
            created_by: user,
            metadata_key,
            metadata_value,
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
    let shipping = validate_create(&mut input)?;
    let customer = customer_facts(conn, input.customer_id, input.customer_email.as_deref()).await?;
    let priced = price_lines(conn, &input.lines, customer.id).await?;
    // The region the order ships to: the given address, else the customer's.
    let region = match input.shipping_address_line1 {
        Some(_) => input.shipping_state.clone(),
        None => customer.address[3].clone(),
    };
    let tax = resolve_tax(
        conn,
        TaxQuestion {
            customer_id: customer.id,
            region: region.as_deref(),
            chosen: input.tax_rate_id,
            apply: None,
        },
    )
    .await?;
    let line_totals: Vec<BigDecimal> = priced
        .iter()
        .map(|(l, _, price, _)| line_total(l.quantity, price, &BigDecimal::zero()))
        .collect();
    let t = totals(&line_totals, &shipping, &tax.rate);
    let product_name = match priced.as_slice() {
        [(l, p, _, _)] => format!("{} x{}", p.name, l.quantity),
        many => format!("{} items", many.len()),
    };
    let number = next_number(conn, "sales_order_seq", "SO").await?;
    let order: SalesOrderRow = diesel::insert_into(sales_orders::table)
        .values(new_order(
            input,
            customer,
            (t, tax),
            product_name,
            number,
            user,
        ))
        .returning(SalesOrderRow::as_returning())
        .get_result(conn)
        .await?;
    insert_lines(conn, order.id, priced, line_totals).await?;
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

/// A line of a new order with its product, the unit price it is sold at, and the price
/// level that set that price (with the list price it replaced).
pub(super) type PricedLine = (
    SalesOrderLineInput,
    ProductFacts,
    BigDecimal,
    Option<LevelPrice>,
);

/// Checks the fields of a new order (trimming its texts) and returns the shipping charged;
/// every problem found is reported at once.
fn validate_create(input: &mut SalesOrderCreateInput) -> Result<BigDecimal, Stop> {
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
    Ok(shipping)
}

/// Finds each line's product and its selling price, refusing unknown, discontinued and
/// unpriced products (CONTRACT 5.2).
pub(super) async fn price_lines(
    conn: &mut AsyncPgConnection,
    lines: &[SalesOrderLineInput],
    customer: Option<i64>,
) -> Result<Vec<PricedLine>, Stop> {
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
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
    for l in lines {
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
        priced.push((l.clone(), p, price, None));
    }
    // The customer's price level, applied over the list prices.
    let list: Vec<(i64, BigDecimal)> = priced
        .iter()
        .map(|(l, _, price, _)| (l.product_id, price.clone()))
        .collect();
    let levels = crate::master_data::pricing::rules::price_for(conn, customer, &list).await?;
    for (l, _, price, level) in &mut priced {
        if let Some(by_level) = levels.get(&l.product_id) {
            *price = by_level.unit_price.clone();
            *level = Some(by_level.clone());
        }
    }
    Ok(priced)
}

/// The row of a new order: the customer's facts, the totals, and the customer's shipping
/// address when none was given (the country defaults to USA).
fn new_order(
    input: SalesOrderCreateInput,
    customer: CustomerFacts,
    (t, tax): (Totals, AppliedTax),
    product_name: String,
    number: String,
    user: i64,
) -> NewOrder {
    let no_address = input.shipping_address_line1.is_none();
    let [a1, a2, city, state, zip, country] = customer.address.clone();
    let pick = |given: Option<String>, theirs: Option<String>| {
        if no_address { theirs } else { given }
    };
    NewOrder {
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
        tax_rate_id: tax.tax_rate_id,
        tax_rate_name: tax.name,
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
    }
}

/// Writes the lines of a new order, numbered from 1 in the order given.
async fn insert_lines(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    priced: Vec<PricedLine>,
    line_totals: Vec<BigDecimal>,
) -> Result<(), Stop> {
    let lines: Vec<NewLine> = priced
        .into_iter()
        .zip(line_totals)
        .enumerate()
        .map(|(i, ((l, product, price, level), total))| NewLine {
            sales_order_id: order_id,
            line_number: i as i32 + 1,
            product_id: l.product_id,
            quantity: l.quantity,
            unit_price: price,
            total,
            notes: l.notes,
            list_price: level
                .as_ref()
                .and(product.selling_price.as_ref().map(cents)),
            price_level_name: level.map(|lv| lv.level_name),
        })
        .collect();
    diesel::insert_into(sales_order_lines::table)
        .values(&lines)
        .execute(conn)
        .await?;
    Ok(())
}

pub(super) async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<SalesOrderRow, Stop> {
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
pub(super) struct DetailsChanges {
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

pub(super) async fn write_details(
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
