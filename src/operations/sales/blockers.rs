//! What stands between an order and its customer, line by line, and what to do about it
//! (`GET /sales-orders/{id}/blocking-issues`: the order page's blocking-issues panel, in the
//! shape FilaOps's client reads, beside the plain list of reasons [`ShipReadiness`] gives).
//!
//! Worked out from what [`crate::operations::sales::readiness`] already knows: each line's
//! cover (reserved, then free stock at its location), the production orders still running
//! for it, the components the order still needs through its BOMs and the purchase orders on
//! their way. Read-only.

use std::collections::{BTreeMap, HashSet};

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use chrono::NaiveDate;
use diesel_async::AsyncPgConnection;
use serde_json::json;

use crate::operations::purchasing::rules::OpenLine;
use crate::operations::sales::model::{SalesOrderLineRow, SalesOrderRow};
use crate::operations::sales::readiness::{
    self, LineCover, MaterialRequirement, ShipReadiness, StockAt,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;

crate::text_enum! {
    /// What kind of thing stands in an order's way.
    pub enum BlockerKind {
        /// A production order for the line is still running.
        ProductionIncomplete,
        /// The line has to be made and no production order is running for it.
        ProductionMissing,
        /// Something needed is short, even counting what is on order.
        MaterialShortage,
        /// Something needed is short now and a purchase order for it is on its way.
        PurchasePending,
        /// Stock is there for the line but not reserved to it: shipping takes it if it is
        /// still there.
        StockNotReserved,
        /// The order's status does not let it ship.
        OrderStatus,
        /// The order has no shipping address.
        ShippingAddress,
    }
}

crate::text_enum! {
    /// How much a blocker matters.
    pub enum BlockerSeverity {
        /// The order cannot ship until it is resolved.
        Blocking,
        /// It may delay the order.
        Warning,
        /// Worth knowing.
        Info,
    }
}

crate::text_enum! {
    /// What a blocker or a suggested action points at.
    pub enum BlockerReference {
        /// The sales order itself.
        SalesOrder,
        /// A production order.
        ProductionOrder,
        /// An item to make (no production order yet).
        MakeProduct,
        /// An item to buy or receive.
        Product,
        /// A purchase order.
        PurchaseOrder,
    }
}

/// One thing in an order's way.
#[derive(Debug, Clone, SimpleObject)]
pub struct Blocker {
    /// What kind of thing it is.
    #[graphql(name = "type")]
    pub kind: BlockerKind,
    /// Whether it stops the order or may only delay it.
    pub severity: BlockerSeverity,
    /// In words.
    pub message: String,
    /// What it points at.
    pub reference_type: BlockerReference,
    /// The id of what it points at.
    pub reference_id: i64,
    /// Its code: an order number, a SKU.
    pub reference_code: String,
    /// The figures behind it (quantities as decimal strings, dates as ISO dates), by kind.
    pub details: async_graphql::Json<serde_json::Value>,
}

/// What stands in one line's way.
#[derive(Debug, Clone, SimpleObject)]
pub struct LineBlockers {
    /// The line's number.
    pub line_number: i32,
    /// Its item.
    pub product_id: i64,
    /// The item's SKU.
    pub product_sku: String,
    /// The item's name.
    pub product_name: String,
    /// Ordered less shipped.
    pub quantity_ordered: Decimal,
    /// What stock covers: reserved to the line, then free stock at its location.
    pub quantity_available: Decimal,
    /// What has to be made or bought before it can ship.
    pub quantity_short: Decimal,
    /// What stands in its way (empty: nothing).
    pub blocking_issues: Vec<Blocker>,
}

/// The order's state in one look.
#[derive(Debug, Clone, SimpleObject)]
pub struct BlockerSummary {
    /// It can ship now (the same answer as `canShip`).
    pub can_fulfill: bool,
    /// How many blockers of `blocking` severity there are, on the order and its lines.
    pub blocking_count: i32,
    /// The latest date a running production order is scheduled (or due) to finish or a
    /// purchase order is expected, when the order is blocked and that date is after today.
    pub estimated_ready_date: Option<NaiveDate>,
    /// Days from today to `estimatedReadyDate`.
    pub days_until_ready: Option<i32>,
}

/// A suggested step to clear blockers, most urgent first.
#[derive(Debug, Clone, SimpleObject)]
pub struct ResolutionAction {
    /// 1 is the most urgent.
    pub priority: i32,
    /// What to do.
    pub action: String,
    /// What it would clear.
    pub impact: String,
    /// What it acts on.
    pub reference_type: BlockerReference,
    /// The id of what it acts on.
    pub reference_id: i64,
}

/// Everything that stands between an order and its customer.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesOrderBlockers {
    /// The ship check: status, `canShip` and each reason in words.
    #[graphql(flatten)]
    pub readiness: ShipReadiness,
    /// `SO-YYYY-NNNN` (FilaOps's name for `orderNumber`).
    pub sales_order_code: String,
    /// The customer's name on the order.
    pub customer: Option<String>,
    /// When it was entered.
    pub order_date: NaiveDate,
    /// When production should be done, when set.
    pub requested_date: Option<NaiveDate>,
    /// The state in one look.
    pub status_summary: BlockerSummary,
    /// What stands in each line's way, by line number (every line, blocked or not).
    pub line_issues: Vec<LineBlockers>,
    /// What stands in the whole order's way: its status, its address, production for none
    /// of its lines.
    pub order_issues: Vec<Blocker>,
    /// Suggested steps, most urgent first, one per thing to act on.
    pub resolution_actions: Vec<ResolutionAction>,
}

/// The figures [`analyse`] works from, loaded in a fixed number of queries.
struct Facts {
    lines: Vec<SalesOrderLineRow>,
    cover: Vec<LineCover>,
    items: Vec<crate::ledgers::inventory::model::ItemFacts>,
    made: HashSet<i64>,
    running: Vec<crate::operations::production::model::OrderRow>,
    needs: Vec<(i64, i64, BigDecimal)>,
    requirements: Vec<MaterialRequirement>,
    incoming: Vec<OpenLine>,
}

/// Everything that stands between `order` and its customer.
pub async fn sales_order_blockers(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
) -> AppResult<SalesOrderBlockers> {
    let readiness = readiness::ship_readiness(conn, order).await?;
    let needs = readiness::order_needs(conn, order).await?;
    let requirements = readiness::requirements_of(conn, order, &needs).await?;
    let mut ids: Vec<i64> = needs.lines.iter().map(|l| l.product_id).collect();
    let stock = StockAt::load(conn, &ids).await?;
    let lines: Vec<&SalesOrderLineRow> = needs.lines.iter().collect();
    let cover = if readiness::SHIPPABLE.contains(&order.status)
        || order.status == crate::operations::sales::model::SalesOrderStatus::Pending
    {
        readiness::line_cover(&lines, &stock)
    } else {
        // Shipped, cancelled or closed: nothing is left to cover.
        vec![LineCover::default(); lines.len()]
    };
    let items = crate::ledgers::inventory::model::item_facts(conn, &ids).await?;
    let made = crate::operations::sales::rules::made_in_house(conn, &ids).await?;
    let running =
        crate::operations::sales::rules::running_production_orders_of(conn, &[order.id]).await?;
    ids.extend(requirements.requirements.iter().map(|r| r.product_id));
    let incoming = crate::operations::purchasing::rules::open_lines(conn, Some(&ids)).await?;
    let facts = Facts {
        lines: needs.lines,
        cover,
        items,
        made,
        running,
        needs: needs.by_line,
        requirements: requirements.requirements,
        incoming,
    };
    Ok(analyse(
        order,
        readiness,
        &facts,
        crate::ledgers::inventory::rules::today(),
    ))
}

/// The analysis itself, from loaded facts (no I/O).
fn analyse(
    order: &SalesOrderRow,
    readiness: ShipReadiness,
    facts: &Facts,
    today: NaiveDate,
) -> SalesOrderBlockers {
    let order_issues = order_blockers(order, facts);
    let mut line_issues = Vec::new();
    for (line, cover) in facts.lines.iter().zip(&facts.cover) {
        line_issues.push(line_blockers(line, cover, facts));
    }
    let all = || {
        order_issues
            .iter()
            .chain(line_issues.iter().flat_map(|l| &l.blocking_issues))
    };
    let blocking_count = all()
        .filter(|b| b.severity == BlockerSeverity::Blocking)
        .count() as i32;
    let can_fulfill = readiness.can_ship;
    let estimated_ready_date = if can_fulfill {
        None
    } else {
        all()
            .filter_map(|b| {
                let key = match b.kind {
                    BlockerKind::ProductionIncomplete => "estimated_completion",
                    BlockerKind::PurchasePending => "expected_date",
                    _ => return None,
                };
                b.details.0.get(key)?.as_str()?.parse::<NaiveDate>().ok()
            })
            .max()
            .filter(|d| *d > today)
    };
    let resolution_actions = resolution_actions(order, all().collect());
    SalesOrderBlockers {
        sales_order_code: order.order_number.clone(),
        customer: order.customer_name.clone(),
        order_date: order.created_at.0.date_naive(),
        requested_date: order.estimated_completion_date,
        status_summary: BlockerSummary {
            can_fulfill,
            blocking_count,
            days_until_ready: estimated_ready_date.map(|d| (d - today).num_days() as i32),
            estimated_ready_date,
        },
        readiness,
        line_issues,
        order_issues,
        resolution_actions,
    }
}

fn number(value: &BigDecimal) -> String {
    value.normalized().to_string()
}

/// The order's own blockers: its status, its address, production running for none of its
/// lines.
fn order_blockers(order: &SalesOrderRow, facts: &Facts) -> Vec<Blocker> {
    use crate::operations::sales::model::SalesOrderStatus as S;
    let mut out = Vec::new();
    let on_order = |kind, message: String, details| Blocker {
        kind,
        severity: BlockerSeverity::Blocking,
        message,
        reference_type: BlockerReference::SalesOrder,
        reference_id: order.id,
        reference_code: order.order_number.clone(),
        details: async_graphql::Json(details),
    };
    let status = match order.status {
        s if readiness::SHIPPABLE.contains(&s) => None,
        S::Shipped | S::Delivered | S::Completed => None,
        S::Pending => Some("The order is not confirmed yet".to_string()),
        s => Some(format!("The order is {s}")),
    };
    if let Some(message) = status {
        out.push(on_order(
            BlockerKind::OrderStatus,
            message,
            json!({"status": order.status.to_string()}),
        ));
    }
    let shipped = matches!(order.status, S::Shipped | S::Delivered | S::Completed);
    if !shipped
        && order
            .shipping_address_line1
            .as_deref()
            .is_none_or(|a| a.trim().is_empty())
    {
        out.push(on_order(
            BlockerKind::ShippingAddress,
            "The order has no shipping address".to_string(),
            json!({}),
        ));
    }
    for po in facts
        .running
        .iter()
        .filter(|po| line_of(po, &facts.lines).is_none())
    {
        out.push(production_blocker(po));
    }
    out
}

/// The line a production order was made for: by its line, else the first line of its item.
fn line_of(
    po: &crate::operations::production::model::OrderRow,
    lines: &[SalesOrderLineRow],
) -> Option<i64> {
    po.sales_order_line_id
        .filter(|id| lines.iter().any(|l| l.id == *id))
        .or_else(|| {
            lines
                .iter()
                .find(|l| l.product_id == po.product_id)
                .map(|l| l.id)
        })
}

fn production_blocker(po: &crate::operations::production::model::OrderRow) -> Blocker {
    let remaining = (&po.quantity_ordered.0 - &po.quantity_completed.0 - &po.quantity_scrapped.0)
        .max(BigDecimal::zero());
    let finish = po
        .scheduled_end
        .as_ref()
        .map(|t| t.0.date_naive())
        .or(po.due_date);
    Blocker {
        kind: BlockerKind::ProductionIncomplete,
        severity: BlockerSeverity::Blocking,
        message: format!("Production order {} is not finished", po.code),
        reference_type: BlockerReference::ProductionOrder,
        reference_id: po.id,
        reference_code: po.code.clone(),
        details: async_graphql::Json(json!({
            "status": po.status.to_string(),
            "quantity_ordered": number(&po.quantity_ordered.0),
            "quantity_completed": number(&po.quantity_completed.0),
            "quantity_remaining": number(&remaining),
            "estimated_completion": finish.map(|d| d.to_string()),
        })),
    }
}

/// The earliest open purchase order line of an item, and how much is on order in all.
fn on_its_way(incoming: &[OpenLine], item: i64) -> (Option<&OpenLine>, BigDecimal) {
    let lines: Vec<&OpenLine> = incoming.iter().filter(|l| l.product_id == item).collect();
    let total = lines
        .iter()
        .fold(BigDecimal::zero(), |sum, l| sum + &l.remaining);
    // `open_lines` answers by expected date, undated last.
    (lines.first().copied(), total)
}

fn purchase_blocker(
    line: &OpenLine,
    severity: BlockerSeverity,
    covers_shortage: bool,
    sku: &str,
) -> Blocker {
    Blocker {
        kind: BlockerKind::PurchasePending,
        severity,
        message: format!(
            "Purchase order {} for {sku} is not received yet",
            line.po_number
        ),
        reference_type: BlockerReference::PurchaseOrder,
        reference_id: line.purchase_order_id,
        reference_code: line.po_number.clone(),
        details: async_graphql::Json(json!({
            "status": line.status.to_string(),
            "expected_date": line.expected_date.map(|d| d.to_string()),
            "quantity": number(&line.remaining),
            "covers_shortage": covers_shortage,
            "product_sku": sku,
        })),
    }
}

/// One line's blockers: its production, what it lacks beyond that, the components it needs
/// that are short, and stock there for it but not reserved.
fn line_blockers(line: &SalesOrderLineRow, cover: &LineCover, facts: &Facts) -> LineBlockers {
    let item = facts.items.iter().find(|i| i.id == line.product_id);
    let sku = item.map(|i| i.sku.clone()).unwrap_or_default();
    let mut issues = Vec::new();
    let running: Vec<_> = facts
        .running
        .iter()
        .filter(|po| line_of(po, &facts.lines) == Some(line.id))
        .collect();
    issues.extend(running.iter().map(|po| production_blocker(po)));
    let in_production = running.iter().fold(BigDecimal::zero(), |sum, po| {
        sum + (&po.quantity_ordered.0 - &po.quantity_completed.0 - &po.quantity_scrapped.0)
            .max(BigDecimal::zero())
    });
    let uncovered = (&cover.short - &in_production).max(BigDecimal::zero());
    if uncovered > BigDecimal::zero() {
        if facts.made.contains(&line.product_id) {
            issues.push(Blocker {
                kind: BlockerKind::ProductionMissing,
                severity: BlockerSeverity::Blocking,
                message: format!("No production order covers {} of {sku}", number(&uncovered)),
                reference_type: BlockerReference::MakeProduct,
                reference_id: line.product_id,
                reference_code: sku.clone(),
                details: async_graphql::Json(json!({"quantity_needed": number(&uncovered)})),
            });
        } else {
            issues.extend(shortage_blockers(
                line.product_id,
                &sku,
                &uncovered,
                &uncovered,
                &BigDecimal::zero(),
                &facts.incoming,
                // The line's own item: nothing ships until it is received.
                BlockerSeverity::Blocking,
            ));
        }
    }
    // Components short for what this line still has to make or pack.
    let mut seen = HashSet::new();
    for (_, component, required) in facts.needs.iter().filter(|(l, _, _)| *l == line.id) {
        let Some(r) = facts
            .requirements
            .iter()
            .find(|r| r.product_id == *component && !r.shortage.0.is_zero())
        else {
            continue;
        };
        if seen.insert(*component) {
            issues.extend(shortage_blockers(
                *component,
                &r.sku,
                required,
                &r.shortage.0,
                &r.quantity_available.0,
                &facts.incoming,
                // A running production order, or one to create, is what blocks the line.
                BlockerSeverity::Warning,
            ));
        }
    }
    if !cover.free.is_zero() {
        issues.push(Blocker {
            kind: BlockerKind::StockNotReserved,
            severity: BlockerSeverity::Info,
            message: format!(
                "{} of {sku} in stock but not reserved to this line: shipping takes it if it is still there",
                number(&cover.free)
            ),
            reference_type: BlockerReference::Product,
            reference_id: line.product_id,
            reference_code: sku.clone(),
            details: async_graphql::Json(json!({"quantity": number(&cover.free)})),
        });
    }
    LineBlockers {
        line_number: line.line_number,
        product_id: line.product_id,
        product_sku: sku,
        product_name: item.map(|i| i.name.clone()).unwrap_or_default(),
        quantity_ordered: Decimal(cover.open.normalized()),
        quantity_available: Decimal((&cover.open - &cover.short).normalized()),
        quantity_short: Decimal(cover.short.normalized()),
        blocking_issues: issues,
    }
}

/// What is short of an item, counting what is on order: a material shortage when purchase
/// orders do not cover it (with `severity`), and the earliest purchase order on its way
/// (`severity` when it covers the shortage, a warning when it only helps).
fn shortage_blockers(
    item: i64,
    sku: &str,
    required: &BigDecimal,
    shortage: &BigDecimal,
    available: &BigDecimal,
    incoming: &[OpenLine],
    severity: BlockerSeverity,
) -> Vec<Blocker> {
    let (first, on_order) = on_its_way(incoming, item);
    let after_receipts = (shortage - &on_order).max(BigDecimal::zero());
    let mut out = Vec::new();
    if after_receipts > BigDecimal::zero() {
        out.push(Blocker {
            kind: BlockerKind::MaterialShortage,
            severity,
            message: format!("{sku} is {} short", number(&after_receipts)),
            reference_type: BlockerReference::Product,
            reference_id: item,
            reference_code: sku.to_string(),
            details: async_graphql::Json(json!({
                "required": number(required),
                "available": number(available),
                "shortage": number(shortage),
                "shortage_projected": number(&after_receipts),
                "covered_by_incoming": false,
                "incoming_po": first.map(|l| l.po_number.clone()),
                "incoming_date": first.and_then(|l| l.expected_date).map(|d| d.to_string()),
            })),
        });
    }
    if let Some(line) = first {
        let covers = after_receipts.is_zero();
        let level = if covers {
            severity
        } else {
            BlockerSeverity::Warning
        };
        out.push(purchase_blocker(line, level, covers, sku));
    }
    out
}

/// Suggested steps, one per thing to act on, most urgent first: the order's own problems,
/// purchase orders to chase, material to order, production to finish, production to start,
/// stock to reserve.
fn resolution_actions(order: &SalesOrderRow, blockers: Vec<&Blocker>) -> Vec<ResolutionAction> {
    let rank = |b: &Blocker| match b.kind {
        BlockerKind::OrderStatus | BlockerKind::ShippingAddress => 0,
        BlockerKind::PurchasePending => 1,
        BlockerKind::MaterialShortage => 2,
        BlockerKind::ProductionIncomplete => 3,
        BlockerKind::ProductionMissing => 4,
        BlockerKind::StockNotReserved => 5,
    };
    let mut sorted = blockers;
    sorted.sort_by_key(|b| rank(b));
    let mut seen: BTreeMap<(String, i64, i32), ()> = BTreeMap::new();
    let mut out = Vec::new();
    for b in sorted {
        let detail = |key: &str| {
            b.details
                .0
                .get(key)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let (action, impact) = match b.kind {
            BlockerKind::OrderStatus => {
                (format!("Confirm {}", order.order_number), b.message.clone())
            }
            BlockerKind::ShippingAddress => (
                format!("Add a shipping address to {}", order.order_number),
                "Shipping needs an address".to_string(),
            ),
            BlockerKind::PurchasePending => (
                format!("Expedite {}", b.reference_code),
                format!(
                    "{} of {} on its way, expected {}",
                    detail("quantity").unwrap_or_default(),
                    detail("product_sku").unwrap_or_default(),
                    detail("expected_date").unwrap_or_else(|| "on no set date".to_string())
                ),
            ),
            BlockerKind::MaterialShortage => (
                format!("Order {}", b.reference_code),
                format!(
                    "{} short after what is on order",
                    detail("shortage_projected").unwrap_or_default()
                ),
            ),
            BlockerKind::ProductionIncomplete => (
                format!("Complete {}", b.reference_code),
                format!(
                    "{} still to make",
                    detail("quantity_remaining").unwrap_or_default()
                ),
            ),
            BlockerKind::ProductionMissing => (
                format!("Create a production order for {}", b.reference_code),
                format!("{} to make", detail("quantity_needed").unwrap_or_default()),
            ),
            // Free stock ships without a reservation: nothing to do but know it.
            BlockerKind::StockNotReserved => continue,
        };
        if seen
            .insert((b.reference_type.to_string(), b.reference_id, rank(b)), ())
            .is_some()
        {
            continue;
        }
        out.push(ResolutionAction {
            priority: out.len() as i32 + 1,
            action,
            impact,
            reference_type: b.reference_type,
            reference_id: b.reference_id,
        });
    }
    out
}
