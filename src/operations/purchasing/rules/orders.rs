//! Purchase orders: create, change, delete, their lines, status moves and events, and what is
//! still on order.

use super::*;

/// Creates a draft purchase order with its lines in the caller's transaction.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: PurchaseOrderCreateInput,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let mut errors = Vec::new();
    texts(
        &mut errors,
        &mut input.notes,
        &mut input.tracking_number,
        &mut input.carrier,
        &mut input.payment_method,
        &mut input.payment_reference,
        &mut input.document_url,
    );
    let tax = input
        .tax_amount
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    let shipping = input
        .shipping_cost
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    money(&mut errors, "taxAmount", &tax);
    money(&mut errors, "shippingCost", &shipping);
    for (i, line) in input.lines.iter_mut().enumerate() {
        check_line_values(&mut errors, &format!("lines.{i}."), line);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    check_vendor(conn, input.vendor_id).await?;
    let mut units = Vec::with_capacity(input.lines.len());
    for (i, line) in input.lines.iter().enumerate() {
        units.push(
            check_line_item(
                conn,
                &mut errors,
                &format!("lines.{i}."),
                line.product_id,
                line.purchase_unit.as_deref(),
            )
            .await?,
        );
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let number = next_number(conn, today()).await?;
    let id: i64 = diesel::insert_into(purchase_orders::table)
        .values((
            purchase_orders::po_number.eq(&number),
            purchase_orders::vendor_id.eq(input.vendor_id),
            purchase_orders::order_date.eq(input.order_date),
            purchase_orders::expected_date.eq(input.expected_date),
            purchase_orders::notes.eq(&input.notes),
            purchase_orders::tracking_number.eq(&input.tracking_number),
            purchase_orders::carrier.eq(&input.carrier),
            purchase_orders::tax_amount.eq(&tax),
            purchase_orders::shipping_cost.eq(&shipping),
            purchase_orders::payment_method.eq(&input.payment_method),
            purchase_orders::payment_reference.eq(&input.payment_reference),
            purchase_orders::document_url.eq(&input.document_url),
            purchase_orders::created_by.eq(Some(user)),
        ))
        .returning(purchase_orders::id)
        .get_result(conn)
        .await?;
    let rows: Vec<NewLine> = input
        .lines
        .into_iter()
        .zip(units)
        .enumerate()
        .map(|(i, (line, unit))| NewLine {
            purchase_order_id: id,
            line_number: i as i32 + 1,
            product_id: line.product_id,
            quantity_ordered: line.quantity_ordered.0.with_scale(QUANTITY_SCALE),
            unit_cost: line.unit_cost.0.with_scale(COST_SCALE),
            purchase_unit: unit.unwrap_or_default(),
            notes: line.notes,
        })
        .collect();
    if !rows.is_empty() {
        diesel::insert_into(purchase_order_lines::table)
            .values(&rows)
            .execute(conn)
            .await?;
    }
    event(
        conn,
        id,
        PurchaseEventType::Created,
        "Purchase Order Created",
        Some(format!("{number} created as draft")),
        None,
        Some(user),
    )
    .await?;
    recompute_totals(conn, id).await
}

/// Changes an order's header. Closed and cancelled orders cannot change; the vendor only
/// while the order is a draft.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseOrderUpdateInput,
) -> Result<PurchaseOrderRow, Stop> {
    // Blank text clears a field (omitted keeps it): note which were sent blank before the
    // text rules turn blanks into "nothing given".
    let blank = |v: &Option<String>| v.as_deref().is_some_and(|t| t.trim().is_empty());
    let cleared = [
        blank(&input.notes),
        blank(&input.tracking_number),
        blank(&input.carrier),
        blank(&input.payment_method),
        blank(&input.payment_reference),
        blank(&input.document_url),
    ];
    let mut errors = Vec::new();
    texts(
        &mut errors,
        &mut input.notes,
        &mut input.tracking_number,
        &mut input.carrier,
        &mut input.payment_method,
        &mut input.payment_reference,
        &mut input.document_url,
    );
    if let Some(t) = &input.tax_amount {
        money(&mut errors, "taxAmount", &t.0);
    }
    if let Some(s) = &input.shipping_cost {
        money(&mut errors, "shippingCost", &s.0);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let po = locked(conn, id).await?;
    if matches!(
        po.status,
        PurchaseOrderStatus::Closed | PurchaseOrderStatus::Cancelled
    ) {
        return Err(not_allowed(
            "id",
            format!("Cannot edit PO in '{}' status", po.status),
        ));
    }
    if let Some(v) = input.vendor_id
        && v != po.vendor_id
    {
        if po.status != PurchaseOrderStatus::Draft {
            return Err(not_allowed(
                "vendorId",
                format!("Cannot change the vendor of a PO in '{}' status", po.status),
            ));
        }
        check_vendor(conn, v).await?;
    }
    #[derive(AsChangeset)]
    #[diesel(table_name = purchase_orders)]
    struct Changes {
        vendor_id: Option<i64>,
        order_date: Option<NaiveDate>,
        expected_date: Option<NaiveDate>,
        notes: Option<Option<String>>,
        tracking_number: Option<Option<String>>,
        carrier: Option<Option<String>>,
        tax_amount: Option<BigDecimal>,
        shipping_cost: Option<BigDecimal>,
        payment_method: Option<Option<String>>,
        payment_reference: Option<Option<String>>,
        document_url: Option<Option<String>>,
    }
    // `Some(None)` writes NULL; `None` leaves the column alone.
    let text = |value: Option<String>, clear: bool| {
        if clear { Some(None) } else { value.map(Some) }
    };
    let changes = Changes {
        vendor_id: input.vendor_id,
        order_date: input.order_date,
        expected_date: input.expected_date,
        notes: text(input.notes, cleared[0]),
        tracking_number: text(input.tracking_number, cleared[1]),
        carrier: text(input.carrier, cleared[2]),
        tax_amount: input.tax_amount.map(|d| d.0),
        shipping_cost: input.shipping_cost.map(|d| d.0),
        payment_method: text(input.payment_method, cleared[3]),
        payment_reference: text(input.payment_reference, cleared[4]),
        document_url: text(input.document_url, cleared[5]),
    };
    match diesel::update(purchase_orders::table.find(id))
        .set(&changes)
        .execute(conn)
        .await
    {
        Ok(_) => {}
        Err(e) if crate::platform::db::is_empty_update(&e) => {}
        Err(e) => return Err(e.into()),
    }
    recompute_totals(conn, id).await
}

/// What a delete did.
#[derive(Debug, Clone, SimpleObject)]
pub struct PurchaseOrderRemoval {
    /// `Purchase order PO-2026-001 deleted`.
    pub message: String,
}

/// Deletes a draft order (CONTRACT 5.14); any other is refused with the contract's message.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<PurchaseOrderRemoval, Stop> {
    let po = locked(conn, id).await?;
    if po.status != PurchaseOrderStatus::Draft {
        return Err(not_allowed(
            "id",
            format!(
                "Cannot delete PO in '{}' status. Cancel it instead.",
                po.status
            ),
        ));
    }
    diesel::delete(purchase_orders::table.find(id))
        .execute(conn)
        .await?;
    Ok(PurchaseOrderRemoval {
        message: format!("Purchase order {} deleted", po.po_number),
    })
}

pub(super) fn lines_locked_message(status: PurchaseOrderStatus) -> String {
    format!("Cannot modify lines on PO in '{status}' status")
}

/// Adds a line to a draft order.
pub async fn add_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseOrderLineInput,
) -> Result<PurchaseOrderLineRow, Stop> {
    let mut errors = Vec::new();
    check_line_values(&mut errors, "", &mut input);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let po = locked(conn, id).await?;
    if po.status != PurchaseOrderStatus::Draft {
        return Err(not_allowed("id", lines_locked_message(po.status)));
    }
    let unit = check_line_item(
        conn,
        &mut errors,
        "",
        input.product_id,
        input.purchase_unit.as_deref(),
    )
    .await?;
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let next: Option<i32> = purchase_order_lines::table
        .filter(purchase_order_lines::purchase_order_id.eq(id))
        .select(diesel::dsl::max(purchase_order_lines::line_number))
        .first(conn)
        .await?;
    let row = diesel::insert_into(purchase_order_lines::table)
        .values(NewLine {
            purchase_order_id: id,
            line_number: next.unwrap_or(0) + 1,
            product_id: input.product_id,
            quantity_ordered: input.quantity_ordered.0.with_scale(QUANTITY_SCALE),
            unit_cost: input.unit_cost.0.with_scale(COST_SCALE),
            purchase_unit: unit.unwrap_or_default(),
            notes: input.notes,
        })
        .returning(PurchaseOrderLineRow::as_returning())
        .get_result(conn)
        .await?;
    recompute_totals(conn, id).await?;
    Ok(row)
}

pub(super) async fn locked_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
) -> Result<(PurchaseOrderRow, PurchaseOrderLineRow), Stop> {
    let po = locked(conn, id).await?;
    let line = model::lock_lines(conn, id)
        .await?
        .into_iter()
        .find(|l| l.id == line_id)
        .ok_or_else(|| Stop::refuse("lineId", UserErrorCode::NotFound, "Line not found"))?;
    if po.status != PurchaseOrderStatus::Draft {
        return Err(not_allowed("lineId", lines_locked_message(po.status)));
    }
    Ok((po, line))
}

/// Changes a line of a draft order.
pub async fn update_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
    mut input: PurchaseOrderLineUpdateInput,
) -> Result<PurchaseOrderLineRow, Stop> {
    let mut errors = Vec::new();
    if let Some(q) = &input.quantity_ordered {
        quantity(&mut errors, "quantityOrdered", &q.0);
    }
    if let Some(c) = &input.unit_cost {
        unit_cost(&mut errors, "unitCost", &c.0);
    }
    let clear_notes = input.notes.as_deref().is_some_and(|n| n.trim().is_empty());
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let (_, line) = locked_line(conn, id, line_id).await?;
    let unit = match &input.purchase_unit {
        Some(u) => {
            let unit = check_line_item(conn, &mut errors, "", line.product_id, Some(u)).await?;
            if !errors.is_empty() {
                return Err(Stop::Refused(errors));
            }
            unit
        }
        None => None,
    };
    let row = diesel::update(purchase_order_lines::table.find(line_id))
        .set((
            purchase_order_lines::quantity_ordered.eq(input
                .quantity_ordered
                .map_or(line.quantity_ordered.0, |q| q.0.with_scale(QUANTITY_SCALE))),
            purchase_order_lines::unit_cost.eq(input
                .unit_cost
                .map_or(line.unit_cost.0, |c| c.0.with_scale(COST_SCALE))),
            purchase_order_lines::purchase_unit.eq(unit.unwrap_or(line.purchase_unit)),
            purchase_order_lines::notes.eq(if clear_notes {
                None
            } else {
                input.notes.or(line.notes)
            }),
        ))
        .returning(PurchaseOrderLineRow::as_returning())
        .get_result(conn)
        .await?;
    recompute_totals(conn, id).await?;
    Ok(row)
}

/// Removes a line of a draft order.
pub async fn delete_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
) -> Result<PurchaseOrderLineRow, Stop> {
    let (_, line) = locked_line(conn, id, line_id).await?;
    diesel::delete(purchase_order_lines::table.find(line_id))
        .execute(conn)
        .await?;
    recompute_totals(conn, id).await?;
    Ok(line)
}

/// The event title of a move into `to` (CONTRACT 6.3).
pub fn status_title(to: PurchaseOrderStatus) -> &'static str {
    match to {
        PurchaseOrderStatus::Ordered => "Order Placed",
        PurchaseOrderStatus::Shipped => "Marked as Shipped",
        PurchaseOrderStatus::Received => "Marked as Received",
        PurchaseOrderStatus::Closed => "Order Closed",
        PurchaseOrderStatus::Cancelled => "Order Cancelled",
        PurchaseOrderStatus::Draft => "Returned to Draft",
    }
}

/// Whether `from -> to` is in the transition table; the contract's message otherwise.
pub fn check_transition(
    from: PurchaseOrderStatus,
    to: &str,
) -> Result<PurchaseOrderStatus, String> {
    let refused = || format!("Cannot transition from '{from}' to '{to}'");
    let to = PurchaseOrderStatus::from_str(to.trim()).map_err(|_| refused())?;
    if from.allowed().contains(&to) {
        Ok(to)
    } else {
        Err(refused())
    }
}

/// Moves an order along the status flow (CONTRACT 6.3) with its side effects and event.
pub async fn change_status(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseOrderStatusInput,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "trackingNumber",
        &mut input.tracking_number,
        SHORT_MAX,
    );
    optional_text(&mut errors, "carrier", &mut input.carrier, 100);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let po = locked(conn, id).await?;
    let to = check_transition(po.status, &input.status).map_err(|m| not_allowed("status", m))?;
    if to == PurchaseOrderStatus::Ordered && model::lines_of(conn, &[id]).await?.is_empty() {
        return Err(not_allowed("status", "Cannot order a PO with no lines"));
    }
    set_status(
        conn,
        &po,
        to,
        input.tracking_number,
        input.carrier,
        today(),
        user,
    )
    .await
}

pub(super) async fn set_status(
    conn: &mut AsyncPgConnection,
    po: &PurchaseOrderRow,
    to: PurchaseOrderStatus,
    tracking: Option<String>,
    carrier: Option<String>,
    date: NaiveDate,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let mut order_date = po.order_date;
    let mut shipped_date = po.shipped_date;
    let mut received_date = po.received_date;
    match to {
        PurchaseOrderStatus::Ordered => order_date = order_date.or(Some(date)),
        PurchaseOrderStatus::Shipped => shipped_date = Some(date),
        PurchaseOrderStatus::Received => received_date = Some(date),
        _ => {}
    }
    let row = diesel::update(purchase_orders::table.find(po.id))
        .set((
            purchase_orders::status.eq(to),
            purchase_orders::order_date.eq(order_date),
            purchase_orders::shipped_date.eq(shipped_date),
            purchase_orders::received_date.eq(received_date),
            purchase_orders::tracking_number.eq(tracking.or(po.tracking_number.clone())),
            purchase_orders::carrier.eq(carrier.or(po.carrier.clone())),
        ))
        .returning(PurchaseOrderRow::as_returning())
        .get_result(conn)
        .await?;
    event(
        conn,
        po.id,
        PurchaseEventType::StatusChange,
        status_title(to),
        Some(format!("Status changed from {} to {}", po.status, to)),
        Some((po.status, to)),
        Some(user),
    )
    .await?;
    Ok(row)
}

/// Adds a note event to an order.
pub async fn add_event(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut title: String,
    mut description: Option<String>,
    user: i64,
) -> Result<(), Stop> {
    let mut errors = Vec::new();
    let mut t = Some(std::mem::take(&mut title));
    crate::platform::db::text::required(&mut errors, "title", &mut t, false, 255);
    optional_text(&mut errors, "description", &mut description, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    locked(conn, id).await?;
    event(
        conn,
        id,
        PurchaseEventType::Note,
        &t.unwrap_or_default(),
        description,
        None,
        Some(user),
    )
    .await?;
    Ok(())
}

/// One open purchase order line's remainder: what is still to arrive, in the item's
/// stocking unit, and when.
#[derive(Debug, Clone)]
pub struct OpenLine {
    /// The purchase order.
    pub purchase_order_id: i64,
    /// Its number.
    pub po_number: String,
    /// Its status (draft, ordered or shipped).
    pub status: PurchaseOrderStatus,
    /// The item.
    pub product_id: i64,
    /// Ordered less received, in the item's stocking unit.
    pub remaining: BigDecimal,
    /// The order's expected date.
    pub expected_date: Option<NaiveDate>,
}

/// The open lines (draft, ordered, shipped; not fully received) of these items, or of every
/// item, with their remainders converted to each item's stocking unit.
pub async fn open_lines(
    conn: &mut AsyncPgConnection,
    item_ids: Option<&[i64]>,
) -> QueryResult<Vec<OpenLine>> {
    let mut query = purchase_order_lines::table
        .inner_join(purchase_orders::table)
        .inner_join(items::table)
        .filter(purchase_orders::status.eq_any(model::OPEN_STATUSES))
        .filter(purchase_order_lines::quantity_received.lt(purchase_order_lines::quantity_ordered))
        .into_boxed();
    if let Some(ids) = item_ids {
        query = query.filter(purchase_order_lines::product_id.eq_any(ids));
    }
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        (i64, String, PurchaseOrderStatus, Option<NaiveDate>),
        (BigDecimal, BigDecimal, String),
        PurchasedItem,
    )> = query
        .select((
            (
                purchase_orders::id,
                purchase_orders::po_number,
                purchase_orders::status,
                purchase_orders::expected_date,
            ),
            (
                purchase_order_lines::quantity_ordered,
                purchase_order_lines::quantity_received,
                purchase_order_lines::purchase_unit,
            ),
            (
                items::id,
                items::sku,
                items::unit,
                items::purchase_uom,
                items::purchase_factor,
                items::item_type,
                items::track_lots,
            ),
        ))
        .order((
            purchase_orders::expected_date.asc().nulls_last(),
            purchase_orders::id,
        ))
        .load(conn)
        .await?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let units: HashMap<String, UomRow> = units_of_measure::table
        .select(UomRow::as_select())
        .load(conn)
        .await?
        .into_iter()
        .map(|u| (u.code.clone(), u))
        .collect();
    Ok(rows
        .into_iter()
        .map(
            |((po, po_number, status, expected_date), (ordered, received, unit), item)| {
                let factor = match (units.get(&unit), units.get(&item.unit)) {
                    (Some(p), Some(s)) => {
                        stock_factor(&item, p, s).unwrap_or_else(|| BigDecimal::from(1))
                    }
                    _ => BigDecimal::from(1),
                };
                OpenLine {
                    purchase_order_id: po,
                    po_number,
                    status,
                    product_id: item.id,
                    remaining: (ordered - received) * factor,
                    expected_date,
                }
            },
        )
        .collect())
}

/// Quantities still to arrive on open orders (draft, ordered, shipped), per item, in each
/// item's stocking unit.
pub async fn on_order(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
) -> QueryResult<HashMap<i64, BigDecimal>> {
    let mut out = HashMap::new();
    for line in open_lines(conn, Some(item_ids)).await? {
        *out.entry(line.product_id).or_insert_with(BigDecimal::zero) += line.remaining;
    }
    Ok(out)
}
