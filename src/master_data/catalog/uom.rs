//! Units of measure beyond the list (CONTRACT 6.6): the unit classes with their base units,
//! one unit by code, and converting a quantity between two units of the same class through
//! their factors to the class's base unit (`G` to `KG`: × 0.001).

use async_graphql::{Context, InputObject, Object, SimpleObject};
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
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

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

/// The unit classes (the database allows these).
pub const UNIT_CLASSES: &[&str] = &["quantity", "weight", "length", "time", "volume"];
/// Longest unit code.
pub const UNIT_CODE_MAX: usize = 10;
/// Longest unit name.
pub const UNIT_NAME_MAX: usize = 50;
/// Longest symbol.
pub const UNIT_SYMBOL_MAX: usize = 10;
/// Longest class name.
pub const UNIT_CLASS_MAX: usize = 20;

/// A new unit, or changes to one (the code and class are fixed once made).
#[derive(Debug, Clone, Default, InputObject)]
pub struct UnitOfMeasureInput {
    /// Code (1-10 characters, stored upper case; unique). Required on create.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(UNIT_CODE_MAX))]
    pub code: Option<String>,
    /// Name (1-50 characters). Required on create.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(UNIT_NAME_MAX))]
    pub name: Option<String>,
    /// Symbol (default the code).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(UNIT_SYMBOL_MAX))]
    pub symbol: Option<String>,
    /// Class: quantity, weight, length, time or volume (any case). Required on create.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(UNIT_CLASS_MAX))]
    pub uom_class: Option<String>,
    /// How many of `baseUnitCode` one of this unit is (default 1; more than 0).
    pub to_base_factor: Option<Decimal>,
    /// The unit the factor is in: any unit of the class (stored against the class's base).
    /// Without it the factor is to the class's base unit; a unit of a new class is its base.
    pub base_unit_code: Option<String>,
    /// Active.
    pub active: Option<bool>,
}

/// Creates (`code` is `None`) or changes a unit, keeping conversions sound: one base unit
/// per class (factor 1), every other unit's factor to it more than zero.
pub async fn save_unit(
    conn: &mut diesel_async::AsyncPgConnection,
    code: Option<&str>,
    mut input: UnitOfMeasureInput,
) -> Result<UomRow, Stop> {
    use crate::platform::db::text::required;
    let creating = code.is_none();
    let mut errors: Vec<UserError> = Vec::new();
    if creating {
        required(&mut errors, "code", &mut input.code, true, UNIT_CODE_MAX);
        required(
            &mut errors,
            "uomClass",
            &mut input.uom_class,
            true,
            UNIT_CLASS_MAX,
        );
    }
    required(
        &mut errors,
        "name",
        &mut input.name,
        creating,
        UNIT_NAME_MAX,
    );
    required(
        &mut errors,
        "symbol",
        &mut input.symbol,
        false,
        UNIT_SYMBOL_MAX,
    );
    if input.to_base_factor.as_ref().is_some_and(|f| f.0 <= 0) {
        errors.push(invalid("toBaseFactor", "Input should be greater than 0"));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let units = model::units(conn).await?;
    let Some(code) = code else {
        let code = input.code.unwrap_or_default().to_uppercase();
        let class = input.uom_class.unwrap_or_default().to_lowercase();
        if !UNIT_CLASSES.contains(&class.as_str()) {
            return Err(Stop::refuse(
                "uomClass",
                UserErrorCode::Invalid,
                format!("Unit class must be one of {}", UNIT_CLASSES.join(", ")),
            ));
        }
        if units.iter().any(|u| u.code.eq_ignore_ascii_case(&code)) {
            return Err(Stop::refuse(
                "code",
                UserErrorCode::Taken,
                format!("Unit with code '{code}' already exists"),
            ));
        }
        let base = units
            .iter()
            .find(|u| u.uom_class == class && u.base_unit_code.is_none());
        let factor = input
            .to_base_factor
            .map(|f| f.0)
            .unwrap_or_else(|| BigDecimal::from(1));
        let (base_code, factor) = match (&input.base_unit_code, base) {
            (Some(named), _) => {
                let Some(unit) = units.iter().find(|u| u.code.eq_ignore_ascii_case(named)) else {
                    return Err(Stop::refuse(
                        "baseUnitCode",
                        UserErrorCode::NotFound,
                        format!("Base unit not found: {named}"),
                    ));
                };
                if unit.uom_class != class {
                    return Err(Stop::refuse(
                        "baseUnitCode",
                        UserErrorCode::NotAllowed,
                        format!("Base unit must be in the same class ({class})"),
                    ));
                }
                let root = unit
                    .base_unit_code
                    .clone()
                    .unwrap_or_else(|| unit.code.clone());
                (Some(root), factor * &unit.to_base_factor)
            }
            (None, Some(b)) => (Some(b.code.clone()), factor),
            (None, None) if factor == 1 => (None, factor),
            (None, None) => {
                return Err(Stop::refuse(
                    "toBaseFactor",
                    UserErrorCode::NotAllowed,
                    format!("{code} is the first unit of class {class}, its base: its factor is 1"),
                ));
            }
        };
        return Ok(diesel::insert_into(units_of_measure::table)
            .values((
                units_of_measure::code.eq(&code),
                units_of_measure::name.eq(input.name.unwrap_or_default()),
                units_of_measure::symbol.eq(input.symbol.unwrap_or_else(|| code.clone())),
                units_of_measure::uom_class.eq(class),
                units_of_measure::base_unit_code.eq(base_code),
                units_of_measure::to_base_factor.eq(factor),
                units_of_measure::active.eq(input.active.unwrap_or(true)),
            ))
            .returning(UomRow::as_returning())
            .get_result(conn)
            .await?);
    };
    let Some(unit) = units
        .iter()
        .find(|u| u.code.eq_ignore_ascii_case(code.trim()))
    else {
        return Err(Stop::refuse(
            "code",
            UserErrorCode::NotFound,
            format!("Unit not found: {}", code.trim().to_uppercase()),
        ));
    };
    if unit.base_unit_code.is_none() {
        if input.to_base_factor.as_ref().is_some_and(|f| f.0 != 1) {
            return Err(Stop::refuse(
                "toBaseFactor",
                UserErrorCode::NotAllowed,
                format!(
                    "{} is the base unit of {}: its factor stays 1",
                    unit.code, unit.uom_class
                ),
            ));
        }
        if input.active == Some(false)
            && units
                .iter()
                .any(|u| u.base_unit_code.as_deref() == Some(&unit.code) && u.active)
        {
            return Err(Stop::refuse(
                "active",
                UserErrorCode::NotAllowed,
                format!(
                    "{} is the base unit of active units of {}",
                    unit.code, unit.uom_class
                ),
            ));
        }
    }
    Ok(diesel::update(units_of_measure::table.find(unit.id))
        .set((
            input.name.map(|n| units_of_measure::name.eq(n)),
            input.symbol.map(|s| units_of_measure::symbol.eq(s)),
            input
                .to_base_factor
                .map(|f| units_of_measure::to_base_factor.eq(f.0)),
            input.active.map(|a| units_of_measure::active.eq(a)),
            // Always one column to set: a body that changes nothing still answers the row.
            units_of_measure::id.eq(unit.id),
        ))
        .returning(UomRow::as_returning())
        .get_result(conn)
        .await?)
}

/// The result of saving a unit.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct UnitOfMeasurePayload {
    /// The unit.
    pub unit: Option<UnitOfMeasure>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<UomRow, Vec<UserError>>> for UnitOfMeasurePayload {
    fn from(saved: Result<UomRow, Vec<UserError>>) -> Self {
        match saved {
            Ok(row) => UnitOfMeasurePayload {
                unit: Some(row.into()),
                user_errors: Vec::new(),
            },
            Err(user_errors) => UnitOfMeasurePayload {
                unit: None,
                user_errors,
            },
        }
    }
}

/// Unit of measure changes (admins).
#[derive(Default)]
pub struct CatalogUomMutation;

#[Object]
impl CatalogUomMutation {
    /// Adds a unit of measure (in an existing class with its factor to any unit of it, or as
    /// the base of a new class).
    #[graphql(guard = "Access::Admin")]
    async fn unit_of_measure_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(directive = crate::platform::graphql::limits::requires::apply(vec!["code".into(), "name".into(), "uomClass".into()]))]
        input: UnitOfMeasureInput,
    ) -> AppResult<UnitOfMeasurePayload> {
        Ok(crate::in_transaction!(ctx, |conn| save_unit(conn, None, input)).into())
    }

    /// Changes a unit's name, symbol, factor (a base unit's stays 1) or active flag.
    #[graphql(guard = "Access::Admin")]
    async fn unit_of_measure_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The unit's code (any case).")] code: String,
        input: UnitOfMeasureInput,
    ) -> AppResult<UnitOfMeasurePayload> {
        Ok(crate::in_transaction!(ctx, |conn| save_unit(conn, Some(&code), input)).into())
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
