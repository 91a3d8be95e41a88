//! The genealogy graph: its nodes and links, and the recursive walks over the `trace_edges`
//! view (migration `2026-11-26-100000_traceability`). A walk is one statement whatever the
//! depth; its nodes' labels come from the same statement and its links from one more.

use std::collections::{BTreeSet, HashMap};

use async_graphql::{Enum, SimpleObject};
use diesel::QueryableByName;
use diesel::sql_types::{Array, BigInt, Nullable, Numeric, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// What a node of the genealogy is.
    pub enum TraceNodeKind {
        /// A supplier.
        Vendor,
        /// A purchase order.
        PurchaseOrder,
        /// A material lot (what one receipt line brought in).
        MaterialLot,
        /// A spool of filament.
        Spool,
        /// A production (work) order.
        ProductionOrder,
        /// A finished unit.
        SerialNumber,
        /// A sales order.
        SalesOrder,
        /// A customer.
        Customer,
    }
}

impl TraceNodeKind {
    /// The node's place from raw material (0) to customer (7): a graph view lays nodes out
    /// left to right by it.
    pub fn stage(self) -> i32 {
        match self {
            TraceNodeKind::Vendor => 0,
            TraceNodeKind::PurchaseOrder => 1,
            TraceNodeKind::MaterialLot => 2,
            TraceNodeKind::Spool => 3,
            TraceNodeKind::ProductionOrder => 4,
            TraceNodeKind::SerialNumber => 5,
            TraceNodeKind::SalesOrder => 6,
            TraceNodeKind::Customer => 7,
        }
    }
}

/// Which way a trace walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Default)]
pub enum TraceDirection {
    /// Downstream, towards customers: "where did it go?"
    #[default]
    Forward,
    /// Upstream, towards vendors: "where did it come from?"
    Backward,
}

/// What a link means, read downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum TraceRelation {
    /// A vendor's purchase order.
    Ordered,
    /// A purchase order's received lot.
    Received,
    /// A lot's spool.
    Spooled,
    /// A spool's filament, or a lot's material, consumed by a production order (or unit).
    ConsumedBy,
    /// A production order split into another.
    SplitInto,
    /// A unit a production order made.
    Produced,
    /// A unit sold or shipped on a sales order.
    SoldOn,
    /// A production order made for a sales order.
    MadeFor,
    /// A sales order's customer.
    OrderedBy,
}

impl TraceRelation {
    fn of(from: TraceNodeKind, to: TraceNodeKind) -> TraceRelation {
        use TraceNodeKind as K;
        match (from, to) {
            (K::Vendor, _) => TraceRelation::Ordered,
            (K::PurchaseOrder, _) => TraceRelation::Received,
            (K::MaterialLot, K::Spool) => TraceRelation::Spooled,
            (K::MaterialLot, _) => TraceRelation::ConsumedBy,
            (K::Spool, _) => TraceRelation::ConsumedBy,
            (K::ProductionOrder, K::ProductionOrder) => TraceRelation::SplitInto,
            (K::ProductionOrder, K::SerialNumber) => TraceRelation::Produced,
            (K::ProductionOrder, _) => TraceRelation::MadeFor,
            (K::SerialNumber, _) => TraceRelation::SoldOn,
            (K::SalesOrder, _) | (K::Customer, _) => TraceRelation::OrderedBy,
        }
    }
}

/// A node's identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeKey {
    /// What it is.
    pub kind: TraceNodeKind,
    /// Its id in its own table.
    pub id: i64,
}

impl Ord for NodeKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.kind.stage(), self.id).cmp(&(other.kind.stage(), other.id))
    }
}

impl PartialOrd for NodeKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl NodeKey {
    /// A node of `kind` with `id`.
    pub fn new(kind: TraceNodeKind, id: i64) -> NodeKey {
        NodeKey { kind, id }
    }

    /// `kind:id`, the node's key in a graph.
    pub fn key(&self) -> String {
        format!("{}:{}", self.kind, self.id)
    }
}

/// A node of a trace.
#[derive(Debug, Clone, SimpleObject, QueryableByName)]
#[graphql(name = "TraceNode")]
pub struct TraceNode {
    /// `kind:id`, unique in the graph (edges refer to it).
    #[diesel(sql_type = Text)]
    pub key: String,
    /// What it is.
    #[diesel(sql_type = Text)]
    pub kind: TraceNodeKind,
    /// Its id in its own table (the id its own query takes).
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    /// Its number or code: lot and spool numbers, `WO-…`, `SO-…`, serial numbers, vendor
    /// codes, customer numbers.
    #[diesel(sql_type = Text)]
    pub code: String,
    /// What it is about: material or product name, vendor or customer name.
    #[diesel(sql_type = Nullable<Text>)]
    pub name: Option<String>,
    /// Its status, in its own terms.
    #[diesel(sql_type = Nullable<Text>)]
    pub status: Option<String>,
    /// Its main date: received, completed, manufactured, ordered.
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub at: Option<Timestamp>,
    /// From raw material (0: vendor) to customer (7), for laying out a graph.
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pub stage: i32,
    /// Whether it is where the trace started.
    #[diesel(sql_type = diesel::sql_types::Bool)]
    pub is_start: bool,
}

impl TraceNode {
    /// The node's identity.
    pub fn node_key(&self) -> NodeKey {
        NodeKey::new(self.kind, self.id)
    }
}

/// A link of a trace, always written downstream (`from` made or became `to`).
#[derive(Debug, Clone, SimpleObject)]
#[graphql(name = "TraceEdge")]
pub struct TraceEdge {
    /// The upstream node's key.
    pub from: String,
    /// The downstream node's key.
    pub to: String,
    /// What the link means.
    pub relation: TraceRelation,
    /// What flowed along it, where known (grams of filament, units).
    pub quantity: Option<Decimal>,
    /// The quantity's unit (`G`, `EA`, the lot's stocking unit).
    pub unit: Option<String>,
}

#[derive(QueryableByName)]
struct EdgeRow {
    #[diesel(sql_type = Text)]
    src_kind: TraceNodeKind,
    #[diesel(sql_type = BigInt)]
    src_id: i64,
    #[diesel(sql_type = Text)]
    dst_kind: TraceNodeKind,
    #[diesel(sql_type = BigInt)]
    dst_id: i64,
    #[diesel(sql_type = Nullable<Numeric>)]
    quantity: Option<Decimal>,
    #[diesel(sql_type = Nullable<Text>)]
    unit: Option<String>,
}

/// A walked graph: every node reachable from the starts in one direction, and the links
/// between them.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// The nodes, upstream first (by stage, then code).
    pub nodes: Vec<TraceNode>,
    /// The links, downstream.
    pub edges: Vec<TraceEdge>,
    index: HashMap<NodeKey, usize>,
    links: Vec<(NodeKey, NodeKey, Option<Decimal>)>,
}

impl Graph {
    /// The ids of the nodes of one kind, in the graph's order.
    pub fn ids(&self, kind: TraceNodeKind) -> Vec<i64> {
        self.nodes
            .iter()
            .filter(|n| n.kind == kind)
            .map(|n| n.id)
            .collect()
    }

    /// Whether the graph holds the node.
    pub fn contains(&self, key: NodeKey) -> bool {
        self.index.contains_key(&key)
    }

    /// The links as identities with their quantities (downstream).
    pub fn links(&self) -> &[(NodeKey, NodeKey, Option<Decimal>)] {
        &self.links
    }

    /// The nodes of `kind` linked directly downstream of `from`.
    pub fn children(&self, from: NodeKey, kind: TraceNodeKind) -> BTreeSet<i64> {
        self.links
            .iter()
            .filter(|(a, b, _)| *a == from && b.kind == kind)
            .map(|(_, b, _)| b.id)
            .collect()
    }

    /// The nodes of `kind` linked directly upstream of `to`.
    pub fn parents(&self, to: NodeKey, kind: TraceNodeKind) -> BTreeSet<i64> {
        self.links
            .iter()
            .filter(|(a, b, _)| *b == to && a.kind == kind)
            .map(|(a, _, _)| a.id)
            .collect()
    }
}

/// Every node reachable from `starts` (which are included), walking `direction`, with its
/// label; then the links among them. Two statements at any depth: the walk is a recursive
/// query over `trace_edges`.
pub async fn walk(
    conn: &mut AsyncPgConnection,
    starts: &[NodeKey],
    direction: TraceDirection,
) -> AppResult<Graph> {
    if starts.is_empty() {
        return Ok(Graph::default());
    }
    let kinds: Vec<String> = starts.iter().map(|s| s.kind.to_string()).collect();
    let ids: Vec<i64> = starts.iter().map(|s| s.id).collect();
    let (near, near_id, far, far_id) = match direction {
        TraceDirection::Forward => ("src_kind", "src_id", "dst_kind", "dst_id"),
        TraceDirection::Backward => ("dst_kind", "dst_id", "src_kind", "src_id"),
    };
    // UNION (not UNION ALL) keeps each node once, so the walk ends on any graph, a
    // diamond (two spools into one order) costs nothing twice, and depth is unbounded.
    let sql = format!(
        "WITH RECURSIVE walk(kind, id) AS ( \
             SELECT k, i FROM unnest($1::text[], $2::bigint[]) AS s(k, i) \
           UNION \
             SELECT e.{far}, e.{far_id} FROM walk w \
               JOIN trace_edges e ON e.{near} = w.kind AND e.{near_id} = w.id \
         ) {LABELS}"
    );
    let mut nodes: Vec<TraceNode> = diesel::sql_query(sql)
        .bind::<Array<Text>, _>(&kinds)
        .bind::<Array<BigInt>, _>(&ids)
        .load(conn)
        .await?;
    nodes.sort_by(|a, b| (a.stage, &a.code, a.id).cmp(&(b.stage, &b.code, b.id)));
    let mut graph = Graph {
        index: nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node_key(), i))
            .collect(),
        nodes,
        ..Graph::default()
    };
    let kinds: Vec<String> = graph.nodes.iter().map(|n| n.kind.to_string()).collect();
    let ids: Vec<i64> = graph.nodes.iter().map(|n| n.id).collect();
    let rows: Vec<EdgeRow> = diesel::sql_query(EDGES)
        .bind::<Array<Text>, _>(&kinds)
        .bind::<Array<BigInt>, _>(&ids)
        .load(conn)
        .await?;
    for r in rows {
        let from = NodeKey::new(r.src_kind, r.src_id);
        let to = NodeKey::new(r.dst_kind, r.dst_id);
        graph.edges.push(TraceEdge {
            from: from.key(),
            to: to.key(),
            relation: TraceRelation::of(from.kind, to.kind),
            quantity: r.quantity.clone(),
            unit: r.unit,
        });
        graph.links.push((from, to, r.quantity));
    }
    Ok(graph)
}

/// The links whose both ends are among the given nodes, summed per pair (an order may take
/// from one spool several times).
const EDGES: &str = "\
    WITH n AS (SELECT k, i FROM unnest($1::text[], $2::bigint[]) AS s(k, i)) \
    SELECT e.src_kind, e.src_id, e.dst_kind, e.dst_id, sum(e.quantity) AS quantity, \
           max(e.unit) AS unit \
      FROM trace_edges e \
      JOIN n a ON a.k = e.src_kind AND a.i = e.src_id \
      JOIN n b ON b.k = e.dst_kind AND b.i = e.dst_id \
     GROUP BY 1, 2, 3, 4 \
     ORDER BY 1, 2, 3, 4";

/// Labels each walked node from its own table (appended to a `walk(kind, id)` CTE).
const LABELS: &str = "\
    SELECT w.kind || ':' || w.id AS key, w.kind, w.id, \
           COALESCE(v.code, po.po_number, l.lot_number, sp.spool_number, o.code, sn.serial_number, \
                    so.order_number, c.customer_number, w.id::text) AS code, \
           COALESCE(v.name, pv.name, li.name, si.name, oi.name, ni.name, so.customer_name, \
                    NULLIF(trim(c.first_name || ' ' || c.last_name), '')) AS name, \
           COALESCE(CASE WHEN v.id IS NOT NULL THEN CASE WHEN v.is_active THEN 'active' ELSE 'inactive' END END, \
                    po.status, l.status, sp.status, o.status, sn.status, so.status, c.status) AS status, \
           COALESCE(po.order_date::timestamptz, l.received_date::timestamptz, sp.received_date::timestamptz, \
                    o.completed_at, o.created_at, sn.manufactured_at, so.created_at, c.created_at) AS at, \
           CASE w.kind WHEN 'vendor' THEN 0 WHEN 'purchase_order' THEN 1 WHEN 'material_lot' THEN 2 \
                WHEN 'spool' THEN 3 WHEN 'production_order' THEN 4 WHEN 'serial_number' THEN 5 \
                WHEN 'sales_order' THEN 6 ELSE 7 END AS stage, \
           (w.kind, w.id) IN (SELECT k, i FROM unnest($1::text[], $2::bigint[]) AS s(k, i)) AS is_start \
      FROM walk w \
      LEFT JOIN vendors v ON w.kind = 'vendor' AND v.id = w.id \
      LEFT JOIN purchase_orders po ON w.kind = 'purchase_order' AND po.id = w.id \
      LEFT JOIN vendors pv ON pv.id = po.vendor_id \
      LEFT JOIN material_lots l ON w.kind = 'material_lot' AND l.id = w.id \
      LEFT JOIN items li ON li.id = l.product_id \
      LEFT JOIN spools sp ON w.kind = 'spool' AND sp.id = w.id \
      LEFT JOIN items si ON si.id = sp.product_id \
      LEFT JOIN production_orders o ON w.kind = 'production_order' AND o.id = w.id \
      LEFT JOIN items oi ON oi.id = o.product_id \
      LEFT JOIN serial_numbers sn ON w.kind = 'serial_number' AND sn.id = w.id \
      LEFT JOIN items ni ON ni.id = sn.product_id \
      LEFT JOIN sales_orders so ON w.kind = 'sales_order' AND so.id = w.id \
      LEFT JOIN customers c ON w.kind = 'customer' AND c.id = w.id";

#[derive(QueryableByName)]
struct Found {
    #[diesel(sql_type = Text)]
    kind: TraceNodeKind,
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// What a number names, tried in CONTRACT's order: a finished unit's serial number, a
/// material lot number, a spool number (ignoring case), then a production, sales or
/// purchase order number. One statement.
pub async fn find_code(conn: &mut AsyncPgConnection, code: &str) -> AppResult<Option<NodeKey>> {
    let found: Vec<Found> = diesel::sql_query(FIND_CODE)
        .bind::<Text, _>(code.trim())
        .load(conn)
        .await?;
    Ok(<[Found]>::first(&found).map(|f| NodeKey::new(f.kind, f.id)))
}

const FIND_CODE: &str = "\
    SELECT kind, id FROM ( \
      SELECT 1 AS rank, 'serial_number' AS kind, id FROM serial_numbers WHERE upper(serial_number) = upper($1) \
      UNION ALL SELECT 2, 'material_lot', id FROM material_lots WHERE upper(lot_number) = upper($1) \
      UNION ALL SELECT 3, 'spool', id FROM spools WHERE upper(spool_number) = upper($1) \
      UNION ALL SELECT 4, 'production_order', id FROM production_orders WHERE upper(code) = upper($1) \
      UNION ALL SELECT 5, 'sales_order', id FROM sales_orders WHERE upper(order_number) = upper($1) \
      UNION ALL SELECT 6, 'purchase_order', id FROM purchase_orders WHERE upper(po_number) = upper($1) \
    ) found ORDER BY rank, id LIMIT 1";

/// The nodes of `kind` with these numbers (ignoring case); the numbers not found are
/// returned as the second list, in the order given.
pub async fn find_codes(
    conn: &mut AsyncPgConnection,
    kind: TraceNodeKind,
    codes: &[String],
) -> AppResult<(Vec<NodeKey>, Vec<String>)> {
    let (table, column) = match kind {
        TraceNodeKind::MaterialLot => ("material_lots", "lot_number"),
        TraceNodeKind::Spool => ("spools", "spool_number"),
        TraceNodeKind::SerialNumber => ("serial_numbers", "serial_number"),
        TraceNodeKind::ProductionOrder => ("production_orders", "code"),
        TraceNodeKind::SalesOrder => ("sales_orders", "order_number"),
        TraceNodeKind::PurchaseOrder => ("purchase_orders", "po_number"),
        TraceNodeKind::Vendor => ("vendors", "code"),
        TraceNodeKind::Customer => ("customers", "customer_number"),
    };
    #[derive(QueryableByName)]
    struct Hit {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = Text)]
        code: String,
    }
    let upper: Vec<String> = codes.iter().map(|c| c.trim().to_uppercase()).collect();
    let hits: Vec<Hit> = diesel::sql_query(format!(
        "SELECT id, upper({column}) AS code FROM {table} WHERE upper({column}) = ANY($1) ORDER BY id"
    ))
    .bind::<Array<Text>, _>(&upper)
    .load(conn)
    .await?;
    let missing = codes
        .iter()
        .zip(&upper)
        .filter(|(_, u)| !hits.iter().any(|h| &h.code == *u))
        .map(|(c, _)| c.clone())
        .collect();
    Ok((
        hits.into_iter().map(|h| NodeKey::new(kind, h.id)).collect(),
        missing,
    ))
}

/// Which of these ids exist in the kind's table.
pub async fn existing(
    conn: &mut AsyncPgConnection,
    kind: TraceNodeKind,
    ids: &[i64],
) -> AppResult<Vec<i64>> {
    let table = match kind {
        TraceNodeKind::Vendor => "vendors",
        TraceNodeKind::PurchaseOrder => "purchase_orders",
        TraceNodeKind::MaterialLot => "material_lots",
        TraceNodeKind::Spool => "spools",
        TraceNodeKind::ProductionOrder => "production_orders",
        TraceNodeKind::SerialNumber => "serial_numbers",
        TraceNodeKind::SalesOrder => "sales_orders",
        TraceNodeKind::Customer => "customers",
    };
    #[derive(QueryableByName)]
    struct Id {
        #[diesel(sql_type = BigInt)]
        id: i64,
    }
    let found: Vec<Id> = diesel::sql_query(format!(
        "SELECT id FROM {table} WHERE id = ANY($1) ORDER BY id"
    ))
    .bind::<Array<BigInt>, _>(ids)
    .load(conn)
    .await?;
    Ok(found.into_iter().map(|f| f.id).collect())
}

/// How finished units are listed.
#[derive(Debug, Clone, Default)]
pub struct SerialFilter {
    /// Part of the serial number, the tracking number or the product's SKU (ignoring case).
    pub search: Option<String>,
    /// Only this status.
    pub status: Option<crate::operations::production::model::SerialStatus>,
    /// Only this product.
    pub product_id: Option<i64>,
    /// Only units of this production order.
    pub production_order_id: Option<i64>,
    /// Only units of this sales order.
    pub sales_order_id: Option<i64>,
}

/// One page of finished units, newest first, and the total (one statement).
pub async fn serials(
    conn: &mut AsyncPgConnection,
    filter: &SerialFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<crate::operations::production::model::SerialRow>, i64)> {
    use crate::operations::production::model::SerialRow;
    use crate::platform::db::schema::{items, serial_numbers as sn};
    use diesel::prelude::*;
    let build = || {
        let mut q = sn::table
            .select((
                SerialRow::as_select(),
                crate::platform::db::paging::total_count(),
            ))
            .into_boxed();
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = crate::platform::db::like_pattern(s);
            let products = items::table
                .filter(items::sku.ilike(p.clone()))
                .select(items::id);
            q = q.filter(
                sn::serial_number
                    .ilike(p.clone())
                    .or(sn::tracking_number.ilike(p))
                    .or(sn::product_id.eq_any(products)),
            );
        }
        if let Some(v) = filter.status {
            q = q.filter(sn::status.eq(v));
        }
        if let Some(v) = filter.product_id {
            q = q.filter(sn::product_id.eq(v));
        }
        if let Some(v) = filter.production_order_id {
            q = q.filter(sn::production_order_id.eq(v));
        }
        if let Some(v) = filter.sales_order_id {
            q = q.filter(sn::sales_order_id.eq(v));
        }
        q.order((sn::created_at.desc(), sn::id.desc()))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// How material lots are listed.
#[derive(Debug, Clone, Default)]
pub struct LotFilter {
    /// Part of the lot number or the vendor's lot number (ignoring case).
    pub search: Option<String>,
    /// Only this status.
    pub status: Option<crate::operations::purchasing::model::LotStatus>,
    /// Only lots of this item.
    pub product_id: Option<i64>,
    /// Only lots of this vendor.
    pub vendor_id: Option<i64>,
}

/// One page of material lots, newest first, and the total (one statement).
pub async fn lots(
    conn: &mut AsyncPgConnection,
    filter: &LotFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(
    Vec<crate::operations::purchasing::model::MaterialLotRow>,
    i64,
)> {
    use crate::operations::purchasing::model::MaterialLotRow;
    use crate::platform::db::schema::material_lots as ml;
    use diesel::prelude::*;
    let build = || {
        let mut q = ml::table
            .select((
                MaterialLotRow::as_select(),
                crate::platform::db::paging::total_count(),
            ))
            .into_boxed();
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = crate::platform::db::like_pattern(s);
            q = q.filter(
                ml::lot_number
                    .ilike(p.clone())
                    .or(ml::vendor_lot_number.ilike(p)),
            );
        }
        if let Some(v) = filter.status {
            q = q.filter(ml::status.eq(v));
        }
        if let Some(v) = filter.product_id {
            q = q.filter(ml::product_id.eq(v));
        }
        if let Some(v) = filter.vendor_id {
            q = q.filter(ml::vendor_id.eq(v));
        }
        q.order((ml::created_at.desc(), ml::id.desc()))
    };
    crate::load_page!(conn, build, limit, offset)
}
