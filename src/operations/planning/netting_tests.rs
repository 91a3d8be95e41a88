#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use proptest::prelude::*;

fn day(n: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 1).unwrap() + Duration::days(n)
}

const TODAY: i64 = 0;
const HORIZON: i64 = 60;

/// A three-level structure: finished goods 0..4 use sub-assemblies 10..13 and materials
/// 20..25; sub-assemblies use materials. Which links exist, and every number, is random.
fn world() -> impl Strategy<Value = (Vec<PlanItem>, Vec<Demand>, Vec<Receipt>)> {
    let item = (
        0i64..15,
        0i64..120,
        0i64..30,
        0i64..(50 * SCALE),
        -(20 * SCALE)..(200 * SCALE),
        prop_oneof![Just(0i64), 1..(40 * SCALE)],
        prop_oneof![Just(0i64), 1..(25 * SCALE)],
        any::<bool>(),
    );
    let items = proptest::collection::vec(item, 15);
    let links = proptest::collection::vec((0usize..15, 0usize..15, 1i64..(3 * SCALE)), 0..30);
    let demands = proptest::collection::vec((0usize..15, -5i64..70, 1i64..(60 * SCALE)), 0..40);
    let receipts = proptest::collection::vec((0usize..15, -5i64..70, 1i64..(80 * SCALE)), 0..15);
    (items, links, demands, receipts).prop_map(|(items, links, demands, receipts)| {
        let ids: Vec<i64> = (0..4).chain(10..14).chain(20..27).collect();
        let level = |i: usize| {
            if i < 4 {
                0
            } else if i < 8 {
                1
            } else {
                2
            }
        };
        let mut plan_items: Vec<PlanItem> = items
            .into_iter()
            .enumerate()
            .map(
                |(i, (lead, setup, run, safety, available, min, multiple, vendor))| PlanItem {
                    id: ids[i],
                    make: level(i) < 2,
                    lead_time_days: lead,
                    setup_minutes: setup,
                    run_minutes_per_unit: run,
                    safety_stock: safety,
                    available,
                    min_order: min,
                    multiple,
                    has_vendor: vendor,
                    components: Vec::new(),
                },
            )
            .collect();
        for (parent, child, per) in links {
            if level(parent) < level(child)
                && !plan_items[parent]
                    .components
                    .iter()
                    .any(|c| c.0 == ids[child])
            {
                plan_items[parent].components.push((ids[child], per));
            }
        }
        let demands = demands
            .into_iter()
            .map(|(i, d, qty)| Demand {
                item_id: ids[i],
                date: day(d),
                qty,
                source: Source::SalesOrder(1),
            })
            .collect();
        let receipts = receipts
            .into_iter()
            .map(|(i, d, qty)| Receipt {
                item_id: ids[i],
                date: day(d),
                qty,
                explode_at: None,
                planned_order_id: None,
            })
            .collect();
        (plan_items, demands, receipts)
    })
}

/// Every item's dated demand once the planned orders of its parents are known: the
/// independent demand, plus the components of every planned make order at its release.
fn all_demand(items: &[PlanItem], demands: &[Demand], out: &Outcome) -> Vec<Demand> {
    let mut all = demands.to_vec();
    for p in &out.planned {
        let item = items.iter().find(|i| i.id == p.item_id).unwrap();
        if item.make {
            for (component, per) in &item.components {
                all.push(Demand {
                    item_id: *component,
                    date: p.release_date.max(day(TODAY)),
                    qty: extend(*per, p.qty),
                    source: Source::SafetyStock,
                });
            }
        }
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Once every planned order arrives on its need date, each item's projected balance
    /// stays at or above its safety stock on every day of the horizon; an order whose
    /// release date has passed is reported late (and only such orders are).
    #[test]
    fn released_plans_keep_every_balance_at_safety_stock((items, demands, receipts) in world()) {
        let out = plan(&items, &demands, &receipts, day(TODAY), day(HORIZON));
        let demand = all_demand(&items, &demands, &out);
        for item in &items {
            let mut events: BTreeMap<NaiveDate, Qty> = BTreeMap::new();
            events.insert(day(TODAY), 0);
            let clamp = |d: NaiveDate| (d <= day(HORIZON)).then(|| d.max(day(TODAY)));
            for d in demand.iter().filter(|d| d.item_id == item.id) {
                if let Some(at) = clamp(d.date) { *events.entry(at).or_default() -= d.qty; }
            }
            for r in receipts.iter().filter(|r| r.item_id == item.id) {
                if let Some(at) = clamp(r.date) { *events.entry(at).or_default() += r.qty; }
            }
            for p in out.planned.iter().filter(|p| p.item_id == item.id) {
                *events.entry(p.need_date).or_default() += p.qty;
            }
            let mut balance = item.available;
            for (date, change) in events {
                balance += change;
                prop_assert!(balance >= item.safety_stock,
                    "item {} falls to {} below safety {} on {}", item.id, balance, item.safety_stock, date);
            }
        }
        for (index, p) in out.planned.iter().enumerate() {
            let item = items.iter().find(|i| i.id == p.item_id).unwrap();
            prop_assert!(p.qty > 0);
            prop_assert!(p.qty >= item.min_order);
            if item.multiple > 0 { prop_assert_eq!(p.qty % item.multiple, 0); }
            prop_assert_eq!(p.release_date, p.need_date - Duration::days(lead_days(item, p.qty)));
            prop_assert_eq!(p.late, p.release_date < day(TODAY));
            let reported = out.exceptions.iter().any(|e| e.kind == ExceptionKind::Late && e.planned == Some(index));
            prop_assert_eq!(reported, p.late);
            prop_assert!(p.need_date >= day(TODAY) && p.need_date <= day(HORIZON));
        }
        for item in items.iter().filter(|i| !i.make && !i.has_vendor) {
            let needs = out.planned.iter().any(|p| p.item_id == item.id);
            let flagged = out.exceptions.iter().any(|e| e.kind == ExceptionKind::NoVendor && e.item_id == item.id);
            prop_assert_eq!(needs, flagged);
        }
    }

    /// Netting never orders more than one lot beyond what keeps the balance at safety stock:
    /// each planned order is needed (the balance just before it is below safety stock).
    #[test]
    fn every_planned_order_is_needed((items, demands, receipts) in world()) {
        let out = plan(&items, &demands, &receipts, day(TODAY), day(HORIZON));
        for item in &items {
            let mine: Vec<&Planned> = out.planned.iter().filter(|p| p.item_id == item.id).collect();
            let dates: Vec<NaiveDate> = mine.iter().map(|p| p.need_date).collect();
            let mut sorted = dates.clone();
            sorted.dedup();
            prop_assert_eq!(sorted.len(), dates.len(), "one planned order per item and day");
        }
    }
}

#[test]
fn a_shortfall_is_rounded_up_to_the_minimum_and_the_pack() {
    let item = PlanItem {
        id: 1,
        min_order: 5 * SCALE,
        multiple: 3 * SCALE,
        ..Default::default()
    };
    assert_eq!(lot_size(&item, SCALE), 6 * SCALE);
    assert_eq!(lot_size(&item, 7 * SCALE), 9 * SCALE);
}

#[test]
fn a_make_item_explodes_into_its_components_at_release() {
    let items = vec![
        PlanItem {
            id: 1,
            make: true,
            lead_time_days: 2,
            components: vec![(2, 2 * SCALE)],
            ..Default::default()
        },
        PlanItem {
            id: 2,
            lead_time_days: 10,
            has_vendor: true,
            ..Default::default()
        },
    ];
    let demands = vec![Demand {
        item_id: 1,
        date: day(20),
        qty: 4 * SCALE,
        source: Source::SalesOrder(7),
    }];
    let out = plan(&items, &demands, &[], day(0), day(30));
    assert_eq!(out.planned.len(), 2);
    let make = &out.planned[0];
    assert_eq!(
        (make.item_id, make.qty, make.need_date, make.release_date),
        (1, 4 * SCALE, day(20), day(18))
    );
    assert_eq!(make.source, Source::SalesOrder(7));
    let buy = &out.planned[1];
    assert_eq!(
        (buy.item_id, buy.qty, buy.need_date, buy.release_date),
        (2, 8 * SCALE, day(18), day(8))
    );
    assert!(!buy.late);
}

#[test]
fn supply_nobody_needs_is_reported_as_excess() {
    let items = vec![PlanItem {
        id: 1,
        available: 10 * SCALE,
        has_vendor: true,
        ..Default::default()
    }];
    let demands = vec![Demand {
        item_id: 1,
        date: day(3),
        qty: 4 * SCALE,
        source: Source::SalesOrder(1),
    }];
    let receipts = vec![Receipt {
        item_id: 1,
        date: day(2),
        qty: 5 * SCALE,
        explode_at: None,
        planned_order_id: None,
    }];
    let out = plan(&items, &demands, &receipts, day(0), day(30));
    assert!(out.planned.is_empty());
    assert_eq!(out.exceptions.len(), 1);
    assert_eq!(
        (out.exceptions[0].kind, out.exceptions[0].qty),
        (ExceptionKind::Excess, Some(5 * SCALE))
    );
}

#[test]
fn a_bom_that_contains_itself_is_reported_not_looped() {
    let items = vec![
        PlanItem {
            id: 1,
            make: true,
            components: vec![(2, SCALE)],
            ..Default::default()
        },
        PlanItem {
            id: 2,
            make: true,
            components: vec![(1, SCALE)],
            ..Default::default()
        },
    ];
    let out = plan(&items, &[], &[], day(0), day(30));
    assert_eq!(
        out.exceptions
            .iter()
            .filter(|e| e.kind == ExceptionKind::Cycle)
            .count(),
        2
    );
}
