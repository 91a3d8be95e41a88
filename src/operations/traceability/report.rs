//! The trace reports of CONTRACT 5.19, built from one walk of the genealogy and one batched
//! load per kind of record it reached (a constant number of statements at any size).

use std::collections::BTreeMap;

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::spools::model::SpoolRow;
use crate::operations::production::model::{OrderRow, SerialRow};
use crate::operations::purchasing::model::{MaterialLotRow, PurchaseOrderRow};
use crate::operations::sales::model::SalesOrderRow;
use crate::operations::traceability::model::{
    Graph, NodeKey, TraceDirection, TraceEdge, TraceNode, TraceNodeKind, walk,
};
use crate::platform::db::schema::{items, vendors};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::Decimal;

/// A customer reached by a trace: the sales orders' customer record, or their name and
/// e-mail when the order has no customer record.
#[derive(Debug, Clone, SimpleObject)]
pub struct TraceCustomer {
    /// The customer record, when the orders have one.
    pub id: Option<i64>,
    /// Name on the orders.
    pub name: Option<String>,
    /// E-mail on the orders.
    pub email: Option<String>,
    /// The affected orders' numbers.
    pub order_numbers: Vec<String>,
}

/// One production order downstream of the source: what it took and where its units went.
#[derive(Debug, Clone, SimpleObject)]
pub struct TraceUsage {
    /// The production order.
    pub production_order: OrderRow,
    /// Grams of the traced material it consumed (0 when reached otherwise, e.g. a split).
    pub material_consumed_g: Decimal,
    /// The sales order it was made for, or else the first one its units went to.
    pub sales_order: Option<SalesOrderRow>,
    /// The units it made.
    pub serial_numbers: Vec<SerialRow>,
}

/// Counts of a forward trace.
#[derive(Debug, Clone, SimpleObject)]
pub struct TraceSummary {
    /// Production orders downstream.
    pub total_production_orders: i64,
    /// Grams of the traced material those orders consumed.
    pub total_consumed_g: Decimal,
    /// Good units those orders completed.
    pub total_units_produced: Decimal,
    /// Finished units (serial numbers) downstream.
    pub total_serial_numbers: i64,
    /// Of those, units already shipped.
    pub units_shipped: i64,
    /// Of those, units still here (made, in stock or sold but not shipped).
    pub units_on_hand: i64,
    /// Sales orders downstream.
    pub affected_sales_orders: i64,
    /// Customers downstream.
    pub affected_customers: i64,
    /// Those customers.
    pub customers: Vec<TraceCustomer>,
}

/// Where the source material came from: its lot, purchase order and vendor.
#[derive(Debug, Clone, SimpleObject)]
pub struct PurchaseInfo {
    /// The lot.
    pub lot: Option<MaterialLotRow>,
    /// The lot's number.
    pub lot_number: Option<String>,
    /// The vendor's own lot number.
    pub vendor_lot_number: Option<String>,
    /// The purchase order.
    pub purchase_order_id: Option<i64>,
    /// Its number.
    pub po_number: Option<String>,
    /// The vendor.
    pub vendor_id: Option<i64>,
    /// Its name.
    pub vendor_name: Option<String>,
    /// When it was ordered.
    pub order_date: Option<chrono::NaiveDate>,
    /// When it was received.
    pub received_date: Option<chrono::NaiveDate>,
}

/// Everything downstream of one or more sources (a unit, a lot, a spool, an order):
/// CONTRACT 5.19's forward trace, and the recall impact of a set of lots and spools.
#[derive(Debug, Clone, SimpleObject)]
pub struct ForwardTrace {
    /// Where the trace started.
    pub sources: Vec<TraceNode>,
    /// The source spool, when the trace started from one spool.
    pub spool: Option<SpoolRow>,
    /// The source material's origin, when it started from one spool or lot.
    pub purchase_info: Option<PurchaseInfo>,
    /// Lots among the sources.
    pub lots: Vec<MaterialLotRow>,
    /// Spools downstream of the sources (and source spools).
    pub spools: Vec<SpoolRow>,
    /// Production orders downstream, with what they took and where their units went.
    pub usage: Vec<TraceUsage>,
    /// Finished units downstream.
    pub serial_numbers: Vec<SerialRow>,
    /// Sales orders downstream.
    pub sales_orders: Vec<SalesOrderRow>,
    /// Counts.
    pub summary: TraceSummary,
    /// Numbers asked for that name nothing (recall impact).
    pub not_found: Vec<String>,
    /// The graph's nodes (for a graph or tree view).
    pub nodes: Vec<TraceNode>,
    /// The graph's links, downstream.
    pub edges: Vec<TraceEdge>,
}

/// A spool a unit or order was made from, and that spool's origin.
#[derive(Debug, Clone, SimpleObject)]
pub struct LineageEntry {
    /// The spool.
    pub spool: SpoolRow,
    /// Grams the order took from it.
    pub weight_consumed_g: Decimal,
    /// The production order that took them.
    pub production_order_id: i64,
    /// The lot the spool came in.
    pub lot: Option<MaterialLotRow>,
    /// The purchase order that brought the lot.
    pub purchase_order: Option<PurchaseOrderRow>,
}

/// A product's identity.
#[derive(Debug, Clone, SimpleObject, Queryable)]
pub struct TraceProduct {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
}

/// A vendor's identity.
#[derive(Debug, Clone, SimpleObject, Queryable)]
pub struct TraceVendor {
    /// Id.
    pub id: i64,
    /// Code.
    pub code: String,
    /// Name.
    pub name: String,
}

/// Everything upstream of a finished unit (CONTRACT 5.19 backward trace).
#[derive(Debug, Clone, SimpleObject)]
pub struct SerialTrace {
    /// The unit.
    pub serial_number: SerialRow,
    /// Its product.
    pub product: Option<TraceProduct>,
    /// The order that made it.
    pub production_order: Option<OrderRow>,
    /// The spools it was made from, with their lots, purchase orders and vendors.
    pub material_lineage: Vec<LineageEntry>,
    /// The vendors of that material.
    pub vendors: Vec<TraceVendor>,
    /// The sales order it went out on.
    pub sales_order: Option<SalesOrderRow>,
    /// The graph's nodes (for a graph or tree view).
    pub nodes: Vec<TraceNode>,
    /// The graph's links, downstream.
    pub edges: Vec<TraceEdge>,
}

/// Everything upstream of a sales order: its units, the orders that made them, the spools,
/// lots, purchase orders and vendors of their material.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesOrderTrace {
    /// The sales order.
    pub sales_order: SalesOrderRow,
    /// Production orders that made its goods.
    pub production_orders: Vec<OrderRow>,
    /// The units it shipped or was allocated.
    pub serial_numbers: Vec<SerialRow>,
    /// The spools its goods were made from, with their origin.
    pub material_lineage: Vec<LineageEntry>,
    /// The lots of that material.
    pub lots: Vec<MaterialLotRow>,
    /// The vendors of that material.
    pub vendors: Vec<TraceVendor>,
    /// The graph's nodes (for a graph or tree view).
    pub nodes: Vec<TraceNode>,
    /// The graph's links, downstream.
    pub edges: Vec<TraceEdge>,
}

/// Rows sorted in the order of `ids`.
fn in_order<T>(mut rows: Vec<T>, ids: &[i64], id: impl Fn(&T) -> i64) -> Vec<T> {
    rows.sort_by_key(|r| ids.iter().position(|i| *i == id(r)).unwrap_or(usize::MAX));
    rows
}

fn sum(values: impl Iterator<Item = BigDecimal>) -> BigDecimal {
    values.fold(BigDecimal::zero(), |a, b| a + b)
}

/// Customers of these orders: by customer record, else by e-mail, else by name.
fn customers_of(orders: &[SalesOrderRow]) -> Vec<TraceCustomer> {
    let mut by: BTreeMap<String, TraceCustomer> = BTreeMap::new();
    for o in orders {
        let key = match (o.customer_id, &o.customer_email, &o.customer_name) {
            (Some(id), _, _) => format!("id:{id}"),
            (None, Some(email), _) => format!("email:{}", email.to_lowercase()),
            (None, None, Some(name)) => format!("name:{name}"),
            (None, None, None) => format!("order:{}", o.id),
        };
        let entry = by.entry(key).or_insert_with(|| TraceCustomer {
            id: o.customer_id,
            name: o.customer_name.clone(),
            email: o.customer_email.clone(),
            order_numbers: Vec::new(),
        });
        entry.order_numbers.push(o.order_number.clone());
    }
    by.into_values().collect()
}

/// Walks downstream of `sources` and loads what it reached.
pub async fn forward(
    conn: &mut AsyncPgConnection,
    sources: &[NodeKey],
    not_found: Vec<String>,
) -> AppResult<ForwardTrace> {
    let graph = walk(conn, sources, TraceDirection::Forward).await?;
    let order_ids = graph.ids(TraceNodeKind::ProductionOrder);
    let serial_ids = graph.ids(TraceNodeKind::SerialNumber);
    let sales_ids = graph.ids(TraceNodeKind::SalesOrder);
    let spool_ids = graph.ids(TraceNodeKind::Spool);
    let lot_ids: Vec<i64> = sources
        .iter()
        .filter(|s| s.kind == TraceNodeKind::MaterialLot)
        .map(|s| s.id)
        .collect();
    let orders = in_order(
        crate::operations::production::model::by_ids(conn, &order_ids).await?,
        &order_ids,
        |o| o.id,
    );
    let serials = crate::operations::production::model::serials_by_ids(conn, &serial_ids).await?;
    let sales = in_order(
        crate::operations::sales::model::by_ids(conn, &sales_ids).await?,
        &sales_ids,
        |o| o.id,
    );
    let spools = crate::ledgers::spools::model::by_ids(conn, &spool_ids).await?;
    let lots = crate::operations::purchasing::model::lots_by_ids(conn, &lot_ids).await?;

    let usage = orders
        .iter()
        .map(|o| {
            let key = NodeKey::new(TraceNodeKind::ProductionOrder, o.id);
            let consumed = sum(graph
                .links()
                .iter()
                .filter(|(from, to, _)| {
                    // Filament from spools, and material drawn from a lot without a spool.
                    *to == key
                        && matches!(from.kind, TraceNodeKind::Spool | TraceNodeKind::MaterialLot)
                })
                .filter_map(|(_, _, q)| q.as_ref().map(|q| q.0.clone())));
            let units: Vec<SerialRow> = serials
                .iter()
                .filter(|s| s.production_order_id == Some(o.id))
                .cloned()
                .collect();
            let sales_order = o
                .sales_order_id
                .and_then(|so| sales.iter().find(|s| s.id == so))
                .or_else(|| {
                    units.iter().find_map(|u| {
                        u.sales_order_id
                            .and_then(|so| sales.iter().find(|s| s.id == so))
                    })
                })
                .cloned();
            TraceUsage {
                production_order: o.clone(),
                material_consumed_g: Decimal(consumed),
                sales_order,
                serial_numbers: units,
            }
        })
        .collect::<Vec<_>>();
    let customers = customers_of(&sales);
    let summary = TraceSummary {
        total_production_orders: orders.len() as i64,
        total_consumed_g: Decimal(sum(usage.iter().map(|u| u.material_consumed_g.0.clone()))),
        total_units_produced: Decimal(sum(orders.iter().map(|o| o.quantity_completed.0.clone()))),
        total_serial_numbers: serials.len() as i64,
        units_shipped: serials.iter().filter(|s| s.shipped_at.is_some()).count() as i64,
        units_on_hand: serials
            .iter()
            .filter(|s| {
                use crate::operations::production::model::SerialStatus as S;
                matches!(s.status, S::Manufactured | S::InStock | S::Sold)
            })
            .count() as i64,
        affected_sales_orders: sales.len() as i64,
        affected_customers: customers.len() as i64,
        customers,
    };
    let spool = match sources {
        [one] if one.kind == TraceNodeKind::Spool => {
            spools.iter().find(|s| s.id == one.id).cloned()
        }
        _ => None,
    };
    let purchase_info = match sources {
        [one] if matches!(one.kind, TraceNodeKind::Spool | TraceNodeKind::MaterialLot) => {
            purchase_info(conn, *one).await?
        }
        _ => None,
    };
    Ok(ForwardTrace {
        sources: graph.nodes.iter().filter(|n| n.is_start).cloned().collect(),
        spool,
        purchase_info,
        lots,
        spools,
        usage,
        serial_numbers: serials,
        sales_orders: sales,
        summary,
        not_found,
        nodes: graph.nodes,
        edges: graph.edges,
    })
}

/// The lot, purchase order and vendor a spool or lot came from (one statement each).
async fn purchase_info(
    conn: &mut AsyncPgConnection,
    source: NodeKey,
) -> AppResult<Option<PurchaseInfo>> {
    let lot_id = match source.kind {
        TraceNodeKind::MaterialLot => Some(source.id),
        _ => crate::platform::db::schema::spools::table
            .find(source.id)
            .select(crate::platform::db::schema::spools::material_lot_id)
            .first::<Option<i64>>(conn)
            .await
            .optional()?
            .flatten(),
    };
    let Some(lot_id) = lot_id else {
        return Ok(None);
    };
    let lot = crate::operations::purchasing::model::lots_by_ids(conn, &[lot_id])
        .await?
        .into_iter()
        .next();
    let Some(lot) = lot else {
        return Ok(None);
    };
    let order = match lot.purchase_order_id {
        Some(po) => crate::operations::purchasing::model::by_ids(conn, &[po])
            .await?
            .into_iter()
            .next(),
        None => None,
    };
    let vendor_id = lot.vendor_id.or(order.as_ref().map(|o| o.vendor_id));
    let vendor_name = match vendor_id {
        Some(v) => vendors::table
            .find(v)
            .select(vendors::name)
            .first::<String>(conn)
            .await
            .optional()?,
        None => None,
    };
    Ok(Some(PurchaseInfo {
        lot_number: Some(lot.lot_number.clone()),
        vendor_lot_number: lot.vendor_lot_number.clone(),
        purchase_order_id: order.as_ref().map(|o| o.id),
        po_number: order.as_ref().map(|o| o.po_number.clone()),
        vendor_id,
        vendor_name,
        order_date: order.as_ref().and_then(|o| o.order_date),
        received_date: order
            .as_ref()
            .and_then(|o| o.received_date)
            .or(Some(lot.received_date)),
        lot: Some(lot),
    }))
}

/// The spools behind the production orders of an upstream graph, each with its lot and
/// purchase order.
async fn lineage(
    conn: &mut AsyncPgConnection,
    graph: &Graph,
) -> AppResult<(Vec<LineageEntry>, Vec<MaterialLotRow>, Vec<TraceVendor>)> {
    let spool_ids = graph.ids(TraceNodeKind::Spool);
    let lot_ids = graph.ids(TraceNodeKind::MaterialLot);
    let po_ids = graph.ids(TraceNodeKind::PurchaseOrder);
    let vendor_ids = graph.ids(TraceNodeKind::Vendor);
    let spools = crate::ledgers::spools::model::by_ids(conn, &spool_ids).await?;
    let lots = crate::operations::purchasing::model::lots_by_ids(conn, &lot_ids).await?;
    let purchases = crate::operations::purchasing::model::by_ids(conn, &po_ids).await?;
    let vendors: Vec<TraceVendor> = vendors::table
        .filter(vendors::id.eq_any(&vendor_ids))
        .order(vendors::name)
        .select((vendors::id, vendors::code, vendors::name))
        .load(conn)
        .await?;
    let mut entries = Vec::new();
    for (from, to, quantity) in graph.links() {
        if from.kind != TraceNodeKind::Spool || to.kind != TraceNodeKind::ProductionOrder {
            continue;
        }
        let Some(spool) = spools.iter().find(|s| s.id == from.id) else {
            continue;
        };
        let lot = graph
            .parents(*from, TraceNodeKind::MaterialLot)
            .into_iter()
            .next()
            .and_then(|id| lots.iter().find(|l| l.id == id))
            .cloned();
        let purchase_order = lot
            .as_ref()
            .and_then(|l| l.purchase_order_id)
            .and_then(|id| purchases.iter().find(|p| p.id == id))
            .cloned();
        entries.push(LineageEntry {
            spool: spool.clone(),
            weight_consumed_g: quantity
                .clone()
                .unwrap_or_else(|| Decimal(BigDecimal::zero())),
            production_order_id: to.id,
            lot,
            purchase_order,
        });
    }
    Ok((entries, lots, vendors))
}

/// Everything upstream of the unit with this serial number (ignoring case), or a 404.
pub async fn backward_serial(
    conn: &mut AsyncPgConnection,
    serial_number: &str,
) -> AppResult<SerialTrace> {
    let found = crate::operations::traceability::model::find_codes(
        conn,
        TraceNodeKind::SerialNumber,
        &[serial_number.to_owned()],
    )
    .await?
    .0;
    let Some(start) = <[NodeKey]>::first(&found).copied() else {
        return Err(AppError::not_found(format!(
            "Serial number {serial_number} not found"
        )));
    };
    let graph = walk(conn, &[start], TraceDirection::Backward).await?;
    let serial = crate::operations::production::model::serials_by_ids(conn, &[start.id])
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| AppError::not_found(format!("Serial number {serial_number} not found")))?;
    let product: Option<TraceProduct> = items::table
        .find(serial.product_id)
        .select((items::id, items::sku, items::name))
        .first(conn)
        .await
        .optional()?;
    let production_order = match serial.production_order_id {
        Some(id) => crate::operations::production::model::by_ids(conn, &[id])
            .await?
            .into_iter()
            .next(),
        None => None,
    };
    let sales_order = match serial.sales_order_id {
        Some(id) => crate::operations::sales::model::by_ids(conn, &[id])
            .await?
            .into_iter()
            .next(),
        None => None,
    };
    let (material_lineage, _, vendors) = lineage(conn, &graph).await?;
    Ok(SerialTrace {
        serial_number: serial,
        product,
        production_order,
        material_lineage,
        vendors,
        sales_order,
        nodes: graph.nodes,
        edges: graph.edges,
    })
}

/// Everything upstream of a sales order, or a 404.
pub async fn backward_sales_order(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<SalesOrderTrace> {
    let sales_order = crate::operations::sales::model::find(conn, id).await?;
    let start = NodeKey::new(TraceNodeKind::SalesOrder, id);
    let graph = walk(conn, &[start], TraceDirection::Backward).await?;
    let order_ids = graph.ids(TraceNodeKind::ProductionOrder);
    let production_orders = in_order(
        crate::operations::production::model::by_ids(conn, &order_ids).await?,
        &order_ids,
        |o| o.id,
    );
    let serial_numbers = crate::operations::production::model::serials_by_ids(
        conn,
        &graph.ids(TraceNodeKind::SerialNumber),
    )
    .await?;
    let (material_lineage, lots, vendors) = lineage(conn, &graph).await?;
    Ok(SalesOrderTrace {
        sales_order,
        production_orders,
        serial_numbers,
        material_lineage,
        lots,
        vendors,
        nodes: graph.nodes,
        edges: graph.edges,
    })
}

/// The spools a production order consumed, each with its lot and purchase order (and the
/// spools of the orders it was split from), or a 404.
pub async fn production_order_lineage(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Vec<LineageEntry>> {
    crate::operations::production::model::find(conn, id).await?;
    let start = NodeKey::new(TraceNodeKind::ProductionOrder, id);
    let graph = walk(conn, &[start], TraceDirection::Backward).await?;
    Ok(lineage(conn, &graph).await?.0)
}
