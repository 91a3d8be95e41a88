//! What shipping an order does (one database transaction, the caller's): check the order
//! may ship and has an address, issue each line's finished goods (its reservation first) and
//! the shipping-stage BOM packaging through the stock ledger, book the cost of goods, write the
//! invoice (`crate::operations::sales::invoices`), record the shipment and move the order to `shipped`.

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive, Zero};
use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use rand::Rng;

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount, cents};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind, Posted};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{QUANTITY_SCALE, optional_text, today};
use crate::operations::bom::model::{BomRow, ConsumeStage};
use crate::operations::bom::tree::Tree;
use crate::operations::sales::model::{
    self as sales, LogisticsStatus, SalesEventType, SalesOrderLineRow, SalesOrderRow,
    SalesOrderStatus,
};
use crate::operations::sales::rules::{event, next_number, not_allowed, now};
use crate::operations::sales::shipments::ShipmentRow;
use crate::operations::traceability::rules::{ShippedLine, assign_shipped_units};
use crate::platform::db::schema::{sales_order_lines, sales_orders, shipments};
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// Longest carrier, service or tracking number.
pub const SHORT_MAX: usize = 100;

/// How an order ships (`POST /sales-orders/{id}/ship`, `POST /shipments/`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct ShipInput {
    /// Carrier (default `USPS`).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::shipping::rules::SHORT_MAX))]
    pub carrier: Option<String>,
    /// Service (default `Priority`).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::shipping::rules::SHORT_MAX))]
    pub service: Option<String>,
    /// Tracking number (generated when missing).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::shipping::rules::SHORT_MAX))]
    pub tracking_number: Option<String>,
}

/// A shipment to create (`POST /shipments/`).
#[derive(Debug, Clone, InputObject)]
pub struct ShipmentCreateInput {
    /// The order to ship.
    pub sales_order_id: i64,
    /// Carrier (default `USPS`).
    pub carrier: Option<String>,
    /// Service (default `Priority`).
    pub service: Option<String>,
    /// Tracking number (generated when missing).
    pub tracking_number: Option<String>,
}

/// What shipping did (CONTRACT 5.2 ship response).
#[derive(Debug, Clone, SimpleObject)]
pub struct ShipResult {
    /// `Order shipped successfully`.
    pub message: String,
    /// The tracking number.
    pub tracking_number: String,
    /// Carrier.
    pub carrier: String,
    /// Service.
    pub service: String,
    /// When.
    pub shipped_at: Timestamp,
    /// No label service: always null.
    pub label_url: Option<String>,
    /// The order's id.
    pub sales_order_id: i64,
    /// The shipment.
    pub shipment: ShipmentRow,
    /// What the quality gate found but let through (`warn` mode).
    pub warnings: Vec<String>,
}

/// A made-up tracking number: `{CARRIER}{YYYYMMDD}{id:04}{6 random}`.
fn mock_tracking(carrier: &str, order_id: i64) -> String {
    let code: String = carrier
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_uppercase();
    let mut rng = rand::thread_rng();
    let tail: String = (0..6)
        .map(|_| char::from(b'0' + rng.gen_range(0..10u8)))
        .collect();
    format!("{code}{}{order_id:04}{tail}", today().format("%Y%m%d"))
}

/// Ships an order by id (admins).
pub async fn ship(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
    input: ShipInput,
    user: i64,
) -> Result<ShipResult, Stop> {
    let order = sales::lock(conn, sales_order_id).await?.ok_or_else(|| {
        Stop::refuse(
            "salesOrderId",
            UserErrorCode::NotFound,
            "Sales order not found",
        )
    })?;
    ship_locked(conn, &order, input, user).await
}

/// [`ship_locked`] with the default carrier, as a sales order's status change ships
/// (`crate::operations::sales::rules::ShipOrder`).
pub fn ship_with_defaults<'c>(
    conn: &'c mut AsyncPgConnection,
    order: &'c SalesOrderRow,
    user: i64,
) -> futures_util::future::BoxFuture<'c, Result<(), Stop>> {
    Box::pin(async move {
        ship_locked(conn, order, ShipInput::default(), user)
            .await
            .map(|_| ())
    })
}

/// The carrier, service and tracking number a shipment goes out with.
struct Dispatch {
    /// Carrier.
    carrier: String,
    /// Service.
    service: String,
    /// Tracking number.
    tracking: String,
}

/// Checks the input's lengths, then the order's status and address, and fills the defaults.
fn dispatch(order: &SalesOrderRow, mut input: ShipInput) -> Result<Dispatch, Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "carrier", &mut input.carrier, SHORT_MAX);
    optional_text(&mut errors, "service", &mut input.service, SHORT_MAX);
    optional_text(
        &mut errors,
        "trackingNumber",
        &mut input.tracking_number,
        SHORT_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if !matches!(
        order.status,
        SalesOrderStatus::Confirmed
            | SalesOrderStatus::InProduction
            | SalesOrderStatus::ReadyToShip
    ) {
        return Err(not_allowed(format!(
            "Cannot ship order with status '{}'",
            order.status
        )));
    }
    if order.shipping_address_line1.is_none() {
        return Err(not_allowed(
            "Order has no shipping address. Add one before shipping.",
        ));
    }
    let carrier = input.carrier.unwrap_or_else(|| "USPS".into());
    let service = input.service.unwrap_or_else(|| "Priority".into());
    let tracking = input
        .tracking_number
        .unwrap_or_else(|| mock_tracking(&carrier, order.id));
    Ok(Dispatch {
        carrier,
        service,
        tracking,
    })
}

/// What issuing an order's lines builds up: the cost entry, the values and the movements.
struct Issue<'a> {
    /// The order being shipped.
    order: &'a SalesOrderRow,
    /// Who ships it.
    user: i64,
    /// The shipment number.
    number: &'a str,
    /// The memo of each cost line.
    memo: Option<String>,
    /// The cost-of-goods and packaging entry.
    cost: EntryDraft,
    /// Value of the finished goods issued.
    goods_value: BigDecimal,
    /// Value of the packaging consumed.
    packaging_value: BigDecimal,
    /// The inventory transactions posted, to link to the cost entry.
    moved: Vec<i64>,
    /// The units each line ships, for traceability.
    shipped_lines: Vec<ShippedLine>,
}

impl<'a> Issue<'a> {
    /// An empty issue of shipment `number` of `order`, booked on `date`.
    fn new(order: &'a SalesOrderRow, user: i64, number: &'a str, date: NaiveDate) -> Issue<'a> {
        let memo = Some(format!("Shipment {number} of {}", order.order_number));
        let cost = EntryDraft::new(
            date,
            format!("Shipment {number} of sales order {}", order.order_number),
        )
        .source(SourceType::SalesOrder, Some(order.id))
        .by(Some(user));
        Issue {
            order,
            user,
            number,
            memo,
            cost,
            goods_value: BigDecimal::zero(),
            packaging_value: BigDecimal::zero(),
            moved: Vec::new(),
            shipped_lines: Vec::new(),
        }
    }

    /// A movement referencing the order and the shipment.
    fn movement(&self, item: i64, location: i64, kind: MovementKind, q: BigDecimal) -> Movement {
        Movement {
            reference_type: Some(ReferenceType::SalesOrder),
            reference_id: Some(self.order.id),
            notes: Some(format!(
                "Shipment {} of {}",
                self.number, self.order.order_number
            )),
            created_by: Some(self.user),
            ..Movement::new(item, location, kind, q)
        }
    }

    /// The cost entry built so far, leaving an empty one of the same date in its place.
    fn take_cost(&mut self) -> EntryDraft {
        let empty = EntryDraft::new(self.cost.date, String::new());
        std::mem::replace(&mut self.cost, empty)
    }

    /// Books a posting's value out of stock to `debit` and keeps its transactions; the value.
    fn book(&mut self, debit: SystemAccount, posted: &Posted) -> BigDecimal {
        let value = -posted.value.clone();
        let cost = self.take_cost();
        self.cost = cost.transfer(debit, posted.account, &value, self.memo.clone());
        self.moved.extend(posted.transactions.iter().map(|t| t.id));
        value
    }

    /// Ships one line's open quantity: its goods, its packaging, then the line itself.
    async fn line(
        &mut self,
        conn: &mut AsyncPgConnection,
        l: &SalesOrderLineRow,
        boms: &[BomRow],
        tree: &Tree,
    ) -> Result<(), Stop> {
        let open = BigDecimal::from(l.quantity) - &l.quantity_shipped.0;
        if open <= BigDecimal::zero() {
            return Ok(());
        }
        self.shipped_lines.push(ShippedLine {
            line_id: l.id,
            product_id: l.product_id,
            units: open
                .with_scale_round(0, RoundingMode::Down)
                .to_i64()
                .unwrap_or(0),
        });
        let location = match l.location_id {
            Some(loc) => loc,
            None => crate::ledgers::inventory::rules::default_location(conn).await?,
        };
        self.goods(conn, l, location, &open).await?;
        // Packaging: the shipping-stage lines of the product's active BOM.
        if let Some(bom) = boms.iter().find(|b| b.product_id == l.product_id) {
            self.packaging(conn, tree, bom.id, location, &open).await?;
        }
        diesel::update(sales_order_lines::table.find(l.id))
            .set((
                sales_order_lines::quantity_shipped.eq(BigDecimal::from(l.quantity)),
                sales_order_lines::quantity_allocated.eq(BigDecimal::zero()),
                sales_order_lines::location_id.eq(Some(location)),
            ))
            .execute(conn)
            .await?;
        Ok(())
    }

    /// Issues a line's finished goods: the reserved part first, then the free part.
    async fn goods(
        &mut self,
        conn: &mut AsyncPgConnection,
        l: &SalesOrderLineRow,
        location: i64,
        open: &BigDecimal,
    ) -> Result<(), Stop> {
        let reserved = l.quantity_allocated.0.clone().min(open.clone());
        let free = open - &reserved;
        // The line ships in two parts; a refusal names the line's own numbers.
        let whole = ledger::WholeRequest {
            on_hand: ledger::balance(conn, l.product_id, location)
                .await?
                .map(|b| b.on_hand_quantity.0)
                .unwrap_or_default(),
            quantity: open.clone(),
        };
        for (q, from_reservation) in [(reserved, true), (free, false)] {
            if q <= BigDecimal::zero() {
                continue;
            }
            let posted = ledger::post(
                conn,
                &Movement {
                    from_reservation,
                    part_of: Some(whole.clone()),
                    ..self.movement(l.product_id, location, MovementKind::Shipment, q)
                },
            )
            .await?;
            let value = self.book(SystemAccount::CostOfGoodsSold, &posted);
            self.goods_value += &value;
        }
        Ok(())
    }

    /// Consumes the shipping-stage packaging of BOM `bom_id` for `open` units.
    async fn packaging(
        &mut self,
        conn: &mut AsyncPgConnection,
        tree: &Tree,
        bom_id: i64,
        location: i64,
        open: &BigDecimal,
    ) -> Result<(), Stop> {
        for line in tree.lines(bom_id) {
            if line.is_cost_only || line.consume_stage != ConsumeStage::Shipping {
                continue;
            }
            let q = (tree.needed(line) * open).with_scale_round(QUANTITY_SCALE, RoundingMode::Up);
            if q <= BigDecimal::zero() {
                continue;
            }
            let posted = ledger::post(
                conn,
                &self.movement(line.component_id, location, MovementKind::Consumption, q),
            )
            .await?;
            let value = self.book(SystemAccount::ShippingSupplies, &posted);
            self.packaging_value += &value;
        }
        Ok(())
    }
}

/// Inserts the shipment row, with the issue's cost of goods and packaging.
async fn insert_shipment(
    conn: &mut AsyncPgConnection,
    issue: &Issue<'_>,
    dispatch: &Dispatch,
    at: DateTime<Utc>,
) -> Result<ShipmentRow, Stop> {
    Ok(diesel::insert_into(shipments::table)
        .values((
            shipments::shipment_number.eq(issue.number),
            shipments::sales_order_id.eq(issue.order.id),
            shipments::carrier.eq(&dispatch.carrier),
            shipments::service.eq(&dispatch.service),
            shipments::tracking_number.eq(&dispatch.tracking),
            shipments::cost_of_goods.eq(cents(&issue.goods_value)),
            shipments::packaging_cost.eq(cents(&issue.packaging_value)),
            shipments::shipped_at.eq(at),
            shipments::created_by.eq(Some(issue.user)),
        ))
        .returning(ShipmentRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Moves the order to `shipped` (through `ready_to_ship` when not there yet), with its events.
async fn mark_shipped(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    dispatch: &Dispatch,
    number: &str,
    at: DateTime<Utc>,
    user: i64,
) -> Result<(), Stop> {
    let Dispatch {
        carrier,
        service,
        tracking,
    } = dispatch;
    // Through ready_to_ship when the order was not there yet (CONTRACT 6.1).
    if order.status != SalesOrderStatus::ReadyToShip {
        event(
            conn,
            order.id,
            SalesEventType::StatusChange,
            "Ready to Ship",
            None,
            Some((order.status, SalesOrderStatus::ReadyToShip)),
            Some(user),
        )
        .await?;
    }
    diesel::update(sales_orders::table.find(order.id))
        .set((
            sales_orders::status.eq(SalesOrderStatus::Shipped),
            sales_orders::shipped_at.eq(Some(at)),
            sales_orders::tracking_number.eq(Some(tracking)),
            sales_orders::carrier.eq(Some(carrier)),
            sales_orders::fulfillment_status.eq(LogisticsStatus::Shipped),
            sales_orders::updated_at.eq(at),
        ))
        .execute(conn)
        .await?;
    event(
        conn,
        order.id,
        SalesEventType::StatusChange,
        "Order Shipped",
        Some(format!(
            "{carrier} {service}, tracking {tracking} ({number})"
        )),
        Some((SalesOrderStatus::ReadyToShip, SalesOrderStatus::Shipped)),
        Some(user),
    )
    .await?;
    Ok(())
}

/// Ships a locked order: confirmed, in production or ready to ship (400 `Cannot ship order
/// with status '{s}'` otherwise), with a shipping address (400 otherwise).
pub async fn ship_locked(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    input: ShipInput,
    user: i64,
) -> Result<ShipResult, Stop> {
    let dispatch = dispatch(order, input)?;
    let warnings = crate::operations::quality::gate::before_shipping(conn, order.id).await?;
    let number = next_number(conn, "shipment_seq", "SHP").await?;
    let date = today();
    let mut issue = Issue::new(order, user, &number, date);
    let lines = sales::lock_lines(conn, order.id).await?;
    let products: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let boms = crate::operations::bom::model::active_of(conn, &products).await?;
    let tree = Tree::load(conn, boms.clone()).await?;
    for l in &lines {
        issue.line(conn, l, &boms, &tree).await?;
    }
    if let Some(entry) = books::post(conn, issue.take_cost()).await? {
        ledger::link_journal_entry(conn, &issue.moved, entry.id).await?;
    }
    let at = now();
    let shipment = insert_shipment(conn, &issue, &dispatch, at).await?;
    // The invoice for what the order has not been billed yet: the shipment's one receivable
    // posting (Dr 1100 / Cr 4000, 2100, 4200).
    crate::operations::sales::invoices::rules::bill_shipment(conn, order, shipment.id, user)
        .await?;
    // The finished units that left with it, for traceability (unit -> order -> customer).
    assign_shipped_units(
        conn,
        order.id,
        shipment.id,
        &dispatch.tracking,
        Timestamp(at),
        &issue.shipped_lines,
    )
    .await?;
    mark_shipped(conn, order, &dispatch, &number, at, user).await?;
    let Dispatch {
        carrier,
        service,
        tracking,
    } = dispatch;
    Ok(ShipResult {
        message: "Order shipped successfully".into(),
        tracking_number: tracking,
        carrier,
        service,
        shipped_at: Timestamp(at),
        label_url: None,
        sales_order_id: order.id,
        shipment,
        warnings,
    })
}
