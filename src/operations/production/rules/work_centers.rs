//! Work centers: codes and names, and saving them (routings are in [`crate::operations::production::routing`]).

use super::*;

/// Longest code of a work center or routing.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 255;

pub(super) fn check_code_name(
    errors: &mut Vec<UserError>,
    code: &mut Option<String>,
    name: &mut Option<String>,
    creating: bool,
) {
    crate::platform::db::text::required(errors, "code", code, creating, CODE_MAX);
    if let Some(c) = code.as_mut() {
        *c = c.to_uppercase();
    }
    crate::platform::db::text::required(errors, "name", name, creating, NAME_MAX);
}

/// Creates (`id` is `None`) or changes a work center; a taken code is refused.
pub async fn save_work_center(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut form: model::WorkCenterForm,
) -> Result<model::WorkCenterRow, Stop> {
    use crate::platform::db::schema::work_centers;
    let mut errors = Vec::new();
    check_code_name(&mut errors, &mut form.code, &mut form.name, id.is_none());
    if let Some(rate) = &form.hourly_rate
        && rate.0 < BigDecimal::zero()
    {
        errors.push(invalid(
            "hourlyRate",
            "Input should be greater than or equal to 0",
        ));
    }
    if let Some(Some(d)) = form.description.as_mut() {
        let mut text = Some(d.clone());
        optional_text(&mut errors, "description", &mut text, NOTES_MAX);
        *d = text.unwrap_or_default();
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(code) = &form.code {
        let mut q = work_centers::table
            .filter(crate::platform::db::text::code_matches(
                work_centers::code,
                code,
            ))
            .select(work_centers::id)
            .into_boxed();
        if let Some(id) = id {
            q = q.filter(work_centers::id.ne(id));
        }
        if q.first::<i64>(conn).await.optional()?.is_some() {
            return Err(Stop::refuse(
                "code",
                UserErrorCode::Taken,
                format!("Work center code '{code}' already exists"),
            ));
        }
    }
    let row = match id {
        None => {
            diesel::insert_into(work_centers::table)
                .values(&form)
                .returning(model::WorkCenterRow::as_returning())
                .get_result(conn)
                .await?
        }
        Some(id) => {
            let r = diesel::update(work_centers::table.find(id))
                .set(&form)
                .returning(model::WorkCenterRow::as_returning())
                .get_result(conn)
                .await;
            match r {
                Err(diesel::result::Error::NotFound) => {
                    return Err(Stop::refuse(
                        "id",
                        UserErrorCode::NotFound,
                        "Work center not found",
                    ));
                }
                Err(e) if crate::platform::db::is_empty_update(&e) => {
                    work_centers::table
                        .find(id)
                        .select(model::WorkCenterRow::as_select())
                        .first(conn)
                        .await?
                }
                other => other?,
            }
        }
    };
    Ok(row)
}
