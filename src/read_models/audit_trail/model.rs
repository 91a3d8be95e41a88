//! The SQL of the audit trail: stock transactions by type in a window, and everything the
//! ledgers hold about one sales order.

use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::model::{EntryRow, SourceType};
use crate::platform::db::schema::gl_journal_entries;
use crate::platform::error::AppResult;

/// Stock transactions of one type in a window (the audit trail's summary).
#[derive(Debug, Clone, QueryableByName)]
pub struct TransactionTypeTotals {
    /// The type.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub transaction_type: crate::ledgers::inventory::model::TransactionType,
    /// Transactions.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub count: i64,
    /// Distinct items moved.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub item_count: i64,
    /// Sum of the quantities (signed; mixed units).
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_quantity: BigDecimal,
    /// Sum of their value.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_cost: BigDecimal,
}

/// Stock transactions written in `[from, before)` by type (only one item's, or one kind of
/// record's, when given), by type: one statement.
pub async fn transactions_by_type(
    conn: &mut AsyncPgConnection,
    from: chrono::DateTime<chrono::Utc>,
    before: chrono::DateTime<chrono::Utc>,
    item_id: Option<i64>,
    reference_type: Option<crate::ledgers::inventory::model::ReferenceType>,
) -> AppResult<Vec<TransactionTypeTotals>> {
    use diesel::sql_types::{BigInt, Nullable, Text, Timestamptz};
    Ok(diesel::sql_query(
        "SELECT transaction_type, COUNT(*) AS count, COUNT(DISTINCT item_id) AS item_count, \
                COALESCE(SUM(quantity), 0) AS total_quantity, \
                COALESCE(SUM(total_cost), 0) AS total_cost \
         FROM inventory_transactions \
         WHERE created_at >= $1 AND created_at < $2 \
           AND ($3::bigint IS NULL OR item_id = $3) \
           AND ($4::text IS NULL OR reference_type = $4) \
         GROUP BY transaction_type ORDER BY transaction_type",
    )
    .bind::<Timestamptz, _>(from)
    .bind::<Timestamptz, _>(before)
    .bind::<Nullable<BigInt>, _>(item_id)
    .bind::<Nullable<Text>, _>(reference_type)
    .load(conn)
    .await?)
}

/// The production orders made for a sales order, oldest first.
pub async fn production_orders_of(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
) -> AppResult<Vec<crate::operations::production::model::OrderRow>> {
    use crate::operations::production::model::OrderRow;
    use crate::platform::db::schema::production_orders;
    Ok(production_orders::table
        .filter(production_orders::sales_order_id.eq(sales_order_id))
        .order(production_orders::id)
        .select(OrderRow::as_select())
        .load(conn)
        .await?)
}

/// Every stock transaction that references a sales order or one of these production
/// orders, oldest first.
pub async fn stock_moves_of(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
    production_orders: &[i64],
) -> AppResult<Vec<crate::ledgers::inventory::model::TransactionRow>> {
    use crate::ledgers::inventory::model::{ReferenceType, TransactionRow};
    use crate::platform::db::schema::inventory_transactions as t;
    Ok(t::table
        .filter(
            t::reference_type
                .eq(ReferenceType::SalesOrder)
                .and(t::reference_id.eq(sales_order_id))
                .or(t::reference_type
                    .eq(ReferenceType::ProductionOrder)
                    .and(t::reference_id.assume_not_null().eq_any(production_orders))),
        )
        .order((t::created_at, t::id))
        .select(TransactionRow::as_select())
        .load(conn)
        .await?)
}

/// Every journal entry of a sales order: its own (shipment cost, invoice), its payments'
/// and those of these production orders, oldest first.
pub async fn entries_of_order(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
    production_orders: &[i64],
) -> AppResult<Vec<EntryRow>> {
    use crate::platform::db::schema::payments;
    use gl_journal_entries as e;
    let paid = payments::table
        .filter(payments::sales_order_id.eq(sales_order_id))
        .select(payments::id);
    Ok(e::table
        .filter(
            e::source_type
                .eq_any([SourceType::SalesOrder, SourceType::CustomerDeposit])
                .and(e::source_id.eq(sales_order_id))
                .or(e::source_type
                    .eq(SourceType::Payment)
                    .and(e::source_id.assume_not_null().eq_any(paid)))
                .or(e::source_type
                    .eq(SourceType::ProductionOrder)
                    .and(e::source_id.assume_not_null().eq_any(production_orders))),
        )
        .order((e::created_at, e::id))
        .select(EntryRow::as_select())
        .load(conn)
        .await?)
}
