//! Loaders of purchasing: lines, events and documents of a page of orders, the orders of a
//! page of vendors, vendor names and on-order quantities, each one query per batch.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::operations::purchasing::model::{
    self, PurchaseDocumentRow, PurchaseEventRow, PurchaseOrderLineRow, PurchaseOrderRow,
};
use crate::platform::db::DbPool;
use crate::platform::db::schema::vendors;
use crate::platform::error::AppError;

crate::grouped_loader!(
    /// The lines of purchase orders, by line number.
    LinesLoader,
    PurchaseOrderLineRow,
    model::lines_of,
    purchase_order_id
);
crate::grouped_loader!(
    /// The events of purchase orders, oldest first.
    EventsLoader,
    PurchaseEventRow,
    model::events_of,
    purchase_order_id
);
crate::grouped_loader!(
    /// The documents of purchase orders.
    DocumentsLoader,
    PurchaseDocumentRow,
    model::documents_of,
    purchase_order_id
);
crate::grouped_loader!(
    /// The purchase orders of vendors, newest first.
    VendorOrdersLoader,
    PurchaseOrderRow,
    model::of_vendors,
    vendor_id
);

/// Vendor names.
pub struct VendorNamesLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for VendorNamesLoader {
    type Value = String;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, String>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(vendors::table
            .filter(vendors::id.eq_any(keys))
            .select((vendors::id, vendors::name))
            .load::<(i64, String)>(&mut conn)
            .await?
            .into_iter()
            .collect())
    }
}

/// Quantities on open purchase orders per item, in stocking units.
pub struct OnOrderLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for OnOrderLoader {
    type Value = BigDecimal;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, BigDecimal>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, BigDecimal> =
            keys.iter().map(|k| (*k, BigDecimal::from(0))).collect();
        out.extend(crate::operations::purchasing::rules::on_order(&mut conn, keys).await?);
        Ok(out)
    }
}

/// Per-request order lines.
pub type OrderLines = DataLoader<LinesLoader, HashMapCache>;
/// Per-request order events.
pub type OrderEvents = DataLoader<EventsLoader, HashMapCache>;
/// Per-request order documents.
pub type OrderDocuments = DataLoader<DocumentsLoader, HashMapCache>;
/// Per-request vendor orders.
pub type VendorOrders = DataLoader<VendorOrdersLoader, HashMapCache>;
/// Per-request vendor names.
pub type VendorNames = DataLoader<VendorNamesLoader, HashMapCache>;
/// Per-request on-order quantities.
pub type OnOrder = DataLoader<OnOrderLoader, HashMapCache>;

/// Attaches the purchasing loaders to a request.
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
            DocumentsLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            VendorOrdersLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            VendorNamesLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
        .data(DataLoader::with_cache(
            OnOrderLoader { pool: pool.clone() },
            spawn,
            HashMapCache::default(),
        ))
}
