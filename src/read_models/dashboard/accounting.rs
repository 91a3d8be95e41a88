//! The accounting dashboard's month- and year-to-date blocks, as FilaOps's client reads
//! them (`revenue`, `payments`, `tax`, `cogs`, `profit`, `unjournaled_txn_count`), beside
//! the books' window figures of `ledgers::accounting`: revenue and tax of the orders that
//! shipped, payments received, what is still owed, the cost the books charged to the
//! month's shipments and the production movements not yet journaled. One statement.
//!
//! A read model, because it reads sales orders and payments (operations) together with the
//! journal (ledgers).

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
use diesel::sql_types::{Array, BigInt, Numeric, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::journals::AccountingDashboard;
use crate::ledgers::accounting::ledger::SystemAccount;
use crate::ledgers::accounting::model::{EntryStatus, SourceType};
use crate::ledgers::accounting::payment_kinds::{PaymentRecordStatus, PaymentType};
use crate::ledgers::inventory::model::{ReferenceType, TransactionType};
use crate::operations::sales::model::SalesOrderStatus;
use crate::platform::error::AppResult;

/// Revenue of the orders that shipped in the month and in the year.
#[derive(Debug, Clone, SimpleObject)]
pub struct RevenueBlock {
    /// Month to date: the shipped orders' subtotals (before tax and shipping).
    pub mtd: f64,
    /// Orders shipped this month.
    pub mtd_orders: i64,
    /// Year to date.
    pub ytd: f64,
    /// Orders shipped this year.
    pub ytd_orders: i64,
}

/// Money received and still owed.
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentsBlock {
    /// Completed payments (refunds not counted) this month.
    pub mtd_received: f64,
    /// Completed payments this year.
    pub ytd_received: f64,
    /// What open (not cancelled) orders still owe: their totals less their net payments.
    pub outstanding: f64,
    /// Orders that still owe something.
    pub outstanding_orders: i64,
}

/// Sales tax charged on the orders that shipped.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxBlock {
    /// This month.
    pub mtd_collected: f64,
    /// This year.
    pub ytd_collected: f64,
}

/// Cost of the goods shipped this month, as the books charged it.
#[derive(Debug, Clone, SimpleObject)]
pub struct CogsBlock {
    /// COGS and packaging debited for the month's shipped orders.
    pub mtd: f64,
}

/// The month's gross profit.
#[derive(Debug, Clone, SimpleObject)]
pub struct ProfitBlock {
    /// Revenue less COGS, month to date.
    pub mtd_gross: f64,
    /// Gross profit as a percentage of revenue (0 without revenue).
    pub mtd_margin_pct: f64,
}

/// The accounting dashboard: the books' window figures and the month- and year-to-date
/// blocks.
#[derive(Debug, Clone, SimpleObject)]
pub struct AccountingOverview {
    /// The books' figures for the asked window (revenue, COGS, margin, receivables, cash,
    /// tax owed).
    pub window: AccountingDashboard,
    /// When it was computed.
    pub as_of: DateTime<Utc>,
    /// The first day of the year to date (the fiscal year starts in January).
    pub fiscal_year_start: DateTime<Utc>,
    /// Revenue.
    pub revenue: RevenueBlock,
    /// Payments.
    pub payments: PaymentsBlock,
    /// Tax.
    pub tax: TaxBlock,
    /// Cost of goods sold.
    pub cogs: CogsBlock,
    /// Profit.
    pub profit: ProfitBlock,
    /// Production stock movements (consumption, finished goods) with no journal entry.
    pub unjournaled_txn_count: i64,
}

#[derive(diesel::QueryableByName)]
struct Figures {
    #[diesel(sql_type = Numeric)]
    revenue_mtd: BigDecimal,
    #[diesel(sql_type = BigInt)]
    orders_mtd: i64,
    #[diesel(sql_type = Numeric)]
    revenue_ytd: BigDecimal,
    #[diesel(sql_type = BigInt)]
    orders_ytd: i64,
    #[diesel(sql_type = Numeric)]
    tax_mtd: BigDecimal,
    #[diesel(sql_type = Numeric)]
    tax_ytd: BigDecimal,
    #[diesel(sql_type = Numeric)]
    received_mtd: BigDecimal,
    #[diesel(sql_type = Numeric)]
    received_ytd: BigDecimal,
    #[diesel(sql_type = Numeric)]
    outstanding: BigDecimal,
    #[diesel(sql_type = BigInt)]
    outstanding_orders: i64,
    #[diesel(sql_type = Numeric)]
    cogs_mtd: BigDecimal,
    #[diesel(sql_type = BigInt)]
    unjournaled: i64,
}

/// Every figure in one statement: the month's and year's shipped orders, payments,
/// balances, the COGS journal lines of the month's shipments, unjournaled movements.
const FIGURES_SQL: &str = "\
    WITH shipped AS ( \
        SELECT id, subtotal, tax_amount, shipped_at FROM sales_orders \
        WHERE status = ANY($1) AND shipped_at >= $2), \
    month AS (SELECT * FROM shipped WHERE shipped_at >= $3), \
    paid AS ( \
        SELECT sales_order_id, SUM(amount) AS net FROM payments \
        WHERE status = $4 GROUP BY sales_order_id), \
    owed AS ( \
        SELECT GREATEST(o.grand_total - COALESCE(p.net, 0), 0) AS balance \
        FROM sales_orders o LEFT JOIN paid p ON p.sales_order_id = o.id \
        WHERE o.status <> $5) \
    SELECT \
        (SELECT COALESCE(SUM(subtotal), 0) FROM month) AS revenue_mtd, \
        (SELECT COUNT(*) FROM month) AS orders_mtd, \
        (SELECT COALESCE(SUM(subtotal), 0) FROM shipped) AS revenue_ytd, \
        (SELECT COUNT(*) FROM shipped) AS orders_ytd, \
        (SELECT COALESCE(SUM(tax_amount), 0) FROM month) AS tax_mtd, \
        (SELECT COALESCE(SUM(tax_amount), 0) FROM shipped) AS tax_ytd, \
        (SELECT COALESCE(SUM(amount), 0) FROM payments \
            WHERE status = $4 AND payment_type = $6 AND payment_date >= $3) AS received_mtd, \
        (SELECT COALESCE(SUM(amount), 0) FROM payments \
            WHERE status = $4 AND payment_type = $6 AND payment_date >= $2) AS received_ytd, \
        (SELECT COALESCE(SUM(balance), 0) FROM owed) AS outstanding, \
        (SELECT COUNT(*) FROM owed WHERE balance > 0) AS outstanding_orders, \
        (SELECT COALESCE(SUM(l.debit_amount - l.credit_amount), 0) \
            FROM gl_journal_entry_lines l \
            JOIN gl_journal_entries e ON e.id = l.journal_entry_id \
            JOIN gl_accounts a ON a.id = l.account_id \
            WHERE e.status = $7 AND e.source_type = $8 \
              AND e.source_id IN (SELECT id FROM month) AND a.account_code = ANY($9)) AS cogs_mtd, \
        (SELECT COUNT(*) FROM inventory_transactions \
            WHERE reference_type = $10 AND transaction_type = ANY($11) \
              AND journal_entry_id IS NULL AND NOT requires_approval) AS unjournaled";

/// A figure as a JSON number, to the cent.
fn money(value: &BigDecimal) -> f64 {
    value
        .with_scale_round(2, bigdecimal::RoundingMode::HalfUp)
        .to_f64()
        .unwrap_or(0.0)
}

/// Midnight UTC at the start of a day.
fn midnight(day: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&day.and_time(chrono::NaiveTime::MIN))
}

/// The month- and year-to-date blocks as of `now`, beside the books' `window` figures.
pub async fn overview(
    conn: &mut AsyncPgConnection,
    window: AccountingDashboard,
    now: DateTime<Utc>,
) -> AppResult<AccountingOverview> {
    let today = now.date_naive();
    let month_start = midnight(today.with_day(1).unwrap_or(today));
    let year_start = midnight(NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap_or(today));
    let shipped: Vec<String> = [
        SalesOrderStatus::Shipped,
        SalesOrderStatus::Delivered,
        SalesOrderStatus::Completed,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    let f: Figures = diesel::sql_query(FIGURES_SQL)
        .bind::<Array<Text>, _>(shipped)
        .bind::<Timestamptz, _>(year_start)
        .bind::<Timestamptz, _>(month_start)
        .bind::<Text, _>(PaymentRecordStatus::Completed.to_string())
        .bind::<Text, _>(SalesOrderStatus::Cancelled.to_string())
        .bind::<Text, _>(PaymentType::Payment.to_string())
        .bind::<Text, _>(EntryStatus::Posted.to_string())
        .bind::<Text, _>(SourceType::SalesOrder.to_string())
        .bind::<Array<Text>, _>(vec![
            SystemAccount::CostOfGoodsSold.code().to_string(),
            SystemAccount::ShippingSupplies.code().to_string(),
        ])
        .bind::<Text, _>(ReferenceType::ProductionOrder.to_string())
        .bind::<Array<Text>, _>(vec![
            TransactionType::Consumption.to_string(),
            TransactionType::Production.to_string(),
        ])
        .get_result(conn)
        .await?;
    let gross = &f.revenue_mtd - &f.cogs_mtd;
    let margin = if f.revenue_mtd.is_zero() {
        0.0
    } else {
        (&gross * BigDecimal::from(100) / &f.revenue_mtd)
            .to_f64()
            .unwrap_or(0.0)
    };
    Ok(AccountingOverview {
        window,
        as_of: now,
        fiscal_year_start: year_start,
        revenue: RevenueBlock {
            mtd: money(&f.revenue_mtd),
            mtd_orders: f.orders_mtd,
            ytd: money(&f.revenue_ytd),
            ytd_orders: f.orders_ytd,
        },
        payments: PaymentsBlock {
            mtd_received: money(&f.received_mtd),
            ytd_received: money(&f.received_ytd),
            outstanding: money(&f.outstanding),
            outstanding_orders: f.outstanding_orders,
        },
        tax: TaxBlock {
            mtd_collected: money(&f.tax_mtd),
            ytd_collected: money(&f.tax_ytd),
        },
        cogs: CogsBlock {
            mtd: money(&f.cogs_mtd),
        },
        profit: ProfitBlock {
            mtd_gross: money(&gross),
            mtd_margin_pct: margin,
        },
        unjournaled_txn_count: f.unjournaled,
    })
}
