//! The inventory and transaction audit trail (CONTRACT 5.17 `/admin/audit/transactions`,
//! admins only).
//!
//! - The trail itself is the inventory ledger: `/admin/audit/transactions` runs the same
//!   resolver as `/admin/inventory/transactions` (`inventoryTransactions`, with its item,
//!   reference, type, location and date filters), so the two can never disagree.
//! - [`AuditTrailQuery::inventory_transaction_summary`]: counts, items and quantities by
//!   transaction type in a window.
//! - [`AuditTrailQuery::sales_order_audit`]: everything the ledgers hold about one sales
//!   order: the stock transactions that reference it or the production orders made for it,
//!   and the journal entries of the order, its payments and those production orders, each
//!   list oldest first, and the two merged into one timeline. SQL lives in [`model`]. Its REST routes are declared with the accounting area's
//!   (`/admin/audit/...`), where FilaOps has them.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};
use bigdecimal::BigDecimal;
use chrono::NaiveDate;

use crate::ledgers::accounting::graphql::loaders::EntryLines;
use crate::ledgers::accounting::model::EntryRow;
use crate::ledgers::accounting::rules;
use crate::ledgers::inventory::model::{ReferenceType, TransactionRow, TransactionType};
use crate::operations::production::model::OrderRow as ProductionOrderRow;
use crate::operations::sales::model::SalesOrderRow;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::read_models::audit_trail::model;

/// Stock transactions of one type in the window.
#[derive(Debug, Clone, SimpleObject)]
pub struct TransactionTypeSummary {
    /// The type.
    pub transaction_type: TransactionType,
    /// Transactions.
    pub count: i64,
    /// Distinct items moved.
    pub item_count: i64,
    /// Sum of the quantities, signed (items in mixed units).
    pub total_quantity: Decimal,
    /// Sum of their value at cost.
    pub total_cost: Decimal,
}

/// The audit trail's summary of a window.
#[derive(Debug, Clone, SimpleObject)]
pub struct TransactionSummary {
    /// First day of the window (UTC).
    pub start_date: NaiveDate,
    /// Last day of the window (UTC).
    pub end_date: NaiveDate,
    /// One row per type that moved, by type.
    pub by_type: Vec<TransactionTypeSummary>,
    /// Transactions in the window.
    pub total_count: i64,
}

crate::text_enum! {
    /// What an audit timeline event is.
    pub enum AuditEventKind {
        /// A stock transaction (see `inventoryTransaction`).
        InventoryTransaction,
        /// A journal entry (see `journalEntry`).
        JournalEntry,
    }
}

/// One event of a sales order's audit timeline.
#[derive(Debug, Clone, SimpleObject)]
pub struct AuditEvent {
    /// When it was written.
    pub at: Timestamp,
    /// Stock transaction or journal entry.
    pub kind: AuditEventKind,
    /// The transaction's or entry's id.
    pub id: i64,
    /// The transaction's type, or the entry's number.
    pub title: String,
    /// The transaction's notes, or the entry's description.
    pub description: Option<String>,
    /// The kind of record behind it (`sales_order`, `production_order`, `payment`...).
    pub reference_type: Option<String>,
    /// The id of that record.
    pub reference_id: Option<i64>,
    /// The quantity moved (stock transactions).
    pub quantity: Option<Decimal>,
    /// The value: a transaction's cost, an entry's total debit.
    pub amount: Option<Decimal>,
    /// Who caused it.
    pub created_by: Option<i64>,
    /// The stock transaction, for a stock event.
    pub inventory_transaction: Option<TransactionRow>,
    /// The journal entry, for a journal event.
    pub journal_entry: Option<EntryRow>,
}

/// What the ledgers hold about one sales order.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct SalesOrderAudit {
    /// The order.
    pub sales_order: SalesOrderRow,
    /// The production orders made for it.
    pub production_orders: Vec<ProductionOrderRow>,
    /// Stock transactions referencing the order or its production orders, oldest first.
    pub inventory_transactions: Vec<TransactionRow>,
    /// Journal entries of the order, its payments and its production orders, oldest first.
    pub journal_entries: Vec<EntryRow>,
}

#[ComplexObject]
impl SalesOrderAudit {
    /// The stock transactions and journal entries merged into one timeline, oldest first
    /// (by the moment each was written; a stock move before the entry that booked it).
    async fn events(&self, ctx: &Context<'_>) -> AppResult<Vec<AuditEvent>> {
        let ids: Vec<i64> = self.journal_entries.iter().map(|e| e.id).collect();
        let lines = ctx
            .data::<EntryLines>()
            .map_err(|e| AppError::internal(e.message))?
            .load_many(ids)
            .await?;
        let mut events: Vec<AuditEvent> = self
            .inventory_transactions
            .iter()
            .map(|t| AuditEvent {
                at: t.created_at,
                kind: AuditEventKind::InventoryTransaction,
                id: t.id,
                title: t.transaction_type.to_string(),
                description: t.notes.clone(),
                reference_type: t.reference_type.map(|r| r.to_string()),
                reference_id: t.reference_id,
                quantity: Some(t.quantity.clone()),
                amount: t.total_cost.clone(),
                created_by: t.created_by,
                inventory_transaction: Some(t.clone()),
                journal_entry: None,
            })
            .collect();
        events.extend(self.journal_entries.iter().map(|e| {
            let total: BigDecimal = lines
                .get(&e.id)
                .map(|ls| ls.iter().map(|l| l.debit_amount.0.clone()).sum())
                .unwrap_or_default();
            AuditEvent {
                at: e.created_at,
                kind: AuditEventKind::JournalEntry,
                id: e.id,
                title: e.entry_number.clone(),
                description: Some(e.description.clone()),
                reference_type: e.source_type.map(|s| s.to_string()),
                reference_id: e.source_id,
                quantity: None,
                amount: Some(Decimal(total)),
                created_by: e.created_by,
                inventory_transaction: None,
                journal_entry: Some(e.clone()),
            }
        }));
        events.sort_by(|a, b| {
            (a.at.0, a.kind == AuditEventKind::JournalEntry, a.id).cmp(&(
                b.at.0,
                b.kind == AuditEventKind::JournalEntry,
                b.id,
            ))
        });
        Ok(events)
    }
}

/// Queries of the audit trail (admins).
#[derive(Default)]
pub struct AuditTrailQuery;

#[Object]
impl AuditTrailQuery {
    /// Stock transactions by type between two days (UTC): how many, how many items, the
    /// quantities and their value.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_transaction_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day (default: 30 days up to the end).")] start_date: Option<
            NaiveDate,
        >,
        #[graphql(desc = "Last day (default today).")] end_date: Option<NaiveDate>,
        #[graphql(desc = "Only this item.")] product_id: Option<i64>,
        #[graphql(desc = "Only this kind of record.")] reference_type: Option<ReferenceType>,
    ) -> AppResult<TransactionSummary> {
        let w = rules::window(start_date, end_date, chrono::Utc::now().date_naive())?;
        let (Some(from), Some(before)) = rules::day_bounds(Some(w.start), Some(w.end))? else {
            return Err(AppError::internal("a window without bounds"));
        };
        let rows = model::transactions_by_type(
            &mut *context::conn(ctx).await?,
            from,
            before,
            product_id,
            reference_type,
        )
        .await?;
        Ok(TransactionSummary {
            start_date: w.start,
            end_date: w.end,
            total_count: rows.iter().map(|r| r.count).sum(),
            by_type: rows
                .into_iter()
                .map(|r| TransactionTypeSummary {
                    transaction_type: r.transaction_type,
                    count: r.count,
                    item_count: r.item_count,
                    total_quantity: Decimal(r.total_quantity),
                    total_cost: Decimal(crate::ledgers::accounting::ledger::cents(&r.total_cost)),
                })
                .collect(),
        })
    }

    /// Everything the ledgers hold about one sales order (404 `Sales order not found`):
    /// its production orders, the stock transactions and journal entries of the order, its
    /// payments and its production orders, and the two merged as a timeline (`events`).
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_audit(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The sales order's id.")] id: i64,
    ) -> AppResult<SalesOrderAudit> {
        let mut conn = context::conn(ctx).await?;
        let order = crate::operations::sales::model::find(&mut conn, id).await?;
        let production_orders = model::production_orders_of(&mut conn, id).await?;
        let made: Vec<i64> = production_orders.iter().map(|p| p.id).collect();
        let inventory_transactions = model::stock_moves_of(&mut conn, id, &made).await?;
        let journal_entries = model::entries_of_order(&mut conn, id, &made).await?;
        Ok(SalesOrderAudit {
            sales_order: order,
            production_orders,
            inventory_transactions,
            journal_entries,
        })
    }
}
