//! Material types and colours: the rows (also the GraphQL objects) and the queries.

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::{colors, material_types};
use crate::platform::error::AppResult;
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
