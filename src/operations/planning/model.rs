//! The stored side of planning: MRP runs, planned orders and the exceptions a run found,
//! each row served as its GraphQL object (names and computed fields in `graphql.rs`).

use async_graphql::SimpleObject;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::{mrp_exceptions, mrp_runs, planned_orders};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Buy or make.
    pub enum PlannedOrderType {
        /// Becomes a draft purchase order.
        Purchase,
        /// Becomes a draft production order.
        Production,
    }
}

crate::text_enum! {
    /// Where a planned order stands.
    pub enum PlannedOrderStatus {
        /// A suggestion: the next run replaces it.
        Planned,
        /// Confirmed by a person: runs keep it (and count it as supply).
        Firmed,
        /// Turned into a real purchase or production order.
        Released,
        /// Cancelled (FilaOps's rows; Strata deletes cancelled suggestions).
        Cancelled,
    }
}

crate::text_enum! {
    /// Where a planned order's requirement comes from.
    pub enum DemandSource {
        /// A sales order line.
        SalesOrder,
        /// A production order's components.
        ProductionOrder,
        /// A planned production order's components.
        PlannedOrder,
        /// Stock below its safety level.
        SafetyStock,
    }
}

crate::text_enum! {
    /// Where a run stands.
    pub enum MrpRunStatus {
        /// Under way.
        Running,
        /// Finished.
        Completed,
        /// Failed (see the error message).
        Failed,
        /// Stopped.
        Cancelled,
    }
}

crate::text_enum! {
    /// What an exception is about.
    pub enum MrpExceptionKind {
        /// A planned order's release date has passed: it cannot arrive in time.
        Late,
        /// More is coming than the horizon needs.
        Excess,
        /// A buy item needs ordering and no vendor is known.
        NoVendor,
        /// A BOM contains itself.
        Cycle,
    }
}

/// One MRP run.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = mrp_runs, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "MrpRun")]
pub struct MrpRunRow {
    /// Id.
    pub id: i64,
    /// When it ran.
    pub run_date: Timestamp,
    /// Days looked ahead.
    pub planning_horizon_days: i32,
    /// Where it stands.
    pub status: MrpRunStatus,
    /// Open sales and production orders read.
    pub orders_processed: i32,
    /// Items netted.
    pub components_analyzed: i32,
    /// Items that needed a planned order.
    pub shortages_found: i32,
    /// Planned orders created.
    pub planned_orders_created: i32,
    /// Exceptions found.
    pub exceptions_found: i32,
    /// Why it failed.
    pub error_message: Option<String>,
    /// When it finished.
    pub completed_at: Option<Timestamp>,
    /// Who ran it.
    pub created_by: Option<i64>,
}

/// What MRP proposes to buy or make.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = planned_orders, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "PlannedOrder", complex)]
pub struct PlannedOrderRow {
    /// Id.
    pub id: i64,
    /// Buy or make.
    pub order_type: PlannedOrderType,
    /// The item.
    pub product_id: i64,
    /// How much, in the item's stocking unit.
    pub quantity: Decimal,
    /// The day it must be there (the need date).
    pub due_date: NaiveDate,
    /// The day it must be released for its lead time (the release date).
    pub start_date: NaiveDate,
    /// The vendor to buy from (purchase orders; the preferred one when planned).
    pub vendor_id: Option<i64>,
    /// What the first requirement it covers is.
    pub source_demand_type: Option<DemandSource>,
    /// That requirement's order (sales order, production order or planned order id).
    pub source_demand_id: Option<i64>,
    /// The run that planned it.
    pub mrp_run_id: Option<i64>,
    /// Where it stands.
    pub status: PlannedOrderStatus,
    /// Its release date had passed when it was planned.
    pub is_late: bool,
    /// The purchase order it became.
    pub converted_to_po_id: Option<i64>,
    /// The production order it became.
    pub converted_to_mo_id: Option<i64>,
    /// Notes.
    pub notes: Option<String>,
    /// Planned.
    pub created_at: Timestamp,
    /// Firmed.
    pub firmed_at: Option<Timestamp>,
    /// Released.
    pub released_at: Option<Timestamp>,
}

/// Something a run found worth a look.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = mrp_exceptions, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "MrpException")]
pub struct MrpExceptionRow {
    /// Id.
    pub id: i64,
    /// The run.
    pub mrp_run_id: i64,
    /// The item.
    pub product_id: i64,
    /// What kind.
    pub kind: MrpExceptionKind,
    /// What, for people.
    pub message: String,
    /// The day concerned.
    pub due_date: Option<NaiveDate>,
    /// The quantity concerned.
    pub quantity: Option<Decimal>,
    /// The planned order concerned.
    pub planned_order_id: Option<i64>,
}

/// A new planned order.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = planned_orders)]
pub struct NewPlannedOrder {
    /// Preassigned id (so components can name their parent's order).
    pub id: i64,
    /// Buy or make.
    pub order_type: PlannedOrderType,
    /// The item.
    pub product_id: i64,
    /// How much.
    pub quantity: bigdecimal::BigDecimal,
    /// Need date.
    pub due_date: NaiveDate,
    /// Release date.
    pub start_date: NaiveDate,
    /// Vendor.
    pub vendor_id: Option<i64>,
    /// Source kind.
    pub source_demand_type: Option<DemandSource>,
    /// Source id.
    pub source_demand_id: Option<i64>,
    /// The run.
    pub mrp_run_id: Option<i64>,
    /// Late when planned.
    pub is_late: bool,
}

/// A new exception.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = mrp_exceptions)]
pub struct NewException {
    /// The run.
    pub mrp_run_id: i64,
    /// The item.
    pub product_id: i64,
    /// Kind.
    pub kind: MrpExceptionKind,
    /// Message.
    pub message: String,
    /// Day.
    pub due_date: Option<NaiveDate>,
    /// Quantity.
    pub quantity: Option<bigdecimal::BigDecimal>,
    /// Planned order.
    pub planned_order_id: Option<i64>,
}

/// How planned orders are listed.
#[derive(Debug, Clone, Default)]
pub struct PlannedOrderFilter {
    /// Only these statuses.
    pub status: Option<PlannedOrderStatus>,
    /// Only this type.
    pub order_type: Option<PlannedOrderType>,
    /// Only this item.
    pub product_id: Option<i64>,
    /// Late ones first, then by need date (else by need date only).
    pub exceptions_first: bool,
}

/// A page of planned orders (by need date) and how many match.
pub async fn planned_orders(
    conn: &mut AsyncPgConnection,
    filter: &PlannedOrderFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<PlannedOrderRow>, i64)> {
    let query = || {
        let mut q = planned_orders::table.into_boxed();
        if let Some(s) = filter.status {
            q = q.filter(planned_orders::status.eq(s));
        } else {
            q = q.filter(planned_orders::status.ne(PlannedOrderStatus::Cancelled));
        }
        if let Some(t) = filter.order_type {
            q = q.filter(planned_orders::order_type.eq(t));
        }
        if let Some(p) = filter.product_id {
            q = q.filter(planned_orders::product_id.eq(p));
        }
        q
    };
    let total: i64 = query().count().get_result(conn).await?;
    let mut q = query();
    if filter.exceptions_first {
        q = q
            .order(planned_orders::is_late.desc())
            .then_order_by(planned_orders::due_date);
    } else {
        q = q.order(planned_orders::due_date);
    }
    let rows = q
        .then_order_by(planned_orders::id)
        .limit(limit)
        .offset(offset)
        .select(PlannedOrderRow::as_select())
        .load(conn)
        .await?;
    Ok((rows, total))
}

/// One planned order.
pub async fn planned_order(conn: &mut AsyncPgConnection, id: i64) -> AppResult<PlannedOrderRow> {
    planned_orders::table
        .find(id)
        .select(PlannedOrderRow::as_select())
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("Planned order not found"))
}

/// Recent runs, newest first.
pub async fn runs(conn: &mut AsyncPgConnection, limit: i64) -> AppResult<Vec<MrpRunRow>> {
    Ok(mrp_runs::table
        .order((mrp_runs::run_date.desc(), mrp_runs::id.desc()))
        .limit(limit)
        .select(MrpRunRow::as_select())
        .load(conn)
        .await?)
}

/// One run.
pub async fn run(conn: &mut AsyncPgConnection, id: i64) -> AppResult<MrpRunRow> {
    mrp_runs::table
        .find(id)
        .select(MrpRunRow::as_select())
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AppError::not_found("MRP run not found"))
}

/// A run's exceptions (late first, then by day).
pub async fn exceptions_of(
    conn: &mut AsyncPgConnection,
    run_id: i64,
) -> AppResult<Vec<MrpExceptionRow>> {
    Ok(mrp_exceptions::table
        .filter(mrp_exceptions::mrp_run_id.eq(run_id))
        .order((
            mrp_exceptions::due_date.asc().nulls_last(),
            mrp_exceptions::id,
        ))
        .select(MrpExceptionRow::as_select())
        .load(conn)
        .await?)
}
