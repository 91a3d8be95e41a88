//! What every detail view of an order reads: the order, its operations and materials, the
//! work centers' rates and the components' names, units and costs, loaded in a handful of
//! statements.

use std::collections::HashMap;

use bigdecimal::BigDecimal;
use diesel_async::AsyncPgConnection;

use crate::operations::bom::model::{Part, parts};
use crate::operations::bom::tree::item_unit_cost;
use crate::operations::production::model::{
    self, MaterialRow, OperationRow, OrderRow, WorkCenterRow,
};
use crate::platform::error::AppResult;

/// An order with everything its detail views need.
pub struct OrderFacts {
    /// The order.
    pub order: OrderRow,
    /// Its operations in sequence.
    pub operations: Vec<OperationRow>,
    /// Its materials, by operation sequence then id.
    pub materials: Vec<MaterialRow>,
    /// Work centers by id.
    pub centers: HashMap<i64, WorkCenterRow>,
    /// Components by id.
    pub parts: HashMap<i64, Part>,
}

impl OrderFacts {
    /// Loads an order (404 when it does not exist) and its operations, materials, work
    /// centers and components.
    pub async fn load(conn: &mut AsyncPgConnection, id: i64) -> AppResult<OrderFacts> {
        let order = model::find(conn, id).await?;
        let mut operations = model::operations_of(conn, &[id]).await?;
        operations.sort_by_key(|o| (o.sequence, o.id));
        let mut materials = model::materials_of(conn, &[id]).await?;
        let position = |op: Option<i64>| {
            op.and_then(|o| operations.iter().position(|x| x.id == o))
                .unwrap_or(usize::MAX)
        };
        materials.sort_by_key(|m| (position(m.operation_id), m.id));
        let center_ids: Vec<i64> = operations.iter().map(|o| o.work_center_id).collect();
        let centers = model::work_centers_by_ids(conn, &center_ids)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect();
        let component_ids: Vec<i64> = materials.iter().map(|m| m.component_id).collect();
        let parts = parts(conn, &component_ids)
            .await?
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        Ok(OrderFacts {
            order,
            operations,
            materials,
            centers,
            parts,
        })
    }

    /// A component's cost per stocking unit (0 when unknown).
    pub fn unit_cost(&self, component: i64) -> BigDecimal {
        self.parts
            .get(&component)
            .map(item_unit_cost)
            .unwrap_or_default()
    }

    /// A work center's hourly rate (0 when unknown).
    pub fn rate(&self, center: i64) -> BigDecimal {
        self.centers
            .get(&center)
            .map(|w| w.hourly_rate.0.clone())
            .unwrap_or_default()
    }

    /// An operation by id.
    pub fn operation(&self, id: Option<i64>) -> Option<&OperationRow> {
        id.and_then(|id| self.operations.iter().find(|o| o.id == id))
    }

    /// A component's SKU and name.
    pub fn names(&self, component: i64) -> (Option<String>, Option<String>) {
        match self.parts.get(&component) {
            Some(p) => (Some(p.sku.clone()), Some(p.name.clone())),
            None => (None, None),
        }
    }
}

/// Planned and best-known actual minutes of an operation: (planned, actual-or-planned).
pub fn minutes(op: &OperationRow) -> (BigDecimal, BigDecimal) {
    let planned = &op.planned_setup_minutes.0 + &op.planned_run_minutes.0;
    let setup = op
        .actual_setup_minutes
        .as_ref()
        .map_or_else(|| op.planned_setup_minutes.0.clone(), |d| d.0.clone());
    let run = op
        .actual_run_minutes
        .as_ref()
        .map_or_else(|| op.planned_run_minutes.0.clone(), |d| d.0.clone());
    (planned, setup + run)
}
