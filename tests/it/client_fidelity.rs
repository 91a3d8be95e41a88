//! Client fidelity: every call the FilaOps web client makes to the endpoints Strata serves,
//! replayed against Strata with the client's own query strings and request bodies (its exact
//! nulls and empty strings included), and every response field the client reads checked for
//! presence and JSON type.
//!
//! The calls come from `tests/fidelity/filaops-client.json`, a list taken by reading FilaOps's
//! `frontend/src` page by page (see its `source` and `notes`). The test runs the setup
//! wizard's calls first (no admin exists yet), seeds one entity of each kind through REST,
//! replays every read, then every write, and collects all failures (a non-2xx status, a field
//! missing or of the wrong type, an array the seed should have filled but that came back
//! empty) into one list that it prints whole before asserting it is empty.

use std::collections::{BTreeMap, HashMap};

use axum::http::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::api::{admin, app, call, item, ok, raw};
use crate::common::{TestApp, TestResponse};

/// The fidelity list.
const FIDELITY: &str = include_str!("../fidelity/filaops-client.json");

/// The client calls the list covers (asserted, so that a change to the list is deliberate).
const ENDPOINTS: usize = 98;

/// The response fields those calls read (asserted likewise).
const READS: usize = 558;

/// The envelope keys FilaOps's `normalizeList` accepts after the caller's own, in its order.
const LIST_KEYS: &[&str] = &[
    "items",
    "results",
    "data",
    "work_centers",
    "workCenters",
    "routings",
    "products",
    "operations",
    "customers",
    "transactions",
    "spools",
];

/// The whole fidelity file.
#[derive(Deserialize)]
struct Fidelity {
    /// The repository and commit the list was read from.
    source: String,
    /// The client's calls, in the order they are replayed.
    endpoints: Vec<Endpoint>,
    /// Paths the client calls for capabilities Strata does not have yet (not replayed).
    not_yet: Vec<String>,
}

/// One call of the client.
#[derive(Deserialize)]
struct Endpoint {
    /// The page (or context) that makes it.
    page: String,
    /// The client file it was read from.
    source_file: String,
    /// The HTTP method.
    method: String,
    /// The path, with `{name}` path parameters.
    path: String,
    /// Each path parameter's seeded entity kind.
    #[serde(default)]
    path_params: BTreeMap<String, String>,
    /// The query string the client sends (`Some("")` for a bare `?`), with placeholders.
    #[serde(default)]
    query: Option<String>,
    /// The JSON body the client sends, with placeholders; none for a body-less call.
    #[serde(default)]
    body: Option<Value>,
    /// The response fields the client reads.
    #[serde(default)]
    reads: Vec<Read>,
    /// Whether the client sends its session (false: called before sign-in).
    #[serde(default = "yes")]
    auth: bool,
    /// `Some("setup")` for the setup wizard's calls, made before any admin exists.
    #[serde(default)]
    phase: Option<String>,
    /// The response goes through `normalizeList` with these extra envelope keys first.
    #[serde(default)]
    normalize_list: Option<Vec<String>>,
}

/// One response field the client reads.
#[derive(Deserialize)]
struct Read {
    /// `a.b`, `a[].b`, `[].b` (root array), `{kind}.b` (keyed by a seeded id).
    path: String,
    /// `string`, `number`, `boolean`, `array`, `object` or `number_or_string`.
    #[serde(rename = "type")]
    kind: String,
    /// Null is accepted.
    #[serde(default)]
    nullable: bool,
    /// The client has a harmless fallback when the field is missing.
    #[serde(default)]
    optional: bool,
    /// The arrays on the path may be empty for this seed.
    #[serde(default)]
    may_be_empty: bool,
}

fn yes() -> bool {
    true
}

impl Endpoint {
    fn is_setup(&self) -> bool {
        self.phase.as_deref() == Some("setup")
    }

    fn is_read(&self) -> bool {
        self.method == "GET"
    }

    /// The URL the client requests, placeholders replaced by the seeded ids.
    fn url(&self, ids: &Seeded) -> String {
        let mut path = self.path.clone();
        for (name, kind) in &self.path_params {
            path = path.replace(&format!("{{{name}}}"), &ids.id(kind).to_string());
        }
        match &self.query {
            Some(q) => format!("{path}?{}", ids.fill_text(q)),
            None => path,
        }
    }

    /// How the failures of this call are labelled.
    fn label(&self) -> String {
        let query = self
            .query
            .as_deref()
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        format!(
            "[{} {}] {} {}{query}",
            self.page, self.source_file, self.method, self.path
        )
    }
}

/// The ids of the seeded entities, by kind.
struct Seeded {
    ids: HashMap<&'static str, i64>,
    today: String,
}

impl Seeded {
    fn id(&self, kind: &str) -> i64 {
        *self
            .ids
            .get(kind)
            .unwrap_or_else(|| panic!("the fidelity list names an unseeded kind `{kind}`"))
    }

    /// Text with every `{kind}` and `{today}` replaced.
    fn fill_text(&self, text: &str) -> String {
        let mut out = text.replace("{today}", &self.today);
        for (kind, id) in &self.ids {
            out = out.replace(&format!("{{{kind}}}"), &id.to_string());
        }
        out
    }

    /// A body with every string that is exactly `{kind}` replaced by that id (a number) and
    /// `{today}` by today's date.
    fn fill(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => match s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                Some("today") => json!(self.today),
                Some(kind) => json!(self.id(kind)),
                None => value.clone(),
            },
            Value::Array(items) => Value::Array(items.iter().map(|v| self.fill(v)).collect()),
            Value::Object(map) => {
                Value::Object(map.iter().map(|(k, v)| (k.clone(), self.fill(v))).collect())
            }
            other => other.clone(),
        }
    }
}

/// The JSON type name of a value.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `v` is of the recorded type.
fn has_type(v: &Value, kind: &str) -> bool {
    match kind {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "number_or_string" => {
            v.is_number() || v.as_str().is_some_and(|s| s.trim().parse::<f64>().is_ok())
        }
        other => panic!("the fidelity list has an unknown type `{other}`"),
    }
}

/// The body as the client sees it after `normalizeList`: `{items: [...]}` for a bare array or
/// for the first array under one of the envelope keys; anything else unchanged.
fn normalize(body: Value, extra: &[String]) -> Value {
    match body {
        Value::Array(rows) => json!({ "items": rows }),
        Value::Object(mut map) => {
            let key = extra
                .iter()
                .map(String::as_str)
                .chain(LIST_KEYS.iter().copied())
                .find(|k| map.get(*k).is_some_and(Value::is_array));
            if let Some(k) = key {
                let rows = map.remove(k).unwrap_or(Value::Null);
                map.insert("items".into(), rows);
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// Checks one read path from `value` down, adding each problem (worded with the path
/// pattern, so repeats over an array's rows count once each) to `problems`.
fn check(
    value: &Value,
    segs: &[String],
    at: &str,
    read: &Read,
    problems: &mut BTreeMap<String, usize>,
) {
    let Some((seg, rest)) = segs.split_first() else {
        return;
    };
    let (key, walk) = match seg.strip_suffix("[]") {
        Some(k) => (k, true),
        None => (seg.as_str(), false),
    };
    let here = match (at.is_empty(), key.is_empty()) {
        (_, true) => at.to_string(),
        (true, false) => key.to_string(),
        (false, false) => format!("{at}.{key}"),
    };
    let last = rest.is_empty() && !walk;
    let target = if key.is_empty() {
        Some(value)
    } else if let Value::Object(map) = value {
        map.get(key)
    } else {
        let whole = if at.is_empty() {
            "the body".to_string()
        } else {
            format!("`{at}`")
        };
        *problems
            .entry(format!("{whole} is {}, not an object", kind_of(value)))
            .or_default() += 1;
        return;
    };
    let target = match target {
        None | Some(Value::Null) if read.optional => return,
        Some(Value::Null) if last && read.nullable => return,
        None => {
            *problems.entry(format!("`{here}` is missing")).or_default() += 1;
            return;
        }
        Some(v) => v,
    };
    if last {
        if !has_type(target, &read.kind) {
            *problems
                .entry(format!(
                    "`{here}` is {} ({}), not {}",
                    kind_of(target),
                    short(target),
                    read.kind
                ))
                .or_default() += 1;
        }
        return;
    }
    if !walk {
        check(target, rest, &here, read, problems);
        return;
    }
    let Value::Array(rows) = target else {
        let whole = if here.is_empty() {
            "the body".to_string()
        } else {
            format!("`{here}`")
        };
        *problems
            .entry(format!("{whole} is {}, not an array", kind_of(target)))
            .or_default() += 1;
        return;
    };
    if rows.is_empty() && !read.may_be_empty {
        *problems
            .entry(format!(
                "`{here}[]` is empty, but the seed should give rows"
            ))
            .or_default() += 1;
    }
    let row_at = format!("{here}[]");
    for row in rows {
        if rest.is_empty() {
            if !has_type(row, &read.kind) {
                *problems
                    .entry(format!(
                        "`{row_at}` has {}, not {}",
                        kind_of(row),
                        read.kind
                    ))
                    .or_default() += 1;
            }
        } else {
            check(row, rest, &row_at, read, problems);
        }
    }
}

/// At most `n` characters of `text`, with an ellipsis when cut.
fn clip(text: &str, n: usize) -> String {
    match text.char_indices().nth(n) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// A value shortened for a failure message.
fn short(v: &Value) -> String {
    clip(&v.to_string(), 60)
}

/// The path's segments, `{kind}` segments replaced by the seeded id.
fn segments(path: &str, ids: &Seeded) -> Vec<String> {
    path.split('.').map(|s| ids.fill_text(s)).collect()
}

/// Sends one client call: with the token as a bearer, or without any credentials.
async fn send(app: &TestApp, e: &Endpoint, ids: &Seeded, token: Option<&str>) -> TestResponse {
    let method = Method::from_bytes(e.method.as_bytes()).expect("an HTTP method");
    let url = e.url(ids);
    let body = e.body.as_ref().map(|b| ids.fill(b));
    match token {
        Some(t) => call(app, method, &url, body, t).await,
        None => match body {
            Some(b) => {
                raw(
                    app,
                    method,
                    &url,
                    &[("content-type", "application/json")],
                    &b.to_string(),
                )
                .await
            }
            None => raw(app, method, &url, &[], "").await,
        },
    }
}

/// Replays one call and adds its failures to `failures`; answers the JSON body.
async fn replay(
    app: &TestApp,
    e: &Endpoint,
    ids: &Seeded,
    token: Option<&str>,
    failures: &mut Vec<String>,
) -> Value {
    let res = send(app, e, ids, token).await;
    if !res.status.is_success() {
        // The error's timestamp differs on every run; the rest of the answer does not.
        let text = res.text();
        let text = regex::Regex::new(r#""timestamp":"[^"]*""#)
            .map(|re| re.replace_all(&text, r#""timestamp":"…""#).into_owned())
            .unwrap_or(text);
        let text = clip(&text, 300);
        failures.push(format!("{} → {}: {text}", e.label(), res.status));
        return Value::Null;
    }
    let body = if res.body.is_empty() {
        Value::Null
    } else {
        match serde_json::from_slice::<Value>(&res.body) {
            Ok(v) => v,
            Err(_) if e.reads.is_empty() => Value::Null,
            Err(_) => {
                failures.push(format!("{} → the body is not JSON", e.label()));
                return Value::Null;
            }
        }
    };
    let seen = match &e.normalize_list {
        Some(extra) => normalize(body.clone(), extra),
        None => body.clone(),
    };
    for read in &e.reads {
        let mut problems = BTreeMap::new();
        check(&seen, &segments(&read.path, ids), "", read, &mut problems);
        for (problem, times) in problems {
            let times = if times > 1 {
                format!(" ({times} times)")
            } else {
                String::new()
            };
            failures.push(format!("{} → {problem}{times}", e.label()));
        }
    }
    body
}

/// The `id` of a created entity.
fn id_of(v: &Value, what: &str) -> i64 {
    v["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{what}: no id in {v}"))
}

/// One entity of each kind the list refers to, created through REST: a finished good in a
/// category with a BOM over a material, stock of both, a customer with a confirmed sales
/// order, a vendor with an ordered purchase order, a production order, a printer, a spool of
/// the material, a location and an operator.
async fn seed(app: &TestApp, t: &str) -> Seeded {
    let post = |path: &'static str, body: Value| ok(app, t, Method::POST, path, Some(body));
    let category = id_of(
        &post(
            "/api/v1/items/categories",
            json!({"code": "FID", "name": "Fidelity"}),
        )
        .await,
        "category",
    );
    let material = item("FID-MAT")
        .kind("material")
        .unit("G")
        .with("standard_cost", json!("0.02"))
        .create(app, t)
        .await;
    let fg = item("FID-FG")
        .price(Some("25.00"))
        .with("category_id", json!(category))
        .with("standard_cost", json!("3.00"))
        .create(app, t)
        .await;
    let location = id_of(
        &post(
            "/api/v1/admin/locations",
            json!({"code": "FID-L1", "name": "Fidelity shelf", "type": "shelf"}),
        )
        .await,
        "location",
    );
    for (product, quantity, cost) in [(material, "3000", "0.02"), (fg, "10", "3.00")] {
        post(
            "/api/v1/admin/inventory/transactions",
            json!({"product_id": product, "transaction_type": "receipt", "quantity": quantity, "cost_per_unit": cost}),
        )
        .await;
    }
    let bom = id_of(
        &post(
            "/api/v1/admin/bom/",
            json!({"product_id": fg, "lines": [{"component_id": material, "quantity": "50"}]}),
        )
        .await,
        "bom",
    );
    let customer = id_of(
        &post(
            "/api/v1/admin/customers/",
            json!({"email": "fid@shop.test", "first_name": "Fay", "last_name": "Fidelity",
                   "shipping_address_line1": "1 Elm St", "shipping_city": "Austin",
                   "shipping_state": "TX", "shipping_zip": "73301"}),
        )
        .await,
        "customer",
    );
    let vendor = id_of(
        &post("/api/v1/vendors/", json!({"name": "Fidelity Filament"})).await,
        "vendor",
    );
    let sales_order = id_of(
        &post(
            "/api/v1/sales-orders/",
            // More than the 10 in stock, so the order still has units to make and its
            // material requirements have rows.
            json!({"customer_id": customer, "lines": [{"product_id": fg, "quantity": 12}],
                   "shipping_address_line1": "1 Elm St", "shipping_city": "Austin",
                   "shipping_state": "TX", "shipping_zip": "73301"}),
        )
        .await,
        "sales order",
    );
    ok(
        app,
        t,
        Method::PATCH,
        &format!("/api/v1/sales-orders/{sales_order}/status"),
        Some(json!({"status": "confirmed"})),
    )
    .await;
    let po = post(
        "/api/v1/purchase-orders/",
        json!({"vendor_id": vendor, "lines": [{"product_id": material, "quantity_ordered": "1000", "unit_cost": "0.02"}]}),
    )
    .await;
    let purchase_order = id_of(&po, "purchase order");
    let purchase_order_line = id_of(&po["lines"][0], "purchase order line");
    ok(
        app,
        t,
        Method::POST,
        &format!("/api/v1/purchase-orders/{purchase_order}/status"),
        Some(json!({"status": "ordered"})),
    )
    .await;
    let production_order = id_of(
        &post(
            "/api/v1/production-orders/",
            json!({"product_id": fg, "quantity_ordered": "1", "priority": 3}),
        )
        .await,
        "production order",
    );
    let printer = id_of(
        &post(
            "/api/v1/printers/",
            json!({"code": "FID-P1", "name": "Fidelity printer", "model": "X1C"}),
        )
        .await,
        "printer",
    );
    let spool = id_of(
        &ok(
            app,
            t,
            Method::POST,
            &format!(
                "/api/v1/spools/?spool_number=FID-SP1&product_id={material}&initial_weight_kg=1"
            ),
            None,
        )
        .await,
        "spool",
    );
    let user = id_of(
        &post(
            "/api/v1/admin/users/",
            json!({"email": "fid-op@example.com", "password": "Operator-pass1!", "account_type": "operator"}),
        )
        .await,
        "user",
    );
    Seeded {
        ids: HashMap::from([
            ("item", fg),
            ("material", material),
            ("category", category),
            ("bom", bom),
            ("customer", customer),
            ("vendor", vendor),
            ("sales_order", sales_order),
            ("purchase_order", purchase_order),
            ("purchase_order_line", purchase_order_line),
            ("production_order", production_order),
            ("printer", printer),
            ("spool", spool),
            ("user", user),
            ("location", location),
        ]),
        today: chrono::Utc::now().date_naive().to_string(),
    }
}

/// Every call of the FilaOps client that the list records succeeds against Strata, and every
/// field it reads is there with the type it expects.
#[tokio::test]
async fn the_filaops_client_reads_what_it_expects_from_every_endpoint() {
    let fidelity: Fidelity = serde_json::from_str(FIDELITY).expect("the fidelity list is JSON");
    let reads: usize = fidelity.endpoints.iter().map(|e| e.reads.len()).sum();
    println!(
        "client fidelity ({}): {} endpoints, {reads} read fields, {} paths not yet served",
        fidelity.source,
        fidelity.endpoints.len(),
        fidelity.not_yet.len()
    );
    assert_eq!(fidelity.endpoints.len(), ENDPOINTS, "endpoints covered");
    assert_eq!(reads, READS, "read fields covered");

    let app = app().await;
    let mut failures = Vec::new();
    // Nothing is seeded before the wizard runs: the setup calls only need the date.
    let mut ids = Seeded {
        ids: HashMap::new(),
        today: chrono::Utc::now().date_naive().to_string(),
    };

    // The setup wizard, in order, before any admin exists: it signs in with the token its
    // initial-admin call answers.
    let mut token: Option<String> = None;
    for e in fidelity.endpoints.iter().filter(|e| e.is_setup()) {
        let session = if e.auth { token.as_deref() } else { None };
        let body = replay(&app, e, &ids, session, &mut failures).await;
        if token.is_none() {
            token = body["access_token"].as_str().map(str::to_string);
        }
    }
    let t = match token {
        Some(t) => t,
        None => admin(&app).await,
    };

    ids = seed(&app, &t).await;
    let rest = || fidelity.endpoints.iter().filter(|e| !e.is_setup());
    for e in rest()
        .filter(|e| e.is_read())
        .chain(rest().filter(|e| !e.is_read()))
    {
        let session = if e.auth { Some(t.as_str()) } else { None };
        replay(&app, e, &ids, session, &mut failures).await;
    }

    // What is known not to match yet, each line with the issue that owns it: the test fails
    // on any other mismatch, and on a listed one that no longer happens (then delete it).
    let known: Vec<&str> = include_str!("../fidelity/known-gaps.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let new: Vec<&String> = failures
        .iter()
        .filter(|f| !known.contains(&f.as_str()))
        .collect();
    let fixed: Vec<&&str> = known
        .iter()
        .filter(|k| !failures.iter().any(|f| f == *k))
        .collect();
    println!(
        "client fidelity: {ENDPOINTS} endpoints, {READS} read fields; {} known gaps, {} new mismatches, {} gaps fixed",
        known.len(),
        new.len(),
        fixed.len()
    );
    for f in &new {
        println!("  {f}");
    }
    assert!(
        new.is_empty(),
        "{} new client fidelity mismatches:\n{}",
        new.len(),
        new.iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        fixed.is_empty(),
        "known gaps that no longer happen (delete them from tests/fidelity/known-gaps.txt):\n{}",
        fixed.iter().map(|f| **f).collect::<Vec<_>>().join("\n")
    );
}
