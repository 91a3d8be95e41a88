//! Example data for onboarding step 2: categories, materials, components, packaging and a
//! few finished goods of a small print farm. Idempotent: running it again changes nothing.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::catalog::model::{
    self, CategoryForm, ItemForm, ItemType, ProcurementType, StockingPolicy,
};
use crate::platform::db::schema::items;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;

/// What the loader created (CONTRACT 2's counters).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SeedReport {
    /// Summary.
    pub message: String,
    /// Items created.
    pub items_created: i64,
    /// Items that already existed.
    pub items_skipped: i64,
    /// Material items created.
    pub materials_created: i64,
    /// Material colors created (one material item per color).
    pub colors_created: i64,
    /// Material-color links created (kept for the original's shape; always 0).
    pub links_created: i64,
    /// Material products created.
    pub material_products_created: i64,
    /// Units of measure created (the migration seeds all 16; 0 here).
    pub uoms_created: i64,
    /// Categories created.
    pub categories_created: i64,
}

/// (category code, name, parent code)
const CATEGORIES: &[(&str, &str, Option<&str>)] = &[
    ("FILAMENT", "Filament", None),
    ("PLA", "PLA", Some("FILAMENT")),
    ("PETG", "PETG", Some("FILAMENT")),
    ("FINISHED_GOODS", "Finished Goods", None),
    ("COMPONENTS", "Components", None),
    ("PACKAGING", "Packaging", None),
];

/// (sku, name, type, category code, unit, cost, price)
type ExampleItem = (
    &'static str,
    &'static str,
    ItemType,
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
);

const ITEMS: &[ExampleItem] = &[
    (
        "MAT-PLA-BLK",
        "PLA Black 1.75mm",
        ItemType::Material,
        "PLA",
        "G",
        "0.0200",
        None,
    ),
    (
        "MAT-PLA-WHT",
        "PLA White 1.75mm",
        ItemType::Material,
        "PLA",
        "G",
        "0.0200",
        None,
    ),
    (
        "MAT-PLA-RED",
        "PLA Red 1.75mm",
        ItemType::Material,
        "PLA",
        "G",
        "0.0220",
        None,
    ),
    (
        "MAT-PETG-BLK",
        "PETG Black 1.75mm",
        ItemType::Material,
        "PETG",
        "G",
        "0.0240",
        None,
    ),
    (
        "MAT-PETG-CLR",
        "PETG Clear 1.75mm",
        ItemType::Material,
        "PETG",
        "G",
        "0.0250",
        None,
    ),
    (
        "COMP-MAG-6X2",
        "Neodymium magnet 6x2 mm",
        ItemType::Component,
        "COMPONENTS",
        "EA",
        "0.0800",
        None,
    ),
    (
        "COMP-M3-INSERT",
        "M3 heat-set insert",
        ItemType::Component,
        "COMPONENTS",
        "EA",
        "0.0500",
        None,
    ),
    (
        "PKG-BOX-S",
        "Shipping box, small",
        ItemType::Packaging,
        "PACKAGING",
        "EA",
        "0.6500",
        None,
    ),
    (
        "PKG-BUBBLE",
        "Bubble wrap (per metre)",
        ItemType::Packaging,
        "PACKAGING",
        "M",
        "0.3000",
        None,
    ),
    (
        "FG-DRAGON",
        "Articulated dragon",
        ItemType::FinishedGood,
        "FINISHED_GOODS",
        "EA",
        "3.2000",
        Some("24.99"),
    ),
    (
        "FG-PLANTER",
        "Geometric planter",
        ItemType::FinishedGood,
        "FINISHED_GOODS",
        "EA",
        "1.8000",
        Some("14.99"),
    ),
    (
        "FG-PHONE-STAND",
        "Phone stand",
        ItemType::FinishedGood,
        "FINISHED_GOODS",
        "EA",
        "0.9000",
        Some("9.99"),
    ),
];

/// Loads the example data.
pub async fn seed(conn: &mut AsyncPgConnection) -> AppResult<SeedReport> {
    if crate::master_data::identity::model::count(conn).await? > 1 {
        return Err(AppError::bad_request(
            "Seeding only allowed on fresh installations",
        ));
    }
    conn.transaction::<_, AppError, _>(async |conn| {
        let mut report = SeedReport::default();
        let mut all = model::categories(conn).await?;
        for (code, name, parent) in CATEGORIES {
            if all.iter().any(|c| c.code.eq_ignore_ascii_case(code)) {
                continue;
            }
            let parent_id = parent.and_then(|p| {
                all.iter()
                    .find(|c| c.code.eq_ignore_ascii_case(p))
                    .map(|c| c.id)
            });
            let row = model::insert_category(
                conn,
                &CategoryForm {
                    code: Some((*code).into()),
                    name: Some((*name).into()),
                    parent_id: Some(parent_id),
                    ..Default::default()
                },
            )
            .await?;
            all.push(row);
            report.categories_created += 1;
        }
        for (sku, name, kind, category, unit, cost, price) in ITEMS {
            let material = *kind == ItemType::Material;
            let values = ItemForm {
                sku: Some((*sku).into()),
                name: Some((*name).into()),
                item_type: Some(*kind),
                procurement_type: Some(if *kind == ItemType::FinishedGood {
                    ProcurementType::Make
                } else {
                    ProcurementType::Buy
                }),
                unit: Some((*unit).into()),
                purchase_uom: Some(if material { "KG" } else { unit }.to_string()),
                purchase_factor: Some(Decimal(BigDecimal::from(if material { 1000 } else { 1 }))),
                standard_cost: Some(cost.parse().ok().map(Decimal)),
                selling_price: Some(price.and_then(|p| p.parse().ok()).map(Decimal)),
                category_id: Some(
                    all.iter()
                        .find(|c| c.code.eq_ignore_ascii_case(category))
                        .map(|c| c.id),
                ),
                stocking_policy: Some(if material {
                    StockingPolicy::Stocked
                } else {
                    StockingPolicy::OnDemand
                }),
                is_raw_material: Some(material),
                ..Default::default()
            };
            let n = diesel::insert_into(items::table)
                .values(&values)
                .on_conflict_do_nothing()
                .execute(conn)
                .await?;
            if n == 0 {
                report.items_skipped += 1;
            } else {
                report.items_created += 1;
                if material {
                    report.materials_created += 1;
                }
            }
        }
        report.colors_created = report.materials_created;
        report.material_products_created = report.materials_created;
        report.message = if report.items_created == 0 {
            "Example data is already loaded; nothing changed.".into()
        } else {
            format!(
                "Loaded {} example items ({} materials) and {} categories.",
                report.items_created, report.materials_created, report.categories_created
            )
        };
        Ok(report)
    })
    .await
}
