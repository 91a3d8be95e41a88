//! What people add to a sales order's history: notes (`POST /sales-orders/{id}/events`) and
//! the carrier's tracking updates (`/sales-orders/{id}/shipping-events`). A delivered update
//! on a shipped order moves it to delivered, through the order's own status rule.

use async_graphql::{InputObject, SimpleObject};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::{NOTES_MAX, optional_text};
use crate::operations::sales::model::{SalesEventRow, SalesEventType, SalesOrderStatus};
use crate::operations::sales::rules::{SHORT_MAX, event, locked_for, now, set_status_at};
use crate::platform::db::schema::{sales_order_events, shipments, shipping_events};
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// The longest event title.
const TITLE_MAX: usize = 255;

crate::text_enum! {
    /// What a carrier reported about a shipment.
    pub enum ShippingEventType {
        /// A label was bought.
        LabelCreated,
        /// The carrier has it.
        PickedUp,
        /// On its way.
        InTransit,
        /// Out for delivery today.
        OutForDelivery,
        /// Delivered.
        Delivered,
        /// Delivery was tried and failed.
        DeliveryAttempted,
        /// Held up (damage, address problem, customs).
        Exception,
        /// On its way back to us.
        ReturnedToSender,
    }
}

crate::text_enum! {
    /// Who reported a shipping event.
    pub enum ShippingEventSource {
        /// A person, by hand.
        Manual,
        /// A carrier's tracking feed.
        Carrier,
    }
}

impl ShippingEventType {
    /// How the order's history titles it.
    pub fn title(self) -> &'static str {
        match self {
            ShippingEventType::LabelCreated => "Label Created",
            ShippingEventType::PickedUp => "Picked Up",
            ShippingEventType::InTransit => "In Transit",
            ShippingEventType::OutForDelivery => "Out for Delivery",
            ShippingEventType::Delivered => "Delivered",
            ShippingEventType::DeliveryAttempted => "Delivery Attempted",
            ShippingEventType::Exception => "Shipping Exception",
            ShippingEventType::ReturnedToSender => "Returned to Sender",
        }
    }
}

/// One tracking update of a sales order.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = shipping_events, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "ShippingEvent")]
pub struct ShippingEventRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub sales_order_id: i64,
    /// The shipment it is about (the order's latest when not named).
    pub shipment_id: Option<i64>,
    /// What happened.
    pub event_type: ShippingEventType,
    /// Details.
    pub description: Option<String>,
    /// Where (a depot, a city).
    pub location: Option<String>,
    /// The carrier.
    pub carrier: Option<String>,
    /// The tracking number.
    pub tracking_number: Option<String>,
    /// When it happened.
    pub event_at: Timestamp,
    /// Who reported it.
    pub source: ShippingEventSource,
    /// Who recorded it.
    pub created_by: Option<i64>,
    /// Recorded.
    pub created_at: Timestamp,
}

/// A note on an order's history.
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderNoteInput {
    /// Title (1-255).
    pub title: String,
    /// Details.
    pub description: Option<String>,
}

/// A tracking update to record.
#[derive(Debug, Clone, InputObject)]
pub struct ShippingEventInput {
    /// What happened.
    pub event_type: ShippingEventType,
    /// Details.
    pub description: Option<String>,
    /// Where.
    pub location: Option<String>,
    /// When (default now; not in the future).
    pub event_at: Option<Timestamp>,
    /// Who reported it (default manual).
    #[graphql(default_with = "ShippingEventSource::Manual")]
    pub source: ShippingEventSource,
}

/// Adds a note to an order's history (owner or admin).
pub async fn add_note(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: SalesOrderNoteInput,
    user: i64,
    admin: bool,
) -> Result<SalesEventRow, Stop> {
    let mut errors = Vec::new();
    let mut title = Some(input.title);
    crate::platform::db::text::required(&mut errors, "title", &mut title, true, TITLE_MAX);
    let mut description = input.description;
    optional_text(&mut errors, "description", &mut description, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let order = locked_for(conn, id, user, admin).await?;
    event(
        conn,
        order.id,
        SalesEventType::Note,
        title.unwrap_or_default(),
        description,
        None,
        Some(user),
    )
    .await?;
    Ok(sales_order_events::table
        .filter(sales_order_events::sales_order_id.eq(order.id))
        .order(sales_order_events::id.desc())
        .select(SalesEventRow::as_select())
        .first(conn)
        .await?)
}

/// Records a tracking update on a shipped order (admins): it names the order's latest
/// shipment, carrier and tracking number, joins the order's history, and a delivered update
/// moves a shipped order to delivered.
pub async fn record_shipping_event(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: ShippingEventInput,
    user: i64,
) -> Result<ShippingEventRow, Stop> {
    let mut errors = Vec::new();
    let mut description = input.description;
    optional_text(&mut errors, "description", &mut description, NOTES_MAX);
    let mut location = input.location;
    optional_text(&mut errors, "location", &mut location, SHORT_MAX);
    let at = input.event_at.map_or_else(now, |t| t.0);
    if at > now() + chrono::Duration::minutes(5) {
        errors.push(crate::platform::graphql::user_error::UserError::new(
            "eventAt",
            UserErrorCode::Invalid,
            "The event cannot be in the future",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let order = locked_for(conn, id, user, true).await?;
    if !matches!(
        order.status,
        SalesOrderStatus::Shipped | SalesOrderStatus::Delivered | SalesOrderStatus::Completed
    ) {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            format!(
                "Order {} has not shipped; it is {}",
                order.order_number, order.status
            ),
        ));
    }
    let shipment: Option<i64> = shipments::table
        .filter(shipments::sales_order_id.eq(order.id))
        .order(shipments::id.desc())
        .select(shipments::id)
        .first(conn)
        .await
        .optional()?;
    let row: ShippingEventRow = diesel::insert_into(shipping_events::table)
        .values((
            shipping_events::sales_order_id.eq(order.id),
            shipping_events::shipment_id.eq(shipment),
            shipping_events::event_type.eq(input.event_type),
            shipping_events::description.eq(&description),
            shipping_events::location.eq(&location),
            shipping_events::carrier.eq(&order.carrier),
            shipping_events::tracking_number.eq(&order.tracking_number),
            shipping_events::event_at.eq(at),
            shipping_events::source.eq(input.source),
            shipping_events::created_by.eq(Some(user)),
        ))
        .returning(ShippingEventRow::as_returning())
        .get_result(conn)
        .await?;
    let detail = [location.as_deref(), description.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(": ");
    event(
        conn,
        order.id,
        SalesEventType::Shipping,
        input.event_type.title(),
        (!detail.is_empty()).then_some(detail),
        None,
        Some(user),
    )
    .await?;
    if input.event_type == ShippingEventType::Delivered && order.status == SalesOrderStatus::Shipped
    {
        // Delivered when the carrier says it was, not when the update reached us.
        set_status_at(conn, &order, SalesOrderStatus::Delivered, Some(user), at).await?;
    }
    Ok(row)
}

/// An order's tracking updates, oldest first.
pub async fn of_order(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> diesel::QueryResult<Vec<ShippingEventRow>> {
    shipping_events::table
        .filter(shipping_events::sales_order_id.eq(id))
        .order((shipping_events::event_at, shipping_events::id))
        .select(ShippingEventRow::as_select())
        .load(conn)
        .await
}
