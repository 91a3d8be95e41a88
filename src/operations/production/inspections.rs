//! The inspection history of orders and operations: every QC inspection ever recorded, with
//! its measurements, append-only (the database refuses changes and deletes). Quality
//! management ([`crate::operations::quality`]) decides what an inspection must show and
//! writes them; they are read here, beside the order they belong to, so an order list can
//! show its inspections with one statement per kind whatever the page size.

use async_graphql::dataloader::{DataLoader, HashMapCache};
use async_graphql::{ComplexObject, Context, SimpleObject};
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::{qc_inspections, qc_measurements};
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// What an inspection found.
    pub enum InspectionResult {
        /// Everything inspected conforms.
        Passed,
        /// Something does not conform.
        Failed,
        /// Accepted without (full) inspection; someone answers for it.
        Waived,
        /// Accepted with a deviation noted.
        Conditional,
    }
}

/// One inspection of an order (or one of its operations).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = qc_inspections, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "QcInspection", complex)]
pub struct InspectionRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub production_order_id: i64,
    /// The operation inspected (none: the order's final inspection).
    pub production_operation_id: Option<i64>,
    /// What it found.
    pub result: InspectionResult,
    /// Units that passed.
    pub quantity_passed: Option<Decimal>,
    /// Units that failed.
    pub quantity_failed: Option<Decimal>,
    /// Why the failed units were rejected.
    pub failure_reason: Option<String>,
    /// Inspector's notes.
    pub notes: Option<String>,
    /// The defect found.
    pub defect_reason_id: Option<i64>,
    /// The quality plan it was checked against.
    pub quality_plan_id: Option<i64>,
    /// Who inspected.
    pub inspector_user_id: Option<i64>,
    /// Who waived it (waivers only).
    pub waiver_user_id: Option<i64>,
    /// What the inspection gate found missing or out of specification (warn mode).
    pub gate_findings: Vec<String>,
    /// When.
    pub inspected_at: Timestamp,
}

/// One measurement of an inspection.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = qc_measurements, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "QcMeasurement", complex)]
pub struct MeasurementRow {
    /// Id.
    pub id: i64,
    /// The inspection.
    #[graphql(skip)]
    pub qc_inspection_id: i64,
    /// The plan characteristic it answers.
    pub quality_plan_characteristic_id: Option<i64>,
    /// The characteristic's stable code.
    pub characteristic_code: Option<String>,
    /// What was measured.
    pub characteristic: String,
    /// Target value.
    pub nominal: Option<Decimal>,
    /// Lower limit.
    pub lower_limit: Option<Decimal>,
    /// Upper limit.
    pub upper_limit: Option<Decimal>,
    /// The value measured.
    pub measured_value: Option<Decimal>,
    /// Unit.
    pub unit: Option<String>,
    /// The pass/fail answer of an attribute.
    pub conforms: Option<bool>,
    /// Display order.
    pub sequence: i32,
}

/// Whether a value lies within limits: `None` when it cannot be told (no value, or no
/// limit at all).
pub fn within(
    value: Option<&BigDecimal>,
    lower: Option<&BigDecimal>,
    upper: Option<&BigDecimal>,
) -> Option<bool> {
    let v = value?;
    if lower.is_none() && upper.is_none() {
        return None;
    }
    Some(lower.is_none_or(|l| v >= l) && upper.is_none_or(|u| v <= u))
}

#[ComplexObject]
impl MeasurementRow {
    /// Whether the measured value lies within its limits (null when it cannot be told).
    async fn is_within_spec(&self) -> Option<bool> {
        within(
            self.measured_value.as_ref().map(|d| &d.0),
            self.lower_limit.as_ref().map(|d| &d.0),
            self.upper_limit.as_ref().map(|d| &d.0),
        )
    }
}

#[ComplexObject]
impl InspectionRow {
    /// The measurements, in order.
    async fn measurements(&self, ctx: &Context<'_>) -> AppResult<Vec<MeasurementRow>> {
        Ok(context::data::<Measurements>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }
}

/// The inspections of orders, oldest first.
pub async fn of_orders(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<InspectionRow>> {
    Ok(qc_inspections::table
        .filter(qc_inspections::production_order_id.eq_any(order_ids))
        .order((qc_inspections::production_order_id, qc_inspections::id))
        .select(InspectionRow::as_select())
        .load(conn)
        .await?)
}

/// The measurements of inspections, in order.
pub async fn measurements_of(
    conn: &mut AsyncPgConnection,
    inspection_ids: &[i64],
) -> AppResult<Vec<MeasurementRow>> {
    Ok(qc_measurements::table
        .filter(qc_measurements::qc_inspection_id.eq_any(inspection_ids))
        .order((
            qc_measurements::qc_inspection_id,
            qc_measurements::sequence,
            qc_measurements::id,
        ))
        .select(MeasurementRow::as_select())
        .load(conn)
        .await?)
}

crate::grouped_loader!(
    /// The inspections of orders (and so of their operations), oldest first.
    InspectionsLoader, InspectionRow, of_orders, production_order_id
);
crate::grouped_loader!(
    /// The measurements of inspections.
    MeasurementsLoader, MeasurementRow, measurements_of, qc_inspection_id
);

/// Per-request inspections of orders.
pub type Inspections = DataLoader<InspectionsLoader, HashMapCache>;
/// Per-request measurements of inspections.
pub type Measurements = DataLoader<MeasurementsLoader, HashMapCache>;
