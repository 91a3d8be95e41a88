//! Material types and colours: the rows (also the GraphQL objects) and the queries.

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::materials::rules::{
    BED_TEMP_MAX, BED_TEMP_MIN, CODE_MAX, NAME_MAX, NOZZLE_TEMP_MAX, NOZZLE_TEMP_MIN,
};
use crate::platform::db::schema::{colors, material_types};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::{length, range};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::scalars::Timestamp;

/// A kind of material, e.g. `PLA_MATTE`.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = material_types, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "MaterialType")]
pub struct MaterialTypeRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique), e.g. `PLA_MATTE`.
    pub code: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Active.
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// Whether it must print in an enclosed printer (ABS, ASA, PC, nylon...); the scheduler
    /// checks it against the printer's capabilities.
    pub requires_enclosure: bool,
    /// The nozzle temperature it needs, in °C (100-500), when known.
    pub nozzle_temp_c: Option<i32>,
    /// The bed temperature it needs, in °C (0-200), when known.
    pub bed_temp_c: Option<i32>,
    /// Density in g/cm³ (grams from a length of filament), when known.
    pub density_g_cm3: Option<crate::platform::graphql::scalars::Decimal>,
    /// Filament diameter in mm (1.75 unless told).
    pub filament_diameter_mm: crate::platform::graphql::scalars::Decimal,
    /// Abrasive (carbon or glass filled): needs a hardened nozzle.
    pub is_abrasive: bool,
}

crate::input_forms! {
    table = material_types;
    /// A new material type.
    create MaterialTypeCreateInput;
    /// Changes to a material type: omitted fields keep their value, `null` clears a
    /// clearable one. The code is fixed once created (material items' SKUs carry it).
    update MaterialTypeUpdateInput;
    /// A material type's writable columns, checked by `rules::check_material_type`.
    form MaterialTypeForm;
    {
        /// Code (1-50 characters, unique; stored upper case), e.g. `PETG_CF`.
        [directive = length::apply(CODE_MAX)]
        @update[skip]
        code: required String,
        /// Name (1-255 characters).
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// Description.
        description: clearable String,
        /// Active (default true).
        active: optional bool,
        /// Whether it must print in an enclosed printer (default false).
        requires_enclosure: optional bool,
        /// The nozzle temperature it needs, in °C (100-500).
        [directive = range::apply(NOZZLE_TEMP_MIN, NOZZLE_TEMP_MAX)]
        nozzle_temp_c: clearable i32,
        /// The bed temperature it needs, in °C (0-200).
        [directive = range::apply(BED_TEMP_MIN, BED_TEMP_MAX)]
        bed_temp_c: clearable i32,
        /// Density in g/cm³ (more than 0, under 30).
        density_g_cm3: clearable Decimal,
        /// Filament diameter in mm (1.75 unless told; more than 0, under 5).
        filament_diameter_mm: optional Decimal,
        /// Abrasive (carbon or glass filled): needs a hardened nozzle (default false).
        is_abrasive: optional bool,
    }
}

/// The material type with this id, or a 404.
pub async fn find_material_type(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<MaterialTypeRow> {
    crate::platform::db::paging::find_or_404(
        conn,
        material_types::table
            .find(id)
            .select(MaterialTypeRow::as_select()),
        "Material type not found",
    )
    .await
}

/// Whether a material type has this code (codes are stored upper case).
pub async fn material_type_code_taken(conn: &mut AsyncPgConnection, code: &str) -> AppResult<bool> {
    Ok(material_types::table
        .filter(material_types::code.eq(code))
        .select(material_types::id)
        .first::<i64>(conn)
        .await
        .optional()?
        .is_some())
}

/// Inserts a checked material type.
pub async fn insert_material_type(
    conn: &mut AsyncPgConnection,
    form: &MaterialTypeForm,
) -> AppResult<MaterialTypeRow> {
    Ok(diesel::insert_into(material_types::table)
        .values(form)
        .returning(MaterialTypeRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a material type with a checked form (an empty change answers the row as it is).
pub async fn update_material_type(
    conn: &mut AsyncPgConnection,
    id: i64,
    form: &MaterialTypeForm,
) -> AppResult<MaterialTypeRow> {
    let result = diesel::update(material_types::table.find(id))
        .set(form)
        .returning(MaterialTypeRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("Material type not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => find_material_type(conn, id).await,
        other => Ok(other?),
    }
}

/// A colour materials come in.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = colors, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Color")]
pub struct ColorRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique), e.g. `CHARCOAL`.
    pub code: String,
    /// Name.
    pub name: String,
    /// `#RRGGBB`.
    pub hex_code: Option<String>,
    /// Active.
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// Every material type, by code.
pub async fn material_types(conn: &mut AsyncPgConnection) -> AppResult<Vec<MaterialTypeRow>> {
    Ok(material_types::table
        .order(material_types::code)
        .select(MaterialTypeRow::as_select())
        .load(conn)
        .await?)
}

/// Every colour, by code.
pub async fn colors(conn: &mut AsyncPgConnection) -> AppResult<Vec<ColorRow>> {
    Ok(colors::table
        .order(colors::code)
        .select(ColorRow::as_select())
        .load(conn)
        .await?)
}

/// A material type or colour code from a name: upper case, runs of anything but letters
/// and digits become one `_` (`PLA Matte` -> `PLA_MATTE`).
pub fn code_of(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_uppercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out.chars().take(50).collect()
}

#[cfg(test)]
mod tests {
    use super::code_of;

    #[test]
    fn codes_are_upper_case_with_underscores() {
        assert_eq!(code_of("PLA Matte"), "PLA_MATTE");
        assert_eq!(code_of(" pla_matte "), "PLA_MATTE");
        assert_eq!(code_of("Silk -- Gold!"), "SILK_GOLD");
    }
}
