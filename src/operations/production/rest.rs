//! REST routes of production (CONTRACT 5.12; staff, i.e. any signed-in user): declarations
//! only. The scrap reasons stay at `/production-orders/scrap-reasons` (their own area).

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/production-orders/", stored_op!("production_orders_list.graphql", "production_operation", "production_material"), "productionOrders.nodes")
        .summary("Production orders, a bare array ordered by priority, due date (none last), newest first (`status`, `product_id`, `sales_order_id`, `priority`, `due_before`, `due_after`, `search`, `sort_by` code|product_sku|status|priority|due_date|quantity_ordered|scheduled_start|created_at, `sort_order`, `limit` up to 500, `offset`), each with its operations and materials"),
    Route::post("/production-orders/", stored_op!("production_order_create.graphql", "production_order", "production_operation", "production_material"), "productionOrderCreate.order")
        .body(Body::Input("input"))
        .idempotent()
        .summary("Create a draft order `WO-YYYY-NNNN` (200; the product's active BOM and routing unless named)"),
    Route::get("/production-orders/status-transitions", stored_op!("production_order_status_transitions.graphql"), "productionOrderStatusTransitions")
        .summary("The order status flow of CONTRACT 6.2 with `short` (`current_status` for one status's moves): `{statuses, transitions: {s: {allowed_transitions, is_terminal}}, terminal_statuses}`"),
    Route::get("/production-orders/operation-statuses", stored_op!("production_operation_statuses.graphql"), "productionOperationStatuses")
        .summary("The operation status flow of CONTRACT 6.2, in the same shape"),
    Route::get("/production-orders/qc-statuses", stored_op!("production_qc_statuses.graphql"), "productionQcStatuses")
        .summary("The QC status flow of CONTRACT 6.2 (and a failed order's re-inspection), in the same shape"),
    Route::get("/production-orders/{id}", stored_op!("production_order_get.graphql", "production_order", "production_operation", "production_material"), "productionOrder")
        .summary("One order with its operations, materials (reserved and consumed), spools and serial numbers"),
    Route::put("/production-orders/{id}", stored_op!("production_order_update.graphql", "production_order", "production_operation", "production_material"), "productionOrderUpdate.order")
        .body(Body::Input("input"))
        .summary("Change an order (400 `Cannot update {status} production order` when complete or cancelled)"),
    Route::put("/production-orders/{id}/schedule", stored_op!("production_order_schedule.graphql", "production_order", "production_operation", "production_material"), "productionOrderUpdate.order")
        .body(Body::Fields)
        .summary("Plan an order: `scheduled_start` (required) and `scheduled_end` (422 when it is before the start; 400 `Cannot update {status} production order` when complete or cancelled)"),
    Route::delete("/production-orders/{id}", include_str!("rest/production_order_delete.graphql"), "productionOrderDelete")
        .summary("Delete a draft order (400 `Only draft orders can be deleted` otherwise)"),
    Route::post("/production-orders/{id}/release", stored_op!("production_order_release.graphql", "production_order", "production_operation", "production_material"), "productionOrderRelease.result")
        .idempotent()
        .flatten(&["order"])
        .summary("Release: BOM snapshotted and its components reserved, routing copied into operations (the first queued)"),
    Route::post("/production-orders/{id}/start", stored_op!("production_order_start.graphql", "production_order", "production_operation", "production_material"), "productionOrderStart.order")
        .idempotent()
        .summary("Start: the components that are not filament are issued (1210 WIP / 1200 Raw)"),
    Route::post("/production-orders/{id}/hold", stored_op!("production_order_hold.graphql", "production_order", "production_operation", "production_material"), "productionOrderHold.order")
        .summary("Put on hold (`notes` query parameter)"),
    Route::post("/production-orders/{id}/accept-short", stored_op!("production_order_accept_short.graphql", "production_order", "production_operation", "production_material"), "productionOrderAcceptShort.order")
        .summary("Accept that an order in progress falls short (`short`; `notes` query parameter): it then completes with what was made, without `force_close_short`, or is cancelled"),
    Route::post("/production-orders/{id}/cancel", stored_op!("production_order_cancel.graphql", "production_order", "production_operation", "production_material"), "productionOrderCancel.order")
        .idempotent()
        .summary("Cancel: reservations released, consumed value written off (5020 / 1210)"),
    Route::post("/production-orders/{id}/consume-spool", stored_op!("production_order_consume_spool.graphql", "production_order", "production_operation", "production_material"), "productionOrderConsumeSpool.order")
        .body(Body::Fields)
        .idempotent()
        .summary("Consume filament from a named spool (`spool_id`, `weight_consumed_g`): spool weight, usage history, 1210 WIP / 1200 Raw"),
    Route::post("/production-orders/{id}/complete", stored_op!("production_order_complete.graphql", "production_order", "production_operation", "production_material"), "productionOrderComplete.order")
        .body(Body::Input("input"))
        .idempotent()
        .summary("Complete (`quantity_completed`, `quantity_scrapped`, `force_close_short`, `notes`, `spools_used`, `scrap_reason`): finished goods at actual cost (1220 / 1210), scrapped share 5020 / 1210, serial numbers, QC pending"),
    Route::post("/production-orders/{id}/split", stored_op!("production_order_split.graphql", "production_order", "production_operation", "production_material"), "productionOrderSplit")
        .body(Body::Fields)
        .idempotent()
        .flatten(&["order"])
        .summary("Split a released order (`splits: [{quantity}]`, at least 2, adding up to the ordered quantity)"),
    Route::post("/production-orders/{id}/scrap", stored_op!("production_order_scrap.graphql", "production_order", "production_operation", "production_material"), "productionOrderScrap")
        .idempotent()
        .flatten(&["order"])
        .summary("Scrap a released or in-progress order (`scrap_reason`, `quantity_scrapped`, `notes`, `create_remake` default true): WIP to 5020, a remake order"),
    Route::put("/production-orders/{order_id}/operations/{operation_id}", stored_op!("production_operation_schedule.graphql", "production_operation", "production_material"), "productionOperationSchedule.operation")
        .body(Body::Input("input"))
        .summary("Plan an operation (`scheduled_start`, `scheduled_end`, `printer_id`)"),
    Route::post("/production-orders/{order_id}/operations/{operation_id}/schedule", stored_op!("production_operation_schedule.graphql", "production_operation", "production_material"), "productionOperationSchedule.operation")
        .body(Body::Input("input"))
        .summary("Plan an operation (`scheduled_start`, `scheduled_end`, `printer_id`)"),
    Route::post("/production-orders/{order_id}/operations/{operation_id}/start", stored_op!("production_operation_start.graphql", "production_operation", "production_material"), "productionOperationStart.operation")
        .body(Body::Input("input"))
        .summary("Start a queued operation (`printer_id`, `operator_name`, `notes`); refused with the first blocking issue"),
    Route::post("/production-orders/{order_id}/operations/{operation_id}/complete", stored_op!("production_operation_complete.graphql", "production_operation", "production_material"), "productionOperationComplete.operation")
        .body(Body::Input("input"))
        .summary("Complete a running operation (`quantity_completed`, `quantity_scrapped`, `actual_setup_minutes`, `actual_run_minutes`, `notes`)"),
    Route::post("/production-orders/{order_id}/operations/{operation_id}/skip", stored_op!("production_operation_skip.graphql", "production_operation", "production_material"), "productionOperationSkip.operation")
        .summary("Skip a pending or queued operation (`notes`)"),
    Route::get("/production-orders/{id}/operations", stored_op!("production_order_operations.graphql", "production_operation", "production_material"), "productionOrder.operations")
        .summary("The order's operations in sequence, each with its materials"),
    Route::get("/production-orders/{id}/blocking-issues", stored_op!("production_order_blocking_issues.graphql"), "productionOrderBlockingIssues")
        .summary("Why the order cannot go on now: `{production_order_id, code, status, can_proceed, blocking_issues: [text]}` (status, missing material, printer of its next operation)"),
    Route::get("/production-orders/{order_id}/operations/{operation_id}/can-start", include_str!("rest/production_operation_check.graphql"), "productionOperationBlockingIssues")
        .summary("Whether the operation can start now: `{can_start, blocking_issues}` (`printer_id` to check a printer)"),
    Route::get("/production-orders/{order_id}/operations/{operation_id}/blocking-issues", include_str!("rest/production_operation_check.graphql"), "productionOperationBlockingIssues")
        .summary("What blocks the operation: missing material, printer busy or in maintenance, earlier steps"),
    Route::get("/work-centers/", stored_op!("work_centers_list.graphql", "work_center"), "workCenters")
        .summary("Work centers by code with their printers (`active_only`, default true)"),
    Route::post("/work-centers/", stored_op!("work_center_create.graphql", "work_center"), "workCenterCreate.work_center")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Create a work center (`code`, `name`, `center_type`, `hourly_rate`, `description`, `active`)"),
    Route::get("/work-centers/{id}", stored_op!("work_center_get.graphql", "work_center"), "workCenter")
        .summary("One work center with its printers"),
    Route::put("/work-centers/{id}", stored_op!("work_center_update.graphql", "work_center"), "workCenterUpdate.work_center")
        .body(Body::Input("input"))
        .summary("Change a work center"),
    Route::get("/printers/active-work", include_str!("rest/printers_active_work.graphql"), "printersActiveWork")
        .keyed_by("printer_id")
        .wrap("printers")
        .summary("What each active printer is running (operation, order, product, started) and how many operations are queued for it, as FilaOps answers it: `{printers: {<printer id>: {...}}}`"),
    Route::get("/dispatch/queues", stored_op!("dispatch_queues.graphql", "queued_operation"), "dispatchQueues")
        .summary("Per-printer queues of released print operations: assigned to the printer first, then its work center's"),
    Route::get("/dispatch/suggestions", stored_op!("dispatch_suggestions.graphql", "queued_operation"), "dispatchSuggestions")
        .summary("For each idle printer, the next operation it can run: loaded spool's material and colour (no swap), what it can print (`capabilities.materials`), priority, due date; accept with `POST accept_path` and `{printer_id}`"),
    Route::get("/command-center/summary", include_str!("rest/command_center_summary.graphql"), "commandCenterSummary")
        .summary("Counts: running operations, late, blocked, waiting for material, QC pending, printers by state"),
    Route::get("/command-center/action-items", include_str!("rest/command_center_action_items.graphql"), "commandCenterActionItems")
        .summary("What someone should look at, most urgent first (late, waiting for material, on hold, QC, printers in error or maintenance)"),
    Route::get("/command-center/resources", include_str!("rest/command_center_resources.graphql"), "commandCenterResources")
        .summary("Printers with what they run, and the work centers"),
    Route::get("/admin/dashboard/production-trend", include_str!("rest/production_trend.graphql"), "productionTrendReport")
        .summary("Completed orders and units per day over a FilaOps `period` (WTD, MTD, QTD, YTD) or the last `days` days (default 30): `{period, start_date, end_date, total_completed, total_units, pipeline_in_progress, pipeline_scheduled, data: [{date, completed, units, ...}]}`"),
];
