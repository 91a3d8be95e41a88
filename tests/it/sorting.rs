//! Sort on every list (issue 10): every list route takes `sort_by` (its own columns, the REST
//! snake_case names) and `sort_order` (`asc`|`desc`); an unknown value is a 422 naming the
//! parameter; the default order is unchanged; ties are broken by id so pages are stable.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::api::{admin, app, call};

/// Every list route and every column it sorts by.
const LISTS: &[(&str, &[&str])] = &[
    (
        "/api/v1/items",
        &[
            "sku",
            "name",
            "item_type",
            "procurement_type",
            "unit",
            "standard_cost",
            "selling_price",
            "created_at",
            "updated_at",
        ],
    ),
    ("/api/v1/products", &["sku", "name", "created_at"]),
    (
        "/api/v1/items/categories",
        &["path", "code", "name", "sort_order"],
    ),
    ("/api/v1/admin/uom/", &["uom_class", "code", "name"]),
    (
        "/api/v1/vendors/",
        &[
            "code",
            "name",
            "contact_name",
            "email",
            "city",
            "country",
            "lead_time_days",
            "rating",
            "created_at",
            "updated_at",
        ],
    ),
    (
        "/api/v1/admin/customers/",
        &[
            "customer_number",
            "email",
            "first_name",
            "last_name",
            "company_name",
            "status",
            "created_at",
            "updated_at",
        ],
    ),
    (
        "/api/v1/admin/locations",
        &[
            "code",
            "name",
            "type",
            "parent_id",
            "created_at",
            "updated_at",
        ],
    ),
    (
        "/api/v1/printers/",
        &[
            "code",
            "name",
            "model",
            "brand",
            "status",
            "location",
            "last_seen",
            "created_at",
            "updated_at",
        ],
    ),
    (
        "/api/v1/scrap-reasons/",
        &["sequence", "code", "name", "created_at", "updated_at"],
    ),
    ("/api/v1/scrap-reasons/all", &["sequence", "code", "name"]),
    (
        "/api/v1/purchase-orders/",
        &[
            "po_number",
            "status",
            "vendor_name",
            "order_date",
            "expected_date",
            "received_date",
            "total_amount",
            "created_at",
        ],
    ),
    (
        "/api/v1/production-orders/",
        &[
            "code",
            "product_sku",
            "status",
            "priority",
            "due_date",
            "quantity_ordered",
            "scheduled_start",
            "created_at",
        ],
    ),
    (
        "/api/v1/admin/users/",
        &[
            "email",
            "first_name",
            "last_name",
            "account_type",
            "status",
            "last_login_at",
            "created_at",
            "updated_at",
        ],
    ),
    (
        "/api/v1/security/audit-log/",
        &[
            "created_at",
            "event_type",
            "outcome",
            "user_email",
            "ip_address",
        ],
    ),
];

fn names(list: &Value, key: &str) -> Vec<String> {
    let rows = list
        .get("items")
        .or_else(|| list.get("nodes"))
        .unwrap_or(list);
    rows.as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| r[key].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn every_list_sorts_by_its_columns_either_way_and_refuses_unknown_ones() {
    let app = app().await;
    let t = admin(&app).await;
    for (code, name) in [("V-B", "Beta"), ("V-A", "Gamma"), ("V-C", "Alpha")] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/vendors/",
            Some(json!({"code": code, "name": name})),
            &t,
        )
        .await;
        assert!(res.status.is_success(), "{}", res.text());
    }
    for (path, columns) in LISTS {
        for column in *columns {
            for order in ["asc", "desc"] {
                let url = format!("{path}?sort_by={column}&sort_order={order}");
                let res = call(&app, Method::GET, &url, None, &t).await;
                assert_eq!(res.status, StatusCode::OK, "{url}: {}", res.text());
            }
        }
        for (query, field) in [
            ("sort_by=no_such_column", "query.sort_by"),
            ("sort_order=sideways", "query.sort_order"),
        ] {
            let url = format!("{path}?{query}");
            let res = call(&app, Method::GET, &url, None, &t).await;
            assert_eq!(
                res.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{url}: {}",
                res.text()
            );
            assert!(res.text().contains(field), "{url}: {}", res.text());
        }
    }
    // Vendors: by name by default (unchanged), or by any column either way.
    let list = |q: &'static str| {
        let (app, t) = (&app, &t);
        async move {
            call(app, Method::GET, &format!("/api/v1/vendors/{q}"), None, t)
                .await
                .json()
        }
    };
    assert_eq!(names(&list("").await, "name"), ["Alpha", "Beta", "Gamma"]);
    assert_eq!(
        names(&list("?sort_by=code").await, "code"),
        ["V-A", "V-B", "V-C"]
    );
    assert_eq!(
        names(&list("?sort_by=code&sort_order=desc").await, "code"),
        ["V-C", "V-B", "V-A"]
    );
    // Equal values (no city at all) page stably by id.
    let first = list("?sort_by=city&limit=2").await;
    let second = list("?sort_by=city&limit=2&offset=2").await;
    assert_eq!(
        [names(&first, "code"), names(&second, "code")].concat(),
        ["V-B", "V-A", "V-C"]
    );
}
