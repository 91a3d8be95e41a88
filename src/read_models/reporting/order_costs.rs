//! What a sales order cost to fulfil (FilaOps's `/admin/accounting/order-cost-breakdown`):
//! the materials its production orders consumed or scrapped, their machine and labour time,
//! the packaging its shipment used, against the order's revenue before tax. Read from the
//! stock ledger in one statement; shipping is an operating expense, not cost of goods.

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Numeric, Text};
use diesel_async::RunQueryDsl;

use crate::platform::auth::Access;
use crate::platform::db::schema::sales_orders;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;

/// One item's share of a cost.
#[derive(Debug, Clone, SimpleObject)]
pub struct CostLine {
    /// The item's SKU.
    pub sku: String,
    /// Quantity, in its stocking unit.
    pub quantity: f64,
    /// Cost per unit.
    pub unit_cost: f64,
    /// Quantity x cost.
    pub total: f64,
}

/// A cost with the items behind it.
#[derive(Debug, Clone, SimpleObject)]
pub struct CostGroup {
    /// The sum.
    pub total: f64,
    /// By item, costliest first.
    pub items: Vec<CostLine>,
}

/// The costs.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderCosts {
    /// Materials consumed or scrapped by the order's production.
    pub materials: CostGroup,
    /// Machine and labour time booked to it.
    pub labor: f64,
    /// Packaging its shipment used.
    pub packaging: CostGroup,
}

/// A sales order's cost against its revenue.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderCostBreakdown {
    /// The sales order.
    pub order_id: i64,
    /// Its number.
    pub order_number: String,
    /// Its status.
    pub order_status: String,
    /// Revenue before tax and shipping (the lines' total).
    pub revenue: f64,
    /// The costs.
    pub costs: OrderCosts,
    /// Shipping charged (an operating expense, not cost of goods).
    pub shipping_expense: f64,
    /// Materials + labour + packaging.
    pub total_cogs: f64,
    /// Revenue - cost of goods.
    pub gross_profit: f64,
    /// Gross profit / revenue, percent (0 without revenue).
    pub gross_margin_pct: f64,
    /// How to read it.
    pub note: String,
}

#[derive(QueryableByName)]
struct Moved {
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Text)]
    sku: String,
    #[diesel(sql_type = Numeric)]
    quantity: BigDecimal,
    #[diesel(sql_type = Nullable<Numeric>)]
    unit_cost: Option<BigDecimal>,
}

fn f(v: &BigDecimal) -> f64 {
    v.to_f64().unwrap_or(0.0)
}

fn group(lines: Vec<(String, BigDecimal, BigDecimal)>) -> CostGroup {
    let mut items: Vec<CostLine> = lines
        .into_iter()
        .map(|(sku, q, c)| CostLine {
            total: f(&(&q * &c).round(2)),
            sku,
            quantity: f(&q),
            unit_cost: f(&c),
        })
        .collect();
    items.sort_by(|a, b| b.total.total_cmp(&a.total).then(a.sku.cmp(&b.sku)));
    CostGroup {
        total: (items.iter().map(|i| i.total).sum::<f64>() * 100.0).round() / 100.0,
        items,
    }
}

/// Order cost queries (staff).
#[derive(Default)]
pub struct OrderCostQuery;

#[Object]
impl OrderCostQuery {
    /// What a sales order cost to fulfil against its revenue.
    #[graphql(guard = "Access::User")]
    async fn order_cost_breakdown(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The sales order.")] id: i64,
    ) -> AppResult<OrderCostBreakdown> {
        let mut conn = context::conn(ctx).await?;
        let (number, status, subtotal, shipping): (String, String, BigDecimal, BigDecimal) =
            sales_orders::table
                .find(id)
                .select((
                    sales_orders::order_number,
                    sales_orders::status,
                    sales_orders::subtotal,
                    sales_orders::shipping_cost,
                ))
                .first(&mut *conn)
                .await
                .optional()?
                .ok_or_else(|| AppError::not_found("Order not found"))?;
        // Production's materials (consumed or scrapped) and time, and the shipment's
        // packaging; rows waiting for approval are not costs yet.
        let moved: Vec<Moved> = diesel::sql_query(
            "SELECT CASE WHEN t.transaction_type = 'machine_time' THEN 'labor' \
                         WHEN t.reference_type = 'production_order' THEN 'material' \
                         ELSE 'packaging' END AS kind, \
                    i.sku, sum(abs(t.quantity)) AS quantity, \
                    CASE WHEN sum(abs(t.quantity)) = 0 THEN NULL \
                         ELSE sum(abs(COALESCE(t.total_cost, t.quantity * COALESCE(t.cost_per_unit, 0)))) / sum(abs(t.quantity)) END AS unit_cost \
             FROM inventory_transactions t JOIN items i ON i.id = t.item_id \
             WHERE NOT (t.requires_approval AND t.approved_by IS NULL) AND ( \
                   (t.reference_type = 'production_order' \
                    AND t.reference_id IN (SELECT id FROM production_orders WHERE sales_order_id = $1) \
                    AND t.transaction_type IN ('consumption', 'scrap', 'machine_time')) \
                OR (t.reference_type = 'sales_order' AND t.reference_id = $1 \
                    AND t.transaction_type = 'consumption')) \
             GROUP BY 1, 2 ORDER BY 1, 2",
        )
        .bind::<BigInt, _>(id)
        .load(&mut *conn)
        .await?;
        let (mut materials, mut packaging, mut labor) =
            (Vec::new(), Vec::new(), BigDecimal::zero());
        for m in moved {
            let cost = m.unit_cost.unwrap_or_default();
            match m.kind.as_str() {
                "labor" => labor += &m.quantity * &cost,
                "material" => materials.push((m.sku, m.quantity, cost)),
                _ => packaging.push((m.sku, m.quantity, cost)),
            }
        }
        let materials = group(materials);
        let packaging = group(packaging);
        let labor = f(&labor.round(2));
        let revenue = f(&subtotal);
        let cogs = ((materials.total + labor + packaging.total) * 100.0).round() / 100.0;
        let profit = ((revenue - cogs) * 100.0).round() / 100.0;
        Ok(OrderCostBreakdown {
            order_id: id,
            order_number: number,
            order_status: status,
            revenue,
            shipping_expense: f(&shipping),
            total_cogs: cogs,
            gross_profit: profit,
            gross_margin_pct: if revenue > 0.0 {
                (profit / revenue * 1000.0).round() / 10.0
            } else {
                0.0
            },
            costs: OrderCosts {
                materials,
                labor,
                packaging,
            },
            note: "Revenue excludes tax (liability). Shipping is operating expense, not COGS. Values may be incomplete if transactions are missing.".into(),
        })
    }
}
