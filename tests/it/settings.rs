//! Company settings through REST and GraphQL (CONTRACT 5.16): read by any signed-in user at
//! `/settings/` and `/settings/company`, changed by admins only with validation (the tax
//! rate sent in percent and stored as a fraction), every change in the security audit log,
//! and bad input leaving the row unchanged.

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, gql, operator};

/// The whole table as JSON text, to prove a refused request changed nothing.
async fn table(app: &TestApp) -> String {
    crate::common::api::table_json(app, "company_settings").await
}

#[tokio::test]
async fn settings_read_by_users_and_changed_by_admins_through_rest() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;

    // The seeded row in the contract's shape, at both paths, for an operator too.
    let res = call(&app, Method::GET, "/api/v1/settings/", None, &op).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let settings = res.json();
    let keys: Vec<&str> = settings
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "company_name",
            "company_address_line1",
            "company_address_line2",
            "company_city",
            "company_state",
            "company_zip",
            "company_country",
            "company_phone",
            "company_email",
            "company_website",
            "has_logo",
            "logo_filename",
            "tax_enabled",
            "tax_rate",
            "tax_rate_percent",
            "default_margin_percent",
            "tax_name",
            "tax_registration_number",
            "default_quote_validity_days",
            "quote_terms",
            "quote_footer",
            "timezone",
            "currency_code",
            "locale",
            "business_hours_start",
            "business_hours_end",
            "business_days_per_week",
            "business_work_days",
            "allow_negative_inventory",
            "updated_at"
        ]
    );
    assert_eq!(settings["id"], 1);
    assert_eq!(settings["has_logo"], false);
    assert_eq!(settings["logo_filename"], Value::Null);
    assert_eq!(settings["tax_rate"], "0.00");
    assert_eq!(settings["tax_rate_percent"], 0.0);
    assert_eq!(settings["default_quote_validity_days"], 30);
    assert_eq!(settings["timezone"], "UTC");
    assert_eq!(settings["business_work_days"], "0,1,2,3,4");
    assert!(
        settings["updated_at"]
            .as_str()
            .unwrap_or_default()
            .ends_with('Z')
    );
    for path in [
        "/api/v1/settings",
        "/api/v1/settings/company",
        "/api/v1/settings/company/",
    ] {
        let res = call(&app, Method::GET, path, None, &op).await;
        assert_eq!(res.json(), settings, "{path}");
    }

    // Change (admins): tax in percent, stored as a fraction; blank clears; email normalised.
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({
            "company_name": "  Layer Works LLC ", "company_email": "Hello@LayerWorks.example.com",
            "company_website": "layerworks.example.com", "tax_enabled": true, "tax_rate_percent": 8.25,
            "tax_rate": "0.5", "timezone": "America/Chicago", "business_hours_start": 7,
            "business_hours_end": 19, "business_work_days": "5, 0,1,2,3,4", "quote_terms": "Net 30",
            "company_phone": ""
        })),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let s = res.json();
    assert_eq!(s["company_name"], "Layer Works LLC");
    assert_eq!(s["company_email"], "hello@layerworks.example.com");
    assert_eq!(s["company_website"], "layerworks.example.com");
    assert_eq!(
        s["tax_rate"], "0.0825",
        "tax_rate is derived from the percentage only"
    );
    assert_eq!(s["tax_rate_percent"], 8.25);
    assert_eq!(s["tax_enabled"], true);
    assert_eq!(s["timezone"], "America/Chicago");
    assert_eq!(s["business_work_days"], "0,1,2,3,4,5");
    assert_eq!(s["business_days_per_week"], 6, "derived from the work days");
    assert_eq!(s["company_phone"], Value::Null);
    assert_eq!(
        call(&app, Method::GET, "/api/v1/settings/", None, &op)
            .await
            .json(),
        s
    );

    // Null clears; omitted fields stay.
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"quote_terms": null, "tax_rate_percent": "7.5"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let s = res.json();
    assert_eq!(
        (
            s["quote_terms"].clone(),
            s["tax_rate"].as_str(),
            s["company_name"].as_str()
        ),
        (Value::Null, Some("0.075"), Some("Layer Works LLC"))
    );

    // Every change is audited (the fields, never the values); an empty change is not.
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK);
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"company_name": "Layer Works LLC"})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::OK,
        "a change to the same value changes nothing"
    );
    let log = call(
        &app,
        Method::GET,
        "/api/v1/security/audit-log/?event_type=settings_changed",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(log["total"], 2, "{log}");
    let newest = &log["items"][0];
    assert_eq!(newest["user_email"], "ada@example.com");
    assert_eq!(newest["outcome"], "success");
    // The fields in the order of the table's columns.
    assert_eq!(
        newest["details"],
        json!({"section": "company", "fields": ["tax_rate_percent", "quote_terms"]})
    );
    assert!(newest["request_id"].is_string());

    // Bad input: 422 (or 403 / 401), and the row is unchanged.
    let before = table(&app).await;
    let cases = [
        (json!({"tax_rate_percent": 100.5}), "tax_rate_percent"),
        (json!({"tax_rate_percent": -1}), "tax_rate_percent"),
        (json!({"tax_rate_percent": "eight"}), "tax_rate_percent"),
        (json!({"tax_rate_percent": 1.23456}), "tax_rate_percent"),
        (json!({"business_hours_start": 24}), "business_hours_start"),
        (json!({"business_hours_end": -1}), "business_hours_end"),
        (json!({"business_hours_end": "late"}), "business_hours_end"),
        (json!({"business_work_days": "0,7"}), "business_work_days"),
        (
            json!({"business_work_days": "mon,tue"}),
            "business_work_days",
        ),
        (json!({"business_work_days": "0,0,1"}), "business_work_days"),
        (
            json!({"business_work_days": "0,1,2", "business_days_per_week": 5}),
            "business_days_per_week",
        ),
        (
            json!({"business_days_per_week": 8}),
            "business_days_per_week",
        ),
        (json!({"timezone": "Mars/Olympus_Mons"}), "timezone"),
        (json!({"timezone": ""}), "timezone"),
        (
            json!({"company_email": "billing@shop.local"}),
            "company_email",
        ),
        (json!({"company_email": "not-an-email"}), "company_email"),
        (json!({"company_website": "not a url"}), "company_website"),
        (
            json!({"company_website": "ftp://files.example.com"}),
            "company_website",
        ),
        (
            json!({"default_quote_validity_days": 0}),
            "default_quote_validity_days",
        ),
        (json!({"tax_enabled": "sometimes"}), "tax_enabled"),
        (json!({"company_name": "x".repeat(256)}), "company_name"),
        (json!({"company_name": 42}), "company_name"),
    ];
    for (body, field) in cases {
        let res = call(
            &app,
            Method::PATCH,
            "/api/v1/settings/",
            Some(body.clone()),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body} -> {}",
            res.text()
        );
        let err = res.json();
        assert_eq!(err["message"], "Request validation failed");
        let fields: Vec<&str> = err["details"]["errors"]
            .as_array()
            .expect("errors")
            .iter()
            .map(|e| e["field"].as_str().unwrap_or_default())
            .collect();
        assert!(fields.contains(&field), "{body} -> {err}");
    }
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/",
        Some(json!({"company_name": "Operator Co"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert_eq!(res.json(), json!({"detail": "Admin access required"}));
    let res = call(
        &app,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({"company_name": "Operator Co"})),
        &op,
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    let anon = app
        .send_json(
            Method::PATCH,
            "/api/v1/settings/",
            &json!({"company_name": "Anon"}),
        )
        .await;
    assert_eq!(anon.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.get("/api/v1/settings/company").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(table(&app).await, before, "nothing written on bad input");
    let log = call(
        &app,
        Method::GET,
        "/api/v1/security/audit-log/?event_type=settings_changed",
        None,
        &t,
    )
    .await
    .json();
    assert_eq!(
        log["total"], 2,
        "refused changes are not recorded as changes"
    );
}

#[tokio::test]
async fn settings_through_graphql() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    let body = gql(&app, &op, "{ companySettings { id taxRate taxRatePercent hasLogo timezone businessWorkDays allowNegativeInventory } }", json!({})).await;
    assert_eq!(
        body["data"]["companySettings"],
        json!({"id": 1, "taxRate": "0.00", "taxRatePercent": 0.0, "hasLogo": false, "timezone": "UTC", "businessWorkDays": "0,1,2,3,4", "allowNegativeInventory": false})
    );
    let update = "mutation($input: CompanySettingsInput!) { companySettingsUpdate(input: $input) { settings { taxRate taxRatePercent timezone allowNegativeInventory companyWebsite } userErrors { field code message } } }";
    let body = gql(
        &app,
        &op,
        update,
        json!({"input": {"timezone": "Europe/Berlin"}}),
    )
    .await;
    assert_eq!(body["errors"][0]["extensions"]["code"], "FORBIDDEN");
    assert_eq!(body["errors"][0]["message"], "Admin access required");
    let body = gql(&app, &t, update, json!({"input": {"timezone": "Europe/Berlin", "taxRatePercent": "19", "allowNegativeInventory": true, "companyWebsite": "https://shop.example.com"}})).await;
    assert_eq!(
        body["data"]["companySettingsUpdate"],
        json!({"settings": {"taxRate": "0.19", "taxRatePercent": 19.0, "timezone": "Europe/Berlin", "allowNegativeInventory": true, "companyWebsite": "https://shop.example.com"}, "userErrors": []})
    );
    let body = gql(
        &app,
        &t,
        update,
        json!({"input": {"timezone": "Europe/Atlantis", "businessHoursStart": 30}}),
    )
    .await;
    assert_eq!(
        body["data"]["companySettingsUpdate"]["settings"],
        Value::Null
    );
    let errors = &body["data"]["companySettingsUpdate"]["userErrors"];
    assert_eq!(errors[0]["field"], "businessHoursStart");
    assert_eq!(errors[1]["field"], "timezone");
    assert_eq!(errors[1]["code"], "INVALID");
    let body = gql(&app, &t, update, json!({"input": {"companyWebsite": null}})).await;
    assert_eq!(
        body["data"]["companySettingsUpdate"]["settings"]["companyWebsite"],
        Value::Null
    );
    let body = gql(&app, &t, "{ companySettings { timezone } }", json!({})).await;
    assert_eq!(body["data"]["companySettings"]["timezone"], "Europe/Berlin");
}

/// FilaOps's setup wizard sets the currency and the locale: they answered 200 and were not
/// saved. Now they are kept (upper-cased code, `_` read as `-`), and bad ones are refused
/// field by field with nothing changed.
#[tokio::test]
async fn the_currency_and_locale_are_saved_and_checked() {
    let app = app().await;
    let t = admin(&app).await;
    let saved = crate::common::api::ok(
        &app,
        &t,
        Method::PATCH,
        "/api/v1/settings/company",
        Some(json!({"currency_code": "eur", "locale": "de_DE"})),
    )
    .await;
    assert_eq!(
        (&saved["currency_code"], &saved["locale"]),
        (&json!("EUR"), &json!("de-DE"))
    );
    let before = crate::common::api::table_json(&app, "company_settings").await;
    for (field, value) in [
        ("currency_code", "EURO"),
        ("currency_code", "€"),
        ("locale", "x"),
        ("locale", "en US"),
    ] {
        let res = call(
            &app,
            Method::PATCH,
            "/api/v1/settings/company",
            Some(json!({ field: value })),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}={value}: {}",
            res.text()
        );
        assert!(res.text().contains(field), "{}", res.text());
    }
    assert_eq!(
        crate::common::api::table_json(&app, "company_settings").await,
        before
    );
}
