//! Sales rows (each is also its GraphQL object), their closed sets and the queries on them.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::{payments, sales_order_events, sales_order_lines, sales_orders};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Where a sales order stands (CONTRACT 6.1).
    pub enum SalesOrderStatus {
        /// Being written.
        Draft,
        /// Placed, waiting for confirmation.
        Pending,
        /// Waiting for the customer's confirmation.
        PendingConfirmation,
        /// Confirmed: stock allocated, production ordered for the rest.
        Confirmed,
        /// Production orders are making it.
        InProduction,
        /// Everything is made and passed QC.
        ReadyToShip,
        /// Shipped.
        Shipped,
        /// Delivered.
        Delivered,
        /// Done (terminal).
        Completed,
        /// Called off (terminal).
        Cancelled,
        /// Held.
        OnHold,
    }
}

impl SalesOrderStatus {
    /// The statuses an order may move to from this one (CONTRACT 6.1; same to same is
    /// always allowed and not listed).
    pub fn allowed(self) -> &'static [SalesOrderStatus] {
        use SalesOrderStatus::*;
        match self {
            Draft => &[Pending, Cancelled],
            Pending => &[Confirmed, OnHold, Cancelled],
            PendingConfirmation => &[Confirmed, Cancelled],
            Confirmed => &[InProduction, ReadyToShip, OnHold, Cancelled],
            InProduction => &[ReadyToShip, OnHold, Cancelled],
            ReadyToShip => &[Shipped, OnHold, Cancelled],
            Shipped => &[Delivered, Completed],
            Delivered => &[Completed],
            OnHold => &[Pending, Confirmed, InProduction, ReadyToShip, Cancelled],
            Completed | Cancelled => &[],
        }
    }

    /// Whether nothing may follow.
    pub fn is_terminal(self) -> bool {
        self.allowed().is_empty()
    }

    /// Whether the order can be cancelled (CONTRACT 6.1 `is_cancellable`).
    pub fn is_cancellable(self) -> bool {
        matches!(
            self,
            SalesOrderStatus::Pending | SalesOrderStatus::Confirmed | SalesOrderStatus::OnHold
        )
    }
}

crate::text_enum! {
    /// How much of an order is paid (CONTRACT 6.1).
    pub enum SalesPaymentStatus {
        /// Nothing paid.
        Pending,
        /// Part paid.
        Partial,
        /// Paid in full.
        Paid,
        /// Paid and refunded.
        Refunded,
        /// Past due.
        Overdue,
    }
}

crate::text_enum! {
    /// The computed fulfillment state of an order (CONTRACT 6.1).
    pub enum FulfillmentState {
        /// Every line is allocated.
        ReadyToShip,
        /// Some lines are.
        PartiallyReady,
        /// None are (or the order has no lines).
        Blocked,
        /// The order shipped.
        Shipped,
        /// The order was cancelled.
        Cancelled,
    }
}

crate::text_enum! {
    /// Internal logistics status of an order.
    pub enum LogisticsStatus {
        /// Not started.
        Pending,
        /// Ready.
        Ready,
        /// Being picked.
        Picking,
        /// Being packed.
        Packing,
        /// Shipped.
        Shipped,
        /// Delivered.
        Delivered,
    }
}

crate::text_enum! {
    /// How an order was made.
    pub enum SalesOrderType {
        /// From a quote.
        QuoteBased,
        /// From lines.
        LineItem,
    }
}

crate::text_enum! {
    /// Where an order came from.
    pub enum SalesOrderSource {
        /// The customer portal.
        Portal,
        /// Entered by hand.
        Manual,
        /// Squarespace.
        Squarespace,
        /// WooCommerce.
        Woocommerce,
        /// Shopify.
        Shopify,
        /// Etsy.
        Etsy,
        /// TikTok.
        Tiktok,
    }
}

crate::text_enum! {
    /// How urgent an order is.
    pub enum RushLevel {
        /// Normal.
        Standard,
        /// Rush.
        Rush,
        /// Super rush.
        SuperRush,
        /// Urgent.
        Urgent,
    }
}

crate::text_enum! {
    /// The columns sales orders can be sorted by (default `order_date`, newest first).
    pub enum SalesOrderSort {
        /// When it was created (the default).
        OrderDate,
        /// Ready to ship first (1), then partially ready, blocked, shipped, cancelled.
        FulfillmentPriority,
        /// Share of lines allocated.
        FulfillmentPercent,
        /// The customer's name.
        CustomerName,
        /// Created.
        CreatedAt,
        /// Due date.
        DueDate,
        /// Grand total.
        TotalAmount,
    }
}

/// A sales order (`SO-YYYY-NNNN`).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = sales_orders, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "SalesOrder", complex)]
pub struct SalesOrderRow {
    /// Id.
    pub id: i64,
    /// `SO-YYYY-NNNN`.
    pub order_number: String,
    /// Who placed it (non-admins see only their own orders).
    pub user_id: Option<i64>,
    /// The customer.
    pub customer_id: Option<i64>,
    /// The quote it came from.
    pub quote_id: Option<i64>,
    /// From a quote or from lines.
    pub order_type: SalesOrderType,
    /// Where it came from.
    pub source: SalesOrderSource,
    /// The marketplace's order id.
    pub source_order_id: Option<String>,
    /// Where it stands.
    pub status: SalesOrderStatus,
    /// How much is paid.
    pub payment_status: SalesPaymentStatus,
    /// Internal logistics status.
    pub fulfillment_status: LogisticsStatus,
    /// Urgency.
    pub rush_level: RushLevel,
    /// `{name} x{qty}` for one line, otherwise `{n} items`.
    pub product_name: Option<String>,
    /// The customer's name when it was placed.
    pub customer_name: Option<String>,
    /// The customer's e-mail.
    pub customer_email: Option<String>,
    /// The customer's phone.
    pub customer_phone: Option<String>,
    /// Sum of the lines.
    pub subtotal: Decimal,
    /// Tax rate applied (a fraction, 0.0825 for 8.25 %).
    pub tax_rate: Decimal,
    /// Tax, subtotal x rate to the cent.
    pub tax_amount: Decimal,
    /// Shipping charged.
    pub shipping_cost: Decimal,
    /// Subtotal + tax + shipping.
    pub grand_total: Decimal,
    /// How it was paid.
    pub payment_method: Option<String>,
    /// The payment's reference.
    pub payment_transaction_id: Option<String>,
    /// When it became paid in full.
    pub paid_at: Option<Timestamp>,
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
    /// Carrier tracking number.
    pub tracking_number: Option<String>,
    /// Carrier.
    pub carrier: Option<String>,
    /// When it shipped.
    pub shipped_at: Option<Timestamp>,
    /// When it was delivered.
    pub delivered_at: Option<Timestamp>,
    /// The customer's notes.
    pub customer_notes: Option<String>,
    /// Internal notes.
    pub internal_notes: Option<String>,
    /// Notes for production.
    pub production_notes: Option<String>,
    /// When it was cancelled.
    pub cancelled_at: Option<Timestamp>,
    /// Why it was cancelled.
    pub cancellation_reason: Option<String>,
    /// When it is due.
    pub due_date: Option<NaiveDate>,
    /// When production should be done.
    pub estimated_completion_date: Option<NaiveDate>,
    /// When it was completed.
    pub actual_completion_date: Option<Timestamp>,
    /// When it was confirmed.
    pub confirmed_at: Option<Timestamp>,
    /// How many lines it has.
    pub lines_total: i32,
    /// How many lines are allocated (or shipped) in full.
    pub lines_ready: i32,
    /// Computed from the allocations (CONTRACT 6.1).
    pub fulfillment_state: FulfillmentState,
    /// Sort key: ready_to_ship 1, partially_ready 2, blocked 3, shipped 4, cancelled 5.
    pub fulfillment_priority: i32,
    /// lines_ready / lines_total x 100.
    pub fulfillment_percent: Decimal,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// The named tax rate charged.
    pub tax_rate_id: Option<i64>,
    /// What the tax is called on the order ("Tax exempt (...)", the rate's name, the
    /// settings' tax name).
    pub tax_rate_name: Option<String>,
}

/// A line of a sales order.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = sales_order_lines, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "SalesOrderLine", complex)]
pub struct SalesOrderLineRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub sales_order_id: i64,
    /// Position (1, 2, ...).
    pub line_number: i32,
    /// The product.
    pub product_id: i64,
    /// Units ordered.
    pub quantity: i32,
    /// Price per unit (the item's selling price when ordered).
    pub unit_price: Decimal,
    /// Discount on the line.
    pub discount: Decimal,
    /// quantity x unit price - discount.
    pub total: Decimal,
    /// Where its stock is reserved and shipped from.
    pub location_id: Option<i64>,
    /// Units reserved for it.
    pub quantity_allocated: Decimal,
    /// Units shipped.
    pub quantity_shipped: Decimal,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// The item's selling price when the customer's price level priced the line (the unit
    /// price is what the level gives).
    pub list_price: Option<Decimal>,
    /// The price level that priced it.
    pub price_level_name: Option<String>,
}

crate::text_enum! {
    /// What kind of thing happened to a sales order.
    pub enum SalesEventType {
        /// Placed (by hand, from a quote or by an import).
        Created,
        /// Its status moved.
        StatusChange,
        /// A payment or refund.
        Payment,
        /// Production orders were made for it.
        Production,
        /// Its shipping address changed.
        AddressUpdated,
        /// Its carrier, tracking number or ship date changed.
        ShippingUpdated,
        /// A note someone added.
        Note,
        /// A carrier's tracking update (see its shipping events).
        Shipping,
        /// An invoice was written, sent or voided.
        Invoice,
        /// A line was changed or removed after the order was entered.
        Amendment,
        /// A message to or from the customer (see its thread).
        Message,
    }
}

/// Something that happened to a sales order.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = sales_order_events, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "SalesOrderEvent", complex)]
pub struct SalesEventRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub sales_order_id: i64,
    /// What kind of event.
    pub event_type: SalesEventType,
    /// Title.
    pub title: String,
    /// Details.
    pub description: Option<String>,
    /// Status before.
    pub old_status: Option<String>,
    /// Status after.
    pub new_status: Option<String>,
    /// Who.
    #[diesel(column_name = created_by)]
    pub user_id: Option<i64>,
    /// A fact the event carries, named (`payment_number`, `quantity_received`...).
    pub metadata_key: Option<String>,
    /// Its value.
    pub metadata_value: Option<String>,
    /// When.
    pub created_at: Timestamp,
}

/// How sales orders are listed.
#[derive(Debug, Clone, Default)]
pub struct SalesOrderFilter {
    /// Only these statuses.
    pub statuses: Vec<SalesOrderStatus>,
    /// Only these fulfillment states.
    pub fulfillment_states: Vec<FulfillmentState>,
    /// Only this user's orders (non-admins).
    pub user_id: Option<i64>,
    /// Only this customer's orders.
    pub customer_id: Option<i64>,
    /// Only this source.
    pub source: Option<SalesOrderSource>,
    /// Shipped on or after.
    pub shipped_after: Option<NaiveDate>,
    /// Order number, customer name or email, product, tracking number or the source's order
    /// number contains this (case-insensitive).
    pub search: Option<String>,
    /// Sort column.
    pub sort_by: Option<SalesOrderSort>,
    /// Sort direction (default descending).
    pub sort_order: Option<SortOrder>,
    /// Count every matching order (the total is 0 otherwise): only when it is shown.
    pub count_total: bool,
}

/// One page of sales orders and the total (when counted), in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &SalesOrderFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<SalesOrderRow>, i64)> {
    let build = || {
        let mut q = sales_orders::table
            .select((
                SalesOrderRow::as_select(),
                paging::total_count_if(filter.count_total),
            ))
            .into_boxed();
        if !filter.statuses.is_empty() {
            q = q.filter(sales_orders::status.eq_any(filter.statuses.clone()));
        }
        if !filter.fulfillment_states.is_empty() {
            q = q.filter(sales_orders::fulfillment_state.eq_any(filter.fulfillment_states.clone()));
        }
        if let Some(u) = filter.user_id {
            q = q.filter(sales_orders::user_id.eq(u));
        }
        if let Some(c) = filter.customer_id {
            q = q.filter(sales_orders::customer_id.eq(c));
        }
        if let Some(s) = filter.source {
            q = q.filter(sales_orders::source.eq(s));
        }
        if let Some(d) = filter.shipped_after {
            let start = d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
            q = q.filter(sales_orders::shipped_at.ge(start));
        }
        if let Some(text) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = crate::platform::db::like_pattern(text);
            q = q.filter(
                sales_orders::order_number
                    .ilike(p.clone())
                    .or(sales_orders::customer_name.ilike(p.clone()))
                    .or(sales_orders::customer_email.ilike(p.clone()))
                    .or(sales_orders::product_name.ilike(p.clone()))
                    .or(sales_orders::tracking_number.ilike(p.clone()))
                    .or(sales_orders::source_order_id.ilike(p)),
            );
        }
        let sort = filter.sort_by.unwrap_or(SalesOrderSort::OrderDate);
        let order = filter.sort_order.unwrap_or(match sort {
            SalesOrderSort::FulfillmentPriority | SalesOrderSort::CustomerName => SortOrder::Asc,
            _ => SortOrder::Desc,
        });
        let id = sales_orders::id;
        match sort {
            SalesOrderSort::OrderDate | SalesOrderSort::CreatedAt => {
                paging::sorted(q, sales_orders::created_at, id, order)
            }
            SalesOrderSort::FulfillmentPriority => {
                paging::sorted(q, sales_orders::fulfillment_priority, id, order)
            }
            SalesOrderSort::FulfillmentPercent => {
                paging::sorted(q, sales_orders::fulfillment_percent, id, order)
            }
            SalesOrderSort::CustomerName => {
                paging::sorted(q, sales_orders::customer_name, id, order)
            }
            SalesOrderSort::DueDate => paging::sorted(q, sales_orders::due_date, id, order),
            SalesOrderSort::TotalAmount => paging::sorted(q, sales_orders::grand_total, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The sales order with this id, or a 404 `Sales order not found`.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<SalesOrderRow> {
    paging::find_or_404(
        conn,
        sales_orders::table
            .find(id)
            .select(SalesOrderRow::as_select()),
        "Sales order not found",
    )
    .await
}

/// The order with this id, locked for the rest of the transaction.
pub async fn lock(conn: &mut AsyncPgConnection, id: i64) -> QueryResult<Option<SalesOrderRow>> {
    sales_orders::table
        .find(id)
        .select(SalesOrderRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// Orders in one of these statuses (at most `limit`, oldest first), only `owner`'s when
/// given.
pub async fn in_statuses(
    conn: &mut AsyncPgConnection,
    statuses: &[SalesOrderStatus],
    owner: Option<i64>,
    limit: i64,
) -> AppResult<Vec<SalesOrderRow>> {
    let mut q = sales_orders::table
        .filter(sales_orders::status.eq_any(statuses.to_vec()))
        .select(SalesOrderRow::as_select())
        .order(sales_orders::id)
        .limit(limit)
        .into_boxed();
    if let Some(owner) = owner {
        q = q.filter(sales_orders::user_id.eq(owner));
    }
    Ok(q.load(conn).await?)
}

/// The orders with these ids.
pub async fn by_ids(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<SalesOrderRow>> {
    Ok(sales_orders::table
        .filter(sales_orders::id.eq_any(ids))
        .select(SalesOrderRow::as_select())
        .load(conn)
        .await?)
}

/// The lines of these orders, by line number.
pub async fn lines_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<SalesOrderLineRow>> {
    Ok(sales_order_lines::table
        .filter(sales_order_lines::sales_order_id.eq_any(order_ids))
        .order((
            sales_order_lines::sales_order_id,
            sales_order_lines::line_number,
        ))
        .select(SalesOrderLineRow::as_select())
        .load(conn)
        .await?)
}

/// The lines of one order, locked for the rest of the transaction.
pub async fn lock_lines(
    conn: &mut AsyncPgConnection,
    order_id: i64,
) -> QueryResult<Vec<SalesOrderLineRow>> {
    sales_order_lines::table
        .filter(sales_order_lines::sales_order_id.eq(order_id))
        .order(sales_order_lines::line_number)
        .select(SalesOrderLineRow::as_select())
        .for_update()
        .load(conn)
        .await
}

/// The events of these orders, oldest first.
pub async fn events_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<SalesEventRow>> {
    Ok(sales_order_events::table
        .filter(sales_order_events::sales_order_id.eq_any(order_ids))
        .order((sales_order_events::sales_order_id, sales_order_events::id))
        .select(SalesEventRow::as_select())
        .load(conn)
        .await?)
}

/// Completed payments less refunds per order.
pub async fn paid_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<(i64, BigDecimal)>> {
    let rows: Vec<(i64, Option<BigDecimal>)> = payments::table
        .filter(payments::sales_order_id.eq_any(order_ids))
        .filter(payments::status.eq("completed"))
        .group_by(payments::sales_order_id)
        .select((payments::sales_order_id, diesel::dsl::sum(payments::amount)))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, s)| (id, s.unwrap_or_default()))
        .collect())
}

/// A line to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = sales_order_lines)]
pub struct NewLine {
    /// Order.
    pub sales_order_id: i64,
    /// Position.
    pub line_number: i32,
    /// Product.
    pub product_id: i64,
    /// Units.
    pub quantity: i32,
    /// Price.
    pub unit_price: BigDecimal,
    /// Total.
    pub total: BigDecimal,
    /// Notes.
    pub notes: Option<String>,
    /// The item's selling price when a price level priced the line.
    pub list_price: Option<BigDecimal>,
    /// The price level that priced it.
    pub price_level_name: Option<String>,
}

/// An event to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = sales_order_events)]
pub struct NewEvent {
    /// Order.
    pub sales_order_id: i64,
    /// Kind.
    pub event_type: SalesEventType,
    /// Title.
    pub title: String,
    /// Details.
    pub description: Option<String>,
    /// Before.
    pub old_status: Option<String>,
    /// After.
    pub new_status: Option<String>,
    /// Who.
    pub created_by: Option<i64>,
    /// A fact the event carries, named.
    pub metadata_key: Option<String>,
    /// Its value.
    pub metadata_value: Option<String>,
}

/// A recent order as the dashboard lists it.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct RecentOrder {
    /// Id.
    pub id: i64,
    /// Number.
    pub order_number: String,
    /// What it is.
    pub product_name: Option<String>,
    /// Who (`Unknown` when missing).
    pub customer_name: String,
    /// Status.
    pub status: SalesOrderStatus,
    /// Payment status.
    pub payment_status: SalesPaymentStatus,
    /// Grand total.
    pub grand_total: f64,
    /// Created.
    pub created_at: Timestamp,
    /// The grand total exactly (for what is still owed).
    #[graphql(skip)]
    pub total: BigDecimal,
}

impl From<SalesOrderRow> for RecentOrder {
    fn from(o: SalesOrderRow) -> Self {
        RecentOrder {
            id: o.id,
            order_number: o.order_number,
            product_name: o.product_name,
            customer_name: o.customer_name.unwrap_or_else(|| "Unknown".into()),
            status: o.status,
            payment_status: o.payment_status,
            grand_total: bigdecimal::ToPrimitive::to_f64(&o.grand_total.0.with_scale(2))
                .unwrap_or_default(),
            created_at: o.created_at,
            total: o.grand_total.0,
        }
    }
}
