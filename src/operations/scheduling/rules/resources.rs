//! Resource rules: a code of 1-50 characters unique ignoring case (stored upper case), a
//! name of 1-200, texts within their columns, 0-24 hours a day, a work center that exists,
//! and a delete refused while operations that are not done are booked on it.

use bigdecimal::BigDecimal;
use diesel_async::AsyncPgConnection;

use crate::operations::production::model::work_centers_by_ids;
use crate::operations::scheduling::model::{self, ResourceForm, ResourceRow};
use crate::operations::scheduling::rules::{
    CAPACITY_MAX_HOURS, CODE_MAX, DEVICE_MAX, IP_ADDRESS_MAX, MACHINE_TYPE_MAX, NAME_MAX,
    SERIAL_MAX,
};
use crate::platform::db::text;
use crate::platform::error::{AppError, ErrorCode};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// Checks and normalises a new (`creating`) or changed resource: field errors, nothing read.
pub fn check_resource(form: &mut ResourceForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    text::required_code(&mut errors, "code", &mut form.code, creating, CODE_MAX);
    text::required(&mut errors, "name", &mut form.name, creating, NAME_MAX);
    text::clearable(
        &mut errors,
        "machineType",
        &mut form.machine_type,
        MACHINE_TYPE_MAX,
    );
    text::clearable(
        &mut errors,
        "serialNumber",
        &mut form.serial_number,
        SERIAL_MAX,
    );
    text::clearable(
        &mut errors,
        "bambuDeviceId",
        &mut form.bambu_device_id,
        DEVICE_MAX,
    );
    text::clearable(
        &mut errors,
        "bambuIpAddress",
        &mut form.bambu_ip_address,
        IP_ADDRESS_MAX,
    );
    if let Some(Some(Decimal(hours))) = &form.capacity_hours_per_day {
        if hours < &BigDecimal::from(0) {
            errors.push(invalid(
                "capacityHoursPerDay",
                "Input should be greater than or equal to 0",
            ));
        } else if hours > &BigDecimal::from(CAPACITY_MAX_HOURS) {
            errors.push(invalid(
                "capacityHoursPerDay",
                format!("Input should be less than or equal to {CAPACITY_MAX_HOURS}"),
            ));
        }
    }
    errors
}

fn taken(code: &str) -> Stop {
    Stop::refuse(
        "code",
        UserErrorCode::Taken,
        format!("A resource with code {code} already exists"),
    )
}

/// Refuses a work center that does not exist (a 404 over REST).
async fn check_work_center(conn: &mut AsyncPgConnection, id: i64) -> Result<(), Stop> {
    if work_centers_by_ids(conn, &[id]).await?.is_empty() {
        return Err(Stop::refuse(
            "workCenterId",
            UserErrorCode::NotFound,
            "Work center not found",
        ));
    }
    Ok(())
}

/// Creates a resource in `work_center_id` (when `id` is `None`) or changes resource `id`
/// (the form's `work_center_id` moves it). `Resource not found` is a 404; field errors,
/// a missing work center and a taken code are refusals, and nothing is written.
pub async fn save_resource(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    work_center_id: Option<i64>,
    mut form: ResourceForm,
) -> Result<ResourceRow, Stop> {
    let existing = match id {
        Some(id) => Some(
            model::lock(conn, id)
                .await?
                .ok_or_else(|| AppError::not_found("Resource not found"))?,
        ),
        None => None,
    };
    if existing.is_none() {
        form.work_center_id = work_center_id;
    }
    let errors = check_resource(&mut form, existing.is_none());
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(w) = form.work_center_id
        && existing.as_ref().is_none_or(|e| e.work_center_id != w)
    {
        check_work_center(conn, w).await?;
    }
    if let Some(code) = &form.code
        && model::code_taken(conn, code, existing.as_ref().map(|e| e.id)).await?
    {
        return Err(taken(code));
    }
    let result = match &existing {
        Some(e) => model::update(conn, e.id, &form).await,
        None => model::insert(conn, &form).await,
    };
    match result {
        Ok(row) => Ok(row),
        // A concurrent save of the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => {
            Err(taken(form.code.as_deref().unwrap_or_default()))
        }
        Err(e) => Err(Stop::Failed(e)),
    }
}

/// Deletes a resource (locked first, so nothing is booked on it meanwhile): refused while
/// operations that are not done are booked on it, else its maintenance windows go with it
/// and finished operations keep their history without it. Answers what happened.
pub async fn delete_resource(conn: &mut AsyncPgConnection, id: i64) -> Result<String, Stop> {
    let resource = model::lock(conn, id)
        .await?
        .ok_or_else(|| AppError::not_found("Resource not found"))?;
    let open = model::open_operations(conn, id).await?;
    if !open.is_empty() {
        let ids: Vec<String> = open.iter().map(i64::to_string).collect();
        return Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::NotAllowed,
            format!(
                "Resource {} has {} operation(s) booked that are not complete ({}); move or finish them first",
                resource.code,
                open.len(),
                ids.join(", ")
            ),
        )]));
    }
    model::delete(conn, id).await?;
    Ok(format!("Resource {} deleted", resource.code))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(errors: &[UserError]) -> Vec<&str> {
        errors.iter().filter_map(|e| e.field.as_deref()).collect()
    }

    #[test]
    fn resource_fields() {
        let mut ok = ResourceForm {
            code: Some("  wash-01 ".into()),
            name: Some(" Wash station ".into()),
            machine_type: Some(Some("  ".into())),
            capacity_hours_per_day: Some(Some(Decimal(BigDecimal::from(24)))),
            ..Default::default()
        };
        assert!(check_resource(&mut ok, true).is_empty());
        assert_eq!(ok.code.as_deref(), Some("WASH-01"));
        assert_eq!(ok.name.as_deref(), Some("Wash station"));
        assert_eq!(ok.machine_type, Some(None), "blank becomes null");

        let mut bad = ResourceForm {
            code: Some("c".repeat(51)),
            name: Some(String::new()),
            machine_type: Some(Some("m".repeat(101))),
            serial_number: Some(Some("s".repeat(101))),
            bambu_device_id: Some(Some("d".repeat(101))),
            bambu_ip_address: Some(Some("1".repeat(51))),
            capacity_hours_per_day: Some(Some(Decimal("24.01".parse().expect("decimal")))),
            ..Default::default()
        };
        assert_eq!(
            fields(&check_resource(&mut bad, true)),
            [
                "code",
                "name",
                "machineType",
                "serialNumber",
                "bambuDeviceId",
                "bambuIpAddress",
                "capacityHoursPerDay"
            ]
        );
        let mut negative = ResourceForm {
            capacity_hours_per_day: Some(Some(Decimal("-0.5".parse().expect("decimal")))),
            ..Default::default()
        };
        let errors = check_resource(&mut negative, false);
        assert_eq!(fields(&errors), ["capacityHoursPerDay"]);
        assert!(errors[0].message.contains("greater than or equal to 0"));
        let mut missing = ResourceForm::default();
        assert_eq!(
            fields(&check_resource(&mut missing, true)),
            ["code", "name"]
        );
        assert!(check_resource(&mut ResourceForm::default(), false).is_empty());
    }
}
