//! Traceability through REST and GraphQL (CONTRACT 5.19, 6.7; issue 16): a seeded farm of
//! 2 vendors, 3 lots, 6 spools, 10 production orders, 40 serial numbers and 15 sales orders
//! built through the real routes (receipts make the lots and spools, production consumes
//! spools and makes the units, shipping gives each shipment its units), then forward and
//! backward traces and recall impact checked against an independent model of the scenario:
//! exactly the expected sets, no more, no fewer.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::item;
use crate::common::api::{admin, app, call, gql, ok, operator};

/// Which spools each production order draws from (by spool number), in order.
const PLAN: [&[&str]; 10] = [
    &["SPA-1"],
    &["SPA-1"],
    &["SPA-1"],
    &["SPA-2", "SPB-1"],
    &["SPB-1"],
    &["SPB-2"],
    &["SPC-1"],
    &["SPC-1"],
    &["SPC-2"],
    &["SPC-2"],
];

/// Units per production order (each makes 4, so 40 serial numbers).
const UNITS_PER_ORDER: usize = 4;

/// The 15 sales orders' quantities (36 units sold; the last order's 4 are not shipped, so 32
/// units ship and 8 stay on hand).
const SOLD: [usize; 15] = [2, 3, 2, 4, 1, 2, 3, 2, 2, 3, 1, 2, 3, 2, 4];

/// The six customers; sales order `i` is for customer `i % 6`.
const CUSTOMERS: usize = 6;

/// The lot of a spool number.
fn lot_of(spool: &str) -> &'static str {
    match &spool[..3] {
        "SPA" => "LOT-A",
        "SPB" => "LOT-B",
        _ => "LOT-C",
    }
}

/// The vendor (index) of a lot: LOT-A from vendor 0, LOT-B and LOT-C from vendor 1.
fn vendor_of(lot: &str) -> usize {
    usize::from(lot != "LOT-A")
}

/// The independent model: which sales order (index) serial `s` (global index, in the order
/// the units were made) shipped on, if any. Shipping takes units oldest first.
fn sales_order_of(s: usize) -> Option<usize> {
    let mut start = 0;
    for (i, q) in SOLD.iter().enumerate() {
        if s < start + q {
            return Some(i);
        }
        start += q;
    }
    None
}

/// The seeded farm: ids and numbers by model index.
struct Farm {
    vendors: Vec<i64>,
    spools: Vec<(String, i64)>,
    orders: Vec<(i64, String)>,
    serials: Vec<String>,
    sales: Vec<(i64, String)>,
    customers: Vec<i64>,
}

impl Farm {
    fn spool_id(&self, number: &str) -> i64 {
        self.spools
            .iter()
            .find(|(n, _)| n == number)
            .map(|(_, id)| *id)
            .expect("spool in farm")
    }
}

fn strings(v: &Value, key: &str) -> BTreeSet<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("array: {v}"))
        .iter()
        .map(|x| {
            x[key]
                .as_str()
                .unwrap_or_else(|| panic!("{key} in {x}"))
                .to_owned()
        })
        .collect()
}

fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    items.into_iter().collect()
}

/// Buys and receives material lines `(item, lot number, spool numbers)` from a vendor, one
/// 1000 g spool per KG.
async fn buy(app: &TestApp, t: &str, vendor: i64, lines: &[(i64, &str, &[&str])]) {
    let body: Vec<Value> = lines
        .iter()
        .map(|(item, _, spools)| {
            json!({"product_id": item, "quantity_ordered": spools.len().to_string(), "unit_cost": "20.00", "purchase_unit": "KG"})
        })
        .collect();
    let po = ok(
        app,
        t,
        Method::POST,
        "/api/v1/purchase-orders/",
        Some(json!({"vendor_id": vendor, "lines": body})),
    )
    .await;
    let id = po["id"].as_i64().expect("po id");
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/purchase-orders/{id}/status"),
        Some(json!({"status": "ordered"})),
    )
    .await;
    let receipt: Vec<Value> = lines
        .iter()
        .zip(po["lines"].as_array().expect("lines"))
        .map(|((_, lot, spools), line)| {
            let spools: Vec<Value> = spools
                .iter()
                .map(|n| json!({"weight_g": "1000", "spool_number": n}))
                .collect();
            json!({"line_id": line["id"], "quantity_received": spools.len().to_string(), "lot_number": lot, "spools": spools})
        })
        .collect();
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/purchase-orders/{id}/receive"),
        Some(json!({"lines": receipt})),
    )
    .await;
}

/// Seeds the farm through the API.
async fn farm(app: &TestApp, t: &str) -> Farm {
    let mut vendors = Vec::new();
    for name in ["Filament Co", "Polymer Supply"] {
        let v = ok(
            app,
            t,
            Method::POST,
            "/api/v1/vendors/",
            Some(json!({"name": name})),
        )
        .await;
        vendors.push(v["id"].as_i64().expect("vendor"));
    }
    let pla = item("PLA-BLK")
        .kind("material")
        .unit("G")
        .with("purchase_uom", json!("KG"))
        .create(app, t)
        .await;
    let petg = item("PETG-WHT")
        .kind("material")
        .unit("G")
        .with("purchase_uom", json!("KG"))
        .create(app, t)
        .await;
    let widget = item("WIDGET")
        .kind("finished_good")
        .unit("EA")
        .price(Some("25.00"))
        .serials(true)
        .create(app, t)
        .await;
    buy(app, t, vendors[0], &[(pla, "LOT-A", &["SPA-1", "SPA-2"])]).await;
    buy(
        app,
        t,
        vendors[1],
        &[
            (petg, "LOT-B", &["SPB-1", "SPB-2"]),
            (pla, "LOT-C", &["SPC-1", "SPC-2"]),
        ],
    )
    .await;
    let listed = ok(app, t, Method::GET, "/api/v1/spools/?limit=100", None).await;
    let spools: Vec<(String, i64)> = listed["items"]
        .as_array()
        .expect("spools")
        .iter()
        .map(|s| {
            (
                s["spool_number"].as_str().expect("number").to_owned(),
                s["id"].as_i64().expect("id"),
            )
        })
        .collect();
    assert_eq!(spools.len(), 6, "{listed}");

    let mut farm = Farm {
        vendors,
        spools,
        orders: Vec::new(),
        serials: Vec::new(),
        sales: Vec::new(),
        customers: Vec::new(),
    };
    for plan in PLAN {
        let wo = ok(
            app,
            t,
            Method::POST,
            "/api/v1/production-orders/",
            Some(json!({"product_id": widget, "quantity_ordered": UNITS_PER_ORDER.to_string()})),
        )
        .await;
        let id = wo["id"].as_i64().expect("wo");
        for step in ["release", "start"] {
            ok(
                app,
                t,
                Method::POST,
                &format!("/api/v1/production-orders/{id}/{step}"),
                None,
            )
            .await;
        }
        for spool in plan {
            ok(
                app,
                t,
                Method::POST,
                &format!("/api/v1/production-orders/{id}/consume-spool"),
                Some(json!({"spool_id": farm.spool_id(spool), "weight_consumed_g": "100"})),
            )
            .await;
        }
        ok(
            app,
            t,
            Method::POST,
            &format!("/api/v1/production-orders/{id}/complete"),
            Some(json!({"quantity_completed": UNITS_PER_ORDER.to_string()})),
        )
        .await;
        let done = ok(
            app,
            t,
            Method::POST,
            &format!("/api/v1/production-orders/{id}/qc"),
            Some(json!({"result": "passed"})),
        )
        .await;
        let _ = done;
        let serials = ok(
            app,
            t,
            Method::GET,
            &format!("/api/v1/admin/traceability/serials?production_order_id={id}"),
            None,
        )
        .await;
        let mut numbers: Vec<String> = serials["items"]
            .as_array()
            .expect("serials")
            .iter()
            .map(|s| s["serial_number"].as_str().expect("sn").to_owned())
            .collect();
        numbers.sort();
        assert_eq!(numbers.len(), UNITS_PER_ORDER, "{serials}");
        farm.serials.extend(numbers);
        farm.orders
            .push((id, wo["code"].as_str().expect("code").to_owned()));
    }
    for c in 0..CUSTOMERS {
        let customer = ok(
            app,
            t,
            Method::POST,
            "/api/v1/admin/customers/",
            Some(json!({"email": format!("buyer{c}@shop.test"), "first_name": format!("Buyer{c}"), "last_name": "Shop", "shipping_address_line1": "1 Elm St", "shipping_city": "Austin", "shipping_state": "TX", "shipping_zip": "73301"})),
        )
        .await;
        farm.customers
            .push(customer["id"].as_i64().expect("customer"));
    }
    for (i, q) in SOLD.iter().enumerate() {
        let so = ok(
            app,
            t,
            Method::POST,
            "/api/v1/sales-orders/",
            Some(json!({"customer_id": farm.customers[i % CUSTOMERS], "lines": [{"product_id": widget, "quantity": q}], "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
        )
        .await;
        let id = so["id"].as_i64().expect("so");
        ok(
            app,
            t,
            Method::PATCH,
            &format!("/api/v1/sales-orders/{id}/status"),
            Some(json!({"status": "confirmed"})),
        )
        .await;
        // The last order stays unshipped: its units are still on hand.
        if i + 1 < SOLD.len() {
            ok(
                app,
                t,
                Method::POST,
                &format!("/api/v1/sales-orders/{id}/ship"),
                Some(json!({})),
            )
            .await;
        }
        farm.sales
            .push((id, so["order_number"].as_str().expect("number").to_owned()));
    }
    farm
}

/// What the model says lies downstream of a set of spools.
struct Expected {
    orders: BTreeSet<String>,
    serials: BTreeSet<String>,
    sales: BTreeSet<String>,
    customers: BTreeSet<i64>,
    shipped: usize,
}

fn downstream(farm: &Farm, spools: &[&str]) -> Expected {
    let orders: Vec<usize> = (0..PLAN.len())
        .filter(|o| PLAN[*o].iter().any(|s| spools.contains(s)))
        .collect();
    let serials: Vec<usize> = (0..farm.serials.len())
        .filter(|s| orders.contains(&(s / UNITS_PER_ORDER)))
        .collect();
    // The last sales order never shipped, so its units are not on it.
    let sold: Vec<usize> = serials
        .iter()
        .filter_map(|s| sales_order_of(*s))
        .filter(|so| *so + 1 < SOLD.len())
        .collect();
    Expected {
        orders: set(orders.iter().map(|o| farm.orders[*o].1.clone())),
        serials: set(serials.iter().map(|s| farm.serials[*s].clone())),
        sales: set(sold.iter().map(|so| farm.sales[*so].1.clone())),
        customers: set(sold.iter().map(|so| farm.customers[so % CUSTOMERS])),
        shipped: serials
            .iter()
            .filter(|s| sales_order_of(**s).is_some_and(|so| so + 1 < SOLD.len()))
            .count(),
    }
}

fn assert_forward(trace: &Value, want: &Expected) {
    let orders: BTreeSet<String> = trace["usage"]
        .as_array()
        .expect("usage")
        .iter()
        .map(|u| {
            u["production_order"]["code"]
                .as_str()
                .expect("code")
                .to_owned()
        })
        .collect();
    assert_eq!(orders, want.orders, "production orders");
    assert_eq!(
        strings(&trace["serial_numbers"], "serial_number"),
        want.serials,
        "units"
    );
    assert_eq!(
        strings(&trace["sales_orders"], "order_number"),
        want.sales,
        "sales orders"
    );
    let customers: BTreeSet<i64> = trace["summary"]["customers"]
        .as_array()
        .expect("customers")
        .iter()
        .map(|c| c["id"].as_i64().expect("customer id"))
        .collect();
    assert_eq!(customers, want.customers, "customers");
    let s = &trace["summary"];
    assert_eq!(s["total_production_orders"], want.orders.len());
    assert_eq!(s["total_serial_numbers"], want.serials.len());
    assert_eq!(s["affected_sales_orders"], want.sales.len());
    assert_eq!(s["affected_customers"], want.customers.len());
    assert_eq!(s["units_shipped"], want.shipped);
    assert_eq!(s["units_on_hand"], want.serials.len() - want.shipped);
}

#[tokio::test]
async fn forward_and_backward_traces_and_recall_impact_return_exactly_the_expected_sets() {
    let app = app().await;
    let t = admin(&app).await;
    let farm = farm(&app, &t).await;
    let op = operator(&app, &t).await;

    // Forward from each spool: exactly the model's orders, units, sales orders and customers,
    // with the spool's origin and the grams (any signed-in user may trace).
    for (number, id) in &farm.spools {
        let trace = ok(
            &app,
            &op,
            Method::GET,
            &format!("/api/v1/traceability/forward/spool/{id}"),
            None,
        )
        .await;
        let want = downstream(&farm, &[number.as_str()]);
        assert_forward(&trace, &want);
        assert_eq!(trace["spool"]["spool_number"], number.as_str());
        assert_eq!(trace["purchase_info"]["lot_number"], lot_of(number));
        let uses = PLAN.iter().filter(|p| p.contains(&number.as_str())).count();
        assert_eq!(
            trace["summary"]["total_consumed_g"]
                .as_str()
                .map(|g| g.parse::<f64>().expect("grams")),
            Some(100.0 * uses as f64),
            "{number}: {}",
            trace["summary"]
        );
        assert_eq!(
            trace["spool"]["consumed_g"]
                .as_str()
                .map(|g| g.parse::<f64>().expect("g")),
            Some(100.0 * uses as f64)
        );
    }

    // Forward from a lot number, a spool number and a serial number through the spec route.
    let lot_a = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/traceability/forward/lot-a",
        None,
    )
    .await;
    assert_forward(&lot_a, &downstream(&farm, &["SPA-1", "SPA-2"]));
    assert_eq!(
        strings(&lot_a["spools"], "spool_number"),
        set(["SPA-1".to_owned(), "SPA-2".to_owned()])
    );
    assert_eq!(lot_a["sources"][0]["kind"], "material_lot");
    let by_spool = ok(
        &app,
        &op,
        Method::GET,
        "/api/v1/traceability/forward/SPB-2",
        None,
    )
    .await;
    assert_forward(&by_spool, &downstream(&farm, &["SPB-2"]));
    let first_unit = &farm.serials[0];
    let unit = ok(
        &app,
        &op,
        Method::GET,
        &format!("/api/v1/traceability/forward/{first_unit}"),
        None,
    )
    .await;
    assert_eq!(unit["sources"][0]["kind"], "serial_number");
    assert_eq!(
        strings(&unit["sales_orders"], "order_number"),
        set([farm.sales[0].1.clone()])
    );
    assert_eq!(unit["summary"]["affected_customers"], 1);
    let res = call(
        &app,
        Method::GET,
        "/api/v1/traceability/forward/NOPE-123",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());

    // Backward from every unit: its order, the spools of that order, their lots, purchase
    // orders and vendors, and the sales order it shipped on.
    for (s, number) in farm.serials.iter().enumerate() {
        let trace = ok(
            &app,
            &op,
            Method::GET,
            &format!("/api/v1/traceability/backward/serial/{number}"),
            None,
        )
        .await;
        let order = s / UNITS_PER_ORDER;
        assert_eq!(
            trace["production_order"]["code"],
            farm.orders[order].1.as_str()
        );
        let spools: BTreeSet<String> = trace["material_lineage"]
            .as_array()
            .expect("lineage")
            .iter()
            .map(|l| {
                l["spool"]["spool_number"]
                    .as_str()
                    .expect("spool")
                    .to_owned()
            })
            .collect();
        assert_eq!(
            spools,
            set(PLAN[order].iter().map(|s| s.to_string())),
            "{number}"
        );
        let lots: BTreeSet<String> = trace["material_lineage"]
            .as_array()
            .expect("lineage")
            .iter()
            .map(|l| l["lot"]["lot_number"].as_str().expect("lot").to_owned())
            .collect();
        assert_eq!(lots, set(PLAN[order].iter().map(|s| lot_of(s).to_owned())));
        let vendors: BTreeSet<i64> = trace["vendors"]
            .as_array()
            .expect("vendors")
            .iter()
            .map(|v| v["id"].as_i64().expect("vendor"))
            .collect();
        assert_eq!(
            vendors,
            set(PLAN[order]
                .iter()
                .map(|s| farm.vendors[vendor_of(lot_of(s))]))
        );
        for l in trace["material_lineage"].as_array().expect("lineage") {
            assert_eq!(
                l["weight_consumed_g"]
                    .as_str()
                    .map(|g| g.parse::<f64>().expect("g")),
                Some(100.0)
            );
            assert!(l["purchase_order"]["po_number"].as_str().is_some(), "{l}");
        }
        match sales_order_of(s).filter(|so| so + 1 < SOLD.len()) {
            Some(so) => assert_eq!(
                trace["sales_order"]["order_number"],
                farm.sales[so].1.as_str()
            ),
            None => assert!(
                trace["sales_order"].is_null(),
                "{number}: {}",
                trace["sales_order"]
            ),
        }
    }
    // The admin recall alias answers the same, and unknown serials are 404s.
    let alias = ok(
        &app,
        &t,
        Method::GET,
        &format!(
            "/api/v1/admin/traceability/recall/backward/{}",
            farm.serials[13]
        ),
        None,
    )
    .await;
    assert_eq!(alias["production_order"]["code"], farm.orders[3].1.as_str());
    let res = call(
        &app,
        Method::GET,
        "/api/v1/traceability/backward/serial/BLB-NOPE",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);

    // Backward from every shipped sales order: its units, their orders and spools.
    for (i, (id, number)) in farm.sales.iter().enumerate().take(SOLD.len() - 1) {
        let trace = ok(
            &app,
            &op,
            Method::GET,
            &format!("/api/v1/traceability/backward/sales-order/{id}"),
            None,
        )
        .await;
        assert_eq!(trace["sales_order"]["order_number"], number.as_str());
        let units: Vec<usize> = (0..farm.serials.len())
            .filter(|s| sales_order_of(*s) == Some(i))
            .collect();
        assert_eq!(
            strings(&trace["serial_numbers"], "serial_number"),
            set(units.iter().map(|s| farm.serials[*s].clone()))
        );
        let orders: BTreeSet<usize> = set(units.iter().map(|s| s / UNITS_PER_ORDER));
        assert_eq!(
            strings(&trace["production_orders"], "code"),
            set(orders.iter().map(|o| farm.orders[*o].1.clone()))
        );
        let spools: BTreeSet<String> = trace["material_lineage"]
            .as_array()
            .expect("lineage")
            .iter()
            .map(|l| {
                l["spool"]["spool_number"]
                    .as_str()
                    .expect("spool")
                    .to_owned()
            })
            .collect();
        assert_eq!(
            spools,
            set(orders
                .iter()
                .flat_map(|o| PLAN[*o].iter().map(|s| s.to_string())))
        );
    }

    // Recall impact of LOT-C and spool SPB-2: orders 5-9, their 20 units (12 shipped; 8 still
    // here, the last order's and the unsold ones), the sales orders and customers they reached.
    let impact = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/traceability/recall-impact",
        Some(json!({"lot_numbers": ["lot-c", "LOT-ZZZ"], "spool_numbers": ["SPB-2"]})),
    )
    .await;
    let want = downstream(&farm, &["SPB-2", "SPC-1", "SPC-2"]);
    assert_eq!(want.orders.len(), 5);
    assert_eq!(want.serials.len(), 20);
    assert_eq!(want.shipped, 12);
    assert_forward(&impact, &want);
    assert_eq!(impact["not_found"], json!(["LOT-ZZZ"]));
    assert_eq!(
        strings(&impact["lots"], "lot_number"),
        set(["LOT-C".to_owned()])
    );
    // By id, the same answer.
    let by_id = ok(
        &app,
        &op,
        Method::POST,
        "/api/v1/traceability/recall-impact",
        Some(json!({"spool_ids": [farm.spool_id("SPB-2"), farm.spool_id("SPC-1"), farm.spool_id("SPC-2")]})),
    )
    .await;
    assert_forward(&by_id, &want);
    // Nothing named: 422 naming the field; nothing found: 404.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/traceability/recall-impact",
        Some(json!({})),
        &op,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let res = call(
        &app,
        Method::POST,
        "/api/v1/traceability/recall-impact",
        Some(json!({"lot_numbers": ["NOPE"]})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());

    // The admin lot recall view.
    let lot_b = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/traceability/recall/forward/LOT-B",
        None,
    )
    .await;
    assert_forward(&lot_b, &downstream(&farm, &["SPB-1", "SPB-2"]));
}

#[tokio::test]
async fn the_graph_query_serial_and_lot_registers_and_access() {
    let app = app().await;
    let t = admin(&app).await;
    let farm = farm(&app, &t).await;
    let op = operator(&app, &t).await;

    // One GraphQL request: forward and backward graphs of a spool, typed nodes and links.
    let res = gql(
        &app,
        &op,
        "query($code: String!) {
           down: trace(code: $code) { start { kind code } nodes { key kind code stage } edges { from to relation quantity unit } counts { kind count } }
           up: trace(code: $code, direction: BACKWARD) { nodes { kind code } edges { relation } }
         }",
        json!({"code": "SPB-1"}),
    )
    .await;
    assert!(res["errors"].is_null(), "{res}");
    let down = &res["data"]["down"];
    assert_eq!(down["start"], json!({"kind": "spool", "code": "SPB-1"}));
    let kinds: BTreeSet<String> = strings(&down["nodes"], "kind");
    assert_eq!(
        kinds,
        set([
            "spool",
            "production_order",
            "serial_number",
            "sales_order",
            "customer"
        ]
        .map(String::from))
    );
    let want = downstream(&farm, &["SPB-1"]);
    let codes: BTreeSet<String> = down["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| n["kind"] == "production_order")
        .map(|n| n["code"].as_str().expect("code").to_owned())
        .collect();
    assert_eq!(codes, want.orders);
    let consumed: Vec<&Value> = down["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .filter(|e| e["relation"] == "CONSUMED_BY")
        .collect();
    assert_eq!(consumed.len(), 2, "{down}");
    assert!(consumed.iter().all(|e| e["unit"] == "G"));
    let up = &res["data"]["up"];
    assert_eq!(
        strings(&up["nodes"], "kind"),
        set(["vendor", "purchase_order", "material_lot", "spool"].map(String::from))
    );

    // The REST graph route names a kind and id too.
    let g = ok(
        &app,
        &op,
        Method::GET,
        &format!(
            "/api/v1/traceability/graph?kind=production_order&id={}&direction=BACKWARD",
            farm.orders[3].0
        ),
        None,
    )
    .await;
    assert_eq!(
        g["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter(|n| n["kind"] == "spool")
            .count(),
        2,
        "{g}"
    );

    // Registers (admins): units searchable, looked up ignoring case; lots listed.
    let list = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/traceability/serials?limit=5",
        None,
    )
    .await;
    assert_eq!(list["total"], 40);
    assert_eq!(list["items"].as_array().expect("items").len(), 5);
    let shipped = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/traceability/serials?status=shipped",
        None,
    )
    .await;
    assert_eq!(shipped["total"], 32);
    let sn = farm.serials[7].to_lowercase();
    let one = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/traceability/serials/lookup/{sn}"),
        None,
    )
    .await;
    assert_eq!(one["serial_number"], farm.serials[7].as_str());
    assert!(one["shipment_id"].is_i64(), "{one}");
    assert!(one["tracking_number"].is_string(), "{one}");
    let again = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/traceability/serials/{}", one["id"]),
        None,
    )
    .await;
    assert_eq!(again, one);
    let lots = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/admin/traceability/lots?search=lot-",
        None,
    )
    .await;
    assert_eq!(
        strings(&lots["items"], "lot_number"),
        set(["LOT-A", "LOT-B", "LOT-C"].map(String::from))
    );
    let lot = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/traceability/lots/{}", lots["items"][0]["id"]),
        None,
    )
    .await;
    assert_eq!(lot["lot_number"], lots["items"][0]["lot_number"]);
    let consumptions = ok(
        &app,
        &t,
        Method::GET,
        &format!(
            "/api/v1/spools/traceability/production-order/{}",
            farm.orders[3].0
        ),
        None,
    )
    .await;
    assert_eq!(consumptions.as_array().expect("lineage").len(), 2);

    // Operators trace but do not browse the registers.
    for path in [
        "/api/v1/admin/traceability/serials",
        "/api/v1/admin/traceability/lots",
    ] {
        let res = call(&app, Method::GET, path, None, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}");
    }
    let res = call(
        &app,
        Method::GET,
        "/api/v1/admin/traceability/serials/999999",
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_trace_costs_the_same_statements_whatever_it_reaches() {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    let farm = farm(&app, &t).await;
    let statements = |method: Method, path: String, body: Option<Value>| {
        let (app, t, counter) = (&app, &t, &counter);
        async move {
            let before = counter.load(std::sync::atomic::Ordering::SeqCst);
            let res = call(app, method, &path, body, t).await;
            assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
            counter.load(std::sync::atomic::Ordering::SeqCst) - before
        }
    };
    // Warm up: the first request of a session reads what later ones find cached.
    statements(
        Method::POST,
        "/api/v1/traceability/recall-impact".into(),
        Some(json!({"lot_numbers": ["LOT-C"]})),
    )
    .await;
    // Two spools (3 work orders, 12 units) against all six (10 orders, 40 units, 14 orders).
    let ids = |numbers: &[&str]| numbers.iter().map(|n| farm.spool_id(n)).collect::<Vec<_>>();
    let small = statements(
        Method::POST,
        "/api/v1/traceability/recall-impact".into(),
        Some(json!({"spool_ids": ids(&["SPB-1", "SPB-2"])})),
    )
    .await;
    let large = statements(
        Method::POST,
        "/api/v1/traceability/recall-impact".into(),
        Some(json!({"spool_ids": ids(&["SPA-1", "SPA-2", "SPB-1", "SPB-2", "SPC-1", "SPC-2"])})),
    )
    .await;
    assert_eq!(
        small, large,
        "recall impact: statements grow with what it reaches"
    );
    // A spool used by one order against one used by three.
    let one = statements(
        Method::GET,
        format!(
            "/api/v1/traceability/forward/spool/{}",
            farm.spool_id("SPB-2")
        ),
        None,
    )
    .await;
    let three = statements(
        Method::GET,
        format!(
            "/api/v1/traceability/forward/spool/{}",
            farm.spool_id("SPA-1")
        ),
        None,
    )
    .await;
    assert_eq!(
        one, three,
        "forward trace: statements grow with what it reaches"
    );
    // A sales order of one unit against one of four, from two work orders.
    let so_one = statements(
        Method::GET,
        format!(
            "/api/v1/traceability/backward/sales-order/{}",
            farm.sales[4].0
        ),
        None,
    )
    .await;
    let so_four = statements(
        Method::GET,
        format!(
            "/api/v1/traceability/backward/sales-order/{}",
            farm.sales[3].0
        ),
        None,
    )
    .await;
    assert_eq!(
        so_one, so_four,
        "backward trace: statements grow with what it reaches"
    );
    assert!(large <= 20, "a recall costs {large} statements");
}
