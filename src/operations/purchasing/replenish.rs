//! Replenishment and vendor performance: low-stock suggestions with each item's preferred
//! vendor and a quantity in the purchase unit, draft orders made from them (one per
//! vendor), a quick reorder of one item, and a vendor's metrics (on-time rate, average lead
//! time, spend).

use std::collections::{BTreeMap, HashMap};

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::purchasing::item_demand::LowStockItem;
use crate::operations::purchasing::model::{PurchaseOrderRow, PurchaseOrderStatus};
use crate::operations::purchasing::rules::{
    self, PurchaseOrderCreateInput, PurchaseOrderLineInput,
};
use crate::platform::db::schema::{items, purchase_orders, vendor_items, vendors};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// A low-stock item with what to order and from whom.
#[derive(Debug, Clone, SimpleObject)]
pub struct ReorderSuggestion {
    /// The item.
    pub item_id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Stocking unit.
    pub unit: String,
    /// Reorder point (stocking unit).
    pub reorder_point: Decimal,
    /// Available now (stocking unit).
    pub available_qty: Decimal,
    /// Still to arrive on open orders (stocking unit).
    pub on_order_qty: Decimal,
    /// Reorder point less available and on order (stocking unit).
    pub shortfall: Decimal,
    /// The unit to buy in.
    pub purchase_unit: String,
    /// How much to order, in the purchase unit (at least the shortfall, the reorder
    /// quantity and the minimum order, rounded up to whole purchase units).
    pub suggested_qty: Decimal,
    /// The preferred vendor (else the last one bought from), if any.
    pub vendor_id: Option<i64>,
    /// That vendor's name.
    pub vendor_name: Option<String>,
    /// The last price paid to that vendor, per purchase unit.
    pub last_price: Option<Decimal>,
}

#[derive(Debug, Clone, Queryable)]
struct ItemBuying {
    id: i64,
    purchase_uom: String,
    purchase_factor: BigDecimal,
    reorder_qty: Option<BigDecimal>,
    min_order_qty: Option<BigDecimal>,
    standard_cost: Option<BigDecimal>,
}

/// The vendor to buy each item from: the preferred one, else the one ordered from last.
async fn vendors_for(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
) -> QueryResult<HashMap<i64, (i64, String, Option<BigDecimal>)>> {
    let rows: Vec<(i64, i64, String, Option<BigDecimal>)> = vendor_items::table
        .inner_join(vendors::table)
        .filter(vendor_items::item_id.eq_any(item_ids))
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
            vendor_items::last_price,
        ))
        .load(conn)
        .await?;
    let mut out = HashMap::new();
    for (item, vendor, name, price) in rows {
        out.entry(item).or_insert((vendor, name, price));
    }
    Ok(out)
}

/// Low-stock items with their suggestions, by SKU.
pub async fn suggestions(conn: &mut AsyncPgConnection) -> Result<Vec<ReorderSuggestion>, Stop> {
    let low: Vec<LowStockItem> =
        crate::operations::purchasing::item_demand::low_stock(conn).await?;
    let ids: Vec<i64> = low.iter().map(|l| l.id).collect();
    let buying: HashMap<i64, ItemBuying> = items::table
        .filter(items::id.eq_any(&ids))
        .select((
            items::id,
            items::purchase_uom,
            items::purchase_factor,
            items::reorder_qty,
            items::min_order_qty,
            items::standard_cost,
        ))
        .load::<ItemBuying>(conn)
        .await?
        .into_iter()
        .map(|b| (b.id, b))
        .collect();
    let vendors = vendors_for(conn, &ids).await?;
    Ok(low
        .into_iter()
        .filter_map(|l| {
            let b = buying.get(&l.id)?;
            let factor = if b.purchase_uom == l.unit || b.purchase_factor <= BigDecimal::zero() {
                BigDecimal::from(1)
            } else {
                b.purchase_factor.clone()
            };
            let need = [
                Some(l.shortfall.0.clone()),
                b.reorder_qty.clone(),
                b.min_order_qty.clone(),
            ]
            .into_iter()
            .flatten()
            .fold(BigDecimal::zero(), |a, x| if x > a { x } else { a });
            let mut qty = (need / &factor).with_scale_round(0, RoundingMode::Ceiling);
            if qty <= BigDecimal::zero() {
                qty = BigDecimal::from(1);
            }
            let vendor = vendors.get(&l.id);
            Some(ReorderSuggestion {
                item_id: l.id,
                sku: l.sku,
                name: l.name,
                unit: l.unit,
                reorder_point: l.reorder_point,
                available_qty: l.on_hand_qty,
                on_order_qty: l.on_order_qty,
                shortfall: l.shortfall,
                purchase_unit: b.purchase_uom.clone(),
                suggested_qty: Decimal(qty),
                vendor_id: vendor.map(|v| v.0),
                vendor_name: vendor.map(|v| v.1.clone()),
                last_price: vendor
                    .and_then(|v| v.2.clone())
                    .or_else(|| b.standard_cost.as_ref().map(|c| c * &factor))
                    .map(|p| Decimal(p.with_scale_round(4, RoundingMode::HalfUp))),
            })
        })
        .collect())
}

/// Which low-stock items to order (`POST /purchase-orders/from-low-stock`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct FromLowStockInput {
    /// Only these items (default: every suggestion).
    pub item_ids: Option<Vec<i64>>,
    /// The vendor for items that have none (they are skipped otherwise).
    pub vendor_id: Option<i64>,
}

/// What ordering from low stock did.
#[derive(Debug, Clone, SimpleObject)]
pub struct FromLowStockResult {
    /// The draft orders created, one per vendor.
    pub purchase_orders: Vec<PurchaseOrderRow>,
    /// Items left out because no vendor is known for them.
    pub skipped_item_ids: Vec<i64>,
    /// What happened, for people.
    pub message: String,
}

/// Creates draft orders for low-stock items, grouped by vendor, in the caller's transaction.
pub async fn from_low_stock(
    conn: &mut AsyncPgConnection,
    input: FromLowStockInput,
    user: i64,
) -> Result<FromLowStockResult, Stop> {
    let all = suggestions(conn).await?;
    let mut groups: BTreeMap<i64, Vec<PurchaseOrderLineInput>> = BTreeMap::new();
    let mut skipped = Vec::new();
    for s in all {
        if let Some(only) = &input.item_ids
            && !only.contains(&s.item_id)
        {
            continue;
        }
        let Some(vendor) = s.vendor_id.or(input.vendor_id) else {
            skipped.push(s.item_id);
            continue;
        };
        groups
            .entry(vendor)
            .or_default()
            .push(PurchaseOrderLineInput {
                product_id: s.item_id,
                quantity_ordered: s.suggested_qty,
                unit_cost: s.last_price.unwrap_or(Decimal(BigDecimal::zero())),
                purchase_unit: Some(s.purchase_unit),
                notes: Some("Low stock reorder".into()),
            });
    }
    let mut created = Vec::new();
    for (vendor_id, lines) in groups {
        created.push(rules::create(conn, draft(vendor_id, lines), user).await?);
    }
    Ok(FromLowStockResult {
        message: format!("Created {} purchase order(s)", created.len()),
        purchase_orders: created,
        skipped_item_ids: skipped,
    })
}

fn draft(vendor_id: i64, lines: Vec<PurchaseOrderLineInput>) -> PurchaseOrderCreateInput {
    PurchaseOrderCreateInput {
        vendor_id,
        order_date: None,
        expected_date: None,
        notes: None,
        tracking_number: None,
        carrier: None,
        tax_amount: None,
        shipping_cost: None,
        payment_method: None,
        payment_reference: None,
        document_url: None,
        lines,
    }
}

/// A quick reorder of one item (`POST /purchase-orders/quick-reorder/{product_id}`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct QuickReorderInput {
    /// The vendor (default: the item's preferred or last vendor).
    pub vendor_id: Option<i64>,
    /// How much, in the purchase unit (default: the low-stock suggestion, else 1).
    pub quantity: Option<Decimal>,
    /// Unit cost (default: the last price paid, else the standard cost).
    pub unit_cost: Option<Decimal>,
}

/// Creates a draft order for one item in the caller's transaction.
pub async fn quick_reorder(
    conn: &mut AsyncPgConnection,
    product_id: i64,
    input: QuickReorderInput,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let buying: Option<ItemBuying> = items::table
        .find(product_id)
        .select((
            items::id,
            items::purchase_uom,
            items::purchase_factor,
            items::reorder_qty,
            items::min_order_qty,
            items::standard_cost,
        ))
        .first(conn)
        .await
        .optional()?;
    let Some(b) = buying else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotFound,
            "Product not found",
        ));
    };
    let suggestion = suggestions(conn)
        .await?
        .into_iter()
        .find(|s| s.item_id == product_id);
    let known = vendors_for(conn, &[product_id]).await?.remove(&product_id);
    let Some(vendor_id) = input.vendor_id.or(known.as_ref().map(|k| k.0)) else {
        return Err(Stop::refuse(
            "vendorId",
            UserErrorCode::Invalid,
            "No vendor is known for this item: give vendor_id",
        ));
    };
    let quantity = input
        .quantity
        .or_else(|| suggestion.as_ref().map(|s| s.suggested_qty.clone()))
        .unwrap_or(Decimal(BigDecimal::from(1)));
    let cost = input
        .unit_cost
        .or_else(|| known.and_then(|k| k.2).map(Decimal))
        .or_else(|| {
            b.standard_cost.map(|c| {
                Decimal((c * &b.purchase_factor).with_scale_round(4, RoundingMode::HalfUp))
            })
        })
        .unwrap_or(Decimal(BigDecimal::zero()));
    rules::create(
        conn,
        draft(
            vendor_id,
            vec![PurchaseOrderLineInput {
                product_id,
                quantity_ordered: quantity,
                unit_cost: cost,
                purchase_unit: Some(b.purchase_uom),
                notes: Some("Quick reorder".into()),
            }],
        ),
        user,
    )
    .await
}

/// How a vendor performs (`GET /vendors/{id}/metrics`).
#[derive(Debug, Clone, SimpleObject)]
pub struct VendorMetrics {
    /// The vendor.
    pub vendor_id: i64,
    /// Purchase orders of every status.
    pub total_pos: i64,
    /// Orders placed (not draft or cancelled).
    pub placed_pos: i64,
    /// Orders received or closed.
    pub received_pos: i64,
    /// Money on placed orders.
    pub total_spend: Decimal,
    /// Average days from order to receipt (received orders with an order date).
    pub avg_lead_time_days: Option<Decimal>,
    /// Share of received orders with an expected date that arrived by it, in percent.
    pub on_time_rate: Option<Decimal>,
    /// The last order date.
    pub last_order_date: Option<NaiveDate>,
}

/// A vendor's metrics (404 for an unknown vendor).
pub async fn metrics(
    conn: &mut AsyncPgConnection,
    vendor_id: i64,
) -> crate::platform::error::AppResult<VendorMetrics> {
    let _: i64 = crate::platform::db::paging::find_or_404(
        conn,
        vendors::table.find(vendor_id).select(vendors::id),
        "Vendor not found",
    )
    .await?;
    type Row = (
        PurchaseOrderStatus,
        Option<NaiveDate>,
        Option<NaiveDate>,
        Option<NaiveDate>,
        BigDecimal,
    );
    let rows: Vec<Row> = purchase_orders::table
        .filter(purchase_orders::vendor_id.eq(vendor_id))
        .select((
            purchase_orders::status,
            purchase_orders::order_date,
            purchase_orders::expected_date,
            purchase_orders::received_date,
            purchase_orders::total_amount,
        ))
        .load(conn)
        .await?;
    use PurchaseOrderStatus::*;
    let placed: Vec<&Row> = rows
        .iter()
        .filter(|r| !matches!(r.0, Draft | Cancelled))
        .collect();
    let received: Vec<&Row> = rows
        .iter()
        .filter(|r| matches!(r.0, Received | Closed) && r.3.is_some())
        .collect();
    let leads: Vec<i64> = received
        .iter()
        .filter_map(|r| Some((r.3? - r.1?).num_days()))
        .collect();
    let timed: Vec<bool> = received.iter().filter_map(|r| Some(r.3? <= r.2?)).collect();
    let avg = |n: i64, d: usize| {
        (d > 0).then(|| {
            Decimal(
                (BigDecimal::from(n) / BigDecimal::from(d as i64))
                    .with_scale_round(2, RoundingMode::HalfUp),
            )
        })
    };
    Ok(VendorMetrics {
        vendor_id,
        total_pos: rows.len() as i64,
        placed_pos: placed.len() as i64,
        received_pos: received.len() as i64,
        total_spend: Decimal(placed.iter().map(|r| r.4.clone()).sum()),
        avg_lead_time_days: avg(leads.iter().sum(), leads.len()),
        on_time_rate: avg(
            timed.iter().filter(|t| **t).count() as i64 * 100,
            timed.len(),
        ),
        last_order_date: rows.iter().filter_map(|r| r.1).max(),
    })
}

/// One point of the purchasing trend: money placed with vendors per month.
#[derive(Debug, Clone, SimpleObject)]
pub struct PurchasingTrendPoint {
    /// The month, `YYYY-MM`.
    pub period: String,
    /// Orders placed in it.
    pub orders: i64,
    /// Their total.
    pub total: Decimal,
}

/// One day of FilaOps's purchasing trend: purchase orders received and their total.
#[derive(Debug, Clone, SimpleObject)]
pub struct ReceivedDay {
    /// The day, `YYYY-MM-DD`.
    pub date: NaiveDate,
    /// Orders received that day.
    pub received: i64,
    /// Their total.
    pub spend: f64,
}

/// FilaOps's `/admin/dashboard/purchasing-trend` envelope: orders received over a window
/// with totals and the pipeline now, beside Strata's money placed per month.
#[derive(Debug, Clone, SimpleObject)]
pub struct PurchasingTrendReport {
    /// The period asked for (echoed), when one was.
    pub period: Option<String>,
    /// First day of the window.
    pub start_date: NaiveDate,
    /// Last day (today).
    pub end_date: NaiveDate,
    /// Orders received (or closed) in the window.
    pub total_received: i64,
    /// Their total.
    pub total_spend: f64,
    /// Orders placed and not received now.
    pub pipeline_ordered: i64,
    /// Draft orders now.
    pub pipeline_draft: i64,
    /// The total of the orders placed and not received.
    pub pending_spend: f64,
    /// The days with receipts, oldest first.
    pub days: Vec<ReceivedDay>,
    /// Money placed with vendors per month over the last `months` months.
    pub months: Vec<PurchasingTrendPoint>,
}

/// The purchasing trend report: receipts since `start`, the pipeline, and `months` of
/// money placed.
pub async fn trend_report(
    conn: &mut AsyncPgConnection,
    period: Option<String>,
    start: NaiveDate,
    months: i64,
) -> crate::platform::error::AppResult<PurchasingTrendReport> {
    let received: Vec<(Option<NaiveDate>, BigDecimal)> = purchase_orders::table
        .filter(
            purchase_orders::status
                .eq_any([PurchaseOrderStatus::Received, PurchaseOrderStatus::Closed]),
        )
        .filter(purchase_orders::received_date.ge(start))
        .select((
            purchase_orders::received_date,
            purchase_orders::total_amount,
        ))
        .load(conn)
        .await?;
    let mut by_day: BTreeMap<NaiveDate, (i64, BigDecimal)> = BTreeMap::new();
    for (day, total) in received {
        if let Some(day) = day {
            let entry = by_day.entry(day).or_insert((0, BigDecimal::zero()));
            entry.0 += 1;
            entry.1 += total;
        }
    }
    let open: Vec<(PurchaseOrderStatus, BigDecimal)> = purchase_orders::table
        .filter(purchase_orders::status.eq_any([
            PurchaseOrderStatus::Draft,
            PurchaseOrderStatus::Ordered,
            PurchaseOrderStatus::Shipped,
        ]))
        .select((purchase_orders::status, purchase_orders::total_amount))
        .load(conn)
        .await?;
    let ordered = |s: &PurchaseOrderStatus| *s != PurchaseOrderStatus::Draft;
    let float = |v: &BigDecimal| bigdecimal::ToPrimitive::to_f64(v).unwrap_or(0.0);
    let days: Vec<ReceivedDay> = by_day
        .into_iter()
        .map(|(date, (received, spend))| ReceivedDay {
            date,
            received,
            spend: float(&spend),
        })
        .collect();
    Ok(PurchasingTrendReport {
        period,
        start_date: start,
        end_date: crate::ledgers::inventory::rules::today(),
        total_received: days.iter().map(|d| d.received).sum(),
        total_spend: days.iter().map(|d| d.spend).sum(),
        pipeline_ordered: open.iter().filter(|(s, _)| ordered(s)).count() as i64,
        pipeline_draft: open.iter().filter(|(s, _)| !ordered(s)).count() as i64,
        pending_spend: float(
            &open
                .iter()
                .filter(|(s, _)| ordered(s))
                .map(|(_, t)| t.clone())
                .sum::<BigDecimal>(),
        ),
        days,
        months: trend(conn, months).await?,
    })
}

/// Money placed with vendors per month over the last `months` months (dashboard).
pub async fn trend(
    conn: &mut AsyncPgConnection,
    months: i64,
) -> crate::platform::error::AppResult<Vec<PurchasingTrendPoint>> {
    use chrono::Datelike;
    let today = crate::ledgers::inventory::rules::today();
    let start = today
        .with_day(1)
        .and_then(|d| d.checked_sub_months(chrono::Months::new(months.clamp(1, 60) as u32 - 1)))
        .unwrap_or(today);
    let rows: Vec<(Option<NaiveDate>, BigDecimal)> = purchase_orders::table
        .filter(purchase_orders::order_date.ge(start))
        .filter(
            purchase_orders::status
                .ne_all([PurchaseOrderStatus::Draft, PurchaseOrderStatus::Cancelled]),
        )
        .select((purchase_orders::order_date, purchase_orders::total_amount))
        .load(conn)
        .await?;
    let mut by: BTreeMap<String, (i64, BigDecimal)> = BTreeMap::new();
    let mut d = start;
    while d <= today {
        by.insert(d.format("%Y-%m").to_string(), (0, BigDecimal::zero()));
        match d.checked_add_months(chrono::Months::new(1)) {
            Some(n) => d = n,
            None => break,
        }
    }
    for (date, total) in rows {
        if let Some(date) = date {
            let e = by
                .entry(date.format("%Y-%m").to_string())
                .or_insert((0, BigDecimal::zero()));
            e.0 += 1;
            e.1 += total;
        }
    }
    Ok(by
        .into_iter()
        .map(|(period, (orders, total))| PurchasingTrendPoint {
            period,
            orders,
            total: Decimal(total),
        })
        .collect())
}
