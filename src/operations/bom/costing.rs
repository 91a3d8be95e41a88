//! Recosting (`POST /items/{id}/recost`, `/items/recost-all`): an item's standard cost from
//! its active BOM's roll-up or its latest purchase price, computed for any number of items in
//! a fixed number of statements. The REST routes are declared with the items'
//! (`crate::master_data::catalog::rest`).

use std::collections::{HashMap, HashSet};

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Numeric};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::catalog::graphql::ItemType;
use crate::master_data::catalog::model::{self, ItemRow, ProcurementType};
use crate::operations::bom::model as bom_model;
use crate::operations::bom::tree::Tree;
use crate::operations::purchasing::model::PurchaseOrderStatus;
use crate::operations::purchasing::rules::{PurchasedItem, stock_factor};
use crate::platform::auth::Access;
use crate::platform::db::scale::COST_SCALE;
use crate::platform::db::schema::{items as items_table, purchase_order_lines, purchase_orders};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

crate::text_enum! {
    /// Where a recomputed standard cost comes from.
    pub enum CostSource {
        /// The active BOM's cost roll-up (components, sub-assemblies and process cost).
        Manufactured,
        /// The latest purchase order price (else the last receipt's cost), per stocking unit.
        Purchased,
    }
}

/// One item's recomputed standard cost.
#[derive(Debug, Clone)]
pub struct Recosted {
    /// The item.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// The standard cost before.
    pub old_cost: Option<BigDecimal>,
    /// The standard cost now.
    pub new_cost: BigDecimal,
    /// Where it came from.
    pub source: CostSource,
    /// The active BOM, when it has one.
    pub bom_id: Option<i64>,
    /// The BOM's roll-up per unit, when it has a BOM with lines.
    pub bom_cost: Option<BigDecimal>,
    /// The purchase cost per stocking unit, when it has purchase history.
    pub purchase_cost: Option<BigDecimal>,
}

impl Recosted {
    /// Whether the new cost differs from the old one.
    pub fn changed(&self) -> bool {
        self.old_cost.as_ref() != Some(&self.new_cost)
    }
}

/// Why an item could not be recosted.
#[derive(Debug, Clone)]
pub enum Uncosted {
    /// No active BOM with lines and no purchase history.
    NoSource(String),
    /// Its BOM structure contains itself.
    Circular(String),
}

impl Uncosted {
    /// What to tell the user.
    pub fn message(self) -> String {
        match self {
            Uncosted::NoSource(m) | Uncosted::Circular(m) => m,
        }
    }
}

/// Which items `recost-all` looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecostScope {
    /// Only this type.
    pub item_type: Option<ItemType>,
    /// Only this category and its descendants.
    pub category_id: Option<i64>,
    /// Only items costed from this source.
    pub cost_source: Option<CostSource>,
}

/// What `recost-all` did.
#[derive(Debug, Clone, Default)]
pub struct RecostReport {
    /// Items whose standard cost changed, by SKU.
    pub changed: Vec<Recosted>,
    /// Items whose cost was recomputed and already right.
    pub unchanged: i64,
    /// Items without a BOM or purchase history, or whose cost came out as zero.
    pub skipped: i64,
    /// Items that could not be costed and why (a circular BOM), the first 100.
    pub errors: Vec<String>,
}

/// The latest purchase price of each item, per stocking unit: the newest line of a purchase
/// order that is not a draft or cancelled (by order date, then creation), converted from its
/// purchase unit like a receipt converts it. One statement for any number of items.
async fn latest_purchase_costs(
    conn: &mut AsyncPgConnection,
    items_of: &[ItemRow],
) -> AppResult<HashMap<i64, BigDecimal>> {
    let ids: Vec<i64> = items_of.iter().map(|i| i.id).collect();
    let rows: Vec<(i64, BigDecimal, String)> = purchase_order_lines::table
        .inner_join(purchase_orders::table)
        .filter(purchase_order_lines::product_id.eq_any(&ids))
        .filter(
            purchase_orders::status
                .ne_all([PurchaseOrderStatus::Draft, PurchaseOrderStatus::Cancelled]),
        )
        .distinct_on(purchase_order_lines::product_id)
        .order((
            purchase_order_lines::product_id,
            purchase_orders::order_date.desc().nulls_last(),
            purchase_orders::created_at.desc(),
            purchase_order_lines::id.desc(),
        ))
        .select((
            purchase_order_lines::product_id,
            purchase_order_lines::unit_cost,
            purchase_order_lines::purchase_unit,
        ))
        .load(conn)
        .await?;
    if rows.is_empty() {
        return Ok(HashMap::new());
    }
    let units: HashMap<String, model::UomRow> = model::units(conn)
        .await?
        .into_iter()
        .map(|u| (u.code.clone(), u))
        .collect();
    let by_id: HashMap<i64, &ItemRow> = items_of.iter().map(|i| (i.id, i)).collect();
    let mut out = HashMap::with_capacity(rows.len());
    for (item_id, unit_cost, purchase_unit) in rows {
        let Some(item) = by_id.get(&item_id) else {
            continue;
        };
        let bought = PurchasedItem {
            id: item.id,
            sku: item.sku.clone(),
            unit: item.unit.clone(),
            purchase_uom: item.purchase_uom.clone(),
            purchase_factor: item.purchase_factor.clone(),
            item_type: item.item_type,
            track_lots: item.track_lots,
        };
        let factor = match (units.get(&purchase_unit), units.get(&item.unit)) {
            (Some(p), Some(s)) => stock_factor(&bought, p, s),
            _ => None,
        };
        if let Some(factor) = factor.filter(|f| !f.is_zero()) {
            out.insert(
                item_id,
                (unit_cost / factor).with_scale_round(COST_SCALE, RoundingMode::HalfUp),
            );
        }
    }
    Ok(out)
}

/// The new standard cost of each item (or why there is none), in a fixed number of
/// statements: the active BOMs in one, their structures level by level ([`Tree::load`]),
/// the purchase prices in one. Bought items (`buy`) take their purchase cost first, the
/// others their BOM's roll-up first; each falls back on the other.
async fn compute_costs(
    conn: &mut AsyncPgConnection,
    items_of: &[ItemRow],
) -> AppResult<Vec<(usize, Result<Recosted, Uncosted>)>> {
    let ids: Vec<i64> = items_of.iter().map(|i| i.id).collect();
    let boms = bom_model::active_of(conn, &ids).await?;
    let bom_of: HashMap<i64, i64> = boms.iter().map(|b| (b.product_id, b.id)).collect();
    let tree = if boms.is_empty() {
        Tree::default()
    } else {
        Tree::load(conn, boms).await?
    };
    let purchased = latest_purchase_costs(conn, items_of).await?;
    let mut out = Vec::with_capacity(items_of.len());
    for (i, item) in items_of.iter().enumerate() {
        let bom_id = bom_of.get(&item.id).copied();
        let bom_cost = match bom_id.filter(|b| !tree.lines(*b).is_empty()) {
            Some(b) => match tree.cost(b) {
                Ok((total, _)) => Some(total),
                Err(cycle) => {
                    out.push((
                        i,
                        Err(Uncosted::Circular(format!(
                            "{}: {}",
                            item.sku,
                            cycle.message()
                        ))),
                    ));
                    continue;
                }
            },
            None => None,
        };
        let purchase_cost = purchased
            .get(&item.id)
            .cloned()
            .or_else(|| item.last_cost.clone());
        let bought_first = item.procurement_type == ProcurementType::Buy;
        let pick = if bought_first {
            purchase_cost
                .clone()
                .map(|c| (c, CostSource::Purchased))
                .or_else(|| bom_cost.clone().map(|c| (c, CostSource::Manufactured)))
        } else {
            bom_cost
                .clone()
                .map(|c| (c, CostSource::Manufactured))
                .or_else(|| purchase_cost.clone().map(|c| (c, CostSource::Purchased)))
        };
        let Some((new_cost, source)) = pick else {
            out.push((
                i,
                Err(Uncosted::NoSource(format!(
                    "{} has no active BOM with lines and no purchase history to cost it from",
                    item.sku
                ))),
            ));
            continue;
        };
        out.push((
            i,
            Ok(Recosted {
                id: item.id,
                sku: item.sku.clone(),
                name: item.name.clone(),
                old_cost: item.standard_cost.clone(),
                new_cost: new_cost.with_scale_round(COST_SCALE, RoundingMode::HalfUp),
                source,
                bom_id,
                bom_cost,
                purchase_cost,
            }),
        ));
    }
    Ok(out)
}

/// Writes new standard costs in one statement.
async fn store_costs(conn: &mut AsyncPgConnection, costs: &[&Recosted]) -> AppResult<()> {
    if costs.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = costs.iter().map(|c| c.id).collect();
    let values: Vec<BigDecimal> = costs.iter().map(|c| c.new_cost.clone()).collect();
    diesel::sql_query(
        "UPDATE items SET standard_cost = v.cost \
         FROM unnest($1::bigint[], $2::numeric[]) AS v(id, cost) WHERE items.id = v.id",
    )
    .bind::<Array<BigInt>, _>(ids)
    .bind::<Array<Numeric>, _>(values)
    .execute(conn)
    .await?;
    Ok(())
}

/// Recomputes one item's standard cost and stores it (in the caller's transaction). An item
/// with nothing to cost it from, or a circular BOM, is refused.
pub async fn recost(conn: &mut AsyncPgConnection, id: i64) -> Result<Recosted, Stop> {
    let item: ItemRow = items_table::table
        .find(id)
        .select(ItemRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("Item not found"))?;
    let mut costs = compute_costs(conn, std::slice::from_ref(&item)).await?;
    match costs.pop() {
        Some((_, Ok(recosted))) => {
            if recosted.changed() {
                store_costs(conn, &[&recosted]).await?;
            }
            Ok(recosted)
        }
        Some((_, Err(reason))) => Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::NotAllowed,
            reason.message(),
        )])),
        None => Err(AppError::internal("recost computed nothing").into()),
    }
}

/// Recomputes the standard cost of every active item in scope and stores the ones that
/// changed, in a fixed number of statements whatever the number of items. Items without a
/// source, or whose cost comes out as zero, are skipped (a zero never overwrites a cost).
pub async fn recost_all(
    conn: &mut AsyncPgConnection,
    scope: RecostScope,
) -> AppResult<RecostReport> {
    let mut query = items_table::table
        .filter(items_table::active)
        .order(items_table::sku)
        .select(ItemRow::as_select())
        .into_boxed();
    if let Some(t) = scope.item_type {
        query = query.filter(items_table::item_type.eq(t));
    }
    if let Some(root) = scope.category_id {
        let all = model::categories(conn).await?;
        query = query.filter(items_table::category_id.eq_any(model::with_descendants(&all, root)));
    }
    let rows: Vec<ItemRow> = query.load(conn).await?;
    let in_scope = |r: &Recosted| scope.cost_source.is_none_or(|s| s == r.source);
    let mut outcomes = compute_costs(conn, &rows).await?;
    // Made items roll up their components' costs, and a bought component without receipts
    // is costed at its standard cost: once the bought items' new costs are stored, the made
    // ones are costed again (one more fixed set of statements), so one run settles both.
    let bought: Vec<&Recosted> = outcomes
        .iter()
        .filter_map(|(_, o)| o.as_ref().ok())
        .filter(|r| r.source == CostSource::Purchased && in_scope(r))
        .filter(|r| r.changed() && !r.new_cost.is_zero())
        .collect();
    // Only made items the report will show need the second pass.
    let made: Vec<usize> = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Ok(r) if r.source == CostSource::Manufactured && in_scope(r)))
        .map(|(i, _)| *i)
        .collect();
    let mut stored = HashSet::new();
    if !bought.is_empty() && !made.is_empty() {
        store_costs(conn, &bought).await?;
        stored.extend(bought.iter().map(|r| r.id));
        let again: Vec<ItemRow> = made.iter().filter_map(|i| rows.get(*i).cloned()).collect();
        for (j, outcome) in compute_costs(conn, &again).await? {
            let (Some(i), Ok(mut r)) = (made.get(j), outcome) else {
                continue;
            };
            if let Some((_, Ok(first))) = outcomes.get(*i) {
                // Compared with the cost before this run, not the one just computed.
                r.old_cost = first.old_cost.clone();
            }
            if let Some(slot) = outcomes.get_mut(*i) {
                slot.1 = Ok(r);
            }
        }
    }
    let mut report = RecostReport::default();
    for (_, outcome) in outcomes {
        match outcome {
            Ok(r) if !in_scope(&r) => {}
            Ok(r) if r.new_cost.is_zero() => report.skipped += 1,
            Ok(r) if r.changed() => report.changed.push(r),
            Ok(_) => report.unchanged += 1,
            // Nothing to cost from is the common case, not an error worth listing.
            Err(Uncosted::NoSource(_)) => report.skipped += 1,
            Err(Uncosted::Circular(reason)) => {
                report.skipped += 1;
                if report.errors.len() < 100 {
                    report.errors.push(reason);
                }
            }
        }
    }
    let changed: Vec<&Recosted> = report
        .changed
        .iter()
        .filter(|r| !stored.contains(&r.id))
        .collect();
    for chunk in changed.chunks(10_000) {
        store_costs(conn, chunk).await?;
    }
    Ok(report)
}

/// An item's recomputed standard cost.
#[derive(Debug, Clone, SimpleObject)]
pub struct ItemRecost {
    /// The item.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// The standard cost before.
    pub old_cost: Option<Decimal>,
    /// The standard cost now.
    pub new_cost: Decimal,
    /// Where it came from.
    pub cost_source: CostSource,
    /// The active BOM, when the item has one.
    pub bom_id: Option<i64>,
    /// The BOM's cost roll-up per unit (components, sub-assemblies, process cost).
    pub bom_cost: Option<Decimal>,
    /// The latest purchase price per stocking unit (else the last receipt's cost).
    pub purchase_cost: Option<Decimal>,
    /// Whether the standard cost changed.
    pub changed: bool,
    /// A one-line summary.
    pub message: String,
}

impl From<Recosted> for ItemRecost {
    fn from(r: Recosted) -> Self {
        let changed = r.changed();
        let old = r
            .old_cost
            .as_ref()
            .map_or_else(|| "none".to_string(), BigDecimal::to_string);
        ItemRecost {
            message: format!("Standard cost of {}: {old} -> {}", r.sku, r.new_cost),
            id: r.id,
            sku: r.sku,
            name: r.name,
            old_cost: r.old_cost.map(Decimal),
            new_cost: Decimal(r.new_cost),
            cost_source: r.source,
            bom_id: r.bom_id,
            bom_cost: r.bom_cost.map(Decimal),
            purchase_cost: r.purchase_cost.map(Decimal),
            changed,
        }
    }
}

/// The result of recosting one item.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemRecostPayload {
    /// The new cost.
    pub recost: Option<ItemRecost>,
    /// Why it could not be recosted (no BOM or purchase history, a circular BOM).
    pub user_errors: Vec<UserError>,
}

/// What recosting every item in scope did.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemRecostAllReport {
    /// Items whose standard cost changed.
    pub updated: i64,
    /// Items recomputed whose cost was already right.
    pub unchanged: i64,
    /// Items without a BOM or purchase history, with a circular BOM, or costing zero.
    pub skipped: i64,
    /// The items that changed, by SKU.
    pub items: Vec<ItemRecost>,
    /// Items that could not be costed and why (circular BOMs; the first 100).
    pub errors: Vec<String>,
    /// A one-line summary.
    pub message: String,
}

/// Recosting mutations (admins).
#[derive(Default)]
pub struct BomCostingMutation;

#[Object]
impl BomCostingMutation {
    /// Recomputes an item's standard cost from its active BOM's roll-up (made items) or its
    /// latest purchase price (bought items), and stores it (admins).
    #[graphql(guard = "Access::Admin")]
    async fn item_recost(&self, ctx: &Context<'_>, id: i64) -> AppResult<ItemRecostPayload> {
        Ok(match crate::in_transaction!(ctx, |conn| recost(conn, id)) {
            Ok(r) => ItemRecostPayload {
                recost: Some(r.into()),
                user_errors: vec![],
            },
            Err(user_errors) => ItemRecostPayload {
                recost: None,
                user_errors,
            },
        })
    }

    /// Recomputes the standard cost of every active item in scope (type, category with its
    /// descendants, cost source) in one transaction; items without a BOM or purchase
    /// history are skipped (admins).
    #[graphql(guard = "Access::Admin")]
    async fn item_recost_all(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only items of this type.")] item_type: Option<ItemType>,
        #[graphql(desc = "Only this category and its descendants.")] category_id: Option<i64>,
        #[graphql(desc = "Only items costed from this source.")] cost_source: Option<CostSource>,
    ) -> AppResult<ItemRecostAllReport> {
        let scope = RecostScope {
            item_type,
            category_id,
            cost_source,
        };
        let mut conn = context::conn(ctx).await?;
        let report = conn
            .transaction::<_, AppError, _>(async move |conn| recost_all(conn, scope).await)
            .await?;
        let updated = report.changed.len() as i64;
        Ok(ItemRecostAllReport {
            message: format!(
                "Recosted {updated} items ({} unchanged, {} skipped)",
                report.unchanged, report.skipped
            ),
            updated,
            unchanged: report.unchanged,
            skipped: report.skipped,
            items: report.changed.into_iter().map(ItemRecost::from).collect(),
            errors: report.errors,
        })
    }
}
