//! Catalog rules.
//!
//! - Item categories: required name, codes upper case and unique ignoring case (generated
//!   from the name when blank), no control or text-direction characters in either, and a
//!   tree without cycles. A change runs in one transaction holding the tree lock and the row
//!   lock, and the cycle check is a recursive query in that transaction (the locations
//!   treatment), so two concurrent moves cannot close a cycle that neither saw.
//! - Material items (`POST /items/material`): one filament item per material type and
//!   colour, checked like any new item, linked to its type and colour, with its opening
//!   stock posted through the stock ledger and booked in the same transaction.
//! - Bulk changes (`POST /items/bulk-update`): a few fields of many items in one statement,
//!   all or nothing.
//! - Recosting (`POST /items/{id}/recost`, `/items/recost-all`): the standard cost from the
//!   active BOM's roll-up or the latest purchase price, computed for any number of items in a
//!   fixed number of statements.

use std::collections::{HashMap, HashSet};

use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Numeric};
use diesel::upsert::excluded;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::bom::model as bom_model;
use crate::bom::tree::Tree;
use crate::catalog::items;
use crate::catalog::model::{self, CategoryForm, CategoryRow, ItemForm, ItemRow};
use crate::catalog::model::{ItemType, ProcurementType, StockingPolicy};
use crate::db::scale::{COST_SCALE, QUANTITY_SCALE};
use crate::db::schema::{
    colors, item_categories, items as items_table, material_colors, material_types,
    purchase_order_lines, purchase_orders,
};
use crate::db::text::{code_matches, hidden_characters, normalize_code};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::graphql::scalars::Decimal;
use crate::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};
use crate::materials::model::{ColorRow, MaterialTypeRow, code_of};
use crate::materials::stock_import::{Opening, main_location};
use crate::purchasing::model::PurchaseOrderStatus;
use crate::purchasing::rules::{PurchasedItem, stock_factor};

fn fail(field: &str, code: UserErrorCode, message: impl Into<String>) -> Vec<UserError> {
    vec![UserError::new(field, code, message)]
}

fn taken(code: &str) -> Vec<UserError> {
    fail(
        "code",
        UserErrorCode::Taken,
        format!("Category code '{code}' already exists"),
    )
}

/// Checks and normalises a new (`creating`) or changed category's own fields.
pub fn check_fields(values: &mut CategoryForm, creating: bool) -> Result<(), Vec<UserError>> {
    values.name = values.name.take().map(|n| n.trim().to_string());
    match values.name.as_deref() {
        None if creating => return Err(fail("name", UserErrorCode::Invalid, "Field required")),
        Some("") => {
            return Err(fail(
                "name",
                UserErrorCode::Invalid,
                "String should have at least 1 character",
            ));
        }
        _ => {}
    }
    values.code = values
        .code
        .take()
        .map(|c| normalize_code(&c))
        .filter(|c| !c.is_empty())
        .or_else(|| {
            creating.then(|| {
                normalize_code(values.name.as_deref().unwrap_or_default()).replace(' ', "_")
            })
        });
    // The name before the code: a code made from the name is the name's fault.
    let errors: Vec<UserError> = [("name", &values.name), ("code", &values.code)]
        .into_iter()
        .find_map(|(field, text)| hidden_characters(field, text.as_deref()?))
        .into_iter()
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[derive(QueryableByName)]
struct Flag {
    #[diesel(sql_type = Bool)]
    flag: bool,
}

/// True when making `candidate` the parent of `id` would close a cycle (`candidate` is `id`
/// or one of its descendants), walking up from the candidate.
pub async fn would_cycle(conn: &mut AsyncPgConnection, id: i64, candidate: i64) -> AppResult<bool> {
    if id == candidate {
        return Ok(true);
    }
    // UNION (not UNION ALL) stops even on a damaged tree.
    let found: Flag = diesel::sql_query(
        "WITH RECURSIVE up(id, parent_id) AS ( \
             SELECT id, parent_id FROM item_categories WHERE id = $1 \
             UNION \
             SELECT c.id, c.parent_id FROM item_categories c JOIN up ON c.id = up.parent_id \
         ) SELECT EXISTS (SELECT 1 FROM up WHERE id = $2) AS flag",
    )
    .bind::<BigInt, _>(candidate)
    .bind::<BigInt, _>(id)
    .get_result(conn)
    .await?;
    Ok(found.flag)
}

/// Creates (`id` is `None`) or changes a category in one transaction. Rule violations come
/// back as `Err` and nothing is written.
pub async fn save_category(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut values: CategoryForm,
) -> AppResult<Result<CategoryRow, Vec<UserError>>> {
    if let Err(errors) = check_fields(&mut values, id.is_none()) {
        return Ok(Err(errors));
    }
    let code = values.code.clone();
    let result = conn
        .transaction::<_, AppError, _>(async move |conn| {
            diesel::sql_query(
                "SELECT pg_advisory_xact_lock(hashtext('strata.item_categories.tree'))",
            )
            .execute(conn)
            .await?;
            if let Some(id) = id {
                item_categories::table
                    .find(id)
                    .select(item_categories::id)
                    .for_update()
                    .first::<i64>(conn)
                    .await
                    .optional()?
                    .ok_or_else(|| AppError::not_found("Category not found"))?;
            }
            if let Some(code) = &values.code {
                let other: Option<i64> = item_categories::table
                    .filter(code_matches(item_categories::code, code))
                    .select(item_categories::id)
                    .first(conn)
                    .await
                    .optional()?;
                if other.is_some_and(|o| Some(o) != id) {
                    return Ok(Err(taken(code)));
                }
            }
            if let Some(Some(parent)) = values.parent_id {
                let exists: Option<i64> = item_categories::table
                    .find(parent)
                    .select(item_categories::id)
                    .first(conn)
                    .await
                    .optional()?;
                if exists.is_none() {
                    return Ok(Err(fail(
                        "parentId",
                        UserErrorCode::Invalid,
                        format!("Category {parent} does not exist"),
                    )));
                }
                if let Some(me) = id
                    && would_cycle(conn, me, parent).await?
                {
                    return Ok(Err(fail(
                        "parentId",
                        UserErrorCode::NotAllowed,
                        "A category cannot be placed under itself or one of its descendants",
                    )));
                }
            }
            let row = match id {
                Some(id) => model::update_category(conn, id, &values).await?,
                None => model::insert_category(conn, &values).await?,
            };
            Ok(Ok(row))
        })
        .await;
    match result {
        // A concurrent insert of the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => {
            Ok(Err(taken(code.as_deref().unwrap_or_default())))
        }
        other => other,
    }
}

// ------------------------------------------------------------------------ material items

/// A filament item to create for a material type and colour (`POST /items/material`).
#[derive(Debug, Clone)]
pub struct MaterialItemForm {
    /// The material type's code (any case; `PLA Matte` reads as `PLA_MATTE`).
    pub material_type_code: String,
    /// The colour's code (any case).
    pub color_code: String,
    /// Cost per kilogram (the item is stocked in grams).
    pub cost_per_kg: Option<BigDecimal>,
    /// Selling price, stored as given.
    pub selling_price: Option<BigDecimal>,
    /// Opening stock in kilograms (0: none).
    pub initial_qty_kg: BigDecimal,
    /// Category.
    pub category_id: Option<i64>,
}

/// What creating a material item did.
#[derive(Debug, Clone)]
pub struct MaterialItemCreated {
    /// The item, with its opening stock's cost.
    pub item: ItemRow,
    /// Stock transactions posted (0 or 1).
    pub inventory_transactions: i64,
    /// The journal entry that booked the opening stock, if any value moved.
    pub journal_entry_id: Option<i64>,
}

/// The SKU of a material item: `MAT-` + type code + colour code, underscores as dashes
/// (`PLA_MATTE` + `CHARCOAL` -> `MAT-PLA-MATTE-CHARCOAL`), at most 50 characters.
pub fn material_sku(type_code: &str, color_code: &str) -> String {
    format!("MAT-{type_code}-{color_code}")
        .replace('_', "-")
        .chars()
        .take(50)
        .collect()
}

async fn material_type_by_code(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> AppResult<Option<MaterialTypeRow>> {
    Ok(material_types::table
        .filter(material_types::code.eq(code))
        .filter(material_types::active)
        .select(MaterialTypeRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

async fn color_by_code(conn: &mut AsyncPgConnection, code: &str) -> AppResult<Option<ColorRow>> {
    Ok(colors::table
        .filter(colors::code.eq(code))
        .filter(colors::active)
        .select(ColorRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Creates a material item in the caller's transaction: the item (type `material`, stocked
/// in G, bought in KG, standard cost = cost per kg / 1000), its type x colour link, and its
/// opening stock at MAIN as an opening balance (stock ledger receipt at that cost, one
/// journal entry inventory / 3000 Owner's equity), exactly as the materials import books
/// it. Unknown type or colour, bad numbers or an unknown category are field errors; a type
/// and colour that already have an item, or a SKU in use, are refused as taken.
pub async fn create_material(
    conn: &mut AsyncPgConnection,
    form: MaterialItemForm,
    user: i64,
) -> Result<MaterialItemCreated, Stop> {
    let mut errors = Vec::new();
    let type_code = code_of(&form.material_type_code);
    let color_code = code_of(&form.color_code);
    let material_type = if type_code.is_empty() {
        errors.push(invalid("materialTypeCode", "Field required"));
        None
    } else {
        let found = material_type_by_code(conn, &type_code).await?;
        if found.is_none() {
            errors.push(invalid(
                "materialTypeCode",
                format!("Material type '{type_code}' not found"),
            ));
        }
        found
    };
    let color = if color_code.is_empty() {
        errors.push(invalid("colorCode", "Field required"));
        None
    } else {
        let found = color_by_code(conn, &color_code).await?;
        if found.is_none() {
            errors.push(invalid(
                "colorCode",
                format!("Color '{color_code}' not found"),
            ));
        }
        found
    };
    for (field, value) in [
        ("costPerKg", form.cost_per_kg.as_ref()),
        ("sellingPrice", form.selling_price.as_ref()),
        ("initialQtyKg", Some(&form.initial_qty_kg)),
    ] {
        if value.is_some_and(|v| *v < BigDecimal::zero()) {
            errors.push(invalid(field, "Input should be greater than or equal to 0"));
        }
    }
    let (Some(material_type), Some(color)) = (material_type, color) else {
        return Err(Stop::Refused(errors));
    };
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }

    // One item per type and colour.
    let linked: Option<(i64, Option<i64>)> = material_colors::table
        .filter(material_colors::material_type_id.eq(material_type.id))
        .filter(material_colors::color_id.eq(color.id))
        .select((material_colors::id, material_colors::item_id))
        .for_update()
        .first(conn)
        .await
        .optional()?;
    if let Some((_, Some(item_id))) = linked {
        let sku = model::find(conn, item_id)
            .await?
            .map(|i| i.sku)
            .unwrap_or_default();
        return Err(Stop::refuse(
            "colorCode",
            UserErrorCode::Taken,
            format!(
                "A material item for {} {} already exists ({sku})",
                material_type.code, color.code
            ),
        ));
    }

    let cost_per_gram = form
        .cost_per_kg
        .as_ref()
        .map(|c| (c / BigDecimal::from(1000)).with_scale_round(COST_SCALE, RoundingMode::HalfUp));
    let mut values = ItemForm {
        sku: Some(material_sku(&material_type.code, &color.code)),
        name: Some(format!("{} {}", material_type.name, color.name)),
        item_type: Some(ItemType::Material),
        procurement_type: Some(ProcurementType::Buy),
        standard_cost: Some(cost_per_gram.clone().map(Decimal)),
        selling_price: Some(form.selling_price.clone().map(Decimal)),
        category_id: Some(form.category_id),
        stocking_policy: Some(StockingPolicy::Stocked),
        active: Some(true),
        ..Default::default()
    };
    // The rules of every new item: units (G, bought in KG), category, name, SKU taken.
    let errors = items::check(conn, &mut values, None).await?;
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let item = match items::taken_on_conflict(
        model::insert(conn, &values).await,
        values.sku.as_deref(),
    )? {
        Ok(row) => row,
        Err(errors) => return Err(Stop::Refused(errors)),
    };

    diesel::insert_into(material_colors::table)
        .values((
            material_colors::material_type_id.eq(material_type.id),
            material_colors::color_id.eq(color.id),
            material_colors::item_id.eq(Some(item.id)),
        ))
        .on_conflict((material_colors::material_type_id, material_colors::color_id))
        .do_update()
        .set(material_colors::item_id.eq(excluded(material_colors::item_id)))
        .execute(conn)
        .await?;

    let grams = (&form.initial_qty_kg * BigDecimal::from(1000))
        .with_scale_round(QUANTITY_SCALE, RoundingMode::HalfUp);
    let mut created = MaterialItemCreated {
        inventory_transactions: 0,
        journal_entry_id: None,
        item,
    };
    if grams > BigDecimal::zero() {
        let location = main_location(conn).await?;
        let mut opening = Opening::new(user, format!("Opening stock of {}", created.item.sku));
        let receipt = opening.receipt(created.item.id, location, grams, cost_per_gram, None);
        opening.post_receipts(conn, location, &[receipt]).await?;
        created.inventory_transactions = opening.transactions() as i64;
        created.journal_entry_id = opening.book(conn).await?;
        if let Some(row) = model::find(conn, created.item.id).await? {
            created.item = row;
        }
    }
    Ok(created)
}

// -------------------------------------------------------------------------- bulk changes

/// The most items one bulk change may touch.
pub const MAX_BULK_ITEMS: usize = 500;

/// Longest SKU.
pub const SKU_MAX: usize = 50;
/// Longest item name.
pub const NAME_MAX: usize = 255;

/// Applies the same changes to many items in one statement, in the caller's transaction.
/// Nothing is written unless every id exists and every value is valid; answers how many
/// items were changed.
pub async fn bulk_update(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
    values: &ItemForm,
) -> Result<usize, Stop> {
    let mut ids = item_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(Stop::Refused(vec![invalid(
            "itemIds",
            "No items specified",
        )]));
    }
    if ids.len() > MAX_BULK_ITEMS {
        return Err(Stop::Refused(vec![invalid(
            "itemIds",
            format!("At most {MAX_BULK_ITEMS} items can be changed at once"),
        )]));
    }
    let nothing = values.category_id.is_none()
        && values.active.is_none()
        && values.item_type.is_none()
        && values.procurement_type.is_none()
        && values.stocking_policy.is_none()
        && values.reorder_point.is_none();
    if nothing {
        return Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::NotAllowed,
            "Nothing to change: give category_id, is_active, item_type, procurement_type, stocking_policy or reorder_point",
        )]));
    }
    let mut errors = Vec::new();
    if values
        .reorder_point
        .as_ref()
        .and_then(Option::as_ref)
        .is_some_and(|v| v.0 < BigDecimal::zero())
    {
        errors.push(invalid(
            "reorderPoint",
            "Input should be greater than or equal to 0",
        ));
    }
    if let Some(Some(category)) = values.category_id {
        let exists: Option<i64> = item_categories::table
            .find(category)
            .select(item_categories::id)
            .first(conn)
            .await
            .optional()?;
        if exists.is_none() {
            errors.push(invalid(
                "categoryId",
                format!("Category {category} does not exist"),
            ));
        }
    }
    // The rows are locked in id order, so two bulk changes cannot deadlock.
    let found: Vec<i64> = items_table::table
        .filter(items_table::id.eq_any(&ids))
        .order(items_table::id)
        .select(items_table::id)
        .for_update()
        .load(conn)
        .await?;
    if found.len() != ids.len() {
        let missing: Vec<String> = ids
            .iter()
            .filter(|id| found.binary_search(id).is_err())
            .take(20)
            .map(i64::to_string)
            .collect();
        errors.push(invalid(
            "itemIds",
            format!("Items not found: {}", missing.join(", ")),
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    Ok(
        diesel::update(items_table::table.filter(items_table::id.eq_any(&ids)))
            .set(values)
            .execute(conn)
            .await?,
    )
}

// ------------------------------------------------------------------------------ recosting

crate::text_enum! {
    /// Where a recomputed standard cost comes from.
    pub enum CostSource {
        /// The active BOM's cost roll-up (components, sub-assemblies and process cost).
        Manufactured,
        /// The latest purchase order price (else the last receipt's cost), per stocking unit.
        Purchased,
    }
}

/// One item's recomputed standard cost.
#[derive(Debug, Clone)]
pub struct Recosted {
    /// The item.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// The standard cost before.
    pub old_cost: Option<BigDecimal>,
    /// The standard cost now.
    pub new_cost: BigDecimal,
    /// Where it came from.
    pub source: CostSource,
    /// The active BOM, when it has one.
    pub bom_id: Option<i64>,
    /// The BOM's roll-up per unit, when it has a BOM with lines.
    pub bom_cost: Option<BigDecimal>,
    /// The purchase cost per stocking unit, when it has purchase history.
    pub purchase_cost: Option<BigDecimal>,
}

impl Recosted {
    /// Whether the new cost differs from the old one.
    pub fn changed(&self) -> bool {
        self.old_cost.as_ref() != Some(&self.new_cost)
    }
}

/// Why an item could not be recosted.
#[derive(Debug, Clone)]
pub enum Uncosted {
    /// No active BOM with lines and no purchase history.
    NoSource(String),
    /// Its BOM structure contains itself.
    Circular(String),
}

impl Uncosted {
    /// What to tell the user.
    pub fn message(self) -> String {
        match self {
            Uncosted::NoSource(m) | Uncosted::Circular(m) => m,
        }
    }
}

/// Which items `recost-all` looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecostScope {
    /// Only this type.
    pub item_type: Option<ItemType>,
    /// Only this category and its descendants.
    pub category_id: Option<i64>,
    /// Only items costed from this source.
    pub cost_source: Option<CostSource>,
}

/// What `recost-all` did.
#[derive(Debug, Clone, Default)]
pub struct RecostReport {
    /// Items whose standard cost changed, by SKU.
    pub changed: Vec<Recosted>,
    /// Items whose cost was recomputed and already right.
    pub unchanged: i64,
    /// Items without a BOM or purchase history, or whose cost came out as zero.
    pub skipped: i64,
    /// Items that could not be costed and why (a circular BOM), the first 100.
    pub errors: Vec<String>,
}

/// The latest purchase price of each item, per stocking unit: the newest line of a purchase
/// order that is not a draft or cancelled (by order date, then creation), converted from its
/// purchase unit like a receipt converts it. One statement for any number of items.
async fn latest_purchase_costs(
    conn: &mut AsyncPgConnection,
    items_of: &[ItemRow],
) -> AppResult<HashMap<i64, BigDecimal>> {
    let ids: Vec<i64> = items_of.iter().map(|i| i.id).collect();
    let rows: Vec<(i64, BigDecimal, String)> = purchase_order_lines::table
        .inner_join(purchase_orders::table)
        .filter(purchase_order_lines::product_id.eq_any(&ids))
        .filter(
            purchase_orders::status
                .ne_all([PurchaseOrderStatus::Draft, PurchaseOrderStatus::Cancelled]),
        )
        .distinct_on(purchase_order_lines::product_id)
        .order((
            purchase_order_lines::product_id,
            purchase_orders::order_date.desc().nulls_last(),
            purchase_orders::created_at.desc(),
            purchase_order_lines::id.desc(),
        ))
        .select((
            purchase_order_lines::product_id,
            purchase_order_lines::unit_cost,
            purchase_order_lines::purchase_unit,
        ))
        .load(conn)
        .await?;
    if rows.is_empty() {
        return Ok(HashMap::new());
    }
    let units: HashMap<String, model::UomRow> = model::units(conn)
        .await?
        .into_iter()
        .map(|u| (u.code.clone(), u))
        .collect();
    let by_id: HashMap<i64, &ItemRow> = items_of.iter().map(|i| (i.id, i)).collect();
    let mut out = HashMap::with_capacity(rows.len());
    for (item_id, unit_cost, purchase_unit) in rows {
        let Some(item) = by_id.get(&item_id) else {
            continue;
        };
        let bought = PurchasedItem {
            id: item.id,
            sku: item.sku.clone(),
            unit: item.unit.clone(),
            purchase_uom: item.purchase_uom.clone(),
            purchase_factor: item.purchase_factor.clone(),
            item_type: item.item_type,
            track_lots: item.track_lots,
        };
        let factor = match (units.get(&purchase_unit), units.get(&item.unit)) {
            (Some(p), Some(s)) => stock_factor(&bought, p, s),
            _ => None,
        };
        if let Some(factor) = factor.filter(|f| !f.is_zero()) {
            out.insert(
                item_id,
                (unit_cost / factor).with_scale_round(COST_SCALE, RoundingMode::HalfUp),
            );
        }
    }
    Ok(out)
}

/// The new standard cost of each item (or why there is none), in a fixed number of
/// statements: the active BOMs in one, their structures level by level ([`Tree::load`]),
/// the purchase prices in one. Bought items (`buy`) take their purchase cost first, the
/// others their BOM's roll-up first; each falls back on the other.
async fn compute_costs(
    conn: &mut AsyncPgConnection,
    items_of: &[ItemRow],
) -> AppResult<Vec<(usize, Result<Recosted, Uncosted>)>> {
    let ids: Vec<i64> = items_of.iter().map(|i| i.id).collect();
    let boms = bom_model::active_of(conn, &ids).await?;
    let bom_of: HashMap<i64, i64> = boms.iter().map(|b| (b.product_id, b.id)).collect();
    let tree = if boms.is_empty() {
        Tree::default()
    } else {
        Tree::load(conn, boms).await?
    };
    let purchased = latest_purchase_costs(conn, items_of).await?;
    let mut out = Vec::with_capacity(items_of.len());
    for (i, item) in items_of.iter().enumerate() {
        let bom_id = bom_of.get(&item.id).copied();
        let bom_cost = match bom_id.filter(|b| !tree.lines(*b).is_empty()) {
            Some(b) => match tree.cost(b) {
                Ok((total, _)) => Some(total),
                Err(cycle) => {
                    out.push((
                        i,
                        Err(Uncosted::Circular(format!(
                            "{}: {}",
                            item.sku,
                            cycle.message()
                        ))),
                    ));
                    continue;
                }
            },
            None => None,
        };
        let purchase_cost = purchased
            .get(&item.id)
            .cloned()
            .or_else(|| item.last_cost.clone());
        let bought_first = item.procurement_type == ProcurementType::Buy;
        let pick = if bought_first {
            purchase_cost
                .clone()
                .map(|c| (c, CostSource::Purchased))
                .or_else(|| bom_cost.clone().map(|c| (c, CostSource::Manufactured)))
        } else {
            bom_cost
                .clone()
                .map(|c| (c, CostSource::Manufactured))
                .or_else(|| purchase_cost.clone().map(|c| (c, CostSource::Purchased)))
        };
        let Some((new_cost, source)) = pick else {
            out.push((
                i,
                Err(Uncosted::NoSource(format!(
                    "{} has no active BOM with lines and no purchase history to cost it from",
                    item.sku
                ))),
            ));
            continue;
        };
        out.push((
            i,
            Ok(Recosted {
                id: item.id,
                sku: item.sku.clone(),
                name: item.name.clone(),
                old_cost: item.standard_cost.clone(),
                new_cost: new_cost.with_scale_round(COST_SCALE, RoundingMode::HalfUp),
                source,
                bom_id,
                bom_cost,
                purchase_cost,
            }),
        ));
    }
    Ok(out)
}

/// Writes new standard costs in one statement.
async fn store_costs(conn: &mut AsyncPgConnection, costs: &[&Recosted]) -> AppResult<()> {
    if costs.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = costs.iter().map(|c| c.id).collect();
    let values: Vec<BigDecimal> = costs.iter().map(|c| c.new_cost.clone()).collect();
    diesel::sql_query(
        "UPDATE items SET standard_cost = v.cost \
         FROM unnest($1::bigint[], $2::numeric[]) AS v(id, cost) WHERE items.id = v.id",
    )
    .bind::<Array<BigInt>, _>(ids)
    .bind::<Array<Numeric>, _>(values)
    .execute(conn)
    .await?;
    Ok(())
}

/// Recomputes one item's standard cost and stores it (in the caller's transaction). An item
/// with nothing to cost it from, or a circular BOM, is refused.
pub async fn recost(conn: &mut AsyncPgConnection, id: i64) -> Result<Recosted, Stop> {
    let item: ItemRow = items_table::table
        .find(id)
        .select(ItemRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("Item not found"))?;
    let mut costs = compute_costs(conn, std::slice::from_ref(&item)).await?;
    match costs.pop() {
        Some((_, Ok(recosted))) => {
            if recosted.changed() {
                store_costs(conn, &[&recosted]).await?;
            }
            Ok(recosted)
        }
        Some((_, Err(reason))) => Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::NotAllowed,
            reason.message(),
        )])),
        None => Err(AppError::internal("recost computed nothing").into()),
    }
}

/// Recomputes the standard cost of every active item in scope and stores the ones that
/// changed, in a fixed number of statements whatever the number of items. Items without a
/// source, or whose cost comes out as zero, are skipped (a zero never overwrites a cost).
pub async fn recost_all(
    conn: &mut AsyncPgConnection,
    scope: RecostScope,
) -> AppResult<RecostReport> {
    let mut query = items_table::table
        .filter(items_table::active)
        .order(items_table::sku)
        .select(ItemRow::as_select())
        .into_boxed();
    if let Some(t) = scope.item_type {
        query = query.filter(items_table::item_type.eq(t));
    }
    if let Some(root) = scope.category_id {
        let all = model::categories(conn).await?;
        query = query.filter(items_table::category_id.eq_any(model::with_descendants(&all, root)));
    }
    let rows: Vec<ItemRow> = query.load(conn).await?;
    let in_scope = |r: &Recosted| scope.cost_source.is_none_or(|s| s == r.source);
    let mut outcomes = compute_costs(conn, &rows).await?;
    // Made items roll up their components' costs, and a bought component without receipts
    // is costed at its standard cost: once the bought items' new costs are stored, the made
    // ones are costed again (one more fixed set of statements), so one run settles both.
    let bought: Vec<&Recosted> = outcomes
        .iter()
        .filter_map(|(_, o)| o.as_ref().ok())
        .filter(|r| r.source == CostSource::Purchased && in_scope(r))
        .filter(|r| r.changed() && !r.new_cost.is_zero())
        .collect();
    // Only made items the report will show need the second pass.
    let made: Vec<usize> = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Ok(r) if r.source == CostSource::Manufactured && in_scope(r)))
        .map(|(i, _)| *i)
        .collect();
    let mut stored = HashSet::new();
    if !bought.is_empty() && !made.is_empty() {
        store_costs(conn, &bought).await?;
        stored.extend(bought.iter().map(|r| r.id));
        let again: Vec<ItemRow> = made.iter().filter_map(|i| rows.get(*i).cloned()).collect();
        for (j, outcome) in compute_costs(conn, &again).await? {
            let (Some(i), Ok(mut r)) = (made.get(j), outcome) else {
                continue;
            };
            if let Some((_, Ok(first))) = outcomes.get(*i) {
                // Compared with the cost before this run, not the one just computed.
                r.old_cost = first.old_cost.clone();
            }
            if let Some(slot) = outcomes.get_mut(*i) {
                slot.1 = Ok(r);
            }
        }
    }
    let mut report = RecostReport::default();
    for (_, outcome) in outcomes {
        match outcome {
            Ok(r) if !in_scope(&r) => {}
            Ok(r) if r.new_cost.is_zero() => report.skipped += 1,
            Ok(r) if r.changed() => report.changed.push(r),
            Ok(_) => report.unchanged += 1,
            // Nothing to cost from is the common case, not an error worth listing.
            Err(Uncosted::NoSource(_)) => report.skipped += 1,
            Err(Uncosted::Circular(reason)) => {
                report.skipped += 1;
                if report.errors.len() < 100 {
                    report.errors.push(reason);
                }
            }
        }
    }
    let changed: Vec<&Recosted> = report
        .changed
        .iter()
        .filter(|r| !stored.contains(&r.id))
        .collect();
    for chunk in changed.chunks(10_000) {
        store_costs(conn, chunk).await?;
    }
    Ok(report)
}
