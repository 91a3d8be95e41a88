//! Material items (`POST /items/material`): one filament item per material type and
//! colour, checked like any new item (the catalog's rules), linked to its type and colour,
//! with its opening stock posted through the stock ledger and booked in the same
//! transaction. The REST route is declared with the items' (`crate::master_data::catalog::rest`).

use async_graphql::{Context, InputObject, Object, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::materials::model::{ColorRow, MaterialTypeRow, code_of};
use crate::ledgers::materials::stock_import::{Opening, main_location};
use crate::master_data::catalog::graphql::Item;
use crate::master_data::catalog::items;
use crate::master_data::catalog::model::{
    self, ItemForm, ItemRow, ItemType, ProcurementType, StockingPolicy,
};
use crate::platform::auth::Access;
use crate::platform::db::scale::{COST_SCALE, QUANTITY_SCALE};
use crate::platform::db::schema::{colors, material_colors, material_types};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

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
    let (material_type, color) = type_and_color(conn, &form).await?;
    check_unlinked(conn, &material_type, &color).await?;

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

/// Finds the form's active material type and colour by code and checks its amounts are not
/// negative; every problem is a field error.
async fn type_and_color(
    conn: &mut AsyncPgConnection,
    form: &MaterialItemForm,
) -> Result<(MaterialTypeRow, ColorRow), Stop> {
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
    Ok((material_type, color))
}

/// Refuses a type and colour that already have an item (one item per type and colour),
/// locking their link when there is one.
async fn check_unlinked(
    conn: &mut AsyncPgConnection,
    material_type: &MaterialTypeRow,
    color: &ColorRow,
) -> Result<(), Stop> {
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
    Ok(())
}

/// A filament material item to create for a material type and colour.
#[derive(Debug, Clone, InputObject)]
pub struct ItemMaterialInput {
    /// The material type's code, e.g. `PLA_MATTE` (any case).
    pub material_type_code: String,
    /// The colour's code, e.g. `CHARCOAL` (any case).
    pub color_code: String,
    /// Cost per kilogram; the standard cost per gram is this / 1000.
    pub cost_per_kg: Option<Decimal>,
    /// Selling price.
    pub selling_price: Option<Decimal>,
    /// Opening stock in kilograms (default 0), posted at MAIN as an opening balance.
    pub initial_qty_kg: Option<Decimal>,
    /// Category.
    pub category_id: Option<i64>,
}

/// The result of creating a material item.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemMaterialPayload {
    /// The new item.
    pub item: Option<Item>,
    /// Stock transactions its opening stock posted (0 or 1).
    pub inventory_transactions: i64,
    /// The journal entry that booked the opening stock, if any value moved.
    pub journal_entry_id: Option<i64>,
    /// Rule violations (nothing was written when present).
    pub user_errors: Vec<UserError>,
}

/// Material item mutations.
#[derive(Default)]
pub struct MaterialItemsMutation;

#[Object]
impl MaterialItemsMutation {
    /// Creates the filament item of a material type and colour (SKU `MAT-<TYPE>-<COLOR>`,
    /// stocked in G, bought in KG) with its opening stock, in one transaction.
    #[graphql(guard = "Access::User")]
    async fn item_material_create(
        &self,
        ctx: &Context<'_>,
        input: ItemMaterialInput,
    ) -> AppResult<ItemMaterialPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let form = MaterialItemForm {
            material_type_code: input.material_type_code,
            color_code: input.color_code,
            cost_per_kg: input.cost_per_kg.map(|d| d.0),
            selling_price: input.selling_price.map(|d| d.0),
            initial_qty_kg: input.initial_qty_kg.map(|d| d.0).unwrap_or_default(),
            category_id: input.category_id,
        };
        Ok(
            match crate::in_transaction!(ctx, |conn| create_material(conn, form, user)) {
                Ok(created) => ItemMaterialPayload {
                    item: Some(created.item.into()),
                    inventory_transactions: created.inventory_transactions,
                    journal_entry_id: created.journal_entry_id,
                    user_errors: vec![],
                },
                Err(user_errors) => ItemMaterialPayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }
}
