//! The shop floor as a whole: what each printer is running, the per-printer dispatch queues
//! and the next operation each idle printer should run (dispatch suggestions), the command
//! center's summary, action items and resources, and the production trend. Reads only; each
//! answer costs a fixed handful of statements whatever the size of the farm.

use std::collections::HashMap;

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use crate::operations::printers::model::PrinterStatus;
use crate::operations::production::model::{OperationStatus, OrderStatus, WorkCenterType};
use crate::platform::db::schema::{
    inventory_balances, items, printers, production_order_materials, production_order_operations,
    production_orders, spools, work_centers,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

/// The statuses of orders on the floor.
const OPEN: [OrderStatus; 3] = [
    OrderStatus::Released,
    OrderStatus::InProgress,
    OrderStatus::OnHold,
];

/// A printer and what it is running.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterWork {
    /// The printer.
    pub printer_id: i64,
    /// Its code.
    pub printer_code: String,
    /// Its name.
    pub printer_name: String,
    /// What it is doing.
    pub status: PrinterStatus,
    /// Its work center.
    pub work_center_id: Option<i64>,
    /// The running operation, if any.
    pub operation_id: Option<i64>,
    /// The operation's name.
    pub operation_name: Option<String>,
    /// Its order.
    pub production_order_id: Option<i64>,
    /// The order's code.
    pub production_order_code: Option<String>,
    /// The product's SKU.
    pub product_sku: Option<String>,
    /// When the operation started.
    pub started_at: Option<Timestamp>,
    /// Operations queued for this printer.
    pub queued_count: i32,
}

#[derive(Debug, Clone, Queryable)]
struct PrinterFacts {
    id: i64,
    code: String,
    name: String,
    status: PrinterStatus,
    work_center_id: Option<i64>,
    capabilities: Value,
}

/// One released print operation waiting on the floor.
#[derive(Debug, Clone, SimpleObject)]
pub struct QueuedOperation {
    /// The operation.
    pub operation_id: i64,
    /// Its name.
    pub operation_name: String,
    /// Its status (queued or pending).
    pub status: OperationStatus,
    /// Its work center.
    pub work_center_id: i64,
    /// The printer it is assigned to, if any.
    pub printer_id: Option<i64>,
    /// The order.
    pub production_order_id: i64,
    /// The order's code.
    pub production_order_code: String,
    /// The product's SKU.
    pub product_sku: String,
    /// The order's priority (1 highest).
    pub priority: i32,
    /// The order's due date.
    pub due_date: Option<NaiveDate>,
    /// Planned minutes (setup plus run).
    pub planned_minutes: Decimal,
    /// The filament items the order needs (their ids).
    #[graphql(skip)]
    pub filaments: Vec<i64>,
}

#[derive(Debug, Clone, Queryable)]
struct OpFacts {
    id: i64,
    name: String,
    status: OperationStatus,
    work_center_id: i64,
    printer_id: Option<i64>,
    order_id: i64,
    code: String,
    sku: String,
    priority: i32,
    due: Option<NaiveDate>,
    setup: BigDecimal,
    run: BigDecimal,
    started: Option<Timestamp>,
}

async fn printer_facts(conn: &mut AsyncPgConnection) -> AppResult<Vec<PrinterFacts>> {
    Ok(printers::table
        .filter(printers::active.eq(true))
        .order((printers::code, printers::id))
        .select((
            printers::id,
            printers::code,
            printers::name,
            printers::status,
            printers::work_center_id,
            printers::capabilities,
        ))
        .load(conn)
        .await?)
}

/// Operations of open orders in these statuses, with their order's facts.
async fn op_facts(
    conn: &mut AsyncPgConnection,
    statuses: &[OperationStatus],
) -> AppResult<Vec<OpFacts>> {
    Ok(production_order_operations::table
        .inner_join(production_orders::table.inner_join(items::table))
        .filter(production_order_operations::status.eq_any(statuses))
        .filter(production_orders::status.eq_any(OPEN))
        .order((
            production_orders::priority.asc(),
            production_orders::due_date.asc().nulls_last(),
            production_orders::id.asc(),
            production_order_operations::sequence.asc(),
        ))
        .select((
            production_order_operations::id,
            production_order_operations::operation_name,
            production_order_operations::status,
            production_order_operations::work_center_id,
            production_order_operations::printer_id,
            production_orders::id,
            production_orders::code,
            items::sku,
            production_orders::priority,
            production_orders::due_date,
            production_order_operations::planned_setup_minutes,
            production_order_operations::planned_run_minutes,
            production_order_operations::actual_start,
        ))
        .load(conn)
        .await?)
}

/// What every active printer is running (`/printers/active-work`).
pub async fn active_work(conn: &mut AsyncPgConnection) -> AppResult<Vec<PrinterWork>> {
    let printers = printer_facts(conn).await?;
    let ops = op_facts(conn, &[OperationStatus::Running, OperationStatus::Queued]).await?;
    Ok(printers
        .into_iter()
        .map(|p| {
            let running = ops
                .iter()
                .find(|o| o.printer_id == Some(p.id) && o.status == OperationStatus::Running);
            let queued = ops
                .iter()
                .filter(|o| o.printer_id == Some(p.id) && o.status == OperationStatus::Queued)
                .count() as i32;
            PrinterWork {
                printer_id: p.id,
                printer_code: p.code,
                printer_name: p.name,
                status: p.status,
                work_center_id: p.work_center_id,
                operation_id: running.map(|o| o.id),
                operation_name: running.map(|o| o.name.clone()),
                production_order_id: running.map(|o| o.order_id),
                production_order_code: running.map(|o| o.code.clone()),
                product_sku: running.map(|o| o.sku.clone()),
                started_at: running.and_then(|o| o.started),
                queued_count: queued,
            }
        })
        .collect())
}

async fn print_centers(conn: &mut AsyncPgConnection) -> AppResult<Vec<i64>> {
    Ok(work_centers::table
        .filter(work_centers::center_type.eq(WorkCenterType::PrinterPool))
        .select(work_centers::id)
        .load(conn)
        .await?)
}

/// The filament items each of these orders still needs.
async fn filaments_of(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<HashMap<i64, Vec<i64>>> {
    let rows: Vec<(i64, i64)> = production_order_materials::table
        .inner_join(items::table)
        .filter(production_order_materials::production_order_id.eq_any(orders))
        .filter(items::item_type.eq("material"))
        .select((
            production_order_materials::production_order_id,
            production_order_materials::component_id,
        ))
        .load(conn)
        .await?;
    let mut out: HashMap<i64, Vec<i64>> = HashMap::new();
    for (o, c) in rows {
        out.entry(o).or_default().push(c);
    }
    Ok(out)
}

fn to_queued(o: &OpFacts, filaments: &HashMap<i64, Vec<i64>>) -> QueuedOperation {
    QueuedOperation {
        operation_id: o.id,
        operation_name: o.name.clone(),
        status: o.status,
        work_center_id: o.work_center_id,
        printer_id: o.printer_id,
        production_order_id: o.order_id,
        production_order_code: o.code.clone(),
        product_sku: o.sku.clone(),
        priority: o.priority,
        due_date: o.due,
        planned_minutes: Decimal(&o.setup + &o.run),
        filaments: filaments.get(&o.order_id).cloned().unwrap_or_default(),
    }
}

/// A printer's queue of released print operations.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterQueue {
    /// The printer.
    pub printer_id: i64,
    /// Its code.
    pub printer_code: String,
    /// What it is doing.
    pub status: PrinterStatus,
    /// The operations it may run, best first: assigned to it, then its work center's
    /// unassigned ones.
    pub operations: Vec<QueuedOperation>,
    /// Their planned minutes in total.
    pub queued_minutes: Decimal,
}

fn can_run(p: &PrinterFacts, o: &OpFacts, print_centers: &[i64]) -> bool {
    match o.printer_id {
        Some(assigned) => assigned == p.id,
        None => match p.work_center_id {
            Some(wc) => wc == o.work_center_id,
            None => print_centers.contains(&o.work_center_id),
        },
    }
}

/// The per-printer queues of released print operations (`/dispatch/queues`).
pub async fn queues(conn: &mut AsyncPgConnection) -> AppResult<Vec<PrinterQueue>> {
    let printers = printer_facts(conn).await?;
    let centers = print_centers(conn).await?;
    let ops = op_facts(conn, &[OperationStatus::Queued]).await?;
    let orders: Vec<i64> = ops.iter().map(|o| o.order_id).collect();
    let filaments = filaments_of(conn, &orders).await?;
    Ok(printers
        .iter()
        .map(|p| {
            let mut mine: Vec<&OpFacts> = ops.iter().filter(|o| can_run(p, o, &centers)).collect();
            mine.sort_by_key(|o| o.printer_id.is_none());
            let operations: Vec<QueuedOperation> =
                mine.iter().map(|o| to_queued(o, &filaments)).collect();
            let minutes = operations
                .iter()
                .fold(BigDecimal::zero(), |a, o| a + &o.planned_minutes.0);
            PrinterQueue {
                printer_id: p.id,
                printer_code: p.code.clone(),
                status: p.status,
                operations,
                queued_minutes: Decimal(minutes),
            }
        })
        .collect())
}

/// The next operation an idle printer should run.
#[derive(Debug, Clone, SimpleObject)]
pub struct DispatchSuggestion {
    /// The idle printer.
    pub printer_id: i64,
    /// Its code.
    pub printer_code: String,
    /// Its name.
    pub printer_name: String,
    /// The spool loaded on it (`capabilities.loaded_spool_id`), if known.
    pub loaded_spool_id: Option<i64>,
    /// That spool's material item (material and colour).
    pub loaded_material_id: Option<i64>,
    /// The operation to run.
    pub operation: QueuedOperation,
    /// The loaded spool is the filament the order needs (no swap).
    pub material_match: bool,
    /// Higher is better.
    pub score: i32,
    /// Why this one, for people.
    pub reasons: Vec<String>,
    /// How to accept it: the operation start route with this printer.
    pub accept_path: String,
}

/// The materials a printer can print (`capabilities.materials`: item ids or SKUs), if it
/// says.
fn printable(capabilities: &Value) -> Option<Vec<Value>> {
    capabilities
        .get("materials")
        .and_then(|m| m.as_array())
        .cloned()
}

/// For each idle printer, the best operation it can run now: one assigned to it or queued at
/// its work center, that it is able to print (`capabilities.materials`), preferring the
/// filament already loaded (`capabilities.loaded_spool_id`: no spool swap), then priority,
/// then due date. Each operation is suggested to one printer at most.
pub async fn suggestions(conn: &mut AsyncPgConnection) -> AppResult<Vec<DispatchSuggestion>> {
    let printers = printer_facts(conn).await?;
    let centers = print_centers(conn).await?;
    let ops = op_facts(conn, &[OperationStatus::Queued]).await?;
    let orders: Vec<i64> = ops.iter().map(|o| o.order_id).collect();
    let filaments = filaments_of(conn, &orders).await?;
    let spool_items = loaded_items(conn, &printers).await?;
    let stock = FilamentStock::load(conn, &filaments).await?;
    let busy: Vec<i64> = op_facts(conn, &[OperationStatus::Running])
        .await?
        .iter()
        .filter_map(|o| o.printer_id)
        .collect();
    let mut taken: Vec<i64> = Vec::new();
    let mut out = Vec::new();
    for p in printers
        .iter()
        .filter(|p| p.status == PrinterStatus::Idle && !busy.contains(&p.id))
    {
        let loaded_spool = p
            .capabilities
            .get("loaded_spool_id")
            .and_then(Value::as_i64);
        let loaded_item = loaded_spool.and_then(|s| spool_items.get(&s).copied());
        let can_print = printable(&p.capabilities);
        let mut best: Option<(i32, &OpFacts, Vec<String>, bool)> = None;
        for o in ops
            .iter()
            .filter(|o| !taken.contains(&o.id) && can_run(p, o, &centers))
        {
            let needs = filaments.get(&o.order_id).cloned().unwrap_or_default();
            if !stock.usable(&needs, can_print.as_deref()) {
                continue;
            }
            let (score, reasons, matched) = stock.score(p, o, &needs, loaded_item);
            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                best = Some((score, o, reasons, matched));
            }
        }
        if let Some((score, o, reasons, matched)) = best {
            taken.push(o.id);
            out.push(DispatchSuggestion {
                printer_id: p.id,
                printer_code: p.code.clone(),
                printer_name: p.name.clone(),
                loaded_spool_id: loaded_spool,
                loaded_material_id: loaded_item,
                accept_path: format!(
                    "/api/v1/production-orders/{}/operations/{}/start",
                    o.order_id, o.id
                ),
                operation: to_queued(o, &filaments),
                material_match: matched,
                score,
                reasons,
            });
        }
    }
    Ok(out)
}

/// The material item of each spool loaded on a printer (`capabilities.loaded_spool_id`),
/// by spool id.
async fn loaded_items(
    conn: &mut AsyncPgConnection,
    printers: &[PrinterFacts],
) -> AppResult<HashMap<i64, i64>> {
    let loaded: Vec<i64> = printers
        .iter()
        .filter_map(|p| {
            p.capabilities
                .get("loaded_spool_id")
                .and_then(Value::as_i64)
        })
        .collect();
    Ok(spools::table
        .filter(spools::id.eq_any(&loaded))
        .select((spools::id, spools::product_id))
        .load::<(i64, i64)>(conn)
        .await?
        .into_iter()
        .collect())
}

/// The filaments the queued orders need: their SKUs and free stock, by item id.
struct FilamentStock {
    skus: HashMap<i64, String>,
    free: HashMap<i64, BigDecimal>,
}

impl FilamentStock {
    /// Loads the SKUs and on-hand stock (over every location) of the orders' filaments.
    async fn load(
        conn: &mut AsyncPgConnection,
        filaments: &HashMap<i64, Vec<i64>>,
    ) -> AppResult<FilamentStock> {
        let all_filaments: Vec<i64> = filaments.values().flatten().copied().collect();
        let skus: HashMap<i64, String> = items::table
            .filter(items::id.eq_any(&all_filaments))
            .select((items::id, items::sku))
            .load::<(i64, String)>(conn)
            .await?
            .into_iter()
            .collect();
        // Free stock of each filament (an operation whose filament is missing is not suggested).
        let free: HashMap<i64, BigDecimal> = inventory_balances::table
            .filter(inventory_balances::item_id.eq_any(&all_filaments))
            .select((
                inventory_balances::item_id,
                inventory_balances::on_hand_quantity,
            ))
            .load::<(i64, BigDecimal)>(conn)
            .await?
            .into_iter()
            .fold(HashMap::new(), |mut m, (i, q)| {
                *m.entry(i).or_insert_with(BigDecimal::zero) += q;
                m
            });
        Ok(FilamentStock { skus, free })
    }

    /// Whether a printer can run an operation needing these filaments: it can print each of
    /// them (`capabilities.materials`, item ids or SKUs, when it says) and each is in stock.
    fn usable(&self, needs: &[i64], can_print: Option<&[Value]>) -> bool {
        if let Some(list) = can_print
            && !needs.iter().all(|n| {
                list.iter().any(|v| {
                    v.as_i64() == Some(*n)
                        || v.as_str()
                            .zip(self.skus.get(n))
                            .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
                })
            })
        {
            return false;
        }
        !needs
            .iter()
            .any(|n| self.free.get(n).is_none_or(|q| *q <= BigDecimal::zero()))
    }

    /// Scores an operation for a printer (the loaded filament first, then assignment,
    /// priority and due date): the score, the reasons for people, and whether the loaded
    /// spool is the filament it needs.
    fn score(
        &self,
        p: &PrinterFacts,
        o: &OpFacts,
        needs: &[i64],
        loaded_item: Option<i64>,
    ) -> (i32, Vec<String>, bool) {
        let mut reasons = Vec::new();
        let mut score = 0;
        let matched = loaded_item.is_some_and(|l| needs.contains(&l));
        if matched {
            score += 1000;
            reasons.push("The loaded spool is the filament it needs (no swap)".to_string());
        } else if !needs.is_empty() {
            let names: Vec<String> = needs
                .iter()
                .map(|n| self.skus.get(n).cloned().unwrap_or_else(|| n.to_string()))
                .collect();
            reasons.push(format!("Needs a spool of {}", names.join(", ")));
        }
        if o.printer_id == Some(p.id) {
            score += 500;
            reasons.push("Assigned to this printer".into());
        }
        score += (6 - o.priority) * 50;
        reasons.push(format!("Priority {}", o.priority));
        if let Some(due) = o.due {
            let days = (due - crate::ledgers::inventory::rules::today()).num_days();
            score += (60 - days.clamp(-60, 60)) as i32;
            reasons.push(format!("Due {due}"));
        }
        (score, reasons, matched)
    }
}

/// One thing someone should look at.
#[derive(Debug, Clone, SimpleObject)]
pub struct ActionItem {
    /// late, blocked, waiting_for_material, qc_pending, printer_error.
    pub kind: String,
    /// high, medium or low.
    pub severity: String,
    /// The order concerned.
    pub production_order_id: Option<i64>,
    /// Its code.
    pub production_order_code: Option<String>,
    /// The printer concerned.
    pub printer_id: Option<i64>,
    /// What is wrong, for people.
    pub message: String,
}

/// The command center's counts.
#[derive(Debug, Clone, SimpleObject)]
pub struct CommandSummary {
    /// Operations running now.
    pub running: i32,
    /// Open orders past their due date.
    pub late: i32,
    /// Orders on hold.
    pub blocked: i32,
    /// Released or running orders whose materials are not all reserved or consumed.
    pub waiting_for_material: i32,
    /// Complete orders waiting for QC.
    pub qc_pending: i32,
    /// Open orders by status.
    pub released: i32,
    /// In progress.
    pub in_progress: i32,
    /// Printers idle.
    pub printers_idle: i32,
    /// Printers printing.
    pub printers_printing: i32,
    /// Printers in error, maintenance or offline.
    pub printers_down: i32,
}

#[derive(Debug, Clone, Queryable)]
struct OrderFacts {
    id: i64,
    code: String,
    status: OrderStatus,
    due: Option<NaiveDate>,
    qc: crate::operations::production::model::QcStatus,
}

async fn floor_orders(conn: &mut AsyncPgConnection) -> AppResult<Vec<OrderFacts>> {
    Ok(production_orders::table
        .filter(
            production_orders::status
                .eq_any(OPEN)
                .or(production_orders::qc_status
                    .eq(crate::operations::production::model::QcStatus::Pending)),
        )
        .order((production_orders::priority, production_orders::id))
        .select((
            production_orders::id,
            production_orders::code,
            production_orders::status,
            production_orders::due_date,
            production_orders::qc_status,
        ))
        .load(conn)
        .await?)
}

async fn short_orders(conn: &mut AsyncPgConnection, orders: &[i64]) -> AppResult<Vec<i64>> {
    let rows: Vec<(i64, BigDecimal, BigDecimal, BigDecimal)> = production_order_materials::table
        .filter(production_order_materials::production_order_id.eq_any(orders))
        .select((
            production_order_materials::production_order_id,
            production_order_materials::quantity_required,
            production_order_materials::quantity_allocated,
            production_order_materials::quantity_consumed,
        ))
        .load(conn)
        .await?;
    let mut out: Vec<i64> = rows
        .into_iter()
        .filter(|(_, r, a, c)| a + c < *r)
        .map(|(o, ..)| o)
        .collect();
    out.dedup();
    Ok(out)
}

/// What someone should look at, most urgent first (`/command-center/action-items`).
pub async fn action_items(conn: &mut AsyncPgConnection) -> AppResult<Vec<ActionItem>> {
    let orders = floor_orders(conn).await?;
    let ids: Vec<i64> = orders
        .iter()
        .filter(|o| matches!(o.status, OrderStatus::Released | OrderStatus::InProgress))
        .map(|o| o.id)
        .collect();
    let short = short_orders(conn, &ids).await?;
    let today = crate::ledgers::inventory::rules::today();
    let mut out = Vec::new();
    for o in &orders {
        let item = |kind: &str, severity: &str, message: String| ActionItem {
            kind: kind.into(),
            severity: severity.into(),
            production_order_id: Some(o.id),
            production_order_code: Some(o.code.clone()),
            printer_id: None,
            message,
        };
        if OPEN.contains(&o.status)
            && let Some(due) = o.due
            && due < today
        {
            out.push(item("late", "high", format!("{} was due {due}", o.code)));
        }
        if o.status == OrderStatus::OnHold {
            out.push(item("blocked", "medium", format!("{} is on hold", o.code)));
        }
        if short.contains(&o.id) {
            out.push(item(
                "waiting_for_material",
                "high",
                format!("{} is waiting for material", o.code),
            ));
        }
        if o.status == OrderStatus::Complete
            && o.qc == crate::operations::production::model::QcStatus::Pending
        {
            out.push(item(
                "qc_pending",
                "low",
                format!("{} is waiting for QC", o.code),
            ));
        }
    }
    for p in printer_facts(conn).await? {
        if matches!(p.status, PrinterStatus::Error | PrinterStatus::Maintenance) {
            out.push(ActionItem {
                kind: "printer_error".into(),
                severity: if p.status == PrinterStatus::Error {
                    "high"
                } else {
                    "medium"
                }
                .into(),
                production_order_id: None,
                production_order_code: None,
                printer_id: Some(p.id),
                message: format!("Printer {} is in {}", p.code, p.status),
            });
        }
    }
    let rank = |s: &str| match s {
        "high" => 0,
        "medium" => 1,
        _ => 2,
    };
    out.sort_by_key(|a| rank(&a.severity));
    Ok(out)
}

/// The command center's counts (`/command-center/summary`).
pub async fn summary(conn: &mut AsyncPgConnection) -> AppResult<CommandSummary> {
    let orders = floor_orders(conn).await?;
    let ids: Vec<i64> = orders
        .iter()
        .filter(|o| matches!(o.status, OrderStatus::Released | OrderStatus::InProgress))
        .map(|o| o.id)
        .collect();
    let short = short_orders(conn, &ids).await?;
    let running = op_facts(conn, &[OperationStatus::Running]).await?.len() as i32;
    let printers = printer_facts(conn).await?;
    let today = crate::ledgers::inventory::rules::today();
    let count = |f: &dyn Fn(&OrderFacts) -> bool| orders.iter().filter(|o| f(o)).count() as i32;
    Ok(CommandSummary {
        running,
        late: count(&|o| OPEN.contains(&o.status) && o.due.is_some_and(|d| d < today)),
        blocked: count(&|o| o.status == OrderStatus::OnHold),
        waiting_for_material: short.len() as i32,
        qc_pending: count(&|o| {
            o.status == OrderStatus::Complete
                && o.qc == crate::operations::production::model::QcStatus::Pending
        }),
        released: count(&|o| o.status == OrderStatus::Released),
        in_progress: count(&|o| o.status == OrderStatus::InProgress),
        printers_idle: printers
            .iter()
            .filter(|p| p.status == PrinterStatus::Idle)
            .count() as i32,
        printers_printing: printers
            .iter()
            .filter(|p| p.status == PrinterStatus::Printing)
            .count() as i32,
        printers_down: printers
            .iter()
            .filter(|p| {
                matches!(
                    p.status,
                    PrinterStatus::Error | PrinterStatus::Maintenance | PrinterStatus::Offline
                )
            })
            .count() as i32,
    })
}

/// One day of the production trend.
#[derive(Debug, Clone, SimpleObject)]
pub struct TrendDay {
    /// The day.
    pub date: NaiveDate,
    /// Orders completed that day (FilaOps's `completed`).
    #[graphql(name = "ordersCompleted")]
    pub orders_completed: i32,
    /// Good units made.
    pub quantity_completed: Decimal,
    /// Units scrapped.
    pub quantity_scrapped: Decimal,
}

/// Completed production over a window with its totals and the orders in the pipeline now
/// (FilaOps's `/admin/dashboard/production-trend` envelope).
#[derive(Debug, Clone, SimpleObject)]
pub struct ProductionTrendReport {
    /// The period asked for (echoed), when one was.
    pub period: Option<String>,
    /// First day.
    pub start_date: NaiveDate,
    /// Last day (today).
    pub end_date: NaiveDate,
    /// Orders completed in the window.
    pub total_completed: i64,
    /// Good units made in the window.
    pub total_units: f64,
    /// Orders in progress now.
    pub pipeline_in_progress: i64,
    /// Orders released and waiting to start now.
    pub pipeline_scheduled: i64,
    /// Every day of the window, oldest first.
    pub data: Vec<TrendDay>,
}

/// The trend of `days` days with its totals and the pipeline now.
pub async fn trend_report(
    conn: &mut AsyncPgConnection,
    period: Option<String>,
    days: i64,
) -> AppResult<ProductionTrendReport> {
    let data = trend(conn, days).await?;
    let counts: Vec<(OrderStatus, i64)> = production_orders::table
        .filter(production_orders::status.eq_any([OrderStatus::InProgress, OrderStatus::Released]))
        .group_by(production_orders::status)
        .select((production_orders::status, diesel::dsl::count_star()))
        .load(conn)
        .await?;
    let count = |status: OrderStatus| {
        counts
            .iter()
            .find(|(s, _)| *s == status)
            .map_or(0, |(_, n)| *n)
    };
    let today = crate::ledgers::inventory::rules::today();
    Ok(ProductionTrendReport {
        period,
        start_date: <[TrendDay]>::first(&data).map_or(today, |d| d.date),
        end_date: today,
        total_completed: data.iter().map(|d| i64::from(d.orders_completed)).sum(),
        total_units: data
            .iter()
            .map(|d| bigdecimal::ToPrimitive::to_f64(&d.quantity_completed.0).unwrap_or(0.0))
            .sum(),
        pipeline_in_progress: count(OrderStatus::InProgress),
        pipeline_scheduled: count(OrderStatus::Released),
        data,
    })
}

/// Completed orders per day over the last `days` days (oldest first, every day present).
pub async fn trend(conn: &mut AsyncPgConnection, days: i64) -> AppResult<Vec<TrendDay>> {
    let days = days.clamp(1, 366);
    let today = crate::ledgers::inventory::rules::today();
    let from = today - chrono::Days::new((days - 1) as u64);
    let since = from
        .and_hms_opt(0, 0, 0)
        .map(|d| d.and_utc())
        .unwrap_or_else(chrono::Utc::now);
    let rows: Vec<(Option<Timestamp>, BigDecimal, BigDecimal)> = production_orders::table
        .filter(production_orders::status.eq(OrderStatus::Complete))
        .filter(production_orders::completed_at.ge(since))
        .select((
            production_orders::completed_at,
            production_orders::quantity_completed,
            production_orders::quantity_scrapped,
        ))
        .load(conn)
        .await?;
    let mut out: Vec<TrendDay> = (0..days)
        .map(|i| TrendDay {
            date: from + chrono::Days::new(i as u64),
            orders_completed: 0,
            quantity_completed: Decimal(BigDecimal::zero()),
            quantity_scrapped: Decimal(BigDecimal::zero()),
        })
        .collect();
    for (at, good, scrap) in rows {
        let Some(at) = at else { continue };
        let idx = (at.0.date_naive() - from).num_days();
        if let Some(day) = usize::try_from(idx).ok().and_then(|i| out.get_mut(i)) {
            day.orders_completed += 1;
            day.quantity_completed.0 += good;
            day.quantity_scrapped.0 += scrap;
        }
    }
    Ok(out)
}

/// The farm's resources for the command center.
#[derive(Debug, Clone, SimpleObject)]
pub struct CommandResources {
    /// Printers with what they run.
    pub printers: Vec<PrinterWork>,
    /// Work centers (active).
    pub work_centers: Vec<crate::operations::production::model::WorkCenterRow>,
}

/// Printers with their work and the active work centers (`/command-center/resources`).
pub async fn resources(conn: &mut AsyncPgConnection) -> AppResult<CommandResources> {
    Ok(CommandResources {
        printers: active_work(conn).await?,
        work_centers: crate::operations::production::model::work_centers(conn, true).await?,
    })
}
