//! DOMAIN's invariants under random sequences of business events (proptest), against a real
//! PostgreSQL, through the same Rust API every area posts with:
//!
//! 1. on hand for every (item, location) equals the sum of its stock transactions, and
//!    allocated the sum of its reservation rows;
//! 2. available = on hand - allocated, allocated never below zero;
//! 3. no stock below zero unless `allow_negative_inventory` was on, and then the
//!    transaction that took it there waits for approval;
//! 4. every journal entry balances, the trial balance balances as of every date of the
//!    sequence, and the inventory accounts hold exactly the value the stock ledger holds.
//!
//! 5. purchase orders (ordered, then received in random parts, some sent twice as a double
//!    click would) never receive more than was ordered, and what their lines received is
//!    exactly what their receipts put in stock.
//!
//! 6. sales orders (created, confirmed, shipped, paid, refunded and cancelled in any order):
//!    each order's reservation rows add up to what its lines hold, closed orders hold
//!    nothing, no line ships more than ordered, sales revenue (4000) is the subtotal of the
//!    shipped orders, cost of goods (5000) and shipping supplies (5010) the value their
//!    shipments issued (goods and packaging), and accounts
//!    receivable (1100) what was invoiced less what was paid.
//!
//! Plus the crash test: an error after the stock row and before the journal entry leaves
//! neither.

use std::str::FromStr;
use std::sync::OnceLock;

use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use proptest::prelude::*;

use strata::ledgers::accounting::model::{self as books, SourceType};
use strata::ledgers::accounting::rules as book_rules;
use strata::ledgers::inventory::ledger::{self, Movement, MovementKind};
use strata::ledgers::inventory::model::{self, ReferenceType};
use strata::ledgers::inventory::rules::{self, CycleCountInput, CycleCountLine};
use strata::operations::production::rules as production;
use strata::operations::purchasing::rules::{
    self as purchasing, PurchaseOrderCreateInput, PurchaseOrderLineInput, PurchaseOrderStatusInput,
    PurchaseReceiveInput, ReceiveLineInput,
};
use strata::operations::sales::invoices::rules as invoices;
use strata::operations::sales::model::SalesOrderStatus;
use strata::operations::sales::{payments, rules as sales};
use strata::operations::shipping::rules as shipping;
use strata::platform::graphql::scalars::Decimal;
use strata::platform::graphql::user_error::Stop;

/// The items of a run: a material (1200), a finished good (1220), packaging (1230).
const ITEMS: usize = 3;
/// MAIN and a shelf.
const LOCATIONS: usize = 2;

#[derive(Debug, Clone)]
pub(crate) enum Event {
    Receipt {
        item: usize,
        at: usize,
        qty: u32,
        cost: Option<u32>,
    },
    Issue {
        item: usize,
        at: usize,
        qty: u32,
    },
    Transfer {
        item: usize,
        at: usize,
        qty: u32,
    },
    Adjust {
        item: usize,
        at: usize,
        delta: i32,
    },
    Scrap {
        item: usize,
        at: usize,
        qty: u32,
    },
    Reserve {
        item: usize,
        at: usize,
        qty: u32,
    },
    Release {
        item: usize,
        at: usize,
        qty: u32,
    },
    Consume {
        item: usize,
        at: usize,
        qty: u32,
        reserved: bool,
    },
    Count {
        item: usize,
        at: usize,
        counted: u32,
    },
    AllowNegative(bool),
    /// A purchase order for one item, placed with the vendor.
    Purchase {
        item: usize,
        qty: u32,
        cost: u32,
    },
    /// A receipt against one of the case's purchase orders, sent twice when `twice`.
    ReceivePo {
        po: usize,
        qty: u32,
        twice: bool,
    },
    /// A production order for the finished good (2 of the material per unit), released:
    /// its material reserved.
    Produce {
        qty: u32,
    },
    /// The `order`-th production order of the case starts (the material is issued).
    ProductionStart {
        order: usize,
    },
    /// It completes with `good` units and `scrapped` (closing short when they fall short).
    ProductionComplete {
        order: usize,
        good: u32,
        scrapped: u32,
    },
    /// It is cancelled.
    ProductionCancel {
        order: usize,
    },
    /// It is scrapped.
    ProductionScrap {
        order: usize,
    },
    /// A sales order for `qty` of the finished good.
    Sell {
        qty: u32,
    },
    /// The `order`-th sales order of the case is confirmed (stock reserved, production
    /// ordered for the rest).
    SalesConfirm {
        order: usize,
    },
    /// It ships (goods and packaging issued, COGS and the invoice posted).
    SalesShip {
        order: usize,
    },
    /// A payment of `cents` (a refund when `refund`).
    SalesPay {
        order: usize,
        cents: u32,
        refund: bool,
    },
    /// It is cancelled (reservations released).
    SalesCancel {
        order: usize,
    },
    /// An invoice by hand: `cents` of what is left (a deposit), or all of it.
    Invoice {
        order: usize,
        cents: u32,
        whole: bool,
    },
    /// The order's `nth` invoice is voided (refused once paid).
    InvoiceVoid {
        order: usize,
        nth: usize,
    },
    /// Its first line's quantity and/or unit price is amended.
    Amend {
        order: usize,
        qty: Option<u32>,
        cents: Option<u32>,
    },
    /// It is closed short (what is not shipped released, production cancelled).
    CloseShort {
        order: usize,
    },
}

fn event() -> impl Strategy<Value = Event> {
    let item = 0..ITEMS;
    let at = 0..LOCATIONS;
    prop_oneof![
        4 => (item.clone(), at.clone(), 1..50u32, proptest::option::of(1..900u32))
            .prop_map(|(item, at, qty, cost)| Event::Receipt { item, at, qty, cost }),
        2 => (item.clone(), at.clone(), 1..40u32).prop_map(|(item, at, qty)| Event::Issue { item, at, qty }),
        2 => (item.clone(), at.clone(), 1..40u32).prop_map(|(item, at, qty)| Event::Transfer { item, at, qty }),
        2 => (item.clone(), at.clone(), -30..30i32)
            .prop_filter("an adjustment changes something", |(_, _, d)| *d != 0)
            .prop_map(|(item, at, delta)| Event::Adjust { item, at, delta }),
        1 => (item.clone(), at.clone(), 1..20u32).prop_map(|(item, at, qty)| Event::Scrap { item, at, qty }),
        2 => (item.clone(), at.clone(), 1..40u32).prop_map(|(item, at, qty)| Event::Reserve { item, at, qty }),
        1 => (item.clone(), at.clone(), 1..40u32).prop_map(|(item, at, qty)| Event::Release { item, at, qty }),
        2 => (item.clone(), at.clone(), 1..30u32, any::<bool>())
            .prop_map(|(item, at, qty, reserved)| Event::Consume { item, at, qty, reserved }),
        1 => (item.clone(), at, 0..60u32).prop_map(|(item, at, counted)| Event::Count { item, at, counted }),
        1 => any::<bool>().prop_map(Event::AllowNegative),
        2 => (item.clone(), 1..60u32, 1..900u32).prop_map(|(item, qty, cost)| Event::Purchase { item, qty, cost }),
        3 => (0..8usize, 1..40u32, any::<bool>()).prop_map(|(po, qty, twice)| Event::ReceivePo { po, qty, twice }),
        2 => (1..8u32).prop_map(|qty| Event::Produce { qty }),
        2 => (0..4usize).prop_map(|order| Event::ProductionStart { order }),
        2 => (0..4usize, 0..8u32, 0..3u32)
            .prop_map(|(order, good, scrapped)| Event::ProductionComplete { order, good, scrapped }),
        1 => (0..4usize).prop_map(|order| Event::ProductionCancel { order }),
        1 => (0..4usize).prop_map(|order| Event::ProductionScrap { order }),
        3 => (1..6u32).prop_map(|qty| Event::Sell { qty }),
        2 => (0..4usize).prop_map(|order| Event::SalesConfirm { order }),
        3 => (0..4usize).prop_map(|order| Event::SalesShip { order }),
        2 => (0..4usize, 1..9000u32, any::<bool>())
            // Refunds small enough that some fit under what was paid.
            .prop_map(|(order, cents, refund)| Event::SalesPay { order, cents: if refund { cents % 400 + 1 } else { cents }, refund }),
        1 => (0..4usize).prop_map(|order| Event::SalesCancel { order }),
        2 => (0..4usize, 1..9000u32, any::<bool>())
            .prop_map(|(order, cents, whole)| Event::Invoice { order, cents, whole }),
        1 => (0..4usize, 0..3usize).prop_map(|(order, nth)| Event::InvoiceVoid { order, nth }),
        2 => (0..4usize, proptest::option::of(1..8u32), proptest::option::of(0..5000u32))
            .prop_map(|(order, qty, cents)| Event::Amend { order, qty, cents }),
        1 => (0..4usize).prop_map(|order| Event::CloseShort { order }),
    ]
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

pub(crate) fn d(n: impl ToString) -> BigDecimal {
    BigDecimal::from_str(&n.to_string()).expect("decimal")
}

pub(crate) async fn exec(conn: &mut AsyncPgConnection, sql: &str) {
    diesel::sql_query(sql).execute(conn).await.expect(sql);
}

pub(crate) async fn scalar_i64(conn: &mut AsyncPgConnection, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    diesel::sql_query(sql)
        .get_result::<N>(conn)
        .await
        .expect(sql)
        .n
}

/// Fresh items and a second location for one case (cases share the database: the
/// invariants are checked over every row, so earlier cases must keep them too).
async fn setup(conn: &mut AsyncPgConnection, case: u64) -> (Vec<i64>, Vec<i64>, i64) {
    let mut items = Vec::new();
    for (i, kind) in ["material", "finished_good", "packaging"]
        .iter()
        .enumerate()
    {
        let id = scalar_i64(
            conn,
            &format!(
                "INSERT INTO items (sku, name, item_type, standard_cost) VALUES ('P{case}-{i}', 'Item {i}', '{kind}', 1.5) RETURNING id AS n"
            ),
        )
        .await;
        items.push(id);
    }
    // The finished good is made of 2 of the material (and 1 of the packaging at shipping).
    let bom = scalar_i64(
        conn,
        &format!(
            "INSERT INTO boms (product_id, code, name) VALUES ({}, 'BOM-P{case}', 'BOM') RETURNING id AS n",
            items[1]
        ),
    )
    .await;
    exec(
        conn,
        &format!(
            "INSERT INTO bom_lines (bom_id, component_id, quantity, unit, consume_stage) VALUES \
             ({bom}, {}, 2, 'EA', 'production'), ({bom}, {}, 1, 'EA', 'shipping')",
            items[0], items[2]
        ),
    )
    .await;
    exec(
        conn,
        &format!(
            "UPDATE items SET selling_price = 12.34 WHERE id = {}",
            items[1]
        ),
    )
    .await;
    let main = scalar_i64(conn, "SELECT id AS n FROM locations WHERE code = 'MAIN'").await;
    let shelf = scalar_i64(
        conn,
        &format!("INSERT INTO locations (code, name, type) VALUES ('SH{case}', 'Shelf', 'shelf') RETURNING id AS n"),
    )
    .await;
    let user = scalar_i64(
        conn,
        &format!(
            "INSERT INTO users (email, password_hash, account_type) VALUES ('p{case}@example.com', 'x', 'admin') RETURNING id AS n"
        ),
    )
    .await;
    (items, vec![main, shelf], user)
}

/// The `n`-th production order of a product (by id), if it has that many.
async fn nth_order(conn: &mut AsyncPgConnection, product: i64, n: usize) -> Option<i64> {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    diesel::sql_query(format!(
        "SELECT id AS n FROM production_orders WHERE product_id = {product} ORDER BY id OFFSET {n} LIMIT 1"
    ))
    .get_result::<N>(conn)
    .await
    .ok()
    .map(|r| r.n)
}

/// One of the sales orders `user` created: the `n`-th by id, counting round (none before
/// the first).
async fn nth_sale(conn: &mut AsyncPgConnection, user: i64, n: usize) -> Option<i64> {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    diesel::sql_query(format!(
        "SELECT id AS n FROM sales_orders WHERE user_id = {user} ORDER BY id \
         OFFSET {n} % GREATEST((SELECT count(*) FROM sales_orders WHERE user_id = {user}), 1) LIMIT 1"
    ))
    .get_result::<N>(conn)
    .await
    .ok()
    .map(|r| r.n)
}

/// Runs one event in its own database transaction; a refusal (not enough stock) rolls it
/// back and is a normal outcome.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn apply(
    conn: &mut AsyncPgConnection,
    e: &Event,
    items: &[i64],
    locations: &[i64],
    user: i64,
    date: NaiveDate,
    vendor: i64,
    pos: &mut Vec<(i64, i64)>,
) {
    if let Event::Purchase { item, qty, cost } = e {
        let input = PurchaseOrderCreateInput {
            vendor_id: vendor,
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
            lines: vec![PurchaseOrderLineInput {
                product_id: items[*item],
                quantity_ordered: Decimal(d(qty)),
                unit_cost: Decimal(d(cost) / d(100)),
                purchase_unit: None,
                notes: None,
            }],
        };
        let made = conn
            .transaction::<_, Stop, _>(async move |conn| {
                let po = purchasing::create(conn, input, user).await?;
                let status = PurchaseOrderStatusInput {
                    status: "ordered".into(),
                    tracking_number: None,
                    carrier: None,
                };
                purchasing::change_status(conn, po.id, status, user).await?;
                let line = strata::operations::purchasing::model::lines_of(conn, &[po.id]).await?;
                Ok((po.id, line[0].id))
            })
            .await;
        match made {
            Ok(p) => pos.push(p),
            Err(e) => panic!("{e:?}"),
        }
        return;
    }
    if let Event::ReceivePo { po, qty, twice } = e {
        let Some((id, line)) = pos.get(po % pos.len().max(1)).copied() else {
            return;
        };
        for _ in 0..if *twice { 2 } else { 1 } {
            let input = PurchaseReceiveInput {
                lines: vec![ReceiveLineInput {
                    line_id: line,
                    quantity_received: Decimal(d(qty)),
                    lot_number: None,
                    vendor_lot_number: None,
                    notes: None,
                    create_spools: false,
                    spools: Vec::new(),
                }],
                location_id: Some(locations[0]),
                notes: None,
                received_date: Some(date),
                allow_over_receipt: false,
            };
            let outcome = conn
                .transaction::<_, Stop, _>(async move |conn| {
                    purchasing::receive(conn, id, input, user).await.map(|_| ())
                })
                .await;
            match outcome {
                Ok(()) | Err(Stop::Refused(_)) => {}
                Err(Stop::Failed(e)) => panic!("{e:?}"),
            }
        }
        return;
    }
    if let Event::AllowNegative(on) = e {
        exec(
            conn,
            &format!("UPDATE company_settings SET allow_negative_inventory = {on}"),
        )
        .await;
        return;
    }
    let e = e.clone();
    let (items, locations) = (items.to_vec(), locations.to_vec());
    let outcome = conn
        .transaction::<_, Stop, _>(async move |conn| {
            let movement = |item: usize, at: usize, kind: MovementKind, qty: BigDecimal| {
                Movement::new(items[item], locations[at], kind, qty)
            };
            let book = async |conn: &mut AsyncPgConnection, m: Movement| -> Result<(), Stop> {
                let posted = ledger::post(conn, &m).await?;
                rules::book_manual(
                    conn,
                    &posted,
                    date,
                    "property".into(),
                    SourceType::Adjustment,
                    Some(user),
                )
                .await?;
                Ok(())
            };
            match e {
                Event::Receipt {
                    item,
                    at,
                    qty,
                    cost,
                } => {
                    let unit_cost = cost.map(|c| d(c) / d(100));
                    book(
                        conn,
                        movement(item, at, MovementKind::Receipt { unit_cost }, d(qty)),
                    )
                    .await
                }
                Event::Issue { item, at, qty } => {
                    book(conn, movement(item, at, MovementKind::Issue, d(qty))).await
                }
                Event::Transfer { item, at, qty } => {
                    let to_location_id = locations[(at + 1) % LOCATIONS];
                    book(
                        conn,
                        movement(item, at, MovementKind::Transfer { to_location_id }, d(qty)),
                    )
                    .await
                }
                Event::Adjust { item, at, delta } => {
                    book(
                        conn,
                        movement(
                            item,
                            at,
                            MovementKind::Adjustment { unit_cost: None },
                            d(delta),
                        ),
                    )
                    .await
                }
                Event::Scrap { item, at, qty } => {
                    book(conn, movement(item, at, MovementKind::Scrap, d(qty))).await
                }
                Event::Reserve { item, at, qty } => {
                    ledger::reserve(conn, &movement(item, at, MovementKind::Issue, d(qty)))
                        .await
                        .map(|_| ())
                }
                Event::Release { item, at, qty } => {
                    ledger::release(conn, &movement(item, at, MovementKind::Issue, d(qty)))
                        .await
                        .map(|_| ())
                }
                Event::Consume {
                    item,
                    at,
                    qty,
                    reserved,
                } => {
                    let mut m = movement(item, at, MovementKind::Consumption, d(qty));
                    m.from_reservation = reserved;
                    book(conn, m).await
                }
                Event::Count { item, at, counted } => {
                    let input = CycleCountInput {
                        items: vec![CycleCountLine {
                            product_id: items[item],
                            counted_quantity: strata::platform::graphql::scalars::Decimal(d(
                                counted,
                            )),
                            reason: "property".into(),
                        }],
                        location_id: Some(locations[at]),
                        count_reference: None,
                        product_id: None,
                        counted_qty: None,
                        notes: None,
                    };
                    rules::count(conn, input, user).await.map(|_| ())
                }
                Event::AllowNegative(_) | Event::Purchase { .. } | Event::ReceivePo { .. } => {
                    Ok(())
                }
                Event::Produce { qty } => {
                    let order = production::create(
                        conn,
                        production::ProductionOrderCreateInput {
                            product_id: items[1],
                            quantity_ordered: strata::platform::graphql::scalars::Decimal(d(qty)),
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
                            location_id: Some(locations[0]),
                        },
                        Some(user),
                    )
                    .await?;
                    production::release(conn, order.id, Some(user))
                        .await
                        .map(|_| ())
                }
                Event::ProductionStart { order } => match nth_order(conn, items[1], order).await {
                    Some(id) => production::start(conn, id, Some(user)).await.map(|_| ()),
                    None => Ok(()),
                },
                Event::ProductionComplete {
                    order,
                    good,
                    scrapped,
                } => match nth_order(conn, items[1], order).await {
                    Some(id) => production::complete(
                        conn,
                        id,
                        production::ProductionOrderCompleteInput {
                            quantity_completed: Some(strata::platform::graphql::scalars::Decimal(
                                d(good),
                            )),
                            quantity_scrapped: Some(strata::platform::graphql::scalars::Decimal(
                                d(scrapped),
                            )),
                            force_close_short: true,
                            ..Default::default()
                        },
                        user,
                        production::CompletionGate(
                            strata::operations::quality::gate::before_completion,
                        ),
                    )
                    .await
                    .map(|_| ()),
                    None => Ok(()),
                },
                Event::ProductionCancel { order } => match nth_order(conn, items[1], order).await {
                    Some(id) => production::cancel(conn, id, None, Some(user))
                        .await
                        .map(|_| ()),
                    None => Ok(()),
                },
                Event::Sell { qty } => sales::create(
                    conn,
                    sales::SalesOrderCreateInput {
                        lines: vec![sales::SalesOrderLineInput {
                            product_id: items[1],
                            quantity: i32::try_from(qty).expect("qty"),
                            unit_price: None,
                            notes: None,
                        }],
                        customer_id: None,
                        customer_email: None,
                        source: None,
                        source_order_id: None,
                        shipping_address_line1: Some("1 Elm St".into()),
                        shipping_address_line2: None,
                        shipping_city: Some("Austin".into()),
                        shipping_state: None,
                        shipping_zip: None,
                        shipping_country: None,
                        shipping_cost: Some(Decimal(d("4.50"))),
                        customer_notes: None,
                        internal_notes: None,
                        due_date: None,
                        rush_level: None,
                        tax_rate_id: None,
                    },
                    user,
                )
                .await
                .map(|_| ()),
                Event::SalesConfirm { order } => match nth_sale(conn, user, order).await {
                    Some(id) => sales::change_status(
                        conn,
                        id,
                        sales::SalesOrderStatusInput {
                            status: SalesOrderStatus::Confirmed,
                            internal_notes: None,
                            production_notes: None,
                            credit_override_reason: None,
                        },
                        user,
                        sales::Shipper(strata::operations::shipping::rules::ship_with_defaults),
                    )
                    .await
                    .map(|_| ()),
                    None => Ok(()),
                },
                Event::SalesShip { order } => match nth_sale(conn, user, order).await {
                    Some(id) => shipping::ship(conn, id, shipping::ShipInput::default(), user)
                        .await
                        .map(|_| ()),
                    None => Ok(()),
                },
                Event::SalesPay {
                    order,
                    cents,
                    refund,
                } => match nth_sale(conn, user, order).await {
                    Some(id) => payments::record(
                        conn,
                        payments::PaymentInput {
                            sales_order_id: id,
                            amount: Decimal(d(cents) / d(100)),
                            payment_method: payments::PaymentMethod::Cash,
                            payment_date: None,
                            transaction_id: None,
                            check_number: None,
                            notes: None,
                        },
                        refund,
                        user,
                    )
                    .await
                    .map(|_| ()),
                    None => Ok(()),
                },
                Event::Invoice {
                    order,
                    cents,
                    whole,
                } => match nth_sale(conn, user, order).await {
                    Some(id) => invoices::create(
                        conn,
                        invoices::InvoiceCreateInput {
                            sales_order_id: id,
                            amount: (!whole).then(|| Decimal(d(cents) / d(100))),
                        },
                        user,
                    )
                    .await
                    .map(|_| ()),
                    None => Ok(()),
                },
                Event::InvoiceVoid { order, nth } => match nth_sale(conn, user, order).await {
                    Some(id) => {
                        let of = strata::operations::sales::invoices::model::of_orders(conn, &[id])
                            .await
                            .map_err(Stop::Failed)?;
                        match of.get(nth % of.len().max(1)) {
                            Some(invoice) => invoices::void(
                                conn,
                                invoice.id,
                                invoices::InvoiceVoidInput {
                                    reason: "property".into(),
                                },
                                user,
                            )
                            .await
                            .map(|_| ()),
                            None => Ok(()),
                        }
                    }
                    None => Ok(()),
                },
                Event::Amend { order, qty, cents } => match nth_sale(conn, user, order).await {
                    Some(id) => {
                        let lines = strata::operations::sales::model::lines_of(conn, &[id])
                            .await
                            .map_err(Stop::Failed)?;
                        match lines.into_iter().next() {
                            Some(line) => sales::edit_lines(
                                conn,
                                id,
                                sales::SalesOrderLinesEditInput {
                                    lines: vec![sales::SalesOrderLineEdit {
                                        line_id: line.id,
                                        new_quantity: qty.map(|q| i32::try_from(q).expect("qty")),
                                        new_unit_price: cents.map(|c| Decimal(d(c) / d(100))),
                                        reason: "property".into(),
                                    }],
                                },
                                user,
                            )
                            .await
                            .map(|_| ()),
                            None => Ok(()),
                        }
                    }
                    None => Ok(()),
                },
                Event::CloseShort { order } => match nth_sale(conn, user, order).await {
                    Some(id) => sales::close_short(conn, id, "property".into(), user)
                        .await
                        .map(|_| ()),
                    None => Ok(()),
                },
                Event::SalesCancel { order } => match nth_sale(conn, user, order).await {
                    Some(id) => sales::cancel(conn, id, "property".into(), user, true)
                        .await
                        .map(|_| ()),
                    None => Ok(()),
                },
                Event::ProductionScrap { order } => match nth_order(conn, items[1], order).await {
                    Some(id) => production::scrap(conn, id, "warping", None, None, false, user)
                        .await
                        .map(|_| ()),
                    None => Ok(()),
                },
            }
        })
        .await;
    match outcome {
        Ok(()) | Err(Stop::Refused(_)) => {}
        Err(Stop::Failed(e)) => panic!("{e:?}"),
    }
}

pub(crate) async fn check(
    conn: &mut AsyncPgConnection,
    dates: &[NaiveDate],
    negative_ever_allowed: bool,
) {
    // 1: balances equal their ledgers.
    let mismatches = model::mismatches(conn).await.expect("mismatches");
    assert!(
        mismatches.is_empty(),
        "balances differ from the ledger: {mismatches:?}"
    );
    // 2: available = on hand - allocated; allocated >= 0.
    let bad = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM inventory_balances \
         WHERE available_quantity <> on_hand_quantity - allocated_quantity OR allocated_quantity < 0",
    )
    .await;
    assert_eq!(bad, 0, "available or allocated broken");
    // 3: negative stock only while allowed, and then flagged.
    let negative = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM inventory_balances WHERE on_hand_quantity < 0",
    )
    .await;
    if !negative_ever_allowed {
        assert_eq!(
            negative, 0,
            "stock went below zero while it was not allowed"
        );
    }
    let unflagged = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM inventory_balances b WHERE b.on_hand_quantity < 0 AND NOT EXISTS \
         (SELECT 1 FROM inventory_transactions t WHERE t.item_id = b.item_id AND t.location_id = b.location_id \
          AND t.requires_approval)",
    )
    .await;
    assert_eq!(
        unflagged, 0,
        "a negative balance has no transaction waiting for approval"
    );
    // 4: every entry balances; the trial balance balances on every date of the run; the
    // inventory accounts hold what the stock ledger holds.
    let unbalanced = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM (SELECT journal_entry_id FROM gl_journal_entry_lines \
         GROUP BY journal_entry_id HAVING SUM(debit_amount) <> SUM(credit_amount)) x",
    )
    .await;
    assert_eq!(unbalanced, 0, "an entry does not balance");
    for date in dates {
        let totals = books::totals_as_of(conn, *date).await.expect("totals");
        let (_, debits, credits) = book_rules::trial_balance(totals, false).expect("trial balance");
        assert_eq!(
            debits, credits,
            "the trial balance as of {date} does not balance"
        );
    }
    let disagree = scalar_i64(
        conn,
        "WITH stock AS ( \
           SELECT CASE i.item_type WHEN 'finished_good' THEN '1220' WHEN 'packaging' THEN '1230' ELSE '1200' END AS code, \
                  SUM(t.total_cost) AS value \
           FROM inventory_transactions t JOIN items i ON i.id = t.item_id WHERE t.affects_on_hand GROUP BY 1), \
         gl AS ( \
           SELECT a.account_code AS code, COALESCE(SUM(l.debit_amount - l.credit_amount), 0) AS value \
           FROM gl_accounts a LEFT JOIN gl_journal_entry_lines l ON l.account_id = a.id \
           WHERE a.account_code IN ('1200', '1220', '1230') GROUP BY 1) \
         SELECT count(*) AS n FROM gl LEFT JOIN stock USING (code) WHERE gl.value <> COALESCE(stock.value, 0)",
    )
    .await;
    assert_eq!(
        disagree, 0,
        "an inventory account disagrees with the stock ledger's value"
    );
    // 5: purchase order lines never receive more than ordered, and what they received is
    // what their receipts put in stock; accounts payable holds the receipts' value.
    let wrong = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM purchase_order_lines l WHERE l.quantity_received > l.quantity_ordered \
         OR l.quantity_received <> COALESCE((SELECT SUM(t.quantity) FROM inventory_transactions t \
            WHERE t.reference_type = 'purchase_order' AND t.reference_id = l.purchase_order_id \
            AND t.item_id = l.product_id AND t.affects_on_hand), 0)",
    )
    .await;
    assert_eq!(wrong, 0, "a purchase order line and its receipts disagree");
    let payable = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM \
         (SELECT COALESCE(SUM(l.credit_amount - l.debit_amount), 0) AS v FROM gl_journal_entry_lines l \
          JOIN gl_accounts a ON a.id = l.account_id WHERE a.account_code = '2000') ap, \
         (SELECT COALESCE(SUM(t.total_cost), 0) AS v FROM inventory_transactions t \
          WHERE t.reference_type = 'purchase_order' AND t.affects_on_hand) st WHERE ap.v <> st.v",
    )
    .await;
    assert_eq!(
        payable, 0,
        "accounts payable disagrees with the value received"
    );
    // 5: WIP (1210) holds exactly the value consumed by the production orders still open;
    // reservations of closed orders are all given back.
    let wip = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM \
           (SELECT COALESCE(SUM(l.debit_amount - l.credit_amount), 0) AS v FROM gl_journal_entry_lines l \
            JOIN gl_accounts a ON a.id = l.account_id WHERE a.account_code = '1210') gl, \
           (SELECT COALESCE(SUM(actual_material_cost), 0) AS v FROM production_orders \
            WHERE status IN ('draft', 'released', 'in_progress', 'on_hold', 'short')) po \
         WHERE gl.v <> po.v",
    )
    .await;
    assert_eq!(wip, 0, "WIP disagrees with the open production orders");
    let held = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM production_order_materials m JOIN production_orders o \
         ON o.id = m.production_order_id \
         WHERE o.status IN ('complete', 'cancelled', 'scrapped', 'split') AND m.quantity_allocated <> 0",
    )
    .await;
    assert_eq!(
        held, 0,
        "a closed production order still holds a reservation"
    );
    // 6: sales orders.
    let held = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM sales_orders o WHERE \
           (SELECT COALESCE(SUM(quantity_allocated), 0) FROM sales_order_lines l WHERE l.sales_order_id = o.id) \
           <> (SELECT COALESCE(SUM(t.quantity), 0) FROM inventory_transactions t \
               WHERE t.reference_type = 'sales_order' AND t.reference_id = o.id \
               AND t.transaction_type IN ('reservation', 'release', 'reservation_release')) \
         OR (o.status IN ('cancelled', 'shipped', 'delivered') AND EXISTS \
             (SELECT 1 FROM sales_order_lines l WHERE l.sales_order_id = o.id AND l.quantity_allocated <> 0)) \
         OR EXISTS (SELECT 1 FROM sales_order_lines l WHERE l.sales_order_id = o.id AND l.quantity_shipped > l.quantity)",
    )
    .await;
    assert_eq!(
        held, 0,
        "a sales order's reservations or shipped quantities are wrong"
    );
    let account = |code: &str| {
        format!(
            "(SELECT COALESCE(SUM(l.debit_amount - l.credit_amount), 0) FROM gl_journal_entry_lines l \
              JOIN gl_accounts a ON a.id = l.account_id WHERE a.account_code = '{code}')"
        )
    };
    // 7: the invoices are the books' receivables. Sales (4000) is what the live invoices
    // billed; 1100 is exactly the open invoices' balances; 2300 holds what the payments
    // leave over once applied; no invoice is paid beyond its total; every shipment of an
    // order with something to bill has its invoice.
    let live = "FROM invoices WHERE status <> 'voided'";
    let wrong = scalar_i64(
        conn,
        &format!(
            "SELECT count(*) AS n FROM (SELECT \
               -{sales} AS sales, {cogs} + {supplies} AS cogs, {ar} AS ar, -{deposits} AS deposits, \
               (SELECT COALESCE(SUM(subtotal - discount_amount), 0) {live}) AS invoiced_sales, \
               (SELECT COALESCE(SUM(total - amount_paid), 0) {live}) AS open_balances, \
               (SELECT COALESCE(SUM(amount_paid), 0) {live}) AS applied, \
               (SELECT COALESCE(SUM(amount), 0) FROM payments WHERE status = 'completed') AS paid, \
               (SELECT COALESCE(-SUM(t.total_cost), 0) FROM inventory_transactions t \
                WHERE t.reference_type = 'sales_order' AND t.affects_on_hand) AS issued) x \
             WHERE sales <> invoiced_sales OR cogs <> issued OR ar <> open_balances \
                OR deposits <> paid - applied",
            sales = account("4000"),
            cogs = account("5000"),
            supplies = account("5010"),
            ar = account("1100"),
            deposits = account("2300"),
        ),
    )
    .await;
    assert_eq!(
        wrong, 0,
        "sales (4000), cost of goods (5000, 5010), receivables (1100) or deposits (2300) disagree with the invoices and payments"
    );
    let overpaid = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM invoices WHERE amount_paid > GREATEST(total, 0) OR amount_paid < 0 \
            OR (status = 'voided' AND amount_paid <> 0)",
    )
    .await;
    assert_eq!(overpaid, 0, "an invoice is paid beyond its total");
    let unbilled = scalar_i64(
        conn,
        "SELECT count(*) AS n FROM shipments s JOIN sales_orders o ON o.id = s.sales_order_id \
         WHERE o.grand_total > 0 AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.sales_order_id = o.id)",
    )
    .await;
    assert_eq!(unbilled, 0, "a shipment went out without an invoice");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("LEDGER_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(24),
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_ledgers_hold_their_invariants_under_any_sequence_of_events(
        events in proptest::collection::vec((event(), 0..40u32), 1..40)
    ) {
        let w = world();
        w.runtime.block_on(async {
            static CASE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
            let case = CASE.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut conn = w.db.connect().await;
            let (items, locations, user) = setup(&mut conn, case).await;
            let vendor = scalar_i64(
                &mut conn,
                &format!("INSERT INTO vendors (code, name) VALUES ('PV{case}', 'Vendor {case}') RETURNING id AS n"),
            )
            .await;
            let mut pos = Vec::new();
            exec(&mut conn, "UPDATE company_settings SET allow_negative_inventory = false").await;
            let negative_before = scalar_i64(&mut conn, "SELECT count(*) AS n FROM inventory_balances WHERE on_hand_quantity < 0").await > 0;
            let mut negative_ever = negative_before;
            let start = NaiveDate::from_ymd_opt(2026, 1, 1).expect("date");
            let mut dates = Vec::new();
            for (e, day) in &events {
                if let Event::AllowNegative(true) = e {
                    negative_ever = true;
                }
                let date = start + chrono::Days::new(u64::from(*day) * 9);
                dates.push(date);
                apply(&mut conn, e, &items, &locations, user, date, vendor, &mut pos).await;
            }
            dates.push(chrono::Utc::now().date_naive());
            check(&mut conn, &dates, negative_ever).await;
        });
    }
}

#[tokio::test]
async fn an_error_between_the_stock_row_and_the_journal_entry_leaves_neither() {
    let db = crate::common::TestDatabase::migrated().await;
    let mut conn = db.connect().await;
    let (items, locations, _) = setup(&mut conn, 1).await;
    let snapshot = async |conn: &mut AsyncPgConnection| {
        (
            scalar_i64(conn, "SELECT count(*) AS n FROM inventory_transactions").await,
            scalar_i64(conn, "SELECT count(*) AS n FROM inventory_balances").await,
            scalar_i64(conn, "SELECT count(*) AS n FROM gl_journal_entries").await,
            scalar_i64(
                conn,
                "SELECT count(*) AS n FROM items WHERE average_cost IS NOT NULL",
            )
            .await,
        )
    };
    let before = snapshot(&mut conn).await;
    let (item, location) = (items[0], locations[0]);
    let outcome = conn
        .transaction::<(), Stop, _>(async move |conn| {
            let m = Movement::new(
                item,
                location,
                MovementKind::Receipt {
                    unit_cost: Some(d("2.5")),
                },
                d(10),
            );
            let posted = ledger::post(conn, &m).await?;
            assert_eq!(posted.value, d("25.00"));
            // The stock row is written: the process fails before the journal entry.
            Err(Stop::Failed(strata::platform::error::AppError::internal(
                "crash before the journal entry",
            )))
        })
        .await;
    assert!(matches!(outcome, Err(Stop::Failed(_))));
    assert_eq!(
        snapshot(&mut conn).await,
        before,
        "a failed posting left rows behind"
    );
    assert!(
        model::mismatches(&mut conn)
            .await
            .expect("check")
            .is_empty()
    );
}

/// Reservations are pooled per balance, but each order gives back only its own: a release
/// (or a draw-down) for one reference never takes what another reserved. Found by the
/// property test: a release with no reference emptied a sales order's reservation, and the
/// order's shipment then released nothing, so its rows no longer summed to its lines.
#[tokio::test]
async fn a_release_gives_back_only_what_its_own_reference_reserved() {
    let db = crate::common::TestDatabase::migrated().await;
    let mut conn = db.connect().await;
    let (items, locations, _) = setup(&mut conn, 1).await;
    let (item, location) = (items[1], locations[0]);
    let for_order = |kind: MovementKind, q: u32| Movement {
        reference_type: Some(ReferenceType::SalesOrder),
        reference_id: Some(4242),
        ..Movement::new(item, location, kind, d(q))
    };
    let anonymous = |q: u32| Movement::new(item, location, MovementKind::Issue, d(q));
    let receipt = Movement::new(
        item,
        location,
        MovementKind::Receipt {
            unit_cost: Some(d(1)),
        },
        d(10),
    );
    ledger::post(&mut conn, &receipt).await.expect("receipt");
    let (reserved, _) = ledger::reserve(&mut conn, &for_order(MovementKind::Shipment, 4))
        .await
        .expect("reserve");
    assert_eq!(reserved, d(4));

    let (released, row) = ledger::release(&mut conn, &anonymous(4))
        .await
        .expect("release");
    assert_eq!(
        released,
        d(0),
        "nothing of the order's reservation is released"
    );
    assert!(row.is_none());
    ledger::reserve(&mut conn, &anonymous(2))
        .await
        .expect("reserve");
    let (released, _) = ledger::release(&mut conn, &anonymous(5))
        .await
        .expect("release");
    assert_eq!(released, d(2), "only its own two");

    let mut shipment = for_order(MovementKind::Shipment, 4);
    shipment.from_reservation = true;
    let posted = ledger::post(&mut conn, &shipment).await.expect("ship");
    assert_eq!(posted.balance.allocated_quantity.0, d(0));
    let held = scalar_i64(
        &mut conn,
        "SELECT COALESCE(SUM(quantity), 0)::bigint AS n FROM inventory_transactions \
         WHERE reference_type = 'sales_order' AND reference_id = 4242 \
         AND transaction_type IN ('reservation', 'release', 'reservation_release')",
    )
    .await;
    assert_eq!(
        held, 0,
        "the order's reservation rows sum to what it still holds"
    );
    assert!(
        model::mismatches(&mut conn)
            .await
            .expect("check")
            .is_empty()
    );
}
