//! MRP runs and what people do with their planned orders: run (replace the unfirmed
//! suggestions with a fresh calculation), firm (keep one through later runs), release (turn
//! planned buys into draft purchase orders, one per vendor, and planned makes into draft
//! production orders) and cancel (delete a suggestion). Each runs in the caller's
//! transaction; a run holds an advisory lock so two runs never interleave, and release locks
//! the planned orders' rows so one is never released twice.

use std::collections::BTreeMap;

use async_graphql::InputObject;
use bigdecimal::{BigDecimal, RoundingMode};
use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::planning::inputs::{self, Inputs, Scope, from_qty};
use crate::operations::planning::model::{
    DemandSource, MrpExceptionKind, MrpRunRow, MrpRunStatus, NewException, NewPlannedOrder,
    PlannedOrderRow, PlannedOrderStatus, PlannedOrderType,
};
use crate::operations::planning::netting::{self, ExceptionKind, Outcome, Source};
use crate::operations::purchasing::rules::{PurchaseOrderCreateInput, PurchaseOrderLineInput};
use crate::platform::db::schema::{mrp_exceptions, mrp_runs, planned_orders};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// How to run MRP (FilaOps's `MRPRunRequest`).
#[derive(Debug, Clone, InputObject)]
pub struct MrpRunInput {
    /// Days to look ahead (1-365, default 30).
    #[graphql(default = 30)]
    pub planning_horizon_days: i32,
    /// Count draft production orders as supply and their components as demand (default true).
    #[graphql(default = true)]
    pub include_draft_orders: bool,
    /// Replace the unfirmed planned orders of earlier runs (default true; else new ones are
    /// added beside them).
    #[graphql(default = true)]
    pub regenerate_planned: bool,
}

impl Default for MrpRunInput {
    fn default() -> Self {
        MrpRunInput {
            planning_horizon_days: 30,
            include_draft_orders: true,
            regenerate_planned: true,
        }
    }
}

/// A key for `pg_advisory_xact_lock`: one MRP run at a time.
const RUN_LOCK: i64 = 0x4d52_5052_554e; // "MRPRUN"

/// Runs MRP and stores its planned orders and exceptions.
pub async fn run(
    conn: &mut AsyncPgConnection,
    input: MrpRunInput,
    user: i64,
) -> Result<MrpRunRow, Stop> {
    if !(1..=365).contains(&input.planning_horizon_days) {
        return Err(Stop::Refused(vec![invalid(
            "planningHorizonDays",
            "The planning horizon must be between 1 and 365 days",
        )]));
    }
    diesel::sql_query(format!("SELECT pg_advisory_xact_lock({RUN_LOCK})"))
        .execute(conn)
        .await?;
    let run_id: i64 = diesel::insert_into(mrp_runs::table)
        .values((
            mrp_runs::planning_horizon_days.eq(input.planning_horizon_days),
            mrp_runs::status.eq(MrpRunStatus::Running),
            mrp_runs::created_by.eq(user),
        ))
        .returning(mrp_runs::id)
        .get_result(conn)
        .await?;
    if input.regenerate_planned {
        diesel::delete(
            planned_orders::table.filter(planned_orders::status.eq(PlannedOrderStatus::Planned)),
        )
        .execute(conn)
        .await?;
    }
    let today = Utc::now().date_naive();
    let scope = Scope {
        today,
        include_draft_orders: input.include_draft_orders,
    };
    let data = inputs::load(conn, scope).await?;
    let horizon_end = today + Duration::days(i64::from(input.planning_horizon_days));
    let outcome = netting::plan(
        &data.items,
        &data.demands,
        &data.receipts,
        today,
        horizon_end,
    );
    let ids =
        crate::platform::db::next_values(conn, "planned_orders_id_seq", outcome.planned.len())
            .await?;
    store_planned(conn, run_id, &data, &outcome, &ids).await?;
    let exceptions = store_exceptions(conn, run_id, &data, &outcome, &ids).await?;
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    Ok(diesel::update(mrp_runs::table.find(run_id))
        .set((
            mrp_runs::status.eq(MrpRunStatus::Completed),
            mrp_runs::orders_processed.eq(count(data.sales_orders + data.production_orders)),
            mrp_runs::components_analyzed.eq(count(outcome.analysed)),
            mrp_runs::shortages_found.eq(count(outcome.short)),
            mrp_runs::planned_orders_created.eq(count(outcome.planned.len())),
            mrp_runs::exceptions_found.eq(count(exceptions)),
            mrp_runs::completed_at.eq(Utc::now()),
        ))
        .returning(MrpRunRow::as_select())
        .get_result(conn)
        .await?)
}

/// Rows per multi-row insert (well under PostgreSQL's 65,535 parameters).
const CHUNK: usize = 2_000;

fn source_columns(source: Source, ids: &[i64]) -> (Option<DemandSource>, Option<i64>) {
    match source {
        Source::SalesOrder(id) => (Some(DemandSource::SalesOrder), Some(id)),
        Source::ProductionOrder(id) => (Some(DemandSource::ProductionOrder), Some(id)),
        Source::PlannedOrder(index) => (
            Some(DemandSource::PlannedOrder),
            usize::try_from(index)
                .ok()
                .and_then(|i| ids.get(i).copied()),
        ),
        Source::SafetyStock => (Some(DemandSource::SafetyStock), None),
    }
}

async fn store_planned(
    conn: &mut AsyncPgConnection,
    run_id: i64,
    data: &Inputs,
    outcome: &Outcome,
    ids: &[i64],
) -> Result<(), Stop> {
    let rows: Vec<NewPlannedOrder> = outcome
        .planned
        .iter()
        .zip(ids)
        .map(|(p, id)| {
            let (source_demand_type, source_demand_id) = source_columns(p.source, ids);
            NewPlannedOrder {
                id: *id,
                order_type: if p.make {
                    PlannedOrderType::Production
                } else {
                    PlannedOrderType::Purchase
                },
                product_id: p.item_id,
                quantity: from_qty(p.qty),
                due_date: p.need_date,
                start_date: p.release_date.min(p.need_date),
                vendor_id: if p.make {
                    None
                } else {
                    data.facts
                        .get(&p.item_id)
                        .and_then(|f| f.vendor.as_ref())
                        .map(|v| v.0)
                },
                source_demand_type,
                source_demand_id,
                mrp_run_id: Some(run_id),
                is_late: p.late,
            }
        })
        .collect();
    for chunk in rows.chunks(CHUNK) {
        diesel::insert_into(planned_orders::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// The exception's words, e.g. "PLA-BLK: release by 2026-11-20 has passed; 5 needed by 2026-11-25".
fn describe(e: &netting::Exception, data: &Inputs, outcome: &Outcome) -> String {
    let facts = data.facts.get(&e.item_id);
    let sku = facts.map(|f| f.sku.as_str()).unwrap_or("?");
    let unit = facts.map(|f| f.unit.as_str()).unwrap_or("");
    let planned = e.planned.and_then(|i| outcome.planned.get(i));
    match (e.kind, planned) {
        (ExceptionKind::Late, Some(p)) => format!(
            "{sku}: {} {unit} needed by {} should have been released on {}",
            from_qty(p.qty).normalized(),
            p.need_date,
            p.release_date
        ),
        (ExceptionKind::NoVendor, _) => format!("{sku}: needs buying and has no vendor"),
        (ExceptionKind::Excess, _) => format!(
            "{sku}: {} {unit} more is on order or in production than the horizon needs",
            from_qty(e.qty.unwrap_or(0)).normalized()
        ),
        (ExceptionKind::Cycle, _) => {
            format!("{sku}: its BOM contains itself; its components were not planned")
        }
        (ExceptionKind::Late, None) => format!("{sku}: late"),
    }
}

async fn store_exceptions(
    conn: &mut AsyncPgConnection,
    run_id: i64,
    data: &Inputs,
    outcome: &Outcome,
    ids: &[i64],
) -> Result<usize, Stop> {
    let rows: Vec<NewException> = outcome
        .exceptions
        .iter()
        .map(|e| NewException {
            mrp_run_id: run_id,
            product_id: e.item_id,
            kind: match e.kind {
                ExceptionKind::Late => MrpExceptionKind::Late,
                ExceptionKind::Excess => MrpExceptionKind::Excess,
                ExceptionKind::NoVendor => MrpExceptionKind::NoVendor,
                ExceptionKind::Cycle => MrpExceptionKind::Cycle,
            },
            message: describe(e, data, outcome),
            due_date: e.date,
            quantity: e.qty.map(from_qty),
            planned_order_id: e.planned.and_then(|i| ids.get(i).copied()),
        })
        .collect();
    for chunk in rows.chunks(CHUNK) {
        diesel::insert_into(mrp_exceptions::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    Ok(rows.len())
}

async fn lock(conn: &mut AsyncPgConnection, ids: &[i64]) -> Result<Vec<PlannedOrderRow>, Stop> {
    let rows: Vec<PlannedOrderRow> = planned_orders::table
        .filter(planned_orders::id.eq_any(ids))
        .order(planned_orders::id)
        .for_update()
        .select(PlannedOrderRow::as_select())
        .load(conn)
        .await?;
    if let Some(missing) = ids.iter().find(|id| !rows.iter().any(|r| r.id == **id)) {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotFound,
            format!("Planned order {missing} not found"),
        ));
    }
    Ok(rows)
}

fn still_open(row: &PlannedOrderRow) -> Result<(), UserError> {
    match row.status {
        PlannedOrderStatus::Planned | PlannedOrderStatus::Firmed => Ok(()),
        other => Err(UserError::new(
            "id",
            UserErrorCode::NotAllowed,
            format!("Planned order {} is {other} and cannot be changed", row.id),
        )),
    }
}

/// Firms a planned order: later runs keep it and count it as supply.
pub async fn firm(
    conn: &mut AsyncPgConnection,
    id: i64,
    notes: Option<String>,
) -> Result<PlannedOrderRow, Stop> {
    let rows = lock(conn, &[id]).await?;
    let row = rows
        .into_iter()
        .next()
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Planned order not found"))?;
    if row.status != PlannedOrderStatus::Planned {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            format!(
                "Only planned orders can be firmed; this one is {}",
                row.status
            ),
        ));
    }
    let notes = notes
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .or(row.notes);
    if notes.as_ref().is_some_and(|n| n.chars().count() > 2000) {
        return Err(Stop::Refused(vec![invalid(
            "notes",
            "Notes can be at most 2000 characters",
        )]));
    }
    Ok(diesel::update(planned_orders::table.find(id))
        .set((
            planned_orders::status.eq(PlannedOrderStatus::Firmed),
            planned_orders::firmed_at.eq(Utc::now()),
            planned_orders::notes.eq(notes),
        ))
        .returning(PlannedOrderRow::as_select())
        .get_result(conn)
        .await?)
}

/// Deletes an unreleased planned order (a released one is history).
pub async fn cancel(conn: &mut AsyncPgConnection, id: i64) -> Result<PlannedOrderRow, Stop> {
    let rows = lock(conn, &[id]).await?;
    let row = rows
        .into_iter()
        .next()
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Planned order not found"))?;
    if row.status == PlannedOrderStatus::Released {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            "Cannot cancel a released order",
        ));
    }
    diesel::delete(planned_orders::table.find(id))
        .execute(conn)
        .await?;
    Ok(row)
}

/// How to release planned orders.
#[derive(Debug, Clone, Default, InputObject)]
pub struct PlannedOrderReleaseInput {
    /// The vendor for planned buys: for one order it replaces the planned vendor; for several
    /// it serves the buys planned without one.
    pub vendor_id: Option<i64>,
    /// Notes for the orders created.
    pub notes: Option<String>,
}

/// What one release created.
#[derive(Debug, Clone)]
pub struct Released {
    /// The planned order.
    pub planned: PlannedOrderRow,
    /// The purchase order (id, number) or production order (id, code) it became.
    pub created: (i64, String),
}

/// Releases planned orders: buys become draft purchase orders, one per vendor with a line
/// per order; makes become draft production orders. All or nothing.
pub async fn release(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
    input: PlannedOrderReleaseInput,
    user: i64,
) -> Result<Vec<Released>, Stop> {
    let rows = lock(conn, ids).await?;
    let errors: Vec<UserError> = rows.iter().filter_map(|r| still_open(r).err()).collect();
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let costs = unit_costs(conn, &rows).await?;
    let single = rows.len() == 1;
    let mut by_vendor: BTreeMap<i64, Vec<PlannedOrderRow>> = BTreeMap::new();
    let mut out = Vec::new();
    for row in rows {
        match row.order_type {
            PlannedOrderType::Purchase => {
                // One order: the vendor asked for replaces the planned one. Several: it
                // serves only the buys planned without a vendor.
                let vendor = if single {
                    input.vendor_id.or(row.vendor_id)
                } else {
                    row.vendor_id.or(input.vendor_id)
                };
                let Some(vendor) = vendor else {
                    return Err(Stop::refuse(
                        "vendorId",
                        UserErrorCode::Invalid,
                        format!(
                            "Planned order {} has no vendor: vendor_id is required for purchase orders",
                            row.id
                        ),
                    ));
                };
                by_vendor.entry(vendor).or_default().push(row);
            }
            PlannedOrderType::Production => {
                let created = make(conn, &row, input.notes.clone()).await?;
                out.push(mark_released(conn, row, created).await?);
            }
        }
    }
    for (vendor, group) in by_vendor {
        let lines = group
            .iter()
            .map(|r| PurchaseOrderLineInput {
                product_id: r.product_id,
                quantity_ordered: r.quantity.clone(),
                unit_cost: Decimal(
                    costs
                        .get(&r.product_id)
                        .map(|c| c.0.clone())
                        .unwrap_or_default(),
                ),
                // Planned quantities are in the stocking unit.
                purchase_unit: costs.get(&r.product_id).map(|c| c.1.clone()),
                notes: Some(format!("MRP planned order {}", r.id)),
            })
            .collect();
        let po = crate::operations::purchasing::rules::create(
            conn,
            PurchaseOrderCreateInput {
                vendor_id: vendor,
                order_date: None,
                expected_date: group.iter().map(|r| r.due_date).min(),
                notes: input
                    .notes
                    .clone()
                    .or_else(|| Some("Released from MRP".into())),
                tracking_number: None,
                carrier: None,
                tax_amount: None,
                shipping_cost: None,
                payment_method: None,
                payment_reference: None,
                document_url: None,
                lines,
            },
            user,
        )
        .await?;
        for row in group {
            out.push(mark_released(conn, row, (po.id, po.po_number.clone())).await?);
        }
    }
    Ok(out)
}

/// Each item's cost per stocking unit and its stocking unit, for the purchase lines.
async fn unit_costs(
    conn: &mut AsyncPgConnection,
    rows: &[PlannedOrderRow],
) -> Result<std::collections::HashMap<i64, (BigDecimal, String)>, Stop> {
    let ids: Vec<i64> = rows.iter().map(|r| r.product_id).collect();
    let parts = crate::operations::bom::model::parts(conn, &ids).await?;
    Ok(parts
        .iter()
        .map(|p| {
            let cost = crate::operations::bom::tree::item_unit_cost(p);
            (
                p.id,
                (
                    cost.with_scale_round(4, RoundingMode::HalfUp),
                    p.unit.clone(),
                ),
            )
        })
        .collect())
}

async fn make(
    conn: &mut AsyncPgConnection,
    row: &PlannedOrderRow,
    notes: Option<String>,
) -> Result<(i64, String), Stop> {
    use crate::operations::production::model::OrderSource;
    use crate::operations::production::rules::ProductionOrderCreateInput;
    let order = crate::operations::production::rules::create(
        conn,
        ProductionOrderCreateInput {
            product_id: row.product_id,
            quantity_ordered: row.quantity.clone(),
            due_date: Some(row.due_date),
            priority: None,
            notes: notes.or_else(|| Some(format!("From MRP planned order {}", row.id))),
            bom_id: None,
            routing_id: None,
            sales_order_id: None,
            sales_order_line_id: None,
            source: Some(OrderSource::MrpPlanned),
            order_type: None,
            assigned_to: None,
            location_id: None,
        },
        None,
    )
    .await?;
    Ok((order.id, order.code))
}

async fn mark_released(
    conn: &mut AsyncPgConnection,
    row: PlannedOrderRow,
    created: (i64, String),
) -> Result<Released, Stop> {
    let (po, mo) = match row.order_type {
        PlannedOrderType::Purchase => (Some(created.0), None),
        PlannedOrderType::Production => (None, Some(created.0)),
    };
    let planned = diesel::update(planned_orders::table.find(row.id))
        .set((
            planned_orders::status.eq(PlannedOrderStatus::Released),
            planned_orders::released_at.eq(Utc::now()),
            planned_orders::converted_to_po_id.eq(po),
            planned_orders::converted_to_mo_id.eq(mo),
        ))
        .returning(PlannedOrderRow::as_select())
        .get_result(conn)
        .await?;
    Ok(Released { planned, created })
}
