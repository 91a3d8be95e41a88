//! An order's cost: each material (the quantity consumed once issued, else required) at the
//! component's cost, each operation's minutes (actual once known, else planned) at its work
//! center's hourly rate; the estimate (planned quantities and minutes, stored on the order
//! by [`estimate`]) beside the actual, and the variance.

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::detail::facts::{OrderFacts, minutes};
use crate::operations::production::routing::materials::money;
use crate::platform::db::schema::production_orders;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;

/// One material's cost.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialCost {
    /// The operation that consumes it.
    pub operation_id: Option<i64>,
    /// Component.
    pub component_id: i64,
    /// Its SKU.
    pub component_sku: Option<String>,
    /// Its name.
    pub component_name: Option<String>,
    /// Quantity costed: consumed once issued, else required (stocking unit).
    pub quantity: Decimal,
    /// Quantity the order required.
    pub quantity_required: Decimal,
    /// Stocking unit.
    pub unit: String,
    /// Cost per unit.
    pub unit_cost: Decimal,
    /// Quantity times unit cost.
    pub total_cost: Decimal,
    /// Required quantity times unit cost.
    pub estimated_cost: Decimal,
}

/// One operation's machine and labour cost.
#[derive(Debug, Clone, SimpleObject)]
pub struct LaborCost {
    /// The operation.
    pub operation_id: i64,
    /// Its name.
    pub operation: String,
    /// Minutes costed: actual once known, else planned.
    pub minutes: Decimal,
    /// Planned minutes.
    pub planned_minutes: Decimal,
    /// The work center's hourly rate.
    pub hourly_rate: Decimal,
    /// Minutes at the rate.
    pub cost: Decimal,
    /// Planned minutes at the rate.
    pub estimated_cost: Decimal,
}

/// Material, labour and total.
#[derive(Debug, Clone, SimpleObject)]
pub struct CostFigures {
    /// Materials.
    pub material: Decimal,
    /// Machine time and labour.
    pub labor: Decimal,
    /// Both.
    pub total: Decimal,
}

impl CostFigures {
    fn of(material: BigDecimal, labor: BigDecimal) -> CostFigures {
        CostFigures {
            total: money(&material + &labor),
            material: money(material),
            labor: money(labor),
        }
    }
}

/// The totals in FilaOps's shape.
#[derive(Debug, Clone, SimpleObject)]
pub struct CostSummary {
    /// Materials.
    pub total_material_cost: Decimal,
    /// Machine time and labour.
    pub total_labor_cost: Decimal,
    /// Both.
    pub total_cost: Decimal,
    /// Units ordered.
    pub quantity_ordered: Decimal,
    /// Total cost per unit ordered.
    pub unit_cost: Decimal,
}

/// An order's cost breakdown.
#[derive(Debug, Clone, SimpleObject)]
pub struct CostBreakdown {
    /// The order.
    pub order_id: i64,
    /// Its code.
    pub order_code: String,
    /// Each material.
    pub material_costs: Vec<MaterialCost>,
    /// Each operation.
    pub labor_costs: Vec<LaborCost>,
    /// The actual (best known) totals.
    pub summary: CostSummary,
    /// The estimate (stored on the order when estimated, else from the plan).
    pub estimated: CostFigures,
    /// The actual (best known) cost.
    pub actual: CostFigures,
    /// Actual minus estimate (positive: over the estimate).
    pub variance: CostFigures,
}

/// Planned material and labour cost of an order's facts.
fn planned(f: &OrderFacts) -> (BigDecimal, BigDecimal) {
    let material = f
        .materials
        .iter()
        .map(|m| &m.quantity_required.0 * f.unit_cost(m.component_id))
        .sum();
    let labor = f
        .operations
        .iter()
        .map(|o| minutes(o).0 * f.rate(o.work_center_id) / BigDecimal::from(60))
        .sum();
    (material, labor)
}

/// The cost breakdown of an order.
pub async fn breakdown(conn: &mut AsyncPgConnection, id: i64) -> AppResult<CostBreakdown> {
    let f = OrderFacts::load(conn, id).await?;
    let mut material_costs = Vec::new();
    let mut material = BigDecimal::zero();
    for m in &f.materials {
        let unit_cost = f.unit_cost(m.component_id);
        let quantity = if m.quantity_consumed.0 > BigDecimal::zero() {
            m.quantity_consumed.0.clone()
        } else {
            m.quantity_required.0.clone()
        };
        let total = &quantity * &unit_cost;
        material += &total;
        let (sku, name) = f.names(m.component_id);
        material_costs.push(MaterialCost {
            operation_id: m.operation_id,
            component_id: m.component_id,
            component_sku: sku,
            component_name: name,
            estimated_cost: money(&m.quantity_required.0 * &unit_cost),
            quantity: Decimal(quantity),
            quantity_required: m.quantity_required.clone(),
            unit: m.unit.clone(),
            unit_cost: money(unit_cost),
            total_cost: money(total),
        });
    }
    let mut labor_costs = Vec::new();
    let mut labor = BigDecimal::zero();
    for o in &f.operations {
        let rate = f.rate(o.work_center_id);
        let (plan, best) = minutes(o);
        let cost = &best * &rate / BigDecimal::from(60);
        labor += &cost;
        labor_costs.push(LaborCost {
            operation_id: o.id,
            operation: o.operation_name.clone(),
            estimated_cost: money(&plan * &rate / BigDecimal::from(60)),
            minutes: Decimal(best),
            planned_minutes: Decimal(plan),
            hourly_rate: Decimal(rate),
            cost: money(cost),
        });
    }
    // What was stored when the order was estimated, else the plan (each part on its own:
    // an order's labour is estimated from its routing when it is made, its materials later).
    let plan = planned(&f);
    let or_plan = |stored: &BigDecimal, planned: BigDecimal| {
        if stored.is_zero() {
            planned
        } else {
            stored.clone()
        }
    };
    let est_material = or_plan(&f.order.estimated_material_cost.0, plan.0);
    let est_labor = or_plan(&f.order.estimated_labor_cost.0, plan.1);
    let ordered = f.order.quantity_ordered.0.clone();
    let total = &material + &labor;
    Ok(CostBreakdown {
        order_id: f.order.id,
        order_code: f.order.code.clone(),
        summary: CostSummary {
            total_material_cost: money(material.clone()),
            total_labor_cost: money(labor.clone()),
            total_cost: money(total.clone()),
            unit_cost: money(if ordered.is_zero() {
                BigDecimal::zero()
            } else {
                &total / &ordered
            }),
            quantity_ordered: Decimal(ordered),
        },
        variance: CostFigures::of(&material - &est_material, &labor - &est_labor),
        estimated: CostFigures::of(est_material, est_labor),
        actual: CostFigures::of(material, labor),
        material_costs,
        labor_costs,
    })
}

/// Stores the order's estimate from its plan (required quantities, planned minutes) and
/// answers the breakdown. An order without operations has nothing to estimate (400).
pub async fn estimate(conn: &mut AsyncPgConnection, id: i64) -> AppResult<CostBreakdown> {
    let f = OrderFacts::load(conn, id).await?;
    if f.operations.is_empty() {
        return Err(AppError::bad_request(
            "No operations to estimate; release the order or give it a routing first",
        ));
    }
    let (material, labor) = planned(&f);
    diesel::update(production_orders::table.find(id))
        .set((
            production_orders::estimated_material_cost.eq(money(material).0),
            production_orders::estimated_labor_cost.eq(money(labor).0),
            production_orders::updated_at.eq(chrono::Utc::now()),
        ))
        .execute(conn)
        .await?;
    breakdown(conn, id).await
}
