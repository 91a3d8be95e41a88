//! Material type rules: a code of 1-50 characters, unique, stored upper case and fixed once
//! created; a name of 1-255; what the material asks of a printer (a nozzle of 100-500 °C, a
//! bed of 0-200 °C, an enclosure), which the scheduler checks against the printer.

use diesel_async::AsyncPgConnection;

use crate::ledgers::materials::model::{self, MaterialTypeForm, MaterialTypeRow};
use crate::platform::db::text;
use crate::platform::error::ErrorCode;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// Longest material type code.
pub const CODE_MAX: usize = 50;
/// Longest material type name.
pub const NAME_MAX: usize = 255;
/// Coolest nozzle temperature a material may ask for, in °C.
pub const NOZZLE_TEMP_MIN: i64 = 100;
/// Hottest nozzle temperature a material may ask for, in °C.
pub const NOZZLE_TEMP_MAX: i64 = 500;
/// Coolest bed temperature a material may ask for, in °C.
pub const BED_TEMP_MIN: i64 = 0;
/// Hottest bed temperature a material may ask for, in °C.
pub const BED_TEMP_MAX: i64 = 200;

fn temperature(
    errors: &mut Vec<UserError>,
    field: &str,
    value: Option<Option<i32>>,
    min: i64,
    max: i64,
) {
    if let Some(Some(t)) = value
        && !(min..=max).contains(&i64::from(t))
    {
        errors.push(invalid(
            field,
            format!("Input should be between {min} and {max}"),
        ));
    }
}

/// Checks and normalises a new (`creating`) or changed material type.
pub fn check_material_type(form: &mut MaterialTypeForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    text::required_code(&mut errors, "code", &mut form.code, creating, CODE_MAX);
    text::required(&mut errors, "name", &mut form.name, creating, NAME_MAX);
    text::clearable(
        &mut errors,
        "description",
        &mut form.description,
        crate::ledgers::inventory::rules::NOTES_MAX,
    );
    temperature(
        &mut errors,
        "nozzleTempC",
        form.nozzle_temp_c,
        NOZZLE_TEMP_MIN,
        NOZZLE_TEMP_MAX,
    );
    temperature(
        &mut errors,
        "bedTempC",
        form.bed_temp_c,
        BED_TEMP_MIN,
        BED_TEMP_MAX,
    );
    let outside = |v: &bigdecimal::BigDecimal, max: i32| *v <= 0 || *v >= max;
    if let Some(Some(d)) = &form.density_g_cm3
        && outside(&d.0, 30)
    {
        errors.push(invalid(
            "densityGCm3",
            "Input should be more than 0 and under 30",
        ));
    }
    if let Some(d) = &form.filament_diameter_mm
        && outside(&d.0, 5)
    {
        errors.push(invalid(
            "filamentDiameterMm",
            "Input should be more than 0 and under 5",
        ));
    }
    errors
}

fn taken(code: &str) -> Stop {
    Stop::refuse(
        "code",
        UserErrorCode::Taken,
        format!("Material type code '{code}' already exists"),
    )
}

/// Creates (`id` is `None`) or changes a material type (`Material type not found` is a
/// 404). Field errors and a taken code are refusals, and nothing is written.
pub async fn save_material_type(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut form: MaterialTypeForm,
) -> Result<MaterialTypeRow, Stop> {
    if let Some(id) = id {
        model::find_material_type(conn, id).await?;
    }
    let errors = check_material_type(&mut form, id.is_none());
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(code) = &form.code
        && model::material_type_code_taken(conn, code).await?
    {
        return Err(taken(code));
    }
    let result = match id {
        Some(id) => model::update_material_type(conn, id, &form).await,
        None => model::insert_material_type(conn, &form).await,
    };
    match result {
        Ok(row) => Ok(row),
        Err(e) if e.code == ErrorCode::Conflict => {
            Err(taken(form.code.as_deref().unwrap_or_default()))
        }
        Err(e) => Err(Stop::Failed(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(errors: &[UserError]) -> Vec<&str> {
        errors.iter().filter_map(|e| e.field.as_deref()).collect()
    }

    #[test]
    fn material_type_fields() {
        let mut ok = MaterialTypeForm {
            code: Some(" abs ".into()),
            name: Some("ABS".into()),
            requires_enclosure: Some(true),
            nozzle_temp_c: Some(Some(100)),
            bed_temp_c: Some(Some(0)),
            ..Default::default()
        };
        assert!(check_material_type(&mut ok, true).is_empty());
        assert_eq!(ok.code.as_deref(), Some("ABS"));
        let mut top = MaterialTypeForm {
            nozzle_temp_c: Some(Some(500)),
            bed_temp_c: Some(Some(200)),
            ..Default::default()
        };
        assert!(check_material_type(&mut top, false).is_empty());
        let mut bad = MaterialTypeForm {
            code: Some(String::new()),
            name: Some("n".repeat(256)),
            nozzle_temp_c: Some(Some(99)),
            bed_temp_c: Some(Some(201)),
            ..Default::default()
        };
        assert_eq!(
            fields(&check_material_type(&mut bad, true)),
            ["code", "name", "nozzleTempC", "bedTempC"]
        );
        let mut hot = MaterialTypeForm {
            nozzle_temp_c: Some(Some(501)),
            bed_temp_c: Some(Some(-1)),
            ..Default::default()
        };
        let errors = check_material_type(&mut hot, false);
        assert_eq!(fields(&errors), ["nozzleTempC", "bedTempC"]);
        assert_eq!(errors[0].message, "Input should be between 100 and 500");
        // Clearing is fine.
        let mut cleared = MaterialTypeForm {
            nozzle_temp_c: Some(None),
            ..Default::default()
        };
        assert!(check_material_type(&mut cleared, false).is_empty());
    }
}
