//! Planning questions about one item or one order: its BOM exploded (`/mrp/explode-bom`),
//! its components netted against stock and what is coming (`/mrp/requirements`), and its
//! dated supply and demand with the projected balance (`/mrp/supply-demand`), the series a
//! planner's chart draws.

use std::collections::HashMap;

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use chrono::{Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::bom::tree::{Tree, item_unit_cost};
use crate::operations::planning::inputs::{OPEN_PRODUCTION, OPEN_SALES};
use crate::operations::planning::model::PlannedOrderStatus;
use crate::platform::db::schema::{
    items, planned_orders, production_order_materials, production_orders, sales_order_lines,
    sales_orders,
};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;

/// One component of an explosion.
#[derive(Debug, Clone, SimpleObject)]
pub struct ExplodedComponent {
    /// The component.
    pub product_id: i64,
    /// Its SKU.
    pub product_sku: String,
    /// Its name.
    pub product_name: String,
    /// 0 for the product's own lines, 1 for their components' lines...
    pub bom_level: i32,
    /// How much the whole quantity needs, scrap included, in the component's stocking unit.
    pub gross_quantity: Decimal,
    /// The line's scrap allowance (percent).
    pub scrap_factor: Decimal,
    /// The item whose BOM line it is.
    pub parent_product_id: i64,
    /// It has a BOM of its own (made here).
    pub has_bom: bool,
}

/// A product's BOM exploded for a quantity.
#[derive(Debug, Clone, SimpleObject)]
pub struct BomExplosionResult {
    /// The product.
    pub product_id: i64,
    /// Its SKU.
    pub product_sku: String,
    /// Its name.
    pub product_name: String,
    /// The quantity exploded.
    pub quantity: Decimal,
    /// Every line below it, depth first.
    pub components: Vec<ExplodedComponent>,
    /// How many.
    pub total_components: i32,
}

/// Explodes a product's active BOM for `quantity` units (no BOM: no components).
pub async fn explode(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    quantity: &BigDecimal,
) -> AppResult<BomExplosionResult> {
    let (sku, name): (String, String) = items::table
        .find(product_id)
        .select((items::sku, items::name))
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("Product not found"))?;
    let boms = crate::operations::bom::model::active_of(conn, &[product_id]).await?;
    let root = <[_]>::first(&boms).map(|b| b.id);
    let tree = Tree::load(conn, boms).await?;
    let lines = match root {
        Some(id) => tree
            .explode(id, quantity)
            .map_err(|cycle| AppError::bad_request(cycle.message()))?,
        None => Vec::new(),
    };
    let components: Vec<ExplodedComponent> = lines
        .into_iter()
        .map(|e| {
            let part = tree.part(e.line.component_id);
            ExplodedComponent {
                product_id: e.line.component_id,
                product_sku: part.map(|p| p.sku.clone()).unwrap_or_default(),
                product_name: part.map(|p| p.name.clone()).unwrap_or_default(),
                bom_level: e.level - 1,
                gross_quantity: Decimal(e.extended_quantity),
                scrap_factor: e.line.scrap_factor.clone(),
                parent_product_id: tree
                    .bom(e.bom_id)
                    .map(|b| b.product_id)
                    .unwrap_or(product_id),
                has_bom: e.has_bom,
            }
        })
        .collect();
    Ok(BomExplosionResult {
        product_id,
        product_sku: sku,
        product_name: name,
        quantity: Decimal(quantity.clone()),
        total_components: i32::try_from(components.len()).unwrap_or(i32::MAX),
        components,
    })
}

/// One component netted against stock and open purchase orders.
#[derive(Debug, Clone, SimpleObject)]
pub struct NetRequirement {
    /// The component.
    pub product_id: i64,
    /// SKU.
    pub product_sku: String,
    /// Name.
    pub product_name: String,
    /// Needed, scrap included.
    pub gross_quantity: Decimal,
    /// On hand.
    pub on_hand_quantity: Decimal,
    /// Allocated to other orders.
    pub allocated_quantity: Decimal,
    /// On hand less allocated.
    pub available_quantity: Decimal,
    /// Still to arrive on open purchase orders.
    pub incoming_quantity: Decimal,
    /// Safety stock.
    pub safety_stock: Decimal,
    /// What must still be bought or made: gross less available and incoming, plus safety stock.
    pub net_shortage: Decimal,
    /// Lead time in days.
    pub lead_time_days: i32,
    /// Reorder point.
    pub reorder_point: Option<Decimal>,
    /// Minimum order.
    pub min_order_qty: Option<Decimal>,
    /// Made here (it has a BOM): a production order, else a purchase order.
    pub has_bom: bool,
    /// Cost of one stocking unit.
    pub unit_cost: Decimal,
}

/// A product's or an order's material requirements.
#[derive(Debug, Clone, SimpleObject)]
pub struct RequirementsSummary {
    /// Components looked at.
    pub total_components_analyzed: i32,
    /// Components short.
    pub shortages_found: i32,
    /// Components covered.
    pub components_in_stock: i32,
    /// Each component.
    pub requirements: Vec<NetRequirement>,
}

#[derive(Debug, Queryable)]
struct Position {
    id: i64,
    lead_time_days: Option<i32>,
    reorder_point: Option<BigDecimal>,
    min_order_qty: Option<BigDecimal>,
    safety_stock: BigDecimal,
}

/// Nets the explosion of one unit of a product, or of what a production order still has to
/// make.
pub async fn requirements(
    conn: &mut AsyncPgConnection,
    product_id: Option<i64>,
    production_order_id: Option<i64>,
) -> AppResult<RequirementsSummary> {
    let (product, quantity) = match (production_order_id, product_id) {
        (Some(order), _) => {
            let (product, ordered, completed): (i64, BigDecimal, BigDecimal) =
                production_orders::table
                    .find(order)
                    .select((
                        production_orders::product_id,
                        production_orders::quantity_ordered,
                        production_orders::quantity_completed,
                    ))
                    .first(conn)
                    .await
                    .optional()?
                    .ok_or_else(|| AppError::not_found("Production order not found"))?;
            (product, ordered - completed)
        }
        (None, Some(product)) => (product, BigDecimal::from(1)),
        (None, None) => {
            return Err(AppError::bad_request(
                "Either product_id or production_order_id is required",
            ));
        }
    };
    let exploded = explode(conn, product, &quantity).await?;
    let mut gross: Vec<(i64, BigDecimal, bool)> = Vec::new();
    for c in &exploded.components {
        match gross.iter_mut().find(|g| g.0 == c.product_id) {
            Some(g) => g.1 += &c.gross_quantity.0,
            None => gross.push((c.product_id, c.gross_quantity.0.clone(), c.has_bom)),
        }
    }
    let ids: Vec<i64> = gross.iter().map(|g| g.0).collect();
    let positions: HashMap<i64, Position> = items::table
        .filter(items::id.eq_any(&ids))
        .select((
            items::id,
            items::lead_time_days,
            items::reorder_point,
            items::min_order_qty,
            items::safety_stock,
        ))
        .load::<Position>(conn)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let stock = crate::ledgers::inventory::model::stock_of(conn, Some(&ids)).await?;
    let incoming = crate::operations::purchasing::rules::on_order(conn, &ids).await?;
    let parts: HashMap<i64, crate::operations::bom::model::Part> =
        crate::operations::bom::model::parts(conn, &ids)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
    let mut requirements = Vec::new();
    for (id, needed, has_bom) in gross {
        let (on_hand, allocated) = stock.get(&id).cloned().unwrap_or_default();
        let coming = incoming.get(&id).cloned().unwrap_or_default();
        let position = positions.get(&id);
        let safety = position.map(|p| p.safety_stock.clone()).unwrap_or_default();
        let available = &on_hand - &allocated;
        let short = &needed - &available - &coming + &safety;
        let part = parts.get(&id);
        requirements.push(NetRequirement {
            product_id: id,
            product_sku: part.map(|p| p.sku.clone()).unwrap_or_default(),
            product_name: part.map(|p| p.name.clone()).unwrap_or_default(),
            gross_quantity: Decimal(needed),
            on_hand_quantity: Decimal(on_hand),
            allocated_quantity: Decimal(allocated),
            available_quantity: Decimal(available),
            incoming_quantity: Decimal(coming),
            safety_stock: Decimal(safety),
            net_shortage: Decimal(if short > BigDecimal::zero() {
                short
            } else {
                BigDecimal::zero()
            }),
            lead_time_days: position.and_then(|p| p.lead_time_days).unwrap_or(0),
            reorder_point: position.and_then(|p| p.reorder_point.clone()).map(Decimal),
            min_order_qty: position.and_then(|p| p.min_order_qty.clone()).map(Decimal),
            has_bom,
            unit_cost: Decimal(part.map(item_unit_cost).unwrap_or_default()),
        });
    }
    let short = requirements
        .iter()
        .filter(|r| r.net_shortage.0 > BigDecimal::zero())
        .count();
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    Ok(RequirementsSummary {
        total_components_analyzed: count(requirements.len()),
        shortages_found: count(short),
        components_in_stock: count(requirements.len() - short),
        requirements,
    })
}

crate::text_enum! {
    /// What a supply and demand entry is.
    pub enum EntryType {
        /// The opening balance (on hand less allocated).
        OnHand,
        /// Lowers the balance.
        Demand,
        /// Raises it.
        Supply,
    }
}

crate::text_enum! {
    /// Where a supply and demand entry comes from.
    pub enum EntrySource {
        /// Stock.
        Inventory,
        /// A sales order line.
        SalesOrder,
        /// A production order (what it makes, or what it uses).
        ProductionOrder,
        /// A purchase order line.
        PurchaseOrder,
        /// A planned or firmed MRP order.
        PlannedOrder,
    }
}

/// One dated change to an item's projected balance.
#[derive(Debug, Clone, SimpleObject)]
pub struct SupplyDemandEntry {
    /// The day.
    pub date: NaiveDate,
    /// The opening balance, a demand or a supply.
    pub entry_type: EntryType,
    /// Where it comes from.
    pub source_type: EntrySource,
    /// The order's id.
    pub source_id: Option<i64>,
    /// The order's number or code.
    pub source_code: Option<String>,
    /// How much (positive; demand lowers the balance).
    pub quantity: Decimal,
    /// The projected balance after it.
    pub running_balance: Option<Decimal>,
}

/// An item's supply and demand over the coming days.
#[derive(Debug, Clone, SimpleObject)]
pub struct SupplyDemandTimeline {
    /// The item.
    pub product_id: i64,
    /// SKU.
    pub product_sku: String,
    /// Name.
    pub product_name: String,
    /// On hand now.
    pub current_on_hand: Decimal,
    /// On hand less allocated now.
    pub current_available: Decimal,
    /// Safety stock.
    pub safety_stock: Decimal,
    /// Dated entries, opening balance first.
    pub entries: Vec<SupplyDemandEntry>,
    /// The first day the projected balance falls below the safety stock.
    pub projected_shortage_date: Option<NaiveDate>,
    /// Days until then (none: no shortage in the window).
    pub days_of_supply: Option<i32>,
}

fn entry(
    date: NaiveDate,
    kind: EntryType,
    source: EntrySource,
    id: i64,
    code: String,
    qty: BigDecimal,
) -> SupplyDemandEntry {
    SupplyDemandEntry {
        date,
        entry_type: kind,
        source_type: source,
        source_id: Some(id),
        source_code: Some(code),
        quantity: Decimal(qty),
        running_balance: None,
    }
}

/// An item's dated supply and demand for `days_ahead` days with the running balance.
pub async fn supply_demand(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    days_ahead: i32,
) -> AppResult<SupplyDemandTimeline> {
    if !(1..=365).contains(&days_ahead) {
        return Err(AppError::invalid_field(
            "daysAhead",
            "days_ahead must be between 1 and 365",
        ));
    }
    let (sku, name, safety): (String, String, BigDecimal) = items::table
        .find(product_id)
        .select((items::sku, items::name, items::safety_stock))
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("Product not found"))?;
    let today = Utc::now().date_naive();
    let end = today + Duration::days(i64::from(days_ahead));
    let mut entries = sales_entries(conn, product_id, today).await?;
    entries.extend(production_entries(conn, product_id, today).await?);
    entries.extend(supply_entries(conn, product_id, today).await?);
    entries.extend(planned_component_demand(conn, product_id, today).await?);
    entries.retain(|e| e.date <= end);
    // Supply before demand on a day: what arrives in the morning serves the day's orders.
    entries.sort_by_key(|e| (e.date, e.entry_type != EntryType::Supply));
    let (on_hand, allocated) =
        crate::ledgers::inventory::model::stock_of(conn, Some(&[product_id]))
            .await?
            .remove(&product_id)
            .unwrap_or_default();
    let available = &on_hand - &allocated;
    let mut balance = available.clone();
    let mut shortage = None;
    for e in &mut entries {
        if e.entry_type == EntryType::Demand {
            balance -= &e.quantity.0
        } else {
            balance += &e.quantity.0
        }
        e.running_balance = Some(Decimal(balance.clone()));
        if shortage.is_none() && balance < safety {
            shortage = Some(e.date);
        }
    }
    if shortage.is_none() && available < safety {
        shortage = Some(today);
    }
    let mut all = vec![SupplyDemandEntry {
        date: today,
        entry_type: EntryType::OnHand,
        source_type: EntrySource::Inventory,
        source_id: None,
        source_code: None,
        quantity: Decimal(available.clone()),
        running_balance: Some(Decimal(available.clone())),
    }];
    all.extend(entries);
    Ok(SupplyDemandTimeline {
        product_id,
        product_sku: sku,
        product_name: name,
        current_on_hand: Decimal(on_hand),
        current_available: Decimal(available),
        safety_stock: Decimal(safety),
        entries: all,
        days_of_supply: shortage.map(|d| i32::try_from((d - today).num_days()).unwrap_or(i32::MAX)),
        projected_shortage_date: shortage,
    })
}

/// What planned production orders of the items made with this one will take of it, on
/// their release dates (the parents' active BOMs, scrap included).
async fn planned_component_demand(
    conn: &mut AsyncPgConnection,
    component: i64,
    today: NaiveDate,
) -> AppResult<Vec<SupplyDemandEntry>> {
    use crate::operations::planning::model::PlannedOrderType;
    use crate::platform::db::schema::{bom_lines, boms};
    let parents: Vec<i64> = bom_lines::table
        .inner_join(boms::table)
        .filter(bom_lines::component_id.eq(component))
        .filter(boms::active.eq(true))
        .select(boms::product_id)
        .distinct()
        .load(conn)
        .await?;
    if parents.is_empty() {
        return Ok(Vec::new());
    }
    let planned: Vec<(i64, i64, NaiveDate, BigDecimal)> = planned_orders::table
        .filter(planned_orders::product_id.eq_any(&parents))
        .filter(planned_orders::order_type.eq(PlannedOrderType::Production))
        .filter(
            planned_orders::status
                .eq_any([PlannedOrderStatus::Planned, PlannedOrderStatus::Firmed]),
        )
        .select((
            planned_orders::id,
            planned_orders::product_id,
            planned_orders::start_date,
            planned_orders::quantity,
        ))
        .load(conn)
        .await?;
    if planned.is_empty() {
        return Ok(Vec::new());
    }
    let roots = crate::operations::bom::model::active_of(conn, &parents).await?;
    let tree = Tree::load(conn, roots).await?;
    let mut out = Vec::new();
    for (id, parent, start, qty) in planned {
        let Some(bom) = tree.sub_bom(parent) else {
            continue;
        };
        let per: BigDecimal = tree
            .lines(bom.id)
            .iter()
            .filter(|l| l.component_id == component && !l.is_cost_only)
            .map(|l| tree.needed(l))
            .sum();
        if per > BigDecimal::zero() {
            out.push(entry(
                start.max(today),
                EntryType::Demand,
                EntrySource::PlannedOrder,
                id,
                format!("PLN-{id}"),
                per * qty,
            ));
        }
    }
    Ok(out)
}

/// What open sales order lines still have to deliver of the item.
async fn sales_entries(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    today: NaiveDate,
) -> AppResult<Vec<SupplyDemandEntry>> {
    let day = |d: NaiveDate| d.max(today);
    let mut entries = Vec::new();
    #[allow(clippy::type_complexity)]
    let sales: Vec<(
        i64,
        String,
        Option<NaiveDate>,
        chrono::DateTime<Utc>,
        i32,
        BigDecimal,
        BigDecimal,
    )> = sales_order_lines::table
        .inner_join(sales_orders::table)
        .filter(sales_orders::status.eq_any(OPEN_SALES))
        .filter(sales_order_lines::product_id.eq(product_id))
        .select((
            sales_orders::id,
            sales_orders::order_number,
            sales_orders::due_date,
            sales_orders::created_at,
            sales_order_lines::quantity,
            sales_order_lines::quantity_shipped,
            sales_order_lines::quantity_allocated,
        ))
        .load(conn)
        .await?;
    for (id, number, due, created, qty, shipped, allocated) in sales {
        let left = BigDecimal::from(qty) - shipped - allocated;
        if left > BigDecimal::zero() {
            entries.push(entry(
                day(due.unwrap_or(created.date_naive())),
                EntryType::Demand,
                EntrySource::SalesOrder,
                id,
                number,
                left,
            ));
        }
    }
    Ok(entries)
}

/// What open production orders will make of the item, and take of it.
async fn production_entries(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    today: NaiveDate,
) -> AppResult<Vec<SupplyDemandEntry>> {
    let day = |d: NaiveDate| d.max(today);
    let mut entries = Vec::new();
    let making: Vec<(i64, String, Option<NaiveDate>, BigDecimal)> = production_orders::table
        .filter(production_orders::status.eq_any(OPEN_PRODUCTION))
        .filter(production_orders::product_id.eq(product_id))
        .select((
            production_orders::id,
            production_orders::code,
            production_orders::due_date,
            diesel::dsl::sql::<diesel::sql_types::Numeric>(
                "GREATEST(quantity_ordered - quantity_completed - quantity_scrapped, 0)",
            ),
        ))
        .load(conn)
        .await?;
    for (id, code, due, left) in making.into_iter().filter(|m| m.3 > BigDecimal::zero()) {
        entries.push(entry(
            day(due.unwrap_or(today)),
            EntryType::Supply,
            EntrySource::ProductionOrder,
            id,
            code,
            left,
        ));
    }
    let using: Vec<(i64, String, Option<NaiveDate>, BigDecimal)> = production_order_materials::table
        .inner_join(production_orders::table)
        .filter(production_orders::status.eq_any(OPEN_PRODUCTION))
        .filter(production_order_materials::component_id.eq(product_id))
        .select((
            production_orders::id,
            production_orders::code,
            production_orders::due_date,
            diesel::dsl::sql::<diesel::sql_types::Numeric>("GREATEST(production_order_materials.quantity_required - production_order_materials.quantity_consumed - production_order_materials.quantity_allocated, 0)"),
        ))
        .load(conn)
        .await?;
    for (id, code, due, left) in using.into_iter().filter(|m| m.3 > BigDecimal::zero()) {
        entries.push(entry(
            day(due.unwrap_or(today)),
            EntryType::Demand,
            EntrySource::ProductionOrder,
            id,
            code,
            left,
        ));
    }
    Ok(entries)
}

/// What open purchase order lines and planned orders will bring of the item.
async fn supply_entries(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    today: NaiveDate,
) -> AppResult<Vec<SupplyDemandEntry>> {
    let day = |d: NaiveDate| d.max(today);
    let mut entries = Vec::new();
    for line in crate::operations::purchasing::rules::open_lines(conn, Some(&[product_id])).await? {
        let date = day(line.expected_date.unwrap_or(today));
        entries.push(entry(
            date,
            EntryType::Supply,
            EntrySource::PurchaseOrder,
            line.purchase_order_id,
            line.po_number,
            line.remaining,
        ));
    }
    let planned: Vec<(i64, NaiveDate, BigDecimal)> = planned_orders::table
        .filter(planned_orders::product_id.eq(product_id))
        .filter(
            planned_orders::status
                .eq_any([PlannedOrderStatus::Planned, PlannedOrderStatus::Firmed]),
        )
        .select((
            planned_orders::id,
            planned_orders::due_date,
            planned_orders::quantity,
        ))
        .load(conn)
        .await?;
    for (id, due, qty) in planned {
        entries.push(entry(
            day(due),
            EntryType::Supply,
            EntrySource::PlannedOrder,
            id,
            format!("PLN-{id}"),
            qty,
        ));
    }
    Ok(entries)
}
