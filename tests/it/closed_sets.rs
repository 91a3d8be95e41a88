//! The database holds only what the code can read (issue 37): every column a row struct reads
//! as a closed set (a `text_enum!`) has a CHECK constraint whose values are exactly the
//! enum's. The test reads the enums and the row structs from the source (so a new enum column
//! is covered the day it is written) and the constraints from a migrated database; a missing
//! or drifted constraint fails with the SQL that would fix it.

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use crate::common::TestDatabase;

/// Every `.rs` file under `src/`, with its text.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("read src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("read source");
                out.push((path.display().to_string(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut out,
    );
    out
}

fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Closed sets by enum name: their wire values.
fn enums(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let block = Regex::new(r"(?s)text_enum!\s*\{.*?enum\s+(\w+)\s*\{(.*?)\}\s*\}").expect("re");
    let comment = Regex::new(r"(?m)//.*$|#\[[^\]]*\]").expect("re");
    let mut out = BTreeMap::new();
    for (_, text) in sources {
        for m in block.captures_iter(text) {
            let body = comment.replace_all(&m[2], "");
            let values = body
                .split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(snake)
                .collect();
            out.insert(m[1].to_string(), values);
        }
    }
    out
}

/// (table, column, enum) for every row-struct field typed with a closed set; diesel
/// aliases (`use ... as profiles`) are resolved to their tables.
fn columns(
    sources: &[(String, String)],
    enums: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeSet<(String, String, String)> {
    let structs = Regex::new(
        r"(?s)#\[diesel\(table_name\s*=\s*(\w+)[^\]]*\]\s*(?:#\[[^\]]*\]\s*)*pub struct \w+(?:<[^>]*>)?\s*\{(.*?)\n\}",
    )
    .expect("re");
    let field = Regex::new(
        r"(?:#\[diesel\(column_name\s*=\s*(\w+)\)\]\s*)?pub (\w+):\s*(?:Option<)?(\w+)>?,",
    )
    .expect("re");
    let alias = Regex::new(r"(\w+) as (\w+)").expect("re");
    let mut out = BTreeSet::new();
    for (_, text) in sources {
        let aliases: BTreeMap<String, String> = alias
            .captures_iter(text)
            .map(|a| (a[2].to_string(), a[1].to_string()))
            .collect();
        for s in structs.captures_iter(text) {
            let table = aliases
                .get(&s[1])
                .cloned()
                .unwrap_or_else(|| s[1].to_string());
            for f in field.captures_iter(&s[2]) {
                let column = f.get(1).map_or(&f[2], |c| c.as_str()).to_string();
                if enums.contains_key(&f[3]) {
                    out.insert((table.clone(), column, f[3].to_string()));
                }
            }
        }
    }
    out
}

#[tokio::test]
async fn every_closed_set_column_has_a_check_with_its_enums_values() {
    let sources = sources();
    let enums = enums(&sources);
    let columns = columns(&sources, &enums);
    assert!(enums.len() >= 60, "only {} enums found", enums.len());
    assert!(
        columns.len() >= 45,
        "only {} enum columns found",
        columns.len()
    );

    let db = TestDatabase::migrated().await;
    let (client, conn) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    let rows = client
        .query(
            "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'c'",
            &[],
        )
        .await
        .expect("constraints");
    let quoted = Regex::new(r"'([^']*)'").expect("re");
    let mut problems = Vec::new();
    for (table, column, name) in &columns {
        let word = Regex::new(&format!(r"\b{column}\b")).expect("re");
        let found: Option<BTreeSet<String>> = rows
            .iter()
            .filter(|r| r.get::<_, String>(0) == *table)
            .map(|r| r.get::<_, String>(1))
            .find(|def| word.is_match(def) && (def.contains("ANY") || def.contains(" IN ")))
            .map(|def| {
                quoted
                    .captures_iter(&def)
                    .map(|c| c[1].to_string())
                    .collect()
            });
        let want = &enums[name];
        let values = want
            .iter()
            .map(|v| format!("'{v}'"))
            .collect::<Vec<_>>()
            .join(", ");
        match found {
            Some(found) if found == *want => {}
            Some(found) => problems.push(format!(
                "{table}.{column} ({name}): the CHECK allows {found:?}, the enum has {want:?}"
            )),
            None => problems.push(format!(
                "{table}.{column} ({name}) has no CHECK: ALTER TABLE {table} ADD CONSTRAINT {table}_{column}_check CHECK ({column} IN ({values}));"
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The abuse run wrote an inventory row with an unknown reference type by SQL, and the
/// whole transaction list then answered an error. Such a value is now refused by the
/// database itself (shown on a sales order's event type, a mutable column; the
/// inventory ledger's reference type carries the same kind of validated CHECK).
#[tokio::test]
async fn a_value_outside_the_set_is_refused_by_the_database() {
    use crate::common::api::{admin, app, item, ok};
    let app = app().await;
    let t = admin(&app).await;
    let widget = item("CS-1").price(Some("1.00")).create(&app, &t).await;
    ok(
        &app,
        &t,
        axum::http::Method::POST,
        "/api/v1/sales-orders/",
        Some(serde_json::json!({"lines": [{"product_id": widget, "quantity": 1}]})),
    )
    .await;
    let (client, conn) = tokio_postgres::connect(&app.db.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    let error = client
        .execute("UPDATE sales_order_events SET event_type = 'mystery'", &[])
        .await
        .expect_err("refused");
    assert_eq!(
        error.code(),
        Some(&tokio_postgres::error::SqlState::CHECK_VIOLATION),
        "{error}"
    );
    let validated: i64 = client
        .query_one(
            "SELECT count(*) FROM pg_constraint WHERE conname = 'inventory_transactions_reference_type_check' AND convalidated",
            &[],
        )
        .await
        .expect("constraint")
        .get(0);
    assert_eq!(
        validated, 1,
        "the ledger's reference type is checked and validated"
    );
}
