//! The shipment row (also its GraphQL object) and the queries on it: the record of a sales
//! order's shipments, which the order shows. Shipping itself (stock, books, tracking) is
//! `crate::operations::shipping`, which writes these rows.

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::paging;
use crate::platform::db::schema::{sales_orders, shipments};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

/// A shipment of a sales order.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = shipments, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Shipment", complex)]
pub struct ShipmentRow {
    /// Id.
    pub id: i64,
    /// `SHP-YYYY-NNNN`.
    pub shipment_number: String,
    /// The order shipped.
    pub sales_order_id: i64,
    /// Carrier.
    pub carrier: String,
    /// Service level.
    pub service: String,
    /// Tracking number (given or generated).
    pub tracking_number: String,
    /// Value of the finished goods shipped (booked to 5000 COGS).
    pub cost_of_goods: Decimal,
    /// Value of the packaging consumed (booked to 5010).
    pub packaging_cost: Decimal,
    /// When it shipped.
    pub shipped_at: Timestamp,
    /// Who shipped it.
    pub created_by: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
}

/// A page of shipments, newest first, and the total, in one statement; with `owner`, only
/// the shipments of that user's orders (operators see their own orders only, CONTRACT 5.2).
pub async fn list(
    conn: &mut AsyncPgConnection,
    sales_order_id: Option<i64>,
    owner: Option<i64>,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<ShipmentRow>, i64)> {
    let build = || {
        let mut q = shipments::table
            .select((ShipmentRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(id) = sales_order_id {
            q = q.filter(shipments::sales_order_id.eq(id));
        }
        if let Some(user) = owner {
            q = q.filter(
                shipments::sales_order_id.eq_any(
                    sales_orders::table
                        .filter(sales_orders::user_id.eq(user))
                        .select(sales_orders::id),
                ),
            );
        }
        q.order((shipments::shipped_at.desc(), shipments::id.desc()))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The shipments of these orders, oldest first.
pub async fn of_orders(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<ShipmentRow>> {
    Ok(shipments::table
        .filter(shipments::sales_order_id.eq_any(order_ids))
        .order((shipments::sales_order_id, shipments::id))
        .select(ShipmentRow::as_select())
        .load(conn)
        .await?)
}
