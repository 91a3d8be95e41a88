//! Quality plans: what an inspection of a product checks. A plan belongs to one product (or
//! is a template, for no product); its characteristics are either variables (measured,
//! with a nominal, limits and a unit) or attributes (judged pass/fail against written
//! criteria), each with a severity and optionally the routing step it is checked at. A
//! product's active plan is the first active one by code; deleting a plan deactivates it.

use async_graphql::dataloader::{DataLoader, HashMapCache};
use async_graphql::{ComplexObject, Context, InputObject, SimpleObject};
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::inventory::rules::optional_text;
use crate::operations::quality::defects::DefectSeverity;
use crate::platform::db::schema::{items, quality_plan_characteristics, quality_plans};
use crate::platform::db::text;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// Longest plan code.
pub const CODE_MAX: usize = 50;
/// Longest plan name.
pub const NAME_MAX: usize = 200;
/// Longest revision.
pub const REVISION_MAX: usize = 20;
/// Longest characteristic name.
pub const CHARACTERISTIC_MAX: usize = 100;
/// Longest unit.
pub const UNIT_MAX: usize = 20;
/// Longest notes or criteria.
pub const NOTES_MAX: usize = 4_000;

crate::text_enum! {
    /// How a characteristic is judged.
    pub enum CharacteristicType {
        /// Measured: a value against a nominal and limits.
        Variable,
        /// Judged pass/fail against written criteria (go/no-go).
        Attribute,
    }
}

/// A quality plan.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = quality_plans, check_for_backend(diesel::pg::Pg))]
#[graphql(complex)]
pub struct QualityPlan {
    /// Id.
    pub id: i64,
    /// The product (none for a template).
    pub product_id: Option<i64>,
    /// Code.
    pub code: String,
    /// Name.
    pub name: String,
    /// Version.
    pub version: i32,
    /// Revision.
    pub revision: String,
    /// Active (deleting deactivates).
    pub is_active: bool,
    /// A template for no product.
    pub is_template: bool,
    /// From when it applies.
    pub effective_date: Option<NaiveDate>,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// One thing a plan checks.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = quality_plan_characteristics, check_for_backend(diesel::pg::Pg))]
pub struct QualityCharacteristic {
    /// Id.
    pub id: i64,
    /// The plan.
    #[graphql(skip)]
    pub quality_plan_id: i64,
    /// Stable code within the plan (for SPC across inspections).
    pub code: Option<String>,
    /// What is checked, e.g. `Bore diameter`.
    pub characteristic: String,
    /// Measured or judged.
    pub characteristic_type: CharacteristicType,
    /// Target value (variables).
    pub nominal: Option<Decimal>,
    /// Lower specification limit (variables).
    pub lower_limit: Option<Decimal>,
    /// Upper specification limit (variables).
    pub upper_limit: Option<Decimal>,
    /// Unit (variables), e.g. `mm`.
    pub unit: Option<String>,
    /// What passes (attributes).
    pub acceptance_criteria: Option<String>,
    /// Display order.
    pub sequence: i32,
    /// How bad a failure is.
    pub severity: Option<DefectSeverity>,
    /// The routing step it is checked at (none: at the final inspection).
    pub routing_operation_id: Option<i64>,
    /// Created.
    #[graphql(skip)]
    pub created_at: Timestamp,
}

#[ComplexObject]
impl QualityPlan {
    /// The characteristics, in display order.
    async fn characteristics(&self, ctx: &Context<'_>) -> AppResult<Vec<QualityCharacteristic>> {
        let loader = context::data::<Characteristics>(ctx)?;
        Ok(loader.load_one(self.id).await?.unwrap_or_default())
    }
}

/// The characteristics of plans, by plan in display order.
pub async fn characteristics_of(
    conn: &mut AsyncPgConnection,
    plan_ids: &[i64],
) -> AppResult<Vec<QualityCharacteristic>> {
    Ok(quality_plan_characteristics::table
        .filter(quality_plan_characteristics::quality_plan_id.eq_any(plan_ids))
        .order((
            quality_plan_characteristics::quality_plan_id,
            quality_plan_characteristics::sequence,
            quality_plan_characteristics::id,
        ))
        .select(QualityCharacteristic::as_select())
        .load(conn)
        .await?)
}

crate::grouped_loader!(
    /// The characteristics of quality plans.
    CharacteristicsLoader, QualityCharacteristic, characteristics_of, quality_plan_id
);

/// One characteristic of a plan being saved.
#[derive(Debug, Clone, Default, InputObject)]
pub struct CharacteristicInput {
    /// Stable code within the plan (blank: none).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: Option<String>,
    /// What is checked (required).
    #[graphql(directive = length::apply(CHARACTERISTIC_MAX))]
    pub characteristic: String,
    /// Measured or judged (default variable).
    pub characteristic_type: Option<CharacteristicType>,
    /// Target value (variables only).
    pub nominal: Option<Decimal>,
    /// Lower limit (variables only).
    pub lower_limit: Option<Decimal>,
    /// Upper limit (variables only; not below the lower).
    pub upper_limit: Option<Decimal>,
    /// Unit (variables only).
    #[graphql(directive = length::apply(UNIT_MAX))]
    pub unit: Option<String>,
    /// What passes (attributes only).
    #[graphql(directive = length::apply(NOTES_MAX))]
    pub acceptance_criteria: Option<String>,
    /// Display order (default: its place in the list).
    pub sequence: Option<i32>,
    /// How bad a failure is.
    pub severity: Option<DefectSeverity>,
    /// The routing step it is checked at.
    pub routing_operation_id: Option<i64>,
}

/// A new plan, or changes to one (absent fields kept; `characteristics`, when given,
/// replaces the plan's).
#[derive(Debug, Clone, Default, InputObject)]
pub struct QualityPlanInput {
    /// The product (none for a template).
    pub product_id: Option<i64>,
    /// Code (required when adding).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: Option<String>,
    /// Name (required when adding).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: Option<String>,
    /// Version (1 or more; default 1).
    pub version: Option<i32>,
    /// Revision (default `1.0`).
    #[graphql(directive = length::apply(REVISION_MAX))]
    pub revision: Option<String>,
    /// Active (default true).
    pub is_active: Option<bool>,
    /// A template for no product (default false).
    pub is_template: Option<bool>,
    /// From when it applies.
    pub effective_date: Option<NaiveDate>,
    /// Notes.
    #[graphql(directive = length::apply(NOTES_MAX))]
    pub notes: Option<String>,
    /// The characteristics (replace the plan's when given).
    pub characteristics: Option<Vec<CharacteristicInput>>,
}

/// A plan by id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<QualityPlan>> {
    Ok(quality_plans::table
        .find(id)
        .select(QualityPlan::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Plans by code (`product_id` filters; inactive ones only when asked).
pub async fn list(
    conn: &mut AsyncPgConnection,
    product_id: Option<i64>,
    include_inactive: bool,
) -> AppResult<Vec<QualityPlan>> {
    let mut q = quality_plans::table
        .select(QualityPlan::as_select())
        .order((quality_plans::code, quality_plans::id))
        .into_boxed();
    if let Some(p) = product_id {
        q = q.filter(quality_plans::product_id.eq(p));
    }
    if !include_inactive {
        q = q.filter(quality_plans::is_active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// A product's active plan: the first active one by code (templates never).
pub async fn active_for(
    conn: &mut AsyncPgConnection,
    product_id: i64,
) -> AppResult<Option<QualityPlan>> {
    Ok(quality_plans::table
        .filter(quality_plans::product_id.eq(product_id))
        .filter(quality_plans::is_active.eq(true))
        .order((quality_plans::code, quality_plans::id))
        .select(QualityPlan::as_select())
        .first(conn)
        .await
        .optional()?)
}

fn checked_characteristics(errors: &mut Vec<UserError>, list: &mut [CharacteristicInput]) {
    let mut codes: Vec<String> = Vec::new();
    for (i, c) in list.iter_mut().enumerate() {
        let at = |f: &str| format!("characteristics.{i}.{f}");
        let mut name = Some(std::mem::take(&mut c.characteristic));
        text::required(
            errors,
            &at("characteristic"),
            &mut name,
            true,
            CHARACTERISTIC_MAX,
        );
        c.characteristic = name.unwrap_or_default();
        optional_text(errors, &at("code"), &mut c.code, CODE_MAX);
        optional_text(errors, &at("unit"), &mut c.unit, UNIT_MAX);
        optional_text(
            errors,
            &at("acceptanceCriteria"),
            &mut c.acceptance_criteria,
            NOTES_MAX,
        );
        let kind = *c
            .characteristic_type
            .get_or_insert(CharacteristicType::Variable);
        match kind {
            CharacteristicType::Attribute
                if c.nominal.is_some()
                    || c.lower_limit.is_some()
                    || c.upper_limit.is_some()
                    || c.unit.is_some() =>
            {
                errors.push(invalid(
                    &at("characteristicType"),
                    "An attribute characteristic has no nominal, limits or unit",
                ))
            }
            CharacteristicType::Variable if c.acceptance_criteria.is_some() => {
                errors.push(invalid(
                    &at("acceptanceCriteria"),
                    "A variable characteristic has no acceptance criteria (it is measured)",
                ))
            }
            _ => {}
        }
        if let (Some(lo), Some(hi)) = (&c.lower_limit, &c.upper_limit)
            && lo.0 > hi.0
        {
            errors.push(invalid(
                &at("lowerLimit"),
                "lower_limit cannot be greater than upper_limit",
            ));
        }
        if c.sequence.is_none() {
            c.sequence = Some(i32::try_from(i).unwrap_or(i32::MAX));
        }
        if let Some(code) = &c.code {
            codes.push(code.clone());
        }
    }
    codes.sort();
    let mut dup: Vec<String> = codes
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0].clone())
        .collect();
    dup.dedup();
    if !dup.is_empty() {
        errors.push(UserError::new(
            "characteristics",
            UserErrorCode::NotAllowed,
            format!(
                "duplicate characteristic code(s) within the plan: {}",
                dup.join(", ")
            ),
        ));
    }
}

async fn replace_characteristics(
    conn: &mut AsyncPgConnection,
    plan_id: i64,
    list: Vec<CharacteristicInput>,
) -> AppResult<()> {
    diesel::delete(
        quality_plan_characteristics::table
            .filter(quality_plan_characteristics::quality_plan_id.eq(plan_id)),
    )
    .execute(conn)
    .await?;
    let rows: Vec<_> = list
        .into_iter()
        .map(|c| {
            (
                quality_plan_characteristics::quality_plan_id.eq(plan_id),
                quality_plan_characteristics::code.eq(c.code),
                quality_plan_characteristics::characteristic.eq(c.characteristic),
                quality_plan_characteristics::characteristic_type.eq(c
                    .characteristic_type
                    .unwrap_or(CharacteristicType::Variable)),
                quality_plan_characteristics::nominal.eq(c.nominal.map(|d| d.0)),
                quality_plan_characteristics::lower_limit.eq(c.lower_limit.map(|d| d.0)),
                quality_plan_characteristics::upper_limit.eq(c.upper_limit.map(|d| d.0)),
                quality_plan_characteristics::unit.eq(c.unit),
                quality_plan_characteristics::acceptance_criteria.eq(c.acceptance_criteria),
                quality_plan_characteristics::sequence.eq(c.sequence.unwrap_or(0)),
                quality_plan_characteristics::severity.eq(c.severity),
                quality_plan_characteristics::routing_operation_id.eq(c.routing_operation_id),
            )
        })
        .collect();
    if !rows.is_empty() {
        diesel::insert_into(quality_plan_characteristics::table)
            .values(rows)
            .execute(conn)
            .await?;
    }
    Ok(())
}

fn not_found() -> Stop {
    Stop::Failed(AppError::not_found("Quality plan not found"))
}

/// Saves a new plan (`id` none) or changes one, with its characteristics, in the caller's
/// transaction.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut input: QualityPlanInput,
) -> Result<QualityPlan, Stop> {
    let adding = id.is_none();
    let existing = match id {
        Some(id) => Some(
            quality_plans::table
                .find(id)
                .select(QualityPlan::as_select())
                .for_update()
                .first(conn)
                .await
                .optional()?
                .ok_or_else(not_found)?,
        ),
        None => None,
    };
    let mut errors = Vec::new();
    text::required(&mut errors, "code", &mut input.code, adding, CODE_MAX);
    text::required(&mut errors, "name", &mut input.name, adding, NAME_MAX);
    optional_text(&mut errors, "revision", &mut input.revision, REVISION_MAX);
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if input.version.is_some_and(|v| v < 1) {
        errors.push(invalid(
            "version",
            "Input should be greater than or equal to 1",
        ));
    }
    if let Some(list) = input.characteristics.as_mut() {
        checked_characteristics(&mut errors, list);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    // The plan as it will be: a template has no product, a product plan has one.
    let is_template = input
        .is_template
        .or(existing.as_ref().map(|p| p.is_template))
        .unwrap_or(false);
    let product = input
        .product_id
        .or(existing.as_ref().and_then(|p| p.product_id));
    if is_template && product.is_some() {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotAllowed,
            "a template plan must not have a product_id",
        ));
    }
    if !is_template && product.is_none() {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotAllowed,
            "a product plan requires a product_id (or set is_template=true)",
        ));
    }
    if let Some(p) = input.product_id {
        let exists: bool = diesel::select(diesel::dsl::exists(items::table.find(p)))
            .get_result(conn)
            .await?;
        if !exists {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotFound,
                format!("product_id {p} does not exist"),
            ));
        }
    }
    let plan = match existing {
        None => {
            diesel::insert_into(quality_plans::table)
                .values((
                    quality_plans::product_id.eq(product),
                    quality_plans::code.eq(input.code.unwrap_or_default()),
                    quality_plans::name.eq(input.name.unwrap_or_default()),
                    quality_plans::version.eq(input.version.unwrap_or(1)),
                    quality_plans::revision.eq(input.revision.unwrap_or_else(|| "1.0".into())),
                    quality_plans::is_active.eq(input.is_active.unwrap_or(true)),
                    quality_plans::is_template.eq(is_template),
                    quality_plans::effective_date.eq(input.effective_date),
                    quality_plans::notes.eq(input.notes),
                ))
                .returning(QualityPlan::as_returning())
                .get_result(conn)
                .await?
        }
        Some(p) => {
            diesel::update(quality_plans::table.find(p.id))
                .set((
                    quality_plans::product_id.eq(if is_template { None } else { product }),
                    input.code.map(|v| quality_plans::code.eq(v)),
                    input.name.map(|v| quality_plans::name.eq(v)),
                    input.version.map(|v| quality_plans::version.eq(v)),
                    input.revision.map(|v| quality_plans::revision.eq(v)),
                    input.is_active.map(|v| quality_plans::is_active.eq(v)),
                    quality_plans::is_template.eq(is_template),
                    input
                        .effective_date
                        .map(|v| quality_plans::effective_date.eq(Some(v))),
                    input.notes.map(|v| quality_plans::notes.eq(Some(v))),
                    quality_plans::updated_at.eq(chrono::Utc::now()),
                ))
                .returning(QualityPlan::as_returning())
                .get_result(conn)
                .await?
        }
    };
    if let Some(list) = input.characteristics {
        replace_characteristics(conn, plan.id, list).await?;
    }
    Ok(plan)
}

/// Deactivates a plan (inspections keep naming it).
pub async fn deactivate(conn: &mut AsyncPgConnection, id: i64) -> Result<QualityPlan, Stop> {
    diesel::update(quality_plans::table.find(id))
        .set((
            quality_plans::is_active.eq(false),
            quality_plans::updated_at.eq(chrono::Utc::now()),
        ))
        .returning(QualityPlan::as_returning())
        .get_result(conn)
        .await
        .optional()?
        .ok_or_else(not_found)
}

/// Per-request characteristics of plans.
pub type Characteristics = DataLoader<CharacteristicsLoader, HashMapCache>;
