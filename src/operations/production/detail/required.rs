//! What an order waits for: each material line's shortage against free stock, a purchase
//! when the component is bought, a work order when it has an active BOM (whose own
//! components are checked for the work order's quantity, level by level), and the open
//! purchase and production orders already coming for those components.

use std::collections::{HashMap, HashSet};

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::bom::tree::Tree;
use crate::operations::production::detail::facts::OrderFacts;
use crate::operations::production::model::OrderStatus;
use crate::platform::db::schema::production_orders;
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;

/// A component to make or buy.
#[derive(Debug, Clone, SimpleObject)]
pub struct RequiredOrder {
    /// The item.
    pub product_id: i64,
    /// Its SKU.
    pub product_sku: Option<String>,
    /// Its name.
    pub product_name: Option<String>,
    /// Needed.
    pub quantity_required: Decimal,
    /// Free in stock.
    pub quantity_available: Decimal,
    /// Needed beyond stock.
    pub quantity_short: Decimal,
    /// Already coming on open purchase orders (bought items) or open production orders
    /// (made items).
    pub quantity_incoming: Decimal,
    /// 0 for the order's own materials, 1 for their components, ...
    pub bom_level: i32,
    /// Made with a BOM (a work order), else bought.
    pub has_bom: bool,
}

/// Counts.
#[derive(Debug, Clone, SimpleObject)]
pub struct RequiredSummary {
    /// Work orders needed.
    pub work_orders: i64,
    /// Purchases needed.
    pub purchase_orders: i64,
    /// Both.
    pub total: i64,
}

/// What an order waits for.
#[derive(Debug, Clone, SimpleObject)]
pub struct RequiredOrders {
    /// The order.
    pub order_id: i64,
    /// Its code.
    pub order_code: String,
    /// Components to make.
    pub work_orders_needed: Vec<RequiredOrder>,
    /// Components to buy.
    pub purchase_orders_needed: Vec<RequiredOrder>,
    /// Counts.
    pub summary: RequiredSummary,
}

/// What an order waits for (see the module's documentation).
pub async fn of_order(conn: &mut AsyncPgConnection, id: i64) -> AppResult<RequiredOrders> {
    let f = OrderFacts::load(conn, id).await?;
    // Level 0: what the order's lines still need.
    let mut wanted: Vec<(i64, BigDecimal, i32)> = f
        .materials
        .iter()
        .map(|m| {
            let still = (&m.quantity_required.0 - &m.quantity_consumed.0 - &m.quantity_allocated.0)
                .max(BigDecimal::zero());
            (m.component_id, still, 0)
        })
        .filter(|(_, q, _)| *q > BigDecimal::zero())
        .collect();
    let ids: Vec<i64> = wanted.iter().map(|w| w.0).collect();
    let boms = crate::operations::bom::model::active_of(conn, &ids).await?;
    let tree = Tree::load(conn, boms).await?;
    let mut all_items: HashSet<i64> = ids.iter().copied().collect();
    let mut out: Vec<(i64, BigDecimal, BigDecimal, i32, bool)> = Vec::new();
    // Free stock of every item the walk can reach (the tree holds every level), in one query.
    let reachable: Vec<i64> = ids
        .iter()
        .copied()
        .chain(tree.all_lines().map(|l| l.component_id))
        .collect();
    let mut stock: HashMap<i64, BigDecimal> =
        crate::ledgers::inventory::model::stock_of(conn, Some(&reachable))
            .await?
            .into_iter()
            .map(|(id, (on_hand, allocated))| (id, (on_hand - allocated).max(BigDecimal::zero())))
            .collect();
    let mut guard = 0;
    while let Some((item, need, level)) = wanted.pop() {
        guard += 1;
        if guard > 10_000 || level > 20 {
            break;
        }
        let free = stock.get(&item).cloned().unwrap_or_default();
        let short = (&need - &free).max(BigDecimal::zero());
        // What this need takes from stock is not free for the next one.
        stock.insert(item, (&free - &need).max(BigDecimal::zero()));
        if short.is_zero() {
            continue;
        }
        let sub = tree.sub_bom(item).map(|b| b.id);
        out.push((item, need, free, level, sub.is_some()));
        if let Some(bom) = sub {
            for line in tree.lines(bom) {
                if line.is_cost_only {
                    continue;
                }
                let q = (tree.needed(line) * &short).with_scale_round(4, RoundingMode::Up);
                all_items.insert(line.component_id);
                wanted.push((line.component_id, q, level + 1));
            }
        }
    }
    let items: Vec<i64> = all_items.into_iter().collect();
    let bought = crate::operations::purchasing::rules::on_order(conn, &items).await?;
    let made: Vec<(i64, BigDecimal, BigDecimal)> = production_orders::table
        .filter(production_orders::product_id.eq_any(&items))
        .filter(production_orders::id.ne(id))
        .filter(production_orders::status.eq_any([
            OrderStatus::Draft,
            OrderStatus::Released,
            OrderStatus::InProgress,
            OrderStatus::OnHold,
        ]))
        .select((
            production_orders::product_id,
            production_orders::quantity_ordered,
            production_orders::quantity_completed,
        ))
        .load(conn)
        .await?;
    let parts = crate::operations::bom::model::parts(conn, &items).await?;
    let (mut work, mut buy) = (Vec::new(), Vec::new());
    for (item, need, free, level, has_bom) in out {
        let incoming = if has_bom {
            made.iter()
                .filter(|(p, _, _)| *p == item)
                .map(|(_, o, c)| (o - c).max(BigDecimal::zero()))
                .sum()
        } else {
            bought.get(&item).cloned().unwrap_or_default()
        };
        let part = parts.iter().find(|p| p.id == item);
        let row = RequiredOrder {
            product_id: item,
            product_sku: part.map(|p| p.sku.clone()),
            product_name: part.map(|p| p.name.clone()),
            quantity_short: Decimal((&need - &free).max(BigDecimal::zero())),
            quantity_required: Decimal(need),
            quantity_available: Decimal(free),
            quantity_incoming: Decimal(incoming),
            bom_level: level,
            has_bom,
        };
        if has_bom {
            work.push(row)
        } else {
            buy.push(row)
        }
    }
    Ok(RequiredOrders {
        order_id: f.order.id,
        order_code: f.order.code.clone(),
        summary: RequiredSummary {
            work_orders: work.len() as i64,
            purchase_orders: buy.len() as i64,
            total: (work.len() + buy.len()) as i64,
        },
        work_orders_needed: work,
        purchase_orders_needed: buy,
    })
}
