//! REST routes of an order's detail views (FilaOps's paths; staff): declarations only.

use crate::platform::rest::{Body, Route};

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
    Route::get("/production-orders/{id}/required-orders", stored_op!("required_orders.graphql", "required_order"), "productionOrderRequiredOrders")
        .summary("What the order waits for: components to make (`work_orders_needed`, level by level) or buy (`purchase_orders_needed`) beyond free stock, with what open orders already bring"),
    Route::get("/production-orders/{order_id}/operations/{operation_id}/scrap-cascade", stored_op!("scrap_cascade.graphql", "scrap_cascade"), "productionOperationScrapCascade")
        .refuses()
        .summary("What scrapping `quantity` units at the operation loses: this and earlier operations' materials (`materials_consumed`) and time (`labor_by_operation`), their costs, and the journal entry's amount (the units' share of the order's WIP)"),
    Route::post("/production-orders/{order_id}/operations/{operation_id}/scrap", stored_op!("operation_scrap.graphql", "scrap_cascade"), "productionOperationScrap.result")
        .body(Body::Input("input"))
        .flatten(&["cascade"])
        .summary("Scrap units at an operation (`quantity_scrapped` >= 1, `scrap_reason_code`, `notes`, `create_replacement` default true): 5020 Scrap / 1210 WIP for their share, counted on the operation and the order, later steps skipped when none is good, a draft remake order; more than can be scrapped is 400"),
    Route::post("/production-orders/{id}/refresh-routing", concat!(include_str!("rest/refresh_routing.graphql"), include_str!("../rest/fragment_production_order.graphql"), include_str!("../rest/fragment_production_operation.graphql"), include_str!("../rest/fragment_production_material.graphql")), "productionOrderRefreshRouting.order")
        .summary("Rebuild the operations and materials of a draft, released or held order from the product's active routing (409 once an operation has started; 404 without a routing)"),
    Route::post("/production-orders/{id}/operations/generate", stored_op!("generate_operations.graphql"), "productionOrderGenerateOperations.generated")
        .body(Body::Fields)
        .summary("Generate the order's operations from the active routing (`force` replaces those not started; without it existing operations are 400)"),
];
