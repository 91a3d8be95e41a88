//! REST routes of the books (CONTRACT 5.18; admins only, spec 4.5) and of the inventory
//! and transaction audit trail (CONTRACT 5.17; public in the original, admins only here:
//! nothing with business data is public): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Export, Route};

use crate::stored_op;

/// An account's ledger exports page by page (`?format=csv|ndjson`).
const LEDGER_EXPORT: Export = Export {
    rows: "lines",
    limit: "limit",
    offset: "offset",
    page_size: 500,
};

/// A journal's CSV export reads the journal page by page.
const fn journal_export(page_size: i64) -> Export {
    Export {
        rows: "rows",
        limit: "limit",
        offset: "offset",
        page_size,
    }
}

/// The tax summary answers every month at once: its export runs once.
const TAX_EXPORT: Export = Export {
    rows: "periods",
    limit: "",
    offset: "",
    page_size: 0,
};

/// The audit trail exports page by page (`?format=csv|ndjson`).
const AUDIT_EXPORT: Export = Export {
    rows: "items",
    limit: "limit",
    offset: "offset",
    page_size: 500,
};

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/accounting/trial-balance", include_str!("rest/trial_balance.graphql"), "trialBalance")
        .access(Admin)
        .summary("Trial balance as of `as_of_date` (default today): balances on their normal side, totals, `is_balanced`"),
    Route::get("/accounting/accounts", stored_op!("accounts.graphql", "account"), "glAccounts")
        .access(Admin)
        .summary("The chart of accounts by code (`active_only`, default true)"),
    Route::get("/accounting/ledger/{account_code}", include_str!("rest/ledger.graphql"), "accountLedger")
        .access(Admin)
        .flatten(&["account", "page"])
        .export(LEDGER_EXPORT)
        .summary("One account's lines oldest first with running balances (`start_date`, `end_date`, `limit` up to 500, `offset`; `format=csv` streams every line)"),
    Route::get("/accounting/inventory-valuation", include_str!("rest/inventory_valuation.graphql"), "inventoryValuation")
        .access(Admin)
        .summary("Stock value by inventory account (1200, 1220, 1230) next to the ledger balance"),
    Route::get("/accounting/summary", include_str!("rest/summary.graphql"), "accountingSummary")
        .access(Admin)
        .summary("Headline figures: assets, liabilities, equity, revenue, expenses, net income, inventory"),
    Route::get("/accounting/recent-entries", stored_op!("recent_entries.graphql", "entry"), "journalEntries.nodes")
        .access(Admin)
        .summary("Recent journal entries with their lines, newest first (`limit` up to 250, default 20)"),
    Route::get("/accounting/journal-entries/{id}", stored_op!("entry_get.graphql", "entry"), "journalEntry")
        .access(Admin)
        .summary("One journal entry with its lines"),
    Route::get("/accounting/periods", stored_op!("periods.graphql", "period"), "fiscalPeriods")
        .access(Admin)
        .summary("Fiscal periods (calendar months), newest first"),
    Route::post("/accounting/periods/{id}/close", stored_op!("period_close.graphql", "period"), "fiscalPeriodClose.period")
        .body(Body::Fields)
        .access(Admin)
        .summary("Close a period (`{\"confirm\": true}`): postings dated in it are refused from then on"),
    Route::post("/accounting/periods/{id}/reopen", stored_op!("period_reopen.graphql", "period"), "fiscalPeriodReopen.period")
        .access(Admin)
        .summary("Reopen a closed period"),
    Route::get("/admin/accounting/sales-journal", stored_op!("sales_journal.graphql", "sales_journal_row"), "salesJournal")
        .access(Admin)
        .flatten(&["page"])
        .export(journal_export(500))
        .summary("Sales journal: one row per sales order invoiced (shipped) between `start_date` and `end_date` (default the last 30 days), from the invoice entries (Dr 1100 / Cr 4000 + 2100 + 4200), oldest first, with the window's totals (`limit` up to 500, `offset`)"),
    Route::get("/admin/accounting/sales-journal/export", stored_op!("sales_journal_export.graphql", "sales_journal_row"), "salesJournal")
        .access(Admin)
        .csv_export(journal_export(500))
        .summary("The sales journal of the window as a CSV file (every row)"),
    Route::get("/admin/accounting/payments-journal", stored_op!("payments_journal.graphql", "payments_journal_row"), "paymentsJournal")
        .access(Admin)
        .flatten(&["page"])
        .export(journal_export(500))
        .summary("Payments journal: every payment, refund and void booked between `start_date` and `end_date` (default the last 30 days), amounts signed (the cash entries, 1000), oldest first, with totals overall and by method (`limit` up to 500, `offset`)"),
    Route::get("/admin/accounting/payments-journal/export", stored_op!("payments_journal_export.graphql", "payments_journal_row"), "paymentsJournal")
        .access(Admin)
        .csv_export(journal_export(500))
        .summary("The payments journal of the window as a CSV file (every row)"),
    Route::get("/admin/accounting/tax-summary", stored_op!("tax_summary.graphql", "tax_period"), "taxSummary")
        .access(Admin)
        .export(TAX_EXPORT)
        .summary("Sales tax by month between `start_date` and `end_date` (default the last 30 days): taxable and non-taxable sales of the invoices, tax collected (net credits to 2100), and totals"),
    Route::get("/admin/accounting/tax-summary/export", stored_op!("tax_summary_export.graphql", "tax_period"), "taxSummary")
        .access(Admin)
        .csv_export(TAX_EXPORT)
        .summary("The tax summary's months as a CSV file"),
    Route::get("/admin/accounting/cogs-summary", include_str!("rest/cogs_summary.graphql"), "cogsSummary")
        .access(Admin)
        .summary("COGS (5000) and packaging (5010) between `start_date` and `end_date` (default the last 30 days) next to revenue (4000 + 4200): gross margin and its percent"),
    Route::get("/admin/accounting/dashboard", include_str!("rest/accounting_dashboard.graphql"), "accountingOverview")
        .access(Admin)
        .flatten(&["window"])
        .summary("The books' figures of the window (default the last 30 days: `window_revenue`, `window_cogs`, `gross_margin`, `gross_margin_percent`; receivables, cash and tax owed at its end) and FilaOps's month- and year-to-date blocks: `revenue`, `payments`, `tax`, `cogs`, `profit`, `unjournaled_txn_count`"),
    Route::get("/admin/audit/transactions", stored_op!("audit_transactions.graphql", "trail_transaction"), "inventoryTransactions")
        .access(Admin)
        .flatten(&["page"])
        .export(AUDIT_EXPORT)
        .summary("The inventory ledger as an audit trail, newest first: the `/admin/inventory/transactions` resolver (`product_id`, `reference_type`, `reference_id`, `transaction_type`, `location_id`, `start_date`, `end_date`, `limit` up to 500, `offset`; `format=csv` streams every row): `{items, total, limit, offset}`"),
    Route::get("/admin/audit/transactions/summary", include_str!("rest/audit_summary.graphql"), "inventoryTransactionSummary")
        .access(Admin)
        .summary("Stock transactions by type between `start_date` and `end_date` (default the last 30 days; `product_id`, `reference_type`): count, items, quantity, value"),
    Route::get("/admin/audit/transactions/order/{id}", stored_op!("audit_order.graphql", "trail_transaction", "entry"), "salesOrderAudit")
        .access(Admin)
        .summary("Every stock transaction and journal entry of a sales order, its payments and the production orders made for it, oldest first"),
    Route::get("/admin/audit/transactions/timeline/{id}", include_str!("rest/audit_timeline.graphql"), "salesOrderAudit")
        .access(Admin)
        .summary("A sales order's stock transactions and journal entries merged into one timeline, oldest first"),
];
