//! The order import (CONTRACT 5.11, spec `POST /orders/import/`) through REST: rows grouped
//! by Order ID into pending orders priced to the cent, customers found or created, each bad
//! row listed with its line while its order is skipped whole, cancelled orders left out, a
//! second import of the same file creating nothing, the preview changing nothing, shop
//! exports (Shopify, Windows-1252 with semicolons), a file without the required columns as a
//! 422, a failure midway leaving nothing, and admin-only access.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::item;
use crate::common::api::{admin, app, call, ok, operator, table_json, upload};
use crate::common::books::exec;

const TABLES: [&str; 4] = [
    "sales_orders",
    "sales_order_lines",
    "sales_order_events",
    "customers",
];

async fn snapshot(app: &TestApp) -> Vec<String> {
    let mut all = Vec::new();
    for t in TABLES {
        all.push(table_json(app, t).await);
    }
    all
}

async fn import(app: &TestApp, t: &str, path: &str, csv: &[u8]) -> Value {
    let res = upload(app, path, t, "orders.csv", csv, &[]).await;
    assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text());
    res.json()
}

fn order<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["orders"]
        .as_array()
        .expect("orders")
        .iter()
        .find(|o| o["order_id"] == id)
        .unwrap_or_else(|| panic!("order {id} not in {report}"))
}

async fn sales_order(app: &TestApp, t: &str, number: &str) -> Value {
    let list = ok(app, t, Method::GET, "/api/v1/sales-orders/?limit=100", None).await;
    let id = list
        .as_array()
        .expect("list")
        .iter()
        .find(|o| o["order_number"] == number)
        .and_then(|o| o["id"].as_i64())
        .unwrap_or_else(|| panic!("{number} not listed"));
    ok(
        app,
        t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}"),
        None,
    )
    .await
}

const HEADER: &str = "Order ID,Order Date,Order Status,Payment Status,Customer Email,Customer Name,Product SKU,Quantity,Unit Price,Shipping Cost,Tax Amount,Shipping Address Line 1,Shipping City,Shipping State,Shipping Zip,Shipping Country,Customer Notes";

fn farm_file() -> String {
    [
        HEADER,
        // Two lines, a new customer, the shop's prices, shipping and tax.
        "1001,2026-01-15,pending,paid,Jane.Doe@Example.com,Jane Doe,FG-BENCHY,2,$24.99,5.00,3.75,123 Main St,Springfield,IL,62701,USA,Gift wrap",
        // An existing customer, no price (the item's), no tax given (company rate: off).
        "1002,01/16/2026,,,buyer@shop.test,,fg-vase,3,,,,,,,,,",
        "1001,,,,,,FG-VASE,1,\"1,039.00\",,,,,,,,",
        // One unknown SKU skips the whole order.
        "1003,2026-01-17,,,c@shop.test,Cy,FG-BENCHY,1,,,,,,,,,",
        "1003,,,,,,NOPE-1,1,,,,,,,,,",
        // Not a whole number.
        "1004,2026-01-17,,,d@shop.test,Di,FG-BENCHY,2.5,,,,,,,,,",
        // Cancelled in the shop: not imported.
        "1005,2026-01-18,Cancelled,,e@shop.test,Ed,FG-BENCHY,1,,,,,,,,,",
        // No e-mail: a placeholder customer.
        "1006,2026-01-18,,,,Fay Fox,FG-BENCHY,1,,,,,,,,,",
        // No Order ID.
        ",2026-01-18,,,g@shop.test,Gus,FG-BENCHY,1,,,,,,,,,",
        // Shipped in the shop: imported pending, reported.
        "#1007,2026-01-19,shipped,paid,h@shop.test,Hal Hill,FG-BENCHY,1,20,0,0,,,,,,",
        // No price anywhere.
        "1008,2026-01-19,,,i@shop.test,Ivy,FG-NOPRICE,1,,,,,,,,,",
        "",
    ]
    .join("\n")
}

#[tokio::test]
async fn an_order_file_becomes_pending_orders_grouped_by_order_id_and_a_second_import_creates_nothing()
 {
    let app = app().await;
    let t = admin(&app).await;
    item("FG-BENCHY")
        .price(Some("24.99"))
        .create(&app, &t)
        .await;
    let vase = item("FG-VASE").price(Some("39.00")).create(&app, &t).await;
    item("FG-NOPRICE").price(None).create(&app, &t).await;
    let buyer = ok(&app, &t, Method::POST, "/api/v1/admin/customers/", Some(json!({"email": "buyer@shop.test", "first_name": "Bea", "last_name": "Buyer", "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}))).await["id"].as_i64().expect("buyer");
    let file = farm_file();

    // The preview says what would happen and changes nothing.
    let before = snapshot(&app).await;
    let preview = import(
        &app,
        &t,
        "/api/v1/admin/orders/import/preview",
        file.as_bytes(),
    )
    .await;
    assert_eq!(snapshot(&app).await, before, "the preview wrote");
    assert_eq!(preview["applied"], false);
    assert_eq!(preview["total_rows"], 11, "{preview}");
    assert_eq!(preview["orders_found"], 8, "{preview}");
    assert_eq!(preview["created"], 4, "{preview}");
    assert_eq!(preview["skipped"], 4, "{preview}");
    assert_eq!(preview["customers_created"], 3, "{preview}");
    assert_eq!(order(&preview, "1001")["outcome"], "ready");
    assert_eq!(order(&preview, "1001")["customer"], "new");
    assert_eq!(order(&preview, "1002")["customer"], "existing");

    let report = import(&app, &t, "/api/v1/admin/orders/import", file.as_bytes()).await;
    assert_eq!(report["applied"], true);
    assert_eq!(report["detected_format"], "strata");
    assert_eq!(report["source"], "manual");
    assert_eq!(report["created"], 4, "{report}");
    assert_eq!(report["skipped"], 4, "{report}");
    assert_eq!(report["customers_created"], 3, "{report}");
    let errors: Vec<(i64, Option<String>, String)> = report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().expect("row"),
                e["field"].as_str().map(str::to_string),
                e["reason"].as_str().expect("reason").to_string(),
            )
        })
        .collect();
    let f = |s: &str| Some(s.to_string());
    assert_eq!(
        errors,
        vec![
            (
                6,
                f("product_sku"),
                "Product SKU 'NOPE-1' not found".to_string()
            ),
            (7, f("quantity"), "'2.5' is not a whole number".to_string()),
            (10, f("order_id"), "Order ID is required".to_string()),
            (
                12,
                f("unit_price"),
                "Product 'FG-NOPRICE' has no selling price configured; give a Unit Price"
                    .to_string()
            ),
        ],
        "{report}"
    );
    let warnings = report["warnings"].to_string();
    assert!(
        warnings.contains("1 cancelled or refunded order is not imported: 1005"),
        "{warnings}"
    );
    assert!(
        warnings.contains("1 order is shipped in the file"),
        "{warnings}"
    );
    assert!(
        warnings.contains("2 orders are paid in the file"),
        "{warnings}"
    );
    assert_eq!(order(&report, "1003")["outcome"], "invalid");
    assert_eq!(order(&report, "1005")["outcome"], "cancelled");

    // 1001: two lines at the shop's prices, its shipping and tax, its date, a new customer.
    let number = order(&report, "1001")["order_number"]
        .as_str()
        .expect("number")
        .to_string();
    assert!(number.starts_with("SO-"), "{number}");
    let o = sales_order(&app, &t, &number).await;
    assert_eq!(o["status"], "pending");
    assert_eq!(o["source"], "manual");
    assert_eq!(o["source_order_id"], "1001");
    assert_eq!(o["subtotal"], "1088.98", "{o}");
    assert_eq!(o["shipping_cost"], "5.00");
    assert_eq!(o["tax_amount"], "3.75");
    assert_eq!(o["grand_total"], "1097.73");
    assert_eq!(o["customer_email"], "jane.doe@example.com");
    assert_eq!(o["shipping_city"], "Springfield");
    assert!(
        o["created_at"]
            .as_str()
            .expect("created")
            .starts_with("2026-01-15"),
        "{o}"
    );
    assert_eq!(o["lines"].as_array().map(Vec::len), Some(2), "{o}");
    assert_eq!(o["lines"][1]["product_id"], vase);
    assert_eq!(o["lines"][1]["unit_price"], "1039.00");
    let jane = o["customer_id"].as_i64().expect("customer linked");
    let c = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/admin/customers/{jane}"),
        None,
    )
    .await;
    assert_eq!(
        (c["first_name"].as_str(), c["last_name"].as_str()),
        (Some("Jane"), Some("Doe"))
    );
    assert_eq!(c["order_count"], 1);

    // 1002: the existing customer, the item's price, the customer's address.
    let number = order(&report, "1002")["order_number"]
        .as_str()
        .expect("number")
        .to_string();
    let o = sales_order(&app, &t, &number).await;
    assert_eq!(o["customer_id"], buyer);
    assert_eq!(o["grand_total"], "117.00");
    assert_eq!(o["shipping_address_line1"], "1 Elm St");
    // 1006: a placeholder customer; #1007 is filed as 1007.
    assert_eq!(
        order(&report, "1006")["customer_email"],
        "import-1006@placeholder.local"
    );
    assert_eq!(order(&report, "1007")["outcome"], "created");

    // The same file again creates nothing: every good order is a duplicate now.
    let before = snapshot(&app).await;
    let again = import(&app, &t, "/api/v1/orders/import/", file.as_bytes()).await;
    assert_eq!(snapshot(&app).await, before, "a second import wrote");
    assert_eq!(again["created"], 0, "{again}");
    assert_eq!(again["skipped"], 8);
    assert_eq!(order(&again, "1001")["outcome"], "duplicate");
    assert!(
        again["errors"]
            .to_string()
            .contains("Order 1001 was already imported as SO-"),
        "{again}"
    );

    // The public template is a file the import takes.
    let res = crate::common::api::raw(
        &app,
        Method::GET,
        "/api/v1/admin/orders/import/template",
        &[],
        "",
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    let template = res.text();
    assert!(template.starts_with(HEADER), "{template}");
    let from_template = import(
        &app,
        &t,
        "/api/v1/admin/orders/import?source=etsy",
        template.as_bytes(),
    )
    .await;
    assert_eq!(from_template["created"], 1, "{from_template}");
    assert_eq!(from_template["source"], "etsy");
}

#[tokio::test]
async fn shop_exports_bad_files_failures_midway_and_access() {
    let app = app().await;
    let t = admin(&app).await;
    item("FG-BENCHY")
        .price(Some("24.99"))
        .create(&app, &t)
        .await;
    item("FG-VASE").price(Some("39.00")).create(&app, &t).await;

    // A Shopify export: "Name" is the order, order values only on its first row.
    let shopify = "Name,Email,Financial Status,Fulfillment Status,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku,Shipping,Taxes,Shipping Name,Shipping Street,Shipping City,Shipping Province,Shipping Zip,Shipping Country\n\
#1001,kim@shop.test,pending,unfulfilled,2026-02-01 10:22:33 -0500,1,Benchy,24.99,FG-BENCHY,4.00,2.00,Kim Ko,9 Oak Ave,Dayton,OH,45402,US\n\
#1001,,,,,2,Vase,39.00,FG-VASE,,,,,,,,\n";
    let r = import(&app, &t, "/api/v1/admin/orders/import", shopify.as_bytes()).await;
    assert_eq!(r["detected_format"], "shopify", "{r}");
    assert_eq!(r["source"], "shopify");
    assert_eq!(r["created"], 1, "{r}");
    let o = order(&r, "1001");
    assert_eq!(o["line_count"], 2);
    assert_eq!(o["grand_total"], "108.99", "{o}");

    // Windows-1252 with semicolons, as Excel writes it in Europe; create_customers=false
    // keeps the order unlinked.
    let mut euro = b"Order ID;Customer Email;Customer Name;Product SKU;Quantity\r\nA-1;zoe@shop.test;Zo\xeb Caf\xe9;FG-BENCHY;2\r\n".to_vec();
    euro.extend_from_slice(b"A-2;kim@shop.test;Kim;FG-BENCHY;1\r\n");
    let r = import(
        &app,
        &t,
        "/api/v1/admin/orders/import?create_customers=false",
        &euro,
    )
    .await;
    assert_eq!(r["created"], 2, "{r}");
    assert_eq!(r["customers_created"], 0);
    assert_eq!(order(&r, "A-1")["customer_name"], "Zoë Café");
    assert_eq!(order(&r, "A-1")["customer"], "none");
    assert_eq!(order(&r, "A-2")["customer"], "existing");

    // Missing required columns: a 422 naming them, nothing written.
    let before = snapshot(&app).await;
    let res = upload(
        &app,
        "/api/v1/admin/orders/import",
        &t,
        "o.csv",
        b"Order ID,Quantity\n1,2\n",
        &[],
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let body = res.text();
    assert!(
        body.contains("Missing required columns: Customer Email, Product SKU"),
        "{body}"
    );
    assert_eq!(snapshot(&app).await, before);

    // A failure midway (the last insert refused by the database) leaves nothing.
    exec(&app, "CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$").await;
    exec(&app, "CREATE TRIGGER refuse_event BEFORE INSERT ON sales_order_events FOR EACH ROW EXECUTE FUNCTION refuse_event()").await;
    let file = format!("{HEADER}\n9001,2026-03-01,,,new@shop.test,Nia New,FG-BENCHY,1,,,,,,,,,\n");
    let res = upload(
        &app,
        "/api/v1/admin/orders/import",
        &t,
        "o.csv",
        file.as_bytes(),
        &[],
    )
    .await;
    assert!(
        res.status.is_server_error(),
        "{} {}",
        res.status,
        res.text()
    );
    assert_eq!(
        snapshot(&app).await,
        before,
        "a failed import left rows behind"
    );
    exec(&app, "DROP TRIGGER refuse_event ON sales_order_events").await;
    let r = import(&app, &t, "/api/v1/admin/orders/import", file.as_bytes()).await;
    assert_eq!(
        (r["created"].as_i64(), r["customers_created"].as_i64()),
        (Some(1), Some(1))
    );

    // Admins only (spec 4.5); the template is public.
    let op = operator(&app, &t).await;
    for path in [
        "/api/v1/admin/orders/import",
        "/api/v1/orders/import/",
        "/api/v1/admin/orders/import/preview",
    ] {
        let res = upload(&app, path, &op, "o.csv", file.as_bytes(), &[]).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}: {}", res.text());
    }
    let res = call(
        &app,
        Method::GET,
        "/api/v1/admin/orders/import/template",
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
}
