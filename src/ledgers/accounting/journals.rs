//! The journals and reports of a date window (CONTRACT 5.18 `/admin/accounting/*`, admins
//! only): the sales journal, the payments journal, the tax summary by month, COGS and gross
//! margin, and a small dashboard of the books.
//!
//! **Everything here is read from the general ledger, not from the orders.** DOMAIN's
//! postings book a sales order's invoice when it ships (Dr 1100 / Cr 4000 + 2100 + 4200,
//! dated the shipment's day) and a payment when it is recorded (Dr 1000 / Cr 1100, dated the
//! payment's day; a refund or a void the reverse). The journal entry is therefore the sale
//! and the cash movement as the books know them: an order that is confirmed but not shipped
//! is not a sale yet, an order's later edits do not rewrite what was invoiced, a voided
//! payment stays in the journal with its reversal, and every total here equals the movement
//! of the same accounts on the trial balance for the same dates. The orders and payments
//! only lend their numbers, customers and methods. SQL lives in [`model`].

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use chrono::{Datelike, NaiveDate};

use crate::ledgers::accounting::ledger::{SystemAccount, cents, month_of};
use crate::ledgers::accounting::model::{self, PaymentEntryKind, WindowTotals};
use crate::ledgers::accounting::payment_kinds::{PaymentMethod, PaymentRecordStatus};
use crate::ledgers::accounting::rules::{self, Window};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::{Page, PageInfo};
use crate::platform::graphql::scalars::Decimal;

/// Largest page of a journal (and the page its CSV export reads at a time).
pub const MAX_JOURNAL_PAGE: i64 = 500;

fn money(value: &BigDecimal) -> Decimal {
    Decimal(cents(value))
}

fn opt_money(value: &Option<BigDecimal>) -> Decimal {
    money(value.as_ref().unwrap_or(&BigDecimal::zero()))
}

fn today() -> NaiveDate {
    chrono::Utc::now().date_naive()
}

fn window(start: Option<NaiveDate>, end: Option<NaiveDate>) -> AppResult<Window> {
    rules::window(start, end, today())
}

/// One invoice of the sales journal.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesJournalRow {
    /// The invoice's journal entry.
    pub journal_entry_id: i64,
    /// Its number, `JE-YYYY-NNNNNN`.
    pub entry_number: String,
    /// The day it was booked (the day the order shipped).
    pub entry_date: NaiveDate,
    /// The sales order.
    pub sales_order_id: Option<i64>,
    /// Its number, `SO-YYYY-NNNN`.
    pub order_number: Option<String>,
    /// The customer, when the order has one.
    pub customer_id: Option<i64>,
    /// The customer's name on the order.
    pub customer_name: Option<String>,
    /// Goods sold (credit to 4000 Sales).
    pub subtotal: Decimal,
    /// Sales tax charged (credit to 2100 Sales tax payable).
    pub tax: Decimal,
    /// Shipping charged (credit to 4200 Shipping revenue).
    pub shipping: Decimal,
    /// What the customer owes (debit to 1100 Accounts receivable).
    pub grand_total: Decimal,
}

/// The sales journal's totals over the whole window (every page).
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesJournalTotals {
    /// Invoices.
    pub invoice_count: i64,
    /// Sum of the subtotals (the window's movement of 4000).
    pub subtotal: Decimal,
    /// Sum of the tax (the invoices' part of 2100).
    pub tax: Decimal,
    /// Sum of the shipping (the window's movement of 4200).
    pub shipping: Decimal,
    /// Sum of the grand totals (the invoices' part of 1100).
    pub grand_total: Decimal,
}

/// The sales journal of a window: one row per invoiced (shipped) sales order, oldest first.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesJournal {
    /// First day of the window.
    pub start_date: NaiveDate,
    /// Last day of the window.
    pub end_date: NaiveDate,
    /// This page of invoices.
    pub rows: Vec<SalesJournalRow>,
    /// Invoices in the window, over all pages.
    pub total_count: i64,
    /// Where this page sits.
    pub page_info: PageInfo,
    /// Totals of the whole window.
    pub totals: SalesJournalTotals,
}

/// One cash entry of the payments journal.
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentsJournalRow {
    /// The cash entry.
    pub journal_entry_id: i64,
    /// Its number.
    pub entry_number: String,
    /// The day it was booked (the payment's day; a void's own day).
    pub entry_date: NaiveDate,
    /// The payment.
    pub payment_id: i64,
    /// Its number, `PAY-YYYY-NNNN`.
    pub payment_number: String,
    /// Payment, refund or void.
    pub kind: PaymentEntryKind,
    /// How it was paid.
    pub payment_method: PaymentMethod,
    /// The payment's status now (`voided` on both the payment and its void).
    pub payment_status: PaymentRecordStatus,
    /// The sales order.
    pub sales_order_id: i64,
    /// Its number.
    pub order_number: String,
    /// The customer's name on the order.
    pub customer_name: Option<String>,
    /// Cash in, signed: refunds and voids of payments are negative (the entry's net debit
    /// to 1000 Cash).
    pub amount: Decimal,
}

/// The payments journal's totals over the whole window.
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentsJournalTotals {
    /// Cash entries.
    pub entry_count: i64,
    /// Payments received.
    pub payments: Decimal,
    /// Refunds paid (negative).
    pub refunds: Decimal,
    /// Voids (reversals of payments are negative, of refunds positive).
    pub voids: Decimal,
    /// Net cash from customers (the window's movement of 1000 from payments).
    pub net: Decimal,
}

/// Net cash of one payment method in the window.
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentMethodTotal {
    /// The method.
    pub payment_method: PaymentMethod,
    /// Cash entries.
    pub entry_count: i64,
    /// Net cash, signed.
    pub amount: Decimal,
}

/// The payments journal of a window: every payment, refund and void booked in it.
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentsJournal {
    /// First day of the window.
    pub start_date: NaiveDate,
    /// Last day of the window.
    pub end_date: NaiveDate,
    /// This page of cash entries, oldest first.
    pub rows: Vec<PaymentsJournalRow>,
    /// Cash entries in the window, over all pages.
    pub total_count: i64,
    /// Where this page sits.
    pub page_info: PageInfo,
    /// Totals of the whole window.
    pub totals: PaymentsJournalTotals,
    /// Totals of the whole window per method, by method.
    pub by_method: Vec<PaymentMethodTotal>,
}

/// Sales and tax of one month of the window.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxPeriod {
    /// The month, `YYYY-MM`.
    pub period: String,
    /// Its first day inside the window.
    pub start_date: NaiveDate,
    /// Its last day inside the window.
    pub end_date: NaiveDate,
    /// Invoices booked.
    pub invoice_count: i64,
    /// Sales (4000) of the invoices that charged tax.
    pub taxable_sales: Decimal,
    /// Sales (4000) of the invoices that charged none.
    pub non_taxable_sales: Decimal,
    /// Tax collected: the net credits to 2100 Sales tax payable.
    pub tax_collected: Decimal,
}

/// The tax summary's totals over the whole window.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxTotals {
    /// Invoices booked.
    pub invoice_count: i64,
    /// Taxable sales.
    pub taxable_sales: Decimal,
    /// Non-taxable sales.
    pub non_taxable_sales: Decimal,
    /// Tax collected (the window's movement of 2100).
    pub tax_collected: Decimal,
}

/// Sales tax of a window by month.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxSummary {
    /// First day of the window.
    pub start_date: NaiveDate,
    /// Last day of the window.
    pub end_date: NaiveDate,
    /// Every month that overlaps the window, oldest first (months without sales too).
    pub periods: Vec<TaxPeriod>,
    /// Totals of the whole window.
    pub totals: TaxTotals,
    /// The window's invoices by tax rate (voids in the window subtract), most tax first.
    pub by_rate: Vec<TaxRateTotal>,
}

/// Sales and tax of a window under one tax rate.
#[derive(Debug, Clone, SimpleObject)]
pub struct TaxRateTotal {
    /// The rate's name as the invoices show it ("No tax" when none was charged).
    pub name: String,
    /// The rate in percent.
    pub rate_percent: f64,
    /// Invoices written less invoices voided.
    pub invoice_count: i64,
    /// Their sales (before tax and shipping).
    pub sales: Decimal,
    /// Their tax.
    pub tax: Decimal,
}

/// Cost of goods sold and gross margin of a window.
#[derive(Debug, Clone, SimpleObject)]
pub struct CogsSummary {
    /// First day of the window.
    pub start_date: NaiveDate,
    /// Last day of the window.
    pub end_date: NaiveDate,
    /// Invoices booked.
    pub invoice_count: i64,
    /// Sales revenue (4000).
    pub sales_revenue: Decimal,
    /// Shipping revenue (4200).
    pub shipping_revenue: Decimal,
    /// Revenue: sales plus shipping.
    pub revenue: Decimal,
    /// Cost of the goods shipped (5000 COGS).
    pub cogs: Decimal,
    /// Packaging shipped with them (5010 Shipping supplies).
    pub packaging: Decimal,
    /// COGS plus packaging.
    pub total_cogs: Decimal,
    /// Revenue minus total COGS.
    pub gross_margin: Decimal,
    /// Gross margin as a percent of revenue (two places); null without revenue.
    pub gross_margin_percent: Option<Decimal>,
}

/// The books' key figures for a window.
#[derive(Debug, Clone, SimpleObject)]
pub struct AccountingDashboard {
    /// First day of the window.
    pub start_date: NaiveDate,
    /// Last day of the window.
    pub end_date: NaiveDate,
    /// Revenue booked in the window (4000 + 4200).
    pub revenue: Decimal,
    /// Cost of goods sold in the window (5000 + 5010).
    pub cogs: Decimal,
    /// Revenue minus COGS.
    pub gross_margin: Decimal,
    /// Gross margin as a percent of revenue (two places); null without revenue.
    pub gross_margin_percent: Option<Decimal>,
    /// What customers owe at the end of the window (1100 balance).
    pub accounts_receivable: Decimal,
    /// Cash at the end of the window (1000 balance).
    pub cash: Decimal,
    /// Sales tax owed at the end of the window (2100 balance).
    pub tax_liability: Decimal,
}

/// Movements of the window and balances at its end, per account code.
struct Movements(Vec<WindowTotals>);

impl Movements {
    fn get(&self, account: SystemAccount) -> Option<&WindowTotals> {
        self.0.iter().find(|t| t.account_code == account.code())
    }

    /// Net credits in the window (revenue, liabilities).
    fn credited(&self, account: SystemAccount) -> BigDecimal {
        self.get(account)
            .map(|t| &t.window_credits - &t.window_debits)
            .unwrap_or_default()
    }

    /// Net debits in the window (expenses).
    fn debited(&self, account: SystemAccount) -> BigDecimal {
        self.get(account)
            .map(|t| &t.window_debits - &t.window_credits)
            .unwrap_or_default()
    }

    /// Debit balance at the end of the window (assets).
    fn debit_balance(&self, account: SystemAccount) -> BigDecimal {
        self.get(account)
            .map(|t| &t.debits - &t.credits)
            .unwrap_or_default()
    }

    fn invoices(&self) -> i64 {
        self.get(SystemAccount::AccountsReceivable)
            .map_or(0, |t| t.invoice_count)
    }
}

async fn movements(
    ctx: &Context<'_>,
    accounts: &[SystemAccount],
    w: Window,
) -> AppResult<Movements> {
    let codes: Vec<&str> = accounts.iter().map(|a| a.code()).collect();
    Ok(Movements(
        model::window_totals(&mut *context::conn(ctx).await?, &codes, w.start, w.end).await?,
    ))
}

/// The books' key figures for a window: revenue, COGS and gross margin booked between two
/// dates, and receivables, cash and sales tax owed at its end.
pub async fn books_dashboard(
    ctx: &Context<'_>,
    start_date: Option<NaiveDate>,
    end_date: Option<NaiveDate>,
) -> AppResult<AccountingDashboard> {
    use SystemAccount::*;
    let w = window(start_date, end_date)?;
    let m = movements(
        ctx,
        &[
            Cash,
            AccountsReceivable,
            SalesTaxPayable,
            SalesRevenue,
            ShippingRevenue,
            CostOfGoodsSold,
            ShippingSupplies,
        ],
        w,
    )
    .await?;
    let revenue = m.credited(SalesRevenue) + m.credited(ShippingRevenue);
    let cogs = m.debited(CostOfGoodsSold) + m.debited(ShippingSupplies);
    let margin = &revenue - &cogs;
    Ok(AccountingDashboard {
        start_date: w.start,
        end_date: w.end,
        gross_margin_percent: percent(&margin, &revenue),
        revenue: money(&revenue),
        cogs: money(&cogs),
        gross_margin: money(&margin),
        accounts_receivable: money(&m.debit_balance(AccountsReceivable)),
        cash: money(&m.debit_balance(Cash)),
        tax_liability: money(&-m.debit_balance(SalesTaxPayable)),
    })
}

/// Margin as a percent of revenue to two places, `None` without revenue.
fn percent(margin: &BigDecimal, revenue: &BigDecimal) -> Option<Decimal> {
    if revenue.is_zero() {
        None
    } else {
        Some(money(&(margin * BigDecimal::from(100) / revenue)))
    }
}

/// Queries of the journals (admins).
#[derive(Default)]
pub struct JournalsQuery;

#[Object]
impl JournalsQuery {
    /// The sales journal: every sales order invoiced (shipped) between two dates, oldest
    /// first, with the window's totals. Read from the invoice entries of the ledger.
    #[graphql(guard = "Access::Admin")]
    async fn sales_journal(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day (default: 30 days up to the end).")] start_date: Option<
            NaiveDate,
        >,
        #[graphql(desc = "Last day (default today).")] end_date: Option<NaiveDate>,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<SalesJournal> {
        let w = window(start_date, end_date)?;
        let page = Page::with_max(Some(first), Some(offset), MAX_JOURNAL_PAGE)?;
        let lines = model::sales_journal(
            &mut *context::conn(ctx).await?,
            w.start,
            w.end,
            page.limit,
            page.offset,
        )
        .await?;
        let totals = lines.first().map_or_else(
            || SalesJournalTotals {
                invoice_count: 0,
                subtotal: money(&BigDecimal::zero()),
                tax: money(&BigDecimal::zero()),
                shipping: money(&BigDecimal::zero()),
                grand_total: money(&BigDecimal::zero()),
            },
            |l| SalesJournalTotals {
                invoice_count: l.total,
                subtotal: money(&l.total_subtotal),
                tax: money(&l.total_tax),
                shipping: money(&l.total_shipping),
                grand_total: money(&l.total_grand_total),
            },
        );
        let rows = lines
            .into_iter()
            .filter_map(|l| {
                Some(SalesJournalRow {
                    journal_entry_id: l.journal_entry_id?,
                    entry_number: l.entry_number.clone()?,
                    entry_date: l.entry_date?,
                    subtotal: opt_money(&l.subtotal),
                    tax: opt_money(&l.tax),
                    shipping: opt_money(&l.shipping),
                    grand_total: opt_money(&l.grand_total),
                    sales_order_id: l.sales_order_id,
                    order_number: l.order_number,
                    customer_id: l.customer_id,
                    customer_name: l.customer_name,
                })
            })
            .collect();
        Ok(SalesJournal {
            start_date: w.start,
            end_date: w.end,
            rows,
            total_count: totals.invoice_count,
            page_info: page.info(totals.invoice_count),
            totals,
        })
    }

    /// The payments journal: every payment, refund and void booked between two dates,
    /// oldest first, with the window's totals overall and per method. Read from the cash
    /// entries of the ledger.
    #[graphql(guard = "Access::Admin")]
    async fn payments_journal(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day (default: 30 days up to the end).")] start_date: Option<
            NaiveDate,
        >,
        #[graphql(desc = "Last day (default today).")] end_date: Option<NaiveDate>,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<PaymentsJournal> {
        let w = window(start_date, end_date)?;
        let page = Page::with_max(Some(first), Some(offset), MAX_JOURNAL_PAGE)?;
        let mut conn = context::conn(ctx).await?;
        let lines =
            model::payments_journal(&mut conn, w.start, w.end, page.limit, page.offset).await?;
        let methods = model::payments_by_method(&mut conn, w.start, w.end).await?;
        drop(conn);
        let zero = BigDecimal::zero();
        let totals = match lines.first() {
            Some(l) => PaymentsJournalTotals {
                entry_count: l.total,
                payments: money(&l.total_payments),
                refunds: money(&l.total_refunds),
                voids: money(&l.total_voids),
                net: money(&l.total_net),
            },
            None => PaymentsJournalTotals {
                entry_count: 0,
                payments: money(&zero),
                refunds: money(&zero),
                voids: money(&zero),
                net: money(&zero),
            },
        };
        let rows = lines
            .into_iter()
            .filter_map(|l| {
                Some(PaymentsJournalRow {
                    journal_entry_id: l.journal_entry_id?,
                    entry_number: l.entry_number?,
                    entry_date: l.entry_date?,
                    payment_id: l.payment_id?,
                    payment_number: l.payment_number?,
                    kind: l.kind?,
                    payment_method: l.payment_method?,
                    payment_status: l.payment_status?,
                    sales_order_id: l.sales_order_id?,
                    order_number: l.order_number?,
                    customer_name: l.customer_name,
                    amount: opt_money(&l.amount),
                })
            })
            .collect();
        Ok(PaymentsJournal {
            start_date: w.start,
            end_date: w.end,
            rows,
            total_count: totals.entry_count,
            page_info: page.info(totals.entry_count),
            totals,
            by_method: methods
                .into_iter()
                .map(|m| PaymentMethodTotal {
                    payment_method: m.payment_method,
                    entry_count: m.count,
                    amount: money(&m.amount),
                })
                .collect(),
        })
    }

    /// Sales tax by month between two dates: taxable and non-taxable sales of the invoices
    /// and the tax collected (net credits to 2100), every month of the window.
    #[graphql(guard = "Access::Admin")]
    async fn tax_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day (default: 30 days up to the end).")] start_date: Option<
            NaiveDate,
        >,
        #[graphql(desc = "Last day (default today).")] end_date: Option<NaiveDate>,
    ) -> AppResult<TaxSummary> {
        let w = window(start_date, end_date)?;
        let mut conn = context::conn(ctx).await?;
        let months = model::tax_by_month(&mut conn, w.start, w.end).await?;
        let by_rate = model::tax_by_rate(&mut conn, w.start, w.end)
            .await?
            .into_iter()
            .map(|r| TaxRateTotal {
                name: r.name,
                rate_percent: crate::master_data::settings::rules::tax_percent(&r.rate),
                invoice_count: r.invoice_count,
                sales: money(&r.sales),
                tax: money(&r.tax),
            })
            .collect();
        let (mut count, mut taxable, mut exempt, mut tax) = (
            0,
            BigDecimal::zero(),
            BigDecimal::zero(),
            BigDecimal::zero(),
        );
        let periods = months
            .into_iter()
            .map(|m| {
                count += m.invoice_count;
                taxable += &m.taxable_sales;
                exempt += &m.non_taxable_sales;
                tax += &m.tax_collected;
                let (first, last) = month_of(m.month);
                TaxPeriod {
                    period: format!("{}-{:02}", m.month.year(), m.month.month()),
                    start_date: first.max(w.start),
                    end_date: last.min(w.end),
                    invoice_count: m.invoice_count,
                    taxable_sales: money(&m.taxable_sales),
                    non_taxable_sales: money(&m.non_taxable_sales),
                    tax_collected: money(&m.tax_collected),
                }
            })
            .collect();
        Ok(TaxSummary {
            start_date: w.start,
            end_date: w.end,
            periods,
            totals: TaxTotals {
                invoice_count: count,
                taxable_sales: money(&taxable),
                non_taxable_sales: money(&exempt),
                tax_collected: money(&tax),
            },
            by_rate,
        })
    }

    /// Cost of goods sold (5000) and packaging (5010) between two dates next to the revenue
    /// (4000 + 4200) booked in the same days, and the gross margin.
    #[graphql(guard = "Access::Admin")]
    async fn cogs_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day (default: 30 days up to the end).")] start_date: Option<
            NaiveDate,
        >,
        #[graphql(desc = "Last day (default today).")] end_date: Option<NaiveDate>,
    ) -> AppResult<CogsSummary> {
        use SystemAccount::*;
        let w = window(start_date, end_date)?;
        let m = movements(
            ctx,
            &[
                AccountsReceivable,
                SalesRevenue,
                ShippingRevenue,
                CostOfGoodsSold,
                ShippingSupplies,
            ],
            w,
        )
        .await?;
        let (sales, shipping) = (m.credited(SalesRevenue), m.credited(ShippingRevenue));
        let (cogs, packaging) = (m.debited(CostOfGoodsSold), m.debited(ShippingSupplies));
        let revenue = &sales + &shipping;
        let total_cogs = &cogs + &packaging;
        let margin = &revenue - &total_cogs;
        Ok(CogsSummary {
            start_date: w.start,
            end_date: w.end,
            invoice_count: m.invoices(),
            sales_revenue: money(&sales),
            shipping_revenue: money(&shipping),
            gross_margin_percent: percent(&margin, &revenue),
            revenue: money(&revenue),
            cogs: money(&cogs),
            packaging: money(&packaging),
            total_cogs: money(&total_cogs),
            gross_margin: money(&margin),
        })
    }

    /// The books' key figures: revenue, COGS and gross margin booked between two dates,
    /// and receivables, cash and sales tax owed at the end of the window.
    #[graphql(guard = "Access::Admin")]
    async fn accounting_dashboard(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day (default: 30 days up to the end).")] start_date: Option<
            NaiveDate,
        >,
        #[graphql(desc = "Last day (default today).")] end_date: Option<NaiveDate>,
    ) -> AppResult<AccountingDashboard> {
        books_dashboard(ctx, start_date, end_date).await
    }
}
