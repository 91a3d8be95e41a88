//! Whether an order's materials are there: for each material line, what is still to issue
//! (required less consumed less what the line already holds reserved), against what stock
//! has free (on hand less allocated) and what open purchase orders bring.

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, Zero};
use diesel_async::AsyncPgConnection;

use crate::operations::production::detail::facts::OrderFacts;
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::Decimal;

crate::text_enum! {
    /// Whether a material line is covered.
    pub enum AvailabilityStatus {
        /// Issued, reserved or in stock.
        Ok,
        /// Covered only by open purchase orders.
        Incoming,
        /// Not covered.
        Short,
    }
}

/// One material line's availability.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialAvailabilityLine {
    /// The order's material line.
    pub material_id: i64,
    /// The operation that consumes it.
    pub operation_id: Option<i64>,
    /// Its name.
    pub operation_name: Option<String>,
    /// Component.
    pub component_id: i64,
    /// Its SKU.
    pub component_sku: Option<String>,
    /// Its name.
    pub component_name: Option<String>,
    /// Stocking unit.
    pub unit: String,
    /// Required by the order.
    pub quantity_required: Decimal,
    /// Already issued.
    pub quantity_consumed: Decimal,
    /// Reserved for this line.
    pub quantity_allocated: Decimal,
    /// Free in stock (on hand less every allocation).
    pub quantity_available: Decimal,
    /// On open purchase orders.
    pub quantity_incoming: Decimal,
    /// Not covered by stock (purchase orders aside).
    pub quantity_short_now: Decimal,
    /// Not covered by stock or purchase orders.
    pub quantity_short: Decimal,
    /// Covered, covered by incoming only, or short.
    pub status: AvailabilityStatus,
}

/// Counts of the lines.
#[derive(Debug, Clone, SimpleObject)]
pub struct AvailabilitySummary {
    /// Lines.
    pub total_materials: i64,
    /// Lines covered now.
    pub materials_available: i64,
    /// Lines not covered now.
    pub materials_short: i64,
    /// Whether every line is covered now.
    pub can_start: bool,
}

/// An order's material availability.
#[derive(Debug, Clone, SimpleObject)]
pub struct MaterialAvailability {
    /// The order.
    pub order_id: i64,
    /// Its code.
    pub order_code: String,
    /// Each material line.
    pub materials: Vec<MaterialAvailabilityLine>,
    /// Counts.
    pub summary: AvailabilitySummary,
    /// Whether every line is covered now (FilaOps's order page reads it).
    pub can_release: bool,
    /// Lines not covered now.
    pub shortage_count: i64,
}

/// The availability of an order's materials (a fixed number of statements).
pub async fn of_order(conn: &mut AsyncPgConnection, id: i64) -> AppResult<MaterialAvailability> {
    let f = OrderFacts::load(conn, id).await?;
    let ids: Vec<i64> = f.materials.iter().map(|m| m.component_id).collect();
    let stock = crate::ledgers::inventory::model::stock_of(conn, Some(&ids)).await?;
    let incoming = crate::operations::purchasing::rules::on_order(conn, &ids).await?;
    let mut lines = Vec::new();
    for m in &f.materials {
        let (on_hand, allocated) = stock.get(&m.component_id).cloned().unwrap_or_default();
        let available = on_hand - allocated;
        let still = (&m.quantity_required.0 - &m.quantity_consumed.0 - &m.quantity_allocated.0)
            .max(BigDecimal::zero());
        let short_now =
            (&still - available.clone().max(BigDecimal::zero())).max(BigDecimal::zero());
        let coming = incoming.get(&m.component_id).cloned().unwrap_or_default();
        let short = (&short_now - &coming).max(BigDecimal::zero());
        let status = if short_now.is_zero() {
            AvailabilityStatus::Ok
        } else if short.is_zero() {
            AvailabilityStatus::Incoming
        } else {
            AvailabilityStatus::Short
        };
        let (sku, name) = f.names(m.component_id);
        lines.push(MaterialAvailabilityLine {
            material_id: m.id,
            operation_id: m.operation_id,
            operation_name: f
                .operation(m.operation_id)
                .map(|o| o.operation_name.clone()),
            component_id: m.component_id,
            component_sku: sku,
            component_name: name,
            unit: m.unit.clone(),
            quantity_required: m.quantity_required.clone(),
            quantity_consumed: m.quantity_consumed.clone(),
            quantity_allocated: m.quantity_allocated.clone(),
            quantity_available: Decimal(available),
            quantity_incoming: Decimal(coming),
            quantity_short_now: Decimal(short_now),
            quantity_short: Decimal(short),
            status,
        });
    }
    let short = lines
        .iter()
        .filter(|l| l.status != AvailabilityStatus::Ok)
        .count() as i64;
    Ok(MaterialAvailability {
        order_id: f.order.id,
        order_code: f.order.code.clone(),
        summary: AvailabilitySummary {
            total_materials: lines.len() as i64,
            materials_available: lines.len() as i64 - short,
            materials_short: short,
            can_start: short == 0,
        },
        can_release: short == 0,
        shortage_count: short,
        materials: lines,
    })
}
