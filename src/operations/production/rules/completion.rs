//! Finishing an order: spool consumption, completion, serial numbers, QC, scrap and split.

use super::*;

/// A spool used by a completion.
#[derive(Debug, Clone, InputObject)]
pub struct SpoolUsedInput {
    /// The material item (informational; the spool's own item is used).
    pub product_id: Option<i64>,
    /// The spool.
    pub spool_id: i64,
    /// Grams taken from it.
    pub weight_consumed_g: Option<Decimal>,
}

/// Consumes filament for an order from a named spool: the reservation of that material is
/// given back by the grams used, then the spool rule posts the consumption with its journal
/// entry (1210 WIP / 1200 Raw), and the order records the spool and the value in WIP.
pub async fn consume_spool(
    conn: &mut AsyncPgConnection,
    id: i64,
    spool_id: i64,
    grams: BigDecimal,
    user: i64,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    if order.status != OrderStatus::InProgress {
        return Err(not_allowed(format!(
            "Cannot consume material for a {} production order",
            order.status
        )));
    }
    let spool = crate::ledgers::spools::model::lock(conn, spool_id)
        .await?
        .ok_or_else(|| Stop::refuse("spoolId", UserErrorCode::NotFound, "Spool not found"))?;
    let material = model::materials_of(conn, &[order.id])
        .await?
        .into_iter()
        .find(|m| m.component_id == spool.product_id);
    if let Some(m) = &material
        && m.quantity_allocated.0 > BigDecimal::zero()
    {
        let give_back = grams.clone().min(m.quantity_allocated.0.clone());
        let (released, _) = ledger::release(
            conn,
            &movement(
                &order,
                m.component_id,
                m.location_id,
                MovementKind::Consumption,
                give_back,
                Some(user),
            ),
        )
        .await?;
        diesel::update(production_order_materials::table.find(m.id))
            .set(
                production_order_materials::quantity_allocated
                    .eq(&m.quantity_allocated.0 - released),
            )
            .execute(conn)
            .await?;
    }
    let posting = crate::ledgers::spools::rules::consume(
        conn,
        spool_id,
        crate::ledgers::spools::rules::SpoolConsumeInput {
            production_order_id: order.id,
            production_order_code: Some(order.code.clone()),
            weight_consumed_grams: Decimal(grams.clone()),
        },
        user,
        None,
    )
    .await?;
    let value = match posting.transaction_id {
        Some(t) => inventory_transactions::table
            .find(t)
            .select(inventory_transactions::total_cost)
            .first::<Option<BigDecimal>>(conn)
            .await?
            .map(|c| books::cents(&c.abs()))
            .unwrap_or_default(),
        None => BigDecimal::zero(),
    };
    diesel::insert_into(production_order_spools::table)
        .values((
            production_order_spools::production_order_id.eq(order.id),
            production_order_spools::spool_id.eq(spool_id),
            production_order_spools::weight_consumed_g.eq(grams.with_scale(QUANTITY_SCALE)),
            production_order_spools::created_by.eq(Some(user)),
        ))
        .execute(conn)
        .await?;
    if let Some(m) = material {
        diesel::update(production_order_materials::table.find(m.id))
            .set(
                production_order_materials::quantity_consumed
                    .eq(production_order_materials::quantity_consumed + &grams),
            )
            .execute(conn)
            .await?;
    }
    add_wip(conn, order.id, &value).await?;
    Ok(model::find(conn, id).await?)
}

/// Completing an order (`POST /production-orders/{id}/complete`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct ProductionOrderCompleteInput {
    /// Good units (default: ordered minus scrapped).
    pub quantity_completed: Option<Decimal>,
    /// Units scrapped (default 0).
    pub quantity_scrapped: Option<Decimal>,
    /// Close the order even though fewer units than ordered were made.
    #[graphql(default = false)]
    pub force_close_short: bool,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// Filament taken from named spools.
    #[graphql(default)]
    pub spools_used: Vec<SpoolUsedInput>,
    /// Scrap reason code for the scrapped units.
    pub scrap_reason: Option<String>,
}

pub(super) async fn check_scrap_reason(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> Result<String, Stop> {
    let found: Option<String> = scrap_reasons::table
        .filter(crate::platform::db::text::code_matches(
            scrap_reasons::code,
            code,
        ))
        .filter(scrap_reasons::active.eq(true))
        .select(scrap_reasons::code)
        .first(conn)
        .await
        .optional()?;
    found.ok_or_else(|| {
        Stop::refuse(
            "scrapReason",
            UserErrorCode::Invalid,
            format!("Unknown scrap reason '{code}'"),
        )
    })
}

/// Completes an order: filament from the named spools, the rest of what was not consumed
/// backflushed from stock, reservations released, the finished goods received at actual cost
/// (the order's WIP value shared over good and scrapped units: 1220 FG / 1210 WIP), the
/// scrapped share to 5020 / 1210, serial numbers per good unit when the product tracks
/// serials, QC pending. A short completion needs `force_close_short`.
pub async fn complete(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: ProductionOrderCompleteInput,
    user: i64,
    gate: CompletionGate,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::Complete)?;
    // Quality's gate: refused in `block` mode; in `warn` mode the warning stays on the
    // order's notes.
    if let Some(warning) = (gate.0)(conn, id).await? {
        input.notes = Some(match input.notes.take() {
            Some(n) if !n.trim().is_empty() => format!("{n}\n{warning}"),
            _ => warning,
        });
    }
    let (good, scrapped) = check_completion(&order, &mut input)?;
    let reason = match (&input.scrap_reason, scrapped > BigDecimal::zero()) {
        (Some(code), _) => Some(check_scrap_reason(conn, code).await?),
        _ => None,
    };
    if good.is_zero() && scrapped.is_zero() {
        return Err(not_allowed("Nothing was completed or scrapped"));
    }
    consume_for_completion(conn, &order, &input.spools_used, user).await?;
    book_output(conn, &order, &good, &scrapped, reason.as_deref(), user).await?;
    close_completed(conn, &order, good, scrapped, reason, input.notes).await
}

/// Checks a completion's input against the order (trimming the notes): the good and the
/// scrapped units.
fn check_completion(
    order: &OrderRow,
    input: &mut ProductionOrderCompleteInput,
) -> Result<(BigDecimal, BigDecimal), Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    let scrapped = input
        .quantity_scrapped
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    if scrapped < BigDecimal::zero() {
        errors.push(invalid(
            "quantityScrapped",
            "Input should be greater than or equal to 0",
        ));
    }
    // Units scrapped at an operation before are no longer to be completed.
    let ordered = (&order.quantity_ordered.0 - &order.quantity_scrapped.0).max(BigDecimal::zero());
    let good = input
        .quantity_completed
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_else(|| (&ordered - &scrapped).max(BigDecimal::zero()));
    if good < BigDecimal::zero() {
        errors.push(invalid(
            "quantityCompleted",
            "Input should be greater than or equal to 0",
        ));
    }
    crate::ledgers::inventory::rules::check_quantity(&mut errors, "quantityCompleted", &good);
    crate::ledgers::inventory::rules::check_quantity(&mut errors, "quantityScrapped", &scrapped);
    for (i, s) in input.spools_used.iter().enumerate() {
        if let Some(w) = &s.weight_consumed_g
            && w.0 <= BigDecimal::zero()
        {
            errors.push(invalid(
                &format!("spoolsUsed.{i}.weightConsumedG"),
                "Input should be greater than 0",
            ));
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if &good + &scrapped > ordered {
        return Err(Stop::refuse(
            "quantityCompleted",
            UserErrorCode::NotAllowed,
            format!(
                "Completed ({}) plus scrapped ({}) exceeds the ordered quantity ({})",
                good.normalized(),
                scrapped.normalized(),
                ordered.normalized()
            ),
        ));
    }
    if &good + &scrapped < ordered && !input.force_close_short && order.status != OrderStatus::Short
    {
        return Err(not_allowed(format!(
            "Completed ({}) plus scrapped ({}) is less than the ordered quantity ({}); set force_close_short to close the order short",
            good.normalized(),
            scrapped.normalized(),
            ordered.normalized()
        )));
    }
    Ok((good, scrapped))
}

/// Consumes what a completion uses: filament from the named spools, then a backflush of
/// whatever no spool or start consumed; then releases the reservations left.
async fn consume_for_completion(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    spools_used: &[SpoolUsedInput],
    user: i64,
) -> Result<(), Stop> {
    // Filament from named spools.
    for s in spools_used {
        let Some(grams) = s.weight_consumed_g.as_ref().map(|w| w.0.clone()) else {
            continue;
        };
        consume_spool_locked(conn, order, s.spool_id, grams, user).await?;
    }
    // Backflush what no spool or start consumed.
    for m in model::materials_of(conn, &[order.id]).await? {
        if m.quantity_consumed.0 > BigDecimal::zero() {
            continue;
        }
        let q = m.quantity_required.0.clone();
        consume_from_stock(conn, order, &m, q, Some(user)).await?;
    }
    release_reservations(conn, order, Some(user)).await?;
    Ok(())
}

/// Books the order's WIP value out: the good units received into stock at their share (with
/// serial numbers when the product tracks them), and what is left to scrap (or rounding).
async fn book_output(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    good: &BigDecimal,
    scrapped: &BigDecimal,
    reason: Option<&str>,
    user: i64,
) -> Result<(), Stop> {
    let wip = wip_of(conn, order.id).await?;
    let total_units = good + scrapped;
    let scrap_share = if good.is_zero() {
        wip.clone()
    } else {
        books::cents(&(&wip * scrapped / &total_units))
    };
    let fg_value = &wip - &scrap_share;
    let product = ledger::lock_item(conn, order.product_id).await?;
    let serials = product_tracks_serials(conn, order.product_id).await?;
    // What is left in WIP after the finished goods are booked at the value the stock ledger
    // gave them: the scrapped units' share (and the unit cost's rounding dust).
    let mut remainder = wip.clone();
    if *good > BigDecimal::zero() {
        let received = receive_finished_goods(conn, order, &product, good, &fg_value, user).await?;
        remainder -= &received;
        if serials {
            create_serials(conn, order, good).await?;
        }
    }
    if !remainder.is_zero() {
        book_remainder(conn, order, &product, scrapped, reason, &remainder, user).await?;
    }
    if *scrapped > BigDecimal::zero() {
        let cost = if remainder > BigDecimal::zero() {
            remainder.clone()
        } else {
            BigDecimal::zero()
        };
        record_scrap(conn, order.id, None, reason, scrapped, &cost, Some(user)).await?;
    }
    Ok(())
}

/// Receives the good units into stock at their share of WIP and books 1220 FG / 1210 WIP at
/// the value the stock ledger gave them (answered).
async fn receive_finished_goods(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    product: &ledger::StockItem,
    good: &BigDecimal,
    fg_value: &BigDecimal,
    user: i64,
) -> Result<BigDecimal, Stop> {
    let unit_cost = (fg_value / good).with_scale_round(4, RoundingMode::HalfUp);
    let posted = ledger::post(
        conn,
        &movement(
            order,
            order.product_id,
            order.location_id,
            MovementKind::Production { unit_cost },
            good.clone(),
            Some(user),
        ),
    )
    .await?;
    let draft = EntryDraft::new(
        today(),
        format!(
            "Finished goods: {} {} {} from production order {}",
            good.normalized(),
            product.unit,
            product.sku,
            order.code
        ),
    )
    .source(SourceType::ProductionOrder, Some(order.id))
    .by(Some(user))
    .transfer(
        posted.account,
        SystemAccount::WorkInProgress,
        &posted.value,
        Some(product.sku.clone()),
    );
    if let Some(entry) = books::post(conn, draft).await? {
        let ids: Vec<i64> = posted.transactions.iter().map(|t| t.id).collect();
        ledger::link_journal_entry(conn, &ids, entry.id).await?;
    }
    Ok(posted.value)
}

/// Books what is left in WIP: to 5020 Scrap when units were scrapped, else to inventory
/// adjustment as unit-cost rounding.
async fn book_remainder(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    product: &ledger::StockItem,
    scrapped: &BigDecimal,
    reason: Option<&str>,
    remainder: &BigDecimal,
    user: i64,
) -> Result<(), Stop> {
    let (account, what) = if *scrapped > BigDecimal::zero() {
        (SystemAccount::ScrapExpense, "Scrap")
    } else {
        (SystemAccount::InventoryAdjustment, "Unit cost rounding")
    };
    let draft = EntryDraft::new(
        today(),
        format!(
            "{what}: {} {} {} of production order {}{}",
            scrapped.normalized(),
            product.unit,
            product.sku,
            order.code,
            reason.map(|r| format!(" ({r})")).unwrap_or_default()
        ),
    )
    .source(SourceType::ProductionOrder, Some(order.id))
    .by(Some(user))
    .transfer(
        account,
        SystemAccount::WorkInProgress,
        remainder,
        Some(product.sku.clone()),
    );
    books::post(conn, draft).await?;
    Ok(())
}

/// Completes the order's open operations and marks the order complete (QC pending) with its
/// quantities, scrap reason and notes.
async fn close_completed(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    good: BigDecimal,
    scrapped: BigDecimal,
    reason: Option<String>,
    notes: Option<String>,
) -> Result<OrderRow, Stop> {
    let id = order.id;
    diesel::update(
        production_order_operations::table
            .filter(production_order_operations::production_order_id.eq(id))
            .filter(production_order_operations::status.eq_any([
                OperationStatus::Pending,
                OperationStatus::Queued,
                OperationStatus::Running,
            ])),
    )
    .set((
        production_order_operations::status.eq(OperationStatus::Complete),
        production_order_operations::actual_end.eq(Some(now())),
    ))
    .execute(conn)
    .await?;
    let row = diesel::update(production_orders::table.find(id))
        .set((
            production_orders::status.eq(OrderStatus::Complete),
            production_orders::quantity_completed.eq(good.with_scale(QUANTITY_SCALE)),
            production_orders::quantity_scrapped
                .eq((&order.quantity_scrapped.0 + scrapped).with_scale(QUANTITY_SCALE)),
            production_orders::qc_status.eq(QcStatus::Pending),
            production_orders::scrap_reason.eq(reason.or(order.scrap_reason.clone())),
            production_orders::actual_end.eq(Some(now())),
            production_orders::completed_at.eq(Some(now())),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    append_notes(conn, row, notes).await
}

pub(super) async fn consume_spool_locked(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    spool_id: i64,
    grams: BigDecimal,
    user: i64,
) -> Result<(), Stop> {
    consume_spool(conn, order.id, spool_id, grams, user).await?;
    Ok(())
}

pub(super) async fn product_tracks_serials(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> Result<bool, Stop> {
    Ok(items::table
        .find(id)
        .select(items::track_serials)
        .first(conn)
        .await?)
}

pub(super) async fn create_serials(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    good: &BigDecimal,
) -> Result<(), Stop> {
    let units: i64 = good
        .with_scale_round(0, RoundingMode::Down)
        .to_string()
        .parse()
        .unwrap_or(0);
    new_serials(
        conn,
        order.product_id,
        Some(order.id),
        units.min(100_000),
        crate::operations::production::model::SerialStatus::Manufactured,
    )
    .await?;
    Ok(())
}

/// Numbers and inserts `units` finished units of a product (`BLB-YYYYMMDD-NNNN`, today's
/// date), made by a production order or not; answers their ids in number order.
pub async fn new_serials(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    production_order_id: Option<i64>,
    units: i64,
    status: crate::operations::production::model::SerialStatus,
) -> diesel::QueryResult<Vec<i64>> {
    let date = today();
    let mut rows = Vec::new();
    for _ in 0..units {
        let n: i64 = diesel::select(books::nextval("serial_number_seq"))
            .get_result(conn)
            .await?;
        rows.push((
            serial_numbers::serial_number.eq(serial_number(date, n)),
            serial_numbers::product_id.eq(product_id),
            serial_numbers::production_order_id.eq(production_order_id),
            serial_numbers::status.eq(status),
        ));
    }
    let mut ids = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(1000) {
        ids.extend(
            diesel::insert_into(serial_numbers::table)
                .values(chunk)
                .returning(serial_numbers::id)
                .get_results::<i64>(conn)
                .await?,
        );
    }
    Ok(ids)
}

/// What a QC decision did.
#[derive(Debug, Clone, SimpleObject)]
pub struct QcResult {
    /// The order after the decision.
    pub order: OrderRow,
    /// The order's id.
    pub production_order_id: i64,
    /// The order's code.
    pub production_order_code: String,
    /// QC status now.
    pub qc_status: QcStatus,
    /// QC notes.
    pub qc_notes: Option<String>,
    /// Who inspected.
    pub qc_inspected_by: Option<i64>,
    /// When.
    pub qc_inspected_at: Option<Timestamp>,
    /// Whether the sales order moved (to `ready_to_ship`).
    pub sales_order_updated: bool,
    /// The sales order's status after, when it moved.
    pub sales_order_status: Option<String>,
    /// What happened, for people.
    pub message: String,
}

/// Records a QC decision on a complete order: `passed` or `failed` when QC is pending or
/// failed (a re-inspection), `waived` when it is pending (the reason in `notes` is
/// required: nobody inspected), `pending` when it failed (the parts go back for another
/// inspection). When every order of its sales order has passed or been waived, the seam
/// [`SalesOrderPassedQc`] moves the sales order on. Serial numbers follow passed and
/// failed only: a waiver or a re-opening says nothing about the parts.
pub async fn qc(
    conn: &mut AsyncPgConnection,
    id: i64,
    result: &str,
    mut notes: Option<String>,
    user: i64,
    passed_qc: SalesOrderPassedQc,
) -> Result<QcResult, Stop> {
    // Text on the wire, as the contract answers an unknown result with its own 400; read
    // into the closed set here, once.
    let to = match QcStatus::from_str(result.trim()) {
        Ok(to @ (QcStatus::Passed | QcStatus::Failed | QcStatus::Waived | QcStatus::Pending)) => to,
        _ => {
            return Err(not_allowed(
                "QC result must be 'passed', 'failed', 'waived' or 'pending'",
            ));
        }
    };
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut notes, QC_NOTES_MAX);
    if to == QcStatus::Waived && notes.is_none() {
        errors.push(invalid("notes", "Say why QC is waived"));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let order = locked(conn, id).await?;
    if order.status != OrderStatus::Complete {
        return Err(not_allowed(format!(
            "QC can only be recorded on a complete production order (status is '{}')",
            order.status
        )));
    }
    if !matches!(order.qc_status, QcStatus::Pending | QcStatus::Failed) {
        return Err(not_allowed(format!(
            "QC cannot be recorded when QC status is '{}'",
            order.qc_status
        )));
    }
    if !qc_transition_allowed(order.qc_status, to) {
        return Err(not_allowed(format!(
            "QC cannot move from '{}' to '{to}'",
            order.qc_status
        )));
    }
    let row = diesel::update(production_orders::table.find(id))
        .set((
            production_orders::qc_status.eq(to),
            production_orders::qc_notes.eq(notes.clone()),
            production_orders::qc_inspected_by.eq(Some(user)),
            production_orders::qc_inspected_at.eq(Some(now())),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    // An inspection's verdict goes onto the order's serial numbers too.
    if matches!(to, QcStatus::Passed | QcStatus::Failed) {
        diesel::update(serial_numbers::table.filter(serial_numbers::production_order_id.eq(id)))
            .set((
                serial_numbers::qc_passed.eq(to == QcStatus::Passed),
                serial_numbers::qc_date.eq(Some(now())),
                serial_numbers::qc_notes.eq(notes),
            ))
            .execute(conn)
            .await?;
    }
    let (updated, status) = match (to, row.sales_order_id) {
        (QcStatus::Passed | QcStatus::Waived, Some(so))
            if all_orders_of_sales_order_passed_qc(conn, so).await? =>
        {
            (passed_qc.0)(conn, so).await?
        }
        _ => (false, None),
    };
    Ok(QcResult {
        message: format!("QC {to} for production order {}", row.code),
        production_order_id: row.id,
        production_order_code: row.code.clone(),
        qc_status: row.qc_status,
        qc_notes: row.qc_notes.clone(),
        qc_inspected_by: row.qc_inspected_by,
        qc_inspected_at: row.qc_inspected_at,
        order: row,
        sales_order_updated: updated,
        sales_order_status: status,
    })
}

/// Whether every (not cancelled) production order of a sales order has passed QC (or has it
/// waived or not required).
pub async fn all_orders_of_sales_order_passed_qc(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
) -> Result<bool, Stop> {
    let open: i64 = production_orders::table
        .filter(production_orders::sales_order_id.eq(sales_order_id))
        .filter(production_orders::status.ne_all([
            OrderStatus::Cancelled,
            OrderStatus::Split,
            OrderStatus::Scrapped,
        ]))
        .filter(
            production_orders::qc_status
                .ne_all([QcStatus::Passed, QcStatus::Waived, QcStatus::NotRequired])
                .or(production_orders::status.ne(OrderStatus::Complete)),
        )
        .count()
        .get_result(conn)
        .await?;
    Ok(open == 0)
}

/// The spools' [`crate::ledgers::spools::rules::CheckProductionOrder`]: the order exists and
/// is released or in progress (locked for the consuming transaction); answers its code.
pub fn open_for_consumption(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> futures_util::future::BoxFuture<'_, Result<String, Stop>> {
    Box::pin(async move {
        let order = model::lock(conn, id).await?.ok_or_else(|| {
            Stop::refuse(
                "productionOrderId",
                UserErrorCode::NotFound,
                "Production order not found",
            )
        })?;
        match order.status {
            OrderStatus::Released | OrderStatus::InProgress => Ok(order.code),
            other => Err(Stop::refuse(
                "productionOrderId",
                UserErrorCode::NotAllowed,
                format!(
                    "Production order {} is {other}: material can be consumed only by a released or in-progress order",
                    order.code
                ),
            )),
        }
    })
}

/// Called, in the QC transaction, when every production order of a sales order has passed
/// QC: the sales area reserves the finished goods for the order and moves it
/// `in_production` -> `ready_to_ship`; answers `(moved, new status)`.
pub type OnSalesOrderPassedQc =
    for<'c> fn(
        &'c mut AsyncPgConnection,
        i64,
    ) -> futures_util::future::BoxFuture<'c, Result<(bool, Option<String>), Stop>>;

/// Asked, in the completion's transaction, before an order completes: `Ok(Some(warning))`
/// to complete with a warning on the order's notes, a refusal to stop it.
pub type BeforeCompletion =
    for<'c> fn(
        &'c mut AsyncPgConnection,
        i64,
    ) -> futures_util::future::BoxFuture<'c, Result<Option<String>, Stop>>;

/// The request's [`BeforeCompletion`] (quality management sits above production: the
/// application attaches it, `crate::application::hooks`).
#[derive(Clone, Copy)]
pub struct CompletionGate(pub BeforeCompletion);

/// The request's [`OnSalesOrderPassedQc`] (sales sits above production, so production does
/// not call it by name: the application attaches it, `crate::application::hooks`).
#[derive(Clone, Copy)]
pub struct SalesOrderPassedQc(pub OnSalesOrderPassedQc);

/// Scraps an order (released or in progress): reservations released, its WIP value to 5020
/// Scrap / 1210 WIP, status `scrapped`, and a draft remake order for the scrapped quantity
/// unless `create_remake` is false.
pub async fn scrap(
    conn: &mut AsyncPgConnection,
    id: i64,
    reason: &str,
    quantity: Option<BigDecimal>,
    notes: Option<String>,
    create_remake: bool,
    user: i64,
) -> Result<(OrderRow, Option<OrderRow>), Stop> {
    let order = locked(conn, id).await?;
    if !matches!(
        order.status,
        OrderStatus::Released | OrderStatus::InProgress
    ) {
        return Err(not_allowed(format!(
            "Only released or in-progress orders can be scrapped (status is '{}')",
            order.status
        )));
    }
    let reason = check_scrap_reason(conn, reason).await?;
    let quantity = quantity.unwrap_or_else(|| quantity_remaining(&order));
    let mut errors = Vec::new();
    check_positive(&mut errors, "quantityScrapped", &quantity);
    if quantity > order.quantity_ordered.0 {
        errors.push(invalid(
            "quantityScrapped",
            "Cannot scrap more than the ordered quantity",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    release_reservations(conn, &order, Some(user)).await?;
    let wip = wip_of(conn, id).await?;
    write_off_wip(conn, &order, &wip, &format!("Scrap ({reason})"), Some(user)).await?;
    record_scrap(conn, id, None, Some(&reason), &quantity, &wip, Some(user)).await?;
    diesel::update(
        production_order_operations::table
            .filter(production_order_operations::production_order_id.eq(id))
            .filter(production_order_operations::status.eq_any([
                OperationStatus::Pending,
                OperationStatus::Queued,
                OperationStatus::Running,
            ])),
    )
    .set(production_order_operations::status.eq(OperationStatus::Skipped))
    .execute(conn)
    .await?;
    let row = diesel::update(production_orders::table.find(id))
        .set((
            production_orders::status.eq(OrderStatus::Scrapped),
            production_orders::quantity_scrapped.eq(quantity.with_scale(QUANTITY_SCALE)),
            production_orders::scrap_reason.eq(Some(reason.clone())),
            production_orders::actual_end.eq(Some(now())),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    let row = append_notes(conn, row, notes).await?;
    let remake = if create_remake {
        Some(remake(conn, &order, quantity, &reason, None, user).await?)
    } else {
        None
    };
    Ok((row, remake))
}

/// A draft remake of an order for `quantity` scrapped units: same product, BOM, routing,
/// sales order line, priority and due date, naming the order it remakes and why.
pub(super) async fn remake(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    quantity: BigDecimal,
    reason: &str,
    notes: Option<String>,
    user: i64,
) -> Result<OrderRow, Stop> {
    let new = create(
        conn,
        ProductionOrderCreateInput {
            product_id: order.product_id,
            quantity_ordered: Decimal(quantity),
            due_date: order.due_date,
            priority: Some(order.priority),
            notes,
            bom_id: order.bom_id,
            routing_id: order.routing_id,
            sales_order_id: order.sales_order_id,
            sales_order_line_id: order.sales_order_line_id,
            source: Some(order.source),
            order_type: Some(order.order_type),
            assigned_to: order.assigned_to.clone(),
            location_id: Some(order.location_id),
        },
        Some(user),
    )
    .await?;
    Ok(diesel::update(production_orders::table.find(new.id))
        .set((
            production_orders::remake_of_id.eq(Some(order.id)),
            production_orders::remake_reason.eq(Some(reason.to_string())),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Splits a released order into child orders (draft, same product, BOM and routing) whose
/// quantities add up to the parent's; the parent's reservations are released and it becomes
/// `split`.
pub async fn split(
    conn: &mut AsyncPgConnection,
    id: i64,
    quantities: Vec<BigDecimal>,
    user: Option<i64>,
) -> Result<(OrderRow, Vec<OrderRow>), Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::Split)?;
    if order.status != OrderStatus::Released {
        return Err(not_allowed("Only released orders can be split"));
    }
    let mut errors = Vec::new();
    if quantities.len() < 2 {
        errors.push(invalid("splits", "At least 2 splits are required"));
    }
    for (i, q) in quantities.iter().enumerate() {
        check_positive(&mut errors, &format!("splits.{i}.quantity"), q);
    }
    let total: BigDecimal = quantities.iter().cloned().sum();
    if errors.is_empty() && total != order.quantity_ordered.0 {
        errors.push(invalid(
            "splits",
            format!(
                "Split quantities ({}) must add up to the ordered quantity ({})",
                total.normalized(),
                order.quantity_ordered.0.normalized()
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    release_reservations(conn, &order, user).await?;
    let mut children = Vec::new();
    for q in quantities {
        let child = create(
            conn,
            ProductionOrderCreateInput {
                product_id: order.product_id,
                quantity_ordered: Decimal(q),
                due_date: order.due_date,
                priority: Some(order.priority),
                notes: None,
                bom_id: order.bom_id,
                routing_id: order.routing_id,
                sales_order_id: order.sales_order_id,
                sales_order_line_id: order.sales_order_line_id,
                source: Some(order.source),
                order_type: Some(order.order_type),
                assigned_to: order.assigned_to.clone(),
                location_id: Some(order.location_id),
            },
            user,
        )
        .await?;
        let child = diesel::update(production_orders::table.find(child.id))
            .set(production_orders::parent_id.eq(Some(order.id)))
            .returning(OrderRow::as_returning())
            .get_result(conn)
            .await?;
        children.push(child);
    }
    diesel::update(
        production_order_operations::table
            .filter(production_order_operations::production_order_id.eq(id)),
    )
    .set(production_order_operations::status.eq(OperationStatus::Skipped))
    .execute(conn)
    .await?;
    let row = set_status(conn, id, OrderStatus::Split).await?;
    Ok((row, children))
}
