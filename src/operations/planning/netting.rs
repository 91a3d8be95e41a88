//! The MRP calculation, without the database: time-phased netting of every item's dated
//! demand against what it has and what is coming, level by level down the bills of
//! materials, producing planned orders (buy or make, with need and release dates and lot
//! sizes) and exceptions. [`crate::operations::planning::mrp`] loads the inputs and stores
//! the result; the property tests in `netting_tests.rs` prove the promise of a run: once
//! every planned order arrives, no item's projected balance falls below its safety stock on
//! any date of the horizon, and an order that cannot arrive in time is reported late.
//!
//! Quantities are fixed-point integers ([`Qty`], ten-thousandths of a stocking unit, the
//! scale of the database's quantity columns) so netting 10,000 items is exact and fast.

use std::collections::{BTreeMap, HashMap, VecDeque};

use chrono::{Duration, NaiveDate};

/// A quantity in ten-thousandths of the item's stocking unit.
pub type Qty = i64;

/// Ten-thousandths per unit.
pub const SCALE: i64 = 10_000;

/// `per_unit × count`, both in [`Qty`], rounded up (a requirement never rounds down).
pub fn extend(per_unit: Qty, count: Qty) -> Qty {
    let product = i128::from(per_unit) * i128::from(count);
    let scale = i128::from(SCALE);
    let rounded = (product + scale - 1).div_euclid(scale);
    i64::try_from(rounded).unwrap_or(i64::MAX)
}

/// One item as MRP sees it.
#[derive(Debug, Clone, Default)]
pub struct PlanItem {
    /// The item.
    pub id: i64,
    /// Made here (it has an active BOM) rather than bought.
    pub make: bool,
    /// Days from release to receipt: the preferred vendor's (else the item's) lead time for
    /// a buy item; the item's own for a make item, to which the routing time is added.
    pub lead_time_days: i64,
    /// For make items: routing set-up minutes per order.
    pub setup_minutes: i64,
    /// For make items: routing run minutes per unit.
    pub run_minutes_per_unit: i64,
    /// Kept back for surprises: the projected balance must never fall below it.
    pub safety_stock: Qty,
    /// On hand less what is already allocated, now.
    pub available: Qty,
    /// The smallest order (0: none).
    pub min_order: Qty,
    /// Orders are a multiple of this (a pack or spool size; 0: any quantity).
    pub multiple: Qty,
    /// Buy items: a vendor is known.
    pub has_vendor: bool,
    /// Make items: the components per one unit made, scrap included, in their stocking unit.
    pub components: Vec<(i64, Qty)>,
}

/// Where a requirement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// A sales order line (the sales order's id).
    SalesOrder(i64),
    /// A production order's components (its id).
    ProductionOrder(i64),
    /// A planned production order's components (its index in [`Outcome::planned`], or the
    /// stored id of a firmed one).
    PlannedOrder(i64),
    /// Stock below its safety level with nothing asking for it.
    SafetyStock,
}

/// Something needs this much of an item on this day.
#[derive(Debug, Clone, PartialEq)]
pub struct Demand {
    /// The item.
    pub item_id: i64,
    /// The day it is needed (earlier than today counts as today).
    pub date: NaiveDate,
    /// How much.
    pub qty: Qty,
    /// Who needs it.
    pub source: Source,
}

/// Supply already on its way: an open purchase order line, an open production order, a
/// firmed planned order.
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    /// The item.
    pub item_id: i64,
    /// The day it arrives (earlier than today counts as today).
    pub date: NaiveDate,
    /// How much.
    pub qty: Qty,
    /// A firmed planned production order: its components are needed on this day (the
    /// order's start), unlike real production orders, whose components are demands of their
    /// own.
    pub explode_at: Option<NaiveDate>,
    /// The stored planned order it is, when it is one (the source of its components' demand).
    pub planned_order_id: Option<i64>,
}

/// What MRP proposes.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// The item.
    pub item_id: i64,
    /// Make (a production order) or buy (a purchase order).
    pub make: bool,
    /// How much (at least the shortfall, the minimum order, and a multiple of the pack).
    pub qty: Qty,
    /// The day it must be there.
    pub need_date: NaiveDate,
    /// The day it must be released for its lead time (may be before today: then late).
    pub release_date: NaiveDate,
    /// Released after today's date would have been needed: it cannot arrive in time.
    pub late: bool,
    /// The first requirement it covers.
    pub source: Source,
}

/// Kinds of exceptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExceptionKind {
    /// A planned order's release date has already passed.
    Late,
    /// More is coming than will be needed in the horizon.
    Excess,
    /// A buy item needs an order and no vendor is known.
    NoVendor,
    /// The item's BOM contains itself; its components were not planned through it.
    Cycle,
}

/// Something a planner should look at.
#[derive(Debug, Clone, PartialEq)]
pub struct Exception {
    /// The item.
    pub item_id: i64,
    /// What.
    pub kind: ExceptionKind,
    /// The day concerned (need date of a late order).
    pub date: Option<NaiveDate>,
    /// The quantity concerned (the excess).
    pub qty: Option<Qty>,
    /// The planned order concerned (its index in [`Outcome::planned`]).
    pub planned: Option<usize>,
}

/// What a run produces.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Planned orders, by item level then need date.
    pub planned: Vec<Planned>,
    /// Exceptions.
    pub exceptions: Vec<Exception>,
    /// Items that had any demand, supply or safety stock to net.
    pub analysed: usize,
    /// Items that needed at least one planned order.
    pub short: usize,
}

/// The day's changes to one item: what arrives and what is asked for.
#[derive(Default)]
struct Day {
    arriving: Qty,
    asked: Qty,
    first_source: Option<Source>,
}

/// The lot an order of at least `shortfall` becomes.
pub fn lot_size(item: &PlanItem, shortfall: Qty) -> Qty {
    let mut qty = shortfall.max(item.min_order).max(1);
    if item.multiple > 0 {
        let packs = (qty + item.multiple - 1) / item.multiple;
        qty = packs.saturating_mul(item.multiple);
    }
    qty
}

/// Days from release to receipt of an order of `qty` of this item.
pub fn lead_days(item: &PlanItem, qty: Qty) -> i64 {
    if !item.make {
        return item.lead_time_days.max(0);
    }
    let run = extend(item.run_minutes_per_unit.max(0) * SCALE, qty) / SCALE;
    let minutes = item.setup_minutes.max(0).saturating_add(run);
    item.lead_time_days.max(0) + (minutes + 1439) / 1440
}

/// Each item's level: 0 for items no BOM uses, else one more than its deepest parent, so
/// an item is netted only after every parent's planned orders are known. Items on a cycle
/// get no level (they are planned last and not exploded).
fn levels(items: &HashMap<i64, &PlanItem>) -> (Vec<Vec<i64>>, Vec<i64>) {
    let mut parents_left: HashMap<i64, usize> = HashMap::new();
    for item in items.values() {
        if item.make {
            for (component, _) in &item.components {
                *parents_left.entry(*component).or_default() += 1;
            }
        }
    }
    let mut level_of: HashMap<i64, usize> = HashMap::new();
    let mut ready: VecDeque<i64> = items
        .keys()
        .filter(|id| !parents_left.contains_key(id))
        .copied()
        .collect();
    let mut order = Vec::new();
    while let Some(id) = ready.pop_front() {
        order.push(id);
        let level = level_of.get(&id).copied().unwrap_or(0);
        let Some(item) = items.get(&id).filter(|i| i.make) else {
            continue;
        };
        for (component, _) in &item.components {
            let slot = level_of.entry(*component).or_default();
            *slot = (*slot).max(level + 1);
            if let Some(left) = parents_left.get_mut(component) {
                *left -= 1;
                if *left == 0 && items.contains_key(component) {
                    ready.push_back(*component);
                }
            }
        }
    }
    let mut by_level: Vec<Vec<i64>> = Vec::new();
    for id in order {
        let level = level_of.get(&id).copied().unwrap_or(0);
        if by_level.len() <= level {
            by_level.resize(level + 1, Vec::new());
        }
        if let Some(slot) = by_level.get_mut(level) {
            slot.push(id);
        }
    }
    for level in &mut by_level {
        level.sort_unstable();
    }
    let mut cyclic: Vec<i64> = parents_left
        .iter()
        .filter(|(id, left)| **left > 0 && items.contains_key(id))
        .map(|(id, _)| *id)
        .collect();
    cyclic.sort_unstable();
    (by_level, cyclic)
}

/// Runs MRP over `items` for the days `today..=horizon_end`.
pub fn plan(
    items: &[PlanItem],
    demands: &[Demand],
    receipts: &[Receipt],
    today: NaiveDate,
    horizon_end: NaiveDate,
) -> Outcome {
    let by_id: HashMap<i64, &PlanItem> = items.iter().map(|i| (i.id, i)).collect();
    let mut asked: HashMap<i64, Vec<Demand>> = HashMap::new();
    for d in demands {
        asked.entry(d.item_id).or_default().push(d.clone());
    }
    let mut coming: HashMap<i64, Vec<&Receipt>> = HashMap::new();
    for r in receipts {
        coming.entry(r.item_id).or_default().push(r);
        if let (Some(at), Some(item)) = (r.explode_at, by_id.get(&r.item_id)) {
            let source = Source::PlannedOrder(r.planned_order_id.unwrap_or(0));
            explode(item, r.qty, at, source, &mut asked);
        }
    }
    let (by_level, cyclic) = levels(&by_id);
    let mut out = Outcome::default();
    for id in &cyclic {
        out.exceptions.push(Exception {
            item_id: *id,
            kind: ExceptionKind::Cycle,
            date: None,
            qty: None,
            planned: None,
        });
    }
    let window = Window { today, horizon_end };
    for id in by_level.iter().flatten().chain(cyclic.iter()) {
        let Some(item) = by_id.get(id) else { continue };
        let item_demands = asked.remove(id).unwrap_or_default();
        let item_receipts = coming.remove(id).unwrap_or_default();
        if item_demands.is_empty() && item_receipts.is_empty() && item.safety_stock == 0 {
            continue;
        }
        out.analysed += 1;
        let first = out.planned.len();
        net_item(item, &item_demands, &item_receipts, window, &mut out);
        if out.planned.len() > first {
            out.short += 1;
            if !item.make && !item.has_vendor {
                out.exceptions.push(Exception {
                    item_id: item.id,
                    kind: ExceptionKind::NoVendor,
                    date: out.planned.get(first).map(|p| p.need_date),
                    qty: None,
                    planned: Some(first),
                });
            }
        }
        if item.make && !cyclic.contains(id) {
            for index in first..out.planned.len() {
                if let Some(p) = out.planned.get(index) {
                    let (qty, at) = (p.qty, p.release_date.max(today));
                    let source = Source::PlannedOrder(index as i64);
                    explode(item, qty, at, source, &mut asked);
                }
            }
        }
    }
    out
}

/// The planning window.
#[derive(Debug, Clone, Copy)]
struct Window {
    today: NaiveDate,
    horizon_end: NaiveDate,
}

impl Window {
    /// The day an event counts on, or None when it is past the horizon.
    fn day_of(&self, date: NaiveDate) -> Option<NaiveDate> {
        (date <= self.horizon_end).then(|| date.max(self.today))
    }
}

/// Adds the components of `qty` of a make item, needed on `at`.
fn explode(
    item: &PlanItem,
    qty: Qty,
    at: NaiveDate,
    source: Source,
    asked: &mut HashMap<i64, Vec<Demand>>,
) {
    if !item.make {
        return;
    }
    for (component, per_unit) in &item.components {
        asked.entry(*component).or_default().push(Demand {
            item_id: *component,
            date: at,
            qty: extend(*per_unit, qty),
            source,
        });
    }
}

/// Nets one item day by day, adding a planned order whenever the projected balance would
/// fall below the safety stock, then reports excess supply.
fn net_item(
    item: &PlanItem,
    demands: &[Demand],
    receipts: &[&Receipt],
    window: Window,
    out: &mut Outcome,
) {
    let mut days: BTreeMap<NaiveDate, Day> = BTreeMap::new();
    days.entry(window.today).or_default();
    let mut supply_total: Qty = 0;
    for d in demands {
        if let Some(day) = window.day_of(d.date) {
            let slot = days.entry(day).or_default();
            slot.asked += d.qty;
            slot.first_source.get_or_insert(d.source);
        }
    }
    for r in receipts {
        if let Some(day) = window.day_of(r.date) {
            days.entry(day).or_default().arriving += r.qty;
            supply_total += r.qty;
        }
    }
    let mut balance = item.available;
    let mut planned_any = false;
    for (date, day) in days {
        balance += day.arriving - day.asked;
        if balance >= item.safety_stock {
            continue;
        }
        let qty = lot_size(item, item.safety_stock - balance);
        balance += qty;
        planned_any = true;
        let release_date = date - Duration::days(lead_days(item, qty));
        let late = release_date < window.today;
        let index = out.planned.len();
        out.planned.push(Planned {
            item_id: item.id,
            make: item.make,
            qty,
            need_date: date,
            release_date,
            late,
            source: day.first_source.unwrap_or(Source::SafetyStock),
        });
        if late {
            out.exceptions.push(Exception {
                item_id: item.id,
                kind: ExceptionKind::Late,
                date: Some(date),
                qty: Some(qty),
                planned: Some(index),
            });
        }
    }
    let surplus = (balance - item.safety_stock).min(supply_total);
    if !planned_any && surplus > 0 {
        out.exceptions.push(Exception {
            item_id: item.id,
            kind: ExceptionKind::Excess,
            date: None,
            qty: Some(surplus),
            planned: None,
        });
    }
}

#[cfg(test)]
#[path = "netting_tests.rs"]
mod tests;
