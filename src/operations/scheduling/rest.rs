//! REST routes of the shop's machines (any signed-in user, like FilaOps): resources under
//! `/work-centers` and maintenance windows in FilaOps's shapes, and Strata's own working
//! hours of a work center: declarations only.

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/work-centers/{wc_id}/resources", stored_op!("resources_list.graphql", "resource"), "resources")
        .summary("A work center's resources (machines that are not printers) by code, a bare array (`active_only`, default true); `Work center not found` is 404"),
    Route::post("/work-centers/{wc_id}/resources", stored_op!("resource_create.graphql", "resource"), "resourceCreate.resource")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/work-centers/resources/{id}")
        .idempotent()
        .summary("Add a resource to a work center (`code` 1-50 unique ignoring case, else 400; `name` 1-200; `capacity_hours_per_day` 0-24; `status` default available)"),
    Route::get("/work-centers/resources/{resource_id}", stored_op!("resource_get.graphql", "resource"), "resource")
        .summary("One resource"),
    Route::put("/work-centers/resources/{resource_id}", stored_op!("resource_update.graphql", "resource"), "resourceUpdate.resource")
        .body(Body::Input("input"))
        .summary("Change a resource (`work_center_id` moves it to another work center, which must exist)"),
    Route::delete("/work-centers/resources/{resource_id}", stored_op!("resource_delete.graphql"), "resourceDelete")
        .status(204)
        .summary("Delete a resource (400 while operations that are not complete are booked on it; its maintenance windows go with it)"),
    Route::patch("/work-centers/resources/{resource_id}/status", stored_op!("resource_status.graphql"), "resourceUpdateStatus.resource")
        .summary("Set a resource's status (`?new_status=` available|busy|maintenance|offline) as `{id, status}`"),
    Route::get("/work-centers/{wc_id}/hours", stored_op!("work_center_hours_get.graphql", "work_center_hours", "hours_exception"), "workCenterHours")
        .summary("A work center's working hours: `{work_center_id, always_open, weekly: [{weekday 0=Mon..6, opens_minute, closes_minute}], exceptions}` (minutes from midnight UTC; no weekly periods = open around the clock)"),
    Route::put("/work-centers/{wc_id}/hours", stored_op!("work_center_hours_set.graphql", "work_center_hours", "hours_exception"), "workCenterHoursSet.hours")
        .body(Body::Fields)
        .summary("Replace a work center's week with `{periods: [{weekday, opens_minute, closes_minute}]}` (0 <= open < close <= 1440, no overlaps within a day; `[]` = open around the clock)"),
    Route::post("/work-centers/{wc_id}/hours/exceptions", stored_op!("work_center_exception_add.graphql", "hours_exception"), "workCenterExceptionAdd.exception")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Add a day whose hours differ: `{day, opens_minute?, closes_minute?, reason?}` (no minutes = closed all day)"),
    Route::delete("/work-centers/hours/exceptions/{exception_id}", stored_op!("work_center_exception_delete.graphql"), "workCenterExceptionDelete")
        .status(204)
        .summary("Delete an hours exception"),
    Route::get("/maintenance-windows", stored_op!("maintenance_windows_list.graphql", "maintenance_window"), "maintenanceWindows")
        .summary("Maintenance windows by start as `{items, total}` (`printer_id`, `resource_id`, `start`: ending after, `end`: starting before, `include_finished` default false: only scheduled and in-progress ones)"),
    Route::post("/maintenance-windows", stored_op!("maintenance_window_create.graphql", "maintenance_window"), "maintenanceWindowCreate")
        .body(Body::Input("input"))
        .flatten(&["maintenance_window"])
        .status(201)
        .idempotent()
        .summary("Plan downtime of exactly one of `printer_id`, `resource_id` (else 400) from `starts_at` to `ends_at` (after it) with a `reason`; an overlap with another blocking window of the machine is 400; operations booked over it are allowed and listed in `conflicting_operations`"),
    Route::post("/maintenance-windows/{window_id}/cancel", stored_op!("maintenance_window_cancel.graphql", "maintenance_window"), "maintenanceWindowCancel.maintenance_window")
        .summary("Cancel a scheduled or in-progress window (otherwise 400)"),
    Route::post("/maintenance-windows/{window_id}/complete", stored_op!("maintenance_window_complete.graphql", "maintenance_window"), "maintenanceWindowComplete.maintenance_window")
        .body(Body::Input("input"))
        .summary("Complete a scheduled or in-progress window (otherwise 400): a printer's window writes its maintenance log (`maintenance_type` default routine, `performed_by` default the user's e-mail, `next_due_at`, `cost`, `notes`; downtime = the window's span up to now) and links `maintenance_log_id`"),
    Route::get("/scheduling/board", include_str!("rest/schedule_board.graphql"), "schedule")
        .summary("The Gantt board for `start_date`..`end_date` (at most 92 days): lanes per printer and resource with bookings, maintenance windows and utilisation, and the unscheduled queue"),
    Route::post("/scheduling/capacity/check", include_str!("rest/schedule_capacity_check.graphql"), "capacityCheck")
        .body(Body::Fields)
        .summary("Whether a machine (`resource_id`, `is_printer`) is free from `start_time` to `end_time`: no booking, no maintenance, inside working hours"),
    Route::get("/scheduling/capacity/available-slots", include_str!("rest/schedule_available_slots.graphql"), "availableSlots")
        .summary("Free gaps of at least `duration_hours` (default 2) on a machine between `start_date` and `end_date`"),
    Route::get("/scheduling/resource-conflicts", include_str!("rest/schedule_resource_conflicts.graphql"), "resourceConflicts")
        .summary("Operations and maintenance windows in the way on a machine between `start` and `end`, as `{conflicts}`"),
    Route::post("/scheduling/auto-schedule", include_str!("rest/schedule_auto.graphql"), "autoSchedule")
        .summary("Auto-schedule `order_id` (409 with the reason when it cannot be placed) or, without it, every released order (`preferred_start`, `horizon_days` 1-90, default 14): each order's planned finish against its due date"),
    Route::post("/production-orders/resources/next-available", include_str!("rest/schedule_next_available.graphql"), "nextAvailableSlot")
        .body(Body::Fields)
        .summary("The first free slot of `duration_minutes` on a machine (`resource_id`, `is_printer`) after `after` (default now)"),
    Route::post("/production-orders/{order_id}/operations/{op_id}/reschedule", include_str!("rest/schedule_reschedule.graphql"), "operationReschedule")
        .body(Body::Input("input"))
        .summary("Move an operation (`resource_id`, `is_printer`, `scheduled_start`, `scheduled_end`); a refusal answers `success: false` with `conflict_type`, the conflicts and the next free slot"),
    Route::post("/production-orders/{order_id}/operations/{op_id}/unschedule", include_str!("rest/schedule_unschedule.graphql"), "operationUnschedule")
        .summary("Take a pending or queued operation off the schedule"),
    Route::post("/dispatch/assign", include_str!("rest/schedule_dispatch_assign.graphql"), "dispatchAssign")
        .body(Body::Fields)
        .summary("Book a pending operation (`operation_id`) on a printer (`printer_id`) from now, with every booking rule (409 when one fails)"),
    Route::get("/scheduling/capacity/machine-availability", include_str!("rest/schedule_machine_availability.graphql"), "machineAvailability")
        .summary("Every active resource's total, booked and free hours between `start_date` and `end_date` (`work_center_id`)"),
    Route::get("/resources/{resource_id}/schedule", include_str!("rest/schedule_resource_schedule.graphql"), "resourceSchedule")
        .summary("A resource's bookings (`start_date`, `end_date`)"),
    Route::get("/resources/{resource_id}/conflicts", include_str!("rest/schedule_resource_conflict_check.graphql"), "resourceConflictCheck")
        .summary("Operations (but `exclude_operation_id`) and maintenance windows in the way on a resource between `start` and `end`"),
];
