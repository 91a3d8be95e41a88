//! What MRP and the buy list read from the books: every active item with its stock, safety
//! stock, lot sizes, lead time, preferred vendor and (for made items) components per unit;
//! the dated demand of open sales order lines and open production orders; the dated supply
//! of open purchase order lines, open production orders and firmed planned orders. About a
//! dozen statements however many items there are (the BOM levels add three each).

use std::collections::HashMap;

use bigdecimal::{BigDecimal, RoundingMode, ToPrimitive, Zero};
use chrono::NaiveDate;
use diesel::dsl::sum;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::bom::tree::{Tree, item_unit_cost};
use crate::operations::planning::model::{PlannedOrderStatus, PlannedOrderType};
use crate::operations::planning::netting::{Demand, PlanItem, Qty, Receipt, SCALE, Source};
use crate::operations::production::model::OrderStatus;
use crate::operations::purchasing::model::PurchaseOrderStatus;
use crate::operations::sales::model::SalesOrderStatus;
use crate::platform::db::schema::{
    items, planned_orders, production_order_materials, production_orders, routing_operations,
    routings, sales_order_lines, sales_orders, vendor_items, vendors,
};
use crate::platform::error::AppResult;

/// Sales orders whose lines are still to be delivered.
pub const OPEN_SALES: [SalesOrderStatus; 6] = [
    SalesOrderStatus::Pending,
    SalesOrderStatus::PendingConfirmation,
    SalesOrderStatus::Confirmed,
    SalesOrderStatus::InProduction,
    SalesOrderStatus::ReadyToShip,
    SalesOrderStatus::OnHold,
];

/// Production orders that will still make something (drafts are added on request).
pub const OPEN_PRODUCTION: [OrderStatus; 3] = [
    OrderStatus::Released,
    OrderStatus::InProgress,
    OrderStatus::OnHold,
];

/// A decimal quantity as a [`Qty`], rounded up (a requirement never shrinks).
pub fn to_qty(value: &BigDecimal) -> Qty {
    (value * BigDecimal::from(SCALE))
        .with_scale_round(0, RoundingMode::Up)
        .to_i64()
        .unwrap_or(i64::MAX)
}

/// A [`Qty`] as a decimal with four places.
pub fn from_qty(qty: Qty) -> BigDecimal {
    BigDecimal::new(qty.into(), 4)
}

/// What a planner sees of an item beside its numbers.
#[derive(Debug, Clone)]
pub struct ItemFacts {
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Stocking unit.
    pub unit: String,
    /// Cost of one stocking unit (standard, else average, else last).
    pub unit_cost: BigDecimal,
    /// On hand, now.
    pub on_hand: BigDecimal,
    /// Allocated, now.
    pub allocated: BigDecimal,
    /// The item's reorder point.
    pub reorder_point: Option<BigDecimal>,
    /// The preferred vendor (else the last one bought from): id and name.
    pub vendor: Option<(i64, String)>,
}

/// Everything MRP nets, and the facts to describe its result.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The items, with their numbers.
    pub items: Vec<PlanItem>,
    /// Dated demand.
    pub demands: Vec<Demand>,
    /// Dated supply.
    pub receipts: Vec<Receipt>,
    /// Per item id.
    pub facts: HashMap<i64, ItemFacts>,
    /// Open sales orders read.
    pub sales_orders: usize,
    /// Open production orders read.
    pub production_orders: usize,
}

/// What to count as open supply and demand.
#[derive(Debug, Clone, Copy)]
pub struct Scope {
    /// Today (dates before it count as today).
    pub today: NaiveDate,
    /// Count draft production orders as supply and their components as demand.
    pub include_draft_orders: bool,
}

#[derive(Debug, Queryable)]
struct ItemNumbers {
    id: i64,
    sku: String,
    name: String,
    unit: String,
    lead_time_days: Option<i32>,
    min_order_qty: Option<BigDecimal>,
    reorder_point: Option<BigDecimal>,
    safety_stock: BigDecimal,
}

/// Loads every input in one read.
pub async fn load(conn: &mut AsyncPgConnection, scope: Scope) -> AppResult<Inputs> {
    let rows: Vec<ItemNumbers> = items::table
        .filter(items::active.eq(true))
        .select((
            items::id,
            items::sku,
            items::name,
            items::unit,
            items::lead_time_days,
            items::min_order_qty,
            items::reorder_point,
            items::safety_stock,
        ))
        .order(items::id)
        .load(conn)
        .await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let stock = crate::ledgers::inventory::model::stock_of(conn, None).await?;
    let vendors = preferred_vendors(conn).await?;
    let routing = routing_minutes(conn).await?;
    let boms = crate::operations::bom::model::active_of(conn, &ids).await?;
    let tree = Tree::load(conn, boms.clone()).await?;
    let mut inputs = Inputs::default();
    for row in rows {
        let (on_hand, allocated) = stock.get(&row.id).cloned().unwrap_or_default();
        let vendor = vendors.get(&row.id);
        let bom = boms
            .iter()
            .find(|b| b.product_id == row.id)
            .filter(|b| !tree.lines(b.id).is_empty());
        // Like FilaOps: an item with an active BOM is made, whatever its procurement type.
        let make = bom.is_some();
        let components = match (make, bom) {
            (true, Some(b)) => tree
                .lines(b.id)
                .iter()
                .filter(|l| !l.is_cost_only)
                .map(|l| (l.component_id, to_qty(&tree.needed(l))))
                .collect(),
            _ => Vec::new(),
        };
        let (setup, run) = routing.get(&row.id).copied().unwrap_or((0, 0));
        let lead = if make {
            row.lead_time_days.unwrap_or(0)
        } else {
            vendor
                .and_then(|v| v.lead_time_days)
                .or(row.lead_time_days)
                .unwrap_or(0)
        };
        inputs.items.push(PlanItem {
            id: row.id,
            make,
            lead_time_days: i64::from(lead),
            setup_minutes: setup,
            run_minutes_per_unit: run,
            safety_stock: to_qty(&row.safety_stock),
            available: to_qty(&(&on_hand - &allocated)),
            min_order: vendor
                .and_then(|v| v.min_order_qty.as_ref())
                .or(row.min_order_qty.as_ref())
                .map(to_qty)
                .unwrap_or(0),
            multiple: vendor
                .and_then(|v| v.pack_size.as_ref())
                .map(to_qty)
                .unwrap_or(0),
            has_vendor: vendor.is_some(),
            components,
        });
        inputs.facts.insert(
            row.id,
            ItemFacts {
                unit_cost: tree.part(row.id).map(item_unit_cost).unwrap_or_default(),
                sku: row.sku,
                name: row.name,
                unit: row.unit,
                on_hand,
                allocated,
                reorder_point: row.reorder_point,
                vendor: vendor.map(|v| (v.vendor_id, v.vendor_name.clone())),
            },
        );
    }
    sales_demand(conn, scope, &mut inputs).await?;
    production_supply_and_demand(conn, scope, &tree, &mut inputs).await?;
    for line in crate::operations::purchasing::rules::open_lines(conn, None).await? {
        inputs.receipts.push(Receipt {
            item_id: line.product_id,
            date: line.expected_date.unwrap_or(scope.today),
            qty: to_qty(&line.remaining),
            explode_at: None,
            planned_order_id: None,
        });
    }
    firmed_planned(conn, &mut inputs).await?;
    Ok(inputs)
}

/// An item's vendor for planning.
#[derive(Debug, Clone, Queryable)]
pub struct PlanningVendor {
    /// The item.
    pub item_id: i64,
    /// The vendor.
    pub vendor_id: i64,
    /// Its name.
    pub vendor_name: String,
    /// Days to deliver (the catalog entry's, else the vendor's).
    pub lead_time_days: Option<i32>,
    /// The vendor's minimum for the item.
    pub min_order_qty: Option<BigDecimal>,
    /// The vendor's pack size for the item.
    pub pack_size: Option<BigDecimal>,
}

/// Each item's preferred vendor, else the one ordered from last (active vendors only).
pub async fn preferred_vendors(
    conn: &mut AsyncPgConnection,
) -> AppResult<HashMap<i64, PlanningVendor>> {
    let rows: Vec<PlanningVendor> = vendor_items::table
        .inner_join(vendors::table)
        .filter(vendors::is_active.eq(true))
        .order((
            vendor_items::item_id,
            vendor_items::is_preferred.desc(),
            vendor_items::last_ordered_at.desc().nulls_last(),
            vendor_items::id.desc(),
        ))
        .select((
            vendor_items::item_id,
            vendors::id,
            vendors::name,
            diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::Integer>>(
                "COALESCE(vendor_items.lead_time_days, vendors.lead_time_days)",
            ),
            vendor_items::min_order_qty,
            vendor_items::pack_size,
        ))
        .load(conn)
        .await?;
    let mut out = HashMap::new();
    for row in rows {
        out.entry(row.item_id).or_insert(row);
    }
    Ok(out)
}

/// Set-up minutes and run minutes per unit of each product's active routing.
async fn routing_minutes(conn: &mut AsyncPgConnection) -> AppResult<HashMap<i64, (i64, i64)>> {
    let rows: Vec<(Option<i64>, Option<BigDecimal>, Option<BigDecimal>)> =
        routing_operations::table
            .inner_join(routings::table)
            .filter(routings::active.eq(true))
            .filter(routing_operations::is_active)
            .filter(routings::product_id.is_not_null())
            .group_by(routings::product_id)
            .select((
                routings::product_id,
                sum(routing_operations::setup_minutes),
                sum(routing_operations::run_minutes),
            ))
            .load(conn)
            .await?;
    let minutes = |v: Option<BigDecimal>| {
        v.unwrap_or_default()
            .with_scale_round(0, RoundingMode::Up)
            .to_i64()
            .unwrap_or(0)
    };
    Ok(rows
        .into_iter()
        .filter_map(|(product, setup, run)| Some((product?, (minutes(setup), minutes(run)))))
        .collect())
}

/// What open sales order lines still have to deliver (less what is shipped or allocated),
/// needed on the order's due date (else the day it was created).
async fn sales_demand(
    conn: &mut AsyncPgConnection,
    scope: Scope,
    inputs: &mut Inputs,
) -> AppResult<()> {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        i64,
        Option<NaiveDate>,
        chrono::DateTime<chrono::Utc>,
        i64,
        i32,
        BigDecimal,
        BigDecimal,
    )> = sales_order_lines::table
        .inner_join(sales_orders::table)
        .filter(sales_orders::status.eq_any(OPEN_SALES))
        .select((
            sales_orders::id,
            sales_orders::due_date,
            sales_orders::created_at,
            sales_order_lines::product_id,
            sales_order_lines::quantity,
            sales_order_lines::quantity_shipped,
            sales_order_lines::quantity_allocated,
        ))
        .load(conn)
        .await?;
    let mut orders = std::collections::HashSet::new();
    for (order, due, created, product, quantity, shipped, allocated) in rows {
        let remaining = BigDecimal::from(quantity) - shipped - allocated;
        if remaining <= BigDecimal::zero() {
            continue;
        }
        orders.insert(order);
        inputs.demands.push(Demand {
            item_id: product,
            date: due.unwrap_or_else(|| created.date_naive()).max(scope.today),
            qty: to_qty(&remaining),
            source: Source::SalesOrder(order),
        });
    }
    inputs.sales_orders = orders.len();
    Ok(())
}

#[derive(Debug, Queryable)]
struct OpenOrder {
    id: i64,
    product_id: i64,
    bom_id: Option<i64>,
    remaining: BigDecimal,
    due_date: Option<NaiveDate>,
    scheduled_start: Option<chrono::DateTime<chrono::Utc>>,
    scheduled_end: Option<chrono::DateTime<chrono::Utc>>,
}

/// Open production orders: what they will still make (supply of their product, on their
/// due date, else their scheduled end) and what they still need (their material lines'
/// remainders, else their BOM's, on their scheduled start, else their due date).
async fn production_supply_and_demand(
    conn: &mut AsyncPgConnection,
    scope: Scope,
    tree: &Tree,
    inputs: &mut Inputs,
) -> AppResult<()> {
    let mut statuses = OPEN_PRODUCTION.to_vec();
    if scope.include_draft_orders {
        statuses.push(OrderStatus::Draft);
    }
    let orders: Vec<OpenOrder> = production_orders::table
        .filter(production_orders::status.eq_any(statuses))
        .select((
            production_orders::id,
            production_orders::product_id,
            production_orders::bom_id,
            diesel::dsl::sql::<diesel::sql_types::Numeric>(
                "GREATEST(quantity_ordered - quantity_completed - quantity_scrapped, 0)",
            ),
            production_orders::due_date,
            production_orders::scheduled_start,
            production_orders::scheduled_end,
        ))
        .load(conn)
        .await?;
    inputs.production_orders = orders.len();
    let ids: Vec<i64> = orders.iter().map(|o| o.id).collect();
    let materials: Vec<(i64, i64, BigDecimal)> = production_order_materials::table
        .filter(production_order_materials::production_order_id.eq_any(&ids))
        .select((
            production_order_materials::production_order_id,
            production_order_materials::component_id,
            diesel::dsl::sql::<diesel::sql_types::Numeric>(
                "GREATEST(quantity_required - quantity_consumed - quantity_allocated, 0)",
            ),
        ))
        .load(conn)
        .await?;
    let mut by_order: HashMap<i64, Vec<(i64, BigDecimal)>> = HashMap::new();
    for (order, component, remaining) in materials {
        by_order
            .entry(order)
            .or_default()
            .push((component, remaining));
    }
    for order in orders {
        let finish = order
            .due_date
            .or(order.scheduled_end.map(|t| t.date_naive()))
            .unwrap_or(scope.today);
        let start = order
            .scheduled_start
            .map(|t| t.date_naive())
            .or(order.due_date)
            .unwrap_or(scope.today);
        if order.remaining > BigDecimal::zero() {
            inputs.receipts.push(Receipt {
                item_id: order.product_id,
                date: finish,
                qty: to_qty(&order.remaining),
                explode_at: None,
                planned_order_id: None,
            });
        }
        let needs: Vec<(i64, Qty)> = match by_order.remove(&order.id) {
            Some(lines) => lines.iter().map(|(c, q)| (*c, to_qty(q))).collect(),
            None => bom_needs(tree, order.bom_id, order.product_id, &order.remaining),
        };
        for (component, qty) in needs.into_iter().filter(|(_, q)| *q > 0) {
            inputs.demands.push(Demand {
                item_id: component,
                date: start,
                qty,
                source: Source::ProductionOrder(order.id),
            });
        }
    }
    Ok(())
}

/// The components `quantity` of a product needs by its BOM (the order's, when loaded, else
/// the product's active one).
fn bom_needs(
    tree: &Tree,
    bom_id: Option<i64>,
    product: i64,
    quantity: &BigDecimal,
) -> Vec<(i64, Qty)> {
    let bom = bom_id
        .and_then(|id| tree.bom(id))
        .or_else(|| tree.sub_bom(product));
    let Some(bom) = bom else { return Vec::new() };
    tree.lines(bom.id)
        .iter()
        .filter(|l| !l.is_cost_only)
        .map(|l| (l.component_id, to_qty(&(tree.needed(l) * quantity))))
        .collect()
}

/// Firmed planned orders: supply on their due date; the components of a firmed production
/// order are needed on its start date.
async fn firmed_planned(conn: &mut AsyncPgConnection, inputs: &mut Inputs) -> AppResult<()> {
    let rows: Vec<(i64, i64, PlannedOrderType, BigDecimal, NaiveDate, NaiveDate)> =
        planned_orders::table
            .filter(planned_orders::status.eq(PlannedOrderStatus::Firmed))
            .select((
                planned_orders::id,
                planned_orders::product_id,
                planned_orders::order_type,
                planned_orders::quantity,
                planned_orders::due_date,
                planned_orders::start_date,
            ))
            .load(conn)
            .await?;
    for (id, product, kind, quantity, due, start) in rows {
        inputs.receipts.push(Receipt {
            item_id: product,
            date: due,
            qty: to_qty(&quantity),
            explode_at: (kind == PlannedOrderType::Production).then_some(start),
            planned_order_id: Some(id),
        });
    }
    Ok(())
}

/// Whether a purchase order status counts as committed supply (not a draft).
pub fn committed(status: PurchaseOrderStatus) -> bool {
    status != PurchaseOrderStatus::Draft
}
