//! Routings and their steps: a routing saved whole (header and, when given, every step), and
//! each step added, changed or deleted on its own (FilaOps's routing editor saves step by
//! step). A step names an operation type or gets the one its code implies; its code and name
//! default from the type, its work center from the type's default. Deleting a step
//! deactivates it: orders made from it keep naming it.

use async_graphql::{InputObject, MaybeUndefined};
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::{NOTES_MAX, optional_text};
use crate::operations::production::model::{RoutingOperationRow, RoutingRow};
use crate::operations::production::routing::types;
use crate::operations::production::rules::{CODE_MAX, NAME_MAX};
use crate::platform::db::schema::{items, routing_operations, routings, work_centers};
use crate::platform::graphql::limits::{length, rest_alias};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// Longest revision label.
pub const REVISION_MAX: usize = 20;
/// Longest sliced file path.
pub const SLICER_PATH_MAX: usize = 500;

crate::text_enum! {
    /// Where a step's run time came from.
    pub enum RuntimeSource {
        /// Typed in.
        Manual,
        /// From the sliced file's estimate.
        Slicer,
        /// Computed from other figures.
        Calculated,
    }
}

/// One step of a routing being saved (whole, or one step on its own). On a change, absent
/// fields keep their value and `operationType: null` clears the type.
#[derive(Debug, Clone, Default, InputObject)]
pub struct RoutingStepInput {
    /// Order (default: 10, 20, 30... in list order; a new single step goes last).
    pub sequence: Option<i32>,
    /// Short code, e.g. `PRINT` (default from the operation type).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub operation_code: Option<String>,
    /// Name (default the operation type's label, else the code).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub operation_name: Option<String>,
    /// Operation type code (`FDM_PRINT`, `QUALITY_CONTROL`...; must be active). When absent
    /// the code implies one (`PRINT` is `FDM_PRINT`); `null` on a change clears it.
    pub operation_type: MaybeUndefined<String>,
    /// Where it is done (default: the operation type's default work center).
    pub work_center_id: Option<i64>,
    /// What is done, in words.
    pub description: Option<String>,
    /// Setup minutes per order (default 0).
    #[graphql(directive = rest_alias::apply("setup_time_minutes".into()))]
    pub setup_minutes: Option<Decimal>,
    /// Run minutes per unit (default 0).
    #[graphql(directive = rest_alias::apply("run_time_minutes".into()))]
    pub run_minutes: Option<Decimal>,
    /// Minutes waited after the step (default 0; not costed).
    #[graphql(directive = rest_alias::apply("wait_time_minutes".into()))]
    pub wait_minutes: Option<Decimal>,
    /// Minutes to move on (default 0; not costed).
    #[graphql(directive = rest_alias::apply("move_time_minutes".into()))]
    pub move_minutes: Option<Decimal>,
    /// Where the run time came from (default `manual`).
    pub runtime_source: Option<RuntimeSource>,
    /// The sliced file the run time came from.
    #[graphql(directive = length::apply(SLICER_PATH_MAX))]
    pub slicer_file_path: Option<String>,
    /// Units one run makes (default 1).
    pub units_per_cycle: Option<i32>,
    /// Expected scrap in percent, 0-100 (default 0).
    pub scrap_rate_percent: Option<Decimal>,
    /// Notes.
    #[graphql(directive = length::apply(NOTES_MAX))]
    pub notes: Option<String>,
}

/// A routing being saved: the header and, when given, the whole list of steps.
#[derive(Debug, Clone, Default, InputObject)]
pub struct RoutingInput {
    /// The product (required on create unless a template; fixed after).
    pub product_id: Option<i64>,
    /// A template: a standard flow applied to products (no product; code and name required).
    pub is_template: Option<bool>,
    /// Code (default `RTG-<product SKU>-V<version>`).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: Option<String>,
    /// Name (default the product's name).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: Option<String>,
    /// Revision label (default `1.0`).
    #[graphql(directive = length::apply(REVISION_MAX))]
    pub revision: Option<String>,
    /// From when it applies.
    pub effective_date: Option<chrono::NaiveDate>,
    /// Active (default true on create; activating deactivates the product's others).
    #[graphql(directive = rest_alias::apply("is_active".into()))]
    pub active: Option<bool>,
    /// Notes.
    #[graphql(directive = length::apply(NOTES_MAX))]
    pub notes: Option<String>,
    /// The steps, replacing the current ones when given.
    pub operations: Option<Vec<RoutingStepInput>>,
}

/// A step with every value decided, ready to store (inserted with its routing, or set over a
/// stored step: a `None` clears the column).
#[derive(Debug, Clone, Insertable, AsChangeset)]
#[diesel(table_name = routing_operations, treat_none_as_null = true)]
pub struct StepValues {
    /// Order.
    pub sequence: i32,
    /// Code.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Type code.
    pub operation_type: Option<String>,
    /// Work center.
    pub work_center_id: i64,
    /// Description.
    pub description: Option<String>,
    /// Setup minutes.
    pub setup_minutes: BigDecimal,
    /// Run minutes per unit.
    pub run_minutes: BigDecimal,
    /// Wait minutes.
    pub wait_minutes: BigDecimal,
    /// Move minutes.
    pub move_minutes: BigDecimal,
    /// Run time source.
    pub runtime_source: RuntimeSource,
    /// Sliced file.
    pub slicer_file_path: Option<String>,
    /// Units per run.
    pub units_per_cycle: i32,
    /// Scrap percent.
    pub scrap_rate_percent: BigDecimal,
    /// Notes.
    pub notes: Option<String>,
}

impl StepValues {
    /// The values of a stored step.
    pub fn of(row: &RoutingOperationRow) -> StepValues {
        StepValues {
            sequence: row.sequence,
            operation_code: row.operation_code.clone(),
            operation_name: row.operation_name.clone(),
            operation_type: row.operation_type.clone(),
            work_center_id: row.work_center_id,
            description: row.description.clone(),
            setup_minutes: row.setup_minutes.0.clone(),
            run_minutes: row.run_minutes.0.clone(),
            wait_minutes: row.wait_minutes.0.clone(),
            move_minutes: row.move_minutes.0.clone(),
            runtime_source: row.runtime_source.parse().unwrap_or(RuntimeSource::Manual),
            slicer_file_path: row.slicer_file_path.clone(),
            units_per_cycle: row.units_per_cycle,
            scrap_rate_percent: row.scrap_rate_percent.0.clone(),
            notes: row.notes.clone(),
        }
    }
}

/// Decides a step's values: `base` (the stored step on a change, else defaults) with the
/// input laid over it, the type resolved and the code, name and work center defaulted from it.
/// Errors name fields under `prefix` (e.g. `operations.2.`).
pub async fn decide(
    conn: &mut AsyncPgConnection,
    prefix: &str,
    base: Option<StepValues>,
    sequence: i32,
    mut s: RoutingStepInput,
) -> Result<StepValues, Stop> {
    let f = |n: &str| format!("{prefix}{n}");
    let mut errors: Vec<UserError> = Vec::new();
    optional_text(&mut errors, &f("notes"), &mut s.notes, NOTES_MAX);
    optional_text(
        &mut errors,
        &f("description"),
        &mut s.description,
        NOTES_MAX,
    );
    optional_text(
        &mut errors,
        &f("slicerFilePath"),
        &mut s.slicer_file_path,
        SLICER_PATH_MAX,
    );
    let code = s
        .operation_code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let name = s
        .operation_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty());
    if code.is_some_and(|c| c.chars().count() > CODE_MAX) {
        errors.push(invalid(
            &f("operationCode"),
            format!("At most {CODE_MAX} characters"),
        ));
    }
    if name.is_some_and(|n| n.chars().count() > NAME_MAX) {
        errors.push(invalid(
            &f("operationName"),
            format!("At most {NAME_MAX} characters"),
        ));
    }
    for (n, v) in [
        ("setupMinutes", &s.setup_minutes),
        ("runMinutes", &s.run_minutes),
        ("waitMinutes", &s.wait_minutes),
        ("moveMinutes", &s.move_minutes),
    ] {
        if v.as_ref().is_some_and(|v| v.0 < BigDecimal::zero()) {
            errors.push(invalid(&f(n), "Input should be greater than or equal to 0"));
        }
    }
    if let Some(p) = &s.scrap_rate_percent
        && (p.0 < BigDecimal::zero() || p.0 > 100)
    {
        errors.push(invalid(
            &f("scrapRatePercent"),
            "Input should be between 0 and 100",
        ));
    }
    if s.units_per_cycle.is_some_and(|u| u < 1) {
        errors.push(invalid(
            &f("unitsPerCycle"),
            "Input should be greater than or equal to 1",
        ));
    }
    if s.sequence.is_some_and(|q| q < 0) {
        errors.push(invalid(
            &f("sequence"),
            "Input should be greater than or equal to 0",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    // The type: named, cleared, or (when the step has none) implied by the code.
    let kept_type = base.as_ref().and_then(|b| b.operation_type.clone());
    let ty = match &s.operation_type {
        MaybeUndefined::Value(t) if !t.trim().is_empty() => {
            types::resolve(conn, &f("operationType"), Some(t), None).await?
        }
        MaybeUndefined::Null if base.is_some() => {
            types::resolve(conn, &f("operationType"), None, code).await?
        }
        _ => match kept_type {
            Some(t) => types::find(conn, &t).await?,
            None => types::resolve(conn, &f("operationType"), None, code).await?,
        },
    };
    let operation_code = code
        .map(str::to_uppercase)
        .or_else(|| base.as_ref().map(|b| b.operation_code.clone()))
        .or_else(|| ty.as_ref().map(|t| types::code_for_type(&t.code)));
    let Some(operation_code) = operation_code else {
        return Err(Stop::refuse(
            &f("operationCode"),
            UserErrorCode::Invalid,
            "An operation code (or an operation type) is required",
        ));
    };
    let operation_name = name
        .map(str::to_string)
        .or_else(|| base.as_ref().map(|b| b.operation_name.clone()))
        .or_else(|| ty.as_ref().map(|t| t.label.clone()))
        .unwrap_or_else(|| operation_code.clone());
    let work_center_id = s
        .work_center_id
        .or_else(|| base.as_ref().map(|b| b.work_center_id))
        .or_else(|| ty.as_ref().and_then(|t| t.default_work_center_id));
    let Some(work_center_id) = work_center_id else {
        return Err(Stop::refuse(
            &f("workCenterId"),
            UserErrorCode::Invalid,
            "Field required",
        ));
    };
    let exists: bool = diesel::select(diesel::dsl::exists(
        work_centers::table.find(work_center_id),
    ))
    .get_result(conn)
    .await?;
    if !exists {
        return Err(Stop::refuse(
            &f("workCenterId"),
            UserErrorCode::NotFound,
            format!("Work center {work_center_id} not found"),
        ));
    }
    let b = base.unwrap_or_else(|| StepValues {
        sequence,
        operation_code: String::new(),
        operation_name: String::new(),
        operation_type: None,
        work_center_id,
        description: None,
        setup_minutes: BigDecimal::zero(),
        run_minutes: BigDecimal::zero(),
        wait_minutes: BigDecimal::zero(),
        move_minutes: BigDecimal::zero(),
        runtime_source: RuntimeSource::Manual,
        slicer_file_path: None,
        units_per_cycle: 1,
        scrap_rate_percent: BigDecimal::zero(),
        notes: None,
    });
    Ok(StepValues {
        sequence: s.sequence.unwrap_or(b.sequence),
        operation_code,
        operation_name,
        operation_type: ty.map(|t| t.code),
        work_center_id,
        description: s.description.or(b.description),
        setup_minutes: s.setup_minutes.map(|d| d.0).unwrap_or(b.setup_minutes),
        run_minutes: s.run_minutes.map(|d| d.0).unwrap_or(b.run_minutes),
        wait_minutes: s.wait_minutes.map(|d| d.0).unwrap_or(b.wait_minutes),
        move_minutes: s.move_minutes.map(|d| d.0).unwrap_or(b.move_minutes),
        runtime_source: s.runtime_source.unwrap_or(b.runtime_source),
        slicer_file_path: s.slicer_file_path.or(b.slicer_file_path),
        units_per_cycle: s.units_per_cycle.unwrap_or(b.units_per_cycle),
        scrap_rate_percent: s
            .scrap_rate_percent
            .map(|d| d.0)
            .unwrap_or(b.scrap_rate_percent),
        notes: s.notes.or(b.notes),
    })
}

/// Stores a new step of a routing.
pub async fn insert_step(
    conn: &mut AsyncPgConnection,
    routing_id: i64,
    v: StepValues,
) -> Result<RoutingOperationRow, Stop> {
    Ok(diesel::insert_into(routing_operations::table)
        .values((routing_operations::routing_id.eq(routing_id), v))
        .returning(RoutingOperationRow::as_returning())
        .get_result(conn)
        .await?)
}

fn routing_not_found() -> Stop {
    Stop::refuse("id", UserErrorCode::NotFound, "Routing not found")
}

fn step_not_found() -> Stop {
    Stop::refuse("id", UserErrorCode::NotFound, "Operation not found")
}

/// A routing, locked for a change.
async fn locked_routing(conn: &mut AsyncPgConnection, id: i64) -> Result<RoutingRow, Stop> {
    routings::table
        .find(id)
        .select(RoutingRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(routing_not_found)
}

/// Adds one step to a routing (last unless sequenced).
pub async fn add_step(
    conn: &mut AsyncPgConnection,
    routing_id: i64,
    input: RoutingStepInput,
) -> Result<RoutingOperationRow, Stop> {
    locked_routing(conn, routing_id).await?;
    let last: Option<i32> = routing_operations::table
        .filter(routing_operations::routing_id.eq(routing_id))
        .filter(routing_operations::is_active)
        .select(diesel::dsl::max(routing_operations::sequence))
        .first(conn)
        .await?;
    let sequence = last.map_or(10, |l| (l / 10 + 1) * 10);
    let values = decide(conn, "", None, sequence, input).await?;
    insert_step(conn, routing_id, values).await
}

/// A step, locked for a change.
pub async fn locked_step(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> Result<RoutingOperationRow, Stop> {
    routing_operations::table
        .find(id)
        .select(RoutingOperationRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(step_not_found)
}

/// Changes one step (absent fields kept).
pub async fn update_step(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: RoutingStepInput,
) -> Result<RoutingOperationRow, Stop> {
    let row = locked_step(conn, id).await?;
    let v = decide(conn, "", Some(StepValues::of(&row)), row.sequence, input).await?;
    Ok(diesel::update(routing_operations::table.find(id))
        .set(&v)
        .returning(RoutingOperationRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Deletes (deactivates) a step: production orders made from it keep naming it.
pub async fn delete_step(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> Result<RoutingOperationRow, Stop> {
    locked_step(conn, id).await?;
    Ok(diesel::update(routing_operations::table.find(id))
        .set(routing_operations::is_active.eq(false))
        .returning(RoutingOperationRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Deletes (deactivates) a routing; its steps stay as they are.
pub async fn delete_routing(conn: &mut AsyncPgConnection, id: i64) -> Result<RoutingRow, Stop> {
    locked_routing(conn, id).await?;
    Ok(diesel::update(routings::table.find(id))
        .set(routings::active.eq(false))
        .returning(RoutingRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Creates (`id` is `None`) or changes a routing and its steps.
pub async fn save_routing(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut input: RoutingInput,
) -> Result<RoutingRow, Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(&mut errors, "code", &mut input.code, CODE_MAX);
    optional_text(&mut errors, "name", &mut input.name, NAME_MAX);
    optional_text(&mut errors, "revision", &mut input.revision, REVISION_MAX);
    if id.is_none() && input.is_template == Some(true) {
        for (field, value) in [("code", &input.code), ("name", &input.name)] {
            if value.is_none() {
                errors.push(invalid(
                    field,
                    format!("A template routing requires a {field}"),
                ));
            }
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let steps = input.operations.take();
    let replace = id.is_none() || steps.is_some();
    let mut decided = Vec::new();
    for (i, s) in steps.into_iter().flatten().enumerate() {
        let sequence = (i as i32 + 1) * 10;
        decided.push(decide(conn, &format!("operations.{i}."), None, sequence, s).await?);
    }
    let routing = match id {
        None => insert_routing(conn, input).await?,
        Some(id) => update_routing(conn, id, input).await?,
    };
    if replace {
        diesel::delete(
            routing_operations::table.filter(routing_operations::routing_id.eq(routing.id)),
        )
        .execute(conn)
        .await?;
        for v in decided {
            insert_step(conn, routing.id, v).await?;
        }
    }
    Ok(routing)
}

/// Creates a routing: a template (no product), or the product's next version (locking the
/// product), deactivating the product's other routings when it is active.
async fn insert_routing(
    conn: &mut AsyncPgConnection,
    input: RoutingInput,
) -> Result<RoutingRow, Stop> {
    if input.is_template == Some(true) {
        let code = input.code.unwrap_or_default().to_uppercase();
        let taken: bool = diesel::select(diesel::dsl::exists(
            routings::table.filter(routings::is_template).filter(
                crate::platform::db::text::code_matches(routings::code, &code),
            ),
        ))
        .get_result(conn)
        .await?;
        if taken {
            return Err(Stop::refuse(
                "code",
                UserErrorCode::Taken,
                format!("A template with code {code} already exists"),
            ));
        }
        return Ok(diesel::insert_into(routings::table)
            .values((
                routings::product_id.eq(None::<i64>),
                routings::is_template.eq(true),
                routings::code.eq(code),
                routings::name.eq(input.name.unwrap_or_default()),
                routings::version.eq(1),
                routings::revision.eq(input.revision.unwrap_or_else(|| "1.0".into())),
                routings::effective_date.eq(input.effective_date),
                routings::active.eq(input.active.unwrap_or(true)),
                routings::notes.eq(input.notes),
            ))
            .returning(RoutingRow::as_returning())
            .get_result(conn)
            .await?);
    }
    let Some(product_id) = input.product_id.filter(|p| *p != 0) else {
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
            routings::revision.eq(input.revision.unwrap_or_else(|| "1.0".into())),
            routings::effective_date.eq(input.effective_date),
            routings::active.eq(active),
            routings::notes.eq(input.notes),
        ))
        .returning(RoutingRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Changes a routing's header (locking it), deactivating the product's other routings when
/// it is activated.
async fn update_routing(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: RoutingInput,
) -> Result<RoutingRow, Stop> {
    let existing = locked_routing(conn, id).await?;
    if input.active == Some(true)
        && let Some(product) = existing.product_id
    {
        diesel::update(
            routings::table
                .filter(routings::product_id.eq(product))
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
            input.revision.map(|r| routings::revision.eq(r)),
            input
                .effective_date
                .map(|d| routings::effective_date.eq(Some(d))),
            input.active.map(|a| routings::active.eq(a)),
            input.notes.map(|n| routings::notes.eq(Some(n))),
            routings::updated_at.eq(chrono::Utc::now()),
        ))
        .returning(RoutingRow::as_returning())
        .get_result(conn)
        .await?)
}
