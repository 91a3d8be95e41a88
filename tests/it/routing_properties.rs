//! Issue 33's invariant under random routings (proptest), against a real PostgreSQL: an
//! order made from a routing whose steps carry their own materials (per unit, per run of
//! `units_per_cycle`, once per order; with scrap allowances; some cost-only) consumes exactly
//! what those lines ask for its quantity, whatever is scrapped at an operation on the way, and
//! the stock ledger and the books hold every invariant of `ledger_properties` afterwards.
//! Half the cases make the order for a variant of the product instead: the lines on the
//! first component are variable, and the variant consumes its own material in their place,
//! in the same amounts.

use std::collections::HashMap;
use std::sync::OnceLock;

use bigdecimal::{BigDecimal, RoundingMode};
use diesel_async::AsyncConnection;
use proptest::prelude::*;

use crate::ledger_properties::{Event, apply, check, d, exec, scalar_i64};
use strata::operations::production::routing::materials::{self, QuantityPer, StepMaterialInput};
use strata::operations::production::routing::steps::{self, RoutingInput, RoutingStepInput};
use strata::operations::production::rules as production;
use strata::operations::production::variants::rules as variants;
use strata::platform::graphql::scalars::Decimal;
use strata::platform::graphql::user_error::Stop;

/// Components a case draws from.
const COMPONENTS: usize = 4;
/// The component a variant swaps for the first one (never drawn by the generator).
const VARIANT_MATERIAL: usize = COMPONENTS;

#[derive(Debug, Clone)]
struct Line {
    component: usize,
    quantity: u32,
    per: QuantityPer,
    scrap_percent: u32,
    cost_only: bool,
}

#[derive(Debug, Clone)]
struct Step {
    units_per_cycle: i32,
    lines: Vec<Line>,
}

fn line() -> impl Strategy<Value = Line> {
    (
        0..COMPONENTS,
        1..6u32,
        prop_oneof![
            Just(QuantityPer::Unit),
            Just(QuantityPer::Batch),
            Just(QuantityPer::Order)
        ],
        0..25u32,
        proptest::bool::weighted(0.2),
    )
        .prop_map(
            |(component, quantity, per, scrap_percent, cost_only)| Line {
                component,
                quantity,
                per,
                scrap_percent,
                cost_only,
            },
        )
}

fn step() -> impl Strategy<Value = Step> {
    (1..4i32, proptest::collection::vec(line(), 0..3)).prop_map(|(units_per_cycle, mut lines)| {
        // A component appears once per step.
        let mut seen = Vec::new();
        lines.retain(|l| {
            let fresh = !seen.contains(&l.component);
            seen.push(l.component);
            fresh
        });
        Step {
            units_per_cycle,
            lines,
        }
    })
}

struct World {
    runtime: tokio::runtime::Runtime,
    db: crate::common::TestDatabase,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let db = runtime.block_on(crate::common::TestDatabase::migrated());
        World { runtime, db }
    })
}

async fn num_of(conn: &mut diesel_async::AsyncPgConnection, sql: &str) -> f64 {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::Double)]
        n: f64,
    }
    diesel::sql_query(sql)
        .get_result::<N>(conn)
        .await
        .expect(sql)
        .n
}

/// What a line asks of an order of `quantity` units, as the routing documents it.
fn expected(line: &Line, quantity: u32, units_per_cycle: i32) -> BigDecimal {
    let gross = d(line.quantity) * (d(1) + d(line.scrap_percent) / d(100));
    let factor = match line.per {
        QuantityPer::Unit => d(quantity),
        QuantityPer::Batch => d(quantity.div_ceil(units_per_cycle as u32).max(1)),
        QuantityPer::Order => d(1),
    };
    (gross * factor).with_scale_round(4, RoundingMode::Up)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("ROUTING_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(32),
        max_shrink_iters: 32,
        ..ProptestConfig::default()
    })]

    #[test]
    fn an_order_consumes_exactly_its_steps_materials(
        routing in proptest::collection::vec(step(), 1..4),
        quantity in 1..8u32,
        scrap in proptest::option::of(0..8u32),
        variant in proptest::bool::ANY,
    ) {
        let w = world();
        w.runtime.block_on(async {
            static CASE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let case = CASE.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut conn = w.db.connect().await;
            exec(&mut conn, "UPDATE company_settings SET allow_negative_inventory = false").await;
            let user = scalar_i64(&mut conn, &format!(
                "INSERT INTO users (email, password_hash, account_type) VALUES ('r{case}@example.com', 'x', 'admin') RETURNING id AS n"
            )).await;
            let vendor = scalar_i64(&mut conn, &format!(
                "INSERT INTO vendors (code, name) VALUES ('RV{case}', 'Vendor {case}') RETURNING id AS n"
            )).await;
            let mut items = Vec::new();
            for i in 0..=VARIANT_MATERIAL {
                items.push(scalar_i64(&mut conn, &format!(
                    "INSERT INTO items (sku, name, item_type, standard_cost) VALUES ('RC{case}-{i}', 'Part {i}', 'component', {}) RETURNING id AS n",
                    i + 1
                )).await);
            }
            // Plenty of each component, bought and received (stock with its journal entries).
            let main = scalar_i64(&mut conn, "SELECT id AS n FROM locations WHERE code = 'MAIN'").await;
            let mut pos = Vec::new();
            for i in 0..=VARIANT_MATERIAL {
                apply(&mut conn, &Event::Purchase { item: i, qty: 500, cost: 100 + i as u32 * 50 }, &items, &[main], user, chrono::Utc::now().date_naive(), vendor, &mut pos).await;
                apply(&mut conn, &Event::ReceivePo { po: i, qty: 500, twice: false }, &items, &[main], user, chrono::Utc::now().date_naive(), vendor, &mut pos).await;
            }
            let product = scalar_i64(&mut conn, &format!(
                "INSERT INTO items (sku, name, item_type) VALUES ('RP{case}', 'Product', 'finished_good') RETURNING id AS n"
            )).await;
            let center = scalar_i64(&mut conn, &format!(
                "INSERT INTO work_centers (code, name, center_type, hourly_rate) VALUES ('RW{case}', 'Bench', 'other', 12) RETURNING id AS n"
            )).await;
            // The first component is one colour of a material type; the variant material is
            // another colour of it.
            let material_type = scalar_i64(&mut conn, &format!(
                "INSERT INTO material_types (code, name) VALUES ('RMT{case}', 'Type {case}') RETURNING id AS n"
            )).await;
            let mut colors = Vec::new();
            for (c, component) in [(0, items[0]), (1, items[VARIANT_MATERIAL])] {
                let color = scalar_i64(&mut conn, &format!(
                    "INSERT INTO colors (code, name) VALUES ('RMC{case}-{c}', 'Colour {c}') RETURNING id AS n"
                )).await;
                exec(&mut conn, &format!(
                    "INSERT INTO material_colors (material_type_id, color_id, item_id) VALUES ({material_type}, {color}, {component})"
                )).await;
                colors.push(color);
            }
            let variant_color = colors[1];
            let routing_copy = routing.clone();
            let parts = items.clone();
            let made = conn.transaction::<_, Stop, _>(async move |conn| {
                let operations = routing_copy.iter().map(|s| RoutingStepInput {
                    operation_code: Some("WORK".into()),
                    work_center_id: Some(center),
                    run_minutes: Some(Decimal(d(2))),
                    units_per_cycle: Some(s.units_per_cycle),
                    ..Default::default()
                }).collect();
                let r = steps::save_routing(conn, None, RoutingInput {
                    product_id: Some(product),
                    operations: Some(operations),
                    ..Default::default()
                }).await?;
                let rows = strata::operations::production::model::routing_steps(conn, r.id, true).await?;
                for (row, s) in rows.iter().zip(&routing_copy) {
                    for l in &s.lines {
                        materials::add(conn, row.id, StepMaterialInput {
                            component_id: Some(parts[l.component]),
                            quantity: Some(Decimal(d(l.quantity))),
                            quantity_per: Some(l.per),
                            scrap_factor: Some(Decimal(d(l.scrap_percent))),
                            is_cost_only: Some(l.cost_only),
                            is_variable: Some(variant && l.component == 0),
                            ..Default::default()
                        }).await?;
                    }
                }
                let made_for = if variant {
                    let made = variants::create(conn, product, vec![variants::VariantInput {
                        material_type_id: material_type,
                        color_id: variant_color,
                        selling_price: None,
                    }]).await?;
                    made.first().and_then(|v| v.id).unwrap_or(product)
                } else {
                    product
                };
                assert!(!variant || made_for != product, "the variant was made");
                let order = production::create(conn, production::ProductionOrderCreateInput {
                    product_id: made_for,
                    quantity_ordered: Decimal(d(quantity)),
                    due_date: None,
                    priority: None,
                    notes: None,
                    bom_id: None,
                    routing_id: None,
                    sales_order_id: None,
                    sales_order_line_id: None,
                    source: None,
                    order_type: None,
                    assigned_to: None,
                    location_id: Some(main),
                }, Some(user)).await?;
                production::release(conn, order.id, Some(user)).await?;
                Ok(order.id)
            }).await;
            let order = match made {
                Ok(id) => id,
                Err(e) => panic!("setup failed: {e:?}"),
            };
            exec(&mut conn, "INSERT INTO scrap_reasons (code, name) VALUES ('prop_scrap', 'Property') ON CONFLICT DO NOTHING").await;
            let scrapped = scrap.map(|n| n % quantity).filter(|n| *n > 0).unwrap_or(0);
            let done = conn.transaction::<_, Stop, _>(async move |conn| {
                let mut ops = strata::operations::production::model::operations_of(conn, &[order]).await?;
                ops.sort_by_key(|o| (o.sequence, o.id));
                let first = ops[0].id;
                production::operation_start(conn, order, first, Default::default(), Some(user)).await?;
                if scrapped > 0 {
                    production::scrap_at_operation(conn, order, first, production::OperationScrapInput {
                        quantity_scrapped: Decimal(d(scrapped)),
                        scrap_reason_code: "prop_scrap".into(),
                        notes: None,
                        create_replacement: false,
                    }, user).await?;
                }
                production::complete(conn, order, production::ProductionOrderCompleteInput {
                    quantity_completed: Some(Decimal(d(quantity - scrapped))),
                    ..Default::default()
                }, user, production::CompletionGate(strata::operations::quality::gate::before_completion)).await?;
                Ok(())
            }).await;
            if let Err(e) = done {
                panic!("production failed: {e:?}");
            }
            // Exactly what the lines ask, per component (a variant's own material for the
            // variable lines).
            let mut want: HashMap<i64, BigDecimal> = HashMap::new();
            for s in &routing {
                for l in s.lines.iter().filter(|l| !l.cost_only) {
                    let component = if variant && l.component == 0 { VARIANT_MATERIAL } else { l.component };
                    *want.entry(items[component]).or_default() += expected(l, quantity, s.units_per_cycle);
                }
            }
            for (i, item) in items.iter().enumerate() {
                let consumed = num_of(&mut conn, &format!(
                    "SELECT coalesce(-sum(quantity), 0)::float8 AS n FROM inventory_transactions \
                     WHERE reference_type = 'production_order' AND reference_id = {order} \
                     AND transaction_type = 'consumption' AND item_id = {item}"
                )).await;
                let wanted: f64 = want.get(item).map(|w| w.to_string().parse().unwrap_or(0.0)).unwrap_or(0.0);
                assert!((consumed - wanted).abs() < 1e-6, "component {i}: consumed {consumed}, the routing asks {wanted} ({routing:?}, {quantity} units, variant: {variant})");
            }
            let (completed, scrapped_total) = (
                num_of(&mut conn, &format!("SELECT quantity_completed::float8 AS n FROM production_orders WHERE id = {order}")).await,
                num_of(&mut conn, &format!("SELECT quantity_scrapped::float8 AS n FROM production_orders WHERE id = {order}")).await,
            );
            assert_eq!((completed, scrapped_total), (f64::from(quantity - scrapped), f64::from(scrapped)));
            check(&mut conn, &[chrono::Utc::now().date_naive()], false).await;
        });
    }
}
