//! Production in the schema (staff, i.e. any signed-in user): production orders with their
//! operations, materials, spools and serials (every relation through
//! [`crate::operations::production::loaders`]), work centers and routings, and the mutations that move an
//! order through CONTRACT 6.2, each posting in one database transaction.

use async_graphql::{ComplexObject, Context, InputObject, Object, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use chrono::NaiveDate;

use crate::ledgers::inventory::loaders::ItemFactsOf;
use crate::operations::printers::loaders::Printers;
pub use crate::operations::production::detail::graphql::{OrderDetailMutation, OrderDetailQuery};
use crate::operations::production::floor;
pub use crate::operations::production::live::ProductionSubscription;
use crate::operations::production::loaders::{
    CodeKind, Codes, Materials, Operations, OrderSpools, Serials, WorkCenters,
};
use crate::operations::production::model::{
    self, MaterialRow, OperationRow, OperationStatus, OrderFilter, OrderRow, OrderSpoolRow,
    OrderStatus, QcStatus, SerialRow, WorkCenterRow,
};
pub use crate::operations::production::routing::graphql::{RoutingMutation, RoutingQuery};
use crate::operations::production::rules::{
    self, OperationCompleteInput, OperationScheduleInput, OperationStartInput,
    ProductionOrderCompleteInput, ProductionOrderCreateInput, ProductionOrderUpdateInput,
};
pub use crate::operations::production::variants::graphql::{VariantsMutation, VariantsQuery};
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::context::data;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// The largest page of production orders (CONTRACT 5.12: `limit` up to 500).
pub const MAX_ORDER_PAGE: i64 = 500;

async fn code(ctx: &Context<'_>, kind: CodeKind, id: Option<i64>) -> AppResult<Option<String>> {
    match id {
        Some(id) => Ok(data::<Codes>(ctx)?.load_one((kind, id)).await?),
        None => Ok(None),
    }
}

async fn operations(ctx: &Context<'_>, order: i64) -> AppResult<Vec<OperationRow>> {
    Ok(data::<Operations>(ctx)?
        .load_one(order)
        .await?
        .unwrap_or_default())
}

fn to_f64(d: &BigDecimal) -> f64 {
    d.to_string().parse().unwrap_or(0.0)
}

#[ComplexObject]
impl OrderSpoolRow {
    /// The spool, whole.
    async fn spool(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Option<crate::ledgers::spools::model::SpoolRow>> {
        Ok(data::<crate::ledgers::spools::loaders::SpoolsById>(ctx)?
            .load_one(self.spool_id)
            .await?)
    }
}

#[ComplexObject]
impl OrderRow {
    /// Its QC inspections, oldest first (the append-only history; the first is the
    /// first-pass inspection).
    async fn inspections(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::operations::production::inspections::InspectionRow>> {
        Ok(
            data::<crate::operations::production::inspections::Inspections>(ctx)?
                .load_one(self.id)
                .await?
                .unwrap_or_default(),
        )
    }

    /// The product's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.sku))
    }

    /// The product's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.name))
    }

    /// The BOM's code.
    async fn bom_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        code(ctx, CodeKind::Bom, self.bom_id).await
    }

    /// The routing's code.
    async fn routing_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        code(ctx, CodeKind::Routing, self.routing_id).await
    }

    /// The remade order's code.
    async fn remake_of_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        code(ctx, CodeKind::Order, self.remake_of_id).await
    }

    /// The code of the sales order this order is made for (`SO-YYYY-NNNN`).
    async fn sales_order_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        code(ctx, CodeKind::SalesOrder, self.sales_order_id).await
    }

    /// The customer of the sales order this order is made for.
    async fn customer_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        code(ctx, CodeKind::SalesOrderCustomer, self.sales_order_id).await
    }

    /// Units left to make.
    async fn quantity_remaining(&self) -> f64 {
        to_f64(&rules::quantity_remaining(self))
    }

    /// Completed share of the ordered quantity, in percent (one decimal).
    async fn completion_percent(&self) -> f64 {
        rules::completion_percent(self)
    }

    /// Minutes actually worked (the operations' actual setup and run).
    async fn actual_time_minutes(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let mut total = BigDecimal::zero();
        for op in operations(ctx, self.id).await? {
            if let Some(s) = op.actual_setup_minutes {
                total += s.0;
            }
            if let Some(r) = op.actual_run_minutes {
                total += r.0;
            }
        }
        Ok(Decimal(total))
    }

    /// Planned material plus labour cost.
    async fn estimated_total_cost(&self) -> Decimal {
        Decimal(&self.estimated_material_cost.0 + &self.estimated_labor_cost.0)
    }

    /// Actual material plus labour cost.
    async fn actual_total_cost(&self) -> Decimal {
        Decimal(&self.actual_material_cost.0 + &self.actual_labor_cost.0)
    }

    /// The operations, in sequence.
    async fn operations(&self, ctx: &Context<'_>) -> AppResult<Vec<OperationRow>> {
        operations(ctx, self.id).await
    }

    /// How many operations it has.
    async fn operation_count(&self, ctx: &Context<'_>) -> AppResult<i32> {
        Ok(operations(ctx, self.id).await?.len() as i32)
    }

    /// The operation running now, else the next queued one (its name).
    async fn current_operation(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        let ops = operations(ctx, self.id).await?;
        Ok(ops
            .iter()
            .find(|o| o.status == OperationStatus::Running)
            .or_else(|| ops.iter().find(|o| o.status == OperationStatus::Queued))
            .map(|o| o.operation_name.clone()))
    }

    /// The components (the BOM snapshotted on release) with what is reserved and consumed.
    async fn materials(&self, ctx: &Context<'_>) -> AppResult<Vec<MaterialRow>> {
        Ok(data::<Materials>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// The spools it used.
    async fn spools(&self, ctx: &Context<'_>) -> AppResult<Vec<OrderSpoolRow>> {
        Ok(data::<OrderSpools>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// The serial numbers of the units it made.
    async fn serial_numbers(&self, ctx: &Context<'_>) -> AppResult<Vec<SerialRow>> {
        Ok(data::<Serials>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }
}

#[ComplexObject]
impl OperationRow {
    /// The QC inspections of this operation, oldest first.
    async fn inspections(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::operations::production::inspections::InspectionRow>> {
        Ok(
            data::<crate::operations::production::inspections::Inspections>(ctx)?
                .load_one(self.production_order_id)
                .await?
                .unwrap_or_default()
                .into_iter()
                .filter(|i| i.production_operation_id == Some(self.id))
                .collect(),
        )
    }

    /// The work center's code.
    async fn work_center_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<WorkCenters>(ctx)?
            .load_one(self.work_center_id)
            .await?
            .map(|w| w.code))
    }

    /// The work center's name.
    async fn work_center_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<WorkCenters>(ctx)?
            .load_one(self.work_center_id)
            .await?
            .map(|w| w.name))
    }

    /// The printer it runs on, whole (a report nests printer -> spools from here).
    async fn printer(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Option<crate::operations::printers::model::PrinterRow>> {
        match self.printer_id {
            Some(p) => Ok(data::<Printers>(ctx)?.load_one(p).await?),
            None => Ok(None),
        }
    }

    /// The printer's code.
    async fn resource_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        match self.printer_id {
            Some(p) => Ok(data::<Printers>(ctx)?.load_one(p).await?.map(|b| b.code)),
            None => Ok(None),
        }
    }

    /// The printer's name.
    async fn resource_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        match self.printer_id {
            Some(p) => Ok(data::<Printers>(ctx)?.load_one(p).await?.map(|b| b.name)),
            None => Ok(None),
        }
    }

    /// Done.
    async fn is_complete(&self) -> bool {
        self.status == OperationStatus::Complete
    }

    /// Running now.
    async fn is_running(&self) -> bool {
        self.status == OperationStatus::Running
    }

    /// Planned over actual minutes, in percent.
    async fn efficiency_percent(&self) -> Option<f64> {
        rules::efficiency_percent(self)
    }

    /// The materials this operation consumes.
    async fn materials(&self, ctx: &Context<'_>) -> AppResult<Vec<MaterialRow>> {
        Ok(data::<Materials>(ctx)?
            .load_one(self.production_order_id)
            .await?
            .unwrap_or_default()
            .into_iter()
            .filter(|m| m.operation_id == Some(self.id))
            .collect())
    }
}

#[ComplexObject]
impl MaterialRow {
    /// The component's SKU.
    async fn component_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.component_id)
            .await?
            .map(|f| f.sku))
    }

    /// The component's name.
    async fn component_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.component_id)
            .await?
            .map(|f| f.name))
    }

    /// `consumed` when everything needed was consumed, `partial` when some was, `allocated`
    /// when all of what is left is reserved, `short` when it is not, else `pending`.
    async fn status(&self) -> &'static str {
        let required = &self.quantity_required.0;
        let consumed = &self.quantity_consumed.0;
        if consumed >= required && !required.is_zero() {
            "consumed"
        } else if *consumed > BigDecimal::zero() {
            "partial"
        } else if self.quantity_allocated.0 >= *required {
            "allocated"
        } else if self.operation_id.is_some() {
            "short"
        } else {
            "pending"
        }
    }
}

#[ComplexObject]
impl WorkCenterRow {
    /// The printers of this work center (its resources).
    async fn printers(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::operations::printers::model::PrinterRow>> {
        use crate::platform::db::schema::printers;
        use diesel::prelude::*;
        use diesel_async::RunQueryDsl;
        let mut conn = context::conn(ctx).await?;
        Ok(printers::table
            .filter(printers::work_center_id.eq(self.id))
            .order(printers::code)
            .select(crate::operations::printers::model::PrinterRow::as_select())
            .load(&mut *conn)
            .await?)
    }
}

crate::connection!(
    /// A page of production orders.
    ProductionOrderConnection,
    OrderRow
);

/// Production queries (staff).
#[derive(Default)]
pub struct ProductionQuery;

#[Object]
impl ProductionQuery {
    /// Production orders: priority, due date (none last), newest first.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn production_orders(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this status.")] status: Option<OrderStatus>,
        #[graphql(desc = "Only this product.")] product_id: Option<i64>,
        #[graphql(desc = "Only orders of this sales order.")] sales_order_id: Option<i64>,
        #[graphql(desc = "Only this priority (1-5).", directive = crate::platform::graphql::limits::range::apply(1, 5))]
        priority: Option<i32>,
        #[graphql(desc = "Due on or before.")] due_before: Option<NaiveDate>,
        #[graphql(desc = "Due on or after.")] due_after: Option<NaiveDate>,
        #[graphql(desc = "Code, product SKU or name contains.")] search: Option<String>,
        #[graphql(desc = "The column to sort by (default priority, due date, newest).")]
        sort_by: Option<model::ProductionOrderSort>,
        #[graphql(desc = "Which way (default ascending; newest first for created_at).")]
        sort_order: Option<crate::platform::db::paging::SortOrder>,
        #[graphql(desc = "Page size (1-500, default 50).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<ProductionOrderConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_ORDER_PAGE)?;
        if let Some(p) = priority
            && !(1..=5).contains(&p)
        {
            return Err(AppError::validation(vec![
                crate::platform::error::FieldError::new(
                    "priority",
                    "Priority must be between 1 and 5",
                ),
            ]));
        }
        let filter = OrderFilter {
            status,
            product_id,
            sales_order_id,
            priority,
            due_before,
            due_after,
            search,
            sort_by,
            sort_order,
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(ProductionOrderConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One production order.
    #[graphql(guard = "Access::User")]
    async fn production_order(&self, ctx: &Context<'_>, id: i64) -> AppResult<OrderRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// The production order status flow (CONTRACT 6.2 with NEW's `short`): every status
    /// with its moves, or one status's moves.
    #[graphql(guard = "Access::User")]
    async fn production_order_status_transitions(
        &self,
        #[graphql(desc = "Only this status's moves.")] current_status: Option<OrderStatus>,
    ) -> async_graphql::Json<serde_json::Value> {
        crate::platform::graphql::flow::status_flow(
            <OrderStatus as strum::VariantArray>::VARIANTS,
            |s| rules::allowed_transitions(s).iter().copied(),
            current_status,
        )
    }

    /// The operation status flow (CONTRACT 6.2): every status with its moves.
    #[graphql(guard = "Access::User")]
    async fn production_operation_statuses(&self) -> async_graphql::Json<serde_json::Value> {
        crate::platform::graphql::flow::status_flow(
            <OperationStatus as strum::VariantArray>::VARIANTS,
            |s| rules::operation_transitions(s).iter().copied(),
            None,
        )
    }

    /// The QC status flow (CONTRACT 6.2): every status with the verdicts it may take next.
    #[graphql(guard = "Access::User")]
    async fn production_qc_statuses(&self) -> async_graphql::Json<serde_json::Value> {
        let all = <QcStatus as strum::VariantArray>::VARIANTS;
        crate::platform::graphql::flow::status_flow(
            all,
            |from| {
                all.iter()
                    .copied()
                    .filter(move |to| *to != from && rules::qc_transition_allowed(from, *to))
            },
            None,
        )
    }

    /// Why an order cannot go on now (empty: it can): its status, then what blocks its next
    /// queued operation (material, printer) or, without operations, its material.
    #[graphql(guard = "Access::User")]
    async fn production_order_blocking_issues(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<OrderCheck> {
        let mut conn = context::conn(ctx).await?;
        let order = model::find(&mut conn, id).await?;
        let issues = match rules::order_blocking_issues(&mut conn, &order).await {
            Ok(i) => i,
            Err(Stop::Failed(e)) => return Err(e),
            Err(Stop::Refused(e)) => e.into_iter().map(|e| e.message).collect(),
        };
        Ok(OrderCheck {
            production_order_id: id,
            code: order.code,
            status: order.status,
            can_proceed: issues.is_empty(),
            blocking_issues: issues,
        })
    }

    /// Why an operation cannot start now (empty: it can).
    #[graphql(guard = "Access::User")]
    async fn production_operation_blocking_issues(
        &self,
        ctx: &Context<'_>,
        order_id: i64,
        operation_id: i64,
        #[graphql(desc = "The printer it would run on.")] printer_id: Option<i64>,
    ) -> AppResult<OperationCheck> {
        let mut conn = context::conn(ctx).await?;
        let order = model::find(&mut conn, order_id).await?;
        let op = model::operations_of(&mut conn, &[order_id])
            .await?
            .into_iter()
            .find(|o| o.id == operation_id)
            .ok_or_else(|| AppError::not_found("Operation not found"))?;
        let issues = match rules::blocking_issues(&mut conn, &order, &op, printer_id).await {
            Ok(i) => i,
            Err(Stop::Failed(e)) => return Err(e),
            Err(Stop::Refused(e)) => e.into_iter().map(|e| e.message).collect(),
        };
        Ok(OperationCheck {
            production_order_id: order_id,
            operation_id,
            can_start: issues.is_empty(),
            blocking_issues: issues,
        })
    }

    /// Work centers by code.
    #[graphql(guard = "Access::User")]
    async fn work_centers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only active ones.", default = true)] active_only: bool,
    ) -> AppResult<Vec<WorkCenterRow>> {
        model::work_centers(&mut *context::conn(ctx).await?, active_only).await
    }

    /// One work center.
    #[graphql(guard = "Access::User")]
    async fn work_center(&self, ctx: &Context<'_>, id: i64) -> AppResult<WorkCenterRow> {
        model::work_centers_by_ids(&mut *context::conn(ctx).await?, &[id])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| AppError::not_found("Work center not found"))
    }
}

/// Whether an operation can start.
#[derive(Debug, Clone, SimpleObject)]
pub struct OperationCheck {
    /// The order.
    pub production_order_id: i64,
    /// The operation.
    pub operation_id: i64,
    /// No blocking issue.
    pub can_start: bool,
    /// What blocks it (missing material, printer busy or in maintenance, earlier steps).
    pub blocking_issues: Vec<String>,
}

/// Whether a production order can go on, and what blocks it.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderCheck {
    /// The order.
    pub production_order_id: i64,
    /// `WO-YYYY-NNNN`.
    pub code: String,
    /// Its status.
    pub status: OrderStatus,
    /// No blocking issue.
    pub can_proceed: bool,
    /// What blocks it (status, missing material, printer busy or in maintenance).
    pub blocking_issues: Vec<String>,
}

/// The result of an order mutation.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ProductionOrderPayload {
    /// The order after the change.
    pub order: Option<OrderRow>,
    /// What happened, for people.
    pub message: Option<String>,
    /// Rule violations (nothing changed or posted when present).
    pub user_errors: Vec<UserError>,
}

impl ProductionOrderPayload {
    fn of(r: Result<OrderRow, Vec<UserError>>, message: impl FnOnce(&OrderRow) -> String) -> Self {
        match r {
            Ok(o) => ProductionOrderPayload {
                message: Some(message(&o)),
                order: Some(o),
                user_errors: Vec::new(),
            },
            Err(user_errors) => ProductionOrderPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// The result of a release.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ProductionOrderReleasePayload {
    /// What the release did.
    pub result: Option<rules::ReleaseResult>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

/// The result of a scrap or split: the order and the orders it created.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ProductionOrderSpawnPayload {
    /// The order after the change.
    pub order: Option<OrderRow>,
    /// The orders created (the remake, or the split children).
    pub created: Vec<OrderRow>,
    /// What happened, for people.
    pub message: Option<String>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

/// The result of an operation change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ProductionOperationPayload {
    /// The operation after the change.
    pub operation: Option<OperationRow>,
    /// What happened, for people.
    pub message: Option<String>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

impl ProductionOperationPayload {
    fn of(r: Result<OperationRow, Vec<UserError>>, message: &str) -> Self {
        match r {
            Ok(o) => ProductionOperationPayload {
                operation: Some(o),
                message: Some(message.into()),
                user_errors: Vec::new(),
            },
            Err(user_errors) => ProductionOperationPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// One child of a split.
#[derive(Debug, Clone, InputObject)]
pub struct SplitInput {
    /// Its quantity.
    pub quantity: Decimal,
}

async fn user_id(ctx: &Context<'_>) -> AppResult<i64> {
    Ok(crate::platform::auth::viewer::current_user(ctx).await?.id)
}

/// Production mutations (staff).
#[derive(Default)]
pub struct ProductionMutation;

#[Object]
impl ProductionMutation {
    /// Creates a draft production order (the product's active BOM and routing unless named).
    #[graphql(guard = "Access::User")]
    async fn production_order_create(
        &self,
        ctx: &Context<'_>,
        input: ProductionOrderCreateInput,
    ) -> AppResult<ProductionOrderPayload> {
        let user = user_id(ctx).await?;
        let r = crate::in_transaction!(ctx, |conn| rules::create(conn, input, Some(user)));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} created", o.code)
        }))
    }

    /// Changes an order's header (not on complete or cancelled orders).
    #[graphql(guard = "Access::User")]
    async fn production_order_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: ProductionOrderUpdateInput,
    ) -> AppResult<ProductionOrderPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::update(conn, id, input));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} updated", o.code)
        }))
    }

    /// Deletes a draft order.
    #[graphql(guard = "Access::User")]
    async fn production_order_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<ProductionOrderPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::delete(conn, id));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} deleted", o.code)
        }))
    }

    /// Releases an order: BOM snapshotted and reserved, routing copied into operations.
    #[graphql(guard = "Access::User")]
    async fn production_order_release(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<ProductionOrderReleasePayload> {
        let user = user_id(ctx).await?;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::release(conn, id, Some(user))) {
                Ok(r) => ProductionOrderReleasePayload {
                    result: Some(r),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => ProductionOrderReleasePayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Starts an order: components that are not filament are issued (1210 WIP / 1200 Raw).
    #[graphql(guard = "Access::User")]
    async fn production_order_start(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<ProductionOrderPayload> {
        let user = user_id(ctx).await?;
        let r = crate::in_transaction!(ctx, |conn| rules::start(conn, id, Some(user)));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} started", o.code)
        }))
    }

    /// Puts an order on hold.
    #[graphql(guard = "Access::User")]
    async fn production_order_hold(
        &self,
        ctx: &Context<'_>,
        id: i64,
        notes: Option<String>,
    ) -> AppResult<ProductionOrderPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::hold(conn, id, notes));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} on hold", o.code)
        }))
    }

    /// Accepts that an order in progress will fall short: it then completes with what was
    /// made, without `forceCloseShort`.
    #[graphql(guard = "Access::User")]
    async fn production_order_accept_short(
        &self,
        ctx: &Context<'_>,
        id: i64,
        notes: Option<String>,
    ) -> AppResult<ProductionOrderPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::accept_short(conn, id, notes));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} accepted short", o.code)
        }))
    }

    /// Cancels an order: reservations released, consumed value written off to scrap.
    #[graphql(guard = "Access::User")]
    async fn production_order_cancel(
        &self,
        ctx: &Context<'_>,
        id: i64,
        notes: Option<String>,
    ) -> AppResult<ProductionOrderPayload> {
        let user = user_id(ctx).await?;
        let r = crate::in_transaction!(ctx, |conn| rules::cancel(conn, id, notes, Some(user)));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} cancelled", o.code)
        }))
    }

    /// Consumes filament from a named spool for an order (1210 WIP / 1200 Raw).
    #[graphql(guard = "Access::User")]
    async fn production_order_consume_spool(
        &self,
        ctx: &Context<'_>,
        id: i64,
        spool_id: i64,
        weight_consumed_grams: Decimal,
    ) -> AppResult<ProductionOrderPayload> {
        let user = user_id(ctx).await?;
        if weight_consumed_grams.0 <= BigDecimal::zero() {
            return Ok(ProductionOrderPayload {
                user_errors: vec![UserError::new(
                    "weightConsumedGrams",
                    UserErrorCode::Invalid,
                    "Input should be greater than 0",
                )],
                ..Default::default()
            });
        }
        let r = crate::in_transaction!(ctx, |conn| rules::consume_spool(
            conn,
            id,
            spool_id,
            weight_consumed_grams.0,
            user
        ));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Spool consumed for production order {}", o.code)
        }))
    }

    /// Completes an order: good units received at actual cost, scrapped share to 5020,
    /// serials created, QC pending.
    #[graphql(guard = "Access::User")]
    async fn production_order_complete(
        &self,
        ctx: &Context<'_>,
        id: i64,
        #[graphql(default)] input: ProductionOrderCompleteInput,
    ) -> AppResult<ProductionOrderPayload> {
        let user = user_id(ctx).await?;
        let gate = *data::<rules::CompletionGate>(ctx)?;
        let r = crate::in_transaction!(ctx, |conn| rules::complete(conn, id, input, user, gate));
        Ok(ProductionOrderPayload::of(r, |o| {
            format!("Production order {} completed", o.code)
        }))
    }

    /// Scraps an order with a scrap reason: its WIP value to 5020 Scrap, and a remake order
    /// unless `createRemake` is false.
    #[graphql(guard = "Access::User")]
    async fn production_order_scrap(
        &self,
        ctx: &Context<'_>,
        id: i64,
        scrap_reason: String,
        quantity_scrapped: Option<Decimal>,
        notes: Option<String>,
        #[graphql(default = true)] create_remake: bool,
    ) -> AppResult<ProductionOrderSpawnPayload> {
        let user = user_id(ctx).await?;
        let r = crate::in_transaction!(ctx, |conn| rules::scrap(
            conn,
            id,
            &scrap_reason,
            quantity_scrapped.map(|q| q.0),
            notes,
            create_remake,
            user
        ));
        Ok(match r {
            Ok((order, remake)) => {
                let message = match &remake {
                    Some(m) => format!(
                        "Production order {} scrapped; remake {}",
                        order.code, m.code
                    ),
                    None => format!("Production order {} scrapped", order.code),
                };
                ProductionOrderSpawnPayload {
                    order: Some(order),
                    created: remake.into_iter().collect(),
                    message: Some(message),
                    user_errors: Vec::new(),
                }
            }
            Err(user_errors) => ProductionOrderSpawnPayload {
                user_errors,
                ..Default::default()
            },
        })
    }

    /// Splits a released order into child orders.
    #[graphql(guard = "Access::User")]
    async fn production_order_split(
        &self,
        ctx: &Context<'_>,
        id: i64,
        splits: Vec<SplitInput>,
    ) -> AppResult<ProductionOrderSpawnPayload> {
        let user = user_id(ctx).await?;
        let quantities: Vec<BigDecimal> = splits.into_iter().map(|s| s.quantity.0).collect();
        let r = crate::in_transaction!(ctx, |conn| rules::split(conn, id, quantities, Some(user)));
        Ok(match r {
            Ok((order, children)) => ProductionOrderSpawnPayload {
                message: Some(format!(
                    "Production order {} split into {} orders",
                    order.code,
                    children.len()
                )),
                order: Some(order),
                created: children,
                user_errors: Vec::new(),
            },
            Err(user_errors) => ProductionOrderSpawnPayload {
                user_errors,
                ..Default::default()
            },
        })
    }

    /// Starts a queued operation (the order starts too when only released).
    #[graphql(guard = "Access::User")]
    async fn production_operation_start(
        &self,
        ctx: &Context<'_>,
        order_id: i64,
        operation_id: i64,
        #[graphql(default)] input: OperationStartInput,
    ) -> AppResult<ProductionOperationPayload> {
        let user = user_id(ctx).await?;
        let r = crate::in_transaction!(ctx, |conn| rules::operation_start(
            conn,
            order_id,
            operation_id,
            input,
            Some(user)
        ));
        Ok(ProductionOperationPayload::of(
            r.map(|(o, _)| o),
            "Operation started",
        ))
    }

    /// Completes a running operation and queues the next.
    #[graphql(guard = "Access::User")]
    async fn production_operation_complete(
        &self,
        ctx: &Context<'_>,
        order_id: i64,
        operation_id: i64,
        #[graphql(default)] input: OperationCompleteInput,
    ) -> AppResult<ProductionOperationPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::operation_complete(
            conn,
            order_id,
            operation_id,
            input
        ));
        Ok(ProductionOperationPayload::of(
            r.map(|(o, _)| o),
            "Operation completed",
        ))
    }

    /// Skips a pending or queued operation.
    #[graphql(guard = "Access::User")]
    async fn production_operation_skip(
        &self,
        ctx: &Context<'_>,
        order_id: i64,
        operation_id: i64,
        notes: Option<String>,
    ) -> AppResult<ProductionOperationPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::operation_skip(
            conn,
            order_id,
            operation_id,
            notes
        ));
        Ok(ProductionOperationPayload::of(r, "Operation skipped"))
    }

    /// Plans an operation (times, printer).
    #[graphql(guard = "Access::User")]
    async fn production_operation_schedule(
        &self,
        ctx: &Context<'_>,
        order_id: i64,
        operation_id: i64,
        input: OperationScheduleInput,
    ) -> AppResult<ProductionOperationPayload> {
        let r = crate::in_transaction!(ctx, |conn| rules::operation_schedule(
            conn,
            order_id,
            operation_id,
            input
        ));
        Ok(ProductionOperationPayload::of(r, "Operation scheduled"))
    }
}

/// The result of saving a work center.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct WorkCenterPayload {
    /// The work center.
    pub work_center: Option<WorkCenterRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

/// Work center mutations (staff).
#[derive(Default)]
pub struct ManufacturingMutation;

#[Object]
impl ManufacturingMutation {
    /// Creates a work center.
    #[graphql(guard = "Access::User")]
    async fn work_center_create(
        &self,
        ctx: &Context<'_>,
        input: model::WorkCenterCreateInput,
    ) -> AppResult<WorkCenterPayload> {
        let form: model::WorkCenterForm = input.into();
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::save_work_center(conn, None, form)) {
                Ok(w) => WorkCenterPayload {
                    work_center: Some(w),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => WorkCenterPayload {
                    work_center: None,
                    user_errors,
                },
            },
        )
    }

    /// Changes a work center.
    #[graphql(guard = "Access::User")]
    async fn work_center_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: model::WorkCenterUpdateInput,
    ) -> AppResult<WorkCenterPayload> {
        let form: model::WorkCenterForm = input.into();
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::save_work_center(conn, Some(id), form))
            {
                Ok(w) => WorkCenterPayload {
                    work_center: Some(w),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => WorkCenterPayload {
                    work_center: None,
                    user_errors,
                },
            },
        )
    }
}

/// The shop floor as a whole (staff): printers' work, dispatch, the command center, the
/// production trend.
#[derive(Default)]
pub struct ProductionFloorQuery;

#[Object]
impl ProductionFloorQuery {
    /// What every active printer is running, with how many operations are queued for it.
    #[graphql(guard = "Access::User")]
    async fn printers_active_work(&self, ctx: &Context<'_>) -> AppResult<Vec<floor::PrinterWork>> {
        floor::active_work(&mut *context::conn(ctx).await?).await
    }

    /// Per-printer queues of released print operations.
    #[graphql(guard = "Access::User")]
    async fn dispatch_queues(&self, ctx: &Context<'_>) -> AppResult<Vec<floor::PrinterQueue>> {
        floor::queues(&mut *context::conn(ctx).await?).await
    }

    /// For each idle printer, the next operation it should run (loaded filament, what it can
    /// print, priority, due date); accept by starting the operation on that printer.
    #[graphql(guard = "Access::User")]
    async fn dispatch_suggestions(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<floor::DispatchSuggestion>> {
        floor::suggestions(&mut *context::conn(ctx).await?).await
    }

    /// The command center's counts: running, late, blocked, waiting for material.
    #[graphql(guard = "Access::User")]
    async fn command_center_summary(&self, ctx: &Context<'_>) -> AppResult<floor::CommandSummary> {
        floor::summary(&mut *context::conn(ctx).await?).await
    }

    /// Printers with their work, and the work centers.
    #[graphql(guard = "Access::User")]
    async fn command_center_resources(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<floor::CommandResources> {
        floor::resources(&mut *context::conn(ctx).await?).await
    }

    /// What someone should look at, most urgent first.
    #[graphql(guard = "Access::User")]
    async fn command_center_action_items(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<floor::ActionItem>> {
        floor::action_items(&mut *context::conn(ctx).await?).await
    }

    /// Completed production per day over the last `days` days.
    #[graphql(guard = "Access::User")]
    async fn production_trend(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Days back (1-366, default 30).", default = 30, directive = crate::platform::graphql::limits::range::apply(1, 366))]
        days: i64,
    ) -> AppResult<Vec<floor::TrendDay>> {
        floor::trend(&mut *context::conn(ctx).await?, days).await
    }

    /// Completed production over a window (a FilaOps `period`, WTD, MTD, QTD or YTD, any
    /// other value the last 365 days; or the last `days` days) with its totals and the
    /// orders in the pipeline now.
    #[graphql(guard = "Access::User")]
    async fn production_trend_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "WTD, MTD, QTD or YTD (wins over `days`).")] period: Option<String>,
        #[graphql(desc = "Days back (1-366, default 30).", default = 30, directive = crate::platform::graphql::limits::range::apply(1, 366))]
        days: i64,
    ) -> AppResult<floor::ProductionTrendReport> {
        let days = match &period {
            Some(p) => crate::ledgers::accounting::rules::period_days(
                p,
                crate::ledgers::inventory::rules::today(),
            ),
            None => days,
        };
        floor::trend_report(&mut *context::conn(ctx).await?, period, days).await
    }
}
