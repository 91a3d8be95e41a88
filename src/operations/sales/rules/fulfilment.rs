//! A sales order moving through its life: status changes (shipping through the
//! application's hook), allocation, production orders made for it, confirm, cancel,
//! delete, QC of its production and its payment status.

use super::*;

/// Ships a locked order with the default carrier, in the caller's transaction. Shipping sits
/// above sales (it issues stock, books the invoice and assigns serials), so sales does not
/// call it by name: the application puts this in the schema's data
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
        "creditOverrideReason",
        &mut input.credit_override_reason,
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
                check_credit(conn, &order, input.credit_override_reason.as_deref(), user).await?;
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

pub(super) fn so_movement(
    order: &SalesOrderRow,
    item: i64,
    location: i64,
    q: BigDecimal,
) -> Movement {
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

/// [`active_production_orders`] of many sales orders at once: (sales order, code) pairs.
pub async fn active_production_orders_of(
    conn: &mut AsyncPgConnection,
    sales_order_ids: &[i64],
) -> crate::platform::error::AppResult<Vec<(i64, String)>> {
    let rows: Vec<(Option<i64>, String)> = production_orders::table
        .filter(production_orders::sales_order_id.eq_any(sales_order_ids))
        .filter(production_orders::status.ne_all(INACTIVE_PRODUCTION))
        .order(production_orders::id)
        .select((production_orders::sales_order_id, production_orders::code))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(so, code)| so.map(|so| (so, code)))
        .collect())
}

/// Of these items, the ones an order's shortfall is made for rather than bought: finished
/// goods always (a farm prints what it sells even when it sometimes buys it in), anything
/// else not bought, never a service.
pub async fn made_in_house(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> crate::platform::error::AppResult<std::collections::HashSet<i64>> {
    use crate::master_data::catalog::model::{ItemType, ProcurementType};
    let kinds: Vec<(i64, ItemType, ProcurementType)> = items::table
        .filter(items::id.eq_any(ids))
        .select((items::id, items::item_type, items::procurement_type))
        .load(conn)
        .await?;
    Ok(kinds
        .into_iter()
        .filter(|(_, kind, how)| {
            *kind != ItemType::Service
                && (*how != ProcurementType::Buy || *kind == ItemType::FinishedGood)
        })
        .map(|(id, _, _)| id)
        .collect())
}

/// The production orders of these sales orders that still run, whole (for the order page's
/// blocking-issues panel), oldest first.
pub async fn running_production_orders_of(
    conn: &mut AsyncPgConnection,
    sales_order_ids: &[i64],
) -> crate::platform::error::AppResult<Vec<ProductionOrderRow>> {
    Ok(production_orders::table
        .filter(production_orders::sales_order_id.eq_any(sales_order_ids))
        .filter(production_orders::status.ne_all(INACTIVE_PRODUCTION))
        .order(production_orders::id)
        .select(ProductionOrderRow::as_select())
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
    let made = made_in_house(conn, &ids).await?;
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
        if !made.contains(&l.product_id) {
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

pub(super) fn still_active(codes: &[String], verb: &str) -> Stop {
    not_allowed(format!(
        "Cannot {verb}: {} work order(s) still active ({}). Cancel work orders first.",
        codes.len(),
        codes.join(", ")
    ))
}

pub(super) async fn cancel_locked(
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
