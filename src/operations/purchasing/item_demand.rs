//! Where items stand against demand (CONTRACT 5.6 routes declared with the items'):
//! counts over the catalog with its low-stock count, the items at or below their reorder
//! point, and one item's demand summary. Each weighs what is still to arrive on open
//! purchase orders ([`crate::operations::purchasing::rules::on_order`]), so they live with
//! purchasing rather than the catalog.

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::RunQueryDsl;

use crate::master_data::catalog::model::ItemType;
use crate::platform::auth::Access;
use crate::platform::db::schema::{item_categories, items};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Decimal;

/// Items per type (the types of CONTRACT 6.6).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemTypeCounts {
    /// Finished goods.
    pub finished_good: i64,
    /// Components.
    pub component: i64,
    /// Supplies.
    pub supply: i64,
    /// Services.
    pub service: i64,
    /// Materials (filament).
    pub material: i64,
    /// Packaging.
    pub packaging: i64,
}

/// Counts over the catalog.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemStats {
    /// Every item, active or not.
    pub total_items: i64,
    /// Active items.
    pub active_items: i64,
    /// Inactive (deleted) items.
    pub inactive_items: i64,
    /// Active items per type.
    pub by_type: ItemTypeCounts,
    /// Active items at or below their reorder point.
    pub low_stock_count: i64,
    /// Active categories.
    pub category_count: i64,
}

/// An item at or below its reorder point.
#[derive(Debug, Clone, SimpleObject)]
pub struct LowStockItem {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Type.
    pub item_type: String,
    /// Stocking unit.
    pub unit: String,
    /// The reorder point.
    pub reorder_point: Decimal,
    /// Available over every location.
    pub on_hand_qty: Decimal,
    /// Still to arrive on open purchase orders (draft, ordered, shipped).
    pub on_order_qty: Decimal,
    /// Reorder point minus available minus on order.
    pub shortfall: Decimal,
    /// Cost of one unit (standard, else average, else 0).
    pub cost: Decimal,
}

/// How bad the low stock is, over the items listed.
#[derive(Debug, Clone, SimpleObject)]
pub struct LowStockSummary {
    /// Items listed.
    pub total_items_low: i64,
    /// Items with nothing available.
    pub critical_count: i64,
    /// Items with some stock but at most half their reorder point.
    pub urgent_count: i64,
    /// Items above half their reorder point.
    pub low_count: i64,
    /// Items short because of planned demand rather than their reorder point (this list
    /// holds reorder-point items only; planned shortages are on the planning board).
    pub mrp_shortage_count: i64,
    /// What buying every shortfall would cost.
    pub total_shortfall_value: f64,
}

/// The low-stock list with its summary (FilaOps's `/items/low-stock` envelope).
#[derive(Debug, Clone, SimpleObject)]
pub struct LowStockReport {
    /// The items.
    pub items: Vec<LowStockItem>,
    /// How many.
    pub count: i64,
    /// The counts by severity and the shortfall's value.
    pub summary: LowStockSummary,
}

impl LowStockReport {
    /// The report of a low-stock list.
    pub fn of(items: Vec<LowStockItem>) -> LowStockReport {
        let count =
            |f: &dyn Fn(&LowStockItem) -> bool| items.iter().filter(|i| f(i)).count() as i64;
        let half = |i: &LowStockItem| &i.reorder_point.0 / BigDecimal::from(2);
        let zero = BigDecimal::from(0);
        let summary = LowStockSummary {
            total_items_low: items.len() as i64,
            critical_count: count(&|i| i.on_hand_qty.0 <= zero),
            urgent_count: count(&|i| i.on_hand_qty.0 > zero && i.on_hand_qty.0 <= half(i)),
            low_count: count(&|i| i.on_hand_qty.0 > half(i)),
            mrp_shortage_count: 0,
            total_shortfall_value: items
                .iter()
                .map(|i| &i.shortfall.0 * &i.cost.0)
                .sum::<BigDecimal>()
                .with_scale_round(2, bigdecimal::RoundingMode::HalfUp)
                .to_string()
                .parse()
                .unwrap_or(0.0),
        };
        LowStockReport {
            count: items.len() as i64,
            items,
            summary,
        }
    }
}

#[derive(QueryableByName)]
struct LowStockRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    sku: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    item_type: String,
    #[diesel(sql_type = Text)]
    unit: String,
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    reorder_point: BigDecimal,
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    on_hand_qty: BigDecimal,
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    cost: BigDecimal,
}

/// Active items whose available stock (over every location) is at or below their reorder
/// point.
const LOW_STOCK_SQL: &str = "\
    WITH on_hand AS (SELECT i.id AS item_id, COALESCE(SUM(b.available_quantity), 0) AS qty \
                     FROM items i LEFT JOIN inventory_balances b ON b.item_id = i.id GROUP BY i.id) \
    SELECT i.id, i.sku, i.name, i.item_type, i.unit, i.reorder_point, oh.qty AS on_hand_qty, \
           COALESCE(i.standard_cost, i.average_cost, 0) AS cost \
    FROM items i JOIN on_hand oh ON oh.item_id = i.id \
    WHERE i.active AND i.reorder_point > 0 AND oh.qty <= i.reorder_point \
    ORDER BY i.sku";

/// Active items below their reorder point: available stock plus what is still to arrive on
/// open purchase orders is at or below the reorder point (so an item already on order is not
/// suggested twice).
pub async fn low_stock(conn: &mut diesel_async::AsyncPgConnection) -> AppResult<Vec<LowStockItem>> {
    let rows: Vec<LowStockRow> = diesel::sql_query(LOW_STOCK_SQL).load(conn).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let on_order = crate::operations::purchasing::rules::on_order(conn, &ids).await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let ordered = on_order.get(&r.id).cloned().unwrap_or_default();
            let covered = &r.on_hand_qty + &ordered;
            (covered <= r.reorder_point).then(|| LowStockItem {
                shortfall: Decimal(&r.reorder_point - &covered),
                id: r.id,
                sku: r.sku,
                name: r.name,
                item_type: r.item_type,
                unit: r.unit,
                reorder_point: Decimal(r.reorder_point),
                on_hand_qty: Decimal(r.on_hand_qty),
                on_order_qty: Decimal(ordered),
                cost: Decimal(r.cost),
            })
        })
        .collect())
}

/// Where an item's stock is going and coming from (`GET /items/{id}/demand-summary`), in its
/// stocking unit. Demand counts open orders only (sales orders not shipped, closed, drafted
/// or cancelled; production orders not complete, cancelled, split or scrapped); the
/// unreserved part is what no reservation covers yet.
#[derive(Debug, Clone, QueryableByName, SimpleObject)]
pub struct DemandSummary {
    /// The item.
    #[diesel(sql_type = BigInt)]
    pub item_id: i64,
    /// Its SKU.
    #[diesel(sql_type = Text)]
    pub sku: String,
    /// Its name.
    #[diesel(sql_type = Text)]
    pub name: String,
    /// Its stocking unit.
    #[diesel(sql_type = Text)]
    pub unit: String,
    /// On hand over every location.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub on_hand: Decimal,
    /// Reserved for orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub allocated: Decimal,
    /// On hand minus reserved.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub available: Decimal,
    /// Still to ship on open sales orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub sales_demand: Decimal,
    /// The part of it no reservation covers.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub sales_unreserved: Decimal,
    /// Still to consume as a component of open production orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub production_demand: Decimal,
    /// The part of it no reservation covers.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub production_unreserved: Decimal,
    /// Still to make on open production orders of this item.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub in_production: Decimal,
    /// Still to receive on open purchase orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub on_order: Decimal,
    /// Available + in production + on order - unreserved demand.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub projected: Decimal,
    /// How much more is needed (0 when the projection is not negative).
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub shortage: Decimal,
}

/// The demand summary without what is on order (added from purchasing's own conversion).
const DEMAND_SQL: &str = "\
    WITH stock AS (SELECT COALESCE(SUM(on_hand_quantity), 0) AS on_hand, \
                          COALESCE(SUM(allocated_quantity), 0) AS allocated \
                   FROM inventory_balances WHERE item_id = $1), \
    sales AS (SELECT COALESCE(SUM(l.quantity - l.quantity_shipped), 0) AS demand, \
                     COALESCE(SUM(GREATEST(l.quantity - l.quantity_shipped - l.quantity_allocated, 0)), 0) AS unreserved \
              FROM sales_order_lines l JOIN sales_orders o ON o.id = l.sales_order_id \
              WHERE l.product_id = $1 \
                AND o.status IN ('pending', 'pending_confirmation', 'confirmed', 'in_production', 'ready_to_ship', 'on_hold')), \
    made AS (SELECT COALESCE(SUM(GREATEST(m.quantity_required - m.quantity_consumed, 0)), 0) AS demand, \
                    COALESCE(SUM(GREATEST(m.quantity_required - m.quantity_consumed - m.quantity_allocated, 0)), 0) AS unreserved \
             FROM production_order_materials m JOIN production_orders p ON p.id = m.production_order_id \
             WHERE m.component_id = $1 AND p.status IN ('draft', 'released', 'in_progress', 'on_hold')), \
    making AS (SELECT COALESCE(SUM(GREATEST(p.quantity_ordered - p.quantity_completed - p.quantity_scrapped, 0)), 0) AS qty \
               FROM production_orders p \
               WHERE p.product_id = $1 AND p.status IN ('draft', 'released', 'in_progress', 'on_hold')) \
    SELECT i.id AS item_id, i.sku, i.name, i.unit, stock.on_hand, stock.allocated, \
           stock.on_hand - stock.allocated AS available, \
           sales.demand AS sales_demand, sales.unreserved AS sales_unreserved, \
           made.demand AS production_demand, made.unreserved AS production_unreserved, \
           making.qty AS in_production, 0::numeric AS on_order, \
           stock.on_hand - stock.allocated + making.qty - sales.unreserved - made.unreserved AS projected, \
           0::numeric AS shortage \
    FROM items i, stock, sales, made, making WHERE i.id = $1";

/// An item's demand summary; `None` for an unknown item.
pub async fn demand_summary(
    conn: &mut diesel_async::AsyncPgConnection,
    item_id: i64,
) -> AppResult<Option<DemandSummary>> {
    let row: Option<DemandSummary> = diesel::sql_query(DEMAND_SQL)
        .bind::<BigInt, _>(item_id)
        .get_result(conn)
        .await
        .optional()?;
    let Some(mut row) = row else {
        return Ok(None);
    };
    let on_order = crate::operations::purchasing::rules::on_order(conn, &[item_id])
        .await?
        .remove(&item_id)
        .unwrap_or_default();
    let projected = &row.projected.0 + &on_order;
    row.shortage = Decimal(if projected.sign() == bigdecimal::num_bigint::Sign::Minus {
        -projected.clone()
    } else {
        BigDecimal::default()
    });
    row.projected = Decimal(projected);
    row.on_order = Decimal(on_order);
    Ok(Some(row))
}

/// Item demand queries.
#[derive(Default)]
pub struct ItemDemandQuery;

#[Object]
impl ItemDemandQuery {
    /// Where an item's stock is going and coming from: on hand, reserved, open sales and
    /// production demand, what is being made and what is on order, the projection and the
    /// shortage (404 `Item not found`).
    #[graphql(guard = "Access::User")]
    async fn item_demand_summary(&self, ctx: &Context<'_>, id: i64) -> AppResult<DemandSummary> {
        demand_summary(&mut *context::conn(ctx).await?, id)
            .await?
            .ok_or_else(|| AppError::not_found("Item not found"))
    }

    /// Counts over the catalog (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn item_stats(&self, ctx: &Context<'_>) -> AppResult<ItemStats> {
        let mut conn = context::conn(ctx).await?;
        let per_type: Vec<(ItemType, bool, i64)> = items::table
            .group_by((items::item_type, items::active))
            .select((items::item_type, items::active, diesel::dsl::count_star()))
            .load(&mut *conn)
            .await?;
        let mut stats = ItemStats::default();
        for (item_type, active, n) in per_type {
            stats.total_items += n;
            if !active {
                stats.inactive_items += n;
                continue;
            }
            stats.active_items += n;
            let t = &mut stats.by_type;
            match item_type {
                ItemType::FinishedGood => t.finished_good += n,
                ItemType::Component => t.component += n,
                ItemType::Supply => t.supply += n,
                ItemType::Service => t.service += n,
                ItemType::Material => t.material += n,
                ItemType::Packaging => t.packaging += n,
                // Counted in the totals only, as before (the original has no such type).
                ItemType::Consumable => {}
            }
        }
        stats.low_stock_count = low_stock(&mut conn).await?.len() as i64;
        stats.category_count = item_categories::table
            .filter(item_categories::active.eq(true))
            .count()
            .get_result(&mut *conn)
            .await?;
        Ok(stats)
    }

    /// Active items at or below their reorder point (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn low_stock_items(&self, ctx: &Context<'_>) -> AppResult<Vec<LowStockItem>> {
        low_stock(&mut *context::conn(ctx).await?).await
    }

    /// The low-stock items with their count and a summary by severity (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn low_stock_report(&self, ctx: &Context<'_>) -> AppResult<LowStockReport> {
        Ok(LowStockReport::of(
            low_stock(&mut *context::conn(ctx).await?).await?,
        ))
    }
}
