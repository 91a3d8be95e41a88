//! REST routes of quality management (FilaOps's `/quality/*`, `/quality-plans*`, the QC and
//! defect-reason routes under `/production-orders`, and QC photos): declarations only. Any
//! signed-in user reads and records; defect reasons are changed by admins.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/quality/policy", stored_op!("quality_policy.graphql"), "qualityPolicy")
        .summary("The quality policy: `mode` (off|basic|full), `gate_action` (off|warn|block) and what they imply (`surfaces_enabled`, `plan_driven`, `gates_close`, `gate_close`); changed with `PUT /system/settings/quality_mode` and `/quality_gate_action`"),
    Route::get("/quality/inspection-queue", stored_op!("inspection_queue.graphql", "queue_order"), "inspectionQueue")
        .summary("Complete orders waiting for QC, by priority then due date (`limit` 1-200, default 50; `offset`): `{items, total}`"),
    Route::get("/quality/metrics", stored_op!("quality_metrics.graphql"), "qualityMetrics")
        .summary("The figures of the last `days` (1-365, default 30): first inspections passed and failed, first-pass yield, QC pending now, scrap rate, value scrapped"),
    Route::get("/quality/recent-inspections", stored_op!("recent_inspections.graphql", "queue_order"), "recentInspections")
        .summary("The latest verdicts on orders, newest first (`limit` 1-100, default 20)"),
    Route::get("/quality/scrap-summary", stored_op!("scrap_summary.graphql"), "scrapSummary")
        .summary("Scrap of the last `days` by reason, costliest first: `[{reason_code, reason_name, count, total_quantity, total_cost}]`"),
    Route::get("/quality/trend", stored_op!("quality_trend.graphql"), "qualityTrend")
        .summary("NEW: a row per day of the last `days`: inspections, first passes and failures, first-pass yield, scrap cost"),
    Route::get("/quality-plans", stored_op!("quality_plans.graphql", "quality_plan"), "qualityPlans")
        .summary("Quality plans by code (`product_id`, `include_inactive` default false), each with its characteristics"),
    Route::post("/quality-plans", stored_op!("quality_plan_create.graphql", "quality_plan"), "qualityPlanCreate.plan")
        .body(Body::Input("input"))
        .status(201)
        .summary("Create a plan (`code`, `name`, `product_id` or `is_template`, `version`, `revision`, `is_active`, `effective_date`, `notes`, `characteristics: [{code, characteristic, characteristic_type variable|attribute, nominal, lower_limit, upper_limit, unit, acceptance_criteria, sequence, severity, routing_operation_id}]`)"),
    Route::get("/quality-plans/active", stored_op!("quality_plan_active.graphql", "quality_plan"), "qualityPlanActive")
        .null_ok()
        .summary("A product's active plan (`product_id` required), or null"),
    Route::get("/quality-plans/{id}", stored_op!("quality_plan_get.graphql", "quality_plan"), "qualityPlan")
        .summary("One plan, active or not"),
    Route::patch("/quality-plans/{id}", stored_op!("quality_plan_update.graphql", "quality_plan"), "qualityPlanUpdate.plan")
        .body(Body::Input("input"))
        .summary("Change a plan (absent fields kept); `characteristics`, when given, replaces its characteristics"),
    Route::delete("/quality-plans/{id}", stored_op!("quality_plan_delete.graphql", "quality_plan"), "qualityPlanDelete.plan")
        .summary("Deactivate a plan (answers it; `PATCH` with `is_active: true` brings it back)"),
    Route::get("/production-orders/defect-reasons", stored_op!("defect_reasons.graphql", "defect_reason"), "defectReasons")
        .summary("Active defect reasons: `{reasons: [code], details: [...]}`"),
    Route::get("/production-orders/defect-reasons/all", stored_op!("defect_reasons_all.graphql", "defect_reason"), "defectReasons.details")
        .summary("Every defect reason, inactive ones too (a bare array)"),
    Route::post("/production-orders/defect-reasons", stored_op!("defect_reason_create.graphql", "defect_reason"), "defectReasonCreate.defectReason")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Add a defect reason (`code` 1-50, `name` 1-100, `description`, `category`, `severity` minor|major|critical, `sequence`); a taken code is 400"),
    Route::patch("/production-orders/defect-reasons/{id}", stored_op!("defect_reason_update.graphql", "defect_reason"), "defectReasonUpdate.defectReason")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a defect reason (`active: false` deactivates it)"),
    Route::post("/production-orders/{id}/qc", stored_op!("production_order_qc.graphql"), "productionOrderQc.result")
        .body(Body::Input("input"))
        .summary("Record an inspection: `result` passed|failed|waived|conditional (waived and conditional need `notes`) or pending (a failed order goes back for inspection), `quantity_passed`, `quantity_failed`, `failure_reason`, `notes`, `defect_reason_id` (not with passed), `operation_id` (an in-process inspection while the order runs), `measurements`. On a complete order it is the order's verdict; in full mode a pass is checked against the product's quality plan (block: 400; warn: `warnings`)"),
    Route::get("/production-orders/{id}/qc-inspections", stored_op!("qc_inspections.graphql", "qc_inspection"), "productionOrderInspections")
        .summary("An order's inspections, oldest first, with measurements and `is_within_spec`: `{production_order_id, total, inspections}`"),
    Route::get("/production-orders/qc-inspections/{inspection_id}/photos", stored_op!("qc_photos.graphql", "qc_photo"), "qcPhotos")
        .summary("An inspection's photos, newest first (403 while quality is off)"),
    Route::post("/production-orders/qc-inspections/{inspection_id}/photos", stored_op!("qc_photo_upload.graphql", "qc_photo"), "qcPhotoUpload")
        .body(Body::Multipart)
        .status(201)
        .summary("Add a photo (multipart `file`: PNG, JPEG, WebP or GIF, the content checked, at most 25 MB, else 413; `caption` at most 255)"),
    Route::get("/production-orders/qc-inspections/{inspection_id}/photos/{photo_id}/download", stored_op!("qc_photo_download.graphql"), "qcPhoto")
        .download()
        .summary("The photo's image"),
    Route::patch("/production-orders/qc-inspections/{inspection_id}/photos/{photo_id}", stored_op!("qc_photo_update.graphql", "qc_photo"), "qcPhotoUpdate")
        .body(Body::Fields)
        .summary("Change a photo's `caption`"),
    Route::delete("/production-orders/qc-inspections/{inspection_id}/photos/{photo_id}", stored_op!("qc_photo_delete.graphql"), "qcPhotoDelete")
        .summary("Remove a photo: `{message, id}`"),
];
