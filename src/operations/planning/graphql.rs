//! Planning in the schema: MRP runs, planned orders (firm, release, cancel), requirements,
//! BOM explosion, supply and demand over time, and the buy list. Reading and acting on
//! planned orders is for any signed-in user (FilaOps's staff); running MRP is for admins.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};
use bigdecimal::BigDecimal;

use crate::operations::planning::analysis::{
    self, BomExplosionResult, RequirementsSummary, SupplyDemandTimeline,
};
use crate::operations::planning::buy_list::{self, BuyList, BuyListOrderInput, BuyListOrderResult};
use crate::operations::planning::model::{
    self, MrpExceptionRow, MrpRunRow, PlannedOrderFilter, PlannedOrderRow, PlannedOrderStatus,
    PlannedOrderType,
};
use crate::operations::planning::mrp::{self, MrpRunInput, PlannedOrderReleaseInput, Released};
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::UserError;

#[ComplexObject]
impl PlannedOrderRow {
    /// The item's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_of(ctx, self.product_id).await?.map(|p| p.sku))
    }

    /// The item's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_of(ctx, self.product_id).await?.map(|p| p.name))
    }
}

async fn item_of(
    ctx: &Context<'_>,
    id: i64,
) -> AppResult<Option<crate::operations::bom::model::Part>> {
    context::data::<crate::operations::bom::loaders::Parts>(ctx)?
        .load_one(id)
        .await
}

/// Recent runs and the last one that finished.
#[derive(Debug, Clone, SimpleObject)]
pub struct MrpRunSummary {
    /// Newest first.
    pub runs: Vec<MrpRunRow>,
    /// When the last completed run ran.
    pub last_successful_run: Option<Timestamp>,
}

/// A page of planned orders (FilaOps's `{items, total, page, page_size}`).
#[derive(Debug, Clone, SimpleObject)]
pub struct PlannedOrderPage {
    /// The orders of this page.
    pub items: Vec<PlannedOrderRow>,
    /// How many match.
    pub total: i64,
    /// This page (from 1).
    pub page: i64,
    /// Page size.
    pub page_size: i64,
}

/// Planning queries.
#[derive(Default)]
pub struct PlanningQuery;

#[Object]
impl PlanningQuery {
    /// Recent MRP runs, newest first, and when the last completed one ran.
    #[graphql(guard = "Access::User")]
    async fn mrp_runs(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-100, default 10).", default = 10, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        limit: i64,
    ) -> AppResult<MrpRunSummary> {
        if !(1..=100).contains(&limit) {
            return Err(AppError::invalid_field(
                "limit",
                "limit must be between 1 and 100",
            ));
        }
        let runs = model::runs(&mut *context::conn(ctx).await?, limit).await?;
        let last = runs
            .iter()
            .find(|r| r.status == model::MrpRunStatus::Completed)
            .map(|r| r.run_date);
        Ok(MrpRunSummary {
            runs,
            last_successful_run: last,
        })
    }

    /// One MRP run (`mrpRun` is the mutation that runs one).
    #[graphql(guard = "Access::User")]
    async fn mrp_run_details(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The run.")] id: i64,
    ) -> AppResult<MrpRunRow> {
        model::run(&mut *context::conn(ctx).await?, id).await
    }

    /// What a run found worth a look (late orders, excess supply, items without a vendor).
    #[graphql(guard = "Access::User")]
    async fn mrp_exceptions(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The run (default: the latest).")] run_id: Option<i64>,
    ) -> AppResult<Vec<MrpExceptionRow>> {
        let mut conn = context::conn(ctx).await?;
        let run = match run_id {
            Some(id) => Some(model::run(&mut conn, id).await?.id),
            None => model::runs(&mut conn, 1).await?.first().map(|r| r.id),
        };
        match run {
            Some(id) => model::exceptions_of(&mut conn, id).await,
            None => Ok(Vec::new()),
        }
    }

    /// Planned orders by need date (late ones first when asked), not cancelled unless asked.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn planned_orders(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this status.")] status: Option<PlannedOrderStatus>,
        #[graphql(desc = "Only buys or only makes.")] order_type: Option<PlannedOrderType>,
        #[graphql(desc = "Only this item.")] product_id: Option<i64>,
        #[graphql(desc = "Late orders first.", default = false)] exceptions_first: bool,
        #[graphql(desc = "Page (from 1).", default = 1)] page: i64,
        #[graphql(desc = "Page size (1-200, default 50).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 200))]
        page_size: i64,
    ) -> AppResult<PlannedOrderPage> {
        if page < 1 || !(1..=200).contains(&page_size) {
            return Err(AppError::invalid_field(
                "pageSize",
                "page must be at least 1 and page_size between 1 and 200",
            ));
        }
        let filter = PlannedOrderFilter {
            status,
            order_type,
            product_id,
            exceptions_first,
        };
        let (items, total) = model::planned_orders(
            &mut *context::conn(ctx).await?,
            &filter,
            page_size,
            (page - 1) * page_size,
        )
        .await?;
        Ok(PlannedOrderPage {
            items,
            total,
            page,
            page_size,
        })
    }

    /// One planned order.
    #[graphql(guard = "Access::User")]
    async fn planned_order(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The planned order.")] id: i64,
    ) -> AppResult<PlannedOrderRow> {
        model::planned_order(&mut *context::conn(ctx).await?, id).await
    }

    /// The components one unit of a product needs, or what a production order still needs,
    /// netted against stock, allocations and open purchase orders.
    #[graphql(guard = "Access::User")]
    async fn mrp_requirements(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Explode this product's BOM for one unit.")] product_id: Option<i64>,
        #[graphql(desc = "Or: what this production order still has to make.")] production_order_id: Option<i64>,
    ) -> AppResult<RequirementsSummary> {
        analysis::requirements(
            &mut *context::conn(ctx).await?,
            product_id,
            production_order_id,
        )
        .await
    }

    /// A product's BOM exploded through every level for a quantity.
    #[graphql(guard = "Access::User")]
    async fn mrp_explode_bom(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The product.")] product_id: i64,
        #[graphql(desc = "How many (more than 0, default 1).")] quantity: Option<Decimal>,
    ) -> AppResult<BomExplosionResult> {
        let quantity = quantity.map(|q| q.0).unwrap_or_else(|| BigDecimal::from(1));
        if quantity <= 0 {
            return Err(AppError::invalid_field(
                "quantity",
                "quantity must be greater than 0",
            ));
        }
        analysis::explode(&mut *context::conn(ctx).await?, product_id, &quantity).await
    }

    /// An item's dated supply and demand with the projected balance after each.
    #[graphql(guard = "Access::User")]
    async fn mrp_supply_demand(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The item.")] product_id: i64,
        #[graphql(desc = "Days ahead (1-365, default 30).", default = 30, directive = crate::platform::graphql::limits::range::apply(1, 365))]
        days_ahead: i32,
    ) -> AppResult<SupplyDemandTimeline> {
        analysis::supply_demand(&mut *context::conn(ctx).await?, product_id, days_ahead).await
    }

    /// The buy list: bought items still short after netting all open demand, computed now.
    #[graphql(guard = "Access::User")]
    async fn buy_list(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only items whose preferred vendor is this one.")] vendor_id: Option<i64>,
    ) -> AppResult<BuyList> {
        buy_list::compute(&mut *context::conn(ctx).await?, vendor_id).await
    }
}

/// The result of an MRP run.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MrpRunPayload {
    /// The run.
    pub run: Option<MrpRunRow>,
    /// Rule violations (nothing ran when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(MrpRunPayload { run: MrpRunRow });

/// The result of a change to a planned order.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PlannedOrderPayload {
    /// The planned order after the change.
    pub planned_order: Option<PlannedOrderRow>,
    /// What happened (cancel).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<PlannedOrderRow, Vec<UserError>>> for PlannedOrderPayload {
    fn from(result: Result<PlannedOrderRow, Vec<UserError>>) -> Self {
        match result {
            Ok(row) => PlannedOrderPayload {
                planned_order: Some(row),
                ..Default::default()
            },
            Err(user_errors) => PlannedOrderPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// What releasing one planned order created (FilaOps's `ReleasePlannedOrderResponse`).
#[derive(Debug, Clone, SimpleObject)]
pub struct PlannedOrderRelease {
    /// The planned order.
    pub planned_order_id: i64,
    /// Buy or make.
    pub order_type: PlannedOrderType,
    /// The draft purchase order it is a line of.
    pub created_purchase_order_id: Option<i64>,
    /// Its number.
    pub created_purchase_order_code: Option<String>,
    /// The draft production order it became.
    pub created_production_order_id: Option<i64>,
    /// Its code.
    pub created_production_order_code: Option<String>,
}

impl From<Released> for PlannedOrderRelease {
    fn from(r: Released) -> Self {
        let (id, code) = r.created;
        let purchase = r.planned.order_type == PlannedOrderType::Purchase;
        PlannedOrderRelease {
            planned_order_id: r.planned.id,
            order_type: r.planned.order_type,
            created_purchase_order_id: purchase.then_some(id),
            created_purchase_order_code: purchase.then(|| code.clone()),
            created_production_order_id: (!purchase).then_some(id),
            created_production_order_code: (!purchase).then_some(code),
        }
    }
}

/// The result of releasing planned orders.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PlannedOrderReleasePayload {
    /// One entry per planned order released.
    pub released: Vec<PlannedOrderRelease>,
    /// The first of them (the single-order release's answer).
    pub release: Option<PlannedOrderRelease>,
    /// Rule violations (nothing was released when present).
    pub user_errors: Vec<UserError>,
}

/// The result of ordering the buy list.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct BuyListOrderPayload {
    /// What was created.
    pub result: Option<BuyListOrderResult>,
    /// Rule violations (nothing was created when present).
    pub user_errors: Vec<UserError>,
}

/// Planning mutations.
#[derive(Default)]
pub struct PlanningMutation;

#[Object]
impl PlanningMutation {
    /// Runs MRP: replaces the unfirmed planned orders with new ones for every shortfall in the
    /// horizon, and records the run with its exceptions.
    #[graphql(guard = "Access::Admin")]
    async fn mrp_run(
        &self,
        ctx: &Context<'_>,
        #[graphql(
            desc = "How to run (defaults: 30 days, drafts included, regenerate).",
            default
        )]
        input: MrpRunInput,
    ) -> AppResult<MrpRunPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| mrp::run(conn, input, user)).into())
    }

    /// Firms a planned order so later runs keep it.
    #[graphql(guard = "Access::User")]
    async fn planned_order_firm(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The planned order.")] id: i64,
        #[graphql(desc = "Notes (replace the order's).")] notes: Option<String>,
    ) -> AppResult<PlannedOrderPayload> {
        Ok(crate::in_transaction!(ctx, |conn| mrp::firm(conn, id, notes)).into())
    }

    /// Releases planned orders: buys become draft purchase orders (one per vendor), makes
    /// become draft production orders. All or nothing.
    #[graphql(guard = "Access::User")]
    async fn planned_orders_release(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The planned orders.")] ids: Vec<i64>,
        #[graphql(desc = "Vendor and notes.", default)] input: PlannedOrderReleaseInput,
    ) -> AppResult<PlannedOrderReleasePayload> {
        if ids.is_empty() || ids.len() > 500 {
            return Err(AppError::invalid_field(
                "ids",
                "Release between 1 and 500 planned orders at a time",
            ));
        }
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| mrp::release(conn, &ids, input, user)) {
                Ok(done) => {
                    let released: Vec<PlannedOrderRelease> =
                        done.into_iter().map(Into::into).collect();
                    PlannedOrderReleasePayload {
                        release: released.first().cloned(),
                        released,
                        user_errors: Vec::new(),
                    }
                }
                Err(user_errors) => PlannedOrderReleasePayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Cancels (deletes) a planned order that is not released.
    #[graphql(guard = "Access::User")]
    async fn planned_order_cancel(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The planned order.")] id: i64,
    ) -> AppResult<PlannedOrderPayload> {
        let mut payload: PlannedOrderPayload =
            crate::in_transaction!(ctx, |conn| mrp::cancel(conn, id)).into();
        if payload.user_errors.is_empty() {
            payload.message = Some("Planned order cancelled".into());
        }
        Ok(payload)
    }

    /// Orders the buy list: draft purchase orders of the suggested quantities, one per vendor.
    #[graphql(guard = "Access::User")]
    async fn buy_list_order(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which items, and a vendor for items without one.", default)]
        input: BuyListOrderInput,
    ) -> AppResult<BuyListOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| buy_list::order(conn, input, user)) {
                Ok(result) => BuyListOrderPayload {
                    result: Some(result),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => BuyListOrderPayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }
}
