//! The invoice rows (also their GraphQL objects) and the reads on them: the list with its
//! filters, one invoice, the lines, the dashboard summary and the receivables ageing.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::partners::model::PaymentTerms;
use crate::operations::sales::payments::PaymentMethod;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::{invoice_lines, invoices, sales_orders};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Where an invoice stands. Overdue is not stored: it is a sent or partly paid invoice
    /// past its due date (see `isOverdue`).
    pub enum InvoiceStatus {
        /// Written, not sent to the customer yet (already booked to 1100).
        Draft,
        /// Sent to the customer.
        Sent,
        /// Payments cover part of it.
        PartiallyPaid,
        /// Payments cover all of it.
        Paid,
        /// Cancelled by a mirror journal entry; keeps its number.
        Voided,
    }
}

impl InvoiceStatus {
    /// Whether the invoice still asks the customer for money.
    pub fn is_open(self) -> bool {
        matches!(
            self,
            InvoiceStatus::Draft | InvoiceStatus::Sent | InvoiceStatus::PartiallyPaid
        )
    }
}

crate::text_enum! {
    /// Which invoices a list shows: one stored status, or `overdue` (sent or partly paid and
    /// past due), `open` (draft, sent or partly paid) or `all`.
    pub enum InvoiceListStatus {
        /// Every invoice.
        All,
        /// Draft, sent or partly paid.
        Open,
        /// Sent or partly paid and past the due date.
        Overdue,
        /// Drafts.
        Draft,
        /// Sent.
        Sent,
        /// Partly paid.
        PartiallyPaid,
        /// Paid.
        Paid,
        /// Voided.
        Voided,
    }
}

crate::text_enum! {
    /// What an invoice list is sorted by.
    pub enum InvoiceSort {
        /// When it was written (the default, newest first).
        CreatedAt,
        /// When it falls due.
        DueDate,
        /// Its number.
        InvoiceNumber,
        /// Its total.
        Total,
        /// What is still owed.
        AmountDue,
        /// The customer's name.
        CustomerName,
    }
}

/// An invoice: what was billed for a sales order, to whom, on which terms, and what of it is
/// paid. The customer, address, lines, tax and terms are a snapshot taken when it was written.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = invoices, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Invoice", complex)]
pub struct InvoiceRow {
    /// Id.
    pub id: i64,
    /// `INV-YYYY-NNNN`.
    pub invoice_number: String,
    /// The order billed.
    pub sales_order_id: i64,
    /// The shipment it bills, when written at shipment.
    pub shipment_id: Option<i64>,
    /// The customer record, when the order has one.
    pub customer_id: Option<i64>,
    /// Who is billed.
    pub customer_name: Option<String>,
    /// Where the invoice is sent.
    pub customer_email: Option<String>,
    /// The customer's company.
    pub customer_company: Option<String>,
    /// Billing address, first line.
    pub bill_to_line1: Option<String>,
    /// Billing city.
    pub bill_to_city: Option<String>,
    /// Billing state.
    pub bill_to_state: Option<String>,
    /// Billing postal code.
    pub bill_to_zip: Option<String>,
    /// The customer's terms when it was written.
    pub payment_terms: PaymentTerms,
    /// The day it was written (and booked).
    pub invoice_date: NaiveDate,
    /// When payment is due: the invoice date plus the terms' days.
    pub due_date: NaiveDate,
    /// Sum of the lines.
    pub subtotal: Decimal,
    /// Discount off the subtotal.
    pub discount_amount: Decimal,
    /// The tax rate applied (a fraction: 0.0825).
    pub tax_rate: Decimal,
    /// Tax.
    pub tax_amount: Decimal,
    /// Shipping charged.
    pub shipping_amount: Decimal,
    /// Subtotal less discount plus tax and shipping.
    pub total: Decimal,
    /// Where it stands (overdue is `isOverdue`).
    pub status: InvoiceStatus,
    /// What the order's payments cover of it (applied to its invoices oldest first).
    pub amount_paid: Decimal,
    /// When payments first covered it whole.
    pub paid_at: Option<Timestamp>,
    /// How the latest payment applied to it was made.
    pub payment_method: Option<PaymentMethod>,
    /// That payment's reference.
    pub payment_reference: Option<String>,
    /// When it was last sent.
    pub sent_at: Option<Timestamp>,
    /// To whom.
    pub sent_to: Option<String>,
    /// When it was voided.
    pub voided_at: Option<Timestamp>,
    /// Who voided it.
    pub voided_by_id: Option<i64>,
    /// Why.
    pub void_reason: Option<String>,
    /// Its receivable journal entry (Dr 1100 / Cr 4000, 2100, 4200).
    pub journal_entry_id: Option<i64>,
    /// Who wrote it.
    pub created_by: Option<i64>,
    /// Written.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// What the tax is called on the invoice (the order's rate name).
    pub tax_rate_name: Option<String>,
}

impl InvoiceRow {
    /// What is still owed on it (nothing once voided).
    pub fn balance_due(&self) -> BigDecimal {
        if self.status == InvoiceStatus::Voided {
            return BigDecimal::from(0);
        }
        &self.total.0 - &self.amount_paid.0
    }

    /// Days past the due date on `today` while it is still owed; 0 otherwise.
    pub fn overdue_days(&self, today: NaiveDate) -> i64 {
        if matches!(
            self.status,
            InvoiceStatus::Sent | InvoiceStatus::PartiallyPaid
        ) && today > self.due_date
        {
            (today - self.due_date).num_days()
        } else {
            0
        }
    }
}

/// One line of an invoice.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = invoice_lines, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "InvoiceLine")]
pub struct InvoiceLineRow {
    /// Id.
    pub id: i64,
    /// The invoice.
    pub invoice_id: i64,
    /// The order line it bills, if one.
    pub sales_order_line_id: Option<i64>,
    /// The item, if one.
    pub product_id: Option<i64>,
    /// The item's SKU then.
    pub sku: Option<String>,
    /// What is billed.
    pub description: String,
    /// How many.
    pub quantity: Decimal,
    /// Price of one.
    pub unit_price: Decimal,
    /// The item's list price when it differs from the price billed.
    pub base_price: Option<Decimal>,
    /// Discount off the list price, in percent.
    pub discount_percent: Option<Decimal>,
    /// Quantity times price (negative for what earlier invoices already billed).
    pub line_total: Decimal,
}

/// How invoices are listed.
#[derive(Debug, Clone, Default)]
pub struct InvoiceFilter {
    /// Which statuses.
    pub status: Option<InvoiceListStatus>,
    /// Number, customer name, company or e-mail contains this.
    pub search: Option<String>,
    /// One order's invoices.
    pub sales_order_id: Option<i64>,
    /// One customer's invoices.
    pub customer_id: Option<i64>,
    /// Sorted by.
    pub sort_by: Option<InvoiceSort>,
    /// Which way.
    pub sort_order: Option<SortOrder>,
    /// The day overdue is judged on.
    pub today: NaiveDate,
}

/// The statuses that are still owed and can be overdue.
const DUNNABLE: [InvoiceStatus; 2] = [InvoiceStatus::Sent, InvoiceStatus::PartiallyPaid];
/// The statuses that still ask for money.
const OPEN: [InvoiceStatus; 3] = [
    InvoiceStatus::Draft,
    InvoiceStatus::Sent,
    InvoiceStatus::PartiallyPaid,
];

/// A page of invoices and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &InvoiceFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<InvoiceRow>, i64)> {
    let build = || {
        let mut q = invoices::table
            .select((InvoiceRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(id) = filter.sales_order_id {
            q = q.filter(invoices::sales_order_id.eq(id));
        }
        if let Some(id) = filter.customer_id {
            q = q.filter(invoices::customer_id.eq(id));
        }
        q = match filter.status.unwrap_or(InvoiceListStatus::All) {
            InvoiceListStatus::All => q,
            InvoiceListStatus::Open => q.filter(invoices::status.eq_any(OPEN)),
            InvoiceListStatus::Overdue => q
                .filter(invoices::status.eq_any(DUNNABLE))
                .filter(invoices::due_date.lt(filter.today)),
            InvoiceListStatus::Draft => q.filter(invoices::status.eq(InvoiceStatus::Draft)),
            InvoiceListStatus::Sent => q.filter(invoices::status.eq(InvoiceStatus::Sent)),
            InvoiceListStatus::PartiallyPaid => {
                q.filter(invoices::status.eq(InvoiceStatus::PartiallyPaid))
            }
            InvoiceListStatus::Paid => q.filter(invoices::status.eq(InvoiceStatus::Paid)),
            InvoiceListStatus::Voided => q.filter(invoices::status.eq(InvoiceStatus::Voided)),
        };
        if let Some(text) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            let like = crate::platform::db::like_pattern(text);
            q = q.filter(
                invoices::invoice_number
                    .ilike(like.clone())
                    .or(invoices::customer_name.ilike(like.clone()))
                    .or(invoices::customer_company.ilike(like.clone()))
                    .or(invoices::customer_email.ilike(like.clone()))
                    .or(invoices::sales_order_id.eq_any(
                        sales_orders::table
                            .filter(sales_orders::order_number.ilike(like))
                            .select(sales_orders::id),
                    )),
            );
        }
        let desc = filter.sort_order.unwrap_or(SortOrder::Desc) == SortOrder::Desc;
        q = match (filter.sort_by.unwrap_or(InvoiceSort::CreatedAt), desc) {
            (InvoiceSort::CreatedAt, true) => q.order(invoices::created_at.desc()),
            (InvoiceSort::CreatedAt, false) => q.order(invoices::created_at.asc()),
            (InvoiceSort::DueDate, true) => q.order(invoices::due_date.desc()),
            (InvoiceSort::DueDate, false) => q.order(invoices::due_date.asc()),
            (InvoiceSort::InvoiceNumber, true) => q.order(invoices::invoice_number.desc()),
            (InvoiceSort::InvoiceNumber, false) => q.order(invoices::invoice_number.asc()),
            (InvoiceSort::Total, true) => q.order(invoices::total.desc()),
            (InvoiceSort::Total, false) => q.order(invoices::total.asc()),
            (InvoiceSort::AmountDue, true) => {
                q.order((invoices::total - invoices::amount_paid).desc())
            }
            (InvoiceSort::AmountDue, false) => {
                q.order((invoices::total - invoices::amount_paid).asc())
            }
            (InvoiceSort::CustomerName, true) => q.order(invoices::customer_name.desc()),
            (InvoiceSort::CustomerName, false) => q.order(invoices::customer_name.asc()),
        };
        if desc {
            q.then_order_by(invoices::id.desc())
        } else {
            q.then_order_by(invoices::id.asc())
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// One invoice.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<InvoiceRow>> {
    Ok(invoices::table
        .find(id)
        .select(InvoiceRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// One invoice, locked for the rest of the transaction.
pub async fn lock(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<InvoiceRow>> {
    Ok(invoices::table
        .find(id)
        .select(InvoiceRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?)
}

/// The invoices of these orders, oldest first.
pub async fn of_orders(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<InvoiceRow>> {
    Ok(invoices::table
        .filter(invoices::sales_order_id.eq_any(order_ids))
        .order((invoices::sales_order_id, invoices::id))
        .select(InvoiceRow::as_select())
        .load(conn)
        .await?)
}

/// What an order's live (not voided) invoices bill in total.
pub async fn invoiced_total(conn: &mut AsyncPgConnection, order_id: i64) -> AppResult<BigDecimal> {
    let total: Option<BigDecimal> = invoices::table
        .filter(invoices::sales_order_id.eq(order_id))
        .filter(invoices::status.ne(InvoiceStatus::Voided))
        .select(diesel::dsl::sum(invoices::total))
        .first(conn)
        .await?;
    Ok(total.unwrap_or_default())
}

/// The lines of these invoices, in order.
pub async fn lines_of(
    conn: &mut AsyncPgConnection,
    invoice_ids: &[i64],
) -> AppResult<Vec<InvoiceLineRow>> {
    Ok(invoice_lines::table
        .filter(invoice_lines::invoice_id.eq_any(invoice_ids))
        .order((invoice_lines::invoice_id, invoice_lines::id))
        .select(InvoiceLineRow::as_select())
        .load(conn)
        .await?)
}

/// The invoices' dashboard figures (`GET /invoices/summary`).
#[derive(Debug, Clone, QueryableByName, SimpleObject)]
pub struct InvoiceSummary {
    /// Sent or partly paid invoices past their due date.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub overdue_count: i64,
    /// What they still owe.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub overdue_amount: Decimal,
    /// Everything still owed on draft, sent and partly paid invoices.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_ar: Decimal,
    /// How many invoices are still owed on.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub open_count: i64,
    /// Drafts not sent yet.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub draft_count: i64,
    /// Paid in full in the last 30 days.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub paid_last_30_days: Decimal,
}

/// The invoices' dashboard figures on `today`.
pub async fn summary(conn: &mut AsyncPgConnection, today: NaiveDate) -> AppResult<InvoiceSummary> {
    Ok(diesel::sql_query(
        "SELECT COUNT(*) FILTER (WHERE status IN ('sent', 'partially_paid') AND due_date < $1) AS overdue_count, \
                COALESCE(SUM(total - amount_paid) FILTER (WHERE status IN ('sent', 'partially_paid') AND due_date < $1), 0) AS overdue_amount, \
                COALESCE(SUM(total - amount_paid) FILTER (WHERE status IN ('draft', 'sent', 'partially_paid')), 0) AS total_ar, \
                COUNT(*) FILTER (WHERE status IN ('draft', 'sent', 'partially_paid')) AS open_count, \
                COUNT(*) FILTER (WHERE status = 'draft') AS draft_count, \
                COALESCE(SUM(total) FILTER (WHERE status = 'paid' AND paid_at >= $1 - 30), 0) AS paid_last_30_days \
         FROM invoices",
    )
    .bind::<diesel::sql_types::Date, _>(today)
    .get_result(conn)
    .await?)
}

/// What is owed, by how late it is: not yet due, 1-30, 31-60, 61-90 and over 90 days past
/// the due date.
#[derive(Debug, Clone, QueryableByName, SimpleObject)]
pub struct AgingRow {
    /// The customer (none: orders without a customer record, and the totals row).
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    pub customer_id: Option<i64>,
    /// Who (the name on the latest invoice; `Total` on the totals row).
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub customer_name: String,
    /// Not yet due.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub current: Decimal,
    /// 1 to 30 days past due.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub days_1_30: Decimal,
    /// 31 to 60 days past due.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub days_31_60: Decimal,
    /// 61 to 90 days past due.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub days_61_90: Decimal,
    /// More than 90 days past due.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub over_90: Decimal,
    /// All of it.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total: Decimal,
    /// Open invoices.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub invoice_count: i64,
    /// The earliest due date among them.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Date>)]
    pub oldest_due_date: Option<NaiveDate>,
}

/// The receivables ageing on `today`: one row per customer owing, largest balance first,
/// and the totals row last (`customer_id` none, `Total`).
pub async fn aging(conn: &mut AsyncPgConnection, today: NaiveDate) -> AppResult<Vec<AgingRow>> {
    Ok(diesel::sql_query(
        "WITH open AS ( \
           SELECT customer_id, COALESCE(customer_company, customer_name, 'Unknown customer') AS name, id, \
                  total - amount_paid AS due, $1 - due_date AS late, due_date \
           FROM invoices WHERE status IN ('draft', 'sent', 'partially_paid') AND total - amount_paid <> 0 \
         ), buckets AS ( \
           SELECT customer_id, (array_agg(name ORDER BY id DESC))[1] AS customer_name, \
                  COALESCE(SUM(due) FILTER (WHERE late <= 0), 0) AS current, \
                  COALESCE(SUM(due) FILTER (WHERE late BETWEEN 1 AND 30), 0) AS days_1_30, \
                  COALESCE(SUM(due) FILTER (WHERE late BETWEEN 31 AND 60), 0) AS days_31_60, \
                  COALESCE(SUM(due) FILTER (WHERE late BETWEEN 61 AND 90), 0) AS days_61_90, \
                  COALESCE(SUM(due) FILTER (WHERE late > 90), 0) AS over_90, \
                  SUM(due) AS total, COUNT(*) AS invoice_count, MIN(due_date) AS oldest_due_date \
           FROM open GROUP BY customer_id, CASE WHEN customer_id IS NULL THEN name END \
         ) \
         SELECT * FROM (SELECT * FROM buckets ORDER BY total DESC, customer_name) b \
         UNION ALL \
         SELECT NULL, 'Total', COALESCE(SUM(current), 0), COALESCE(SUM(days_1_30), 0), \
                COALESCE(SUM(days_31_60), 0), COALESCE(SUM(days_61_90), 0), COALESCE(SUM(over_90), 0), \
                COALESCE(SUM(total), 0), COALESCE(SUM(invoice_count), 0)::bigint, MIN(oldest_due_date) \
         FROM buckets",
    )
    .bind::<diesel::sql_types::Date, _>(today)
    .load(conn)
    .await?)
}
