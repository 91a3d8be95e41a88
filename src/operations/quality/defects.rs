//! The defect taxonomy: what was wrong at an inspection (a code, a category for reports and
//! a severity), distinct from scrap reasons (why material was thrown away). Inspections
//! keep the reason they name, so a reason is deactivated, never deleted.

use async_graphql::{InputObject, SimpleObject};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::optional_text;
use crate::platform::db::schema::defect_reasons;
use crate::platform::db::text;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest code.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 100;
/// Longest category.
pub const CATEGORY_MAX: usize = 50;
/// Longest description.
pub const DESCRIPTION_MAX: usize = 2_000;

crate::text_enum! {
    /// How bad a defect (or a failed characteristic) is.
    pub enum DefectSeverity {
        /// Cosmetic; the part works.
        Minor,
        /// The part may not work as intended.
        Major,
        /// The part must not reach a customer.
        Critical,
    }
}

/// A kind of defect found at inspection.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = defect_reasons, check_for_backend(diesel::pg::Pg))]
pub struct DefectReason {
    /// Id.
    pub id: i64,
    /// Code (lower case, unique ignoring case), e.g. `layer_shift`.
    pub code: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Category for reports (`dimensional`, `cosmetic`, `functional`, ...).
    pub category: Option<String>,
    /// DefectSeverity.
    pub severity: Option<DefectSeverity>,
    /// Display order.
    pub sequence: i32,
    /// Offered in pickers (inactive reasons stay on the inspections that name them).
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// A new defect reason, or changes to one (absent fields kept; the code is set once).
#[derive(Debug, Clone, Default, InputObject)]
pub struct DefectReasonInput {
    /// Code (1-50 characters, stored lower case; required when adding).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: Option<String>,
    /// Name (1-100 characters; required when adding).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: Option<String>,
    /// Description.
    #[graphql(directive = length::apply(DESCRIPTION_MAX))]
    pub description: Option<String>,
    /// Category for reports.
    #[graphql(directive = length::apply(CATEGORY_MAX))]
    pub category: Option<String>,
    /// DefectSeverity.
    pub severity: Option<DefectSeverity>,
    /// Display order.
    pub sequence: Option<i32>,
    /// Offered in pickers (`false` deactivates).
    pub active: Option<bool>,
}

/// Defect reasons in display order (sequence, then name).
pub async fn list(
    conn: &mut AsyncPgConnection,
    include_inactive: bool,
) -> AppResult<Vec<DefectReason>> {
    let mut q = defect_reasons::table
        .select(DefectReason::as_select())
        .order((
            defect_reasons::sequence,
            defect_reasons::name,
            defect_reasons::id,
        ))
        .into_boxed();
    if !include_inactive {
        q = q.filter(defect_reasons::active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// One defect reason.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<DefectReason>> {
    Ok(defect_reasons::table
        .find(id)
        .select(DefectReason::as_select())
        .first(conn)
        .await
        .optional()?)
}

fn not_found() -> Stop {
    Stop::Failed(AppError::not_found("Defect reason not found"))
}

/// Adds (`id` none) or changes a defect reason.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut input: DefectReasonInput,
) -> Result<DefectReason, Stop> {
    let adding = id.is_none();
    let mut errors: Vec<UserError> = Vec::new();
    if !adding {
        input.code = None;
    }
    if let Some(c) = input.code.as_mut() {
        *c = c.trim().to_lowercase();
    }
    text::required(&mut errors, "code", &mut input.code, adding, CODE_MAX);
    text::required(&mut errors, "name", &mut input.name, adding, NAME_MAX);
    optional_text(
        &mut errors,
        "description",
        &mut input.description,
        DESCRIPTION_MAX,
    );
    optional_text(&mut errors, "category", &mut input.category, CATEGORY_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(code) = &input.code {
        let taken: bool = diesel::select(diesel::dsl::exists(defect_reasons::table.filter(
            crate::platform::db::text::code_matches(defect_reasons::code, code),
        )))
        .get_result(conn)
        .await?;
        if taken {
            return Err(Stop::refuse(
                "code",
                UserErrorCode::Taken,
                format!("Defect reason with code '{code}' already exists"),
            ));
        }
    }
    match id {
        None => Ok(diesel::insert_into(defect_reasons::table)
            .values((
                defect_reasons::code.eq(input.code.unwrap_or_default()),
                defect_reasons::name.eq(input.name.unwrap_or_default()),
                defect_reasons::description.eq(input.description),
                defect_reasons::category.eq(input.category),
                defect_reasons::severity.eq(input.severity),
                defect_reasons::sequence.eq(input.sequence.unwrap_or(0)),
                defect_reasons::active.eq(input.active.unwrap_or(true)),
            ))
            .returning(DefectReason::as_returning())
            .get_result(conn)
            .await?),
        Some(id) => diesel::update(defect_reasons::table.find(id))
            .set((
                input.name.map(|v| defect_reasons::name.eq(v)),
                input
                    .description
                    .map(|v| defect_reasons::description.eq(Some(v))),
                input.category.map(|v| defect_reasons::category.eq(Some(v))),
                input.severity.map(|v| defect_reasons::severity.eq(Some(v))),
                input.sequence.map(|v| defect_reasons::sequence.eq(v)),
                input.active.map(|v| defect_reasons::active.eq(v)),
                // Always one column: a body that changes nothing still answers the row.
                defect_reasons::updated_at.eq(chrono::Utc::now()),
            ))
            .returning(DefectReason::as_returning())
            .get_result(conn)
            .await
            .optional()?
            .ok_or_else(not_found),
    }
}
