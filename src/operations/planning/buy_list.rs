//! The buy list (`/buy-list`): computed fresh on every read, never stored. All open demand
//! (open sales order lines, open production orders, and the components of what those need
//! made) is netted with [`netting::plan`] against on hand, what is on order and safety stock
//! over a year; the bought items still short are listed, grouped by preferred vendor, with
//! what to order and what it costs. One action turns the list into draft purchase orders,
//! one per vendor.

use std::collections::{BTreeMap, HashMap};

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::{Duration, NaiveDate, Utc};
use diesel_async::AsyncPgConnection;

use crate::operations::planning::inputs::{self, Scope, from_qty};
use crate::operations::planning::netting::{self, Qty, extend};
use crate::operations::purchasing::model::{PurchaseOrderRow, PurchaseOrderStatus};
use crate::operations::purchasing::rules::{PurchaseOrderCreateInput, PurchaseOrderLineInput};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::Stop;

/// Days of demand the buy list covers.
const HORIZON_DAYS: i64 = 365;

/// One open purchase order line that is part of the projected supply.
#[derive(Debug, Clone, SimpleObject)]
pub struct BuyListIncoming {
    /// The purchase order.
    pub purchase_order_id: i64,
    /// Its number.
    pub po_number: String,
    /// Still to arrive (stocking unit).
    pub quantity: Decimal,
    /// Expected.
    pub expected_date: Option<NaiveDate>,
    /// Draft (not yet sent: uncommitted supply), ordered or shipped.
    pub status: PurchaseOrderStatus,
}

/// One bought item that is short.
#[derive(Debug, Clone, SimpleObject)]
pub struct BuyListItem {
    /// The item.
    pub product_id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Stocking unit.
    pub unit: String,
    /// Everything open orders ask of it, components of what must be made included.
    pub gross_demand: Decimal,
    /// On hand.
    pub on_hand: Decimal,
    /// Allocated.
    pub allocated: Decimal,
    /// On hand less allocated (may be negative).
    pub available: Decimal,
    /// Still to arrive on open purchase orders.
    pub incoming_qty: Decimal,
    /// Available plus incoming.
    pub projected: Decimal,
    /// Safety stock.
    pub safety_stock: Decimal,
    /// Gross demand less projected, plus safety stock.
    pub net_shortage: Decimal,
    /// What to order: the shortfall day by day, rounded up to the minimum and pack sizes.
    pub suggested_qty: Decimal,
    /// The preferred vendor.
    pub preferred_vendor_id: Option<i64>,
    /// Its name.
    pub preferred_vendor_name: Option<String>,
    /// Cost of one stocking unit.
    pub unit_cost: Decimal,
    /// Suggested quantity × unit cost.
    pub estimated_buy_value: Decimal,
    /// The first day it is needed.
    pub earliest_need: Option<NaiveDate>,
    /// The open purchase order lines counted as incoming.
    pub incoming_details: Vec<BuyListIncoming>,
}

/// Counts over the buy list.
#[derive(Debug, Clone, SimpleObject)]
pub struct BuyListSummary {
    /// Items short.
    pub components_short: i32,
    /// What buying them all costs.
    pub total_estimated_buy_value: Decimal,
    /// Open sales orders read.
    pub open_sales_orders_included: i32,
    /// Open production orders read.
    pub open_production_orders_included: i32,
    /// Incoming quantity on draft purchase orders (not yet committed).
    pub draft_incoming_qty: Decimal,
}

/// The buy list.
#[derive(Debug, Clone, SimpleObject)]
pub struct BuyList {
    /// Counts.
    pub summary: BuyListSummary,
    /// Items short, by preferred vendor, then first need.
    pub items: Vec<BuyListItem>,
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// Computes the buy list (only items of one preferred vendor when asked).
pub async fn compute(conn: &mut AsyncPgConnection, vendor_id: Option<i64>) -> AppResult<BuyList> {
    let today = Utc::now().date_naive();
    let scope = Scope {
        today,
        include_draft_orders: false,
    };
    let data = inputs::load(conn, scope).await?;
    let outcome = netting::plan(
        &data.items,
        &data.demands,
        &data.receipts,
        today,
        today + Duration::days(HORIZON_DAYS),
    );
    let mut gross: HashMap<i64, Qty> = HashMap::new();
    for d in &data.demands {
        *gross.entry(d.item_id).or_default() += d.qty;
    }
    let by_id: HashMap<i64, &netting::PlanItem> = data.items.iter().map(|i| (i.id, i)).collect();
    let mut planned: BTreeMap<i64, (Qty, NaiveDate)> = BTreeMap::new();
    for p in &outcome.planned {
        if let Some(item) = by_id.get(&p.item_id).filter(|i| i.make) {
            for (component, per) in &item.components {
                *gross.entry(*component).or_default() += extend(*per, p.qty);
            }
        } else {
            let slot = planned.entry(p.item_id).or_insert((0, p.need_date));
            slot.0 += p.qty;
            slot.1 = slot.1.min(p.need_date);
        }
    }
    let open = crate::operations::purchasing::rules::open_lines(conn, None).await?;
    let draft_incoming: BigDecimal = open
        .iter()
        .filter(|l| l.status == PurchaseOrderStatus::Draft)
        .map(|l| l.remaining.clone())
        .sum();
    let mut items = Vec::new();
    for (id, (qty, need)) in planned {
        let Some(facts) = data.facts.get(&id) else {
            continue;
        };
        if vendor_id.is_some() && facts.vendor.as_ref().map(|v| v.0) != vendor_id {
            continue;
        }
        let details: Vec<BuyListIncoming> = open
            .iter()
            .filter(|l| l.product_id == id)
            .map(|l| BuyListIncoming {
                purchase_order_id: l.purchase_order_id,
                po_number: l.po_number.clone(),
                quantity: Decimal(l.remaining.clone()),
                expected_date: l.expected_date,
                status: l.status,
            })
            .collect();
        let incoming: BigDecimal = details.iter().map(|d| d.quantity.0.clone()).sum();
        let available = &facts.on_hand - &facts.allocated;
        let projected = &available + &incoming;
        let safety = by_id
            .get(&id)
            .map(|i| from_qty(i.safety_stock))
            .unwrap_or_default();
        let demand = from_qty(gross.get(&id).copied().unwrap_or(0));
        let short = &demand - &projected + &safety;
        let suggested = from_qty(qty);
        items.push(BuyListItem {
            product_id: id,
            sku: facts.sku.clone(),
            name: facts.name.clone(),
            unit: facts.unit.clone(),
            gross_demand: Decimal(demand),
            on_hand: Decimal(facts.on_hand.clone()),
            allocated: Decimal(facts.allocated.clone()),
            available: Decimal(available),
            incoming_qty: Decimal(incoming),
            projected: Decimal(projected),
            safety_stock: Decimal(safety),
            net_shortage: Decimal(if short > BigDecimal::zero() {
                short
            } else {
                BigDecimal::zero()
            }),
            estimated_buy_value: Decimal(
                (&suggested * &facts.unit_cost).with_scale_round(2, RoundingMode::HalfUp),
            ),
            suggested_qty: Decimal(suggested),
            preferred_vendor_id: facts.vendor.as_ref().map(|v| v.0),
            preferred_vendor_name: facts.vendor.as_ref().map(|v| v.1.clone()),
            unit_cost: Decimal(facts.unit_cost.clone()),
            earliest_need: Some(need),
            incoming_details: details,
        });
    }
    items.sort_by(|a, b| {
        (
            a.preferred_vendor_name.is_none(),
            &a.preferred_vendor_name,
            a.earliest_need,
            &a.sku,
        )
            .cmp(&(
                b.preferred_vendor_name.is_none(),
                &b.preferred_vendor_name,
                b.earliest_need,
                &b.sku,
            ))
    });
    let total: BigDecimal = items.iter().map(|i| i.estimated_buy_value.0.clone()).sum();
    Ok(BuyList {
        summary: BuyListSummary {
            components_short: count(items.len()),
            total_estimated_buy_value: Decimal(total),
            open_sales_orders_included: count(data.sales_orders),
            open_production_orders_included: count(data.production_orders),
            draft_incoming_qty: Decimal(draft_incoming),
        },
        items,
    })
}

/// Which buy list items to order.
#[derive(Debug, Clone, Default, InputObject)]
pub struct BuyListOrderInput {
    /// Only these items (default: the whole list).
    pub item_ids: Option<Vec<i64>>,
    /// The vendor for items without a preferred one (they are skipped otherwise).
    pub vendor_id: Option<i64>,
}

/// What ordering the buy list did.
#[derive(Debug, Clone, SimpleObject)]
pub struct BuyListOrderResult {
    /// The draft purchase orders, one per vendor.
    pub purchase_orders: Vec<PurchaseOrderRow>,
    /// Items left out because no vendor is known for them.
    pub skipped_item_ids: Vec<i64>,
    /// What happened, for people.
    pub message: String,
}

/// Creates draft purchase orders for the buy list (its suggested quantities, in stocking
/// units), one per vendor, in the caller's transaction.
pub async fn order(
    conn: &mut AsyncPgConnection,
    input: BuyListOrderInput,
    user: i64,
) -> Result<BuyListOrderResult, Stop> {
    let list = compute(conn, None).await?;
    let mut groups: BTreeMap<i64, Vec<(PurchaseOrderLineInput, Option<NaiveDate>)>> =
        BTreeMap::new();
    let mut skipped = Vec::new();
    for item in list.items {
        if input
            .item_ids
            .as_ref()
            .is_some_and(|only| !only.contains(&item.product_id))
        {
            continue;
        }
        let Some(vendor) = item.preferred_vendor_id.or(input.vendor_id) else {
            skipped.push(item.product_id);
            continue;
        };
        groups.entry(vendor).or_default().push((
            PurchaseOrderLineInput {
                product_id: item.product_id,
                quantity_ordered: item.suggested_qty,
                unit_cost: Decimal(item.unit_cost.0.with_scale_round(4, RoundingMode::HalfUp)),
                purchase_unit: Some(item.unit),
                notes: Some("From the buy list".into()),
            },
            item.earliest_need,
        ));
    }
    let mut created = Vec::new();
    for (vendor_id, lines) in groups {
        let expected_date = lines.iter().filter_map(|l| l.1).min();
        let input = PurchaseOrderCreateInput {
            vendor_id,
            order_date: None,
            expected_date,
            notes: Some("Created from the buy list".into()),
            tracking_number: None,
            carrier: None,
            tax_amount: None,
            shipping_cost: None,
            payment_method: None,
            payment_reference: None,
            document_url: None,
            lines: lines.into_iter().map(|l| l.0).collect(),
        };
        created.push(crate::operations::purchasing::rules::create(conn, input, user).await?);
    }
    Ok(BuyListOrderResult {
        message: format!("Created {} purchase order(s)", created.len()),
        purchase_orders: created,
        skipped_item_ids: skipped,
    })
}
