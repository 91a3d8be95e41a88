//! Loaders of production: a page of orders' operations, materials, spools and serials, and
//! the names they show (work centers, printers, BOM and routing codes, order codes), one query
//! per kind however many orders the page holds.

use std::collections::HashMap;

use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::operations::production::model::{
    self, MaterialRow, OperationRow, OrderSpoolRow, SerialRow, WorkCenterRow,
};
use crate::platform::db::DbPool;
use crate::platform::db::schema::{boms, production_orders, routings, sales_orders};
use crate::platform::error::AppError;

crate::grouped_loader!(
    /// The operations of orders, in sequence.
    OperationsLoader, OperationRow, model::operations_of, production_order_id
);
crate::grouped_loader!(
    /// The materials of orders.
    MaterialsLoader, MaterialRow, model::materials_of, production_order_id
);
crate::grouped_loader!(
    /// The spools orders used.
    OrderSpoolsLoader, OrderSpoolRow, model::spools_of, production_order_id
);
/// The serial numbers orders made.
pub struct SerialsLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for SerialsLoader {
    type Value = Vec<SerialRow>;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Vec<SerialRow>>, AppError> {
        let mut conn = self.pool.get().await?;
        let mut out: HashMap<i64, Vec<SerialRow>> = keys.iter().map(|k| (*k, Vec::new())).collect();
        for row in model::serials_of(&mut conn, keys).await? {
            if let Some(order) = row.production_order_id {
                out.entry(order).or_default().push(row);
            }
        }
        Ok(out)
    }
}

/// Work centers by id.
pub struct WorkCentersLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<i64> for WorkCentersLoader {
    type Value = WorkCenterRow;
    type Error = AppError;
    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, WorkCenterRow>, AppError> {
        let mut conn = self.pool.get().await?;
        Ok(model::work_centers_by_ids(&mut conn, keys)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect())
    }
}

/// Which code table a [`CodeKey`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeKind {
    /// A BOM.
    Bom,
    /// A routing.
    Routing,
    /// A production order.
    Order,
    /// A sales order (the one an order is made for).
    SalesOrder,
    /// The customer's name on a sales order (the one an order is made for).
    SalesOrderCustomer,
}

/// A record whose code is wanted.
pub type CodeKey = (CodeKind, i64);

/// Codes of BOMs, routings, production orders and sales orders.
pub struct CodesLoader {
    /// The pool.
    pub pool: DbPool,
}

impl Loader<CodeKey> for CodesLoader {
    type Value = String;
    type Error = AppError;
    async fn load(&self, keys: &[CodeKey]) -> Result<HashMap<CodeKey, String>, AppError> {
        let mut conn = self.pool.get().await?;
        let ids = |kind: CodeKind| -> Vec<i64> {
            keys.iter().filter(|k| k.0 == kind).map(|k| k.1).collect()
        };
        let mut out = HashMap::new();
        let b = ids(CodeKind::Bom);
        if !b.is_empty() {
            let rows: Vec<(i64, String)> = boms::table
                .filter(boms::id.eq_any(&b))
                .select((boms::id, boms::code))
                .load(&mut conn)
                .await?;
            out.extend(rows.into_iter().map(|(id, c)| ((CodeKind::Bom, id), c)));
        }
        let r = ids(CodeKind::Routing);
        if !r.is_empty() {
            let rows: Vec<(i64, String)> = routings::table
                .filter(routings::id.eq_any(&r))
                .select((routings::id, routings::code))
                .load(&mut conn)
                .await?;
            out.extend(rows.into_iter().map(|(id, c)| ((CodeKind::Routing, id), c)));
        }
        let o = ids(CodeKind::Order);
        if !o.is_empty() {
            let rows: Vec<(i64, String)> = production_orders::table
                .filter(production_orders::id.eq_any(&o))
                .select((production_orders::id, production_orders::code))
                .load(&mut conn)
                .await?;
            out.extend(rows.into_iter().map(|(id, c)| ((CodeKind::Order, id), c)));
        }
        let so = ids(CodeKind::SalesOrder);
        if !so.is_empty() {
            let rows: Vec<(i64, String)> = sales_orders::table
                .filter(sales_orders::id.eq_any(&so))
                .select((sales_orders::id, sales_orders::order_number))
                .load(&mut conn)
                .await?;
            out.extend(
                rows.into_iter()
                    .map(|(id, c)| ((CodeKind::SalesOrder, id), c)),
            );
        }
        let customers = ids(CodeKind::SalesOrderCustomer);
        if !customers.is_empty() {
            let rows: Vec<(i64, Option<String>)> = sales_orders::table
                .filter(sales_orders::id.eq_any(&customers))
                .select((sales_orders::id, sales_orders::customer_name))
                .load(&mut conn)
                .await?;
            out.extend(
                rows.into_iter()
                    .filter_map(|(id, name)| name.map(|n| ((CodeKind::SalesOrderCustomer, id), n))),
            );
        }
        Ok(out)
    }
}

crate::grouped_loader!(
    /// The active steps of routings, in sequence.
    RoutingStepsLoader, model::RoutingOperationRow, model::routing_operations_of, routing_id
);

/// Per-request steps of routings.
pub type RoutingSteps = DataLoader<RoutingStepsLoader, HashMapCache>;
/// Per-request materials of routing steps.
pub type StepMaterials = DataLoader<
    crate::operations::production::routing::materials::StepMaterialsLoader,
    HashMapCache,
>;
/// Per-request operations of orders.
pub type Operations = DataLoader<OperationsLoader, HashMapCache>;
/// Per-request materials of orders.
pub type Materials = DataLoader<MaterialsLoader, HashMapCache>;
/// Per-request spools of orders.
pub type OrderSpools = DataLoader<OrderSpoolsLoader, HashMapCache>;
/// Per-request serials of orders.
pub type Serials = DataLoader<SerialsLoader, HashMapCache>;
/// Per-request work centers.
pub type WorkCenters = DataLoader<WorkCentersLoader, HashMapCache>;
/// Per-request codes.
pub type Codes = DataLoader<CodesLoader, HashMapCache>;

fn loader<L>(l: L) -> DataLoader<L, HashMapCache>
where
    L: Send + Sync + 'static,
{
    DataLoader::with_cache(
        l,
        crate::platform::graphql::context::spawn_in_current_span,
        HashMapCache::default(),
    )
}

/// Attaches the production loaders to a request.
pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
    request
        .data(loader(OperationsLoader { pool: pool.clone() }))
        .data(loader(MaterialsLoader { pool: pool.clone() }))
        .data(loader(OrderSpoolsLoader { pool: pool.clone() }))
        .data(loader(SerialsLoader { pool: pool.clone() }))
        .data(loader(WorkCentersLoader { pool: pool.clone() }))
        .data(loader(CodesLoader { pool: pool.clone() }))
        .data(loader(RoutingStepsLoader { pool: pool.clone() }))
        .data(loader(
            crate::operations::production::inspections::InspectionsLoader { pool: pool.clone() },
        ))
        .data(loader(
            crate::operations::production::inspections::MeasurementsLoader { pool: pool.clone() },
        ))
        .data(loader(
            crate::operations::production::routing::materials::StepMaterialsLoader {
                pool: pool.clone(),
            },
        ))
}
