//! Live updates of the shop floor: the `productionOrderChanged` and `printerStatusChanged`
//! subscriptions (graphql-ws, at `/graphql/ws`) that keep the command center current.
//!
//! Database triggers announce every committed change to a production order, its operations
//! or a printer's status (migration `2026-11-24-120000_live_updates`), so whatever path made
//! the change (REST, GraphQL, another area's rules), subscribers hear of it once and only
//! after the commit; [`crate::platform::graphql::live`] carries the announcements to the subscribers.
//!
//! An event says what changed, not everything about it: a client refetches what it shows
//! (the SPA invalidates its cached queries), so an event never carries data the subscriber
//! may not read or that is stale by the time it arrives.

use std::str::FromStr;

use async_graphql::{Context, SimpleObject, Subscription};
use futures_util::stream::BoxStream;
use serde::Deserialize;

use crate::operations::printers::model::PrinterStatus;
use crate::operations::production::model::{OrderStatus, QcStatus};
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::live::LiveHub;
use crate::platform::graphql::scalars::Decimal;

/// A production order was created or changed status, QC status or quantities, or one of its
/// operations started, finished or moved to another printer.
#[derive(Debug, Clone, SimpleObject)]
pub struct ProductionOrderChange {
    /// The order's id.
    pub id: i64,
    /// The order's code (`WO-YYYY-NNNN`).
    pub code: String,
    /// Where the order stands now.
    pub status: OrderStatus,
    /// Its quality control status now.
    pub qc_status: QcStatus,
    /// The quantity ordered.
    pub quantity_ordered: Decimal,
    /// The good quantity completed so far.
    pub quantity_completed: Decimal,
    /// The quantity scrapped so far.
    pub quantity_scrapped: Decimal,
}

/// A printer was added, changed status, or was activated or deactivated.
#[derive(Debug, Clone, SimpleObject)]
pub struct PrinterStatusChange {
    /// The printer's id.
    pub id: i64,
    /// The printer's code.
    pub code: String,
    /// The printer's name.
    pub name: String,
    /// What the printer is doing now.
    pub status: PrinterStatus,
    /// False once the printer is deactivated.
    pub active: bool,
}

/// One announcement, as the triggers write it.
#[derive(Debug, Clone)]
pub enum LiveEvent {
    /// See [`ProductionOrderChange`].
    ProductionOrder(ProductionOrderChange),
    /// See [`PrinterStatusChange`].
    Printer(PrinterStatusChange),
}

/// The JSON payload of a notification (`kind` says which).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payload {
    ProductionOrder {
        id: i64,
        code: String,
        status: String,
        qc_status: String,
        quantity_ordered: String,
        quantity_completed: String,
        quantity_scrapped: String,
    },
    Printer {
        id: i64,
        code: String,
        name: String,
        status: String,
        active: bool,
    },
}

impl LiveEvent {
    /// Reads an announcement; `None` for one of another area, or one this build does not
    /// understand (a newer process may announce more), which is skipped.
    pub fn parse(announcement: &serde_json::Value) -> Option<LiveEvent> {
        let decimal = |text: &str| bigdecimal::BigDecimal::from_str(text).ok().map(Decimal);
        match Payload::deserialize(announcement).ok()? {
            Payload::ProductionOrder {
                id,
                code,
                status,
                qc_status,
                quantity_ordered,
                quantity_completed,
                quantity_scrapped,
            } => Some(LiveEvent::ProductionOrder(ProductionOrderChange {
                id,
                code,
                status: status.parse().ok()?,
                qc_status: qc_status.parse().ok()?,
                quantity_ordered: decimal(&quantity_ordered)?,
                quantity_completed: decimal(&quantity_completed)?,
                quantity_scrapped: decimal(&quantity_scrapped)?,
            })),
            Payload::Printer {
                id,
                code,
                name,
                status,
                active,
            } => Some(LiveEvent::Printer(PrinterStatusChange {
                id,
                code,
                name,
                status: status.parse().ok()?,
                active,
            })),
        }
    }
}

/// The live shop floor (signed-in users).
#[derive(Default)]
pub struct ProductionSubscription;

#[Subscription]
impl ProductionSubscription {
    /// Every change to production orders (or to the one order `id`): created, status, QC
    /// status, quantities, and its operations starting, finishing or changing printer.
    #[graphql(guard = "Access::User")]
    async fn production_order_changed(
        &self,
        ctx: &Context<'_>,
        id: Option<i64>,
    ) -> async_graphql::Result<BoxStream<'static, ProductionOrderChange>> {
        Ok(hub(ctx)?
            .stream(move |announcement| match LiveEvent::parse(announcement)? {
                LiveEvent::ProductionOrder(o) if id.is_none_or(|id| id == o.id) => Some(o),
                _ => None,
            })
            .await?)
    }

    /// Every printer status change (or the one printer `id`'s), and printers added,
    /// activated or deactivated.
    #[graphql(guard = "Access::User")]
    async fn printer_status_changed(
        &self,
        ctx: &Context<'_>,
        id: Option<i64>,
    ) -> async_graphql::Result<BoxStream<'static, PrinterStatusChange>> {
        Ok(hub(ctx)?
            .stream(move |announcement| match LiveEvent::parse(announcement)? {
                LiveEvent::Printer(p) if id.is_none_or(|id| id == p.id) => Some(p),
                _ => None,
            })
            .await?)
    }
}

fn hub(ctx: &Context<'_>) -> AppResult<LiveHub> {
    ctx.data::<LiveHub>()
        .cloned()
        .map_err(|e| AppError::internal(e.message))
}
