//! Item rules: SKU generation and uniqueness, units, categories, the material defaults, and
//! the delete guard (CONTRACT 5.6).

use bigdecimal::{BigDecimal, Zero};
use diesel_async::AsyncPgConnection;

use crate::master_data::catalog::model::{self, ItemForm, ItemRow, ItemType};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The SKU prefix of generated SKUs by item type.
pub fn sku_prefix(item_type: ItemType) -> &'static str {
    match item_type {
        ItemType::FinishedGood => "FG",
        ItemType::Component => "COMP",
        ItemType::Supply => "SUP",
        ItemType::Service => "SRV",
        ItemType::Material => "MAT",
        ItemType::Consumable => "CON",
        ItemType::Packaging => "PKG",
    }
}

/// Checks and completes the values of a new or changed item. `existing` is the item being
/// updated. Returns the field errors (nothing is written when there are any).
pub async fn check(
    conn: &mut AsyncPgConnection,
    values: &mut ItemForm,
    existing: Option<&ItemRow>,
) -> AppResult<Vec<UserError>> {
    let mut errors = Vec::new();
    check_name(&mut errors, values, existing);

    // Materials default to grams, bought by the kilogram (CONTRACT 5.6).
    let item_type = values
        .item_type
        .or_else(|| existing.map(|e| e.item_type))
        .unwrap_or(ItemType::FinishedGood);
    if existing.is_none() && item_type == ItemType::Material {
        values.unit.get_or_insert_with(|| "G".into());
        values.purchase_uom.get_or_insert_with(|| "KG".into());
        values
            .purchase_factor
            .get_or_insert_with(|| Decimal(BigDecimal::from(1000)));
        values.is_raw_material = Some(true);
    }

    let units = model::units(conn).await?;
    for (field, value) in [
        ("unit", &mut values.unit),
        ("purchaseUom", &mut values.purchase_uom),
    ] {
        if let Some(code) = value {
            *code = code.trim().to_uppercase();
            if !units.iter().any(|u| u.code == *code && u.active) {
                errors.push(UserError::new(
                    field,
                    UserErrorCode::Invalid,
                    format!("Unknown unit of measure '{code}'"),
                ));
            }
        }
    }

    check_amounts(&mut errors, values);

    if let Some(Some(category)) = values.category_id {
        let all = model::categories(conn).await?;
        if !all.iter().any(|c| c.id == category) {
            errors.push(UserError::new(
                "categoryId",
                UserErrorCode::Invalid,
                format!("Category {category} does not exist"),
            ));
        }
    }

    use crate::master_data::catalog::rules::{DESCRIPTION_MAX, SKU_MAX, UPC_MAX, URL_MAX};
    for (name, field, max) in [
        ("upc", &mut values.upc, UPC_MAX),
        ("legacySku", &mut values.legacy_sku, SKU_MAX),
        ("description", &mut values.description, DESCRIPTION_MAX),
        ("imageUrl", &mut values.image_url, URL_MAX),
    ] {
        if let Some(Some(text)) = field {
            let trimmed = text.trim();
            if trimmed.chars().count() > max {
                errors.push(UserError::new(
                    name,
                    UserErrorCode::Invalid,
                    format!("String should have at most {max} characters"),
                ));
            }
            *field = Some((!trimmed.is_empty()).then(|| trimmed.to_string()));
        }
    }

    if !errors.is_empty() {
        return Ok(errors);
    }

    // The SKU last: generated only when everything else is valid, so a refused request
    // does not use up a number.
    check_sku(conn, values, existing, item_type).await
}

/// Trims the name and checks it: required on create, not empty, plain text, not too long.
fn check_name(errors: &mut Vec<UserError>, values: &mut ItemForm, existing: Option<&ItemRow>) {
    if let Some(name) = &mut values.name {
        *name = name.trim().to_string();
        if name.is_empty() {
            errors.push(UserError::new(
                "name",
                UserErrorCode::Invalid,
                "String should have at least 1 character",
            ));
        } else if let Some(error) = crate::platform::db::text::hidden_characters("name", name) {
            errors.push(error);
        } else if name.chars().count() > crate::master_data::catalog::rules::NAME_MAX {
            errors.push(UserError::new(
                "name",
                UserErrorCode::Invalid,
                format!(
                    "String should have at most {} characters",
                    crate::master_data::catalog::rules::NAME_MAX
                ),
            ));
        }
    } else if existing.is_none() {
        errors.push(UserError::new(
            "name",
            UserErrorCode::Invalid,
            "Field required",
        ));
    }
}

/// Checks the amounts: costs, prices, sizes and quantities not negative, the purchase
/// factor above 0, the lead time not negative.
fn check_amounts(errors: &mut Vec<UserError>, values: &ItemForm) {
    for (field, value) in [
        (
            "standardCost",
            values.standard_cost.as_ref().and_then(|v| v.as_ref()),
        ),
        (
            "sellingPrice",
            values.selling_price.as_ref().and_then(|v| v.as_ref()),
        ),
        (
            "weightOz",
            values.weight_oz.as_ref().and_then(|v| v.as_ref()),
        ),
        (
            "lengthIn",
            values.length_in.as_ref().and_then(|v| v.as_ref()),
        ),
        ("widthIn", values.width_in.as_ref().and_then(|v| v.as_ref())),
        (
            "heightIn",
            values.height_in.as_ref().and_then(|v| v.as_ref()),
        ),
        (
            "minOrderQty",
            values.min_order_qty.as_ref().and_then(|v| v.as_ref()),
        ),
        (
            "reorderPoint",
            values.reorder_point.as_ref().and_then(|v| v.as_ref()),
        ),
        (
            "reorderQty",
            values.reorder_qty.as_ref().and_then(|v| v.as_ref()),
        ),
        ("safetyStock", values.safety_stock.as_ref()),
    ] {
        if value.is_some_and(|v| v.0 < BigDecimal::zero()) {
            errors.push(UserError::new(
                field,
                UserErrorCode::Invalid,
                "Input should be greater than or equal to 0",
            ));
        }
    }
    if values
        .purchase_factor
        .as_ref()
        .is_some_and(|v| v.0 <= BigDecimal::zero())
    {
        errors.push(UserError::new(
            "purchaseFactor",
            UserErrorCode::Invalid,
            "Input should be greater than 0",
        ));
    }
    if values.lead_time_days.flatten().is_some_and(|d| d < 0) {
        errors.push(UserError::new(
            "leadTimeDays",
            UserErrorCode::Invalid,
            "Input should be greater than or equal to 0",
        ));
    }
}

/// Checks a given SKU (plain text, not too long, not another item's), or generates one for
/// a new item without one; a changed item may not blank its SKU.
async fn check_sku(
    conn: &mut AsyncPgConnection,
    values: &mut ItemForm,
    existing: Option<&ItemRow>,
    item_type: ItemType,
) -> AppResult<Vec<UserError>> {
    match values.sku.as_mut() {
        Some(sku) if !sku.trim().is_empty() => {
            *sku = sku.trim().to_uppercase();
            if let Some(error) = crate::platform::db::text::hidden_characters("sku", sku) {
                return Ok(vec![error]);
            }
            if sku.chars().count() > crate::master_data::catalog::rules::SKU_MAX {
                return Ok(vec![UserError::new(
                    "sku",
                    UserErrorCode::Invalid,
                    format!(
                        "String should have at most {} characters",
                        crate::master_data::catalog::rules::SKU_MAX
                    ),
                )]);
            }
            if let Some(other) = model::find_by_sku(conn, sku).await?
                && existing.is_none_or(|e| e.id != other.id)
            {
                return Ok(vec![UserError::new(
                    "sku",
                    UserErrorCode::Taken,
                    format!("SKU '{sku}' already exists"),
                )]);
            }
        }
        Some(_) if existing.is_some() => {
            return Ok(vec![UserError::new(
                "sku",
                UserErrorCode::Invalid,
                "String should have at least 1 character",
            )]);
        }
        _ if existing.is_none() => {
            values.sku = Some(model::next_sku(conn, sku_prefix(item_type)).await?);
        }
        _ => {}
    }
    Ok(Vec::new())
}

/// Turns a unique-index race (two creates of one SKU at once) into the same user error as
/// the check.
pub fn taken_on_conflict(
    result: AppResult<ItemRow>,
    sku: Option<&str>,
) -> AppResult<Result<ItemRow, Vec<UserError>>> {
    match result {
        Ok(row) => Ok(Ok(row)),
        Err(e) if e.code == crate::platform::error::ErrorCode::Conflict => {
            Ok(Err(vec![UserError::new(
                "sku",
                UserErrorCode::Taken,
                format!("SKU '{}' already exists", sku.unwrap_or_default()),
            )]))
        }
        Err(e) => Err(e),
    }
}

/// Soft-deletes an item unless something still uses it.
pub async fn delete(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Result<ItemRow, UserError>> {
    let item = model::find(conn, id)
        .await?
        .ok_or_else(|| AppError::not_found("Item not found"))?;
    let uses = model::usage(conn, id).await?;
    if !uses.is_empty() {
        return Ok(Err(UserError::general(
            UserErrorCode::NotAllowed,
            format!("Cannot delete item {}: {}", item.sku, uses.join("; ")),
        )));
    }
    let row = model::update(
        conn,
        id,
        &ItemForm {
            active: Some(false),
            ..Default::default()
        },
    )
    .await?;
    Ok(Ok(row))
}
