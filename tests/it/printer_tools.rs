//! Printer utilities through REST (CONTRACT 5.13 "Also"; admins): the CSV import through the
//! shared engine (per-row errors by file line, existing and repeated codes skipped, one
//! transaction), and the network probes' refusals (host names, loopback, link-local,
//! multicast, unspecified, broadcast; subnets larger than /24 or public), which answer 422
//! before anything is sent. The connect path itself is unit-tested in `printers::rules`
//! against a local listener (loopback is refused here on purpose).

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::api::{admin, app, call, operator, upload};

async fn table(app: &TestApp) -> String {
    crate::common::api::table_json(app, "printers").await
}

#[tokio::test]
async fn printers_are_imported_from_a_csv() {
    let app = app().await;
    let t = admin(&app).await;
    let res = call(
        &app,
        Method::POST,
        "/api/v1/printers/",
        Some(json!({"code": "PRT-001", "name": "Old", "model": "MK3"})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text());

    // Semicolons, loose headers, a Windows-1252 byte, blank lines; line numbers as in the file.
    let csv = b"Code;Printer Name;Model;Brand;Serial No;IP Address;Location;Notes\r\n\
prt-002;X1C \xe9;X1 Carbon;Bambu Lab;01S00A;192.168.1.21;Rack 1;\r\n\
\r\n\
prt-001;Dup;MK4;prusa;;;;\r\n\
PRT-003;No model;;klipper;;;;\r\n\
PRT-004;Bad brand;Q1;makerbot;;;;\r\n\
PRT-005;Bad ip;Q1;generic;;not an address;;\r\n\
prt-002;Again;X1;bambulab;;;;\r\n\
PRT-006;Voron;2.4;Klipper;;10.0.0.6;;Fast\r\n";
    let res = upload(
        &app,
        "/api/v1/printers/import-csv",
        &t,
        "printers.csv",
        csv,
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    let report = res.json();
    assert_eq!(report["created"], 2, "{report}");
    assert_eq!(report["skipped"], 5, "{report}");
    let errors: Vec<(i64, Value)> = report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| (e["row"].as_i64().unwrap_or_default(), e["field"].clone()))
        .collect();
    assert_eq!(
        errors,
        [
            (4, json!("code")),
            (5, json!("model")),
            (6, json!("brand")),
            (7, json!("ip_address")),
            (8, json!("code")),
        ]
    );
    assert!(
        report["errors"][0]["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("already exists")
    );
    assert!(
        report["errors"][4]["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("more than once")
    );
    let list = call(&app, Method::GET, "/api/v1/printers/", None, &t)
        .await
        .json();
    let rows: Vec<(&str, &str, &str)> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|p| {
            (
                p["code"].as_str().unwrap_or_default(),
                p["name"].as_str().unwrap_or_default(),
                p["brand"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("PRT-001", "Old", "generic"),
            ("PRT-002", "X1C é", "bambulab"),
            ("PRT-006", "Voron", "klipper")
        ]
    );

    // A file without the required columns, or not a CSV at all: 422 on `file`, nothing written.
    let before = table(&app).await;
    for content in [&b"code,name\nA,B\n"[..], &b"\"unclosed,header\n"[..]] {
        let res = upload(
            &app,
            "/api/v1/printers/import-csv",
            &t,
            "p.csv",
            content,
            &[],
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            res.text()
        );
        assert!(res.text().contains("file"), "{}", res.text());
    }
    assert_eq!(table(&app).await, before);
}

#[tokio::test]
async fn probes_refuse_names_and_addresses_that_would_scan_the_server() {
    let app = app().await;
    let t = admin(&app).await;
    let before = table(&app).await;
    for address in [
        "octopi.lan",
        "localhost",
        "127.0.0.1",
        "::1",
        "169.254.10.10",
        "fe80::1",
        "224.0.0.251",
        "0.0.0.0",
        "255.255.255.255",
        "::ffff:127.0.0.1",
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/printers/test-connection",
            Some(json!({"ip_address": address})),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{address}: {}",
            res.text()
        );
        assert!(
            res.text().contains("ip_address"),
            "{address}: {}",
            res.text()
        );
        let res = call(
            &app,
            Method::POST,
            &format!(
                "/api/v1/printers/probe-ip?ip_address={}",
                address.replace(':', "%3A")
            ),
            None,
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{address}: {}",
            res.text()
        );
        assert!(
            res.text().contains("ip_address"),
            "{address}: {}",
            res.text()
        );
    }
    let res = call(
        &app,
        Method::POST,
        "/api/v1/printers/test-connection",
        Some(json!({"ip_address": "192.168.1.20", "port": 70000})),
        &t,
    )
    .await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        res.text()
    );
    assert!(res.text().contains("port"), "{}", res.text());

    for subnet in [
        "192.168.0.0/16",
        "8.8.8.0/24",
        "127.0.0.0/24",
        "fd00::/120",
        "subnet",
    ] {
        let res = call(
            &app,
            Method::POST,
            "/api/v1/printers/discover",
            Some(json!({"subnet": subnet})),
            &t,
        )
        .await;
        assert_eq!(
            res.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{subnet}: {}",
            res.text()
        );
        assert!(res.text().contains("subnet"), "{subnet}: {}", res.text());
    }
    // Without a subnet nothing is scanned.
    let res = call(
        &app,
        Method::POST,
        "/api/v1/printers/discover",
        Some(json!({})),
        &t,
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text());
    assert_eq!(
        res.json(),
        json!({"printers": [], "scanned": 0, "message": "Give a private /24 subnet to scan"})
    );
    assert_eq!(table(&app).await, before);
}

#[tokio::test]
async fn only_admins_use_the_printer_utilities() {
    let app = app().await;
    let t = admin(&app).await;
    let op = operator(&app, &t).await;
    for (path, body) in [
        (
            "/api/v1/printers/test-connection",
            Some(json!({"ip_address": "192.168.1.20"})),
        ),
        ("/api/v1/printers/probe-ip?ip_address=192.168.1.20", None),
        (
            "/api/v1/printers/discover",
            Some(json!({"subnet": "192.168.1.0/24"})),
        ),
    ] {
        let res = call(&app, Method::POST, path, body, &op).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{path}: {}", res.text());
        assert_eq!(res.json(), json!({"detail": "Admin access required"}));
    }
    let before = table(&app).await;
    let res = upload(
        &app,
        "/api/v1/printers/import-csv",
        &op,
        "p.csv",
        b"code,name,model\nP-1,One,M\n",
        &[],
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.text());
    assert_eq!(table(&app).await, before);
}
