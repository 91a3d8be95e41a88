//! Pages resolved in two passes (`graphql::flat`) answer exactly what async-graphql's own
//! path answers: the same values, aliases, `__typename`, fragments, nested objects and fields
//! that wait on DataLoaders, with no more statements. A selection naming one key twice takes
//! async-graphql's own path, which is how each query here is compared with itself.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::TestApp;
use crate::common::api::{admin, call, gql};
use axum::http::Method;
use serde_json::{Value, json};

const ITEM_FIELDS: &str = "
    __typename id sku name description categoryId itemType procurementType unit purchaseUom
    purchaseFactor costMethod standardCost averageCost lastCost sellingPrice weightOz
    reorderPoint stockingPolicy upc active createdAt updatedAt
    label: name
    category { id name parentId }
    categoryName categoryPath files { id } onHandQty availableQty allocatedQty needsReorder
    stock { locationId onHandQuantity locationCode }
    hasBom bom { id code lineCount lines { componentSku quantity } totalCost }
    ... on Item { alsoSku: sku }
    ...More";

const FRAGMENT: &str = "fragment More on Item { legacySku imageUrl trackLots }";

/// The same page, once flat and once through async-graphql's own path (a repeated key), with
/// the statements each cost.
async fn both_ways(
    app: &TestApp,
    counter: &AtomicU64,
    t: &str,
    list: &str,
    fields: &str,
    fragments: &str,
) -> ((Value, u64), (Value, u64)) {
    let flat = format!("{{ {list} {{ totalCount nodes {{ {fields} }} }} }} {fragments}");
    let slow = format!("{{ {list} {{ totalCount nodes {{ {fields} id }} }} }} {fragments}");
    let mut answers = Vec::new();
    for query in [flat, slow] {
        let before = counter.load(Ordering::SeqCst);
        let answer = gql(app, t, &query, json!({})).await;
        answers.push((answer, counter.load(Ordering::SeqCst) - before));
    }
    let slow = answers.pop().unwrap_or_default();
    let flat = answers.pop().unwrap_or_default();
    (flat, slow)
}

#[tokio::test]
async fn a_flat_page_answers_what_the_per_field_path_answers() {
    let (app, counter) = TestApp::spawn_counting(&[("AUTH_MODE", "header")]).await;
    let t = admin(&app).await;
    call(
        &app,
        Method::POST,
        "/api/v1/setup/seed-example-data",
        None,
        &t,
    )
    .await;
    // Stock and BOMs two levels deep, so loader fields have something to load.
    let mut ids = Vec::new();
    for (sku, kind, unit) in [
        ("FLAT-A", "finished_good", "EA"),
        ("FLAT-B", "component", "EA"),
        ("FLAT-C", "material", "G"),
    ] {
        let body = json!({"sku": sku, "name": sku, "item_type": kind, "unit": unit, "selling_price": "9.50"});
        ids.push(
            call(&app, Method::POST, "/api/v1/items", Some(body), &t)
                .await
                .json()["id"]
                .clone(),
        );
    }
    for (id, qty) in [(&ids[1], "4"), (&ids[2], "900")] {
        let body = json!({"product_id": id, "transaction_type": "receipt", "quantity": qty, "cost_per_unit": "0.25"});
        call(
            &app,
            Method::POST,
            "/api/v1/admin/inventory/transactions",
            Some(body),
            &t,
        )
        .await;
    }
    for (product, lines) in [
        (&ids[1], json!([{"component_id": ids[2], "quantity": "12"}])),
        (
            &ids[0],
            json!([{"component_id": ids[1], "quantity": "2"}, {"component_id": ids[2], "quantity": "5"}]),
        ),
    ] {
        let body = json!({"product_id": product, "process_cost": "1.00", "lines": lines});
        let res = call(&app, Method::POST, "/api/v1/admin/bom/", Some(body), &t).await;
        assert_eq!(res.status.as_u16(), 201, "{}", res.text());
    }

    for (list, fields, fragments) in [
        ("items(first: 200, activeOnly: null)", ITEM_FIELDS, FRAGMENT),
        (
            "boms(first: 100)",
            "id code productSku product { sku hasBom onHandQty } lines { componentSku quantity } materialCost",
            "",
        ),
        (
            "customers(first: 100)",
            "__typename id customerNumber fullName status",
            "",
        ),
    ] {
        let ((flat, flat_statements), (slow, slow_statements)) =
            both_ways(&app, &counter, &t, list, fields, fragments).await;
        assert!(flat.get("errors").is_none(), "{flat}");
        assert_eq!(flat, slow, "{list}");
        assert!(
            flat_statements <= slow_statements,
            "{list}: {flat_statements} statements flat, {slow_statements} per field"
        );
        let nodes = flat["data"]
            .as_object()
            .and_then(|d| d.values().next())
            .map(|c| c["nodes"].clone())
            .unwrap_or_default();
        assert!(
            nodes.as_array().is_some_and(|n| !n.is_empty()) || list.starts_with("customers"),
            "{list}: {flat}"
        );
    }

    // One object (`item(id)`) the same way.
    let one = |extra: &str| {
        format!("query($id: Int!) {{ item(id: $id) {{ {ITEM_FIELDS} {extra} }} }} {FRAGMENT}")
    };
    let vars = json!({"id": ids[0]});
    let flat = gql(&app, &t, &one(""), vars.clone()).await;
    let slow = gql(&app, &t, &one("id"), vars).await;
    assert!(flat.get("errors").is_none(), "{flat}");
    assert_eq!(flat, slow);
    assert_eq!(flat["data"]["item"]["bom"]["lineCount"], 2, "{flat}");

    // Keys come in the order they were selected, the spec's order, even for loader fields.
    let page = gql(
        &app,
        &t,
        "{ items(first: 3) { nodes { stock { onHandQuantity } sku hasBom id } } }",
        json!({}),
    )
    .await;
    let keys: Vec<&str> = page["data"]["items"]["nodes"][0]
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(keys, ["stock", "sku", "hasBom", "id"], "{page}");
}
