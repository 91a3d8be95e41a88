//! Production orders: create, change, delete, release, start, hold, accept short, cancel.

use super::*;

/// A new production order (`POST /production-orders/`).
#[derive(Debug, Clone, InputObject)]
pub struct ProductionOrderCreateInput {
    /// The product to make.
    pub product_id: i64,
    /// Quantity (more than 0).
    pub quantity_ordered: Decimal,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// 1 (highest) to 5 (default 3).
    pub priority: Option<i32>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// The BOM (default the product's active BOM).
    pub bom_id: Option<i64>,
    /// The routing (default the product's active routing).
    pub routing_id: Option<i64>,
    /// The sales order it makes for.
    pub sales_order_id: Option<i64>,
    /// The sales order line.
    pub sales_order_line_id: Option<i64>,
    /// Where it came from (default manual).
    pub source: Option<OrderSource>,
    /// To order (default) or to stock.
    pub order_type: Option<OrderType>,
    /// Who it is assigned to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::ASSIGNEE_MAX))]
    pub assigned_to: Option<String>,
    /// Where components are reserved and goods received (default the main warehouse).
    pub location_id: Option<i64>,
}

/// Changes to an order (`PUT /production-orders/{id}`): omitted fields keep their value.
#[derive(Debug, Clone, Default, InputObject)]
pub struct ProductionOrderUpdateInput {
    /// Quantity (draft orders only).
    pub quantity_ordered: Option<Decimal>,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// Priority 1-5.
    pub priority: Option<i32>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// Assignee.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::ASSIGNEE_MAX))]
    pub assigned_to: Option<String>,
    /// Planned start.
    pub scheduled_start: Option<Timestamp>,
    /// Planned end.
    pub scheduled_end: Option<Timestamp>,
}

pub(super) fn check_priority(errors: &mut Vec<UserError>, priority: Option<i32>) {
    if let Some(p) = priority
        && !(1..=5).contains(&p)
    {
        errors.push(invalid("priority", "Priority must be between 1 and 5"));
    }
}

pub(super) fn check_positive(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal) {
    crate::ledgers::inventory::rules::check_quantity(errors, field, value);
    if *value <= BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than 0"));
    } else if *value >= 1_000_000_000i64 {
        errors.push(invalid(field, "The quantity is too large"));
    }
}

pub(super) async fn next_code(conn: &mut AsyncPgConnection) -> Result<String, Stop> {
    let n: i64 = diesel::select(books::nextval("production_order_seq"))
        .get_result(conn)
        .await?;
    Ok(format!("WO-{}-{n:04}", today().year()))
}

/// Creates a draft order in the caller's transaction: the product's active BOM and routing
/// unless named, a code from the order sequence, the estimated cost from the BOM roll-up.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: ProductionOrderCreateInput,
    user: Option<i64>,
) -> Result<OrderRow, Stop> {
    let mut errors = Vec::new();
    check_positive(&mut errors, "quantityOrdered", &input.quantity_ordered.0);
    check_priority(&mut errors, input.priority);
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(
        &mut errors,
        "assignedTo",
        &mut input.assigned_to,
        ASSIGNEE_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    check_producible(conn, input.product_id).await?;
    let bom = bom_for(conn, input.bom_id, input.product_id).await?;
    let routing = routing_for(conn, input.routing_id, input.product_id).await?;
    let quantity = input.quantity_ordered.0.with_scale(QUANTITY_SCALE);
    let material_cost = match &bom {
        Some(b) => {
            let tree = Tree::load(conn, vec![b.clone()]).await?;
            tree.material_cost(b.id)
                .map(|c| (c * &quantity).with_scale_round(4, RoundingMode::HalfUp))
                .unwrap_or_default()
        }
        None => BigDecimal::zero(),
    };
    let (minutes, labor) = match &routing {
        Some(r) => routing_estimate(conn, r.id, &quantity).await?,
        None => (BigDecimal::zero(), BigDecimal::zero()),
    };
    let location_id = match input.location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    };
    let code = next_code(conn).await?;
    let row = diesel::insert_into(production_orders::table)
        .values(NewOrder {
            code,
            product_id: input.product_id,
            bom_id: bom.map(|b| b.id),
            routing_id: routing.map(|r| r.id),
            sales_order_id: input.sales_order_id,
            sales_order_line_id: input.sales_order_line_id,
            location_id,
            quantity_ordered: quantity,
            source: input.source.unwrap_or(if input.sales_order_id.is_some() {
                OrderSource::SalesOrder
            } else {
                OrderSource::Manual
            }),
            order_type: input.order_type.unwrap_or(OrderType::MakeToOrder),
            priority: input.priority.unwrap_or(3),
            due_date: input.due_date,
            assigned_to: input.assigned_to,
            notes: input.notes,
            remake_of_id: None,
            remake_reason: None,
            parent_id: None,
            estimated_material_cost: material_cost,
            estimated_time_minutes: minutes,
            estimated_labor_cost: labor,
            created_by: user,
        })
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await
        .map_err(|e| match e {
            diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::ForeignKeyViolation,
                _,
            ) => Stop::refuse("locationId", UserErrorCode::NotFound, "Location not found"),
            e => e.into(),
        })?;
    Ok(row)
}

/// Refuses a product that does not exist or is a service.
async fn check_producible(conn: &mut AsyncPgConnection, product_id: i64) -> Result<(), Stop> {
    let product: Option<(ItemType, bool)> = items::table
        .find(product_id)
        .select((items::item_type, items::active))
        .first(conn)
        .await
        .optional()?;
    match product {
        None => Err(Stop::refuse(
            "productId",
            UserErrorCode::NotFound,
            "Product not found",
        )),
        Some((ItemType::Service, _)) => Err(Stop::refuse(
            "productId",
            UserErrorCode::NotAllowed,
            "A service cannot be produced",
        )),
        Some(_) => Ok(()),
    }
}

/// The BOM an order uses: the one named (which must be the product's), else the product's
/// active BOM.
async fn bom_for(
    conn: &mut AsyncPgConnection,
    bom_id: Option<i64>,
    product_id: i64,
) -> Result<Option<crate::operations::bom::model::BomRow>, Stop> {
    Ok(match bom_id {
        Some(id) => {
            let bom = crate::operations::bom::model::by_ids(conn, &[id]).await?;
            match bom.into_iter().next() {
                Some(b) if b.product_id == product_id => Some(b),
                Some(_) => {
                    return Err(Stop::refuse(
                        "bomId",
                        UserErrorCode::NotAllowed,
                        "The BOM is for another product",
                    ));
                }
                None => {
                    return Err(Stop::refuse(
                        "bomId",
                        UserErrorCode::NotFound,
                        "BOM not found",
                    ));
                }
            }
        }
        None => crate::operations::bom::model::active_of(conn, &[product_id])
            .await?
            .into_iter()
            .next(),
    })
}

/// The routing an order uses: the one named (which must be the product's), else the
/// product's active routing.
async fn routing_for(
    conn: &mut AsyncPgConnection,
    routing_id: Option<i64>,
    product_id: i64,
) -> Result<Option<model::RoutingRow>, Stop> {
    Ok(match routing_id {
        Some(id) => match model::routings_by_ids(conn, &[id])
            .await?
            .into_iter()
            .next()
        {
            Some(r) if r.product_id == Some(product_id) => Some(r),
            Some(_) => {
                return Err(Stop::refuse(
                    "routingId",
                    UserErrorCode::NotAllowed,
                    "The routing is for another product",
                ));
            }
            None => {
                return Err(Stop::refuse(
                    "routingId",
                    UserErrorCode::NotFound,
                    "Routing not found",
                ));
            }
        },
        None => model::active_routing(conn, product_id).await?,
    })
}

/// The estimated minutes and labour cost of making `quantity` along a routing: setup plus
/// run time per unit of each step, at its work center's hourly rate.
async fn routing_estimate(
    conn: &mut AsyncPgConnection,
    routing_id: i64,
    quantity: &BigDecimal,
) -> Result<(BigDecimal, BigDecimal), Stop> {
    let steps = model::routing_operations_of(conn, &[routing_id]).await?;
    let centers: Vec<i64> = steps.iter().map(|s| s.work_center_id).collect();
    let rates = model::work_centers_by_ids(conn, &centers).await?;
    let mut minutes = BigDecimal::zero();
    let mut labor = BigDecimal::zero();
    for s in &steps {
        let m = &s.setup_minutes.0 + &s.run_minutes.0 * quantity;
        let rate = rates
            .iter()
            .find(|w| w.id == s.work_center_id)
            .map(|w| w.hourly_rate.0.clone())
            .unwrap_or_default();
        labor += &m * rate / BigDecimal::from(60);
        minutes += m;
    }
    Ok((
        minutes.with_scale_round(2, RoundingMode::HalfUp),
        labor.with_scale_round(4, RoundingMode::HalfUp),
    ))
}

pub(super) async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<OrderRow, Stop> {
    model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Production order not found"))
}

/// Changes an order's header. A complete or cancelled order refuses with
/// `Cannot update {status} production order`; the quantity changes on drafts only.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: ProductionOrderUpdateInput,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    if matches!(order.status, OrderStatus::Complete | OrderStatus::Cancelled) {
        return Err(not_allowed(format!(
            "Cannot update {} production order",
            order.status
        )));
    }
    let mut errors = Vec::new();
    if let Some(q) = &input.quantity_ordered {
        check_positive(&mut errors, "quantityOrdered", &q.0);
        if order.status != OrderStatus::Draft {
            errors.push(UserError::new(
                "quantityOrdered",
                UserErrorCode::NotAllowed,
                "The quantity can only change on a draft order",
            ));
        }
    }
    check_priority(&mut errors, input.priority);
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(
        &mut errors,
        "assignedTo",
        &mut input.assigned_to,
        ASSIGNEE_MAX,
    );
    // The window as it will be: a new end is checked against the start kept, and back.
    let start = input
        .scheduled_start
        .as_ref()
        .map(|t| t.0)
        .or(order.scheduled_start.as_ref().map(|t| t.0));
    let end = input
        .scheduled_end
        .as_ref()
        .map(|t| t.0)
        .or(order.scheduled_end.as_ref().map(|t| t.0));
    if let (Some(start), Some(end)) = (start, end)
        && end < start
    {
        errors.push(invalid(
            "scheduledEnd",
            "The planned end must not be before the planned start",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let row = diesel::update(production_orders::table.find(id))
        .set((
            input
                .quantity_ordered
                .map(|q| production_orders::quantity_ordered.eq(q.0.with_scale(QUANTITY_SCALE))),
            input
                .due_date
                .map(|d| production_orders::due_date.eq(Some(d))),
            input.priority.map(|p| production_orders::priority.eq(p)),
            input.notes.map(|n| production_orders::notes.eq(Some(n))),
            input
                .assigned_to
                .map(|a| production_orders::assigned_to.eq(Some(a))),
            input
                .scheduled_start
                .map(|s| production_orders::scheduled_start.eq(Some(s.0))),
            input
                .scheduled_end
                .map(|s| production_orders::scheduled_end.eq(Some(s.0))),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

/// Deletes a draft order (`Only draft orders can be deleted` otherwise).
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    if order.status != OrderStatus::Draft {
        return Err(not_allowed("Only draft orders can be deleted"));
    }
    diesel::delete(production_orders::table.find(id))
        .execute(conn)
        .await?;
    Ok(order)
}

pub(super) fn movement(
    order: &OrderRow,
    item_id: i64,
    location_id: i64,
    kind: MovementKind,
    q: BigDecimal,
    user: Option<i64>,
) -> Movement {
    Movement {
        reference_type: Some(ReferenceType::ProductionOrder),
        reference_id: Some(order.id),
        notes: Some(format!("Production order {}", order.code)),
        created_by: user,
        ..Movement::new(item_id, location_id, kind, q)
    }
}

pub(super) async fn set_status(
    conn: &mut AsyncPgConnection,
    id: i64,
    status: OrderStatus,
) -> Result<OrderRow, Stop> {
    Ok(diesel::update(production_orders::table.find(id))
        .set((
            production_orders::status.eq(status),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?)
}

/// What a release did.
#[derive(Debug, Clone, SimpleObject)]
pub struct ReleaseResult {
    /// Always true (the original's envelope).
    pub success: bool,
    /// The order's id.
    pub production_order_id: i64,
    /// The order after release.
    pub order: OrderRow,
    /// Operations generated from the routing.
    pub operations_created: i32,
    /// What happened, for people.
    pub message: String,
}

/// What a step material line asks of an order: the component and quantity in its stocking
/// unit, for the step.
pub struct StepNeed {
    /// The routing step.
    pub step_id: i64,
    /// The component.
    pub component_id: i64,
    /// Quantity in the component's stocking unit, scrap included.
    pub quantity: BigDecimal,
    /// The stocking unit.
    pub unit: String,
}

/// What these routing steps consume for an order of `quantity` units (cost-only lines left
/// out), converted to each component's stocking unit (a unit that cannot be converted counts
/// as the stocking unit, as BOM lines do).
pub async fn step_needs(
    conn: &mut AsyncPgConnection,
    steps: &[model::RoutingOperationRow],
    quantity: &BigDecimal,
) -> Result<Vec<StepNeed>, Stop> {
    let ids: Vec<i64> = steps.iter().map(|s| s.id).collect();
    let lines = crate::operations::production::routing::materials::of_steps(conn, &ids).await?;
    let lines: Vec<_> = lines.into_iter().filter(|m| !m.is_cost_only).collect();
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let components: Vec<i64> = lines.iter().map(|m| m.component_id).collect();
    let parts = crate::operations::bom::model::parts(conn, &components).await?;
    let units = crate::master_data::catalog::model::units(conn).await?;
    let mut out = Vec::new();
    for m in lines {
        let per_cycle = steps
            .iter()
            .find(|s| s.id == m.routing_operation_id)
            .map_or(1, |s| s.units_per_cycle);
        let needed = m.needed_for(quantity, per_cycle);
        let stock_unit = parts
            .iter()
            .find(|p| p.id == m.component_id)
            .map(|p| p.unit.clone())
            .unwrap_or_else(|| m.unit.clone());
        let converted =
            crate::master_data::catalog::uom::convert_codes(&units, &needed, &m.unit, &stock_unit)
                .unwrap_or(needed)
                .with_scale_round(QUANTITY_SCALE, RoundingMode::Up);
        out.push(StepNeed {
            step_id: m.routing_operation_id,
            component_id: m.component_id,
            quantity: converted,
            unit: stock_unit,
        });
    }
    Ok(out)
}

/// Adds a material to a released order, reserving what is available of it.
#[allow(clippy::too_many_arguments)]
async fn add_material(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    operation_id: Option<i64>,
    bom_line_id: Option<i64>,
    component_id: i64,
    required: BigDecimal,
    unit: String,
    user: Option<i64>,
) -> Result<(), Stop> {
    let (reserved, _) = if required > BigDecimal::zero() {
        ledger::reserve(
            conn,
            &movement(
                order,
                component_id,
                order.location_id,
                MovementKind::Consumption,
                required.clone(),
                user,
            ),
        )
        .await?
    } else {
        (BigDecimal::zero(), None)
    };
    diesel::insert_into(production_order_materials::table)
        .values(NewMaterial {
            production_order_id: order.id,
            operation_id,
            bom_line_id,
            component_id,
            quantity_required: required,
            quantity_allocated: reserved.with_scale(QUANTITY_SCALE),
            unit,
            location_id: order.location_id,
        })
        .execute(conn)
        .await?;
    Ok(())
}

/// Copies an order's routing into its operations (the first queued) and its materials onto
/// them (each step's own materials, else the BOM's on the first operation), reserving each
/// material. Answers how many operations were made.
pub(super) async fn copy_routing(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    user: Option<i64>,
) -> Result<i64, Stop> {
    let mut created = 0;
    let steps = match order.routing_id {
        Some(r) => model::routing_operations_of(conn, &[r]).await?,
        None => Vec::new(),
    };
    let mut first_op = None;
    let mut op_of_step: std::collections::HashMap<i64, i64> = Default::default();
    for (i, s) in steps.iter().enumerate() {
        let op: OperationRow = diesel::insert_into(production_order_operations::table)
            .values(NewOperation {
                production_order_id: order.id,
                routing_operation_id: Some(s.id),
                work_center_id: s.work_center_id,
                sequence: s.sequence,
                operation_code: s.operation_code.clone(),
                operation_name: s.operation_name.clone(),
                operation_type: s.operation_type.clone(),
                status: if i == 0 {
                    OperationStatus::Queued
                } else {
                    OperationStatus::Pending
                },
                planned_setup_minutes: s.setup_minutes.0.clone(),
                planned_run_minutes: (&s.run_minutes.0 * &order.quantity_ordered.0)
                    .with_scale_round(2, RoundingMode::HalfUp),
            })
            .returning(OperationRow::as_returning())
            .get_result(conn)
            .await?;
        created += 1;
        op_of_step.insert(s.id, op.id);
        if first_op.is_none() {
            first_op = Some(op.id);
        }
    }
    let needs = step_needs(conn, &steps, &order.quantity_ordered.0).await?;
    if !needs.is_empty() {
        // The routing says what each step consumes: each line goes to its operation.
        for need in needs {
            let op = op_of_step.get(&need.step_id).copied();
            add_material(
                conn,
                order,
                op,
                None,
                need.component_id,
                need.quantity,
                need.unit,
                user,
            )
            .await?;
        }
    } else if let Some(bom_id) = order.bom_id {
        let boms = crate::operations::bom::model::by_ids(conn, &[bom_id]).await?;
        let tree = Tree::load(conn, boms).await?;
        for line in tree.lines(bom_id) {
            if line.is_cost_only || line.consume_stage != ConsumeStage::Production {
                continue;
            }
            let Some(part) = tree.part(line.component_id) else {
                continue;
            };
            let required = (tree.needed(line) * &order.quantity_ordered.0)
                .with_scale_round(QUANTITY_SCALE, RoundingMode::Up);
            add_material(
                conn,
                order,
                first_op,
                Some(line.id),
                line.component_id,
                required,
                part.unit.clone(),
                user,
            )
            .await?;
        }
    }
    Ok(created)
}

/// Releases an order: the transition check, the BOM snapshotted into the order's materials
/// (level one of the active structure, production-stage lines that leave stock, scrap factor
/// included), each reserved in the inventory ledger (never more than is available), and the
/// routing copied into operations (the first queued).
pub async fn release(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: Option<i64>,
) -> Result<ReleaseResult, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::Released)?;
    let first_release = order.released_at.is_none();
    let mut created = 0;
    if first_release {
        created = copy_routing(conn, &order, user).await? as i32;
    } else {
        // Back from hold: re-reserve what was given back.
        reserve_missing(conn, &order, user).await?;
    }
    let row = diesel::update(production_orders::table.find(id))
        .set((
            production_orders::status.eq(OrderStatus::Released),
            production_orders::released_at.eq(order
                .released_at
                .as_ref()
                .map(|t| t.0)
                .unwrap_or_else(now)),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(ReleaseResult {
        success: true,
        production_order_id: row.id,
        message: format!(
            "Production order {} released with {created} operations",
            row.code
        ),
        order: row,
        operations_created: created,
    })
}

pub(super) async fn reserve_missing(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    user: Option<i64>,
) -> Result<(), Stop> {
    for m in model::materials_of(conn, &[order.id]).await? {
        let open = &m.quantity_required.0 - &m.quantity_consumed.0 - &m.quantity_allocated.0;
        if open <= BigDecimal::zero() {
            continue;
        }
        let (reserved, _) = ledger::reserve(
            conn,
            &movement(
                order,
                m.component_id,
                m.location_id,
                MovementKind::Consumption,
                open,
                user,
            ),
        )
        .await?;
        if reserved > BigDecimal::zero() {
            diesel::update(production_order_materials::table.find(m.id))
                .set(
                    production_order_materials::quantity_allocated
                        .eq(&m.quantity_allocated.0 + reserved),
                )
                .execute(conn)
                .await?;
        }
    }
    Ok(())
}

/// Gives back every reservation of an order.
pub(super) async fn release_reservations(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    user: Option<i64>,
) -> Result<(), Stop> {
    for m in model::materials_of(conn, &[order.id]).await? {
        if m.quantity_allocated.0 <= BigDecimal::zero() {
            continue;
        }
        ledger::release(
            conn,
            &movement(
                order,
                m.component_id,
                m.location_id,
                MovementKind::Consumption,
                m.quantity_allocated.0.clone(),
                user,
            ),
        )
        .await?;
        diesel::update(production_order_materials::table.find(m.id))
            .set(production_order_materials::quantity_allocated.eq(BigDecimal::zero()))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// Adds consumed value (cents) to the order's WIP.
pub(super) async fn add_wip(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    value: &BigDecimal,
) -> Result<(), Stop> {
    diesel::update(production_orders::table.find(order_id))
        .set(
            production_orders::actual_material_cost
                .eq(production_orders::actual_material_cost + value),
        )
        .execute(conn)
        .await?;
    Ok(())
}

/// Consumes `quantity` of a material row from stock (from its reservation): the ledger row,
/// the journal entry 1210 WIP / inventory account, the row's consumed and allocated
/// quantities, the order's WIP value.
pub(super) async fn consume_from_stock(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    m: &MaterialRow,
    quantity: BigDecimal,
    user: Option<i64>,
) -> Result<(), Stop> {
    if quantity <= BigDecimal::zero() {
        return Ok(());
    }
    let mv = Movement {
        from_reservation: true,
        ..movement(
            order,
            m.component_id,
            m.location_id,
            MovementKind::Consumption,
            quantity.clone(),
            user,
        )
    };
    let posted = ledger::post(conn, &mv).await?;
    let value = -posted.value.clone();
    let draft = EntryDraft::new(
        today(),
        format!(
            "Material issue: {} {} {} to production order {}",
            quantity.normalized(),
            posted.item.unit,
            posted.item.sku,
            order.code
        ),
    )
    .source(SourceType::ProductionOrder, Some(order.id))
    .by(user)
    .transfer(
        SystemAccount::WorkInProgress,
        posted.account,
        &value,
        Some(posted.item.sku.clone()),
    );
    if let Some(entry) = books::post(conn, draft).await? {
        let ids: Vec<i64> = posted.transactions.iter().map(|t| t.id).collect();
        ledger::link_journal_entry(conn, &ids, entry.id).await?;
    }
    let allocated = (&m.quantity_allocated.0 - &quantity).max(BigDecimal::zero());
    diesel::update(production_order_materials::table.find(m.id))
        .set((
            production_order_materials::quantity_consumed.eq(&m.quantity_consumed.0 + &quantity),
            production_order_materials::quantity_allocated.eq(allocated),
        ))
        .execute(conn)
        .await?;
    add_wip(conn, order.id, &value).await
}

pub(super) async fn is_filament(conn: &mut AsyncPgConnection, item_id: i64) -> Result<bool, Stop> {
    let kind: ItemType = items::table
        .find(item_id)
        .select(items::item_type)
        .first(conn)
        .await?;
    Ok(kind == ItemType::Material)
}

/// Starts an order (released or on hold -> in_progress): the components that are not
/// filament are issued from their reservations (1210 WIP / 1200 Raw); filament is consumed
/// from spools as it is used (or backflushed at completion).
pub async fn start(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: Option<i64>,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::InProgress)?;
    let first = model::operations_of(conn, &[order.id])
        .await?
        .into_iter()
        .min_by_key(|o| (o.sequence, o.id))
        .map(|o| o.id);
    issue_materials(
        conn,
        &order,
        |m| m.operation_id.is_none() || m.operation_id == first,
        user,
    )
    .await?;
    Ok(diesel::update(production_orders::table.find(id))
        .set((
            production_orders::status.eq(OrderStatus::InProgress),
            production_orders::actual_start.eq(order
                .actual_start
                .as_ref()
                .map(|t| t.0)
                .unwrap_or_else(now)),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Issues the order's materials that `which` picks and that are not issued yet, from their
/// reservations (filament is left to its spools).
pub(super) async fn issue_materials(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    which: impl Fn(&MaterialRow) -> bool,
    user: Option<i64>,
) -> Result<(), Stop> {
    for m in model::materials_of(conn, &[order.id]).await? {
        if !which(&m)
            || m.quantity_consumed.0 > BigDecimal::zero()
            || is_filament(conn, m.component_id).await?
        {
            continue;
        }
        let q = m.quantity_required.0.clone();
        consume_from_stock(conn, order, &m, q, user).await?;
    }
    Ok(())
}

/// Puts an order on hold (its reservations stay).
pub async fn hold(
    conn: &mut AsyncPgConnection,
    id: i64,
    notes: Option<String>,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::OnHold)?;
    let row = set_status(conn, id, OrderStatus::OnHold).await?;
    append_notes(conn, row, notes).await
}

/// Accepts that an order in progress will fall short of its quantity (NEW's `short`): what
/// is made is what there will be. It then completes without `force_close_short`, or is
/// cancelled; nothing else moves it.
pub async fn accept_short(
    conn: &mut AsyncPgConnection,
    id: i64,
    notes: Option<String>,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::Short)?;
    let row = set_status(conn, id, OrderStatus::Short).await?;
    append_notes(conn, row, notes).await
}

pub(super) async fn append_notes(
    conn: &mut AsyncPgConnection,
    row: OrderRow,
    notes: Option<String>,
) -> Result<OrderRow, Stop> {
    let mut notes = notes;
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let Some(n) = notes else { return Ok(row) };
    let all = match &row.notes {
        Some(old) => format!("{old}\n{n}"),
        None => n,
    };
    Ok(diesel::update(production_orders::table.find(row.id))
        .set(production_orders::notes.eq(Some(all)))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Writes the order's WIP value off to 5020 Scrap expense.
pub(super) async fn write_off_wip(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    amount: &BigDecimal,
    why: &str,
    user: Option<i64>,
) -> Result<(), Stop> {
    if amount.is_zero() {
        return Ok(());
    }
    let draft = EntryDraft::new(today(), format!("{why}: production order {}", order.code))
        .source(SourceType::ProductionOrder, Some(order.id))
        .by(user)
        .transfer(
            SystemAccount::ScrapExpense,
            SystemAccount::WorkInProgress,
            amount,
            Some(order.code.clone()),
        );
    books::post(conn, draft).await?;
    Ok(())
}

/// The order's value still in WIP (cents).
pub(super) async fn wip_of(conn: &mut AsyncPgConnection, id: i64) -> Result<BigDecimal, Stop> {
    Ok(production_orders::table
        .find(id)
        .select(production_orders::actual_material_cost)
        .first::<BigDecimal>(conn)
        .await?)
}

/// Cancels an order: reservations released, anything already consumed written off from WIP
/// to 5020 Scrap.
pub async fn cancel(
    conn: &mut AsyncPgConnection,
    id: i64,
    notes: Option<String>,
    user: Option<i64>,
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::Cancelled)?;
    release_reservations(conn, &order, user).await?;
    let wip = wip_of(conn, id).await?;
    write_off_wip(conn, &order, &wip, "Cancelled", user).await?;
    let row = set_status(conn, id, OrderStatus::Cancelled).await?;
    append_notes(conn, row, notes).await
}
