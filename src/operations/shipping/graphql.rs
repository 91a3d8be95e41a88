//! Shipping in the schema: shipping an order (admins, CONTRACT 5.2 ship) and the shipments
//! list (any signed-in user).

use async_graphql::{Context, Object, SimpleObject};

use crate::operations::sales::shipments::{self as model, ShipmentRow};
use crate::operations::shipping::rules::{self, ShipInput, ShipResult, ShipmentCreateInput};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::user_error::UserError;

crate::connection!(
    /// A page of shipments.
    ShipmentConnection,
    ShipmentRow
);

/// Shipping queries.
#[derive(Default)]
pub struct ShippingQuery;

#[Object]
impl ShippingQuery {
    /// Shipments, newest first (operators: the shipments of their own orders).
    #[graphql(guard = "Access::User")]
    async fn shipments(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "One order's shipments.")] sales_order_id: Option<i64>,
        #[graphql(desc = "Page size (1-250, default 50).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 250))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<ShipmentConnection> {
        let page = Page::new(Some(first), Some(offset))?;
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let owner = (!user.is_admin()).then_some(user.id);
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            sales_order_id,
            owner,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(ShipmentConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }
}

/// The result of shipping an order.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ShipPayload {
    /// What shipping did.
    pub result: Option<ShipResult>,
    /// Rule violations (nothing moved or posted when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(ShipPayload { result: ShipResult });

/// Shipping mutations.
#[derive(Default)]
pub struct ShippingMutation;

#[Object]
impl ShippingMutation {
    /// Ships an order (admins): finished goods and packaging issued, cost of goods and the
    /// invoice booked, the order `shipped`, in one transaction.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_ship(
        &self,
        ctx: &Context<'_>,
        id: i64,
        #[graphql(default)] input: ShipInput,
    ) -> AppResult<ShipPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::ship(conn, id, input, user)).into())
    }

    /// Creates a shipment of an order (admins): the same as shipping it.
    #[graphql(guard = "Access::Admin")]
    async fn shipment_create(
        &self,
        ctx: &Context<'_>,
        input: ShipmentCreateInput,
    ) -> AppResult<ShipPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let ship = ShipInput {
            carrier: input.carrier,
            service: input.service,
            tracking_number: input.tracking_number,
        };
        let id = input.sales_order_id;
        Ok(crate::in_transaction!(ctx, |conn| rules::ship(conn, id, ship, user)).into())
    }
}
