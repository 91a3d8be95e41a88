//! Loaders of sales: lines, events, payments, shipments and invoices of a page of orders,
//! the lines of invoices, and orders
//! by id (for payments and shipments), each one query per batch.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};

use crate::operations::sales::invoices::{
    self,
    model::{InvoiceLineRow, InvoiceRow},
};
use crate::operations::sales::model::{self, SalesEventRow, SalesOrderLineRow, SalesOrderRow};
use crate::operations::sales::payments::{self, PaymentRow};
use crate::operations::sales::shipments::{self as shipping, ShipmentRow};
use crate::platform::db::DbPool;
use crate::platform::error::AppError;

crate::grouped_loader!(
    /// The lines of sales orders, by line number.
    LinesLoader,
    SalesOrderLineRow,
    model::lines_of,
    sales_order_id
);
crate::grouped_loader!(
    /// The events of sales orders, oldest first.
    EventsLoader,
    SalesEventRow,
    model::events_of,
    sales_order_id
);
crate::grouped_loader!(
    /// The payments of sales orders, oldest first.
    PaymentsLoader,
    PaymentRow,
    payments::of_orders,
    sales_order_id
);
crate::grouped_loader!(
    /// The shipments of sales orders, oldest first.
    ShipmentsLoader,
    ShipmentRow,
    shipping::of_orders,
    sales_order_id
);

crate::grouped_loader!(
    /// The invoices of sales orders, oldest first.
    InvoicesLoader,
    InvoiceRow,
    invoices::model::of_orders,
    sales_order_id
);
crate::grouped_loader!(
    /// The lines of invoices, in order.
    InvoiceLinesLoader,
    InvoiceLineRow,
    invoices::model::lines_of,
    invoice_id
);

/// Sales orders by id.
pub struct OrdersLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for OrdersLoader {
    type Value = SalesOrderRow;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, SalesOrderRow>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::by_ids(&mut conn, keys)
            .await?
            .into_iter()
            .map(|o| (o.id, o))
            .collect())
    }
}

/// Per-request order lines.
pub type SalesOrderLines = DataLoader<LinesLoader, HashMapCache>;
/// Per-request order events.
pub type SalesOrderEvents = DataLoader<EventsLoader, HashMapCache>;
/// Per-request order payments.
pub type SalesOrderPayments = DataLoader<PaymentsLoader, HashMapCache>;
/// Per-request order shipments.
pub type SalesOrderShipments = DataLoader<ShipmentsLoader, HashMapCache>;
/// Per-request invoices of orders.
pub type SalesOrderInvoices = DataLoader<InvoicesLoader, HashMapCache>;
/// Per-request lines of invoices.
pub type InvoiceLines = DataLoader<InvoiceLinesLoader, HashMapCache>;
/// Per-request orders by id.
pub type SalesOrdersById = DataLoader<OrdersLoader, HashMapCache>;

/// Attaches the sales loaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    let spawn = crate::platform::graphql::context::spawn_in_current_span;
    request
        .data(DataLoader::with_cache(
            LinesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            EventsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            PaymentsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            ShipmentsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            InvoicesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            InvoiceLinesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            OrdersLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
}
