//! REST routes of bulk exports: queue one, list the viewer's, read one, and download the
//! file, served by the engine's file responses (the resolvers check the owner or an admin).

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get(
        "/admin/accounting/order-cost-breakdown/{id}",
        stored_op!("order_cost_breakdown.graphql"),
        "orderCostBreakdown",
    )
    .summary("What a sales order cost to fulfil: materials its production consumed or scrapped, machine and labour time, packaging, against revenue before tax (`revenue`, `costs`, `total_cogs`, `gross_profit`, `gross_margin_pct`; shipping apart)"),
    Route::post(
        "/bulk-exports",
        stored_op!("bulk_export_create.graphql", "bulk_export"),
        "bulkExport.bulk_export",
    )
    .body(Body::Fields)
    .status(202)
    .idempotent()
    .location("/api/v1/bulk-exports/{id}")
    .summary("Queue a bulk export: `{query, format: jsonl|csv, variables}`; the job runs the query as the caller"),
    Route::get(
        "/bulk-exports",
        stored_op!("bulk_exports_list.graphql", "bulk_export"),
        "bulkExports",
    )
    .summary("The caller's bulk exports, newest first (`limit` 1-100, default 20)"),
    Route::get(
        "/bulk-exports/{id}",
        stored_op!("bulk_export_get.graphql", "bulk_export"),
        "bulkExport",
    )
    .summary("One bulk export: status, progress and, once complete, `download_url`"),
    Route::get(
        "/bulk-exports/{id}/download",
        stored_op!("bulk_export_download.graphql"),
        "bulkExportFile",
    )
    .download()
    .summary("A completed bulk export's file (JSONL or CSV): its owner or an admin; 404 once expired"),
];
