//! What a routing step consumes: a component per unit made, per run (a plate of
//! `units_per_cycle`) or once per order, with a scrap allowance; cost-only lines are costed
//! but never issued, optional lines may be left out, variable lines are swapped for a
//! variant's material. A component appears once per step. Releasing an order copies the
//! lines of each step onto the order's matching operation, and the material is issued when
//! that operation starts.

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::{NOTES_MAX, optional_text};
use crate::operations::production::routing::steps;
use crate::platform::db::schema::{items, routing_operation_materials};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserErrorCode, invalid};

/// Longest unit code.
pub const UNIT_MAX: usize = 20;

crate::text_enum! {
    /// What a step material's quantity is counted per.
    pub enum QuantityPer {
        /// Per unit made.
        Unit,
        /// Per run of the step (a plate of `units_per_cycle` units).
        Batch,
        /// Once per production order.
        Order,
    }
}

/// A material a routing step consumes.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = routing_operation_materials, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "RoutingOperationMaterial", complex)]
pub struct StepMaterialRow {
    /// Id.
    pub id: i64,
    /// The step.
    pub routing_operation_id: i64,
    /// The component item.
    pub component_id: i64,
    /// Quantity per `quantityPer`, in `unit`.
    pub quantity: Decimal,
    /// What the quantity is counted per.
    #[graphql(skip)]
    pub quantity_per: String,
    /// Unit of the quantity (upper case, e.g. `G`, `EA`).
    pub unit: String,
    /// Scrap allowance in percent.
    pub scrap_factor: Decimal,
    /// Costed but never issued (machine wear, electricity).
    pub is_cost_only: bool,
    /// May be left out.
    pub is_optional: bool,
    /// Swapped for a variant's material.
    pub is_variable: bool,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl StepMaterialRow {
    /// What the quantity is counted per.
    pub fn per(&self) -> QuantityPer {
        self.quantity_per.parse().unwrap_or(QuantityPer::Unit)
    }

    /// Quantity with the scrap allowance, per `quantityPer`.
    pub fn gross(&self) -> BigDecimal {
        &self.quantity.0 * (BigDecimal::from(1) + &self.scrap_factor.0 / BigDecimal::from(100))
    }

    /// What an order of `quantity` units needs of it, with scrap, for a step making
    /// `units_per_cycle` per run (rounded up to 4 places).
    pub fn needed_for(&self, quantity: &BigDecimal, units_per_cycle: i32) -> BigDecimal {
        let runs = || {
            let per = BigDecimal::from(units_per_cycle.max(1));
            let whole = (quantity / &per).with_scale_round(0, RoundingMode::Ceiling);
            whole.max(BigDecimal::from(1))
        };
        let factor = match self.per() {
            QuantityPer::Unit => quantity.clone(),
            QuantityPer::Batch => runs(),
            QuantityPer::Order => BigDecimal::from(1),
        };
        (self.gross() * factor).with_scale_round(4, RoundingMode::Up)
    }
}

/// A material line being added to a step, or changes to one (absent fields kept).
#[derive(Debug, Clone, Default, InputObject)]
pub struct StepMaterialInput {
    /// The component item (required when adding).
    pub component_id: Option<i64>,
    /// Quantity, more than 0 (required when adding).
    pub quantity: Option<Decimal>,
    /// What the quantity is counted per (default `unit`).
    pub quantity_per: Option<QuantityPer>,
    /// Unit of the quantity (default the component's stocking unit).
    #[graphql(directive = length::apply(UNIT_MAX))]
    pub unit: Option<String>,
    /// Scrap allowance in percent, 0-100 (default 0).
    pub scrap_factor: Option<Decimal>,
    /// Costed but never issued.
    pub is_cost_only: Option<bool>,
    /// May be left out.
    pub is_optional: Option<bool>,
    /// Swapped for a variant's material.
    pub is_variable: Option<bool>,
    /// Notes.
    #[graphql(directive = length::apply(NOTES_MAX))]
    pub notes: Option<String>,
}

/// The materials of these steps, by step then id.
pub async fn of_steps(
    conn: &mut AsyncPgConnection,
    step_ids: &[i64],
) -> AppResult<Vec<StepMaterialRow>> {
    Ok(routing_operation_materials::table
        .filter(routing_operation_materials::routing_operation_id.eq_any(step_ids))
        .order((
            routing_operation_materials::routing_operation_id,
            routing_operation_materials::id,
        ))
        .select(StepMaterialRow::as_select())
        .load(conn)
        .await?)
}

crate::grouped_loader!(
    /// The materials of routing steps.
    StepMaterialsLoader, StepMaterialRow, of_steps, routing_operation_id
);

fn duplicate() -> Stop {
    Stop::Failed(AppError::conflict(
        "This material is already on this operation; change the quantity of that line instead",
    ))
}

fn checked(input: &mut StepMaterialInput, adding: bool) -> Result<(), Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(&mut errors, "unit", &mut input.unit, UNIT_MAX);
    if let Some(u) = input.unit.as_mut() {
        *u = u.to_uppercase();
    }
    match &input.quantity {
        Some(q) if q.0 <= BigDecimal::zero() => {
            errors.push(invalid("quantity", "Input should be greater than 0"))
        }
        None if adding => errors.push(invalid("quantity", "Field required")),
        _ => {}
    }
    if adding && input.component_id.is_none() {
        errors.push(invalid("componentId", "Field required"));
    }
    if let Some(p) = &input.scrap_factor
        && (p.0 < BigDecimal::zero() || p.0 > 100)
    {
        errors.push(invalid("scrapFactor", "Input should be between 0 and 100"));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Stop::Refused(errors))
    }
}

/// The stocking unit of a component, or a refusal when it does not exist.
async fn component_unit(conn: &mut AsyncPgConnection, id: i64) -> Result<String, Stop> {
    items::table
        .find(id)
        .select(items::unit)
        .first::<String>(conn)
        .await
        .optional()?
        .ok_or_else(|| {
            Stop::refuse(
                "componentId",
                UserErrorCode::NotFound,
                "Component product not found",
            )
        })
}

/// Whether the component is already on the step (another line than `except`).
async fn already_on(
    conn: &mut AsyncPgConnection,
    step: i64,
    component: i64,
    except: Option<i64>,
) -> AppResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        routing_operation_materials::table
            .filter(routing_operation_materials::routing_operation_id.eq(step))
            .filter(routing_operation_materials::component_id.eq(component))
            .filter(routing_operation_materials::id.ne(except.unwrap_or(0))),
    ))
    .get_result(conn)
    .await?)
}

/// Adds a material line to a step (the step locked, so two adds of one component cannot
/// both pass the duplicate check).
pub async fn add(
    conn: &mut AsyncPgConnection,
    step_id: i64,
    mut input: StepMaterialInput,
) -> Result<StepMaterialRow, Stop> {
    checked(&mut input, true)?;
    steps::locked_step(conn, step_id).await?;
    let component = input.component_id.unwrap_or_default();
    let unit = component_unit(conn, component).await?;
    if already_on(conn, step_id, component, None).await? {
        return Err(duplicate());
    }
    Ok(diesel::insert_into(routing_operation_materials::table)
        .values((
            routing_operation_materials::routing_operation_id.eq(step_id),
            routing_operation_materials::component_id.eq(component),
            routing_operation_materials::quantity
                .eq(input.quantity.map(|q| q.0).unwrap_or_default()),
            routing_operation_materials::quantity_per
                .eq(input.quantity_per.unwrap_or(QuantityPer::Unit).to_string()),
            routing_operation_materials::unit.eq(input.unit.unwrap_or(unit.to_uppercase())),
            routing_operation_materials::scrap_factor
                .eq(input.scrap_factor.map(|s| s.0).unwrap_or_default()),
            routing_operation_materials::is_cost_only.eq(input.is_cost_only.unwrap_or(false)),
            routing_operation_materials::is_optional.eq(input.is_optional.unwrap_or(false)),
            routing_operation_materials::is_variable.eq(input.is_variable.unwrap_or(false)),
            routing_operation_materials::notes.eq(input.notes),
        ))
        .returning(StepMaterialRow::as_returning())
        .get_result(conn)
        .await?)
}

/// A material line, locked.
async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<StepMaterialRow, Stop> {
    routing_operation_materials::table
        .find(id)
        .select(StepMaterialRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Material not found"))
}

/// Changes a material line (absent fields kept).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: StepMaterialInput,
) -> Result<StepMaterialRow, Stop> {
    checked(&mut input, false)?;
    let row = locked(conn, id).await?;
    steps::locked_step(conn, row.routing_operation_id).await?;
    if let Some(c) = input.component_id.filter(|c| *c != row.component_id) {
        component_unit(conn, c).await?;
        if already_on(conn, row.routing_operation_id, c, Some(id)).await? {
            return Err(duplicate());
        }
    }
    Ok(diesel::update(routing_operation_materials::table.find(id))
        .set((
            input
                .component_id
                .map(|c| routing_operation_materials::component_id.eq(c)),
            input
                .quantity
                .map(|q| routing_operation_materials::quantity.eq(q.0)),
            input
                .quantity_per
                .map(|p| routing_operation_materials::quantity_per.eq(p.to_string())),
            input.unit.map(|u| routing_operation_materials::unit.eq(u)),
            input
                .scrap_factor
                .map(|s| routing_operation_materials::scrap_factor.eq(s.0)),
            input
                .is_cost_only
                .map(|b| routing_operation_materials::is_cost_only.eq(b)),
            input
                .is_optional
                .map(|b| routing_operation_materials::is_optional.eq(b)),
            input
                .is_variable
                .map(|b| routing_operation_materials::is_variable.eq(b)),
            input
                .notes
                .map(|n| routing_operation_materials::notes.eq(Some(n))),
            // Always one column to set: a body that changes nothing still answers the row.
            routing_operation_materials::updated_at.eq(chrono::Utc::now()),
        ))
        .returning(StepMaterialRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Removes a material line.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<StepMaterialRow, Stop> {
    let row = locked(conn, id).await?;
    diesel::delete(routing_operation_materials::table.find(id))
        .execute(conn)
        .await?;
    Ok(row)
}

/// Copies every material of `from` onto the step `to` (templates applied, variants made).
/// `swap` replaces a variable line's component.
pub async fn copy(
    conn: &mut AsyncPgConnection,
    from: i64,
    to: i64,
    swap: Option<i64>,
) -> AppResult<usize> {
    let rows = of_steps(conn, &[from]).await?;
    let n = rows.len();
    for m in rows {
        let component = match swap {
            Some(s) if m.is_variable => s,
            _ => m.component_id,
        };
        diesel::insert_into(routing_operation_materials::table)
            .values((
                routing_operation_materials::routing_operation_id.eq(to),
                routing_operation_materials::component_id.eq(component),
                routing_operation_materials::quantity.eq(m.quantity.0),
                routing_operation_materials::quantity_per.eq(m.quantity_per),
                routing_operation_materials::unit.eq(m.unit),
                routing_operation_materials::scrap_factor.eq(m.scrap_factor.0),
                routing_operation_materials::is_cost_only.eq(m.is_cost_only),
                routing_operation_materials::is_optional.eq(m.is_optional),
                routing_operation_materials::is_variable.eq(m.is_variable),
                routing_operation_materials::notes.eq(m.notes),
            ))
            .on_conflict_do_nothing()
            .execute(conn)
            .await?;
    }
    Ok(n)
}

/// Money to cents-and-more as text for sums (4 places).
pub fn money(value: BigDecimal) -> Decimal {
    Decimal(value.with_scale_round(4, RoundingMode::HalfUp))
}

/// Whole minutes, for display.
pub fn minutes(value: &BigDecimal) -> i64 {
    value.to_i64().unwrap_or(0)
}
