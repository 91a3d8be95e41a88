//! Issue 37, the document telling the truth and FilaOps's fields: every text input has a
//! limit (10,000 characters unless its field says less) and every `Int` is 32 bits, both
//! declared in the OpenAPI document and refused at the boundary with a field-level 422 that
//! leaves every table as it was, over REST and `/graphql` alike; list arguments state their
//! ranges; and the fields FilaOps's client reads that Strata lacked (event authors and facts,
//! the default margin, spools created from a JSON body, the shipping queue's preflight for
//! every open order).

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::api::{admin, app, call, gql, item, ok, table_json};
use crate::common::books::{exec, num};

/// The schema of a property, without the `null` branch of a nullable one.
fn non_null(schema: &Value) -> &Value {
    schema["anyOf"]
        .as_array()
        .and_then(|branches| branches.iter().find(|b| b["type"] != "null"))
        .unwrap_or(schema)
}

#[tokio::test]
async fn every_text_has_a_limit_and_every_int_fits_32_bits_declared_and_enforced() {
    let app = app().await;
    let t = admin(&app).await;
    let document = app.get("/api/v1/openapi.json").await.json();

    // Declared: a note without a limit of its own takes 10,000 characters and no NUL; a
    // required name must hold more than blanks; an Int is 32 bits; a decimal has a pattern;
    // a page size states its range.
    let vendor = &document["paths"]["/vendors/"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"]["properties"];
    let name = non_null(&vendor["name"]);
    assert_eq!(name["minLength"], 1, "{name}");
    assert!(
        name["pattern"].as_str().is_some_and(|p| p.contains("\\s")),
        "{name}"
    );
    let params = document["paths"]["/items"]["get"]["parameters"]
        .as_array()
        .expect("parameters");
    let limit = params.iter().find(|p| p["name"] == "limit").expect("limit");
    let limit = non_null(&limit["schema"]);
    assert_eq!(
        (&limit["minimum"], &limit["maximum"]),
        (&json!(1), &json!(2000)),
        "{limit}"
    );
    let receipt = &document["paths"]["/purchase-orders/{id}/receive"]["post"]["requestBody"]["content"]
        ["application/json"]["schema"];
    let text = serde_json::to_string(receipt).expect("json");
    assert!(text.contains("\"maxLength\":10000"), "{text}");
    assert!(text.contains("\"pattern\":\"^-?[0-9]{1,12}"), "{text}");
    let path_id = document["paths"]["/vendors/{id}"]["get"]["parameters"][0]["schema"].clone();
    assert_eq!(path_id["maximum"], i64::from(i32::MAX), "{path_id}");

    // Enforced over REST: one character past the default limit, a number past 32 bits.
    let before = (
        table_json(&app, "vendors").await,
        table_json(&app, "item_categories").await,
    );
    let long = "x".repeat(10_001);
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(json!({"name": "Filament", "description": long})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("\"description\""), "{}", res.text());
    assert!(
        res.text().contains("at most 10000 characters"),
        "{}",
        res.text()
    );
    let res = call(
        &app,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Vendor", "lead_time_days": 2_147_483_648_i64})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("\"lead_time_days\""), "{}", res.text());
    let res = call(&app, Method::GET, "/api/v1/vendors/2147483648", None, &t).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let res = call(&app, Method::GET, "/api/v1/items?limit=2001", None, &t).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );

    // Enforced over /graphql: the same text in a variable, refused before anything runs.
    let answer = gql(
        &app,
        &t,
        "mutation($input: ItemCategoryCreateInput!) { itemCategoryCreate(input: $input) { category { id } } }",
        json!({"input": {"name": "Filament", "description": "y".repeat(10_001)}}),
    )
    .await;
    let error = &answer["errors"][0];
    assert_eq!(error["extensions"]["code"], "BAD_USER_INPUT", "{answer}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("10000"))
            || answer.to_string().contains("at most 10000 characters"),
        "{answer}"
    );
    assert_eq!(
        (
            table_json(&app, "vendors").await,
            table_json(&app, "item_categories").await
        ),
        before,
        "nothing written"
    );

    // At the limit, it is accepted.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/items/categories",
        Some(json!({"name": "Filament", "description": "z".repeat(10_000)})),
        &t,
    )
    .await;
    assert!(res.status.is_success(), "{}", res.text());
}

#[tokio::test]
async fn the_default_margin_is_a_percentage_below_100_that_null_clears() {
    let app = app().await;
    let t = admin(&app).await;
    let settings = ok(&app, &t, Method::GET, "/api/v1/settings/company", None).await;
    assert_eq!(
        settings["default_margin_percent"],
        Value::Null,
        "{settings}"
    );
    let set = ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({"default_margin_percent": 35.456})),
    )
    .await;
    assert_eq!(num(&set["default_margin_percent"]), 35.46, "{set}");
    let before = table_json(&app, "company_settings").await;
    for bad in [json!(100), json!(-1), json!("99.999")] {
        let res = call(
            &app,
            Method::PATCH,
            "/api/v1/settings/company",
            Some(json!({"default_margin_percent": bad})),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {}",
            res.text()
        );
        assert!(
            res.text().contains("default_margin_percent"),
            "{}",
            res.text()
        );
    }
    assert_eq!(table_json(&app, "company_settings").await, before);
    let cleared = ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({"default_margin_percent": null})),
    )
    .await;
    assert_eq!(cleared["default_margin_percent"], Value::Null, "{cleared}");
}

#[tokio::test]
async fn order_events_name_their_author_and_carry_the_payment_number_and_the_units_received() {
    let app = app().await;
    let t = admin(&app).await;
    exec(
        &app,
        "UPDATE users SET first_name = 'Ada', last_name = 'Admin'",
    )
    .await;
    let widget = item("EVT-W")
        .kind("finished_good")
        .unit("EA")
        .price(Some("40.00"))
        .create(&app, &t)
        .await;
    let order = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 1}], "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    let id = order["id"].as_i64().expect("id");
    let paid = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/payments",
        Some(json!({"sales_order_id": id, "amount": "10.00", "payment_method": "cash"})),
    )
    .await;
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/sales-orders/{id}/events"),
        None,
    )
    .await;
    let items = events["items"].as_array().expect("items");
    assert!(
        items.iter().all(|e| e["user_name"] == "Ada Admin"),
        "{events}"
    );
    let payment = items
        .iter()
        .find(|e| e["metadata_key"] == "payment_number")
        .unwrap_or_else(|| panic!("no payment event: {events}"));
    assert_eq!(
        payment["metadata_value"], paid["payment_number"],
        "{events}"
    );

    // A receipt notes the units it took in.
    let vendor = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/vendors/",
        Some(json!({"name": "Acme"})),
    )
    .await["id"]
        .as_i64()
        .expect("vendor");
    let part = item("EVT-P")
        .kind("component")
        .unit("EA")
        .create(&app, &t)
        .await;
    let po = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/purchase-orders/",
        Some(json!({"vendor_id": vendor, "lines": [{"product_id": part, "quantity_ordered": "5", "unit_cost": "2"}]})),
    )
    .await;
    let po_id = po["id"].as_i64().expect("po");
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/purchase-orders/{po_id}/status"),
        Some(json!({"status": "ordered"})),
    )
    .await;
    let line = po["lines"][0]["id"].as_i64().expect("line");
    ok(
        &app,
        &t,
        Method::POST,
        &format!("/api/v1/purchase-orders/{po_id}/receive"),
        Some(json!({"lines": [{"line_id": line, "quantity_received": "3"}]})),
    )
    .await;
    let events = ok(
        &app,
        &t,
        Method::GET,
        &format!("/api/v1/purchase-orders/{po_id}/events"),
        None,
    )
    .await;
    let receipt = events["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|e| e["metadata_key"] == "quantity_received")
        .cloned()
        .unwrap_or_else(|| panic!("no receipt event: {events}"));
    assert_eq!(receipt["metadata_value"], "3", "{events}");
    assert_eq!(receipt["user_name"], "Ada Admin", "{events}");
}

#[tokio::test]
async fn the_shipping_queue_preflight_answers_every_open_order_and_spools_take_a_json_body() {
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("CS-W")
        .kind("finished_good")
        .unit("EA")
        .price(Some("10.00"))
        .create(&app, &t)
        .await;
    let order = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/sales-orders/",
        Some(json!({"lines": [{"product_id": widget, "quantity": 2}], "shipping_address_line1": "1 Elm St", "shipping_city": "Austin"})),
    )
    .await;
    let id = order["id"].as_i64().expect("id");
    ok(
        &app,
        &t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{id}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    let batch = ok(&app, &t, Method::GET, "/api/v1/sales-orders/can-ship", None).await;
    let mine = &batch[id.to_string()];
    assert_eq!(mine["can_ship"], false, "{batch}");
    assert!(
        mine["reasons"].as_array().is_some_and(|r| !r.is_empty()),
        "{batch}"
    );
    let list = ok(
        &app,
        &t,
        Method::GET,
        "/api/v1/sales-orders/?status=confirmed",
        None,
    )
    .await;
    let rows = list["items"]
        .as_array()
        .or(list.as_array())
        .cloned()
        .unwrap_or_default();
    assert!(rows.iter().all(|r| r.get("carrier").is_some()), "{list}");

    // A spool from FilaOps's current client (a JSON body) and from an older one (query).
    let material = item("CS-PLA")
        .kind("material")
        .unit("G")
        .create(&app, &t)
        .await;
    let made = ok(
        &app,
        &t,
        Method::POST,
        "/api/v1/spools/",
        Some(json!({"spool_number": "SP-JSON", "product_id": material, "initial_weight_kg": 1000})),
    )
    .await;
    assert_eq!(made["spool_number"], "SP-JSON", "{made}");
    let made = ok(
        &app,
        &t,
        Method::POST,
        &format!(
            "/api/v1/spools/?spool_number=SP-QUERY&product_id={material}&initial_weight_kg=750"
        ),
        None,
    )
    .await;
    assert_eq!(made["spool_number"], "SP-QUERY", "{made}");
    let spools = ok(&app, &t, Method::GET, "/api/v1/spools/", None).await;
    let weights: Vec<&Value> = spools["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|s| &s["current_weight_kg"])
        .collect();
    assert!(weights.iter().all(|w| w.is_number()), "{spools}");
}

/// A create that shares its input with the update (fields optional so a change may leave
/// them out) says which fields it needs all the same: `@requires` on the argument, `required`
/// in the OpenAPI document, and a field-level 422 naming each missing one before any rule
/// runs, leaving the tables as they were.
#[tokio::test]
async fn creates_sharing_an_update_input_declare_and_enforce_what_they_need() {
    let app = app().await;
    let t = admin(&app).await;
    let sdl = strata::application::areas::sdl();
    assert!(
        sdl.contains(
            r#"operationTypeCreate(input: OperationTypeInput! @requires(fields: ["code", "label", "consumeStages"]))"#
        ),
        "the SDL states what the create needs"
    );
    let document = app.get("/api/v1/openapi.json").await.json();
    for (path, needed) in [
        (
            "/admin/operation-types",
            vec!["code", "label", "consume_stages"],
        ),
        ("/admin/uom/", vec!["code", "name", "uom_class"]),
        ("/production-orders/defect-reasons", vec!["code", "name"]),
        ("/quality-plans", vec!["code", "name"]),
        (
            "/routings/operations/{step_id}/materials",
            vec!["component_id", "quantity"],
        ),
    ] {
        let schema = &document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
            ["schema"];
        for field in &needed {
            assert!(
                schema["required"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|f| f == field)),
                "{path}: {field} is not required in {schema}"
            );
            assert!(
                schema["properties"][field]["anyOf"].is_null(),
                "{path}: {field} is still nullable"
            );
        }
    }
    let before = table_json(&app, "operation_types").await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/admin/operation-types",
        Some(json!({"code": "DRY", "label": null})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    let body = res.json();
    let fields: Vec<(String, String)> = body["details"]["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap_or_default().to_string(),
                e["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("label".to_string(), "Field required".to_string()),
            ("consume_stages".to_string(), "Field required".to_string()),
        ],
        "{body}"
    );
    assert_eq!(table_json(&app, "operation_types").await, before);
}
