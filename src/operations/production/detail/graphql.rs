//! An order's detail views in the schema (staff).

use async_graphql::{Context, Object};

use crate::operations::production::detail::availability::{self, MaterialAvailability};
use crate::operations::production::detail::compat::{
    self, OperationCompatibility, OrderCompatibility, ResourceCompatibility,
};
use crate::operations::production::detail::cost::{self, CostBreakdown};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;

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
        #[graphql(desc = "The machine is a printer (else a work center resource).", default = false)]
        is_printer: bool,
    ) -> AppResult<ResourceCompatibility> {
        compat::on_machine(&mut *context::conn(ctx).await?, id, resource_id, is_printer).await
    }
}

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
}
