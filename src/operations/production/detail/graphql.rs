//! An order's detail views in the schema (staff).

use async_graphql::{Context, Object};

use crate::operations::production::detail::availability::{self, MaterialAvailability};
use crate::operations::production::detail::compat::{
    self, OperationCompatibility, OrderCompatibility, ResourceCompatibility,
};
use crate::operations::production::detail::cost::{self, CostBreakdown};
use crate::operations::production::detail::required::{self, RequiredOrders};
use crate::operations::production::model::OrderRow;
use crate::operations::production::rules::{
    self, OperationScrapInput, OperationScrapResult, ScrapCascade,
};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::UserError;
use async_graphql::SimpleObject;

/// Order detail queries (staff).
#[derive(Default)]
pub struct OrderDetailQuery;

#[Object]
impl OrderDetailQuery {
    /// An order's cost: each material and operation, the actual (best known) totals, the
    /// estimate and the variance.
    #[graphql(guard = "Access::User")]
    async fn production_order_cost_breakdown(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<CostBreakdown> {
        cost::breakdown(&mut *context::conn(ctx).await?, id).await
    }

    /// Whether an order's materials are there: stock, reservations and open purchase orders.
    #[graphql(guard = "Access::User")]
    async fn production_order_material_availability(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<MaterialAvailability> {
        availability::of_order(&mut *context::conn(ctx).await?, id).await
    }

    /// Whether each operation's materials can print on the machine it is on.
    #[graphql(guard = "Access::User")]
    async fn production_order_compatibility(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<OrderCompatibility> {
        compat::of_order(&mut *context::conn(ctx).await?, id).await
    }

    /// Whether one operation's materials can print on the machine it is on.
    #[graphql(guard = "Access::User")]
    async fn production_operation_compatibility(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] order_id: i64,
        #[graphql(desc = "Its operation.")] operation_id: i64,
    ) -> AppResult<OperationCompatibility> {
        compat::of_operation(&mut *context::conn(ctx).await?, order_id, operation_id).await
    }

    /// Whether an order's materials can print on a machine (a printer, or a resource).
    #[graphql(guard = "Access::User")]
    async fn production_order_machine_compatibility(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
        #[graphql(desc = "The machine.")] resource_id: i64,
        #[graphql(
            desc = "The machine is a printer (else a work center resource).",
            default = false
        )]
        is_printer: bool,
    ) -> AppResult<ResourceCompatibility> {
        compat::on_machine(&mut *context::conn(ctx).await?, id, resource_id, is_printer).await
    }

    /// What an order waits for: components to make or buy beyond stock, level by level.
    #[graphql(guard = "Access::User")]
    async fn production_order_required_orders(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<RequiredOrders> {
        required::of_order(&mut *context::conn(ctx).await?, id).await
    }

    /// What scrapping units at an operation would lose (this and earlier operations'
    /// materials and time) and the journal entry it would post.
    #[graphql(guard = "Access::User")]
    async fn production_operation_scrap_cascade(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] order_id: i64,
        #[graphql(desc = "Its operation.")] operation_id: i64,
        #[graphql(desc = "Units to scrap (at least 1).")] quantity: Decimal,
    ) -> AppResult<ScrapCascade> {
        let mut conn = context::conn(ctx).await?;
        crate::platform::graphql::user_error::Stop::into_app(
            rules::scrap_cascade(&mut conn, order_id, operation_id, quantity.0).await,
        )
    }
}

/// The result of scrapping at an operation.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct OperationScrapPayload {
    /// What was done.
    pub result: Option<OperationScrapResult>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(OperationScrapPayload {
    result: OperationScrapResult
});

/// The result of rebuilding an order's operations.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct RefreshRoutingPayload {
    /// The order.
    pub order: Option<OrderRow>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(RefreshRoutingPayload { order: OrderRow });

/// What generating operations made.
#[derive(Debug, Clone, SimpleObject)]
pub struct GeneratedOperations {
    /// Done.
    pub success: bool,
    /// Operations made (or to be made at release, for a draft).
    pub operations_created: i64,
    /// What happened.
    pub message: String,
}

/// The result of generating operations.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct GenerateOperationsPayload {
    /// What was made.
    pub generated: Option<GeneratedOperations>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(GenerateOperationsPayload {
    generated: GeneratedOperations
});

/// Order detail mutations (staff).
#[derive(Default)]
pub struct OrderDetailMutation;

#[Object]
impl OrderDetailMutation {
    /// Stores an order's estimate from its plan and answers its cost breakdown.
    #[graphql(guard = "Access::User")]
    async fn production_order_estimate_cost(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<CostBreakdown> {
        cost::estimate(&mut *context::conn(ctx).await?, id).await
    }

    /// Scraps units at an operation: the units' share of the order's WIP to 5020 Scrap, the
    /// units counted on the operation and the order, later steps skipped when no good unit
    /// is left, and a draft remake order unless `createReplacement` is false.
    #[graphql(guard = "Access::User")]
    async fn production_operation_scrap(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] order_id: i64,
        #[graphql(desc = "Its operation.")] operation_id: i64,
        input: OperationScrapInput,
    ) -> AppResult<OperationScrapPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            crate::in_transaction!(ctx, |conn| rules::scrap_at_operation(
                conn,
                order_id,
                operation_id,
                input,
                user
            ))
            .into(),
        )
    }

    /// Rebuilds an order's operations and materials from the product's active routing
    /// (draft, released or on hold, nothing started).
    #[graphql(guard = "Access::User")]
    async fn production_order_refresh_routing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
    ) -> AppResult<RefreshRoutingPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx)
            .await
            .ok()
            .map(|u| u.id);
        Ok(crate::in_transaction!(ctx, |conn| rules::refresh_routing(conn, id, user)).into())
    }

    /// Generates an order's operations from the product's active routing (`force` replaces
    /// the ones that have not started).
    #[graphql(guard = "Access::User")]
    async fn production_order_generate_operations(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] id: i64,
        #[graphql(desc = "Replace existing operations.", default = false)] force: bool,
    ) -> AppResult<GenerateOperationsPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx)
            .await
            .ok()
            .map(|u| u.id);
        let made = crate::in_transaction!(ctx, |conn| rules::generate_operations(
            conn, id, force, user
        ));
        Ok(made
            .map(|n| GeneratedOperations {
                success: true,
                operations_created: n,
                message: format!("Generated {n} operations from routing"),
            })
            .into())
    }
}
