//! Whether an order can ship, and what it still needs (CONTRACT 5.2 "Also":
//! `/{id}/blocking-issues`, `POST /{id}/pre-flight-check`, `/{id}/material-requirements`).
//! Read-only: each answer is worked out from the order's lines, their reservations, the
//! production orders still running for it and the products' active BOMs.

use std::collections::BTreeMap;

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use diesel_async::AsyncPgConnection;

use crate::operations::bom::model::ConsumeStage;
use crate::operations::bom::tree::Tree;
use crate::operations::sales::model::{self, SalesOrderLineRow, SalesOrderRow, SalesOrderStatus};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;

/// What stands between an order and its shipment.
#[derive(Debug, Clone, SimpleObject)]
pub struct ShipReadiness {
    /// The order.
    pub sales_order_id: i64,
    /// `SO-YYYY-NNNN`.
    pub order_number: String,
    /// Its status.
    pub status: SalesOrderStatus,
    /// Nothing blocks it: it can ship now.
    pub can_ship: bool,
    /// Each reason it cannot, in words (empty when it can).
    pub blocking_issues: Vec<String>,
}

/// What one material or part the order still needs, against the stock there is.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialRequirement {
    /// The component.
    pub product_id: i64,
    /// Its SKU.
    pub sku: String,
    /// Its name.
    pub name: String,
    /// Its stocking unit.
    pub unit: String,
    /// Needed for what the order still has to make and pack, in the stocking unit.
    pub quantity_required: Decimal,
    /// Available now (on hand less reserved) over every location.
    pub quantity_available: Decimal,
    /// Required beyond what is available (0 when covered).
    pub shortage: Decimal,
}

/// An order's material requirements.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialRequirements {
    /// The order.
    pub sales_order_id: i64,
    /// `SO-YYYY-NNNN`.
    pub order_number: String,
    /// One row per component, by SKU.
    pub requirements: Vec<MaterialRequirement>,
    /// Some component is short.
    pub has_shortages: bool,
    /// Counts for the order page's banner.
    pub summary: MaterialRequirementsSummary,
}

/// How many materials an order needs and how many are short.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialRequirementsSummary {
    /// Some component is short.
    pub has_shortages: bool,
    /// Components short.
    pub materials_short: i64,
    /// Components needed.
    pub total_materials: i64,
}

/// The statuses an order can ship from.
pub const SHIPPABLE: [SalesOrderStatus; 3] = [
    SalesOrderStatus::Confirmed,
    SalesOrderStatus::InProduction,
    SalesOrderStatus::ReadyToShip,
];

/// Why the order cannot ship now: its status, a missing address, lines not fully reserved,
/// production orders still running.
pub async fn ship_readiness(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
) -> AppResult<ShipReadiness> {
    let mut all = ship_readiness_of(conn, std::slice::from_ref(order)).await?;
    Ok(all.remove(0))
}

/// [`ship_readiness`] of many orders in a fixed number of queries (lines, item facts and
/// running production orders each loaded once for all of them), in the orders' order.
pub async fn ship_readiness_of(
    conn: &mut AsyncPgConnection,
    orders: &[SalesOrderRow],
) -> AppResult<Vec<ShipReadiness>> {
    let shippable: Vec<i64> = orders
        .iter()
        .filter(|o| SHIPPABLE.contains(&o.status))
        .map(|o| o.id)
        .collect();
    let lines = model::lines_of(conn, &shippable).await?;
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let skus = crate::ledgers::inventory::model::item_facts(conn, &ids).await?;
    let running =
        crate::operations::sales::rules::active_production_orders_of(conn, &shippable).await?;
    let stock = StockAt::load(conn, &ids).await?;
    Ok(orders
        .iter()
        .map(|order| {
            let mut issues = status_issues(order);
            if SHIPPABLE.contains(&order.status) {
                let order_lines: Vec<&SalesOrderLineRow> = lines
                    .iter()
                    .filter(|l| l.sales_order_id == order.id)
                    .collect();
                for (l, cover) in order_lines.iter().zip(line_cover(&order_lines, &stock)) {
                    if cover.short > BigDecimal::zero() {
                        let sku = skus
                            .iter()
                            .find(|f| f.id == l.product_id)
                            .map(|f| f.sku.clone())
                            .unwrap_or_else(|| format!("item {}", l.product_id));
                        let free = if cover.free.is_zero() {
                            String::new()
                        } else {
                            format!(", {} more in stock", cover.free.normalized())
                        };
                        issues.push(format!(
                            "Line {} ({sku}): {} of {} reserved{free}, {} short",
                            l.line_number,
                            l.quantity_allocated.0.normalized(),
                            cover.open.normalized(),
                            cover.short.normalized()
                        ));
                    }
                }
                for (_, code) in running.iter().filter(|(so, _)| *so == order.id) {
                    issues.push(format!("Production order {code} is not finished"));
                }
            }
            ShipReadiness {
                sales_order_id: order.id,
                order_number: order.order_number.clone(),
                status: order.status,
                can_ship: issues.is_empty(),
                blocking_issues: issues,
            }
        })
        .collect())
}

/// How stock covers one line: shipping issues the line's reservation first, then free stock
/// (on hand, reserved to nobody), so free stock counts as cover.
#[derive(Debug, Clone, Default)]
pub struct LineCover {
    /// Ordered less shipped.
    pub open: BigDecimal,
    /// Free stock this line would take when it ships (shared out over the order's lines in
    /// line order; never more than the line needs beyond its reservation).
    pub free: BigDecimal,
    /// Open less reserved less free: what has to be made or bought first.
    pub short: BigDecimal,
}

/// Free stock (on hand less reserved) of some items by location, and the location a line
/// without one ships from: what [`line_cover`] shares out.
#[derive(Debug, Clone, Default)]
pub struct StockAt {
    free: BTreeMap<(i64, i64), BigDecimal>,
    default_location: Option<i64>,
}

impl StockAt {
    /// The balances of these items (one query) and the default warehouse (one more).
    pub async fn load(conn: &mut AsyncPgConnection, items: &[i64]) -> AppResult<StockAt> {
        let balances = crate::ledgers::inventory::model::balances_of(conn, items).await?;
        Ok(StockAt {
            free: balances
                .into_iter()
                .map(|b| {
                    let free =
                        (b.on_hand_quantity.0 - b.allocated_quantity.0).max(BigDecimal::zero());
                    ((b.item_id, b.location_id), free)
                })
                .collect(),
            default_location: crate::ledgers::inventory::rules::first_warehouse(conn).await?,
        })
    }
}

/// [`LineCover`] of an order's lines (in their order): the free stock at each line's
/// location (the default warehouse when it has none, as shipping does) shared out line by
/// line, as a shipment would take it.
pub fn line_cover(lines: &[&SalesOrderLineRow], stock: &StockAt) -> Vec<LineCover> {
    let mut free = stock.free.clone();
    lines
        .iter()
        .map(|l| {
            let open =
                (BigDecimal::from(l.quantity) - &l.quantity_shipped.0).max(BigDecimal::zero());
            let unreserved = (&open - &l.quantity_allocated.0).max(BigDecimal::zero());
            let location = l.location_id.or(stock.default_location).unwrap_or_default();
            let pool = free.entry((l.product_id, location)).or_default();
            let taken = unreserved.clone().min(pool.clone());
            *pool -= &taken;
            LineCover {
                short: &unreserved - &taken,
                free: taken,
                open,
            }
        })
        .collect()
}

/// What the order's status and address alone say against shipping it.
fn status_issues(order: &SalesOrderRow) -> Vec<String> {
    let mut issues = Vec::new();
    match order.status {
        s if SHIPPABLE.contains(&s) => {}
        SalesOrderStatus::Shipped | SalesOrderStatus::Delivered | SalesOrderStatus::Completed => {
            issues.push("The order has already shipped".to_string());
        }
        SalesOrderStatus::Pending => issues.push("The order is not confirmed yet".to_string()),
        s => issues.push(format!("The order is {s}")),
    }
    if order
        .shipping_address_line1
        .as_deref()
        .is_none_or(|a| a.trim().is_empty())
    {
        issues.push("The order has no shipping address".to_string());
    }
    issues
}

/// What an order's lines still need through their products' active BOMs, line by line.
pub struct OrderNeeds {
    /// The order's lines.
    pub lines: Vec<SalesOrderLineRow>,
    /// The active BOMs of their products.
    pub boms: Vec<crate::operations::bom::model::BomRow>,
    /// Those BOMs with every sub-assembly and part.
    pub tree: Tree,
    /// `(line, component, quantity in the component's stocking unit)`.
    pub by_line: Vec<(i64, i64, BigDecimal)>,
}

/// The components each line still needs: production-stage BOM lines for what is neither
/// reserved nor shipped (it still has to be made), shipping-stage lines (packaging) for
/// everything not shipped. Cost-only lines are not material; a closed order needs nothing.
pub async fn order_needs(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
) -> AppResult<OrderNeeds> {
    let lines = model::lines_of(conn, &[order.id]).await?;
    let products: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let boms = crate::operations::bom::model::active_of(conn, &products).await?;
    let tree = Tree::load(conn, boms.clone()).await?;
    let closed = matches!(
        order.status,
        SalesOrderStatus::Cancelled
            | SalesOrderStatus::Shipped
            | SalesOrderStatus::Delivered
            | SalesOrderStatus::Completed
    );
    let mut by_line = Vec::new();
    for l in lines.iter().filter(|_| !closed) {
        let Some(bom) = boms.iter().find(|b| b.product_id == l.product_id) else {
            continue;
        };
        let unshipped = BigDecimal::from(l.quantity) - &l.quantity_shipped.0;
        let to_make = (&unshipped - &l.quantity_allocated.0).max(BigDecimal::zero());
        for line in tree.lines(bom.id) {
            if line.is_cost_only {
                continue;
            }
            let units = match line.consume_stage {
                ConsumeStage::Shipping => &unshipped,
                _ => &to_make,
            };
            if units <= &BigDecimal::zero() {
                continue;
            }
            by_line.push((l.id, line.component_id, tree.needed(line) * units));
        }
    }
    Ok(OrderNeeds {
        lines,
        boms,
        tree,
        by_line,
    })
}

/// The components the order still needs through its products' active BOMs ([`order_needs`]),
/// summed per component, against the stock available over every location.
pub async fn material_requirements(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
) -> AppResult<MaterialRequirements> {
    let needs = order_needs(conn, order).await?;
    requirements_of(conn, order, &needs).await
}

/// [`material_requirements`] from needs already worked out.
pub async fn requirements_of(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    needs: &OrderNeeds,
) -> AppResult<MaterialRequirements> {
    let tree = &needs.tree;
    let mut needed: BTreeMap<i64, BigDecimal> = BTreeMap::new();
    for (_, component, quantity) in &needs.by_line {
        *needed.entry(*component).or_default() += quantity;
    }
    let ids: Vec<i64> = needed.keys().copied().collect();
    let stock = crate::ledgers::inventory::model::totals_of(conn, &ids).await?;
    let mut requirements: Vec<MaterialRequirement> = needed
        .into_iter()
        .map(|(id, required)| {
            let part = tree.part(id);
            let available = stock
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, t)| t.available.clone())
                .unwrap_or_default();
            let shortage = (&required - &available).max(BigDecimal::zero());
            MaterialRequirement {
                product_id: id,
                sku: part.map(|p| p.sku.clone()).unwrap_or_default(),
                name: part.map(|p| p.name.clone()).unwrap_or_default(),
                unit: part.map(|p| p.unit.clone()).unwrap_or_default(),
                quantity_required: Decimal(required.normalized()),
                quantity_available: Decimal(available.normalized()),
                shortage: Decimal(shortage.normalized()),
            }
        })
        .collect();
    requirements.sort_by(|a, b| a.sku.cmp(&b.sku));
    let materials_short = requirements
        .iter()
        .filter(|r| !r.shortage.0.is_zero())
        .count() as i64;
    Ok(MaterialRequirements {
        sales_order_id: order.id,
        order_number: order.order_number.clone(),
        has_shortages: materials_short > 0,
        summary: MaterialRequirementsSummary {
            has_shortages: materials_short > 0,
            materials_short,
            total_materials: requirements.len() as i64,
        },
        requirements,
    })
}
