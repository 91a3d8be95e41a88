//! General-ledger rows, the closed sets of the books and the queries on them.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::payment_kinds::{PaymentMethod, PaymentRecordStatus};
use crate::platform::db::paging;
use crate::platform::db::schema::{
    gl_accounts, gl_fiscal_periods, gl_journal_entries, gl_journal_entry_lines,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// What kind of account: decides its normal balance.
    pub enum GlAccountType {
        /// What the business owns (normal balance: debit).
        Asset,
        /// What it owes (normal balance: credit).
        Liability,
        /// The owner's stake (normal balance: credit).
        Equity,
        /// Income (normal balance: credit).
        Revenue,
        /// Costs (normal balance: debit).
        Expense,
    }
}

impl GlAccountType {
    /// True for the accounts whose balance is normally a debit (assets and expenses).
    pub fn debit_normal(self) -> bool {
        matches!(self, GlAccountType::Asset | GlAccountType::Expense)
    }
}

crate::text_enum! {
    /// Whether a fiscal period still takes postings.
    pub enum PeriodStatus {
        /// Postings dated in it are accepted.
        Open,
        /// Closed: postings dated in it are refused.
        Closed,
    }
}

crate::text_enum! {
    /// Where a journal entry stands.
    pub enum EntryStatus {
        /// Not posted yet.
        Draft,
        /// Posted (every automatic entry).
        Posted,
        /// Voided by a reversing entry.
        Voided,
    }
}

crate::text_enum! {
    /// The business event behind a journal entry (or an inventory transaction).
    pub enum SourceType {
        /// A manual inventory transaction or a cycle count.
        Adjustment,
        /// A spool weight correction.
        SpoolAdjustment,
        /// Opening balances from the inventory import.
        InventoryImport,
        /// A purchase order receipt.
        PurchaseOrder,
        /// A production order (issue, completion, scrap).
        ProductionOrder,
        /// A sales order (shipment, invoice).
        SalesOrder,
        /// A payment.
        Payment,
        /// Entered by hand.
        Manual,
        /// A sales order's payments moved between 2300 Customer Deposits and 1100 AR as its
        /// invoices take them.
        CustomerDeposit,
    }
}

/// An account of the chart.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = gl_accounts, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "GlAccount", complex)]
pub struct AccountRow {
    /// Id.
    pub id: i64,
    /// Four-digit code, e.g. `1200`.
    pub account_code: String,
    /// Name, e.g. `Raw Materials Inventory`.
    pub name: String,
    /// Kind (decides the normal balance).
    pub account_type: GlAccountType,
    /// The Schedule C line it reports on, when one applies.
    pub schedule_c_line: Option<String>,
    /// The parent account, for sub-accounts.
    pub parent_id: Option<i64>,
    /// Used by automatic postings (never deleted).
    pub is_system: bool,
    /// Active.
    pub active: bool,
    /// Description.
    pub description: Option<String>,
    /// Created.
    pub created_at: Timestamp,
}

/// A fiscal period (one calendar month).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = gl_fiscal_periods, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "FiscalPeriod")]
pub struct PeriodRow {
    /// Id.
    pub id: i64,
    /// Year.
    pub year: i32,
    /// Month, 1-12.
    pub period: i32,
    /// First day.
    pub start_date: NaiveDate,
    /// Last day.
    pub end_date: NaiveDate,
    /// Open or closed.
    pub status: PeriodStatus,
    /// Who closed it.
    pub closed_by: Option<i64>,
    /// When it was closed.
    pub closed_at: Option<Timestamp>,
}

/// A journal entry's header.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = gl_journal_entries, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "JournalEntry", complex)]
pub struct EntryRow {
    /// Id.
    pub id: i64,
    /// Number, `JE-YYYY-NNNNNN`.
    pub entry_number: String,
    /// The date it is booked on.
    pub entry_date: NaiveDate,
    /// What happened.
    pub description: String,
    /// The kind of business event behind it.
    pub source_type: Option<SourceType>,
    /// The id of the record behind it (an order, a transaction...).
    pub source_id: Option<i64>,
    /// Status.
    pub status: EntryStatus,
    /// The fiscal period it is booked in.
    pub fiscal_period_id: i64,
    /// Who caused it.
    pub created_by: Option<i64>,
    /// When it was written.
    pub created_at: Timestamp,
}

/// A debit or credit line of a journal entry.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = gl_journal_entry_lines, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "JournalLine", complex)]
pub struct LineRow {
    /// Id.
    pub id: i64,
    /// The entry.
    pub journal_entry_id: i64,
    /// The account (see `account`).
    #[graphql(skip)]
    pub account_id: i64,
    /// Debit (zero on a credit line).
    pub debit_amount: Decimal,
    /// Credit (zero on a debit line).
    pub credit_amount: Decimal,
    /// Memo.
    pub memo: Option<String>,
    /// Position in the entry.
    pub line_order: i32,
}

/// Every account of the chart, by code.
pub async fn accounts(
    conn: &mut AsyncPgConnection,
    active_only: bool,
) -> AppResult<Vec<AccountRow>> {
    let mut q = gl_accounts::table
        .select(AccountRow::as_select())
        .order(gl_accounts::account_code)
        .into_boxed();
    if active_only {
        q = q.filter(gl_accounts::active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// The accounts with these ids.
pub async fn accounts_by_id(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<AccountRow>> {
    Ok(gl_accounts::table
        .filter(gl_accounts::id.eq_any(ids))
        .select(AccountRow::as_select())
        .load(conn)
        .await?)
}

/// The account with this code, or a 404.
pub async fn account_by_code(conn: &mut AsyncPgConnection, code: &str) -> AppResult<AccountRow> {
    paging::find_or_404(
        conn,
        gl_accounts::table
            .filter(gl_accounts::account_code.eq(code.trim().to_string()))
            .select(AccountRow::as_select()),
        "Account not found",
    )
    .await
}

/// The lines of these entries, in entry order.
pub async fn lines_of(conn: &mut AsyncPgConnection, entries: &[i64]) -> AppResult<Vec<LineRow>> {
    Ok(gl_journal_entry_lines::table
        .filter(gl_journal_entry_lines::journal_entry_id.eq_any(entries))
        .order((
            gl_journal_entry_lines::journal_entry_id,
            gl_journal_entry_lines::line_order,
        ))
        .select(LineRow::as_select())
        .load(conn)
        .await?)
}

/// The entries with these ids.
pub async fn entries_by_id(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<EntryRow>> {
    Ok(gl_journal_entries::table
        .filter(gl_journal_entries::id.eq_any(ids))
        .select(EntryRow::as_select())
        .load(conn)
        .await?)
}

/// One entry, or a 404.
pub async fn entry(conn: &mut AsyncPgConnection, id: i64) -> AppResult<EntryRow> {
    paging::find_or_404(
        conn,
        gl_journal_entries::table
            .find(id)
            .select(EntryRow::as_select()),
        "Journal entry not found",
    )
    .await
}

/// The most recent entries (newest first) and how many there are.
pub async fn recent_entries(
    conn: &mut AsyncPgConnection,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<EntryRow>, i64)> {
    let build = || {
        gl_journal_entries::table
            .select((EntryRow::as_select(), paging::total_count()))
            .order((
                gl_journal_entries::entry_date.desc(),
                gl_journal_entries::id.desc(),
            ))
            .into_boxed()
    };
    crate::load_page!(conn, build, limit, offset)
}

/// Every fiscal period, newest first.
pub async fn periods(conn: &mut AsyncPgConnection) -> AppResult<Vec<PeriodRow>> {
    Ok(gl_fiscal_periods::table
        .select(PeriodRow::as_select())
        .order((
            gl_fiscal_periods::year.desc(),
            gl_fiscal_periods::period.desc(),
        ))
        .load(conn)
        .await?)
}

/// One account's total debits and credits up to a date.
#[derive(Debug, Clone, QueryableByName)]
pub struct AccountTotals {
    /// Code.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub account_code: String,
    /// Name.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub name: String,
    /// Kind.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub account_type: String,
    /// Sum of debits.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub debits: BigDecimal,
    /// Sum of credits.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub credits: BigDecimal,
}

/// Debits and credits per account of every posted entry dated on or before `as_of`, by
/// code (accounts without postings come back with zeros). One statement: the lines are
/// summed per account first, then joined to the chart.
pub async fn totals_as_of(
    conn: &mut AsyncPgConnection,
    as_of: NaiveDate,
) -> AppResult<Vec<AccountTotals>> {
    Ok(diesel::sql_query(
        "SELECT a.account_code, a.name, a.account_type, \
                COALESCE(t.debits, 0) AS debits, COALESCE(t.credits, 0) AS credits \
         FROM gl_accounts a \
         LEFT JOIN (SELECT l.account_id, SUM(l.debit_amount) AS debits, SUM(l.credit_amount) AS credits \
                    FROM gl_journal_entry_lines l \
                    JOIN gl_journal_entries e ON e.id = l.journal_entry_id \
                    WHERE e.entry_date <= $1 AND e.status = 'posted' \
                    GROUP BY l.account_id) t ON t.account_id = a.id \
         ORDER BY a.account_code",
    )
    .bind::<diesel::sql_types::Date, _>(as_of)
    .load(conn)
    .await?)
}

/// A line of an account's ledger with its entry and the running balance.
#[derive(Debug, Clone, QueryableByName)]
pub struct LedgerLine {
    /// The entry.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub journal_entry_id: i64,
    /// Its number.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub entry_number: String,
    /// Its date.
    #[diesel(sql_type = diesel::sql_types::Date)]
    pub entry_date: NaiveDate,
    /// Its description.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub description: String,
    /// Its source.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub source_type: Option<String>,
    /// Its source id.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub source_id: Option<i64>,
    /// Debit.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub debit_amount: BigDecimal,
    /// Credit.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub credit_amount: BigDecimal,
    /// Memo.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub memo: Option<String>,
    /// Debits minus credits up to and including this line (all time, by date then id).
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub running_debit_minus_credit: BigDecimal,
    /// Lines of the account in the range.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub total: i64,
}

/// An account's lines between two dates (inclusive; open ends when `None`), oldest first,
/// with running balances computed over the account's whole history.
pub async fn ledger(
    conn: &mut AsyncPgConnection,
    account_id: i64,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    limit: i64,
    offset: i64,
) -> AppResult<Vec<LedgerLine>> {
    use diesel::sql_types::{BigInt, Date, Nullable};
    Ok(diesel::sql_query(
        "SELECT x.journal_entry_id, x.entry_number, x.entry_date, x.description, x.source_type, \
                x.source_id, x.debit_amount, x.credit_amount, x.memo, x.running_debit_minus_credit, \
                COUNT(*) OVER () AS total \
         FROM ( \
           SELECT e.id AS journal_entry_id, e.entry_number, e.entry_date, e.description, e.source_type, \
                  e.source_id, l.debit_amount, l.credit_amount, l.memo, l.id AS line_id, \
                  SUM(l.debit_amount - l.credit_amount) OVER (ORDER BY e.entry_date, e.id, l.id) \
                      AS running_debit_minus_credit \
           FROM gl_journal_entry_lines l JOIN gl_journal_entries e ON e.id = l.journal_entry_id \
           WHERE l.account_id = $1 AND e.status = 'posted' AND ($3::date IS NULL OR e.entry_date <= $3) \
         ) x WHERE ($2::date IS NULL OR x.entry_date >= $2) \
         ORDER BY x.entry_date, x.journal_entry_id, x.line_id \
         LIMIT $4 OFFSET $5",
    )
    .bind::<BigInt, _>(account_id)
    .bind::<Nullable<Date>, _>(from)
    .bind::<Nullable<Date>, _>(to)
    .bind::<BigInt, _>(limit)
    .bind::<BigInt, _>(offset)
    .load(conn)
    .await?)
}

/// How many journal entries there are.
pub async fn entry_count(conn: &mut AsyncPgConnection) -> AppResult<i64> {
    Ok(gl_journal_entries::table.count().get_result(conn).await?)
}

#[derive(QueryableByName)]
struct AccountEntry {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    account_id: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    journal_entry_id: i64,
}

/// The ids of the `limit` most recent entries of each account, as (account, entry) pairs,
/// newest first: one statement for every account.
pub async fn recent_entry_ids_of_accounts(
    conn: &mut AsyncPgConnection,
    accounts: &[i64],
    limit: i64,
) -> AppResult<Vec<(i64, i64)>> {
    use diesel::sql_types::{Array, BigInt};
    let rows: Vec<AccountEntry> = diesel::sql_query(
        "SELECT account_id, journal_entry_id FROM ( \
           SELECT account_id, journal_entry_id, \
                  ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY journal_entry_id DESC) AS n \
           FROM (SELECT DISTINCT account_id, journal_entry_id FROM gl_journal_entry_lines \
                 WHERE account_id = ANY($1)) d \
         ) r WHERE n <= $2 ORDER BY account_id, journal_entry_id DESC",
    )
    .bind::<Array<BigInt>, _>(accounts)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.account_id, r.journal_entry_id))
        .collect())
}

/// Stock on hand by item type: how many items hold stock, their quantity and the value of
/// every stock movement still on hand (the inventory ledger's `total_cost`).
#[derive(Debug, Clone, QueryableByName)]
pub struct StockByType {
    /// The item type.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub item_type: crate::master_data::catalog::model::ItemType,
    /// Items with stock on hand.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub item_count: i64,
    /// Their quantity on hand.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_quantity: BigDecimal,
    /// Their value.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub inventory_value: BigDecimal,
}

/// [`StockByType`] for every item type that has ever moved.
pub async fn stock_by_type(conn: &mut AsyncPgConnection) -> AppResult<Vec<StockByType>> {
    Ok(diesel::sql_query(
        "SELECT i.item_type, \
                COUNT(*) FILTER (WHERE s.qty <> 0) AS item_count, \
                COALESCE(SUM(s.qty), 0) AS total_quantity, \
                COALESCE(SUM(s.value), 0) AS inventory_value \
         FROM (SELECT item_id, SUM(quantity) AS qty, SUM(COALESCE(total_cost, 0)) AS value \
               FROM inventory_transactions WHERE affects_on_hand GROUP BY item_id) s \
         JOIN items i ON i.id = s.item_id \
         GROUP BY i.item_type ORDER BY i.item_type",
    )
    .load(conn)
    .await?)
}

// ------------------------------------------------------------------ journals over a window
//
// The journals read the general ledger, not the orders and payments tables: an entry is what
// was booked (on its booking date, in its fiscal period), so every total here ties to the
// trial balance's accounts for the same dates. Each report is one statement, whatever the
// number of rows (the page and the window's totals come back together).

/// One invoice of the sales journal (with the window's totals on every row), or, when the
/// page is empty, one row of totals only.
#[derive(Debug, Clone, QueryableByName)]
pub struct SalesJournalLine {
    /// The invoice's journal entry (`None` on a totals-only row).
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub journal_entry_id: Option<i64>,
    /// Its number.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub entry_number: Option<String>,
    /// Its booking date (the shipment's day).
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Date>)]
    pub entry_date: Option<NaiveDate>,
    /// The sales order.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub sales_order_id: Option<i64>,
    /// Its number.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub order_number: Option<String>,
    /// The customer.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub customer_id: Option<i64>,
    /// The customer's name on the order.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub customer_name: Option<String>,
    /// Credit to 4000 Sales.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
    pub subtotal: Option<BigDecimal>,
    /// Credit to 2100 Sales tax payable.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
    pub tax: Option<BigDecimal>,
    /// Credit to 4200 Shipping revenue.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
    pub shipping: Option<BigDecimal>,
    /// Debit to 1100 Accounts receivable.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
    pub grand_total: Option<BigDecimal>,
    /// Invoices in the window.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub total: i64,
    /// Their subtotals.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_subtotal: BigDecimal,
    /// Their tax.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_tax: BigDecimal,
    /// Their shipping.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_shipping: BigDecimal,
    /// Their grand totals.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_grand_total: BigDecimal,
}

/// The sales journal: a page of the invoices booked between two dates (inclusive), oldest
/// first, and the window's totals. An invoice is a posted entry of a sales order that
/// debits 1100 (the shipment's cost entry of the same order debits 5000 instead).
pub async fn sales_journal(
    conn: &mut AsyncPgConnection,
    from: NaiveDate,
    to: NaiveDate,
    limit: i64,
    offset: i64,
) -> AppResult<Vec<SalesJournalLine>> {
    use diesel::sql_types::{BigInt, Date};
    Ok(diesel::sql_query(
        "WITH inv AS ( \
           SELECT e.id, e.entry_number, e.entry_date, e.source_id, \
                  COALESCE(SUM(l.credit_amount - l.debit_amount) FILTER (WHERE a.account_code = '4000'), 0) AS subtotal, \
                  COALESCE(SUM(l.credit_amount - l.debit_amount) FILTER (WHERE a.account_code = '2100'), 0) AS tax, \
                  COALESCE(SUM(l.credit_amount - l.debit_amount) FILTER (WHERE a.account_code = '4200'), 0) AS shipping, \
                  COALESCE(SUM(l.debit_amount - l.credit_amount) FILTER (WHERE a.account_code = '1100'), 0) AS grand_total \
           FROM gl_journal_entries e \
           JOIN gl_journal_entry_lines l ON l.journal_entry_id = e.id \
           JOIN gl_accounts a ON a.id = l.account_id \
           WHERE e.source_type = 'sales_order' AND e.status = 'posted' \
             AND e.entry_date BETWEEN $1 AND $2 \
           GROUP BY e.id \
           HAVING bool_or(a.account_code = '1100') \
         ), tot AS ( \
           SELECT COUNT(*) AS total, COALESCE(SUM(subtotal), 0) AS total_subtotal, \
                  COALESCE(SUM(tax), 0) AS total_tax, COALESCE(SUM(shipping), 0) AS total_shipping, \
                  COALESCE(SUM(grand_total), 0) AS total_grand_total FROM inv \
         ), page AS ( \
           SELECT inv.id AS journal_entry_id, inv.entry_number, inv.entry_date, \
                  inv.source_id AS sales_order_id, so.order_number, so.customer_id, so.customer_name, \
                  inv.subtotal, inv.tax, inv.shipping, inv.grand_total \
           FROM inv LEFT JOIN sales_orders so ON so.id = inv.source_id \
           ORDER BY inv.entry_date, inv.id LIMIT $3 OFFSET $4 \
         ) \
         SELECT page.*, tot.* FROM tot LEFT JOIN page ON true \
         ORDER BY page.entry_date, page.journal_entry_id",
    )
    .bind::<Date, _>(from)
    .bind::<Date, _>(to)
    .bind::<BigInt, _>(limit)
    .bind::<BigInt, _>(offset)
    .load(conn)
    .await?)
}

crate::text_enum! {
    /// What moved cash in the payments journal.
    pub enum PaymentEntryKind {
        /// A payment received.
        Payment,
        /// Money paid back.
        Refund,
        /// The reversal of a voided payment or refund.
        Void,
    }
}

/// One cash entry of the payments journal (with the window's totals on every row), or, when
/// the page is empty, one row of totals only.
#[derive(Debug, Clone, QueryableByName)]
pub struct PaymentsJournalLine {
    /// The cash entry (`None` on a totals-only row).
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub journal_entry_id: Option<i64>,
    /// Its number.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub entry_number: Option<String>,
    /// Its booking date.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Date>)]
    pub entry_date: Option<NaiveDate>,
    /// The payment.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub payment_id: Option<i64>,
    /// Its number.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub payment_number: Option<String>,
    /// Payment, refund or void.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub kind: Option<PaymentEntryKind>,
    /// How it was paid.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub payment_method: Option<PaymentMethod>,
    /// The payment's status now.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub payment_status: Option<PaymentRecordStatus>,
    /// The sales order.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub sales_order_id: Option<i64>,
    /// Its number.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub order_number: Option<String>,
    /// The customer's name on the order.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    pub customer_name: Option<String>,
    /// Cash in (negative: out), the entry's net debit to 1000.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
    pub amount: Option<BigDecimal>,
    /// Entries in the window.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub total: i64,
    /// Sum of the payments.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_payments: BigDecimal,
    /// Sum of the refunds (negative).
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_refunds: BigDecimal,
    /// Sum of the voids.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_voids: BigDecimal,
    /// The net change of cash.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_net: BigDecimal,
}

/// The cash entries of payments booked between two dates: the payment's number, kind,
/// method and order, and the entry's net debit to 1000. A void is told from the payment it
/// reverses by its sign.
const PAYMENT_ENTRIES: &str = "pe AS ( \
       SELECT e.id AS journal_entry_id, e.entry_number, e.entry_date, p.id AS payment_id, \
              p.payment_number, p.payment_method, p.status AS payment_status, \
              so.id AS sales_order_id, so.order_number, so.customer_name, x.amount, \
              CASE WHEN sign(x.amount) <> sign(p.amount) THEN 'void' ELSE p.payment_type END AS kind \
       FROM gl_journal_entries e \
       JOIN (SELECT l.journal_entry_id, SUM(l.debit_amount - l.credit_amount) AS amount \
             FROM gl_journal_entry_lines l JOIN gl_accounts a ON a.id = l.account_id \
             WHERE a.account_code = '1000' GROUP BY l.journal_entry_id) x ON x.journal_entry_id = e.id \
       JOIN payments p ON p.id = e.source_id \
       JOIN sales_orders so ON so.id = p.sales_order_id \
       WHERE e.source_type = 'payment' AND e.status = 'posted' AND e.entry_date BETWEEN $1 AND $2 \
     )";

/// The payments journal: a page of the cash entries of payments, refunds and voids booked
/// between two dates (inclusive), oldest first, and the window's totals.
pub async fn payments_journal(
    conn: &mut AsyncPgConnection,
    from: NaiveDate,
    to: NaiveDate,
    limit: i64,
    offset: i64,
) -> AppResult<Vec<PaymentsJournalLine>> {
    use diesel::sql_types::{BigInt, Date};
    Ok(diesel::sql_query(format!(
        "WITH {PAYMENT_ENTRIES}, tot AS ( \
           SELECT COUNT(*) AS total, \
                  COALESCE(SUM(amount) FILTER (WHERE kind = 'payment'), 0) AS total_payments, \
                  COALESCE(SUM(amount) FILTER (WHERE kind = 'refund'), 0) AS total_refunds, \
                  COALESCE(SUM(amount) FILTER (WHERE kind = 'void'), 0) AS total_voids, \
                  COALESCE(SUM(amount), 0) AS total_net FROM pe \
         ), page AS ( \
           SELECT * FROM pe ORDER BY entry_date, journal_entry_id LIMIT $3 OFFSET $4 \
         ) \
         SELECT page.*, tot.* FROM tot LEFT JOIN page ON true \
         ORDER BY page.entry_date, page.journal_entry_id"
    ))
    .bind::<Date, _>(from)
    .bind::<Date, _>(to)
    .bind::<BigInt, _>(limit)
    .bind::<BigInt, _>(offset)
    .load(conn)
    .await?)
}

/// The payments journal's totals by payment method.
#[derive(Debug, Clone, QueryableByName)]
pub struct MethodTotal {
    /// The method.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub payment_method: PaymentMethod,
    /// Entries.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub count: i64,
    /// Net cash.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub amount: BigDecimal,
}

/// Net cash of the payments journal per payment method, by method.
pub async fn payments_by_method(
    conn: &mut AsyncPgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<MethodTotal>> {
    use diesel::sql_types::Date;
    Ok(diesel::sql_query(format!(
        "WITH {PAYMENT_ENTRIES} \
         SELECT payment_method, COUNT(*) AS count, SUM(amount) AS amount \
         FROM pe GROUP BY payment_method ORDER BY payment_method"
    ))
    .bind::<Date, _>(from)
    .bind::<Date, _>(to)
    .load(conn)
    .await?)
}

/// Sales and tax of one calendar month of a window.
#[derive(Debug, Clone, QueryableByName)]
pub struct TaxMonth {
    /// The month's first day.
    #[diesel(sql_type = diesel::sql_types::Date)]
    pub month: NaiveDate,
    /// Invoices booked.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub invoice_count: i64,
    /// Sales (4000) of the invoices that charged tax.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub taxable_sales: BigDecimal,
    /// Sales (4000) of the invoices that charged none.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub non_taxable_sales: BigDecimal,
    /// Net credits to 2100 Sales tax payable, from every entry.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub tax_collected: BigDecimal,
}

/// Every calendar month that overlaps the window (months without postings too), with the
/// sales and tax booked in it between the two dates.
pub async fn tax_by_month(
    conn: &mut AsyncPgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<TaxMonth>> {
    use diesel::sql_types::Date;
    Ok(diesel::sql_query(
        "WITH ent AS ( \
           SELECT date_trunc('month', e.entry_date)::date AS month, \
                  e.source_type = 'sales_order' AND bool_or(a.account_code = '1100') AS is_invoice, \
                  COALESCE(SUM(l.credit_amount - l.debit_amount) FILTER (WHERE a.account_code = '4000'), 0) AS sales, \
                  COALESCE(SUM(l.credit_amount - l.debit_amount) FILTER (WHERE a.account_code = '2100'), 0) AS tax \
           FROM gl_journal_entries e \
           JOIN gl_journal_entry_lines l ON l.journal_entry_id = e.id \
           JOIN gl_accounts a ON a.id = l.account_id \
           WHERE e.status = 'posted' AND e.entry_date BETWEEN $1 AND $2 \
             AND a.account_code IN ('1100', '4000', '2100') \
           GROUP BY e.id \
         ), m AS ( \
           SELECT month, \
                  COUNT(*) FILTER (WHERE is_invoice) AS invoice_count, \
                  COALESCE(SUM(sales) FILTER (WHERE is_invoice AND tax <> 0), 0) AS taxable_sales, \
                  COALESCE(SUM(sales) FILTER (WHERE is_invoice AND tax = 0), 0) AS non_taxable_sales, \
                  COALESCE(SUM(tax), 0) AS tax_collected \
           FROM ent GROUP BY month \
         ) \
         SELECT s.month::date AS month, COALESCE(m.invoice_count, 0) AS invoice_count, \
                COALESCE(m.taxable_sales, 0) AS taxable_sales, \
                COALESCE(m.non_taxable_sales, 0) AS non_taxable_sales, \
                COALESCE(m.tax_collected, 0) AS tax_collected \
         FROM generate_series(date_trunc('month', $1::date), date_trunc('month', $2::date), interval '1 month') s(month) \
         LEFT JOIN m ON m.month = s.month::date \
         ORDER BY s.month",
    )
    .bind::<Date, _>(from)
    .bind::<Date, _>(to)
    .load(conn)
    .await?)
}

/// Sales and tax of a window under one tax rate (as the invoices name it).
#[derive(Debug, Clone, QueryableByName)]
pub struct TaxByRate {
    /// The rate's name on the invoices ("No tax" when none was charged and none named).
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub name: String,
    /// The rate as a fraction.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub rate: BigDecimal,
    /// Invoices written in the window less those voided in it.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub invoice_count: i64,
    /// Their sales (subtotal less discount), voids subtracted.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub sales: BigDecimal,
    /// Their tax, voids subtracted.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub tax: BigDecimal,
}

/// The window's invoices by tax rate: each invoice counts on its date and, when voided,
/// counts back on the day of the void, as its journal entries do.
pub async fn tax_by_rate(
    conn: &mut AsyncPgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<TaxByRate>> {
    use diesel::sql_types::Date;
    Ok(diesel::sql_query(
        "WITH moves AS ( \
           SELECT i.tax_rate_name, i.tax_rate, i.tax_amount, 1 AS sign, \
                  i.subtotal - i.discount_amount AS sales, i.tax_amount AS tax \
           FROM invoices i WHERE i.invoice_date BETWEEN $1 AND $2 \
           UNION ALL \
           SELECT i.tax_rate_name, i.tax_rate, i.tax_amount, -1, \
                  -(i.subtotal - i.discount_amount), -i.tax_amount \
           FROM invoices i WHERE i.voided_at IS NOT NULL \
             AND i.voided_at::date BETWEEN $1 AND $2 \
         ) \
         SELECT COALESCE(tax_rate_name, CASE WHEN tax_amount = 0 THEN 'No tax' ELSE 'Sales tax' END) AS name, \
                tax_rate AS rate, SUM(sign)::bigint AS invoice_count, \
                COALESCE(SUM(sales), 0) AS sales, COALESCE(SUM(tax), 0) AS tax \
         FROM moves GROUP BY 1, 2 \
         ORDER BY 5 DESC, 1, 2",
    )
    .bind::<Date, _>(from)
    .bind::<Date, _>(to)
    .load(conn)
    .await?)
}

/// One account's debits and credits within a window and up to its last day.
#[derive(Debug, Clone, QueryableByName)]
pub struct WindowTotals {
    /// Code.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub account_code: String,
    /// Debits dated in the window.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub window_debits: BigDecimal,
    /// Credits dated in the window.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub window_credits: BigDecimal,
    /// Debits dated on or before the window's last day.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub debits: BigDecimal,
    /// Credits dated on or before the window's last day.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub credits: BigDecimal,
    /// Invoices (sales-order entries debiting 1100) booked in the window.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub invoice_count: i64,
}

/// [`WindowTotals`] of the accounts with these codes (codes without postings are left out),
/// in one statement.
pub async fn window_totals(
    conn: &mut AsyncPgConnection,
    codes: &[&str],
    from: NaiveDate,
    to: NaiveDate,
) -> AppResult<Vec<WindowTotals>> {
    use diesel::sql_types::{Array, Date, Text};
    let codes: Vec<String> = codes.iter().map(|c| (*c).to_string()).collect();
    Ok(diesel::sql_query(
        "SELECT a.account_code, \
                COALESCE(SUM(l.debit_amount) FILTER (WHERE e.entry_date >= $2), 0) AS window_debits, \
                COALESCE(SUM(l.credit_amount) FILTER (WHERE e.entry_date >= $2), 0) AS window_credits, \
                COALESCE(SUM(l.debit_amount), 0) AS debits, \
                COALESCE(SUM(l.credit_amount), 0) AS credits, \
                COUNT(DISTINCT e.id) FILTER (WHERE e.entry_date >= $2 AND e.source_type = 'sales_order' \
                                              AND a.account_code = '1100' AND l.debit_amount > 0) AS invoice_count \
         FROM gl_journal_entry_lines l \
         JOIN gl_journal_entries e ON e.id = l.journal_entry_id \
         JOIN gl_accounts a ON a.id = l.account_id \
         WHERE a.account_code = ANY($1) AND e.status = 'posted' AND e.entry_date <= $3 \
         GROUP BY a.account_code ORDER BY a.account_code",
    )
    .bind::<Array<Text>, _>(codes)
    .bind::<Date, _>(from)
    .bind::<Date, _>(to)
    .load(conn)
    .await?)
}
