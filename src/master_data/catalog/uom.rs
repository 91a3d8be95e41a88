//! Units of measure beyond the list (CONTRACT 6.6): the unit classes with their base units,
//! one unit by code, and converting a quantity between two units of the same class through
//! their factors to the class's base unit (`G` to `KG`: × 0.001).

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::master_data::catalog::graphql::UnitOfMeasure;
use crate::master_data::catalog::model::{self, UomRow};
use crate::platform::auth::Access;
use crate::platform::db::schema::units_of_measure;
use crate::platform::error::{AppError, AppResult, FieldError};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Decimal;

/// Decimal places a converted quantity keeps (the factors have ten).
const CONVERTED_SCALE: i64 = 10;

/// A class of units that convert into each other.
#[derive(Debug, Clone, SimpleObject)]
pub struct UnitClass {
    /// quantity, weight, length, time or volume.
    pub uom_class: String,
    /// The class's base unit (factor 1).
    pub base_unit: Option<String>,
    /// The codes of its units.
    pub units: Vec<String>,
}

/// A converted quantity.
#[derive(Debug, Clone, SimpleObject)]
pub struct UnitConversion {
    /// The quantity given.
    pub quantity: Decimal,
    /// Its unit.
    pub from_unit: String,
    /// The unit asked for.
    pub to_unit: String,
    /// The quantity in `toUnit`.
    pub converted_quantity: Decimal,
    /// What one `fromUnit` is in `toUnit`.
    pub factor: Decimal,
}

/// Groups units by class (input ordered by class).
pub fn classes(units: &[UomRow]) -> Vec<UnitClass> {
    let mut out: Vec<UnitClass> = Vec::new();
    for u in units {
        if out.last().is_none_or(|c| c.uom_class != u.uom_class) {
            out.push(UnitClass {
                uom_class: u.uom_class.clone(),
                base_unit: None,
                units: Vec::new(),
            });
        }
        if let Some(class) = out.last_mut() {
            if u.base_unit_code.is_none() {
                class.base_unit = Some(u.code.clone());
            }
            class.units.push(u.code.clone());
        }
    }
    out
}

/// `quantity` of `from` in `to`, or why not (units of different classes).
pub fn convert(
    quantity: &BigDecimal,
    from: &UomRow,
    to: &UomRow,
) -> Result<(BigDecimal, BigDecimal), String> {
    if from.uom_class != to.uom_class {
        return Err(format!(
            "Cannot convert {} ({}) to {} ({}): different unit classes",
            from.code, from.uom_class, to.code, to.uom_class
        ));
    }
    let factor = (&from.to_base_factor / &to.to_base_factor)
        .with_scale_round(CONVERTED_SCALE, RoundingMode::HalfEven)
        .normalized();
    let converted = (quantity * &from.to_base_factor / &to.to_base_factor)
        .with_scale_round(CONVERTED_SCALE, RoundingMode::HalfEven)
        .normalized();
    Ok((converted, factor))
}

/// `quantity` in unit `from` expressed in unit `to` (codes, any case), or why not (an unknown
/// unit, or units of different classes).
pub fn convert_codes(
    units: &[UomRow],
    quantity: &BigDecimal,
    from: &str,
    to: &str,
) -> Result<BigDecimal, String> {
    if from.eq_ignore_ascii_case(to) {
        return Ok(quantity.clone());
    }
    let unit = |code: &str| units.iter().find(|u| u.code.eq_ignore_ascii_case(code));
    match (unit(from), unit(to)) {
        (Some(f), Some(t)) => convert(quantity, f, t).map(|(q, _)| q),
        _ => Err(format!("Unit {from} cannot be converted to {to}")),
    }
}

async fn find(conn: &mut diesel_async::AsyncPgConnection, code: &str) -> AppResult<Option<UomRow>> {
    Ok(units_of_measure::table
        .filter(units_of_measure::code.eq(code.trim().to_uppercase()))
        .select(UomRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Unit of measure queries.
#[derive(Default)]
pub struct CatalogUomQuery;

#[Object]
impl CatalogUomQuery {
    /// The unit classes with their base unit and units (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn unit_classes(&self, ctx: &Context<'_>) -> AppResult<Vec<UnitClass>> {
        Ok(classes(
            &model::units(&mut *context::conn(ctx).await?).await?,
        ))
    }

    /// One unit by code, any case (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn unit_of_measure(&self, ctx: &Context<'_>, code: String) -> AppResult<UnitOfMeasure> {
        find(&mut *context::conn(ctx).await?, &code)
            .await?
            .map(UnitOfMeasure::from)
            .ok_or_else(|| AppError::not_found(format!("Unit '{code}' not found")))
    }

    /// A quantity converted between two units of the same class (any signed-in user);
    /// unknown units are a field error, units of different classes a bad request.
    #[graphql(guard = "Access::User")]
    async fn convert_units(
        &self,
        ctx: &Context<'_>,
        quantity: Decimal,
        from_unit: String,
        to_unit: String,
    ) -> AppResult<UnitConversion> {
        let mut conn = context::conn(ctx).await?;
        let from = find(&mut conn, &from_unit).await?;
        let to = find(&mut conn, &to_unit).await?;
        let mut unknown = Vec::new();
        if from.is_none() {
            unknown.push(FieldError::new(
                "fromUnit",
                format!("Unknown unit '{from_unit}'"),
            ));
        }
        if to.is_none() {
            unknown.push(FieldError::new(
                "toUnit",
                format!("Unknown unit '{to_unit}'"),
            ));
        }
        let (Some(from), Some(to)) = (from, to) else {
            return Err(AppError::validation(unknown));
        };
        let (converted, factor) =
            convert(&quantity.0, &from, &to).map_err(AppError::bad_request)?;
        Ok(UnitConversion {
            quantity,
            from_unit: from.code,
            to_unit: to.code,
            converted_quantity: Decimal(converted),
            factor: Decimal(factor),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn unit(code: &str, class: &str, factor: &str) -> UomRow {
        UomRow {
            id: 0,
            code: code.into(),
            name: code.into(),
            symbol: code.into(),
            uom_class: class.into(),
            base_unit_code: (factor != "1").then(|| "BASE".into()),
            to_base_factor: BigDecimal::from_str(factor).expect("factor"),
            active: true,
        }
    }

    #[test]
    fn conversions_go_through_the_base_unit() {
        let g = unit("G", "weight", "0.001");
        let kg = unit("KG", "weight", "1");
        let lb = unit("LB", "weight", "0.453592");
        let m = unit("M", "length", "1");
        let q = BigDecimal::from(1500);
        assert_eq!(
            convert(&q, &g, &kg).expect("same class").0,
            BigDecimal::from_str("1.5").expect("n")
        );
        assert_eq!(
            convert(&BigDecimal::from(1), &lb, &g)
                .expect("same class")
                .0,
            BigDecimal::from(453592) / BigDecimal::from(1000)
        );
        assert!(convert(&q, &g, &m).is_err());
        let c = classes(&[kg.clone(), g.clone(), m.clone()]);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].base_unit.as_deref(), Some("KG"));
    }
}
