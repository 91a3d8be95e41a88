//! The material catalogue as FilaOps's pickers read it (staff): the material types with
//! what they ask of a printer, the colours each comes in (and adding one, for admins), the
//! material items a BOM or routing step can use with their stock, and a type's printing and
//! pricing facts. Reads never create anything.

use async_graphql::{Context, InputObject, Object, SimpleObject};
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::materials::model::{self, ColorRow, MaterialTypeRow, MaterialTypeUpdateInput};
use crate::ledgers::materials::rules;
use crate::platform::auth::Access;
use crate::platform::db::schema::{colors, items, material_colors, material_types};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// The material types.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialCatalog {
    /// Active types (every type when asked), by code.
    pub materials: Vec<MaterialTypeRow>,
}

/// A colour as pickers show it.
#[derive(Debug, Clone, SimpleObject)]
pub struct ColorChip {
    /// Code.
    pub code: String,
    /// Name.
    pub name: String,
    /// `#RRGGBB`.
    pub hex: Option<String>,
}

/// The colours of a material type.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialTypeColors {
    /// The type's code as asked.
    pub material_type: String,
    /// Its active colours, by name.
    pub colors: Vec<ColorChip>,
}

/// A material item a BOM line or routing step can consume.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialPick {
    /// The item.
    pub id: i64,
    /// Its SKU.
    pub sku: String,
    /// "Type - Colour".
    pub name: String,
    /// The type's description.
    pub description: Option<String>,
    /// The item's type.
    pub item_type: String,
    /// Bought.
    pub procurement_type: String,
    /// Stocking unit.
    pub unit: String,
    /// Cost per stocking unit (standard, else average, else last).
    pub standard_cost: Option<Decimal>,
    /// On hand anywhere.
    pub in_stock: bool,
    /// On hand less allocated, over every location.
    pub quantity_available: Decimal,
    /// Material type code.
    pub material_code: String,
    /// Colour code.
    pub color_code: String,
    /// Colour `#RRGGBB`.
    pub color_hex: Option<String>,
    /// Material type name.
    pub material_type_name: String,
    /// Colour name.
    pub color_name: String,
    /// Cost per kilogram (items stocked in g or kg; null otherwise or when unknown).
    pub cost_per_kg: Option<f64>,
    /// On hand in kilograms (items stocked in g or kg; 0 otherwise).
    pub quantity_kg: f64,
    /// The type's id.
    #[graphql(skip)]
    pub material_type_id: i64,
}

/// The material items.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialPicks {
    /// By type then colour.
    pub items: Vec<MaterialPick>,
}

/// A type's printing and pricing facts.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialPricing {
    /// Code.
    pub code: String,
    /// Name.
    pub name: String,
    /// g/cm³.
    pub density: Option<Decimal>,
    /// Average cost per kg of its items (from their costs per stocking unit), when known.
    pub base_price_per_kg: Option<Decimal>,
    /// Nozzle temperature, °C.
    pub nozzle_temp_c: Option<i32>,
    /// Bed temperature, °C.
    pub bed_temp_c: Option<i32>,
    /// Needs an enclosure.
    pub requires_enclosure: bool,
    /// Needs a hardened nozzle.
    pub is_abrasive: bool,
    /// Filament diameter, mm.
    pub filament_diameter: Decimal,
}

/// A colour added to a material type.
#[derive(Debug, Clone, Default, InputObject)]
pub struct MaterialColorInput {
    /// Name (1-255 characters).
    pub name: String,
    /// Code (default from the name, `Mystic Blue` -> `MYSTIC_BLUE`); an existing colour's
    /// code links that colour.
    pub code: Option<String>,
    /// `#RRGGBB`.
    pub hex_code: Option<String>,
}

/// What adding a colour did.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialColorAdded {
    /// The colour.
    pub color: ColorRow,
    /// The type's code.
    pub material_type_code: String,
    /// What happened.
    pub message: String,
}

/// The result of adding a colour.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MaterialColorPayload {
    /// What was done.
    pub added: Option<MaterialColorAdded>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(MaterialColorPayload {
    added: MaterialColorAdded
});

/// A material item as read: the item (id, SKU, name, type, procurement, unit, standard,
/// average and last cost), its material type (id, code, name, description) and its colour
/// (code, name, hex).
type PickRow = (
    (i64, String, String, String, String, String),
    (Option<BigDecimal>, Option<BigDecimal>, Option<BigDecimal>),
    (i64, String, String, Option<String>),
    (String, String, Option<String>),
);

/// What a quantity in `unit` is in kilograms (g and kg only).
fn in_kg(unit: &str, quantity: &BigDecimal) -> Option<BigDecimal> {
    match unit.to_uppercase().as_str() {
        "G" => Some(quantity / BigDecimal::from(1000)),
        "KG" => Some(quantity.clone()),
        _ => None,
    }
}

/// Every material item (a type in a colour) with its stock, by type then colour (two
/// statements: the items, their stock).
async fn picks(conn: &mut AsyncPgConnection) -> AppResult<Vec<MaterialPick>> {
    let rows: Vec<PickRow> = material_colors::table
        .inner_join(material_types::table)
        .inner_join(colors::table)
        .inner_join(items::table.on(items::id.nullable().eq(material_colors::item_id)))
        .filter(items::active)
        .filter(material_types::active)
        .order((material_types::code, colors::code))
        .select((
            (
                items::id,
                items::sku,
                items::name,
                items::item_type,
                items::procurement_type,
                items::unit,
            ),
            (items::standard_cost, items::average_cost, items::last_cost),
            (
                material_types::id,
                material_types::code,
                material_types::name,
                material_types::description,
            ),
            (colors::code, colors::name, colors::hex_code),
        ))
        .load(conn)
        .await?;
    let ids: Vec<i64> = rows.iter().map(|r| (r.0).0).collect();
    let stock = crate::ledgers::inventory::model::stock_of(conn, Some(&ids)).await?;
    Ok(rows
        .into_iter()
        .map(
            |(
                (id, sku, name, item_type, procurement, unit),
                (standard, average, last),
                (type_id, code, type_name, description),
                (color, color_name, hex),
            )| {
                let (on_hand, allocated) = stock.get(&id).cloned().unwrap_or_default();
                let cost = standard.or(average).or(last);
                // Per kg is the cost of a kilogram: 1000 g, or one kg.
                let cost_per_kg = cost
                    .as_ref()
                    .and_then(|c| match unit.to_uppercase().as_str() {
                        "G" => Some(c * BigDecimal::from(1000)),
                        "KG" => Some(c.clone()),
                        _ => None,
                    });
                MaterialPick {
                    id,
                    sku,
                    name,
                    description,
                    item_type,
                    procurement_type: procurement,
                    quantity_kg: in_kg(&unit, &on_hand)
                        .and_then(|q| q.to_f64())
                        .unwrap_or(0.0),
                    unit,
                    standard_cost: cost.map(Decimal),
                    in_stock: on_hand > BigDecimal::zero(),
                    quantity_available: Decimal(on_hand - allocated),
                    material_code: code,
                    color_code: color,
                    color_hex: hex,
                    material_type_name: type_name,
                    color_name,
                    cost_per_kg: cost_per_kg.and_then(|c| c.to_f64()),
                    material_type_id: type_id,
                }
            },
        )
        .collect())
}

/// A colour of a material type, for the options picker.
#[derive(Debug, Clone, SimpleObject)]
pub struct ColorOption {
    /// Colour code.
    pub code: String,
    /// Colour name.
    pub name: String,
    /// `#RRGGBB`.
    pub hex: Option<String>,
    /// On hand.
    pub in_stock: bool,
    /// On hand in kilograms.
    pub quantity_kg: f64,
}

/// A material type with its colours, for the options picker.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialOption {
    /// Type code.
    pub code: String,
    /// Type name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// The base material (the type's code).
    pub base_material: String,
    /// Needs an enclosed printer.
    pub requires_enclosure: bool,
    /// Its colours with a material item.
    pub colors: Vec<ColorOption>,
}

/// The material options.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialOptions {
    /// By type code.
    pub materials: Vec<MaterialOption>,
}

async fn type_by_code(conn: &mut AsyncPgConnection, code: &str) -> AppResult<MaterialTypeRow> {
    material_types::table
        .filter(crate::platform::db::text::code_matches(
            material_types::code,
            code,
        ))
        .select(MaterialTypeRow::as_select())
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| {
            AppError::not_found(format!(
                "Material type not found: {}",
                code.trim().to_uppercase()
            ))
        })
}

/// Adds a colour to a type: an existing colour (by code) is linked, else one is made.
async fn add_color(
    conn: &mut AsyncPgConnection,
    type_code: &str,
    input: MaterialColorInput,
) -> Result<MaterialColorAdded, Stop> {
    let ty = type_by_code(conn, type_code).await?;
    let name = input.name.trim().to_string();
    if name.is_empty() || name.chars().count() > rules::NAME_MAX {
        return Err(Stop::refuse(
            "name",
            UserErrorCode::Invalid,
            "A name of 1 to 255 characters is required",
        ));
    }
    let hex = input
        .hex_code
        .map(|h| h.trim().to_uppercase())
        .filter(|h| !h.is_empty());
    if let Some(h) = &hex
        && !(h.len() == 7 && h.starts_with('#') && h[1..].chars().all(|c| c.is_ascii_hexdigit()))
    {
        return Err(Stop::refuse(
            "hexCode",
            UserErrorCode::Invalid,
            "Use #RRGGBB",
        ));
    }
    let code = input
        .code
        .map(|c| model::code_of(&c))
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| model::code_of(&name));
    if code.chars().count() > 50 {
        return Err(Stop::refuse(
            "code",
            UserErrorCode::Invalid,
            "At most 50 characters",
        ));
    }
    let existing: Option<ColorRow> = colors::table
        .filter(colors::code.eq(&code))
        .select(ColorRow::as_select())
        .first(conn)
        .await
        .optional()?;
    let color = match existing {
        Some(c) => c,
        None => {
            diesel::insert_into(colors::table)
                .values((
                    colors::code.eq(&code),
                    colors::name.eq(&name),
                    colors::hex_code.eq(&hex),
                ))
                .returning(ColorRow::as_returning())
                .get_result(conn)
                .await?
        }
    };
    let linked: bool = diesel::select(diesel::dsl::exists(
        material_colors::table
            .filter(material_colors::material_type_id.eq(ty.id))
            .filter(material_colors::color_id.eq(color.id)),
    ))
    .get_result(conn)
    .await?;
    if linked {
        return Err(Stop::refuse(
            "code",
            UserErrorCode::Taken,
            format!("Color '{}' is already linked to {}", color.name, ty.name),
        ));
    }
    diesel::insert_into(material_colors::table)
        .values((
            material_colors::material_type_id.eq(ty.id),
            material_colors::color_id.eq(color.id),
        ))
        .execute(conn)
        .await?;
    Ok(MaterialColorAdded {
        message: format!("Color '{}' linked to {}", color.name, ty.name),
        material_type_code: ty.code,
        color,
    })
}

/// The material catalogue's queries (staff).
#[derive(Default)]
pub struct MaterialCatalogueQuery;

#[Object]
impl MaterialCatalogueQuery {
    /// Material types, by code (active ones unless told).
    #[graphql(guard = "Access::User")]
    async fn material_catalog(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include inactive types.", default = false)] include_inactive: bool,
    ) -> AppResult<MaterialCatalog> {
        let all = model::material_types(&mut *context::conn(ctx).await?).await?;
        Ok(MaterialCatalog {
            materials: all
                .into_iter()
                .filter(|t| include_inactive || t.active)
                .collect(),
        })
    }

    /// The active colours of a material type (code, any case).
    #[graphql(guard = "Access::User")]
    async fn material_type_colors(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material type's code.")] code: String,
    ) -> AppResult<MaterialTypeColors> {
        let mut conn = context::conn(ctx).await?;
        let ty = type_by_code(&mut conn, &code).await?;
        let rows: Vec<ColorRow> = colors::table
            .inner_join(material_colors::table)
            .filter(material_colors::material_type_id.eq(ty.id))
            .filter(material_colors::active)
            .filter(colors::active)
            .order(colors::name)
            .select(ColorRow::as_select())
            .distinct()
            .load(&mut *conn)
            .await?;
        Ok(MaterialTypeColors {
            material_type: code,
            colors: rows
                .into_iter()
                .map(|c| ColorChip {
                    code: c.code,
                    name: c.name,
                    hex: c.hex_code,
                })
                .collect(),
        })
    }

    /// The material items (a type in a colour) with their stock, by type then colour.
    #[graphql(guard = "Access::User")]
    async fn materials_for_bom(&self, ctx: &Context<'_>) -> AppResult<MaterialPicks> {
        Ok(MaterialPicks {
            items: picks(&mut *context::conn(ctx).await?).await?,
        })
    }

    /// The material items a sales order line can name (FilaOps's `for-order`), by type then
    /// colour; only those in stock when asked.
    #[graphql(guard = "Access::User")]
    async fn materials_for_order(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only materials on hand.", default = false)] in_stock_only: bool,
    ) -> AppResult<MaterialPicks> {
        let mut items = picks(&mut *context::conn(ctx).await?).await?;
        items.retain(|p| p.in_stock || !in_stock_only);
        Ok(MaterialPicks { items })
    }

    /// The active material types with their colours and stock (FilaOps's `options`), types
    /// without a material item left out.
    #[graphql(guard = "Access::User")]
    async fn material_options(&self, ctx: &Context<'_>) -> AppResult<MaterialOptions> {
        let mut conn = context::conn(ctx).await?;
        let all = picks(&mut conn).await?;
        let types: Vec<MaterialTypeRow> = material_types::table
            .filter(material_types::active)
            .order(material_types::code)
            .select(MaterialTypeRow::as_select())
            .load(&mut *conn)
            .await?;
        Ok(MaterialOptions {
            materials: types
                .into_iter()
                .filter_map(|t| {
                    let colors: Vec<ColorOption> = all
                        .iter()
                        .filter(|p| p.material_type_id == t.id)
                        .map(|p| ColorOption {
                            code: p.color_code.clone(),
                            name: p.color_name.clone(),
                            hex: p.color_hex.clone(),
                            in_stock: p.in_stock,
                            quantity_kg: p.quantity_kg,
                        })
                        .collect();
                    (!colors.is_empty()).then(|| MaterialOption {
                        code: t.code.clone(),
                        name: t.name.clone(),
                        description: t.description.clone(),
                        base_material: t.code,
                        requires_enclosure: t.requires_enclosure,
                        colors,
                    })
                })
                .collect(),
        })
    }

    /// A material type's printing and pricing facts (code, any case).
    #[graphql(guard = "Access::User")]
    async fn material_pricing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material type's code.")] code: String,
    ) -> AppResult<MaterialPricing> {
        let mut conn = context::conn(ctx).await?;
        let ty = type_by_code(&mut conn, &code).await?;
        let costs: Vec<(String, Option<BigDecimal>, Option<BigDecimal>)> = items::table
            .inner_join(
                material_colors::table.on(material_colors::item_id.eq(items::id.nullable())),
            )
            .filter(material_colors::material_type_id.eq(ty.id))
            .select((items::unit, items::standard_cost, items::average_cost))
            .load(&mut *conn)
            .await?;
        let per_kg: Vec<BigDecimal> = costs
            .into_iter()
            .filter_map(|(unit, standard, average)| {
                let cost = standard.or(average)?;
                match unit.to_uppercase().as_str() {
                    "G" => Some(cost * BigDecimal::from(1000)),
                    "KG" => Some(cost),
                    _ => None,
                }
            })
            .collect();
        let base = (!per_kg.is_empty()).then(|| {
            let n = BigDecimal::from(per_kg.len() as i64);
            Decimal(
                (per_kg.into_iter().sum::<BigDecimal>() / n)
                    .with_scale_round(2, bigdecimal::RoundingMode::HalfUp),
            )
        });
        Ok(MaterialPricing {
            code: ty.code,
            name: ty.name,
            density: ty.density_g_cm3,
            base_price_per_kg: base,
            nozzle_temp_c: ty.nozzle_temp_c,
            bed_temp_c: ty.bed_temp_c,
            requires_enclosure: ty.requires_enclosure,
            is_abrasive: ty.is_abrasive,
            filament_diameter: ty.filament_diameter_mm,
        })
    }
}

/// The material catalogue's changes (admins).
#[derive(Default)]
pub struct MaterialCatalogueMutation;

#[Object]
impl MaterialCatalogueMutation {
    /// Adds a colour to a material type (an existing colour is linked).
    #[graphql(guard = "Access::Admin")]
    async fn material_color_add(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material type's code.")] material_type_code: String,
        input: MaterialColorInput,
    ) -> AppResult<MaterialColorPayload> {
        Ok(crate::in_transaction!(ctx, |conn| add_color(conn, &material_type_code, input)).into())
    }

    /// Changes a material type found by its code (any case).
    #[graphql(guard = "Access::Admin")]
    async fn material_type_update_by_code(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material type's code.")] code: String,
        input: MaterialTypeUpdateInput,
    ) -> AppResult<crate::ledgers::materials::graphql::MaterialTypePayload> {
        let id = type_by_code(&mut *context::conn(ctx).await?, &code)
            .await?
            .id;
        let form = input.into();
        Ok(
            crate::in_transaction!(ctx, |conn| rules::save_material_type(conn, Some(id), form))
                .into(),
        )
    }
}
