//! Every rule of production: the status tables of CONTRACT 6.2 with their exact messages,
//! what creating, releasing, starting, completing, scrapping and inspecting an order does,
//! and how operations move. Postings go through the stock ledger
//! ([`crate::ledgers::inventory::ledger`]) and the general ledger ([`crate::ledgers::accounting::ledger`]) in
//! the caller's database transaction (DOMAIN "Postings"):
//!
//! - release: a `reservation` of each BOM component (no journal entry);
//! - start: a `consumption` of each component that is not filament, 1210 WIP / 1200 Raw;
//! - spool consumption: through [`crate::ledgers::spools::rules::consume`] (1210 WIP / 1200 Raw);
//! - completion: whatever was not consumed yet is backflushed from stock, then the finished
//!   goods are received at actual cost (the value in WIP for the order), 1220 FG / 1210 WIP,
//!   and the scrapped units' share goes to 5020 Scrap / 1210 WIP;
//! - scrap and cancel: the order's WIP value goes to 5020 Scrap / 1210 WIP and the
//!   reservations are released.

use std::str::FromStr;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{
    NOTES_MAX, QUANTITY_SCALE, default_location, optional_text, today,
};
use crate::master_data::catalog::model::ItemType;
use crate::operations::bom::model::ConsumeStage;
use crate::operations::bom::tree::Tree;
use crate::operations::printers::model::PrinterStatus;
use crate::operations::production::model::{
    self, MaterialRow, NewMaterial, NewOperation, NewOrder, OperationRow, OperationStatus,
    OrderRow, OrderSource, OrderStatus, OrderType, QcStatus,
};
use crate::platform::db::schema::{
    inventory_transactions, items, printers, production_order_materials,
    production_order_operations, production_order_spools, production_orders, scrap_reasons,
    serial_numbers,
};
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest QC note (CONTRACT 5.12).
pub const QC_NOTES_MAX: usize = 2000;
/// Longest assignee.
pub const ASSIGNEE_MAX: usize = 255;

use crate::platform::graphql::user_error::invalid;

fn not_allowed(message: impl Into<String>) -> Stop {
    Stop::Refused(vec![UserError::general(UserErrorCode::NotAllowed, message)])
}

fn now() -> DateTime<Utc> {
    Utc::now()
}

/// The statuses an order may move to from `from` (CONTRACT 6.2, with NEW's `short`).
pub fn allowed_transitions(from: OrderStatus) -> &'static [OrderStatus] {
    use OrderStatus::*;
    match from {
        Draft => &[Released, Cancelled],
        Released => &[InProgress, OnHold, Cancelled, Split],
        InProgress => &[OnHold, Complete, Cancelled, Split, Short],
        OnHold => &[Released, InProgress, Cancelled],
        Short => &[Complete, Cancelled],
        Complete | Cancelled | Split | Scrapped => &[],
    }
}

/// `Invalid production order status transition: 'X' -> 'Y'. Allowed: [...]` (or
/// `none (terminal state)`), or `None` when the move is allowed.
pub fn transition_error(from: OrderStatus, to: OrderStatus) -> Option<String> {
    let allowed = allowed_transitions(from);
    if allowed.contains(&to) {
        return None;
    }
    let list = crate::platform::graphql::flow::allowed_list(allowed);
    Some(format!(
        "Invalid production order status transition: '{from}' -> '{to}'. Allowed: {list}"
    ))
}

fn check_transition(from: OrderStatus, to: OrderStatus) -> Result<(), Stop> {
    match transition_error(from, to) {
        Some(message) => Err(not_allowed(message)),
        None => Ok(()),
    }
}

/// The statuses an operation may move to (CONTRACT 6.2).
pub fn operation_transitions(from: OperationStatus) -> &'static [OperationStatus] {
    use OperationStatus::*;
    match from {
        Pending => &[Queued, Skipped],
        Queued => &[Running, Skipped],
        Running => &[Complete, Queued],
        Complete | Skipped => &[],
    }
}

/// `Invalid operation status transition: 'X' -> 'Y'. Allowed: [...]`, or `None`.
pub fn operation_transition_error(from: OperationStatus, to: OperationStatus) -> Option<String> {
    let allowed = operation_transitions(from);
    if allowed.contains(&to) {
        return None;
    }
    let list = crate::platform::graphql::flow::allowed_list(allowed);
    Some(format!(
        "Invalid operation status transition: '{from}' -> '{to}'. Allowed: {list}"
    ))
}

/// QC may move from `from` to `to` (CONTRACT 6.2: pending -> passed, failed or waived;
/// failed -> pending). A failed order may also be re-inspected straight to passed or failed
/// (the unit was reworked and checked again).
pub fn qc_transition_allowed(from: QcStatus, to: QcStatus) -> bool {
    matches!(
        (from, to),
        (
            QcStatus::Pending,
            QcStatus::Passed | QcStatus::Failed | QcStatus::Waived
        ) | (
            QcStatus::Failed,
            QcStatus::Pending | QcStatus::Passed | QcStatus::Failed
        )
    )
}

/// Units left to make: none once the order is closed (complete, also short or with units
/// scrapped, cancelled, scrapped, split: what is still wanted is another order's).
pub fn quantity_remaining(order: &OrderRow) -> BigDecimal {
    if matches!(
        order.status,
        OrderStatus::Complete | OrderStatus::Cancelled | OrderStatus::Scrapped | OrderStatus::Split
    ) {
        return BigDecimal::zero();
    }
    let left = &order.quantity_ordered.0 - &order.quantity_completed.0;
    if left < BigDecimal::zero() {
        BigDecimal::zero()
    } else {
        left
    }
}

/// Completed share of the ordered quantity, in percent, one decimal.
pub fn completion_percent(order: &OrderRow) -> f64 {
    if order.quantity_ordered.0 <= BigDecimal::zero() {
        return 0.0;
    }
    let pct = (&order.quantity_completed.0 * BigDecimal::from(100) / &order.quantity_ordered.0)
        .with_scale_round(1, RoundingMode::HalfUp);
    pct.to_string().parse().unwrap_or(0.0)
}

/// Actual over planned minutes, in percent (planned / actual × 100: above 100 is faster than
/// planned), when the operation has actual minutes.
pub fn efficiency_percent(op: &OperationRow) -> Option<f64> {
    let planned = &op.planned_setup_minutes.0 + &op.planned_run_minutes.0;
    let actual = op
        .actual_setup_minutes
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default()
        + op.actual_run_minutes
            .as_ref()
            .map(|d| d.0.clone())
            .unwrap_or_default();
    if actual <= BigDecimal::zero() || planned <= BigDecimal::zero() {
        return None;
    }
    let pct = (planned * BigDecimal::from(100) / actual).with_scale_round(1, RoundingMode::HalfUp);
    pct.to_string().parse().ok()
}

/// A serial number `BLB-YYYYMMDD-NNNN` (CONTRACT 6.7) from a sequence value.
pub fn serial_number(date: NaiveDate, n: i64) -> String {
    format!(
        "BLB-{:04}{:02}{:02}-{n:04}",
        date.year(),
        date.month(),
        date.day()
    )
}

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

fn check_priority(errors: &mut Vec<UserError>, priority: Option<i32>) {
    if let Some(p) = priority
        && !(1..=5).contains(&p)
    {
        errors.push(invalid("priority", "Priority must be between 1 and 5"));
    }
}

fn check_positive(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal) {
    crate::ledgers::inventory::rules::check_quantity(errors, field, value);
    if *value <= BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than 0"));
    } else if *value >= 1_000_000_000i64 {
        errors.push(invalid(field, "The quantity is too large"));
    }
}

async fn next_code(conn: &mut AsyncPgConnection) -> Result<String, Stop> {
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
    let product: Option<(ItemType, bool)> = items::table
        .find(input.product_id)
        .select((items::item_type, items::active))
        .first(conn)
        .await
        .optional()?;
    match product {
        None => {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotFound,
                "Product not found",
            ));
        }
        Some((ItemType::Service, _)) => {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotAllowed,
                "A service cannot be produced",
            ));
        }
        Some(_) => {}
    }
    let bom = match input.bom_id {
        Some(id) => {
            let bom = crate::operations::bom::model::by_ids(conn, &[id]).await?;
            match bom.into_iter().next() {
                Some(b) if b.product_id == input.product_id => Some(b),
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
        None => crate::operations::bom::model::active_of(conn, &[input.product_id])
            .await?
            .into_iter()
            .next(),
    };
    let routing = match input.routing_id {
        Some(id) => match model::routings_by_ids(conn, &[id])
            .await?
            .into_iter()
            .next()
        {
            Some(r) if r.product_id == input.product_id => Some(r),
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
        None => model::active_routing(conn, input.product_id).await?,
    };
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
        Some(r) => {
            let steps = model::routing_operations_of(conn, &[r.id]).await?;
            let centers: Vec<i64> = steps.iter().map(|s| s.work_center_id).collect();
            let rates = model::work_centers_by_ids(conn, &centers).await?;
            let mut minutes = BigDecimal::zero();
            let mut labor = BigDecimal::zero();
            for s in &steps {
                let m = &s.setup_minutes.0 + &s.run_minutes.0 * &quantity;
                let rate = rates
                    .iter()
                    .find(|w| w.id == s.work_center_id)
                    .map(|w| w.hourly_rate.0.clone())
                    .unwrap_or_default();
                labor += &m * rate / BigDecimal::from(60);
                minutes += m;
            }
            (
                minutes.with_scale_round(2, RoundingMode::HalfUp),
                labor.with_scale_round(4, RoundingMode::HalfUp),
            )
        }
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

async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<OrderRow, Stop> {
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

fn movement(
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

async fn set_status(
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
        let steps = match order.routing_id {
            Some(r) => model::routing_operations_of(conn, &[r]).await?,
            None => Vec::new(),
        };
        let mut first_op = None;
        for (i, s) in steps.iter().enumerate() {
            let op: OperationRow = diesel::insert_into(production_order_operations::table)
                .values(NewOperation {
                    production_order_id: order.id,
                    routing_operation_id: Some(s.id),
                    work_center_id: s.work_center_id,
                    sequence: s.sequence,
                    operation_code: s.operation_code.clone(),
                    operation_name: s.operation_name.clone(),
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
            if first_op.is_none() {
                first_op = Some(op.id);
            }
        }
        if let Some(bom_id) = order.bom_id {
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
                let (reserved, _) = if required > BigDecimal::zero() {
                    ledger::reserve(
                        conn,
                        &movement(
                            &order,
                            line.component_id,
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
                        operation_id: first_op,
                        bom_line_id: Some(line.id),
                        component_id: line.component_id,
                        quantity_required: required,
                        quantity_allocated: reserved.with_scale(QUANTITY_SCALE),
                        unit: part.unit.clone(),
                        location_id: order.location_id,
                    })
                    .execute(conn)
                    .await?;
            }
        }
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

async fn reserve_missing(
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
async fn release_reservations(
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
async fn add_wip(
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
async fn consume_from_stock(
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

async fn is_filament(conn: &mut AsyncPgConnection, item_id: i64) -> Result<bool, Stop> {
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
    for m in model::materials_of(conn, &[order.id]).await? {
        if m.quantity_consumed.0 > BigDecimal::zero() || is_filament(conn, m.component_id).await? {
            continue;
        }
        let q = m.quantity_required.0.clone();
        consume_from_stock(conn, &order, &m, q, user).await?;
    }
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

async fn append_notes(
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
async fn write_off_wip(
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
async fn wip_of(conn: &mut AsyncPgConnection, id: i64) -> Result<BigDecimal, Stop> {
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

async fn check_scrap_reason(conn: &mut AsyncPgConnection, code: &str) -> Result<String, Stop> {
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
) -> Result<OrderRow, Stop> {
    let order = locked(conn, id).await?;
    check_transition(order.status, OrderStatus::Complete)?;
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
    let ordered = order.quantity_ordered.0.clone();
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
    let reason = match (&input.scrap_reason, scrapped > BigDecimal::zero()) {
        (Some(code), _) => Some(check_scrap_reason(conn, code).await?),
        _ => None,
    };
    if good.is_zero() && scrapped.is_zero() {
        return Err(not_allowed("Nothing was completed or scrapped"));
    }
    // Filament from named spools.
    for s in &input.spools_used {
        let Some(grams) = s.weight_consumed_g.as_ref().map(|w| w.0.clone()) else {
            continue;
        };
        consume_spool_locked(conn, &order, s.spool_id, grams, user).await?;
    }
    // Backflush what no spool or start consumed.
    for m in model::materials_of(conn, &[order.id]).await? {
        if m.quantity_consumed.0 > BigDecimal::zero() {
            continue;
        }
        let q = m.quantity_required.0.clone();
        consume_from_stock(conn, &order, &m, q, Some(user)).await?;
    }
    release_reservations(conn, &order, Some(user)).await?;
    let wip = wip_of(conn, id).await?;
    let total_units = &good + &scrapped;
    let scrap_share = if good.is_zero() {
        wip.clone()
    } else {
        books::cents(&(&wip * &scrapped / &total_units))
    };
    let fg_value = &wip - &scrap_share;
    let product = ledger::lock_item(conn, order.product_id).await?;
    let serials = product_tracks_serials(conn, order.product_id).await?;
    // What is left in WIP after the finished goods are booked at the value the stock ledger
    // gave them: the scrapped units' share (and the unit cost's rounding dust).
    let mut remainder = wip.clone();
    if good > BigDecimal::zero() {
        let unit_cost = (&fg_value / &good).with_scale_round(4, RoundingMode::HalfUp);
        let posted = ledger::post(
            conn,
            &movement(
                &order,
                order.product_id,
                order.location_id,
                MovementKind::Production { unit_cost },
                good.clone(),
                Some(user),
            ),
        )
        .await?;
        remainder -= &posted.value;
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
        if serials {
            create_serials(conn, &order, &good).await?;
        }
    }
    if !remainder.is_zero() {
        let (account, what) = if scrapped > BigDecimal::zero() {
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
                reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ),
        )
        .source(SourceType::ProductionOrder, Some(order.id))
        .by(Some(user))
        .transfer(
            account,
            SystemAccount::WorkInProgress,
            &remainder,
            Some(product.sku.clone()),
        );
        books::post(conn, draft).await?;
    }
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
            production_orders::quantity_scrapped.eq(scrapped.with_scale(QUANTITY_SCALE)),
            production_orders::qc_status.eq(QcStatus::Pending),
            production_orders::scrap_reason.eq(reason.or(order.scrap_reason.clone())),
            production_orders::actual_end.eq(Some(now())),
            production_orders::completed_at.eq(Some(now())),
            production_orders::updated_at.eq(now()),
        ))
        .returning(OrderRow::as_returning())
        .get_result(conn)
        .await?;
    append_notes(conn, row, input.notes).await
}

async fn consume_spool_locked(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    spool_id: i64,
    grams: BigDecimal,
    user: i64,
) -> Result<(), Stop> {
    consume_spool(conn, order.id, spool_id, grams, user).await?;
    Ok(())
}

async fn product_tracks_serials(conn: &mut AsyncPgConnection, id: i64) -> Result<bool, Stop> {
    Ok(items::table
        .find(id)
        .select(items::track_serials)
        .first(conn)
        .await?)
}

async fn create_serials(
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
    let to = match result.trim() {
        "passed" => QcStatus::Passed,
        "failed" => QcStatus::Failed,
        "waived" => QcStatus::Waived,
        "pending" => QcStatus::Pending,
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

/// Called, in the QC transaction, when every production order of a sales order has passed
/// QC: the sales area reserves the finished goods for the order and moves it
/// `in_production` -> `ready_to_ship`; answers `(moved, new status)`.
pub type OnSalesOrderPassedQc =
    for<'c> fn(
        &'c mut AsyncPgConnection,
        i64,
    ) -> futures_util::future::BoxFuture<'c, Result<(bool, Option<String>), Stop>>;

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
        let mut new = create(
            conn,
            ProductionOrderCreateInput {
                product_id: order.product_id,
                quantity_ordered: Decimal(quantity),
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
            Some(user),
        )
        .await?;
        new = diesel::update(production_orders::table.find(new.id))
            .set((
                production_orders::remake_of_id.eq(Some(order.id)),
                production_orders::remake_reason.eq(Some(reason)),
            ))
            .returning(OrderRow::as_returning())
            .get_result(conn)
            .await?;
        Some(new)
    } else {
        None
    };
    Ok((row, remake))
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

async fn locked_operation(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
) -> Result<OperationRow, Stop> {
    production_order_operations::table
        .find(op_id)
        .filter(production_order_operations::production_order_id.eq(order_id))
        .select(OperationRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| {
            Stop::refuse(
                "operationId",
                UserErrorCode::NotFound,
                "Operation not found",
            )
        })
}

fn check_op_transition(from: OperationStatus, to: OperationStatus) -> Result<(), Stop> {
    match operation_transition_error(from, to) {
        Some(m) => Err(not_allowed(m)),
        None => Ok(()),
    }
}

const EARLIER_UNFINISHED: &str = "Earlier operations are not finished";

/// Materials still to consume that are neither reserved nor available: for one operation
/// (its own lines and those tied to no operation) or, with `None`, for the whole order.
async fn missing_materials(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    operation: Option<i64>,
) -> Result<Vec<String>, Stop> {
    let mut issues = Vec::new();
    for m in model::materials_of(conn, &[order.id]).await? {
        if let (Some(only), Some(of)) = (operation, m.operation_id)
            && only != of
        {
            continue;
        }
        let open = &m.quantity_required.0 - &m.quantity_consumed.0;
        if open <= BigDecimal::zero() {
            continue;
        }
        let available = ledger::balance(conn, m.component_id, m.location_id)
            .await?
            .map(|b| b.available_quantity.0)
            .unwrap_or_default();
        if &m.quantity_allocated.0 + available.max(BigDecimal::zero()) < open {
            let sku: String = items::table
                .find(m.component_id)
                .select(items::sku)
                .first(conn)
                .await?;
            issues.push(format!(
                "Missing material: {sku} needs {} {}, {} reserved",
                open.normalized(),
                m.unit,
                m.quantity_allocated.0.normalized()
            ));
        }
    }
    Ok(issues)
}

/// Why an order cannot go on now (empty: it can): its status, then what blocks its next
/// queued operation (earlier steps, material, printer), or, without operations, its material.
pub async fn order_blocking_issues(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
) -> Result<Vec<String>, Stop> {
    let next = model::operations_of(conn, &[order.id])
        .await?
        .into_iter()
        .filter(|o| o.status == OperationStatus::Queued)
        .min_by_key(|o| o.sequence);
    let mut issues = match &next {
        Some(op) => blocking_issues(conn, order, op, None).await?,
        None => {
            let mut issues = Vec::new();
            if !matches!(
                order.status,
                OrderStatus::InProgress | OrderStatus::Released
            ) {
                issues.push(format!("Production order is {}", order.status));
            }
            issues.extend(missing_materials(conn, order, None).await?);
            issues
        }
    };
    // An earlier step still running is progress, not a block, for the order as a whole.
    issues.retain(|i| i != EARLIER_UNFINISHED);
    issues.dedup();
    Ok(issues)
}

/// Why an operation cannot start now (empty: it can).
pub async fn blocking_issues(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    op: &OperationRow,
    printer_id: Option<i64>,
) -> Result<Vec<String>, Stop> {
    let mut issues = Vec::new();
    if !matches!(
        order.status,
        OrderStatus::InProgress | OrderStatus::Released
    ) {
        issues.push(format!("Production order is {}", order.status));
    }
    if op.status != OperationStatus::Queued {
        issues.push(format!("Operation is {}, not queued", op.status));
    }
    let earlier: i64 = production_order_operations::table
        .filter(production_order_operations::production_order_id.eq(order.id))
        .filter(production_order_operations::sequence.lt(op.sequence))
        .filter(
            production_order_operations::status
                .ne_all([OperationStatus::Complete, OperationStatus::Skipped]),
        )
        .count()
        .get_result(conn)
        .await?;
    if earlier > 0 {
        issues.push(EARLIER_UNFINISHED.into());
    }
    issues.extend(missing_materials(conn, order, Some(op.id)).await?);
    if let Some(p) = printer_id.or(op.printer_id) {
        let printer: Option<(String, PrinterStatus, bool)> = printers::table
            .find(p)
            .select((printers::code, printers::status, printers::active))
            .first(conn)
            .await
            .optional()?;
        match printer {
            None => issues.push("Printer not found".into()),
            Some((code, status, active)) => {
                if !active {
                    issues.push(format!("Printer {code} is inactive"));
                }
                if matches!(
                    status,
                    PrinterStatus::Maintenance | PrinterStatus::Error | PrinterStatus::Offline
                ) {
                    issues.push(format!("Printer {code} is in {status}"));
                }
                let busy: i64 = production_order_operations::table
                    .filter(production_order_operations::printer_id.eq(p))
                    .filter(production_order_operations::status.eq(OperationStatus::Running))
                    .filter(production_order_operations::id.ne(op.id))
                    .count()
                    .get_result(conn)
                    .await?;
                if busy > 0 || status == PrinterStatus::Printing {
                    issues.push(format!("Printer {code} is busy"));
                }
            }
        }
    }
    Ok(issues)
}

/// Starting an operation.
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationStartInput {
    /// The printer to run it on.
    pub printer_id: Option<i64>,
    /// The operator.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::ASSIGNEE_MAX))]
    pub operator_name: Option<String>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// The Bambu Lab printer's task id of the print job sent for it.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::ASSIGNEE_MAX))]
    pub bambu_task_id: Option<String>,
    /// The plate of a multi-plate Bambu Lab project (1-64).
    pub bambu_plate_index: Option<i32>,
}

/// Starts a queued operation: the order starts too when it is only released; the printer, if
/// any, goes to `printing`. Refused with the blocking issues when it cannot start.
pub async fn operation_start(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut input: OperationStartInput,
    user: Option<i64>,
) -> Result<(OperationRow, Option<i64>), Stop> {
    let mut order = locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    check_op_transition(op.status, OperationStatus::Running)?;
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "operatorName",
        &mut input.operator_name,
        ASSIGNEE_MAX,
    );
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(
        &mut errors,
        "bambuTaskId",
        &mut input.bambu_task_id,
        ASSIGNEE_MAX,
    );
    if let Some(plate) = input.bambu_plate_index
        && !(1..=64).contains(&plate)
    {
        errors.push(invalid(
            "bambuPlateIndex",
            "Plate index must be between 1 and 64",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let issues = blocking_issues(conn, &order, &op, input.printer_id).await?;
    if let Some(first) = <[_]>::first(&issues) {
        return Err(not_allowed(format!("Cannot start operation: {first}")));
    }
    if order.status == OrderStatus::Released {
        order = start(conn, order_id, user).await?;
    }
    let _ = order;
    let printer = input.printer_id.or(op.printer_id);
    if let Some(p) = printer {
        diesel::update(printers::table.find(p))
            .set((
                printers::status.eq(PrinterStatus::Printing),
                printers::last_seen.eq(Some(now())),
            ))
            .execute(conn)
            .await?;
    }
    let row = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::status.eq(OperationStatus::Running),
            production_order_operations::printer_id.eq(printer),
            production_order_operations::actual_start.eq(Some(now())),
            input
                .operator_name
                .map(|o| production_order_operations::operator_name.eq(Some(o))),
            input
                .notes
                .map(|n| production_order_operations::notes.eq(Some(n))),
            input
                .bambu_task_id
                .map(|t| production_order_operations::bambu_task_id.eq(Some(t))),
            input
                .bambu_plate_index
                .map(|p| production_order_operations::bambu_plate_index.eq(Some(p))),
        ))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    Ok((row, printer))
}

/// Completing an operation.
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationCompleteInput {
    /// Good units.
    pub quantity_completed: Option<Decimal>,
    /// Scrapped units.
    pub quantity_scrapped: Option<Decimal>,
    /// Actual setup minutes.
    pub actual_setup_minutes: Option<Decimal>,
    /// Actual run minutes (default: the time since it started).
    pub actual_run_minutes: Option<Decimal>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
}

/// Completes a running operation: actual minutes, quantities, the printer back to `idle`, and
/// the next pending operation queued.
pub async fn operation_complete(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut input: OperationCompleteInput,
) -> Result<(OperationRow, Option<i64>), Stop> {
    let order = locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    check_op_transition(op.status, OperationStatus::Complete)?;
    let mut errors = Vec::new();
    for (field, v) in [
        ("quantityCompleted", &input.quantity_completed),
        ("quantityScrapped", &input.quantity_scrapped),
        ("actualSetupMinutes", &input.actual_setup_minutes),
        ("actualRunMinutes", &input.actual_run_minutes),
    ] {
        if let Some(v) = v
            && v.0 < BigDecimal::zero()
        {
            errors.push(invalid(field, "Input should be greater than or equal to 0"));
        }
    }
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let run = input.actual_run_minutes.map(|d| d.0).or_else(|| {
        op.actual_start.as_ref().map(|s| {
            let secs = (Utc::now() - s.0).num_seconds().max(0);
            (BigDecimal::from(secs) / BigDecimal::from(60))
                .with_scale_round(2, RoundingMode::HalfUp)
        })
    });
    let good = input
        .quantity_completed
        .map(|d| d.0)
        .unwrap_or_else(|| order.quantity_ordered.0.clone());
    let row = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::status.eq(OperationStatus::Complete),
            production_order_operations::actual_end.eq(Some(now())),
            production_order_operations::actual_run_minutes.eq(run),
            input
                .actual_setup_minutes
                .map(|s| production_order_operations::actual_setup_minutes.eq(Some(s.0))),
            production_order_operations::quantity_completed.eq(good),
            production_order_operations::quantity_scrapped
                .eq(input.quantity_scrapped.map(|d| d.0).unwrap_or_default()),
            input
                .notes
                .map(|n| production_order_operations::notes.eq(Some(n))),
        ))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    if let Some(p) = row.printer_id {
        diesel::update(printers::table.find(p))
            .set((
                printers::status.eq(PrinterStatus::Idle),
                printers::last_seen.eq(Some(now())),
            ))
            .execute(conn)
            .await?;
    }
    queue_next(conn, order_id).await?;
    let printer = row_printer(&op, &row);
    Ok((row, printer))
}

fn row_printer(before: &OperationRow, after: &OperationRow) -> Option<i64> {
    after.printer_id.or(before.printer_id)
}

async fn queue_next(conn: &mut AsyncPgConnection, order_id: i64) -> Result<(), Stop> {
    let ops = model::operations_of(conn, &[order_id]).await?;
    let active = ops
        .iter()
        .any(|o| matches!(o.status, OperationStatus::Queued | OperationStatus::Running));
    if active {
        return Ok(());
    }
    if let Some(next) = ops.iter().find(|o| o.status == OperationStatus::Pending) {
        diesel::update(production_order_operations::table.find(next.id))
            .set(production_order_operations::status.eq(OperationStatus::Queued))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// Skips a pending or queued operation and queues the next one.
pub async fn operation_skip(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut notes: Option<String>,
) -> Result<OperationRow, Stop> {
    locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    check_op_transition(op.status, OperationStatus::Skipped)?;
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let row = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::status.eq(OperationStatus::Skipped),
            notes.map(|n| production_order_operations::notes.eq(Some(n))),
        ))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    queue_next(conn, order_id).await?;
    Ok(row)
}

/// Scheduling an operation or assigning its printer.
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationScheduleInput {
    /// Planned start.
    pub scheduled_start: Option<Timestamp>,
    /// Planned end.
    pub scheduled_end: Option<Timestamp>,
    /// The printer (resource).
    pub printer_id: Option<i64>,
}

/// Plans an operation (times and printer); a finished operation refuses.
pub async fn operation_schedule(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    input: OperationScheduleInput,
) -> Result<OperationRow, Stop> {
    locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    if matches!(
        op.status,
        OperationStatus::Complete | OperationStatus::Skipped
    ) {
        return Err(not_allowed(format!(
            "Cannot schedule a {} operation",
            op.status
        )));
    }
    if let (Some(s), Some(e)) = (&input.scheduled_start, &input.scheduled_end)
        && e.0 < s.0
    {
        return Err(Stop::refuse(
            "scheduledEnd",
            UserErrorCode::Invalid,
            "The end cannot be before the start",
        ));
    }
    if let Some(p) = input.printer_id {
        let exists: Option<i64> = printers::table
            .find(p)
            .select(printers::id)
            .first(conn)
            .await
            .optional()?;
        if exists.is_none() {
            return Err(Stop::refuse(
                "printerId",
                UserErrorCode::NotFound,
                "Printer not found",
            ));
        }
    }
    Ok(
        diesel::update(production_order_operations::table.find(op_id))
            .set((
                input
                    .scheduled_start
                    .map(|s| production_order_operations::scheduled_start.eq(Some(s.0))),
                input
                    .scheduled_end
                    .map(|s| production_order_operations::scheduled_end.eq(Some(s.0))),
                input
                    .printer_id
                    .map(|p| production_order_operations::printer_id.eq(Some(p))),
                production_order_operations::updated_at.eq(now()),
            ))
            .returning(OperationRow::as_returning())
            .get_result(conn)
            .await?,
    )
}

/// A decimal from text, for tests and defaults.
pub fn dec(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_follow_the_contract() {
        assert!(transition_error(OrderStatus::Draft, OrderStatus::Released).is_none());
        assert_eq!(
            transition_error(OrderStatus::Draft, OrderStatus::Complete).unwrap(),
            "Invalid production order status transition: 'draft' -> 'complete'. Allowed: ['released', 'cancelled']"
        );
        assert_eq!(
            transition_error(OrderStatus::Complete, OrderStatus::Released).unwrap(),
            "Invalid production order status transition: 'complete' -> 'released'. Allowed: none (terminal state)"
        );
        assert!(
            operation_transition_error(OperationStatus::Running, OperationStatus::Queued).is_none()
        );
        assert!(
            operation_transition_error(OperationStatus::Pending, OperationStatus::Running)
                .is_some()
        );
        assert!(qc_transition_allowed(QcStatus::Failed, QcStatus::Pending));
        assert!(!qc_transition_allowed(QcStatus::Passed, QcStatus::Failed));
        assert!(qc_transition_allowed(QcStatus::Failed, QcStatus::Passed));
        assert!(!qc_transition_allowed(QcStatus::Failed, QcStatus::Waived));
        assert_eq!(
            serial_number(NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(), 7),
            "BLB-20261124-0007"
        );
    }
}

/// Longest code of a work center or routing.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 255;

fn check_code_name(
    errors: &mut Vec<UserError>,
    code: &mut Option<String>,
    name: &mut Option<String>,
    creating: bool,
) {
    crate::platform::db::text::required(errors, "code", code, creating, CODE_MAX);
    if let Some(c) = code.as_mut() {
        *c = c.to_uppercase();
    }
    crate::platform::db::text::required(errors, "name", name, creating, NAME_MAX);
}

/// Creates (`id` is `None`) or changes a work center; a taken code is refused.
pub async fn save_work_center(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut form: model::WorkCenterForm,
) -> Result<model::WorkCenterRow, Stop> {
    use crate::platform::db::schema::work_centers;
    let mut errors = Vec::new();
    check_code_name(&mut errors, &mut form.code, &mut form.name, id.is_none());
    if let Some(rate) = &form.hourly_rate
        && rate.0 < BigDecimal::zero()
    {
        errors.push(invalid(
            "hourlyRate",
            "Input should be greater than or equal to 0",
        ));
    }
    if let Some(Some(d)) = form.description.as_mut() {
        let mut text = Some(d.clone());
        optional_text(&mut errors, "description", &mut text, NOTES_MAX);
        *d = text.unwrap_or_default();
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(code) = &form.code {
        let mut q = work_centers::table
            .filter(crate::platform::db::text::code_matches(
                work_centers::code,
                code,
            ))
            .select(work_centers::id)
            .into_boxed();
        if let Some(id) = id {
            q = q.filter(work_centers::id.ne(id));
        }
        if q.first::<i64>(conn).await.optional()?.is_some() {
            return Err(Stop::refuse(
                "code",
                UserErrorCode::Taken,
                format!("Work center code '{code}' already exists"),
            ));
        }
    }
    let row = match id {
        None => {
            diesel::insert_into(work_centers::table)
                .values(&form)
                .returning(model::WorkCenterRow::as_returning())
                .get_result(conn)
                .await?
        }
        Some(id) => {
            let r = diesel::update(work_centers::table.find(id))
                .set(&form)
                .returning(model::WorkCenterRow::as_returning())
                .get_result(conn)
                .await;
            match r {
                Err(diesel::result::Error::NotFound) => {
                    return Err(Stop::refuse(
                        "id",
                        UserErrorCode::NotFound,
                        "Work center not found",
                    ));
                }
                Err(e) if crate::platform::db::is_empty_update(&e) => {
                    work_centers::table
                        .find(id)
                        .select(model::WorkCenterRow::as_select())
                        .first(conn)
                        .await?
                }
                other => other?,
            }
        }
    };
    Ok(row)
}

/// One step of a routing being saved.
#[derive(Debug, Clone, InputObject)]
pub struct RoutingStepInput {
    /// Order (default: 10, 20, 30... in list order).
    pub sequence: Option<i32>,
    /// Short code, e.g. `PRINT`.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Where it is done.
    pub work_center_id: i64,
    /// Setup minutes per order.
    pub setup_minutes: Option<Decimal>,
    /// Run minutes per unit.
    pub run_minutes: Option<Decimal>,
    /// Notes.
    pub notes: Option<String>,
}

/// A routing being saved: the header and, when given, the whole list of steps.
#[derive(Debug, Clone, InputObject)]
pub struct RoutingInput {
    /// The product (required on create; fixed after).
    pub product_id: Option<i64>,
    /// Code (default `RTG-<product SKU>-V<version>`).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::CODE_MAX))]
    pub code: Option<String>,
    /// Name (default the product's name).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::NAME_MAX))]
    pub name: Option<String>,
    /// Active (default true on create; activating deactivates the product's others).
    pub active: Option<bool>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// The steps, replacing the current ones when given.
    pub operations: Option<Vec<RoutingStepInput>>,
}

/// Creates (`id` is `None`) or changes a routing and its steps.
pub async fn save_routing(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut input: RoutingInput,
) -> Result<model::RoutingRow, Stop> {
    use crate::platform::db::schema::{routing_operations, routings, work_centers};
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(&mut errors, "code", &mut input.code, CODE_MAX);
    optional_text(&mut errors, "name", &mut input.name, NAME_MAX);
    let steps = input.operations.take();
    if let Some(steps) = &steps {
        for (i, s) in steps.iter().enumerate() {
            let f = |n: &str| format!("operations.{i}.{n}");
            if s.operation_code.trim().is_empty() || s.operation_code.chars().count() > CODE_MAX {
                errors.push(invalid(
                    &f("operationCode"),
                    "An operation code of 1 to 50 characters is required",
                ));
            }
            if s.operation_name.trim().is_empty() || s.operation_name.chars().count() > NAME_MAX {
                errors.push(invalid(
                    &f("operationName"),
                    "An operation name of 1 to 255 characters is required",
                ));
            }
            for (n, v) in [
                ("setupMinutes", &s.setup_minutes),
                ("runMinutes", &s.run_minutes),
            ] {
                if let Some(v) = v
                    && v.0 < BigDecimal::zero()
                {
                    errors.push(invalid(&f(n), "Input should be greater than or equal to 0"));
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(steps) = &steps {
        let ids: Vec<i64> = steps.iter().map(|s| s.work_center_id).collect();
        let found: Vec<i64> = work_centers::table
            .filter(work_centers::id.eq_any(&ids))
            .select(work_centers::id)
            .load(conn)
            .await?;
        for (i, s) in steps.iter().enumerate() {
            if !found.contains(&s.work_center_id) {
                errors.push(UserError::new(
                    format!("operations.{i}.workCenterId"),
                    UserErrorCode::NotFound,
                    "Work center not found",
                ));
            }
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let routing = match id {
        None => {
            let Some(product_id) = input.product_id else {
                return Err(Stop::refuse(
                    "productId",
                    UserErrorCode::Invalid,
                    "Field required",
                ));
            };
            let product: Option<(String, String)> = items::table
                .find(product_id)
                .select((items::sku, items::name))
                .for_update()
                .first(conn)
                .await
                .optional()?;
            let Some((sku, name)) = product else {
                return Err(Stop::refuse(
                    "productId",
                    UserErrorCode::NotFound,
                    "Product not found",
                ));
            };
            let version: i32 = routings::table
                .filter(routings::product_id.eq(product_id))
                .select(diesel::dsl::max(routings::version))
                .first::<Option<i32>>(conn)
                .await?
                .unwrap_or(0)
                + 1;
            let active = input.active.unwrap_or(true);
            if active {
                diesel::update(routings::table.filter(routings::product_id.eq(product_id)))
                    .set(routings::active.eq(false))
                    .execute(conn)
                    .await?;
            }
            diesel::insert_into(routings::table)
                .values((
                    routings::product_id.eq(product_id),
                    routings::code.eq(input
                        .code
                        .map(|c| c.to_uppercase())
                        .unwrap_or_else(|| format!("RTG-{}-V{version}", sku.to_uppercase()))),
                    routings::name.eq(input.name.unwrap_or(name)),
                    routings::version.eq(version),
                    routings::active.eq(active),
                    routings::notes.eq(input.notes),
                ))
                .returning(model::RoutingRow::as_returning())
                .get_result(conn)
                .await?
        }
        Some(id) => {
            let existing: Option<model::RoutingRow> = routings::table
                .find(id)
                .select(model::RoutingRow::as_select())
                .for_update()
                .first(conn)
                .await
                .optional()?;
            let Some(existing) = existing else {
                return Err(Stop::refuse(
                    "id",
                    UserErrorCode::NotFound,
                    "Routing not found",
                ));
            };
            if input.active == Some(true) {
                diesel::update(
                    routings::table
                        .filter(routings::product_id.eq(existing.product_id))
                        .filter(routings::id.ne(id)),
                )
                .set(routings::active.eq(false))
                .execute(conn)
                .await?;
            }
            diesel::update(routings::table.find(id))
                .set((
                    input.code.map(|c| routings::code.eq(c.to_uppercase())),
                    input.name.map(|n| routings::name.eq(n)),
                    input.active.map(|a| routings::active.eq(a)),
                    input.notes.map(|n| routings::notes.eq(Some(n))),
                    routings::updated_at.eq(now()),
                ))
                .returning(model::RoutingRow::as_returning())
                .get_result(conn)
                .await?
        }
    };
    if let Some(steps) = steps {
        diesel::delete(
            routing_operations::table.filter(routing_operations::routing_id.eq(routing.id)),
        )
        .execute(conn)
        .await?;
        for (i, s) in steps.into_iter().enumerate() {
            diesel::insert_into(routing_operations::table)
                .values((
                    routing_operations::routing_id.eq(routing.id),
                    routing_operations::sequence.eq(s.sequence.unwrap_or((i as i32 + 1) * 10)),
                    routing_operations::operation_code.eq(s.operation_code.trim().to_uppercase()),
                    routing_operations::operation_name.eq(s.operation_name.trim().to_string()),
                    routing_operations::work_center_id.eq(s.work_center_id),
                    routing_operations::setup_minutes
                        .eq(s.setup_minutes.map(|d| d.0).unwrap_or_default()),
                    routing_operations::run_minutes
                        .eq(s.run_minutes.map(|d| d.0).unwrap_or_default()),
                    routing_operations::notes.eq(s.notes),
                ))
                .execute(conn)
                .await?;
        }
    }
    Ok(routing)
}
