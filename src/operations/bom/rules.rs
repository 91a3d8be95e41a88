//! BOM rules (CONTRACT 5.7, DOMAIN "BOM"): one active BOM per product (activating one
//! deactivates the others), versions numbered per product, lines with a positive quantity in a
//! unit of the component's class, scrap under 100 %, no product inside its own structure
//! (checked on every structural change under one lock), copies, recalculated costs.

use bigdecimal::{BigDecimal, Zero};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::check_quantity;
use crate::operations::bom::model::{self, BomForm, BomLineForm, BomLineRow, BomRow};
use crate::operations::bom::tree::Tree;
use crate::platform::db::text;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest code.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 200;
/// Longest revision label.
pub const REVISION_MAX: usize = 20;
/// Longest notes.
pub const NOTES_MAX: usize = 5_000;
/// Most lines on one BOM.
pub const MAX_LINES: usize = 500;
/// Largest scrap factor (exclusive), in percent.
pub const SCRAP_LIMIT: i32 = 100;

fn invalid(field: &str, message: impl Into<String>) -> UserError {
    UserError::new(field, UserErrorCode::Invalid, message)
}

/// Serialises structural BOM changes: two saves that each add half of a cycle would
/// otherwise both pass their check. Held until the transaction ends.
pub async fn lock_structure(conn: &mut AsyncPgConnection) -> Result<(), Stop> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext('strata.boms.structure'))")
        .execute(conn)
        .await?;
    Ok(())
}

/// Checks and normalises a BOM header (`creating`: the product is required).
pub fn check_bom(form: &mut BomForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    if creating && form.product_id.is_none() {
        errors.push(invalid("productId", "Field required"));
    }
    if form.code.is_some() {
        text::required_code(&mut errors, "code", &mut form.code, false, CODE_MAX);
    }
    if form.name.is_some() {
        text::required(&mut errors, "name", &mut form.name, false, NAME_MAX);
    }
    if form.version.is_some_and(|v| v < 1) {
        errors.push(invalid(
            "version",
            "Input should be greater than or equal to 1",
        ));
    }
    text::clearable(&mut errors, "revision", &mut form.revision, REVISION_MAX);
    text::clearable(&mut errors, "notes", &mut form.notes, NOTES_MAX);
    if let Some(Some(minutes)) = &form.assembly_time_minutes {
        if minutes.0 < BigDecimal::zero() {
            errors.push(invalid(
                "assemblyTimeMinutes",
                "Input should be greater than or equal to 0",
            ));
        }
        check_scale(&mut errors, "assemblyTimeMinutes", &minutes.0, 2);
    }
    if let Some(cost) = &form.process_cost {
        if cost.0 < BigDecimal::zero() {
            errors.push(invalid(
                "processCost",
                "Input should be greater than or equal to 0",
            ));
        }
        check_quantity(&mut errors, "processCost", &cost.0);
    }
    errors
}

fn check_scale(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal, places: i64) {
    let (_, scale) = value.normalized().as_bigint_and_exponent();
    if scale > places {
        errors.push(invalid(
            field,
            format!("Use at most {places} decimal places"),
        ));
    }
}

/// Checks and normalises a line; `field` prefixes the field names (`lines.2.` for the
/// third line of a create).
pub fn check_line(form: &mut BomLineForm, creating: bool, field: &str) -> Vec<UserError> {
    let mut errors = Vec::new();
    let at = |name: &str| format!("{field}{name}");
    if creating && form.component_id.is_none() {
        errors.push(invalid(&at("componentId"), "Field required"));
    }
    match &form.quantity {
        Some(q) => {
            if q.0 <= BigDecimal::zero() {
                errors.push(invalid(&at("quantity"), "Input should be greater than 0"));
            }
            check_quantity(&mut errors, &at("quantity"), &q.0);
        }
        None if creating => errors.push(invalid(&at("quantity"), "Field required")),
        None => {}
    }
    if let Some(unit) = form.unit.as_mut() {
        *unit = unit.trim().to_ascii_uppercase();
        if unit.is_empty() {
            form.unit = None;
        }
    }
    if let Some(scrap) = &form.scrap_factor {
        let limit = BigDecimal::from(SCRAP_LIMIT);
        if scrap.0 < BigDecimal::zero() || scrap.0 >= limit {
            errors.push(invalid(
                &at("scrapFactor"),
                "Scrap factor is a percentage from 0 to under 100",
            ));
        }
        check_scale(&mut errors, &at("scrapFactor"), &scrap.0, 2);
    }
    if form.sequence.is_some_and(|s| s < 0) {
        errors.push(invalid(
            &at("sequence"),
            "Input should be greater than or equal to 0",
        ));
    }
    text::clearable(&mut errors, &at("notes"), &mut form.notes, NOTES_MAX);
    errors
}

/// Fills each line's unit from its component and checks the component exists, is active,
/// is not the product, and the unit converts to its stocking unit: one query for every
/// component, and the units read once at most. `field(i)` prefixes line `i`'s field names.
async fn settle_lines(
    conn: &mut AsyncPgConnection,
    lines: &mut [BomLineForm],
    product_id: i64,
    field: impl Fn(usize) -> String,
) -> Result<(), Stop> {
    let ids: Vec<i64> = lines.iter().filter_map(|l| l.component_id).collect();
    let parts: std::collections::HashMap<i64, model::Part> = model::parts(conn, &ids)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let mut units: Option<Vec<crate::master_data::catalog::model::UomRow>> = None;
    for (i, form) in lines.iter_mut().enumerate() {
        let Some(component_id) = form.component_id else {
            continue;
        };
        let at = |name: &str| format!("{}{name}", field(i));
        if component_id == product_id {
            return Err(Stop::refuse(
                &at("componentId"),
                UserErrorCode::NotAllowed,
                "A product cannot be a component of its own BOM",
            ));
        }
        let Some(part) = parts.get(&component_id) else {
            return Err(Stop::refuse(
                &at("componentId"),
                UserErrorCode::NotFound,
                format!("Component {component_id} not found"),
            ));
        };
        if !part.active {
            return Err(Stop::refuse(
                &at("componentId"),
                UserErrorCode::NotAllowed,
                format!("Component {} is inactive", part.sku),
            ));
        }
        let unit = form.unit.get_or_insert_with(|| part.unit.clone()).clone();
        if unit.eq_ignore_ascii_case(&part.unit) {
            continue;
        }
        if units.is_none() {
            units = Some(crate::master_data::catalog::model::units(conn).await?);
        }
        let all = units.as_deref().unwrap_or_default();
        let find = |code: &str| all.iter().find(|u| u.code.eq_ignore_ascii_case(code));
        let ok = match (find(&unit), find(&part.unit)) {
            (Some(from), Some(to)) => {
                crate::master_data::catalog::uom::convert(&BigDecimal::from(1), from, to).is_ok()
            }
            _ => false,
        };
        if !ok {
            return Err(Stop::refuse(
                &at("unit"),
                UserErrorCode::Invalid,
                format!(
                    "Unit {unit} cannot be converted to {}'s stocking unit {}",
                    part.sku, part.unit
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses the change when the BOM now holds its product somewhere below it.
async fn refuse_cycles(conn: &mut AsyncPgConnection, bom: &BomRow) -> Result<(), Stop> {
    let tree = Tree::load(conn, vec![bom.clone()]).await?;
    if let Err(cycle) = tree.cost(bom.id) {
        return Err(Stop::refuse(
            "componentId",
            UserErrorCode::NotAllowed,
            cycle.message(),
        ));
    }
    Ok(())
}

async fn product_sku(
    conn: &mut AsyncPgConnection,
    product_id: i64,
) -> Result<(String, String), Stop> {
    let parts = model::parts(conn, &[product_id]).await?;
    match <[_]>::first(&parts) {
        Some(p) => Ok((p.sku.clone(), p.name.clone())),
        None => Err(Stop::refuse(
            "productId",
            UserErrorCode::NotFound,
            format!("Product {product_id} not found"),
        )),
    }
}

/// Writes the recalculated component cost of a BOM.
async fn store_cost(conn: &mut AsyncPgConnection, bom: BomRow) -> Result<BomRow, Stop> {
    let tree = Tree::load(conn, vec![bom.clone()]).await?;
    let cost = tree
        .material_cost(bom.id)
        .map_err(|c| Stop::refuse("componentId", UserErrorCode::NotAllowed, c.message()))?;
    Ok(model::set_material_cost(conn, bom.id, &cost).await?)
}

/// Creates a BOM with its lines in the caller's transaction.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut form: BomForm,
    mut lines: Vec<BomLineForm>,
) -> Result<BomRow, Stop> {
    let mut errors = check_bom(&mut form, true);
    if lines.len() > MAX_LINES {
        errors.push(invalid(
            "lines",
            format!("A BOM holds at most {MAX_LINES} lines"),
        ));
    }
    for (i, line) in lines.iter_mut().enumerate() {
        errors.extend(check_line(line, true, &format!("lines.{i}.")));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let Some(product_id) = form.product_id else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::Invalid,
            "Field required",
        ));
    };
    lock_structure(conn).await?;
    let (sku, name) = product_sku(conn, product_id).await?;
    model::lock_product(conn, product_id).await?;
    let version = match form.version {
        Some(v) => v,
        None => model::highest_version(conn, product_id).await? + 1,
    };
    form.version = Some(version);
    form.code
        .get_or_insert_with(|| text::normalize_code(&format!("BOM-{sku}-V{version}")));
    form.name.get_or_insert(name);
    if model::version_exists(conn, product_id, version).await? {
        return Err(Stop::refuse(
            "version",
            UserErrorCode::Taken,
            format!("{sku} already has a BOM version {version}"),
        ));
    }
    if form.active.unwrap_or(true) {
        model::deactivate_others(conn, product_id, 0).await?;
    }
    let bom = model::insert(conn, &form).await?;
    settle_lines(conn, &mut lines, product_id, |i| format!("lines.{i}.")).await?;
    for (i, line) in lines.iter_mut().enumerate() {
        line.sequence.get_or_insert(10 * (i as i32 + 1));
    }
    model::insert_lines(conn, bom.id, &lines).await?;
    refuse_cycles(conn, &bom).await?;
    store_cost(conn, bom).await
}

/// Changes a BOM's header; activating it deactivates the product's other versions (and is
/// refused when its structure would then hold its own product).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut form: BomForm,
) -> Result<BomRow, Stop> {
    // The product of a BOM never changes: a new product gets a copy.
    if form.product_id.is_some() {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotAllowed,
            "A BOM's product cannot change; copy the BOM to the other product instead",
        ));
    }
    let errors = check_bom(&mut form, false);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    lock_structure(conn).await?;
    let existing = model::find(conn, id).await?;
    model::lock_product(conn, existing.product_id).await?;
    if let Some(version) = form.version
        && version != existing.version
        && model::version_exists(conn, existing.product_id, version).await?
    {
        return Err(Stop::refuse(
            "version",
            UserErrorCode::Taken,
            format!("This product already has a BOM version {version}"),
        ));
    }
    if form.active == Some(true) && !existing.active {
        model::deactivate_others(conn, existing.product_id, id).await?;
    }
    let bom = model::update(conn, id, &form).await?;
    if bom.active && !existing.active {
        refuse_cycles(conn, &bom).await?;
    }
    if form.process_cost.is_some() {
        return store_cost(conn, bom).await;
    }
    Ok(bom)
}

/// Adds a line to a BOM.
pub async fn add_line(
    conn: &mut AsyncPgConnection,
    bom_id: i64,
    mut form: BomLineForm,
) -> Result<BomLineRow, Stop> {
    let errors = check_line(&mut form, true, "");
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    lock_structure(conn).await?;
    let bom = model::find(conn, bom_id).await?;
    if model::lines_of(conn, &[bom_id]).await?.len() >= MAX_LINES {
        return Err(Stop::refuse(
            "lines",
            UserErrorCode::NotAllowed,
            format!("A BOM holds at most {MAX_LINES} lines"),
        ));
    }
    settle_lines(
        conn,
        std::slice::from_mut(&mut form),
        bom.product_id,
        |_| String::new(),
    )
    .await?;
    if form.sequence.is_none() {
        form.sequence = Some(model::highest_sequence(conn, bom_id).await? + 10);
    }
    let mut rows = model::insert_lines(conn, bom_id, std::slice::from_ref(&form)).await?;
    refuse_cycles(conn, &bom).await?;
    model::touch(conn, bom_id).await?;
    store_cost(conn, bom).await?;
    rows.pop().ok_or_else(|| {
        Stop::Failed(crate::platform::error::AppError::internal(
            "line insert returned nothing",
        ))
    })
}

/// Changes a line of a BOM.
pub async fn update_line(
    conn: &mut AsyncPgConnection,
    bom_id: i64,
    line_id: i64,
    mut form: BomLineForm,
) -> Result<BomLineRow, Stop> {
    let errors = check_line(&mut form, false, "");
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    lock_structure(conn).await?;
    let bom = model::find(conn, bom_id).await?;
    let existing = model::find_line(conn, bom_id, line_id).await?;
    if form.component_id.is_some() || form.unit.is_some() {
        // The unit is checked against the component the line will have.
        form.component_id.get_or_insert(existing.component_id);
        if form.unit.is_none() && form.component_id == Some(existing.component_id) {
            form.unit = Some(existing.unit.clone());
        }
        settle_lines(
            conn,
            std::slice::from_mut(&mut form),
            bom.product_id,
            |_| String::new(),
        )
        .await?;
    }
    let row = model::update_line(conn, line_id, &form).await?;
    refuse_cycles(conn, &bom).await?;
    model::touch(conn, bom_id).await?;
    store_cost(conn, bom).await?;
    Ok(row)
}

/// Removes a line from a BOM.
pub async fn delete_line(
    conn: &mut AsyncPgConnection,
    bom_id: i64,
    line_id: i64,
) -> Result<BomLineRow, Stop> {
    lock_structure(conn).await?;
    let bom = model::find(conn, bom_id).await?;
    let line = model::find_line(conn, bom_id, line_id).await?;
    model::delete_line(conn, line_id).await?;
    model::touch(conn, bom_id).await?;
    store_cost(conn, bom).await?;
    Ok(line)
}

/// Copies a BOM (with its lines unless `include_lines` is false) as the next version of
/// its product or of `target_product_id`; the copy is inactive unless the target has no
/// active BOM.
pub async fn copy(
    conn: &mut AsyncPgConnection,
    id: i64,
    target_product_id: Option<i64>,
    include_lines: bool,
) -> Result<BomRow, Stop> {
    lock_structure(conn).await?;
    let source = model::find(conn, id).await?;
    let product_id = target_product_id.unwrap_or(source.product_id);
    let (sku, name) = product_sku(conn, product_id).await?;
    model::lock_product(conn, product_id).await?;
    let version = model::highest_version(conn, product_id).await? + 1;
    let has_active = !model::active_of(conn, &[product_id]).await?.is_empty();
    let form = BomForm {
        product_id: Some(product_id),
        code: Some(text::normalize_code(&format!("BOM-{sku}-V{version}"))),
        name: Some(if product_id == source.product_id {
            source.name.clone()
        } else {
            name
        }),
        version: Some(version),
        revision: Some(source.revision.clone()),
        active: Some(!has_active),
        assembly_time_minutes: Some(source.assembly_time_minutes.clone()),
        effective_date: Some(None),
        notes: Some(source.notes.clone()),
        process_cost: Some(source.process_cost.clone()),
    };
    let bom = model::insert(conn, &form).await?;
    if include_lines {
        let lines: Vec<BomLineForm> = model::lines_of(conn, &[id])
            .await?
            .into_iter()
            .map(|l| BomLineForm {
                component_id: Some(l.component_id),
                quantity: Some(l.quantity),
                unit: Some(l.unit),
                sequence: Some(l.sequence),
                consume_stage: Some(l.consume_stage),
                is_cost_only: Some(l.is_cost_only),
                scrap_factor: Some(l.scrap_factor),
                notes: Some(l.notes),
            })
            .collect();
        if lines.iter().any(|l| l.component_id == Some(product_id)) {
            return Err(Stop::refuse(
                "targetProductId",
                UserErrorCode::NotAllowed,
                format!("{sku} is a component of this BOM: it cannot be its product"),
            ));
        }
        model::insert_lines(conn, bom.id, &lines).await?;
        refuse_cycles(conn, &bom).await?;
    }
    store_cost(conn, bom).await
}

/// Recomputes and stores a BOM's component cost (multi-level roll-up).
pub async fn recalculate(conn: &mut AsyncPgConnection, id: i64) -> Result<BomRow, Stop> {
    let bom = model::find(conn, id).await?;
    store_cost(conn, bom).await
}

/// Deletes a BOM and its lines.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<BomRow, Stop> {
    lock_structure(conn).await?;
    let bom = model::find(conn, id).await?;
    model::delete(conn, id).await?;
    Ok(bom)
}
