//! REST routes of the books (CONTRACT 5.18; admins only, spec 4.5): declarations only.

use crate::auth::Access::Admin;
use crate::rest::{Body, Export, Route};

use crate::stored_op;

/// An account's ledger exports page by page (`?format=csv|ndjson`).
const LEDGER_EXPORT: Export = Export {
    rows: "lines",
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
];
