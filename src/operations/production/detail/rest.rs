//! REST routes of an order's detail views (FilaOps's paths; staff): declarations only.

use crate::platform::rest::Route;

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/production-orders/{id}/cost-breakdown", stored_op!("cost_breakdown.graphql", "cost_breakdown"), "productionOrderCostBreakdown")
        .summary("Each material (consumed once issued, else required) at its component's cost and each operation's minutes (actual once known, else planned) at its work center's rate: `material_costs`, `labor_costs`, `summary`, with the `estimated` and `actual` figures and their `variance`"),
    Route::post("/production-orders/{id}/estimate-cost", stored_op!("estimate_cost.graphql", "cost_breakdown"), "productionOrderEstimateCost")
        .summary("Store the order's estimate from its plan (required quantities, planned minutes) and answer the cost breakdown; 400 when it has no operations"),
    Route::get("/production-orders/{id}/material-availability", stored_op!("material_availability.graphql"), "productionOrderMaterialAvailability")
        .summary("Per material line: required, consumed, reserved, free in stock, incoming on open purchase orders, short now and short after incoming, `status` ok|incoming|short; `summary.can_start`"),
    Route::get("/production-orders/{id}/compatibility", stored_op!("order_compatibility.graphql", "operation_compatibility"), "productionOrderCompatibility")
        .summary("Whether each operation's materials can print on its printer: findings with `severity` error|warning and `check` enclosure|nozzle_temp|bed_temp|diameter|hardened_nozzle"),
    Route::get("/production-orders/{order_id}/operations/{operation_id}/compatibility", stored_op!("operation_compatibility.graphql", "operation_compatibility"), "productionOperationCompatibility")
        .summary("One operation's findings (404 unless it belongs to the order)"),
    Route::get("/production-orders/{id}/check-resource-compatibility", stored_op!("machine_compatibility.graphql"), "productionOrderMachineCompatibility")
        .summary("Whether the order's materials can print on a machine (`resource_id`, `is_printer`): `{compatible, reason}`"),
];
