//! Database errors and bounds at the edge: bounded `Decimal` input, constraint violations as
//! field-level 4xx that never name a constraint, the search indexes, and the per-connection
//! statement timeout.

use crate::common::api::{admin, app, call, gql, table_json};
use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn unbounded_decimals_are_a_field_level_422_and_change_nothing() {
    let app = app().await;
    let token = admin(&app).await;
    let before = table_json(&app, "items").await;
    for cost in [
        json!("1e30"),
        json!("1234567890123456789012345678901234567890"),
        json!(1e30),
        json!("0.000000000001"),
    ] {
        let body = json!({"sku": "DEC-1", "name": "Decimal", "item_type": "component", "standard_cost": cost});
        let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{cost}: {}",
            res.text()
        );
        let fields: Vec<String> = res.json()["details"]["errors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| e["field"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            fields.iter().any(|f| f.contains("standard_cost")),
            "{cost}: {}",
            res.text()
        );
    }
    assert_eq!(table_json(&app, "items").await, before);
    // Within the scalar's bounds but beyond the column's (NUMERIC(14, 4)): still a 422.
    let body = json!({"sku": "DEC-2", "name": "Decimal", "item_type": "component", "standard_cost": "123456789012.1234"});
    let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert_eq!(table_json(&app, "items").await, before);
    // Within the bounds it is stored.
    let body = json!({"sku": "DEC-3", "name": "Decimal", "item_type": "component", "standard_cost": "1234567890.1234"});
    let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
    assert!(res.status.is_success(), "{}", res.text());
}

#[tokio::test]
async fn an_unknown_category_is_a_422_naming_category_id_without_the_constraint() {
    let app = app().await;
    let token = admin(&app).await;
    let before = table_json(&app, "items").await;
    let body =
        json!({"sku": "FK-1", "name": "Orphan", "item_type": "component", "category_id": 987654});
    let res = call(&app, Method::POST, "/api/v1/items", Some(body), &token).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let text = res.text();
    assert!(text.contains("category_id"), "{text}");
    assert!(
        !text.contains("fkey") && !text.contains("constraint"),
        "{text}"
    );
    assert_eq!(table_json(&app, "items").await, before);

    // GraphQL tells the same, as a field-level error.
    let body = gql(
        &app,
        &token,
        "mutation { itemCreate(input: {sku: \"FK-2\", name: \"Orphan\", itemType: component, categoryId: 987654}) { item { id } userErrors { field message } } }",
        json!({}),
    )
    .await;
    let text = body.to_string();
    assert!(text.contains("category"), "{text}");
    assert!(!text.contains("fkey"), "{text}");
}

#[tokio::test]
async fn the_item_search_uses_the_trigram_index_on_ten_thousand_rows() {
    let app = app().await;
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    client
        .batch_execute(
            "INSERT INTO items (sku, name, item_type, upc)
             SELECT 'SKU-' || lpad(i::text, 6, '0'), 'Widget number ' || i, 'component', (100000000 + i)::text
             FROM generate_series(1, 10000) AS i;
             ANALYZE items;",
        )
        .await
        .expect("seed 10,000 items");
    let plan = |sql: &'static str| {
        let client = &client;
        async move {
            client
                .query(sql, &[])
                .await
                .expect("explain")
                .iter()
                .map(|r| r.get::<_, String>(0))
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    let search = plan(
        "EXPLAIN SELECT id FROM items
         WHERE active AND (sku ILIKE '%004242%' OR name ILIKE '%004242%' OR upc ILIKE '%004242%')
         ORDER BY sku LIMIT 50",
    )
    .await;
    let indexes =
        plan("SELECT string_agg(indexname, ',') FROM pg_indexes WHERE tablename = 'items'").await;
    assert!(search.contains("items_sku_trgm"), "{search}\n{indexes}");
    assert!(!search.contains("Seq Scan"), "{search}");
    let exact = plan("EXPLAIN SELECT id FROM items WHERE sku = 'SKU-004242'").await;
    assert!(exact.contains("items_sku"), "{exact}");
    let ordered = plan("EXPLAIN SELECT id FROM items ORDER BY sku LIMIT 50").await;
    assert!(ordered.contains("items_sku"), "{ordered}");
}

#[tokio::test]
async fn pooled_connections_run_with_a_statement_timeout() {
    let app = app().await;
    let url = strata::platform::db::session_url(&app.db.url);
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connect with the session options");
    tokio::spawn(conn);
    let row = client
        .query_one("SHOW statement_timeout", &[])
        .await
        .expect("show");
    assert_eq!(row.get::<_, String>(0), "25s");
    assert!(strata::platform::db::STATEMENT_TIMEOUT < std::time::Duration::from_secs(30));

    // The app's own pool has it too: a runaway statement is cancelled by PostgreSQL.
    use diesel_async::RunQueryDsl;
    let mut conn = app.state.pool.get().await.expect("pooled connection");
    #[derive(diesel::QueryableByName)]
    struct Setting {
        #[diesel(sql_type = diesel::sql_types::Text)]
        statement_timeout: String,
    }
    let setting: Setting = diesel::sql_query("SHOW statement_timeout")
        .get_result(&mut conn)
        .await
        .expect("show");
    assert_eq!(setting.statement_timeout, "25s");
}
