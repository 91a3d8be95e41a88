//! Production rows (each is also the GraphQL object), their closed sets and the queries on
//! them.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::paging;
use crate::platform::db::schema::{
    items, production_order_materials, production_order_operations, production_order_spools,
    production_orders, routing_operations, routings, serial_numbers, work_centers,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Where a production order stands (CONTRACT 6.2).
    pub enum OrderStatus {
        /// Being prepared; nothing reserved.
        Draft,
        /// Released to the floor: BOM and routing snapshotted, components reserved.
        Released,
        /// Being made: components issued.
        InProgress,
        /// Paused.
        OnHold,
        /// Done: finished goods received.
        Complete,
        /// Cancelled: reservations released.
        Cancelled,
        /// Split into child orders.
        Split,
        /// Thrown away by the scrap action.
        Scrapped,
        /// Accepted short of its quantity: it completes with what was made, or is cancelled.
        Short,
    }
}

crate::text_enum! {
    /// Quality control of a production order (CONTRACT 6.2).
    pub enum QcStatus {
        /// No inspection needed.
        NotRequired,
        /// Waiting for inspection.
        Pending,
        /// Passed.
        Passed,
        /// Failed.
        Failed,
        /// Waived.
        Waived,
    }
}

crate::text_enum! {
    /// Where an operation stands (CONTRACT 6.2).
    pub enum OperationStatus {
        /// Not yet reachable.
        Pending,
        /// Next in line at its work center.
        Queued,
        /// Running.
        Running,
        /// Done.
        Complete,
        /// Skipped.
        Skipped,
    }
}

crate::text_enum! {
    /// Where a production order came from.
    pub enum OrderSource {
        /// Entered by hand.
        Manual,
        /// From a sales order line.
        SalesOrder,
        /// From planning.
        MrpPlanned,
    }
}

crate::text_enum! {
    /// What a work center does.
    pub enum WorkCenterType {
        /// A pool of printers.
        PrinterPool,
        /// Support removal, sanding, painting.
        PostProcessing,
        /// Quality control.
        Qc,
        /// Packing.
        Packing,
        /// Assembly.
        Assembly,
        /// Anything else.
        Other,
    }
}

/// Made to a customer's order or for stock (stored and served as in the original:
/// `MAKE_TO_ORDER`, `MAKE_TO_STOCK`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    async_graphql::Enum,
    strum::AsRefStr,
    strum::EnumString,
    strum::Display,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[graphql(rename_items = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
#[diesel(sql_type = diesel::sql_types::Text)]
pub enum OrderType {
    /// For a customer's order.
    MakeToOrder,
    /// For stock.
    MakeToStock,
}

impl diesel::serialize::ToSql<diesel::sql_types::Text, diesel::pg::Pg> for OrderType {
    fn to_sql<'b>(
        &'b self,
        out: &mut diesel::serialize::Output<'b, '_, diesel::pg::Pg>,
    ) -> diesel::serialize::Result {
        <str as diesel::serialize::ToSql<diesel::sql_types::Text, diesel::pg::Pg>>::to_sql(
            self.as_ref(),
            out,
        )
    }
}

impl diesel::deserialize::FromSql<diesel::sql_types::Text, diesel::pg::Pg> for OrderType {
    fn from_sql(bytes: diesel::pg::PgValue<'_>) -> diesel::deserialize::Result<Self> {
        let text = <String as diesel::deserialize::FromSql<
            diesel::sql_types::Text,
            diesel::pg::Pg,
        >>::from_sql(bytes)?;
        text.parse()
            .map_err(|_| format!("unknown OrderType value {text:?}").into())
    }
}

/// A place where work is done: a pool of printers, a post-processing bench, QC, packing.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = work_centers, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "WorkCenter", complex)]
pub struct WorkCenterRow {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique ignoring case).
    pub code: String,
    /// Name.
    pub name: String,
    /// What it does.
    pub center_type: WorkCenterType,
    /// Machine and labour cost per hour.
    pub hourly_rate: Decimal,
    /// Description.
    pub description: Option<String>,
    /// Active.
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

crate::input_forms! {
    table = work_centers;
    /// A new work center.
    create WorkCenterCreateInput;
    /// Changes to a work center.
    update WorkCenterUpdateInput;
    /// A work center's writable columns.
    form WorkCenterForm;
    {
        /// Code (unique ignoring case; stored upper case).
        code: required String,
        /// Name.
        name: required String,
        /// What it does (default printer_pool).
        center_type: optional WorkCenterType,
        /// Cost per hour (default 0).
        hourly_rate: optional Decimal,
        /// Description.
        description: clearable String,
        /// Active (default true).
        active: optional bool,
    }
}

/// How a product is made: its ordered operations.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = routings, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Routing", complex)]
pub struct RoutingRow {
    /// Id.
    pub id: i64,
    /// The product it makes (none for a template).
    pub product_id: Option<i64>,
    /// Code (upper case).
    pub code: String,
    /// Name.
    pub name: String,
    /// Version (unique per product).
    pub version: i32,
    /// The one routing production uses for the product.
    pub active: bool,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// A template (a standard flow applied to products), not a product's routing.
    pub is_template: bool,
    /// Revision label, e.g. `1.0`.
    pub revision: String,
    /// From when it applies.
    pub effective_date: Option<chrono::NaiveDate>,
}

/// One step of a routing.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = routing_operations, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "RoutingOperation", complex)]
pub struct RoutingOperationRow {
    /// Id.
    pub id: i64,
    /// The routing.
    pub routing_id: i64,
    /// Order of the step.
    pub sequence: i32,
    /// Short code, e.g. `PRINT`.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Where it is done.
    pub work_center_id: i64,
    /// Setup minutes per order.
    pub setup_minutes: Decimal,
    /// Run minutes per unit.
    pub run_minutes: Decimal,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// The operation type's code (e.g. `FDM_PRINT`, `QUALITY_CONTROL`): when its materials
    /// are consumed and whether it is an inspection.
    pub operation_type: Option<String>,
    /// What is done, in words.
    pub description: Option<String>,
    /// Minutes waited after the step (cooling, curing), not costed.
    pub wait_minutes: Decimal,
    /// Minutes to move to the next step, not costed.
    pub move_minutes: Decimal,
    /// Where the run time came from: `manual`, `slicer` or `calculated`.
    pub runtime_source: String,
    /// The sliced file the run time came from.
    pub slicer_file_path: Option<String>,
    /// Units one run makes (a plate of parts); batch materials are per run.
    pub units_per_cycle: i32,
    /// Expected scrap of the step, in percent.
    pub scrap_rate_percent: Decimal,
    /// Active (deleting a step deactivates it; orders made from it keep naming it).
    pub is_active: bool,
}

/// A production (work) order `WO-YYYY-NNNN`.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = production_orders, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "ProductionOrder", complex)]
pub struct OrderRow {
    /// Id.
    pub id: i64,
    /// Code `WO-YYYY-NNNN`.
    pub code: String,
    /// The product made.
    pub product_id: i64,
    /// The BOM (snapshotted into the materials on release).
    pub bom_id: Option<i64>,
    /// The routing (copied into the operations on release).
    pub routing_id: Option<i64>,
    /// The sales order it makes for (no foreign key until sales exist).
    pub sales_order_id: Option<i64>,
    /// The sales order line.
    pub sales_order_line_id: Option<i64>,
    /// Where components are reserved and finished goods received.
    pub location_id: i64,
    /// Quantity to make.
    pub quantity_ordered: Decimal,
    /// Good units made.
    pub quantity_completed: Decimal,
    /// Units scrapped.
    pub quantity_scrapped: Decimal,
    /// Where it came from.
    pub source: OrderSource,
    /// To order or to stock.
    pub order_type: OrderType,
    /// Where it stands.
    pub status: OrderStatus,
    /// 1 (highest) to 5.
    pub priority: i32,
    /// Quality control.
    pub qc_status: QcStatus,
    /// QC notes.
    pub qc_notes: Option<String>,
    /// Who inspected.
    pub qc_inspected_by: Option<i64>,
    /// When.
    pub qc_inspected_at: Option<Timestamp>,
    /// Due.
    pub due_date: Option<NaiveDate>,
    /// Planned start.
    pub scheduled_start: Option<Timestamp>,
    /// Planned end.
    pub scheduled_end: Option<Timestamp>,
    /// Started.
    pub actual_start: Option<Timestamp>,
    /// Ended.
    pub actual_end: Option<Timestamp>,
    /// Planned minutes (setup plus run of every operation).
    pub estimated_time_minutes: Decimal,
    /// Planned component cost.
    pub estimated_material_cost: Decimal,
    /// Planned labour cost.
    pub estimated_labor_cost: Decimal,
    /// Value of the components and filament consumed (in WIP until completion).
    pub actual_material_cost: Decimal,
    /// Labour booked.
    pub actual_labor_cost: Decimal,
    /// Who it is assigned to.
    pub assigned_to: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// The order this one remakes.
    pub remake_of_id: Option<i64>,
    /// Why it is a remake.
    pub remake_reason: Option<String>,
    /// The scrap reason code, when scrapped.
    pub scrap_reason: Option<String>,
    /// The order it was split from.
    pub parent_id: Option<i64>,
    /// Who created it.
    pub created_by: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// Released.
    pub released_at: Option<Timestamp>,
    /// Completed.
    pub completed_at: Option<Timestamp>,
}

/// One step of a production order, copied from its routing on release.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = production_order_operations, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "ProductionOperation", complex)]
pub struct OperationRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub production_order_id: i64,
    /// The routing step it was copied from.
    pub routing_operation_id: Option<i64>,
    /// Where it is done.
    pub work_center_id: i64,
    /// The printer (resource) assigned.
    pub printer_id: Option<i64>,
    /// Order of the step.
    pub sequence: i32,
    /// Code.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Where it stands.
    pub status: OperationStatus,
    /// Good units.
    pub quantity_completed: Decimal,
    /// Scrapped units.
    pub quantity_scrapped: Decimal,
    /// Planned setup minutes.
    pub planned_setup_minutes: Decimal,
    /// Planned run minutes (for the whole quantity).
    pub planned_run_minutes: Decimal,
    /// Actual setup minutes.
    pub actual_setup_minutes: Option<Decimal>,
    /// Actual run minutes.
    pub actual_run_minutes: Option<Decimal>,
    /// Planned start.
    pub scheduled_start: Option<Timestamp>,
    /// Planned end.
    pub scheduled_end: Option<Timestamp>,
    /// Started.
    pub actual_start: Option<Timestamp>,
    /// Ended.
    pub actual_end: Option<Timestamp>,
    /// Operator.
    pub operator_name: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// The Bambu Lab printer's task id of the print job, when one ran it.
    pub bambu_task_id: Option<String>,
    /// The plate of a multi-plate Bambu Lab project (1-64).
    pub bambu_plate_index: Option<i32>,
}

/// One component of a production order (its BOM line, snapshotted on release).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = production_order_materials, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "ProductionMaterial", complex)]
pub struct MaterialRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub production_order_id: i64,
    /// The operation that consumes it.
    pub operation_id: Option<i64>,
    /// The BOM line it came from.
    pub bom_line_id: Option<i64>,
    /// The component.
    pub component_id: i64,
    /// Needed for the whole order, in the component's stocking unit (scrap included).
    pub quantity_required: Decimal,
    /// Reserved now.
    pub quantity_allocated: Decimal,
    /// Consumed so far.
    pub quantity_consumed: Decimal,
    /// The stocking unit.
    pub unit: String,
    /// Where it is reserved.
    pub location_id: i64,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// Filament an order took from a spool.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = production_order_spools, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "ProductionOrderSpool", complex)]
pub struct OrderSpoolRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub production_order_id: i64,
    /// The spool.
    pub spool_id: i64,
    /// Grams consumed.
    #[diesel(column_name = weight_consumed_g)]
    pub weight_consumed_grams: Decimal,
    /// Who recorded it.
    pub created_by: Option<i64>,
    /// When.
    pub created_at: Timestamp,
}

crate::text_enum! {
    /// Where a finished unit stands (CONTRACT 6.7).
    pub enum SerialStatus {
        /// Made, not yet through QC or put away.
        Manufactured,
        /// In stock, free to ship.
        InStock,
        /// Sold, not yet shipped.
        Sold,
        /// Shipped to a customer.
        Shipped,
        /// Came back.
        Returned,
        /// Thrown away.
        Scrapped,
    }
}

/// A finished unit (CONTRACT 6.7): one per unit of a serial-tracked product, from the
/// production order that made it to the sales order and shipment it left with.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = serial_numbers, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "SerialNumber", complex)]
pub struct SerialRow {
    /// Id.
    pub id: i64,
    /// `BLB-YYYYMMDD-NNNN`.
    pub serial_number: String,
    /// The product.
    pub product_id: i64,
    /// The order that made it.
    pub production_order_id: Option<i64>,
    /// Where the unit stands.
    pub status: SerialStatus,
    /// QC passed.
    pub qc_passed: bool,
    /// When QC decided (passed or failed); null before inspection.
    pub qc_date: Option<Timestamp>,
    /// The inspector's notes.
    pub qc_notes: Option<String>,
    /// The sales order it was sold or shipped on.
    pub sales_order_id: Option<i64>,
    /// The sales order line it filled.
    pub sales_order_line_id: Option<i64>,
    /// When it was sold.
    pub sold_at: Option<Timestamp>,
    /// When it shipped.
    pub shipped_at: Option<Timestamp>,
    /// The shipment's tracking number.
    pub tracking_number: Option<String>,
    /// The shipment it left with.
    pub shipment_id: Option<i64>,
    /// When it came back.
    pub returned_at: Option<Timestamp>,
    /// Why it came back.
    pub return_reason: Option<String>,
    /// Made.
    pub manufactured_at: Timestamp,
    /// Recorded.
    pub created_at: Timestamp,
}

/// How production orders are listed (CONTRACT 5.12).
#[derive(Debug, Clone, Default)]
pub struct OrderFilter {
    /// Only this status.
    pub status: Option<OrderStatus>,
    /// Only this product.
    pub product_id: Option<i64>,
    /// Only orders of this sales order.
    pub sales_order_id: Option<i64>,
    /// Only this priority.
    pub priority: Option<i32>,
    /// Due on or before.
    pub due_before: Option<NaiveDate>,
    /// Due on or after.
    pub due_after: Option<NaiveDate>,
    /// Code, product SKU or name contains.
    pub search: Option<String>,
    /// The column to sort by (default: CONTRACT 5.12's priority, due date, newest).
    pub sort_by: Option<ProductionOrderSort>,
    /// Which way.
    pub sort_order: Option<paging::SortOrder>,
}

crate::text_enum! {
    /// The columns production orders can be sorted by; without one the list keeps CONTRACT
    /// 5.12's order (priority, due date with none last, newest first).
    pub enum ProductionOrderSort {
        /// The order code.
        Code,
        /// The product's SKU.
        ProductSku,
        /// Status.
        Status,
        /// Priority (1 first).
        Priority,
        /// Due date.
        DueDate,
        /// Quantity ordered.
        QuantityOrdered,
        /// Planned start.
        ScheduledStart,
        /// Created.
        CreatedAt,
    }
}

/// One page of orders and the total: priority, due date (NULLs last), newest first, unless
/// a column is named.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &OrderFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<OrderRow>, i64)> {
    let build = || {
        let mut q = production_orders::table
            .inner_join(items::table)
            .select((OrderRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(v) = filter.status {
            q = q.filter(production_orders::status.eq(v));
        }
        if let Some(v) = filter.product_id {
            q = q.filter(production_orders::product_id.eq(v));
        }
        if let Some(v) = filter.sales_order_id {
            q = q.filter(production_orders::sales_order_id.eq(v));
        }
        if let Some(v) = filter.priority {
            q = q.filter(production_orders::priority.eq(v));
        }
        if let Some(v) = filter.due_before {
            q = q.filter(production_orders::due_date.le(v));
        }
        if let Some(v) = filter.due_after {
            q = q.filter(production_orders::due_date.ge(v));
        }
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = crate::platform::db::like_pattern(s);
            q = q.filter(
                production_orders::code
                    .ilike(p.clone())
                    .or(items::sku.ilike(p.clone()))
                    .or(items::name.ilike(p)),
            );
        }
        let Some(sort) = filter.sort_by else {
            return q.order((
                production_orders::priority.asc(),
                production_orders::due_date.asc().nulls_last(),
                production_orders::created_at.desc(),
                production_orders::id.desc(),
            ));
        };
        let order = filter.sort_order.unwrap_or(match sort {
            ProductionOrderSort::CreatedAt => paging::SortOrder::Desc,
            _ => paging::SortOrder::Asc,
        });
        let id = production_orders::id;
        match sort {
            ProductionOrderSort::Code => paging::sorted(q, production_orders::code, id, order),
            ProductionOrderSort::ProductSku => paging::sorted(q, items::sku, id, order),
            ProductionOrderSort::Status => paging::sorted(q, production_orders::status, id, order),
            ProductionOrderSort::Priority => {
                paging::sorted(q, production_orders::priority, id, order)
            }
            ProductionOrderSort::DueDate => {
                paging::sorted(q, production_orders::due_date, id, order)
            }
            ProductionOrderSort::QuantityOrdered => {
                paging::sorted(q, production_orders::quantity_ordered, id, order)
            }
            ProductionOrderSort::ScheduledStart => {
                paging::sorted(q, production_orders::scheduled_start, id, order)
            }
            ProductionOrderSort::CreatedAt => {
                paging::sorted(q, production_orders::created_at, id, order)
            }
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The order with this id, or a 404 `Production order not found`.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<OrderRow> {
    paging::find_or_404(
        conn,
        production_orders::table
            .find(id)
            .select(OrderRow::as_select()),
        "Production order not found",
    )
    .await
}

/// The order with this id, locked for the rest of the transaction.
pub async fn lock(conn: &mut AsyncPgConnection, id: i64) -> QueryResult<Option<OrderRow>> {
    production_orders::table
        .find(id)
        .select(OrderRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// Orders by id.
pub async fn by_ids(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<OrderRow>> {
    Ok(production_orders::table
        .filter(production_orders::id.eq_any(ids))
        .select(OrderRow::as_select())
        .load(conn)
        .await?)
}

/// Finished units by id.
pub async fn serials_by_ids(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<SerialRow>> {
    Ok(serial_numbers::table
        .filter(serial_numbers::id.eq_any(ids))
        .order(serial_numbers::id)
        .select(SerialRow::as_select())
        .load(conn)
        .await?)
}

/// The operations of these orders, in sequence.
pub async fn operations_of(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<Vec<OperationRow>> {
    Ok(production_order_operations::table
        .filter(production_order_operations::production_order_id.eq_any(orders))
        .order((
            production_order_operations::production_order_id,
            production_order_operations::sequence,
            production_order_operations::id,
        ))
        .select(OperationRow::as_select())
        .load(conn)
        .await?)
}

/// The materials of these orders.
pub async fn materials_of(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<Vec<MaterialRow>> {
    Ok(production_order_materials::table
        .filter(production_order_materials::production_order_id.eq_any(orders))
        .order((
            production_order_materials::production_order_id,
            production_order_materials::id,
        ))
        .select(MaterialRow::as_select())
        .load(conn)
        .await?)
}

/// The spools these orders used.
pub async fn spools_of(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<Vec<OrderSpoolRow>> {
    Ok(production_order_spools::table
        .filter(production_order_spools::production_order_id.eq_any(orders))
        .order(production_order_spools::id)
        .select(OrderSpoolRow::as_select())
        .load(conn)
        .await?)
}

/// The serial numbers these orders made.
pub async fn serials_of(conn: &mut AsyncPgConnection, orders: &[i64]) -> AppResult<Vec<SerialRow>> {
    Ok(serial_numbers::table
        .filter(serial_numbers::production_order_id.eq_any(orders))
        .order(serial_numbers::id)
        .select(SerialRow::as_select())
        .load(conn)
        .await?)
}

/// Work centers by id.
pub async fn work_centers_by_ids(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<WorkCenterRow>> {
    Ok(work_centers::table
        .filter(work_centers::id.eq_any(ids))
        .select(WorkCenterRow::as_select())
        .load(conn)
        .await?)
}

/// Every work center, by code.
pub async fn work_centers(
    conn: &mut AsyncPgConnection,
    active_only: bool,
) -> AppResult<Vec<WorkCenterRow>> {
    let mut q = work_centers::table
        .select(WorkCenterRow::as_select())
        .order((work_centers::code, work_centers::id))
        .into_boxed();
    if active_only {
        q = q.filter(work_centers::active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// What the routing list shows.
#[derive(Debug, Clone, Default)]
pub struct RoutingListFilter {
    /// Only this product's.
    pub product_id: Option<i64>,
    /// Only templates (the product is then ignored).
    pub templates_only: bool,
    /// Only active routings.
    pub active_only: bool,
    /// Code, name, or the product's SKU or name contains this (case-insensitive).
    pub search: Option<String>,
}

/// Routings (products' by product then newest version, then templates by code), one page.
pub async fn routing_list(
    conn: &mut AsyncPgConnection,
    filter: &RoutingListFilter,
    offset: i64,
    limit: i64,
) -> AppResult<Vec<RoutingRow>> {
    let mut q = routings::table
        .left_join(items::table.on(items::id.nullable().eq(routings::product_id)))
        .select(RoutingRow::as_select())
        .order((
            routings::is_template,
            routings::product_id,
            routings::version.desc(),
            routings::code,
        ))
        .offset(offset)
        .limit(limit)
        .into_boxed();
    if filter.templates_only {
        q = q.filter(routings::is_template);
    } else if let Some(p) = filter.product_id {
        q = q.filter(routings::product_id.eq(p));
    }
    if filter.active_only {
        q = q.filter(routings::active);
    }
    if let Some(text) = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        let pattern = crate::platform::db::like_pattern(text);
        q = q.filter(
            routings::code
                .ilike(pattern.clone())
                .or(routings::name.ilike(pattern.clone()))
                .or(items::sku.nullable().ilike(pattern.clone()))
                .or(items::name.nullable().ilike(pattern)),
        );
    }
    Ok(q.load(conn).await?)
}

/// A routing's steps in sequence (active ones unless `active_only` is false).
pub async fn routing_steps(
    conn: &mut AsyncPgConnection,
    routing_id: i64,
    active_only: bool,
) -> AppResult<Vec<RoutingOperationRow>> {
    let mut q = routing_operations::table
        .filter(routing_operations::routing_id.eq(routing_id))
        .order((routing_operations::sequence, routing_operations::id))
        .select(RoutingOperationRow::as_select())
        .into_boxed();
    if active_only {
        q = q.filter(routing_operations::is_active);
    }
    Ok(q.load(conn).await?)
}

/// One routing step (active or not).
pub async fn routing_step(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Option<RoutingOperationRow>> {
    Ok(routing_operations::table
        .find(id)
        .select(RoutingOperationRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Routings, by product then version.
pub async fn routings(
    conn: &mut AsyncPgConnection,
    product_id: Option<i64>,
    active_only: bool,
) -> AppResult<Vec<RoutingRow>> {
    let mut q = routings::table
        .select(RoutingRow::as_select())
        .order((routings::product_id, routings::version.desc()))
        .into_boxed();
    if let Some(p) = product_id {
        q = q.filter(routings::product_id.eq(p));
    }
    if active_only {
        q = q.filter(routings::active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// Routings by id.
pub async fn routings_by_ids(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<RoutingRow>> {
    Ok(routings::table
        .filter(routings::id.eq_any(ids))
        .select(RoutingRow::as_select())
        .load(conn)
        .await?)
}

/// The active routing of a product.
pub async fn active_routing(
    conn: &mut AsyncPgConnection,
    product_id: i64,
) -> AppResult<Option<RoutingRow>> {
    Ok(routings::table
        .filter(routings::product_id.eq(product_id))
        .filter(routings::active.eq(true))
        .select(RoutingRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The steps of these routings, in sequence.
pub async fn routing_operations_of(
    conn: &mut AsyncPgConnection,
    routing_ids: &[i64],
) -> AppResult<Vec<RoutingOperationRow>> {
    Ok(routing_operations::table
        .filter(routing_operations::routing_id.eq_any(routing_ids))
        .filter(routing_operations::is_active)
        .order((
            routing_operations::routing_id,
            routing_operations::sequence,
            routing_operations::id,
        ))
        .select(RoutingOperationRow::as_select())
        .load(conn)
        .await?)
}

/// An order to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = production_orders)]
pub struct NewOrder {
    /// Code.
    pub code: String,
    /// Product.
    pub product_id: i64,
    /// BOM.
    pub bom_id: Option<i64>,
    /// Routing.
    pub routing_id: Option<i64>,
    /// Sales order.
    pub sales_order_id: Option<i64>,
    /// Sales order line.
    pub sales_order_line_id: Option<i64>,
    /// Location.
    pub location_id: i64,
    /// Quantity.
    pub quantity_ordered: BigDecimal,
    /// Source.
    pub source: OrderSource,
    /// Type.
    pub order_type: OrderType,
    /// Priority.
    pub priority: i32,
    /// Due.
    pub due_date: Option<NaiveDate>,
    /// Assignee.
    pub assigned_to: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Remade order.
    pub remake_of_id: Option<i64>,
    /// Why.
    pub remake_reason: Option<String>,
    /// Split parent.
    pub parent_id: Option<i64>,
    /// Planned material cost.
    pub estimated_material_cost: BigDecimal,
    /// Planned minutes.
    pub estimated_time_minutes: BigDecimal,
    /// Planned labour cost.
    pub estimated_labor_cost: BigDecimal,
    /// Author.
    pub created_by: Option<i64>,
}

/// An operation to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = production_order_operations)]
pub struct NewOperation {
    /// Order.
    pub production_order_id: i64,
    /// Routing step.
    pub routing_operation_id: Option<i64>,
    /// Work center.
    pub work_center_id: i64,
    /// Sequence.
    pub sequence: i32,
    /// Code.
    pub operation_code: String,
    /// Name.
    pub operation_name: String,
    /// Operation type code.
    pub operation_type: Option<String>,
    /// Status.
    pub status: OperationStatus,
    /// Setup.
    pub planned_setup_minutes: BigDecimal,
    /// Run.
    pub planned_run_minutes: BigDecimal,
}

/// A material to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = production_order_materials)]
pub struct NewMaterial {
    /// Order.
    pub production_order_id: i64,
    /// Operation.
    pub operation_id: Option<i64>,
    /// BOM line.
    pub bom_line_id: Option<i64>,
    /// Component.
    pub component_id: i64,
    /// Required.
    pub quantity_required: BigDecimal,
    /// Reserved.
    pub quantity_allocated: BigDecimal,
    /// Unit.
    pub unit: String,
    /// Location.
    pub location_id: i64,
}
