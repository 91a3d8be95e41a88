//! Stock in the schema (admins only, spec 4.5): transactions, balances per item and
//! location (the inventory summary a count sheet is printed from), cycle counts, approvals
//! of negative stock and the ledger's own consistency check. Names and relations come
//! through the loaders of [`crate::ledgers::inventory::loaders`].

use async_graphql::{ComplexObject, Context, Object, SimpleObject};

use crate::ledgers::accounting::graphql::loaders::Entries;
use crate::ledgers::accounting::model::EntryRow;
use crate::ledgers::inventory::loaders::{BalanceTransactions, ItemFactsOf, LocationNames};
use crate::ledgers::inventory::model::{
    self, BalanceRow, ItemFacts, LedgerMismatch, ReferenceType, SummaryFilter, TransactionFilter,
    TransactionRow, TransactionType,
};
use crate::ledgers::inventory::rules::{
    self, AdjustQuantityInput, AdjustmentReasonInfo, ConfirmStoredResult, CycleCountInput,
    CycleCountLineResult, CycleCountResult, InventoryTransactionInput,
};
use crate::master_data::catalog::graphql::Item;
use crate::master_data::catalog::model::StockTotals;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::context::data;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::UserError;

/// An item's stock totals over every location (its `onHandQty`, `availableQty`,
/// `allocatedQty` and `needsReorder`): read with the item when its statement brought them,
/// else through the request's loader.
pub async fn item_stock(ctx: &Context<'_>, item: &Item) -> AppResult<StockTotals> {
    if let Some(stock) = &item.extras.stock {
        return Ok(stock.clone());
    }
    Ok(data::<crate::ledgers::inventory::loaders::ItemStock>(ctx)?
        .load_one(item.id)
        .await?
        .unwrap_or_default())
}

/// True when the item has a reorder point and its available stock is at or below it.
pub async fn item_needs_reorder(ctx: &Context<'_>, item: &Item) -> AppResult<bool> {
    let Some(point) = item
        .reorder_point
        .as_ref()
        .filter(|p| bigdecimal::Signed::is_positive(&p.0))
    else {
        return Ok(false);
    };
    Ok(item_stock(ctx, item).await?.available <= point.0)
}

/// An item's stock by location (only locations where it ever moved).
pub async fn item_balances(ctx: &Context<'_>, item_id: i64) -> AppResult<Vec<BalanceRow>> {
    Ok(
        data::<crate::ledgers::inventory::loaders::ItemBalances>(ctx)?
            .load_one(item_id)
            .await?
            .unwrap_or_default(),
    )
}

/// The largest page of transactions and balances (CONTRACT 5.8: `limit` up to 500).
pub const MAX_STOCK_PAGE: i64 = 500;

async fn item_facts(ctx: &Context<'_>, id: i64) -> AppResult<ItemFacts> {
    data::<ItemFactsOf>(ctx)?
        .load_one(id)
        .await?
        .ok_or_else(|| AppError::internal("stock row without its item"))
}

async fn location_name(ctx: &Context<'_>, id: i64) -> AppResult<(String, String)> {
    Ok(data::<LocationNames>(ctx)?
        .load_one(id)
        .await?
        .unwrap_or_default())
}

#[ComplexObject]
impl TransactionRow {
    /// The item's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(item_facts(ctx, self.item_id).await?.sku)
    }

    /// The item's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(item_facts(ctx, self.item_id).await?.name)
    }

    /// The item's stocking unit.
    async fn product_unit(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(item_facts(ctx, self.item_id).await?.unit)
    }

    /// The location's name.
    async fn location_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(location_name(ctx, self.location_id).await?.1)
    }

    /// The other side's name (transfers).
    async fn to_location_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        match self.to_location_id {
            Some(id) => Ok(Some(location_name(ctx, id).await?.1)),
            None => Ok(None),
        }
    }

    /// Where its approval stands: `approved` (someone approved it), `pending` (held for
    /// approval) or `posted` (never needed one).
    async fn display_status(&self) -> &'static str {
        if self.approved_by.is_some() {
            "approved"
        } else if self.requires_approval {
            "pending"
        } else {
            "posted"
        }
    }

    /// The journal entry that booked its value.
    async fn journal_entry(&self, ctx: &Context<'_>) -> AppResult<Option<EntryRow>> {
        match self.journal_entry_id {
            Some(id) => Ok(data::<Entries>(ctx)?.load_one(id).await?),
            None => Ok(None),
        }
    }
}

impl BalanceRow {
    /// The stored on-hand quantity less the ledger's sum.
    async fn drift_of(&self, ctx: &Context<'_>) -> AppResult<bigdecimal::BigDecimal> {
        let sum = data::<crate::ledgers::inventory::loaders::LedgerSums>(ctx)?
            .load_one((self.item_id, self.location_id))
            .await?
            .unwrap_or_default();
        Ok(&self.on_hand_quantity.0 - sum)
    }
}

#[ComplexObject]
impl BalanceRow {
    /// The item's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(item_facts(ctx, self.item_id).await?.sku)
    }

    /// The item's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(item_facts(ctx, self.item_id).await?.name)
    }

    /// The item's stocking unit.
    async fn unit(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(item_facts(ctx, self.item_id).await?.unit)
    }

    /// The item's category.
    async fn category_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(item_facts(ctx, self.item_id).await?.category_name)
    }

    /// The location's code.
    async fn location_code(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(location_name(ctx, self.location_id).await?.0)
    }

    /// The location's name.
    async fn location_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(location_name(ctx, self.location_id).await?.1)
    }

    /// What the ledger says is on hand here: the sum of every movement that changes on-hand
    /// stock at this item and location.
    async fn ledger_sum(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<crate::platform::graphql::scalars::Decimal> {
        Ok(crate::platform::graphql::scalars::Decimal(
            data::<crate::ledgers::inventory::loaders::LedgerSums>(ctx)?
                .load_one((self.item_id, self.location_id))
                .await?
                .unwrap_or_default(),
        ))
    }

    /// The stored on-hand quantity less the ledger's sum, as a number: 0 unless something
    /// wrote one without the other (FilaOps's reconciliation `drift`).
    async fn drift(&self, ctx: &Context<'_>) -> AppResult<f64> {
        Ok(bigdecimal::ToPrimitive::to_f64(&self.drift_of(ctx).await?).unwrap_or(0.0))
    }

    /// Whether the stored quantity and the ledger disagree.
    async fn has_drift(&self, ctx: &Context<'_>) -> AppResult<bool> {
        Ok(!bigdecimal::Zero::is_zero(&self.drift_of(ctx).await?))
    }

    /// Whether it was ever counted.
    async fn is_counted(&self) -> bool {
        self.last_counted_at.is_some()
    }

    /// The most recent transactions of this item at this location, newest first.
    async fn transactions(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-100, default 10).", default = 10, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        first: i64,
    ) -> AppResult<Vec<TransactionRow>> {
        Ok(data::<BalanceTransactions>(ctx)?
            .load_one((self.item_id, self.location_id, first.clamp(1, 100)))
            .await?
            .unwrap_or_default())
    }
}

crate::connection!(
    /// A page of stock transactions.
    InventoryTransactionConnection,
    TransactionRow
);

crate::connection!(
    /// A page of stock balances.
    StockBalanceConnection,
    BalanceRow
);

/// Whether every balance equals the sum of its ledger rows.
#[derive(Debug, Clone, SimpleObject)]
pub struct InventoryConsistency {
    /// No balance disagrees with its ledger.
    pub consistent: bool,
    /// The balances that disagree.
    pub mismatches: Vec<LedgerMismatch>,
}

/// A reconciliation's progress at one location, and its count sheet.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct InventoryReconciliation {
    /// The location (none when there is no warehouse yet).
    pub location_id: Option<i64>,
    /// Counts at or after this moment belong to this reconciliation.
    pub since: Timestamp,
    /// Balances at the location.
    pub balances: i64,
    /// Of them, counted since `since`.
    pub counted: i64,
    /// Of them, not counted yet.
    pub remaining: i64,
    /// The count sheet (every balance, or only the remaining ones), by SKU.
    pub lines: StockBalanceConnection,
}

#[ComplexObject]
impl InventoryReconciliation {
    /// Balances at the location whose stored on-hand quantity differs from the ledger's sum
    /// (0 unless something wrote one without the other).
    async fn drifted(&self, ctx: &Context<'_>) -> AppResult<i64> {
        let Some(location) = self.location_id else {
            return Ok(0);
        };
        model::drifted_balances(&mut *context::conn(ctx).await?, location).await
    }
}

/// Movements that took stock below zero (FilaOps's negative inventory report): each held
/// for approval, or approved, with the counts, and the balances below zero now.
#[derive(Debug, Clone, SimpleObject)]
pub struct NegativeInventoryReport {
    /// The window asked for.
    pub report_period: ReportPeriod,
    /// Movements listed.
    pub total_transactions: i64,
    /// Of them, still waiting for approval.
    pub pending_approvals: i64,
    /// Of them, approved.
    pub approved_transactions: i64,
    /// Of them, voided (Strata reverses a movement with another; none are voided).
    pub voided_transactions: i64,
    /// The movements, newest first (at most 500).
    pub transactions: Vec<TransactionRow>,
}

/// A report's window.
#[derive(Debug, Clone, SimpleObject)]
pub struct ReportPeriod {
    /// From (none: from the start).
    pub start_date: Option<Timestamp>,
    /// To (none: up to now).
    pub end_date: Option<Timestamp>,
}

/// Stock queries (admins).
#[derive(Default)]
pub struct InventoryQuery;

#[Object]
impl InventoryQuery {
    /// Stock transactions, newest first, with filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn inventory_transactions(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this item.")] product_id: Option<i64>,
        #[graphql(desc = "Only this type.")] transaction_type: Option<TransactionType>,
        #[graphql(desc = "Only this location.")] location_id: Option<i64>,
        #[graphql(desc = "Only this kind of record.")] reference_type: Option<ReferenceType>,
        #[graphql(desc = "Only this record.")] reference_id: Option<i64>,
        #[graphql(desc = "SKU or item name contains (case-insensitive).")] search: Option<String>,
        #[graphql(
            desc = "Only rows that took stock below zero and wait for approval.",
            default = false
        )]
        pending_approval: bool,
        #[graphql(desc = "Only rows written on or after this day (UTC).")] start_date: Option<
            chrono::NaiveDate,
        >,
        #[graphql(desc = "Only rows written on or before this day (UTC).")] end_date: Option<
            chrono::NaiveDate,
        >,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<InventoryTransactionConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_STOCK_PAGE)?;
        let (from, before) = crate::ledgers::accounting::rules::day_bounds(start_date, end_date)?;
        let filter = TransactionFilter {
            from,
            before,
            item_id: product_id,
            transaction_type,
            location_id,
            reference_type,
            reference_id,
            search,
            pending_approval,
        };
        let (nodes, total) = model::transactions(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(InventoryTransactionConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One stock transaction.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_transaction(&self, ctx: &Context<'_>, id: i64) -> AppResult<TransactionRow> {
        model::transaction(&mut *context::conn(ctx).await?, id).await
    }

    /// Stock per item and location (by SKU, then location): the inventory summary a count
    /// sheet is printed from.
    /// Movements that took stock below zero: negative adjustments and every movement held
    /// for approval, newest first, with how many wait and how many were approved.
    #[graphql(guard = "Access::Admin")]
    async fn negative_inventory_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only movements at or after this moment.")] start_date: Option<Timestamp>,
        #[graphql(desc = "Only movements at or before this moment.")] end_date: Option<Timestamp>,
        #[graphql(desc = "Include approved movements.", default = true)] include_approved: bool,
        #[graphql(desc = "Include movements waiting for approval.", default = true)]
        include_pending: bool,
    ) -> AppResult<NegativeInventoryReport> {
        let transactions = model::negative_movements(
            &mut *context::conn(ctx).await?,
            start_date.map(|t| t.0),
            end_date.map(|t| t.0),
            include_approved,
            include_pending,
        )
        .await?;
        let count = |f: &dyn Fn(&TransactionRow) -> bool| {
            transactions.iter().filter(|t| f(t)).count() as i64
        };
        Ok(NegativeInventoryReport {
            report_period: ReportPeriod {
                start_date,
                end_date,
            },
            total_transactions: transactions.len() as i64,
            pending_approvals: count(&|t| t.requires_approval && t.approved_by.is_none()),
            approved_transactions: count(&|t| t.approved_by.is_some()),
            voided_transactions: 0,
            transactions,
        })
    }

    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn inventory_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this location.")] location_id: Option<i64>,
        #[graphql(desc = "Only this category.")] category_id: Option<i64>,
        #[graphql(desc = "Only this item.")] product_id: Option<i64>,
        #[graphql(desc = "SKU or item name contains (case-insensitive).")] search: Option<String>,
        #[graphql(
            desc = "Include balances with nothing on hand or reserved.",
            default = false
        )]
        show_zero: bool,
        #[graphql(desc = "Only balances below zero.", default = false)] negative_only: bool,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<StockBalanceConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_STOCK_PAGE)?;
        let filter = SummaryFilter {
            location_id,
            category_id,
            item_id: product_id,
            search,
            show_zero,
            negative_only,
            uncounted_since: None,
        };
        let (nodes, total) = model::balances(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(StockBalanceConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// A reconciliation of one location: how many of its balances were counted since a
    /// moment (default: the start of today, UTC) and the count sheet itself, by SKU. Lines
    /// are counted through `cycleCountRecord`; `inventoryConfirmStored` takes the rest as
    /// counted at their stored quantity.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn inventory_reconciliation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The location (default: the first warehouse).")] location_id: Option<i64>,
        #[graphql(desc = "Counts at or after this moment count (default: today 00:00 UTC).")]
        since: Option<Timestamp>,
        #[graphql(desc = "Only this category.")] category_id: Option<i64>,
        #[graphql(desc = "SKU or item name contains (case-insensitive).")] search: Option<String>,
        #[graphql(desc = "Only the lines not counted yet.", default = false)] remaining_only: bool,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<InventoryReconciliation> {
        let page = Page::with_max(Some(first), Some(offset), MAX_STOCK_PAGE)?;
        let since = since.map_or_else(rules::start_of_today, |t| t.0);
        let conn = &mut *context::conn(ctx).await?;
        let Some(location_id) = (match location_id {
            Some(id) => Some(id),
            None => rules::first_warehouse(conn).await?,
        }) else {
            // No warehouse yet: nothing to reconcile.
            return Ok(InventoryReconciliation {
                location_id: None,
                since: since.into(),
                balances: 0,
                counted: 0,
                remaining: 0,
                lines: StockBalanceConnection {
                    total_count: 0,
                    nodes: Vec::new().into(),
                    page_info: page.info(0),
                },
            });
        };
        let filter = SummaryFilter {
            location_id: Some(location_id),
            category_id,
            search,
            show_zero: true,
            uncounted_since: remaining_only.then_some(since),
            ..Default::default()
        };
        let (nodes, total) = model::balances(conn, &filter, page.limit, page.offset).await?;
        let (balances, counted) = model::count_progress(conn, location_id, since).await?;
        Ok(InventoryReconciliation {
            location_id: Some(location_id),
            since: since.into(),
            balances,
            counted,
            remaining: balances - counted,
            lines: StockBalanceConnection {
                total_count: total,
                nodes: nodes.into(),
                page_info: page.info(total),
            },
        })
    }

    /// The reasons an adjustment can give.
    #[graphql(guard = "Access::Admin")]
    async fn adjustment_reasons(&self) -> Vec<AdjustmentReasonInfo> {
        rules::adjustment_reasons()
    }

    /// Proves the balances: every (item, location) whose kept on-hand or allocated
    /// quantity differs from the sum of its ledger rows.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_consistency(&self, ctx: &Context<'_>) -> AppResult<InventoryConsistency> {
        let mismatches = model::mismatches(&mut *context::conn(ctx).await?).await?;
        Ok(InventoryConsistency {
            consistent: mismatches.is_empty(),
            mismatches,
        })
    }
}

/// The result of a stock transaction.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct InventoryTransactionPayload {
    /// The transaction (the issue side of a transfer).
    pub transaction: Option<TransactionRow>,
    /// Rule violations (nothing was posted when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(InventoryTransactionPayload {
    transaction: TransactionRow
});

/// The result of a cycle count.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct CycleCountPayload {
    /// What the count did, line by line.
    pub result: Option<CycleCountResult>,
    /// Rule violations (nothing was posted when present).
    pub user_errors: Vec<UserError>,
}

/// The result of a quantity correction.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct AdjustQuantityPayload {
    /// What was posted (the same shape as a count line).
    pub result: Option<CycleCountLineResult>,
    /// Rule violations (nothing was posted when present).
    pub user_errors: Vec<UserError>,
}

/// The result of confirming the rest of a count at stored quantities.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ConfirmStoredPayload {
    /// What was confirmed.
    pub result: Option<ConfirmStoredResult>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

/// Stock mutations (admins).
#[derive(Default)]
pub struct InventoryMutation;

#[Object]
impl InventoryMutation {
    /// Posts a manual stock transaction (receipt, issue, transfer, adjustment, consumption
    /// or scrap) and its journal entry, in one database transaction.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_transaction_create(
        &self,
        ctx: &Context<'_>,
        input: InventoryTransactionInput,
    ) -> AppResult<InventoryTransactionPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::create_manual(conn, input, user)).into())
    }

    /// Records a cycle count: each variance posts an adjustment and its journal entry, all
    /// in one database transaction; lines that cannot be applied are reported.
    #[graphql(guard = "Access::Admin")]
    async fn cycle_count_record(
        &self,
        ctx: &Context<'_>,
        input: CycleCountInput,
    ) -> AppResult<CycleCountPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::count(conn, input, user)) {
                Ok(result) => CycleCountPayload {
                    result: Some(result),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => CycleCountPayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Corrects one item's quantity at a location: an adjustment for the difference and its
    /// journal entry, in one database transaction. Refused (nothing posted) on any problem.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_adjust_quantity(
        &self,
        ctx: &Context<'_>,
        input: AdjustQuantityInput,
    ) -> AppResult<AdjustQuantityPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::adjust_quantity(conn, input, user)) {
                Ok(result) => AdjustQuantityPayload {
                    result: Some(result),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => AdjustQuantityPayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Ends a reconciliation: every balance at the location not counted since `since`
    /// (default: today 00:00 UTC) is taken as counted at its stored quantity. Moves no stock.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_confirm_stored(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The location (default: the first warehouse).")] location_id: Option<i64>,
        #[graphql(desc = "Balances counted at or after this moment are left alone.")] since: Option<
            Timestamp,
        >,
    ) -> AppResult<ConfirmStoredPayload> {
        let since = since.map_or_else(rules::start_of_today, |t| t.0);
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::confirm_stored(
                conn,
                location_id,
                since
            )) {
                Ok(result) => ConfirmStoredPayload {
                    result: Some(result),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => ConfirmStoredPayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Approves a transaction that took stock below zero.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_transaction_approve(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<InventoryTransactionPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::approve_negative(conn, id, user)).into())
    }
}
