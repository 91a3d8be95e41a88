//! Operation types: what a routing step is (an FDM print, an inspection, packing...), the
//! stages at which its materials leave stock, and whether it is an inspection. Nine system
//! types are seeded (their stages and QC flag are fixed); admins add custom ones, rename and
//! reorder any, and deactivate (never delete) them. A step names its type by code; a step
//! without one gets the type its operation code implies (`PRINT` is an `FDM_PRINT`).

use async_graphql::{ComplexObject, InputObject, SimpleObject};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::{
    operation_types, production_order_operations, production_orders,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{Stop, UserErrorCode, invalid};

/// Longest operation type code.
pub const TYPE_CODE_MAX: usize = 30;
/// Longest label.
pub const LABEL_MAX: usize = 100;

crate::text_enum! {
    /// A stage of making and shipping at which a step's materials leave stock.
    pub enum OperationStage {
        /// While the order is produced (printing).
        Production,
        /// At assembly.
        Assembly,
        /// At finishing (paint, primer).
        Finishing,
        /// When the order ships (boxes, labels).
        Shipping,
        /// Any stage.
        Any,
    }
}

crate::text_enum! {
    /// How operation types are grouped in pickers.
    pub enum OperationCategory {
        /// Printing.
        Print,
        /// Assembly.
        Assembly,
        /// Inspection.
        Quality,
        /// Finishing.
        Finishing,
        /// Packing and shipping.
        Shipping,
        /// Anything else.
        Other,
    }
}

/// A kind of routing step.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = operation_types, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "OperationType", complex)]
pub struct OperationTypeRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, e.g. `FDM_PRINT`); steps name their type by it.
    pub code: String,
    /// Label shown in pickers.
    pub label: String,
    /// What it means.
    pub description: Option<String>,
    /// Picker group.
    #[graphql(skip)]
    pub category: Option<String>,
    /// Stages at which the step's materials leave stock.
    #[graphql(skip)]
    pub consume_stages: Vec<String>,
    /// An inspection step (the quality gate reads it).
    pub is_qc: bool,
    /// Seeded by Strata: its stages and QC flag cannot change.
    pub is_system: bool,
    /// Offered for new steps.
    pub is_active: bool,
    /// Display order.
    pub sort_order: i32,
    /// The work center a new step of this type goes to unless told.
    pub default_work_center_id: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

#[ComplexObject]
impl OperationTypeRow {
    /// Picker group.
    async fn category(&self) -> Option<OperationCategory> {
        self.category.as_deref().and_then(|c| c.parse().ok())
    }

    /// Stages at which the step's materials leave stock.
    async fn consume_stages(&self) -> Vec<OperationStage> {
        self.stages()
    }
}

impl OperationTypeRow {
    /// The stages, parsed (the database only holds known ones).
    pub fn stages(&self) -> Vec<OperationStage> {
        self.consume_stages
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect()
    }
}

/// A new operation type, or changes to one (absent fields are kept).
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationTypeInput {
    /// Code (1-30 letters, digits or `_`; stored upper case). Required on create, fixed after.
    #[graphql(directive = length::apply(TYPE_CODE_MAX))]
    pub code: Option<String>,
    /// Label (1-100 characters). Required on create.
    #[graphql(directive = length::apply(LABEL_MAX))]
    pub label: Option<String>,
    /// What it means.
    pub description: Option<String>,
    /// Picker group.
    pub category: Option<OperationCategory>,
    /// Stages at which materials leave stock (at least one). Required on create; fixed on
    /// system types and on types an open production order uses.
    pub consume_stages: Option<Vec<OperationStage>>,
    /// An inspection step (fixed on system types).
    pub is_qc: Option<bool>,
    /// Display order.
    pub sort_order: Option<i32>,
    /// Offered for new steps.
    pub is_active: Option<bool>,
    /// The work center new steps of this type go to.
    pub default_work_center_id: Option<i64>,
}

/// The type an operation code implies when a step names none (FilaOps's codes).
pub fn type_for_code(code: &str) -> Option<&'static str> {
    Some(match code.trim().to_uppercase().as_str() {
        "PRINT" => "FDM_PRINT",
        "EXTRUDE" | "MOLD" | "CUT" | "MACHINE" => "GENERAL",
        "ASSEMBLE" | "BUILD" | "WELD" => "ASSEMBLY",
        "QC" | "INSPECT" | "TEST" => "QUALITY_CONTROL",
        "CLEAN" => "SUPPORT_REMOVAL",
        "SAND" => "SANDING",
        "PAINT" | "COAT" => "PAINTING",
        "PACK" | "SHIP" | "LABEL" => "PACK_SHIP",
        _ => return None,
    })
}

/// The operation code a step of this type gets when it names none.
pub fn code_for_type(type_code: &str) -> String {
    match type_code {
        "FDM_PRINT" | "RESIN_PRINT" => "PRINT",
        "ASSEMBLY" => "ASSEMBLE",
        "QUALITY_CONTROL" => "QC",
        "SUPPORT_REMOVAL" => "CLEAN",
        "SANDING" => "SAND",
        "PAINTING" => "PAINT",
        "PACK_SHIP" => "PACK",
        other => other,
    }
    .to_string()
}

/// Operation types in display order (sort order, then code); inactive ones when asked.
pub async fn list(
    conn: &mut AsyncPgConnection,
    include_inactive: bool,
) -> AppResult<Vec<OperationTypeRow>> {
    let mut q = operation_types::table
        .select(OperationTypeRow::as_select())
        .order((operation_types::sort_order, operation_types::code))
        .into_boxed();
    if !include_inactive {
        q = q.filter(operation_types::is_active);
    }
    Ok(q.load(conn).await?)
}

/// One operation type by code (any case).
pub async fn find(conn: &mut AsyncPgConnection, code: &str) -> AppResult<Option<OperationTypeRow>> {
    Ok(operation_types::table
        .filter(operation_types::code.eq(code.trim().to_uppercase()))
        .select(OperationTypeRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

fn not_found(code: &str) -> Stop {
    Stop::refuse(
        "code",
        UserErrorCode::NotFound,
        format!("Operation type not found: {}", code.trim().to_uppercase()),
    )
}

/// Creates (`code` is `None`) or changes an operation type.
pub async fn save(
    conn: &mut AsyncPgConnection,
    code: Option<&str>,
    mut input: OperationTypeInput,
) -> Result<OperationTypeRow, Stop> {
    let mut errors = Vec::new();
    let creating = code.is_none();
    if creating {
        crate::platform::db::text::required_code(
            &mut errors,
            "code",
            &mut input.code,
            true,
            TYPE_CODE_MAX,
        );
        if let Some(c) = &input.code
            && !c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            errors.push(invalid("code", "Use letters, digits and _ only"));
        }
    }
    crate::platform::db::text::required(
        &mut errors,
        "label",
        &mut input.label,
        creating,
        LABEL_MAX,
    );
    match &input.consume_stages {
        Some(s) if s.is_empty() => errors.push(invalid("consumeStages", "Name at least one stage")),
        None if creating => errors.push(invalid("consumeStages", "Field required")),
        _ => {}
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let stages: Option<Vec<String>> = input
        .consume_stages
        .as_ref()
        .map(|s| s.iter().map(|x| x.to_string()).collect());
    let category = input.category.map(|c| c.to_string());
    let Some(code) = code else {
        let code = input.code.unwrap_or_default().to_uppercase();
        if find(conn, &code).await?.is_some() {
            return Err(Stop::refuse(
                "code",
                UserErrorCode::Taken,
                format!("Operation type with code '{code}' already exists"),
            ));
        }
        return Ok(diesel::insert_into(operation_types::table)
            .values((
                operation_types::code.eq(code),
                operation_types::label.eq(input.label.unwrap_or_default()),
                operation_types::description.eq(input.description),
                operation_types::category.eq(category),
                operation_types::consume_stages.eq(stages.unwrap_or_default()),
                operation_types::is_qc.eq(input.is_qc.unwrap_or(false)),
                operation_types::sort_order.eq(input.sort_order.unwrap_or(0)),
                operation_types::is_active.eq(input.is_active.unwrap_or(true)),
                operation_types::default_work_center_id.eq(input.default_work_center_id),
            ))
            .returning(OperationTypeRow::as_returning())
            .get_result(conn)
            .await?);
    };
    let existing = operation_types::table
        .filter(operation_types::code.eq(code.trim().to_uppercase()))
        .select(OperationTypeRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| not_found(code))?;
    let stages_change = stages.as_ref().filter(|s| **s != existing.consume_stages);
    let qc_change = input.is_qc.filter(|q| *q != existing.is_qc);
    if existing.is_system && (stages_change.is_some() || qc_change.is_some()) {
        let field = if stages_change.is_some() {
            "consumeStages"
        } else {
            "isQc"
        };
        return Err(Stop::refuse(
            field,
            UserErrorCode::NotAllowed,
            format!(
                "'{field}' is locked on system operation type '{}'; only the label, description, category, order and active flag can change",
                existing.code
            ),
        ));
    }
    if stages_change.is_some() && in_flight(conn, &existing.code).await? {
        return Err(Stop::Failed(crate::platform::error::AppError::conflict(
            format!(
                "Operation type '{}' is used by an open production order; create a new type instead of changing the stages of one in use",
                existing.code
            ),
        )));
    }
    Ok(diesel::update(operation_types::table.find(existing.id))
        .set((
            input.label.map(|l| operation_types::label.eq(l)),
            input
                .description
                .map(|d| operation_types::description.eq(Some(d))),
            category.map(|c| operation_types::category.eq(Some(c))),
            stages.map(|s| operation_types::consume_stages.eq(s)),
            input.is_qc.map(|q| operation_types::is_qc.eq(q)),
            input.sort_order.map(|o| operation_types::sort_order.eq(o)),
            input.is_active.map(|a| operation_types::is_active.eq(a)),
            input
                .default_work_center_id
                .map(|w| operation_types::default_work_center_id.eq(Some(w))),
            // Always one column to set: a body that changes nothing still answers the row.
            operation_types::updated_at.eq(chrono::Utc::now()),
        ))
        .returning(OperationTypeRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Whether an open production order has a step of this type.
async fn in_flight(conn: &mut AsyncPgConnection, code: &str) -> AppResult<bool> {
    use crate::operations::production::model::OrderStatus;
    Ok(diesel::select(diesel::dsl::exists(
        production_order_operations::table
            .inner_join(production_orders::table)
            .filter(production_order_operations::operation_type.eq(code))
            .filter(
                production_orders::status.ne_all([OrderStatus::Complete, OrderStatus::Cancelled]),
            ),
    ))
    .get_result(conn)
    .await?)
}

/// Deactivates an operation type: no longer offered; steps that name it keep it.
pub async fn deactivate(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> Result<OperationTypeRow, Stop> {
    diesel::update(
        operation_types::table.filter(operation_types::code.eq(code.trim().to_uppercase())),
    )
    .set(operation_types::is_active.eq(false))
    .returning(OperationTypeRow::as_returning())
    .get_result(conn)
    .await
    .optional()?
    .ok_or_else(|| not_found(code))
}

/// The type a step gets: the one it names (upper-cased; it must be active), else the one its
/// code implies when that type is active, else none. `field` names the input for errors.
pub async fn resolve(
    conn: &mut AsyncPgConnection,
    field: &str,
    named: Option<&str>,
    code: Option<&str>,
) -> Result<Option<OperationTypeRow>, Stop> {
    let named = named.map(str::trim).filter(|t| !t.is_empty());
    if let Some(t) = named {
        return match find(conn, t).await? {
            Some(row) if row.is_active => Ok(Some(row)),
            _ => Err(Stop::refuse(
                field,
                UserErrorCode::Invalid,
                format!("Unknown operation_type '{}'", t.to_uppercase()),
            )),
        };
    }
    let Some(implied) = code.and_then(type_for_code) else {
        return Ok(None);
    };
    Ok(find(conn, implied).await?.filter(|t| t.is_active))
}
