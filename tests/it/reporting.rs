//! Reporting for report builders (issue 16): the nested reads a report pulls in one GraphQL
//! request (sales orders -> lines -> product -> BOM -> components -> their BOMs -> on-hand by
//! location; production orders -> operations -> printer -> spools) cost the same statements
//! for 50 orders as for one, and every `/graphql` response reports its cost with the limit.

use std::sync::atomic::Ordering;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, call, gql};
use crate::common::books::{exec, receive};

async fn post(app: &TestApp, t: &str, path: &str, body: Value) -> Value {
    let res = call(app, Method::POST, path, Some(body), t).await;
    assert!(
        res.status == StatusCode::OK || res.status == StatusCode::CREATED,
        "{path}: {} {}",
        res.status,
        res.text()
    );
    res.json()
}

async fn new_item(app: &TestApp, t: &str, sku: &str, kind: &str, unit: &str) -> i64 {
    let body = json!({"sku": sku, "name": format!("{sku} item"), "item_type": kind, "unit": unit, "selling_price": "25"});
    post(app, t, "/api/v1/items", body).await["id"]
        .as_i64()
        .expect("id")
}

/// Five products, each three BOM levels deep (FG-i -> SUB-i -> PART-i -> PLA), PLA on hand
/// in two locations; 50 sales orders of five lines (one per product); 50 production orders
/// with two operations on three printers, each consuming two spools.
async fn seed(app: &TestApp, t: &str) {
    let pla = new_item(app, t, "PLA", "material", "G").await;
    receive(app, t, pla, "1000", "0.03").await;
    exec(
        app,
        &format!(
            "INSERT INTO locations (code, name, type) VALUES ('SHELF', 'Shelf', 'warehouse');
             INSERT INTO inventory_balances (item_id, location_id, on_hand_quantity)
               SELECT {pla}, id, 5 FROM locations WHERE code = 'SHELF';"
        ),
    )
    .await;
    let mut products = Vec::new();
    for i in 0..5 {
        let part = new_item(app, t, &format!("PART-{i}"), "component", "EA").await;
        let sub = new_item(app, t, &format!("SUB-{i}"), "component", "EA").await;
        let fg = new_item(app, t, &format!("FG-{i}"), "finished_good", "EA").await;
        for (product, component, qty) in [(part, pla, "10"), (sub, part, "2"), (fg, sub, "1")] {
            post(
                app,
                t,
                "/api/v1/admin/bom/",
                json!({"product_id": product, "lines": [{"component_id": component, "quantity": qty}]}),
            )
            .await;
        }
        products.push(fg);
    }
    let lines: Vec<Value> = products
        .iter()
        .map(|p| json!({"product_id": p, "quantity": 1}))
        .collect();
    for _ in 0..50 {
        post(
            app,
            t,
            "/api/v1/sales-orders/",
            json!({"lines": lines, "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"}),
        )
        .await;
    }
    exec(
        app,
        &format!(
            "INSERT INTO work_centers (code, name) VALUES ('PRINT', 'Printing');
             INSERT INTO printers (code, name, model)
               SELECT 'P' || g, 'Printer ' || g, 'X1C' FROM generate_series(1, 3) g;
             INSERT INTO spools (spool_number, product_id, initial_weight_g, current_weight_g, received_date)
               SELECT 'SP-' || g, {pla}, 1000, 900, current_date FROM generate_series(1, 6) g;
             INSERT INTO production_orders (code, product_id, location_id, quantity_ordered)
               SELECT 'WO-' || lpad(g::text, 3, '0'), {fg}, (SELECT id FROM locations WHERE code = 'MAIN'), 1
               FROM generate_series(1, 50) g;
             INSERT INTO production_order_operations
               (production_order_id, work_center_id, printer_id, sequence, operation_code, operation_name)
               SELECT o.id, (SELECT id FROM work_centers WHERE code = 'PRINT'),
                      (SELECT id FROM printers WHERE code = 'P' || (1 + (o.id + s) % 3)), s * 10,
                      'OP' || s, 'Operation ' || s
               FROM production_orders o, generate_series(1, 2) s;
             INSERT INTO production_order_spools (production_order_id, spool_id, weight_consumed_g)
               SELECT o.id, (SELECT id FROM spools WHERE spool_number = 'SP-' || (1 + (o.id + s) % 6)), 10
               FROM production_orders o, generate_series(1, 2) s;",
            fg = products[0]
        ),
    )
    .await;
}

/// The report: every relation a report builder nests, three BOM levels deep.
pub const REPORT: &str = "query($n: Int!) {
  salesOrders(first: $n) { nodes { orderNumber lines { quantity product { sku
    stock { locationCode onHandQuantity }
    bom { code lines { quantity component { sku stock { locationCode onHandQuantity }
      bom { lines { quantity component { sku stock { locationCode onHandQuantity }
        bom { lines { quantity component { sku stock { locationCode onHandQuantity } } } } } } } } } } } } } }
  productionOrders(first: $n) { nodes { code
    operations { operationCode printer { code spools { spoolNumber currentWeightGrams } } }
    spools { weightConsumedGrams spool { spoolNumber } } } }
}";

#[tokio::test]
async fn a_nested_report_of_50_orders_costs_the_statements_of_one() {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    seed(&app, &t).await;
    let mut counts = Vec::new();
    for n in [1, 50] {
        let mut least = u64::MAX;
        for _ in 0..3 {
            let before = counter.load(Ordering::SeqCst);
            let res = gql(&app, &t, REPORT, json!({"n": n})).await;
            least = least.min(counter.load(Ordering::SeqCst) - before);
            assert!(res.get("errors").is_none(), "{res}");
            let orders = res["data"]["salesOrders"]["nodes"]
                .as_array()
                .expect("orders");
            assert_eq!(orders.len(), n);
            let last = &orders[n - 1];
            assert_eq!(last["lines"].as_array().map(Vec::len), Some(5), "{last}");
            let fg = &last["lines"][0]["product"];
            let sub = &fg["bom"]["lines"][0]["component"];
            let part = &sub["bom"]["lines"][0]["component"];
            let pla = &part["bom"]["lines"][0]["component"];
            assert_eq!(sub["sku"], "SUB-0", "{fg}");
            assert_eq!(part["sku"], "PART-0", "{fg}");
            assert_eq!(pla["sku"], "PLA", "{fg}");
            // On hand by location: the receipt's location and the shelf.
            let mut places: Vec<String> = pla["stock"]
                .as_array()
                .expect("stock")
                .iter()
                .map(|b| {
                    format!(
                        "{}={}",
                        b["locationCode"].as_str().unwrap_or(""),
                        b["onHandQuantity"]
                    )
                })
                .collect();
            places.sort();
            assert_eq!(places.len(), 2, "{places:?}");
            assert!(places.iter().any(|p| p.starts_with("SHELF=")), "{places:?}");

            let orders = res["data"]["productionOrders"]["nodes"]
                .as_array()
                .expect("production orders");
            assert_eq!(orders.len(), n);
            let op = &orders[n - 1]["operations"][0];
            assert!(
                op["printer"]["code"]
                    .as_str()
                    .is_some_and(|c| c.starts_with('P')),
                "{op}"
            );
            assert!(
                !op["printer"]["spools"]
                    .as_array()
                    .expect("spools")
                    .is_empty(),
                "{op}"
            );
            assert_eq!(orders[n - 1]["spools"].as_array().map(Vec::len), Some(2));
            assert!(
                orders[n - 1]["spools"][0]["spool"]["spoolNumber"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("SP-"))
            );
        }
        counts.push(least);
    }
    println!(
        "statements for 1 order: {}, for 50: {}",
        counts[0], counts[1]
    );
    assert_eq!(
        counts[0], counts[1],
        "the statement count grows with the orders: {counts:?}"
    );
}

#[tokio::test]
async fn every_graphql_response_reports_its_cost_and_the_limit() {
    let app = crate::common::api::app().await;
    let t = admin(&app).await;
    let res = gql(&app, &t, REPORT, json!({"n": 50})).await;
    let cost = &res["extensions"]["cost"];
    let requested = cost["requestedQueryCost"].as_u64().expect("cost");
    assert!(requested > 50, "{cost}");
    assert_eq!(cost["maximumAvailable"], 5000, "{cost}");
    // Half the page costs about half.
    let half =
        gql(&app, &t, REPORT, json!({"n": 25})).await["extensions"]["cost"]["requestedQueryCost"]
            .as_u64()
            .expect("cost");
    assert!(half < requested, "{half} vs {requested}");
    // A refused query says what it would have cost.
    let res = call(
        &app,
        Method::POST,
        "/graphql",
        Some(json!({"query": REPORT, "variables": {"n": 2000}})),
        &t,
    )
    .await
    .json();
    assert!(
        res["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("at most 5000")),
        "{res}"
    );
    assert!(res["extensions"]["cost"]["requestedQueryCost"].as_u64() > Some(5000));
    // A mutation and an error response carry it too.
    let res = gql(&app, &t, "{ nope }", json!({})).await;
    assert!(
        res["extensions"]["cost"]["maximumAvailable"].is_number(),
        "{res}"
    );
}

/// An app with its own uploads folder and a job worker polling fast.
async fn export_app() -> (TestApp, strata::platform::jobs::WorkerHandle) {
    let uploads =
        std::env::temp_dir().join(format!("strata-uploads-{}", uuid::Uuid::new_v4().simple()));
    let uploads = uploads.to_string_lossy().into_owned();
    let app = TestApp::spawn_with(&[("AUTH_MODE", "header"), ("UPLOADS_DIR", &uploads)]).await;
    let worker = strata::application::app::start_jobs(
        &app.state,
        strata::platform::jobs::WorkerOptions {
            poll_interval: std::time::Duration::from_millis(50),
            ..strata::platform::jobs::WorkerOptions::default()
        },
    );
    (app, worker)
}

const EXPORT: &str = "mutation($q: String!, $f: BulkExportFormat!) {
  bulkExport(query: $q, format: $f) { bulkExport { id status } userErrors { field message } } }";

const STATUS: &str = "query($id: Int!) { bulkExport(id: $id) {
  id status progress rowCount sizeBytes error downloadUrl expiresAt } }";

/// Queues an export and waits until it is no longer queued or running.
async fn export(app: &TestApp, t: &str, query: &str, format: &str) -> Value {
    let res = gql(app, t, EXPORT, json!({"q": query, "f": format})).await;
    let payload = &res["data"]["bulkExport"];
    assert_eq!(payload["userErrors"], json!([]), "{res}");
    assert_eq!(payload["bulkExport"]["status"], "queued", "{res}");
    let id = payload["bulkExport"]["id"].as_i64().expect("id");
    for _ in 0..600 {
        let status = gql(app, t, STATUS, json!({"id": id})).await["data"]["bulkExport"].clone();
        if status["status"] != "queued" && status["status"] != "running" {
            return status;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the export {id} did not finish");
}

/// Three hundred ledger rows (inventory transactions) and three hundred items.
async fn ledger(app: &TestApp) {
    exec(
        app,
        "INSERT INTO items (sku, name, item_type, unit)
           SELECT 'BULK-' || lpad(g::text, 4, '0'), 'Bulk \"item\", ' || g, 'component', 'EA'
           FROM generate_series(1, 300) g;
         INSERT INTO inventory_transactions (item_id, location_id, transaction_type, quantity, unit, cost_per_unit, total_cost)
           SELECT i.id, (SELECT id FROM locations WHERE code = 'MAIN'), 'receipt', 2, 'EA', 1.5, 3
           FROM items i WHERE i.sku LIKE 'BULK-%';",
    )
    .await;
}

#[tokio::test]
async fn a_bulk_export_writes_every_row_as_jsonl_or_csv_for_its_owner_only() {
    let (app, _worker) = export_app().await;
    let t = admin(&app).await;
    ledger(&app).await;

    // JSONL of the ledger, nested: 300 rows over two pages and more.
    let q = "{ inventoryTransactions { nodes { id quantity productSku journalEntry { entryNumber } } } }";
    let done = export(&app, &t, q, "jsonl").await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["rowCount"], 300, "{done}");
    assert_eq!(done["progress"], 300, "{done}");
    assert!(done["expiresAt"].is_string(), "{done}");
    let url = done["downloadUrl"].as_str().expect("url").to_string();
    let res = call(&app, Method::GET, &url, None, &t).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(res.header("content-type"), Some("application/jsonl"));
    let body = res.text();
    assert_eq!(done["sizeBytes"].as_u64(), Some(body.len() as u64));
    let lines: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 300);
    let mut ids: Vec<i64> = lines
        .iter()
        .map(|l| l["id"].as_i64().expect("id"))
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 300, "every row once");
    assert!(
        lines[0]["productSku"]
            .as_str()
            .is_some_and(|s| s.starts_with("BULK-"))
    );
    assert!(lines[0]["journalEntry"].is_null());

    // CSV of a flat selection, quoted where it must be.
    let q = "{ items(search: \"BULK-\") { nodes { sku name } } }";
    let done = export(&app, &t, q, "csv").await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["rowCount"], 300, "{done}");
    let res = call(
        &app,
        Method::GET,
        done["downloadUrl"].as_str().expect("url"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(
        res.header("content-type")
            .is_some_and(|c| c.starts_with("text/csv"))
    );
    let text = res.text();
    let mut rows = text.lines();
    assert_eq!(rows.next(), Some("sku,name"));
    assert_eq!(text.lines().count(), 301);
    assert!(
        text.contains("BULK-0001,\"Bulk \"\"item\"\", 1\""),
        "{}",
        &text[..200]
    );

    // Another user sees neither the export nor its file; an admin may.
    let op = crate::common::api::operator(&app, &t).await;
    let id = done["id"].as_i64().expect("id");
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/bulk-exports/{id}/download"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
    let seen = gql(&app, &op, STATUS, json!({"id": id})).await;
    assert!(
        seen["data"].is_null() || seen["data"]["bulkExport"].is_null(),
        "{seen}"
    );
    assert!(
        gql(&app, &op, "{ bulkExports { id } }", json!({})).await["data"]["bulkExports"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );
    // The operator's own export runs with the operator's permissions: admin-only fields fail.
    let mine = export(
        &app,
        &op,
        "{ items(search: \"BULK-00\") { nodes { sku } } }",
        "jsonl",
    )
    .await;
    assert_eq!(mine["status"], "completed", "{mine}");
    assert_eq!(mine["rowCount"], 99, "{mine}");
    let res = call(
        &app,
        Method::GET,
        mine["downloadUrl"].as_str().expect("url"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    let res = call(
        &app,
        Method::GET,
        mine["downloadUrl"].as_str().expect("url"),
        None,
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "an admin may download any export"
    );
}

#[tokio::test]
async fn csv_is_refused_for_nested_selections_and_bad_queries_are_refused() {
    let (app, _worker) = export_app().await;
    let t = admin(&app).await;
    let before = crate::common::api::table_json(&app, "bulk_exports").await;
    for (q, f, says) in [
        (
            "{ inventoryTransactions { nodes { id journalEntry { entryNumber } } } }",
            "csv",
            "CSV needs a flat selection",
        ),
        (
            "{ items { nodes { sku } } printers { nodes { code } } }",
            "jsonl",
            "exactly one top-level field",
        ),
        ("mutation { logout { success } }", "jsonl", "not a mutation"),
        ("{ items { nodes { nope } } }", "jsonl", "not valid"),
        ("{ items { nodes ", "jsonl", "does not parse"),
    ] {
        let res = gql(&app, &t, EXPORT, json!({"q": q, "f": f})).await;
        let errors = &res["data"]["bulkExport"]["userErrors"];
        assert_eq!(errors[0]["field"], "query", "{q}: {res}");
        assert!(
            errors[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains(says)),
            "{q}: {res}"
        );
        assert!(res["data"]["bulkExport"]["bulkExport"].is_null());
    }
    assert_eq!(
        crate::common::api::table_json(&app, "bulk_exports").await,
        before,
        "a refused export was stored"
    );
}

#[tokio::test]
async fn an_expired_export_is_gone_and_its_file_deleted() {
    let (app, _worker) = export_app().await;
    let t = admin(&app).await;
    ledger(&app).await;
    let done = export(
        &app,
        &t,
        "{ items(search: \"BULK-\") { nodes { sku } } }",
        "jsonl",
    )
    .await;
    assert_eq!(done["status"], "completed", "{done}");
    let id = done["id"].as_i64().expect("id");
    let file = app
        .state
        .config
        .uploads_dir
        .join(format!("bulk-exports/{id}.jsonl"));
    assert!(file.exists());
    // Its day is over: the status says so at once, the download is gone...
    exec(
        &app,
        &format!(
            "UPDATE bulk_exports SET expires_at = now() - interval '1 second' WHERE id = {id}"
        ),
    )
    .await;
    let status = gql(&app, &t, STATUS, json!({"id": id})).await["data"]["bulkExport"].clone();
    assert_eq!(status["status"], "expired", "{status}");
    assert!(status["downloadUrl"].is_null());
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/bulk-exports/{id}/download"),
        None,
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());
    // ...and the sweep (the job queued for the expiry) deletes the file.
    let swept = strata::read_models::reporting::export::sweep_expired(
        &app.state.pool,
        &app.state.config.uploads_dir,
    )
    .await
    .expect("sweep");
    assert_eq!(swept, 1);
    assert!(!file.exists());
    assert_eq!(
        crate::common::books::sql(
            &app,
            &format!("SELECT status FROM bulk_exports WHERE id = {id}")
        )
        .await,
        "expired"
    );
    assert_eq!(
        crate::common::books::sql(&app, "SELECT count(*) FROM jobs WHERE kind = 'bulk_export.expire' AND run_at > now() + interval '23 hours'").await,
        "1",
        "the expiry is queued for a day later"
    );
}

#[tokio::test]
async fn bulk_exports_are_queued_listed_and_read_through_rest() {
    use axum::body::Body;
    use axum::http::Request;
    let (app, _worker) = export_app().await;
    let t = admin(&app).await;
    ledger(&app).await;
    let queue = |key: &str| {
        Request::builder()
            .method(Method::POST)
            .uri("/api/v1/bulk-exports")
            .header("authorization", format!("Bearer {t}"))
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(Body::from(
                json!({"query": "{ items(search: \"BULK-\") { nodes { sku name } } }", "format": "csv"})
                    .to_string(),
            ))
            .expect("request")
    };
    // Queued: 202 with where to look; the same key again queues nothing new.
    let first = app.request(queue("export-1")).await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.text());
    let id = first.json()["id"].as_i64().expect("id");
    assert_eq!(
        first.header("location"),
        Some(format!("/api/v1/bulk-exports/{id}").as_str())
    );
    assert_eq!(first.json()["format"], "csv");
    let again = app.request(queue("export-1")).await;
    assert_eq!(again.json()["id"], id, "{}", again.text());
    assert_eq!(
        crate::common::books::sql(&app, "SELECT count(*) FROM bulk_exports").await,
        "1"
    );

    // Polled until complete, then downloaded through `download_url`.
    let mut done = Value::Null;
    for _ in 0..600 {
        let res = call(
            &app,
            Method::GET,
            &format!("/api/v1/bulk-exports/{id}"),
            None,
            &t,
        )
        .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text());
        done = res.json();
        if done["status"] == "completed" || done["status"] == "failed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["row_count"], 300, "{done}");
    let url = done["download_url"].as_str().expect("download_url");
    let file = call(&app, Method::GET, url, None, &t).await;
    assert_eq!(file.status, StatusCode::OK);
    assert_eq!(file.text().lines().count(), 301);

    // Listed newest first; another user's list is empty and the export is 404 to them.
    let list = call(&app, Method::GET, "/api/v1/bulk-exports?limit=5", None, &t).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    assert_eq!(list.json()[0]["id"], id);
    let op = crate::common::api::operator(&app, &t).await;
    let theirs = call(&app, Method::GET, "/api/v1/bulk-exports", None, &op).await;
    assert_eq!(theirs.json(), json!([]));
    let res = call(
        &app,
        Method::GET,
        &format!("/api/v1/bulk-exports/{id}"),
        None,
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text());

    // A query that cannot be exported is a 422 naming `query`, and nothing is stored.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/bulk-exports",
        Some(json!({"query": "{ items { nodes ", "format": "jsonl"})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("query"), "{}", res.text());
    assert_eq!(
        crate::common::books::sql(&app, "SELECT count(*) FROM bulk_exports").await,
        "1"
    );

    // `format: null`, as the document allows (found by the fuzzer's schema-valid pass):
    // the default, JSON lines.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/bulk-exports",
        Some(json!({"query": "{ items { nodes { sku } } }", "format": null})),
        &t,
    )
    .await;
    assert!(res.status.is_success(), "{}", res.text());
    assert_eq!(res.json()["format"], "jsonl", "{}", res.text());
}
