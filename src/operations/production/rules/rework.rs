//! Scrap at an operation, with the cascade of what is lost, and operations redone from the
//! routing.
//!
//! Scrapping units at an operation loses what they carried: the materials of that operation
//! and of every earlier one (their share of each line) and the machine and labour time
//! spent. [`scrap_cascade`] shows it before anything is posted; [`scrap_at_operation`]
//! writes the units' share of the order's WIP off to 5020 Scrap / 1210 WIP in one journal
//! entry, counts the units on the operation and the order, skips later steps when no good
//! unit is left, and makes a draft remake order when asked. Stock is not touched: the
//! materials were issued already (or are backflushed at completion).
//!
//! [`refresh_routing`] and [`generate_operations`] rebuild an order's operations and their
//! materials from the product's active routing.

use super::*;

/// One material a scrap loses.
#[derive(Debug, Clone, SimpleObject)]
pub struct ScrapLostMaterial {
    /// The operation.
    pub operation_id: i64,
    /// Its sequence.
    pub operation_sequence: i32,
    /// Its name.
    pub operation_name: String,
    /// The component.
    pub component_id: i64,
    /// Its SKU.
    pub component_sku: String,
    /// Its name.
    pub component_name: String,
    /// The scrapped units' share of the line.
    pub quantity: Decimal,
    /// Stocking unit.
    pub unit: String,
    /// Cost per unit.
    pub unit_cost: Decimal,
    /// Quantity times unit cost.
    pub cost: Decimal,
}

/// Time a scrap loses at one operation.
#[derive(Debug, Clone, SimpleObject)]
pub struct ScrapLostLabor {
    /// The operation.
    pub operation_id: i64,
    /// Its sequence.
    pub operation_sequence: i32,
    /// Its name.
    pub operation_name: String,
    /// The scrapped units' share of its time at the work center's rate.
    pub labor_cost: Decimal,
}

/// What scrapping units at an operation loses, and the journal entry it posts.
#[derive(Debug, Clone, SimpleObject)]
pub struct ScrapCascade {
    /// The order.
    pub production_order_id: i64,
    /// Its code.
    pub production_order_code: String,
    /// The operation.
    pub operation_id: i64,
    /// Its name.
    pub operation_name: String,
    /// Units scrapped.
    pub quantity_scrapped: Decimal,
    /// Materials of this and earlier operations that are lost.
    pub materials_consumed: Vec<ScrapLostMaterial>,
    /// Time lost per operation.
    pub labor_by_operation: Vec<ScrapLostLabor>,
    /// Cost of the materials lost.
    pub material_cost: Decimal,
    /// Cost of the time lost.
    pub labor_cost: Decimal,
    /// Both.
    pub total_cost: Decimal,
    /// Operations up to and including this one.
    pub operations_affected: i64,
    /// The amount the journal entry moves from 1210 WIP to 5020 Scrap: the units' share of
    /// what the order holds in WIP.
    pub journal_amount: Decimal,
    /// What the journal entry says.
    pub journal_memo: String,
}

/// The order and operation of a scrap, checked: 404 for either missing, 400 when the
/// operation is another order's.
async fn order_and_operation(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    lock: bool,
) -> Result<(OrderRow, OperationRow), Stop> {
    let order = if lock {
        locked(conn, order_id).await?
    } else {
        model::find(conn, order_id).await?
    };
    let op: Option<OperationRow> = production_order_operations::table
        .find(op_id)
        .select(OperationRow::as_select())
        .first(conn)
        .await
        .optional()?;
    let Some(op) = op else {
        return Err(Stop::refuse(
            "operationId",
            UserErrorCode::NotFound,
            format!("Operation {op_id} not found"),
        ));
    };
    if op.production_order_id != order_id {
        return Err(not_allowed(format!(
            "Operation {op_id} does not belong to production order {order_id}"
        )));
    }
    Ok((order, op))
}

/// What scrapping `quantity` units at an operation loses (nothing is posted).
pub async fn scrap_cascade(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    quantity: BigDecimal,
) -> Result<ScrapCascade, Stop> {
    if quantity <= BigDecimal::zero() {
        return Err(Stop::refuse(
            "quantity",
            UserErrorCode::Invalid,
            "Input should be greater than 0",
        ));
    }
    let (order, op) = order_and_operation(conn, order_id, op_id, false).await?;
    let mut ops = model::operations_of(conn, &[order_id]).await?;
    ops.sort_by_key(|o| (o.sequence, o.id));
    let upto: Vec<OperationRow> = ops
        .into_iter()
        .take_while(|o| (o.sequence, o.id) <= (op.sequence, op.id))
        .collect();
    let ordered = order.quantity_ordered.0.clone().max(BigDecimal::from(1));
    let share = &quantity / &ordered;
    let materials = model::materials_of(conn, &[order_id]).await?;
    let ids: Vec<i64> = materials.iter().map(|m| m.component_id).collect();
    let parts: std::collections::HashMap<i64, crate::operations::bom::model::Part> =
        crate::operations::bom::model::parts(conn, &ids)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
    let centers = model::work_centers_by_ids(
        conn,
        &upto.iter().map(|o| o.work_center_id).collect::<Vec<_>>(),
    )
    .await?;
    let mut lost = Vec::new();
    let mut labor = Vec::new();
    let (mut material_cost, mut labor_cost) = (BigDecimal::zero(), BigDecimal::zero());
    for o in &upto {
        for m in materials.iter().filter(|m| m.operation_id == Some(o.id)) {
            let Some(part) = parts.get(&m.component_id) else {
                continue;
            };
            let q = (&m.quantity_required.0 * &share)
                .with_scale_round(QUANTITY_SCALE, RoundingMode::HalfUp);
            if q <= BigDecimal::zero() {
                continue;
            }
            let unit_cost = crate::operations::bom::tree::item_unit_cost(part);
            let cost = &q * &unit_cost;
            material_cost += &cost;
            lost.push(ScrapLostMaterial {
                operation_id: o.id,
                operation_sequence: o.sequence,
                operation_name: o.operation_name.clone(),
                component_id: m.component_id,
                component_sku: part.sku.clone(),
                component_name: part.name.clone(),
                quantity: Decimal(q),
                unit: m.unit.clone(),
                unit_cost: Decimal(unit_cost),
                cost: Decimal(books::cents(&cost)),
            });
        }
        let rate = centers
            .iter()
            .find(|w| w.id == o.work_center_id)
            .map(|w| w.hourly_rate.0.clone())
            .unwrap_or_default();
        let (_, best) = crate::operations::production::detail::facts::minutes(o);
        let cost = best * rate / BigDecimal::from(60) * &share;
        labor_cost += &cost;
        labor.push(ScrapLostLabor {
            operation_id: o.id,
            operation_sequence: o.sequence,
            operation_name: o.operation_name.clone(),
            labor_cost: Decimal(books::cents(&cost)),
        });
    }
    let in_process =
        (&order.quantity_ordered.0 - &order.quantity_scrapped.0).max(BigDecimal::from(1));
    let wip = wip_of(conn, order_id).await?;
    let journal = books::cents(&(&wip * (&quantity / &in_process).min(BigDecimal::from(1))));
    Ok(ScrapCascade {
        production_order_id: order.id,
        production_order_code: order.code.clone(),
        operation_id: op.id,
        operation_name: op.operation_name.clone(),
        quantity_scrapped: Decimal(quantity.clone()),
        operations_affected: upto.len() as i64,
        total_cost: Decimal(books::cents(&(&material_cost + &labor_cost))),
        material_cost: Decimal(books::cents(&material_cost)),
        labor_cost: Decimal(books::cents(&labor_cost)),
        materials_consumed: lost,
        labor_by_operation: labor,
        journal_memo: format!(
            "Scrap at {}: production order {} ({} units)",
            op.operation_name,
            order.code,
            quantity.normalized()
        ),
        journal_amount: Decimal(journal),
    })
}

/// Scrapping units at an operation.
#[derive(Debug, Clone, InputObject)]
pub struct OperationScrapInput {
    /// Units scrapped (at least 1).
    pub quantity_scrapped: Decimal,
    /// An active scrap reason's code.
    pub scrap_reason_code: String,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(NOTES_MAX))]
    pub notes: Option<String>,
    /// Make a draft remake order for the scrapped units (default true).
    #[graphql(default = true)]
    pub create_replacement: bool,
}

/// What a scrap at an operation did.
#[derive(Debug, Clone, SimpleObject)]
pub struct OperationScrapResult {
    /// Done.
    pub success: bool,
    /// What was lost.
    pub cascade: ScrapCascade,
    /// The journal entry's number, when something was written off.
    pub journal_entry_number: Option<String>,
    /// Later operations skipped because no good unit was left.
    pub downstream_ops_skipped: i64,
    /// The draft remake order.
    pub replacement_order: Option<OrderRow>,
}

/// How many units can still be scrapped at an operation: what it completed, or for a
/// running operation what reached it (the order's units for the first one, else what the
/// previous operation completed), less what was scrapped there.
fn scrappable(ops: &[OperationRow], op: &OperationRow, order: &OrderRow) -> BigDecimal {
    let reached = if op.status == OperationStatus::Running {
        match ops.iter().rfind(|o| {
            (o.sequence, o.id) < (op.sequence, op.id) && o.status != OperationStatus::Skipped
        }) {
            None => &order.quantity_ordered.0 - &order.quantity_scrapped.0,
            Some(prev) if prev.status == OperationStatus::Complete => {
                prev.quantity_completed.0.clone()
            }
            Some(_) => BigDecimal::zero(),
        }
    } else {
        op.quantity_completed.0.clone()
    };
    (reached - &op.quantity_scrapped.0).max(BigDecimal::zero())
}

/// Scraps units at an operation (see the module's documentation).
pub async fn scrap_at_operation(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut input: OperationScrapInput,
    user: i64,
) -> Result<OperationScrapResult, Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    let n = input.quantity_scrapped.0.clone();
    if n < 1 {
        errors.push(invalid(
            "quantityScrapped",
            "Input should be greater than or equal to 1",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let (order, op) = order_and_operation(conn, order_id, op_id, true).await?;
    let reason = check_scrap_reason(conn, &input.scrap_reason_code).await?;
    let mut ops = model::operations_of(conn, &[order_id]).await?;
    ops.sort_by_key(|o| (o.sequence, o.id));
    let available = scrappable(&ops, &op, &order);
    if n > available {
        return Err(not_allowed(format!(
            "Cannot scrap {} units. Only {} units available to scrap.",
            n.normalized(),
            available.normalized()
        )));
    }
    let cascade = scrap_cascade(conn, order_id, op_id, n.clone()).await?;
    let amount = cascade.journal_amount.0.clone();
    let mut journal_entry_number = None;
    if amount > BigDecimal::zero() {
        let draft = EntryDraft::new(today(), format!("{} ({reason})", cascade.journal_memo))
            .source(SourceType::ProductionOrder, Some(order.id))
            .by(Some(user))
            .transfer(
                SystemAccount::ScrapExpense,
                SystemAccount::WorkInProgress,
                &amount,
                Some(order.code.clone()),
            );
        journal_entry_number = books::post(conn, draft).await?.map(|e| e.entry_number);
        add_wip(conn, order.id, &-amount.clone()).await?;
    }
    record_scrap(
        conn,
        order_id,
        Some(op_id),
        Some(&reason),
        &n,
        &amount,
        Some(user),
    )
    .await?;
    let op_row: OperationRow = diesel::update(production_order_operations::table.find(op_id))
        .set(production_order_operations::quantity_scrapped.eq(&op.quantity_scrapped.0 + &n))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    let order_row = diesel::update(production_orders::table.find(order_id))
        .set((
            production_orders::quantity_scrapped.eq(&order.quantity_scrapped.0 + &n),
            production_orders::scrap_reason.eq(Some(reason.clone())),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    append_notes(conn, order_row, input.notes).await?;
    let mut skipped = 0;
    if op_row.status == OperationStatus::Complete
        && &op_row.quantity_completed.0 - &op_row.quantity_scrapped.0 <= BigDecimal::zero()
    {
        let later: Vec<i64> = ops
            .iter()
            .filter(|o| (o.sequence, o.id) > (op.sequence, op.id))
            .filter(|o| matches!(o.status, OperationStatus::Pending | OperationStatus::Queued))
            .map(|o| o.id)
            .collect();
        skipped = diesel::update(
            production_order_operations::table
                .filter(production_order_operations::id.eq_any(&later)),
        )
        .set((
            production_order_operations::status.eq(OperationStatus::Skipped),
            production_order_operations::notes.eq(Some(format!(
                "Skipped: no good units left after operation {}",
                op.sequence
            ))),
        ))
        .execute(conn)
        .await? as i64;
    }
    let replacement_order = if input.create_replacement {
        let notes = Some(format!("Remake of {} after scrap: {reason}", order.code));
        Some(remake(conn, &order, n, &reason, notes, user).await?)
    } else {
        None
    };
    Ok(OperationScrapResult {
        success: true,
        cascade,
        journal_entry_number,
        downstream_ops_skipped: skipped,
        replacement_order,
    })
}

/// Rebuilds a draft, released or held order's operations from the product's active routing
/// (when none has started): the pending ones and their materials are replaced (reservations
/// given back, the new materials reserved), and the order names the routing.
pub async fn refresh_routing(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: Option<i64>,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    if !matches!(
        order.status,
        OrderStatus::Draft | OrderStatus::Released | OrderStatus::OnHold
    ) {
        return Err(not_allowed(format!(
            "Cannot refresh routing on a {} order. Order must be draft, released, or on_hold.",
            order.status
        )));
    }
    let ops = model::operations_of(conn, &[id]).await?;
    if ops
        .iter()
        .any(|o| !matches!(o.status, OperationStatus::Pending | OperationStatus::Queued))
    {
        return Err(Stop::Failed(crate::platform::error::AppError::conflict(
            "Cannot refresh routing: one or more operations are already in progress or complete.",
        )));
    }
    rebuild(conn, &order, user).await?;
    Ok(model::find(conn, id).await?)
}

/// Generates an order's operations from the product's active routing: refused when it has
/// some unless `force` (then every operation that has not started is replaced; one that has
/// is a conflict). Answers how many were made.
pub async fn generate_operations(
    conn: &mut AsyncPgConnection,
    id: i64,
    force: bool,
    user: Option<i64>,
) -> Result<i64, Stop> {
    let order = locked(conn, id).await?;
    let ops = model::operations_of(conn, &[id]).await?;
    if !ops.is_empty() && !force {
        return Err(not_allowed(
            "Operations already exist. Use force=true to regenerate.",
        ));
    }
    if ops
        .iter()
        .any(|o| !matches!(o.status, OperationStatus::Pending | OperationStatus::Queued))
    {
        return Err(Stop::Failed(crate::platform::error::AppError::conflict(
            "Cannot regenerate: one or more operations are already in progress or complete.",
        )));
    }
    rebuild(conn, &order, user).await
}

/// Replaces an order's operations and their materials by the active routing's (404 when the
/// product has none); released orders get the new materials reserved. Answers the number of
/// operations made.
async fn rebuild(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    user: Option<i64>,
) -> Result<i64, Stop> {
    let Some(routing) = model::active_routing(conn, order.product_id).await? else {
        return Err(Stop::refuse(
            "routingId",
            UserErrorCode::NotFound,
            "No active routing found for this product. Add a routing to the item first.",
        ));
    };
    release_reservations(conn, order, user).await?;
    diesel::delete(
        production_order_materials::table
            .filter(production_order_materials::production_order_id.eq(order.id)),
    )
    .execute(conn)
    .await?;
    diesel::delete(
        production_order_operations::table
            .filter(production_order_operations::production_order_id.eq(order.id)),
    )
    .execute(conn)
    .await?;
    let order = diesel::update(production_orders::table.find(order.id))
        .set((
            production_orders::routing_id.eq(Some(routing.id)),
            production_orders::released_at.eq(None::<DateTime<Utc>>),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    // A draft gets its operations at release; a released or held order gets them now, the
    // way release makes them (materials reserved), keeping its status.
    if order.status == OrderStatus::Draft {
        return Ok(model::routing_operations_of(conn, &[routing.id])
            .await?
            .len() as i64);
    }
    let made = copy_routing(conn, &order, user).await?;
    diesel::update(production_orders::table.find(order.id))
        .set(production_orders::released_at.eq(Some(now())))
        .execute(conn)
        .await?;
    Ok(made)
}
