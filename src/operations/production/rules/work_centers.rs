//! Work centers and routings: codes and names, saving, and a routing's steps.

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

/// One step of a routing being saved.
#[derive(Debug, Clone, InputObject)]
pub struct RoutingStepInput {
    /// Order (default: 10, 20, 30... in list order).
    pub sequence: Option<i32>,
    /// Short code, e.g. `PRINT`.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Where it is done.
    pub work_center_id: i64,
    /// Setup minutes per order.
    pub setup_minutes: Option<Decimal>,
    /// Run minutes per unit.
    pub run_minutes: Option<Decimal>,
    /// Notes.
    pub notes: Option<String>,
}

/// A routing being saved: the header and, when given, the whole list of steps.
#[derive(Debug, Clone, InputObject)]
pub struct RoutingInput {
    /// The product (required on create; fixed after).
    pub product_id: Option<i64>,
    /// Code (default `RTG-<product SKU>-V<version>`).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::CODE_MAX))]
    pub code: Option<String>,
    /// Name (default the product's name).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::NAME_MAX))]
    pub name: Option<String>,
    /// Active (default true on create; activating deactivates the product's others).
    pub active: Option<bool>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// The steps, replacing the current ones when given.
    pub operations: Option<Vec<RoutingStepInput>>,
}

/// Creates (`id` is `None`) or changes a routing and its steps.
pub async fn save_routing(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut input: RoutingInput,
) -> Result<model::RoutingRow, Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(&mut errors, "code", &mut input.code, CODE_MAX);
    optional_text(&mut errors, "name", &mut input.name, NAME_MAX);
    let steps = input.operations.take();
    if let Some(steps) = &steps {
        check_steps(&mut errors, steps);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(steps) = &steps {
        check_work_centers(conn, steps).await?;
    }
    let routing = match id {
        None => insert_routing(conn, input).await?,
        Some(id) => update_routing(conn, id, input).await?,
    };
    if let Some(steps) = steps {
        replace_steps(conn, routing.id, steps).await?;
    }
    Ok(routing)
}

/// Checks the code, name and minutes of each step of a routing being saved.
fn check_steps(errors: &mut Vec<UserError>, steps: &[RoutingStepInput]) {
    for (i, s) in steps.iter().enumerate() {
        let f = |n: &str| format!("operations.{i}.{n}");
        if s.operation_code.trim().is_empty() || s.operation_code.chars().count() > CODE_MAX {
            errors.push(invalid(
                &f("operationCode"),
                "An operation code of 1 to 50 characters is required",
            ));
        }
        if s.operation_name.trim().is_empty() || s.operation_name.chars().count() > NAME_MAX {
            errors.push(invalid(
                &f("operationName"),
                "An operation name of 1 to 255 characters is required",
            ));
        }
        for (n, v) in [
            ("setupMinutes", &s.setup_minutes),
            ("runMinutes", &s.run_minutes),
        ] {
            if let Some(v) = v
                && v.0 < BigDecimal::zero()
            {
                errors.push(invalid(&f(n), "Input should be greater than or equal to 0"));
            }
        }
    }
}

/// Refuses steps whose work center does not exist (one query).
async fn check_work_centers(
    conn: &mut AsyncPgConnection,
    steps: &[RoutingStepInput],
) -> Result<(), Stop> {
    use crate::platform::db::schema::work_centers;
    let ids: Vec<i64> = steps.iter().map(|s| s.work_center_id).collect();
    let found: Vec<i64> = work_centers::table
        .filter(work_centers::id.eq_any(&ids))
        .select(work_centers::id)
        .load(conn)
        .await?;
    let mut errors = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        if !found.contains(&s.work_center_id) {
            errors.push(UserError::new(
                format!("operations.{i}.workCenterId"),
                UserErrorCode::NotFound,
                "Work center not found",
            ));
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    Ok(())
}

/// Creates a routing as the product's next version (locking the product), deactivating the
/// product's other routings when it is active.
async fn insert_routing(
    conn: &mut AsyncPgConnection,
    input: RoutingInput,
) -> Result<model::RoutingRow, Stop> {
    use crate::platform::db::schema::routings;
    let Some(product_id) = input.product_id else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::Invalid,
            "Field required",
        ));
    };
    let product: Option<(String, String)> = items::table
        .find(product_id)
        .select((items::sku, items::name))
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let Some((sku, name)) = product else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotFound,
            "Product not found",
        ));
    };
    let version: i32 = routings::table
        .filter(routings::product_id.eq(product_id))
        .select(diesel::dsl::max(routings::version))
        .first::<Option<i32>>(conn)
        .await?
        .unwrap_or(0)
        + 1;
    let active = input.active.unwrap_or(true);
    if active {
        diesel::update(routings::table.filter(routings::product_id.eq(product_id)))
            .set(routings::active.eq(false))
            .execute(conn)
            .await?;
    }
    Ok(diesel::insert_into(routings::table)
        .values((
            routings::product_id.eq(product_id),
            routings::code.eq(input
                .code
                .map(|c| c.to_uppercase())
                .unwrap_or_else(|| format!("RTG-{}-V{version}", sku.to_uppercase()))),
            routings::name.eq(input.name.unwrap_or(name)),
            routings::version.eq(version),
            routings::active.eq(active),
            routings::notes.eq(input.notes),
        ))
        .returning(model::RoutingRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Changes a routing's header (locking it), deactivating the product's other routings when
/// it is activated.
async fn update_routing(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: RoutingInput,
) -> Result<model::RoutingRow, Stop> {
    use crate::platform::db::schema::routings;
    let existing: Option<model::RoutingRow> = routings::table
        .find(id)
        .select(model::RoutingRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let Some(existing) = existing else {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotFound,
            "Routing not found",
        ));
    };
    if input.active == Some(true) {
        diesel::update(
            routings::table
                .filter(routings::product_id.eq(existing.product_id))
                .filter(routings::id.ne(id)),
        )
        .set(routings::active.eq(false))
        .execute(conn)
        .await?;
    }
    Ok(diesel::update(routings::table.find(id))
        .set((
            input.code.map(|c| routings::code.eq(c.to_uppercase())),
            input.name.map(|n| routings::name.eq(n)),
            input.active.map(|a| routings::active.eq(a)),
            input.notes.map(|n| routings::notes.eq(Some(n))),
            routings::updated_at.eq(now()),
        ))
        .returning(model::RoutingRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Replaces a routing's steps with the ones given (numbered 10, 20, 30... unless sequenced).
async fn replace_steps(
    conn: &mut AsyncPgConnection,
    routing_id: i64,
    steps: Vec<RoutingStepInput>,
) -> Result<(), Stop> {
    use crate::platform::db::schema::routing_operations;
    diesel::delete(routing_operations::table.filter(routing_operations::routing_id.eq(routing_id)))
        .execute(conn)
        .await?;
    for (i, s) in steps.into_iter().enumerate() {
        diesel::insert_into(routing_operations::table)
            .values((
                routing_operations::routing_id.eq(routing_id),
                routing_operations::sequence.eq(s.sequence.unwrap_or((i as i32 + 1) * 10)),
                routing_operations::operation_code.eq(s.operation_code.trim().to_uppercase()),
                routing_operations::operation_name.eq(s.operation_name.trim().to_string()),
                routing_operations::work_center_id.eq(s.work_center_id),
                routing_operations::setup_minutes
                    .eq(s.setup_minutes.map(|d| d.0).unwrap_or_default()),
                routing_operations::run_minutes.eq(s.run_minutes.map(|d| d.0).unwrap_or_default()),
                routing_operations::notes.eq(s.notes),
            ))
            .execute(conn)
            .await?;
    }
    Ok(())
}
