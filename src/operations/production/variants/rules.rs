//! The rules of variants: the matrix of materials and colours a template can come in, making
//! one or many variants (one transaction), syncing the template's routing to them, deleting
//! one, and swapping an order's material for a variant.

use std::collections::BTreeMap;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::ledger::{self, Movement, MovementKind};
use crate::ledgers::inventory::model::ReferenceType;
use crate::operations::production::model::{self, MaterialRow, OrderStatus, RoutingOperationRow};
use crate::operations::production::routing::materials::{self as step_materials, StepMaterialRow};
use crate::platform::db::schema::{
    bom_lines, boms, colors, inventory_balances, items, material_colors, material_types,
    production_order_materials, routing_operation_materials, routing_operations, routings,
    work_centers,
};
use crate::platform::error::{AppError, ErrorCode};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// Longest SKU.
const SKU_MAX: usize = 50;
/// Longest item name.
const NAME_MAX: usize = 255;

/// A variant of a template, as the variant list shows it.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantView {
    /// The variant item.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Its material type's code.
    pub material_type_code: Option<String>,
    /// Its colour's code.
    pub color_code: Option<String>,
    /// Its colour (`#RRGGBB`).
    pub color_hex: Option<String>,
    /// Standard cost (null when none).
    pub standard_cost: Option<f64>,
    /// Selling price (null when none).
    pub selling_price: Option<f64>,
    /// On hand, over every location.
    pub on_hand_qty: f64,
    /// Active.
    pub active: bool,
}

/// The template, as the matrix shows it.
#[derive(Debug, Clone, SimpleObject)]
pub struct TemplateView {
    /// The item.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Whether it has variants.
    pub is_template: bool,
    /// The materials its routing marks variable.
    pub variable_material_ids: Vec<i64>,
}

/// A material and colour a template could come in.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantCombo {
    /// Material type.
    pub material_type_id: i64,
    /// Colour.
    pub color_id: i64,
    /// Material type code.
    pub material_type_code: String,
    /// Material type name.
    pub material_type_name: String,
    /// Colour code.
    pub color_code: String,
    /// Colour name.
    pub color_name: String,
    /// Colour (`#RRGGBB`).
    pub color_hex: Option<String>,
    /// Whether the variant exists.
    pub already_exists: bool,
    /// The variant, when it exists.
    pub variant_id: Option<i64>,
    /// Whether a material item is linked to this material and colour (a variant needs one).
    pub has_material: bool,
}

/// The variant matrix of a template.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantMatrix {
    /// The template.
    pub template: TemplateView,
    /// Its variants.
    pub variants: Vec<VariantView>,
    /// Every material and colour of its variable materials' types.
    pub available_combos: Vec<VariantCombo>,
}

/// One material and colour to make a variant in.
#[derive(Debug, Clone, Copy, InputObject)]
pub struct VariantSelection {
    /// Material type.
    pub material_type_id: i64,
    /// Colour.
    pub color_id: i64,
}

/// A variant to make.
#[derive(Debug, Clone, InputObject)]
pub struct VariantInput {
    /// Material type.
    pub material_type_id: i64,
    /// Colour.
    pub color_id: i64,
    /// Selling price (default: the template's).
    pub selling_price: Option<Decimal>,
}

/// What making a variant did.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantCreated {
    /// The variant (none when skipped).
    pub id: Option<i64>,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: Option<String>,
    /// The template.
    pub parent_product_id: i64,
    /// Standard cost.
    pub standard_cost: Option<f64>,
    /// Selling price.
    pub selling_price: Option<f64>,
    /// `created`, or `skipped` (it existed).
    pub status: String,
    /// Why it was skipped.
    pub reason: Option<String>,
}

/// What a sync changed, or would change, for one variant.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantSyncChange {
    /// The variant.
    pub variant_id: i64,
    /// Its SKU.
    pub sku: String,
    /// What differs from the template, in words (empty: already in step).
    pub changes: Vec<String>,
}

/// The result of a routing sync.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantSyncResult {
    /// Variants whose routing was rewritten (0 in a preview).
    pub synced: i64,
    /// Variants of the template.
    pub total: i64,
    /// Per variant, what differs (before the sync).
    pub variants: Vec<VariantSyncChange>,
    /// Variants that could not be synced.
    pub errors: Vec<String>,
    /// Whether this was only a preview.
    pub dry_run: bool,
}

/// What deleting a variant did.
#[derive(Debug, Clone, SimpleObject)]
pub struct VariantDeleted {
    /// The variant.
    pub id: i64,
    /// Its SKU.
    pub sku: String,
    /// `deleted`.
    pub status: String,
    /// Variants the template still has.
    pub remaining_variants: i64,
}

fn not_found(id: i64) -> Stop {
    Stop::Failed(AppError::not_found(format!("Item {id} not found")))
}

fn refused(field: &str, message: impl Into<String>) -> Stop {
    Stop::refuse(field, UserErrorCode::NotAllowed, message)
}

fn money(v: Option<BigDecimal>) -> Option<f64> {
    v.and_then(|v| v.to_f64()).filter(|v| *v != 0.0)
}

/// A variant as read: id, SKU, name, type code, colour code and hex, standard cost,
/// selling price, on hand, active.
type VariantRow = (
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<BigDecimal>,
    Option<BigDecimal>,
    Option<BigDecimal>,
    bool,
);

/// A material and colour as read: type and colour ids, type code and name, colour code,
/// name and hex, the linked material item.
type ComboRow = (
    i64,
    i64,
    String,
    String,
    String,
    String,
    Option<String>,
    Option<i64>,
);

/// A variant being synced: id, SKU, name, material type, colour.
type VariantOfTemplate = (i64, String, String, Option<i64>, Option<i64>);

/// The template item (sku, name, is_template), locked when asked.
async fn template(
    conn: &mut AsyncPgConnection,
    id: i64,
    lock: bool,
) -> Result<(String, String, bool), Stop> {
    let q = items::table
        .find(id)
        .select((items::sku, items::name, items::is_template));
    let row = if lock {
        q.for_update().first(conn).await.optional()?
    } else {
        q.first(conn).await.optional()?
    };
    row.ok_or_else(|| not_found(id))
}

/// The active routing of a product.
async fn active_routing(conn: &mut AsyncPgConnection, product: i64) -> Result<Option<i64>, Stop> {
    Ok(routings::table
        .filter(routings::product_id.eq(product))
        .filter(routings::active.eq(true))
        .filter(routings::is_template.eq(false))
        .select(routings::id)
        .first(conn)
        .await
        .optional()?)
}

/// The active steps of a routing, in order.
async fn steps_of(
    conn: &mut AsyncPgConnection,
    routing: i64,
) -> Result<Vec<RoutingOperationRow>, Stop> {
    Ok(routing_operations::table
        .filter(routing_operations::routing_id.eq(routing))
        .filter(routing_operations::is_active.eq(true))
        .order((routing_operations::sequence, routing_operations::id))
        .select(RoutingOperationRow::as_select())
        .load(conn)
        .await?)
}

/// The materials a template's active routing marks variable.
pub async fn variable_materials(
    conn: &mut AsyncPgConnection,
    template: i64,
) -> Result<Vec<i64>, Stop> {
    let Some(routing) = active_routing(conn, template).await? else {
        return Ok(Vec::new());
    };
    Ok(routing_operation_materials::table
        .inner_join(routing_operations::table)
        .filter(routing_operations::routing_id.eq(routing))
        .filter(routing_operations::is_active.eq(true))
        .filter(routing_operation_materials::is_variable.eq(true))
        .select(routing_operation_materials::component_id)
        .distinct()
        .order(routing_operation_materials::component_id)
        .load(conn)
        .await?)
}

/// The variants of a template, by SKU, with their on-hand stock (one statement).
pub async fn list(
    conn: &mut AsyncPgConnection,
    template_id: i64,
) -> Result<Vec<VariantView>, Stop> {
    template(conn, template_id, false).await?;
    let on_hand = inventory_balances::table
        .filter(inventory_balances::item_id.eq(items::id))
        .select(diesel::dsl::sum(inventory_balances::on_hand_quantity))
        .single_value();
    let rows: Vec<VariantRow> = items::table
        .left_join(
            material_types::table
                .on(items::variant_material_type_id.eq(material_types::id.nullable())),
        )
        .left_join(colors::table.on(items::variant_color_id.eq(colors::id.nullable())))
        .filter(items::parent_product_id.eq(template_id))
        .order(items::sku)
        .select((
            items::id,
            items::sku,
            items::name,
            material_types::code.nullable(),
            colors::code.nullable(),
            colors::hex_code.nullable(),
            items::standard_cost,
            items::selling_price,
            on_hand,
            items::active,
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| VariantView {
            id: r.0,
            sku: r.1,
            name: r.2,
            material_type_code: r.3,
            color_code: r.4,
            color_hex: r.5,
            standard_cost: money(r.6),
            selling_price: money(r.7),
            on_hand_qty: r.8.and_then(|v| v.to_f64()).unwrap_or(0.0),
            active: r.9,
        })
        .collect())
}

/// The SKU a variant of this template in this material and colour has.
fn variant_sku(template_sku: &str, type_code: &str, color_code: &str) -> String {
    let raw = format!("{template_sku}-{type_code}-{color_code}");
    raw.chars()
        .take(SKU_MAX)
        .collect::<String>()
        .trim()
        .to_uppercase()
}

/// The matrix of a template: its variable materials, its variants, and every material and
/// colour of those materials' types.
pub async fn matrix(conn: &mut AsyncPgConnection, template_id: i64) -> Result<VariantMatrix, Stop> {
    let (sku, name, is_template) = template(conn, template_id, false).await?;
    let variable = variable_materials(conn, template_id).await?;
    let variants = list(conn, template_id).await?;
    let types: Vec<i64> = material_colors::table
        .filter(material_colors::item_id.eq_any(&variable))
        .select(material_colors::material_type_id)
        .distinct()
        .load(conn)
        .await?;
    let rows: Vec<ComboRow> = material_colors::table
        .inner_join(material_types::table)
        .inner_join(colors::table)
        .filter(material_colors::material_type_id.eq_any(&types))
        .order((material_types::code, colors::code))
        .select((
            material_colors::material_type_id,
            material_colors::color_id,
            material_types::code,
            material_types::name,
            colors::code,
            colors::name,
            colors::hex_code,
            material_colors::item_id,
        ))
        .load(conn)
        .await?;
    let by_sku: BTreeMap<String, i64> = variants.iter().map(|v| (v.sku.clone(), v.id)).collect();
    let available_combos = rows
        .into_iter()
        .map(|r| {
            let existing = by_sku.get(&variant_sku(&sku, &r.2, &r.4)).copied();
            VariantCombo {
                material_type_id: r.0,
                color_id: r.1,
                material_type_code: r.2,
                material_type_name: r.3,
                color_code: r.4,
                color_name: r.5,
                color_hex: r.6,
                already_exists: existing.is_some(),
                variant_id: existing,
                has_material: r.7.is_some(),
            }
        })
        .collect();
    Ok(VariantMatrix {
        template: TemplateView {
            id: template_id,
            sku,
            name,
            is_template,
            variable_material_ids: variable,
        },
        variants,
        available_combos,
    })
}

/// Copies a BOM of the template for a variant, swapping `variable` components for `target`.
async fn copy_bom(
    conn: &mut AsyncPgConnection,
    from_product: i64,
    to_product: i64,
    sku: &str,
    variable: &[i64],
    target: i64,
) -> Result<(), Stop> {
    let bom: Option<i64> = boms::table
        .filter(boms::product_id.eq(from_product))
        .filter(boms::active.eq(true))
        .select(boms::id)
        .first(conn)
        .await
        .optional()?;
    let Some(bom) = bom else { return Ok(()) };
    diesel::sql_query(
        "WITH new_bom AS ( \
             INSERT INTO boms (product_id, code, name, version, revision, active, assembly_time_minutes, \
                               effective_date, notes, process_cost, material_cost) \
             SELECT $1, $2 || '-BOM', 'BOM for ' || $2, 1, revision, TRUE, assembly_time_minutes, \
                    effective_date, 'Copied from the template ' || (SELECT sku FROM items WHERE id = product_id), \
                    process_cost, material_cost \
             FROM boms WHERE id = $3 RETURNING id) \
         INSERT INTO bom_lines (bom_id, component_id, quantity, unit, sequence, consume_stage, is_cost_only, scrap_factor, notes) \
         SELECT new_bom.id, CASE WHEN l.component_id = ANY($4) THEN $5 ELSE l.component_id END, \
                l.quantity, l.unit, l.sequence, l.consume_stage, l.is_cost_only, l.scrap_factor, l.notes \
         FROM bom_lines l, new_bom WHERE l.bom_id = $3",
    )
    .bind::<BigInt, _>(to_product)
    .bind::<Text, _>(sku)
    .bind::<BigInt, _>(bom)
    .bind::<diesel::sql_types::Array<BigInt>, _>(variable)
    .bind::<BigInt, _>(target)
    .execute(conn)
    .await?;
    Ok(())
}

/// Copies the template's active steps into `routing` (deactivating what it had), swapping
/// variable materials for `target`.
async fn copy_steps(
    conn: &mut AsyncPgConnection,
    from: &[RoutingOperationRow],
    routing: i64,
    target: Option<i64>,
) -> Result<(), Stop> {
    diesel::update(routing_operations::table.filter(routing_operations::routing_id.eq(routing)))
        .set(routing_operations::is_active.eq(false))
        .execute(conn)
        .await?;
    for s in from {
        let new: i64 = diesel::insert_into(routing_operations::table)
            .values((
                routing_operations::routing_id.eq(routing),
                routing_operations::sequence.eq(s.sequence),
                routing_operations::operation_code.eq(&s.operation_code),
                routing_operations::operation_name.eq(&s.operation_name),
                routing_operations::work_center_id.eq(s.work_center_id),
                routing_operations::setup_minutes.eq(&s.setup_minutes.0),
                routing_operations::run_minutes.eq(&s.run_minutes.0),
                routing_operations::notes.eq(&s.notes),
                routing_operations::operation_type.eq(&s.operation_type),
                routing_operations::description.eq(&s.description),
                routing_operations::wait_minutes.eq(&s.wait_minutes.0),
                routing_operations::move_minutes.eq(&s.move_minutes.0),
                routing_operations::runtime_source.eq(&s.runtime_source),
                routing_operations::units_per_cycle.eq(s.units_per_cycle),
                routing_operations::scrap_rate_percent.eq(&s.scrap_rate_percent.0),
            ))
            .returning(routing_operations::id)
            .get_result(conn)
            .await?;
        step_materials::copy(conn, s.id, new, target).await?;
    }
    Ok(())
}

/// Makes one variant; `Ok(created)` or `Ok(skipped)` when its SKU exists.
async fn make(
    conn: &mut AsyncPgConnection,
    template_id: i64,
    (template_sku, template_name): (&str, &str),
    variable: &[i64],
    input: &VariantInput,
) -> Result<VariantCreated, Stop> {
    let combo: Option<(Option<i64>, String, String, String, String)> = material_colors::table
        .inner_join(material_types::table)
        .inner_join(colors::table)
        .filter(material_colors::material_type_id.eq(input.material_type_id))
        .filter(material_colors::color_id.eq(input.color_id))
        .select((
            material_colors::item_id,
            material_types::code,
            material_types::name,
            colors::code,
            colors::name,
        ))
        .first(conn)
        .await
        .optional()?;
    let Some((material, type_code, type_name, color_code, color_name)) = combo else {
        return Err(refused(
            "selections",
            format!(
                "Invalid material/color combination (material_type_id={}, color_id={})",
                input.material_type_id, input.color_id
            ),
        ));
    };
    let target: Option<i64> = match material {
        Some(m) => items::table
            .find(m)
            .filter(items::active.eq(true))
            .select(items::id)
            .first(conn)
            .await
            .optional()?,
        None => None,
    };
    let Some(target) = target else {
        return Err(Stop::refuse(
            "selections",
            UserErrorCode::NotFound,
            format!(
                "No active product found for material_type_id={}, color_id={}",
                input.material_type_id, input.color_id
            ),
        ));
    };
    let sku = variant_sku(template_sku, &type_code, &color_code);
    let existing: Option<i64> = items::table
        .filter(crate::platform::db::text::code_matches(items::sku, &sku))
        .select(items::id)
        .first(conn)
        .await
        .optional()?;
    if let Some(id) = existing {
        return Ok(VariantCreated {
            id: None,
            sku: sku.clone(),
            name: None,
            parent_product_id: template_id,
            standard_cost: None,
            selling_price: None,
            status: "skipped".into(),
            reason: Some(format!("Variant with SKU {sku} already exists (id={id})")),
        });
    }
    let name: String = format!("{template_name} - {type_name} {color_name}")
        .chars()
        .take(NAME_MAX)
        .collect();
    #[derive(QueryableByName)]
    struct Made {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
        standard_cost: Option<BigDecimal>,
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
        selling_price: Option<BigDecimal>,
    }
    // Every column of the template but its identity, its own costs and codes from outside.
    let made: Made = diesel::sql_query(
        "INSERT INTO items (sku, name, description, category_id, item_type, procurement_type, unit, \
             purchase_uom, purchase_factor, cost_method, standard_cost, selling_price, weight_oz, \
             length_in, width_in, height_in, lead_time_days, min_order_qty, reorder_point, \
             reorder_qty, stocking_policy, is_raw_material, track_lots, track_serials, active, \
             safety_stock, parent_product_id, is_template, variant_material_type_id, variant_color_id) \
         SELECT $1, $2, description, category_id, item_type, procurement_type, unit, purchase_uom, \
             purchase_factor, cost_method, standard_cost, COALESCE($3, selling_price), weight_oz, \
             length_in, width_in, height_in, lead_time_days, min_order_qty, reorder_point, \
             reorder_qty, stocking_policy, is_raw_material, track_lots, track_serials, TRUE, \
             safety_stock, id, FALSE, $4, $5 \
         FROM items WHERE id = $6 \
         RETURNING id, standard_cost, selling_price",
    )
    .bind::<Text, _>(&sku)
    .bind::<Text, _>(&name)
    .bind::<diesel::sql_types::Nullable<diesel::sql_types::Numeric>, _>(
        input.selling_price.as_ref().map(|p| p.0.clone()),
    )
    .bind::<BigInt, _>(input.material_type_id)
    .bind::<BigInt, _>(input.color_id)
    .bind::<BigInt, _>(template_id)
    .get_result(conn)
    .await?;
    copy_bom(conn, template_id, made.id, &sku, variable, target).await?;
    if let Some(routing) = active_routing(conn, template_id).await? {
        let steps = steps_of(conn, routing).await?;
        let new_routing: i64 = diesel::insert_into(routings::table)
            .values((
                routings::product_id.eq(Some(made.id)),
                routings::code.eq(format!("RTG-{sku}")
                    .chars()
                    .take(SKU_MAX)
                    .collect::<String>()),
                routings::name.eq(format!("Routing for {name}")
                    .chars()
                    .take(200)
                    .collect::<String>()),
                routings::version.eq(1),
                routings::revision.eq("1.0"),
                routings::active.eq(true),
                routings::is_template.eq(false),
            ))
            .returning(routings::id)
            .get_result(conn)
            .await?;
        copy_steps(conn, &steps, new_routing, Some(target)).await?;
    }
    Ok(VariantCreated {
        id: Some(made.id),
        sku,
        name: Some(name),
        parent_product_id: template_id,
        standard_cost: money(made.standard_cost),
        selling_price: money(made.selling_price),
        status: "created".into(),
        reason: None,
    })
}

/// Makes variants of a template, all in the caller's transaction: one that cannot be made
/// (an unknown combination, no material item) refuses them all; one that exists is
/// skipped. The template becomes a template.
pub async fn create(
    conn: &mut AsyncPgConnection,
    template_id: i64,
    inputs: Vec<VariantInput>,
) -> Result<Vec<VariantCreated>, Stop> {
    if inputs.is_empty() {
        return Err(Stop::refuse(
            "selections",
            UserErrorCode::Invalid,
            "selections must not be empty",
        ));
    }
    let (sku, name, _) = template(conn, template_id, true).await?;
    let variable = variable_materials(conn, template_id).await?;
    let mut out = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        match make(conn, template_id, (&sku, &name), &variable, input).await {
            Ok(done) => out.push(done),
            Err(Stop::Refused(mut errors)) => {
                for e in &mut errors {
                    e.field = Some(format!("selections.{i}"));
                }
                return Err(Stop::Refused(errors));
            }
            Err(e) => return Err(e),
        }
    }
    if out.iter().any(|v| v.status == "created") {
        diesel::update(items::table.find(template_id))
            .set(items::is_template.eq(true))
            .execute(conn)
            .await?;
    }
    Ok(out)
}

/// Makes one variant; one that exists is a conflict.
pub async fn create_one(
    conn: &mut AsyncPgConnection,
    template_id: i64,
    input: VariantInput,
) -> Result<VariantCreated, Stop> {
    if input
        .selling_price
        .as_ref()
        .is_some_and(|p| p.0 < BigDecimal::zero())
    {
        return Err(Stop::refuse(
            "sellingPrice",
            UserErrorCode::Invalid,
            "Input should be greater than or equal to 0",
        ));
    }
    let mut made = create(conn, template_id, vec![input]).await?;
    let one = made
        .pop()
        .ok_or_else(|| Stop::Failed(AppError::internal("no variant made")))?;
    if one.status != "created" {
        return Err(Stop::Failed(AppError::conflict(
            one.reason
                .unwrap_or_else(|| "The variant already exists".into()),
        )));
    }
    Ok(one)
}

/// A step's shape for comparing a variant with its template: its place, what it is, where
/// and how long, and what it consumes (variable materials as the variant's).
fn describe(
    s: &RoutingOperationRow,
    materials: &[StepMaterialRow],
    target: Option<i64>,
    centers: &BTreeMap<i64, String>,
) -> (String, Vec<(i64, String)>) {
    let mut mats: Vec<(i64, String)> = materials
        .iter()
        .filter(|m| m.routing_operation_id == s.id)
        .map(|m| {
            let c = match target {
                Some(t) if m.is_variable => t,
                _ => m.component_id,
            };
            (
                c,
                format!(
                    "{} {} per {}",
                    m.quantity.0.normalized(),
                    m.unit,
                    m.quantity_per
                ),
            )
        })
        .collect();
    mats.sort();
    (
        format!(
            "{} at {}, setup {} min, run {} min",
            s.operation_code,
            centers
                .get(&s.work_center_id)
                .cloned()
                .unwrap_or_else(|| format!("work center {}", s.work_center_id)),
            s.setup_minutes.0.normalized(),
            s.run_minutes.0.normalized()
        ),
        mats,
    )
}

/// What differs between the template's steps and a variant's.
fn differences(
    (template, template_materials): (&[RoutingOperationRow], &[StepMaterialRow]),
    (variant, variant_materials): (&[RoutingOperationRow], &[StepMaterialRow]),
    target: Option<i64>,
    centers: &BTreeMap<i64, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    let by_seq = |steps: &[RoutingOperationRow]| -> BTreeMap<i32, RoutingOperationRow> {
        steps.iter().map(|s| (s.sequence, s.clone())).collect()
    };
    let (t, v) = (by_seq(template), by_seq(variant));
    for (seq, ts) in &t {
        let want = describe(ts, template_materials, target, centers);
        match v.get(seq) {
            None => out.push(format!("step {seq} {} is added", ts.operation_code)),
            Some(vs) => {
                let have = describe(vs, variant_materials, None, centers);
                if want.0 != have.0 {
                    out.push(format!("step {seq}: {} becomes {}", have.0, want.0));
                }
                if want.1 != have.1 {
                    out.push(format!(
                        "step {seq} {}: its materials change",
                        ts.operation_code
                    ));
                }
            }
        }
    }
    for (seq, vs) in &v {
        if !t.contains_key(seq) {
            out.push(format!("step {seq} {} is removed", vs.operation_code));
        }
    }
    out
}

/// Syncs the template's routing to every variant (or, `dry_run`, says what would change).
/// Each variant is synced in a savepoint of its own: one that fails keeps its routing and
/// is named in `errors`.
pub async fn sync_routing(
    conn: &mut AsyncPgConnection,
    template_id: i64,
    dry_run: bool,
) -> Result<VariantSyncResult, Stop> {
    let (_, _, is_template) = template(conn, template_id, true).await?;
    if !is_template {
        return Err(refused("id", "Item is not a template"));
    }
    let Some(routing) = active_routing(conn, template_id).await? else {
        return Err(refused("id", "Template has no active routing to sync from"));
    };
    let steps = steps_of(conn, routing).await?;
    let ids: Vec<i64> = steps.iter().map(|s| s.id).collect();
    let template_materials = step_materials::of_steps(conn, &ids).await?;
    let centers: BTreeMap<i64, String> = work_centers::table
        .select((work_centers::id, work_centers::code))
        .load::<(i64, String)>(conn)
        .await?
        .into_iter()
        .collect();
    let variants: Vec<VariantOfTemplate> = items::table
        .filter(items::parent_product_id.eq(template_id))
        .order(items::sku)
        .select((
            items::id,
            items::sku,
            items::name,
            items::variant_material_type_id,
            items::variant_color_id,
        ))
        .load(conn)
        .await?;
    let mut result = VariantSyncResult {
        synced: 0,
        total: variants.len() as i64,
        variants: Vec::new(),
        errors: Vec::new(),
        dry_run,
    };
    for (id, sku, name, type_id, color_id) in variants {
        let target: Option<i64> = material_colors::table
            .filter(material_colors::material_type_id.nullable().eq(type_id))
            .filter(material_colors::color_id.nullable().eq(color_id))
            .select(material_colors::item_id)
            .first::<Option<i64>>(conn)
            .await
            .optional()?
            .flatten();
        let own = active_routing(conn, id).await?;
        let (have, have_materials) = match own {
            Some(r) => {
                let s = steps_of(conn, r).await?;
                let ids: Vec<i64> = s.iter().map(|x| x.id).collect();
                let m = step_materials::of_steps(conn, &ids).await?;
                (s, m)
            }
            None => (Vec::new(), Vec::new()),
        };
        let changes = differences(
            (&steps, &template_materials),
            (&have, &have_materials),
            target,
            &centers,
        );
        if !dry_run && !changes.is_empty() {
            let steps = &steps;
            let (sku, name) = (sku.clone(), name.clone());
            let outcome = conn
                .transaction::<_, Stop, _>(async move |c| {
                    let routing = match own {
                        Some(r) => r,
                        None => {
                            diesel::insert_into(routings::table)
                                .values((
                                    routings::product_id.eq(Some(id)),
                                    routings::code.eq(format!("RTG-{sku}")
                                        .chars()
                                        .take(SKU_MAX)
                                        .collect::<String>()),
                                    routings::name.eq(format!("Routing for {name}")
                                        .chars()
                                        .take(200)
                                        .collect::<String>()),
                                    routings::version.eq(1),
                                    routings::revision.eq("1.0"),
                                    routings::active.eq(true),
                                ))
                                .returning(routings::id)
                                .get_result(c)
                                .await?
                        }
                    };
                    copy_steps(c, steps, routing, target).await
                })
                .await;
            match outcome {
                Ok(()) => result.synced += 1,
                Err(_) => result.errors.push(format!(
                    "{}: sync failed for this variant",
                    items_sku(conn, id).await?
                )),
            }
        }
        result.variants.push(VariantSyncChange {
            variant_id: id,
            sku,
            changes,
        });
    }
    Ok(result)
}

async fn items_sku(conn: &mut AsyncPgConnection, id: i64) -> Result<String, Stop> {
    Ok(items::table.find(id).select(items::sku).first(conn).await?)
}

/// Deletes a variant with its BOMs and routings (a variant with stock or orders is refused:
/// deactivate it instead). The template stops being one when its last variant goes.
pub async fn delete(
    conn: &mut AsyncPgConnection,
    template_id: i64,
    variant_id: i64,
) -> Result<VariantDeleted, Stop> {
    template(conn, template_id, true).await?;
    let (sku, parent) = items::table
        .find(variant_id)
        .select((items::sku, items::parent_product_id))
        .for_update()
        .first::<(String, Option<i64>)>(conn)
        .await
        .optional()?
        .ok_or_else(|| not_found(variant_id))?;
    match parent {
        None => {
            return Err(refused(
                "variantId",
                "Product is not a variant (no parent_product_id)",
            ));
        }
        Some(p) if p != template_id => {
            return Err(refused("variantId", "Variant does not belong to this item"));
        }
        Some(_) => {}
    }
    let outcome = conn
        .transaction::<_, diesel::result::Error, _>(async move |c| {
            let routing_ids: Vec<i64> = routings::table
                .filter(routings::product_id.eq(variant_id))
                .select(routings::id)
                .load(c)
                .await?;
            let step_ids: Vec<i64> = routing_operations::table
                .filter(routing_operations::routing_id.eq_any(&routing_ids))
                .select(routing_operations::id)
                .load(c)
                .await?;
            diesel::delete(
                routing_operation_materials::table
                    .filter(routing_operation_materials::routing_operation_id.eq_any(&step_ids)),
            )
            .execute(c)
            .await?;
            diesel::delete(
                routing_operations::table.filter(routing_operations::id.eq_any(&step_ids)),
            )
            .execute(c)
            .await?;
            diesel::delete(routings::table.filter(routings::id.eq_any(&routing_ids)))
                .execute(c)
                .await?;
            let bom_ids: Vec<i64> = boms::table
                .filter(boms::product_id.eq(variant_id))
                .select(boms::id)
                .load(c)
                .await?;
            diesel::delete(bom_lines::table.filter(bom_lines::bom_id.eq_any(&bom_ids)))
                .execute(c)
                .await?;
            diesel::delete(boms::table.filter(boms::id.eq_any(&bom_ids)))
                .execute(c)
                .await?;
            diesel::delete(items::table.find(variant_id))
                .execute(c)
                .await?;
            Ok(())
        })
        .await;
    match outcome {
        Ok(()) => {}
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::ForeignKeyViolation,
            _,
        )) => {
            return Err(Stop::Failed(AppError::new(
                ErrorCode::Conflict,
                format!(
                    "Variant {sku} has stock, orders or history and cannot be deleted; deactivate it instead"
                ),
            )));
        }
        Err(e) => return Err(e.into()),
    }
    let remaining: i64 = items::table
        .filter(items::parent_product_id.eq(template_id))
        .count()
        .get_result(conn)
        .await?;
    if remaining == 0 {
        diesel::update(items::table.find(template_id))
            .set(items::is_template.eq(false))
            .execute(conn)
            .await?;
    }
    Ok(VariantDeleted {
        id: variant_id,
        sku,
        status: "deleted".into(),
        remaining_variants: remaining,
    })
}

/// Swaps an order's material for a variant of it (or back to the same item: nothing
/// changes), before any of it was consumed: the old item's reservation is given back and
/// the variant reserved instead, in one transaction with the order locked.
pub async fn swap_component(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    material_id: i64,
    new_component_id: i64,
    user: i64,
) -> Result<MaterialRow, Stop> {
    let order = model::lock(conn, order_id)
        .await?
        .ok_or_else(|| Stop::Failed(AppError::not_found("Production order not found")))?;
    if !matches!(
        order.status,
        OrderStatus::Draft | OrderStatus::Released | OrderStatus::InProgress | OrderStatus::OnHold
    ) {
        return Err(refused(
            "id",
            format!("Cannot swap a material of a {} order", order.status),
        ));
    }
    let m: MaterialRow = production_order_materials::table
        .find(material_id)
        .filter(production_order_materials::production_order_id.eq(order_id))
        .select(MaterialRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| {
            Stop::Failed(AppError::not_found(format!(
                "Material {material_id} not found on production order {order_id}"
            )))
        })?;
    if m.quantity_consumed.0 > BigDecimal::zero() {
        return Err(refused(
            "materialId",
            format!(
                "Cannot swap: {} {} of it was already consumed",
                m.quantity_consumed.0.normalized(),
                m.unit
            ),
        ));
    }
    if new_component_id == m.component_id {
        return Ok(m);
    }
    let parent: Option<(Option<i64>, bool)> = items::table
        .find(new_component_id)
        .select((items::parent_product_id, items::active))
        .first(conn)
        .await
        .optional()?;
    match parent {
        Some((Some(p), true)) if p == m.component_id => {}
        Some(_) => {
            return Err(refused(
                "newComponentId",
                format!(
                    "Product {new_component_id} is not an active variant of the material's product {}",
                    m.component_id
                ),
            ));
        }
        None => {
            return Err(Stop::refuse(
                "newComponentId",
                UserErrorCode::NotFound,
                format!("Product {new_component_id} not found"),
            ));
        }
    }
    let movement = |component: i64, quantity: BigDecimal| Movement {
        reference_type: Some(ReferenceType::ProductionOrder),
        reference_id: Some(order.id),
        notes: Some(format!(
            "Production order {}: material swapped for a variant",
            order.code
        )),
        created_by: Some(user),
        ..Movement::new(
            component,
            m.location_id,
            MovementKind::Consumption,
            quantity,
        )
    };
    if m.quantity_allocated.0 > BigDecimal::zero() {
        ledger::release(
            conn,
            &movement(m.component_id, m.quantity_allocated.0.clone()),
        )
        .await?;
    }
    let mut allocated = BigDecimal::zero();
    if matches!(
        order.status,
        OrderStatus::Released | OrderStatus::InProgress
    ) {
        let (reserved, _) = ledger::reserve(
            conn,
            &movement(new_component_id, m.quantity_required.0.clone()),
        )
        .await?;
        allocated = reserved;
    }
    Ok(
        diesel::update(production_order_materials::table.find(material_id))
            .set((
                production_order_materials::component_id.eq(new_component_id),
                production_order_materials::quantity_allocated.eq(allocated),
                production_order_materials::updated_at.eq(chrono::Utc::now()),
            ))
            .returning(MaterialRow::as_returning())
            .get_result(conn)
            .await?,
    )
}
