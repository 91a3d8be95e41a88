//! REST routes of stock (CONTRACT 5.8; admins only, spec 4.5): declarations only. Every spec
//! path is served with the original's spelling as an alias.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Export, Route};

use crate::stored_op;

/// The ledger exports page by page (`?format=csv|ndjson`).
const TRANSACTION_EXPORT: Export = Export {
    rows: "",
    limit: "limit",
    offset: "offset",
    page_size: 500,
};

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/admin/inventory-transactions/", stored_op!("transactions_list.graphql", "transaction"), "inventoryTransactions.nodes")
        .aliases(&["/admin/inventory/transactions"])
        .access(Admin)
        .export(TRANSACTION_EXPORT)
        .summary("Stock transactions newest first, a bare array (`product_id`, `transaction_type`, `location_id`, `reference_type`, `reference_id`, `search`, `pending_approval`, `limit` up to 500, `offset`; `format=csv` streams every row)"),
    Route::post("/admin/inventory-transactions/", stored_op!("transaction_create.graphql", "transaction"), "inventoryTransactionCreate.transaction")
        .aliases(&["/admin/inventory/transactions"])
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .access(Admin)
        .summary("Post a receipt, issue, transfer (an issue plus a receipt), adjustment, consumption or scrap, with its journal entry"),
    Route::get("/admin/inventory/transactions/locations", include_str!("rest/locations.graphql"), "locations.nodes")
        .access(Admin)
        .summary("Active locations for stock forms: `[{id, name, code, type}]`"),
    Route::get("/admin/inventory/transactions/adjustment-reasons", include_str!("rest/adjustment_reasons.graphql"), "adjustmentReasons")
        .access(Admin)
        .summary("The reasons an adjustment can give: `[{code, name, description}]`"),
    Route::get("/inventory/cycle-count/", stored_op!("inventory_summary.graphql", "balance"), "inventorySummary")
        .aliases(&["/admin/inventory/transactions/inventory-summary"])
        .access(Admin)
        .flatten(&["page"])
        .summary("Stock per item and location by SKU (`location_id`, `category_id`, `search`, `show_zero`, `limit` up to 500, `offset`): `{items, total, limit, offset}`"),
    Route::post("/inventory/cycle-count/", include_str!("rest/cycle_count.graphql"), "cycleCountRecord.result")
        .aliases(&["/admin/inventory/transactions/batch", "/admin/inventory/reconciliation/count"])
        .body(Body::Fields)
        .idempotent()
        .access(Admin)
        .summary("Record a count (`items: [{product_id, counted_quantity, reason}]`, or one item as FilaOps's reconciliation sends it: `product_id`, `counted_qty`, `notes?`; `location_id?`, `count_reference?`): each variance an adjustment and a journal entry, one database transaction"),
    Route::get("/admin/inventory/reconciliation", stored_op!("reconciliation.graphql", "balance"), "inventoryReconciliation")
        .access(Admin)
        .flatten(&["lines", "page"])
        .summary("A location's reconciliation (`location_id` default the first warehouse, `since` default today 00:00 UTC, `category_id`, `search`, `remaining_only`, `limit` up to 500, `offset`): `{location_id, since, balances, counted, remaining, items, total, limit, offset}`; count lines through `POST .../reconciliation/count`"),
    Route::post("/admin/inventory/reconciliation/count/all-to-stored", include_str!("rest/confirm_stored.graphql"), "inventoryConfirmStored.result")
        .body(Body::Fields)
        .access(Admin)
        .summary("Take every balance at the location not counted since `since` (default today) as counted at its stored quantity (`location_id?`, `since?`): `{location_id, confirmed, counted_at}`; moves no stock"),
    Route::post("/inventory/adjust-quantity", include_str!("rest/adjust_quantity.graphql"), "inventoryAdjustQuantity.result")
        .body(Body::Input("input"))
        .idempotent()
        .access(Admin)
        .summary("Correct one item's quantity (`product_id`, `location_id?`, `new_quantity` or `quantity_change`, `reason`, `notes?`): an adjustment and its journal entry; `{product_id, previous_quantity, new_quantity, variance, transaction_id, journal_entry_id}`"),
    Route::get("/admin/inventory/transactions/{id}", stored_op!("transaction_get.graphql", "transaction"), "inventoryTransaction")
        .access(Admin)
        .summary("One stock transaction"),
    Route::post("/inventory/transactions/{id}/approve-negative", stored_op!("transaction_approve.graphql", "transaction"), "inventoryTransactionApprove.transaction")
        .access(Admin)
        .summary("Approve a transaction that took stock below zero"),
    Route::get("/inventory/negative-inventory-report", stored_op!("negative_report.graphql", "transaction"), "negativeInventoryReport")
        .access(Admin)
        .summary("Movements that took stock below zero (negative adjustments, movements held for approval; `start_date?`, `end_date?`, `include_approved=true`, `include_pending=true`), newest first: `{report_period, total_transactions, pending_approvals, approved_transactions, voided_transactions, transactions: [{transaction_id, display_status, ...}]}`"),
    Route::post("/inventory/validate-consistency", include_str!("rest/consistency.graphql"), "inventoryConsistency")
        .access(Admin)
        .summary("Check that every balance equals the sum of its ledger rows: `{consistent, mismatches}`"),
];
