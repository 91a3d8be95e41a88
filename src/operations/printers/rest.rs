//! REST routes of printers (CONTRACT 5.13; any signed-in user; the network utilities and
//! the CSV import are for admins) and of their maintenance logs (the original's
//! `/maintenance/` routes; any signed-in user, like printers): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/printers/", stored_op!("printers_list.graphql", "printer"), "printers")
        .summary("Printers by code as `{items, total, page, page_size, total_pages}` (`search`, `brand`, `status`, `active_only`, `page`, `page_size` up to 200)"),
    Route::post("/printers/", stored_op!("printer_create.graphql", "printer"), "printerCreate.printer")
        .body(Body::Input("input"))
        .status(201)
        .summary("Add a printer (`code`, `name` and `model` required; a duplicate code is 400)"),
    Route::get("/printers/brands/info", include_str!("rest/brands_info.graphql"), "printerBrands")
        .summary("Facts per printer brand: protocol, default port, AMS and camera support, connection fields"),
    Route::get("/printers/generate-code", include_str!("rest/generate_code.graphql"), "printerCodeSuggestion")
        .summary("Suggest the next free code for a `prefix` (default PRT), e.g. `{\"code\": \"PRT-004\"}`"),
    Route::post("/printers/import-csv", stored_op!("printer_import_csv.graphql"), "printerImportCsv")
        .body(Body::Multipart)
        .access(Admin)
        .summary("Create printers from a CSV (multipart `file`; columns code, name, model, brand, serial_number, ip_address, location, notes) as `{created, skipped, errors: [{row, field, reason}]}`; existing codes are skipped; one transaction"),
    Route::post("/printers/test-connection", stored_op!("printer_test_connection.graphql", "probe"), "printerTestConnection")
        .body(Body::Fields)
        .access(Admin)
        .summary("TCP connect test of `{ip_address, port?}` (IP literals only; loopback, link-local, multicast, unspecified and broadcast are 422) as `{ip_address, reachable, open_ports, suggested_brand, latency_ms, message}`"),
    Route::post("/printers/probe-ip", stored_op!("printer_probe.graphql", "probe"), "printerProbe")
        .access(Admin)
        .summary("Probe `?ip_address=` on the brands' usual ports (8883, 7125, 80) and suggest a brand"),
    Route::post("/printers/discover", stored_op!("printer_discover.graphql", "probe"), "printerDiscover")
        .body(Body::Fields)
        .access(Admin)
        .summary("Scan `{subnet}` (a private IPv4 subnet, at most /24; 3 s in all) for unregistered printers as `{printers, scanned, message}`; without a subnet nothing is scanned"),
    Route::get("/printers/{id}", stored_op!("printer_get.graphql", "printer"), "printer")
        .summary("One printer"),
    Route::put("/printers/{id}", stored_op!("printer_update.graphql", "printer"), "printerUpdate.printer")
        .body(Body::Input("input"))
        .summary("Change a printer"),
    Route::patch("/printers/{id}/status", stored_op!("printer_status.graphql", "printer"), "printerUpdateStatus.printer")
        .body(Body::Fields)
        .summary("Set a printer's `status`"),
    Route::delete("/printers/{id}", include_str!("rest/printer_delete.graphql"), "printerDelete")
        .summary("Delete (deactivate) a printer"),
    Route::get("/maintenance/", stored_op!("maintenance_list.graphql", "maintenance_log"), "printerMaintenanceLogs")
        .summary("Maintenance logs, newest first, as `{items, total, page, page_size, total_pages}` (`printer_id`, `maintenance_type`, `start_date`, `end_date`, `page`, `page_size` up to 200)"),
    Route::get("/maintenance/due", include_str!("rest/maintenance_due.graphql"), "printerMaintenanceDue")
        .summary("Active printers whose latest log's `next_due_at` has passed or falls within `days_ahead` days (default 7), most overdue first"),
    Route::get("/maintenance/printers/{printer_id}/maintenance", stored_op!("maintenance_history.graphql", "maintenance_log"), "printerMaintenanceHistory")
        .summary("A printer's maintenance history, newest first (`page`, `page_size`)"),
    Route::post("/maintenance/printers/{printer_id}/maintenance", stored_op!("maintenance_create.graphql", "maintenance_log"), "printerMaintenanceCreate.maintenance_log")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/maintenance/{id}")
        .idempotent()
        .summary("Log maintenance on a printer (`maintenance_type` and `description` required; `performed_at` not in the future, `next_due_at` after it)"),
    Route::get("/maintenance/{log_id}", stored_op!("maintenance_get.graphql", "maintenance_log"), "printerMaintenanceLog")
        .summary("One maintenance log"),
    Route::put("/maintenance/{log_id}", stored_op!("maintenance_update.graphql", "maintenance_log"), "printerMaintenanceUpdate.maintenance_log")
        .body(Body::Input("input"))
        .summary("Change a maintenance log"),
    Route::delete("/maintenance/{log_id}", include_str!("rest/maintenance_delete.graphql"), "printerMaintenanceDelete")
        .summary("Delete a maintenance log"),
];
