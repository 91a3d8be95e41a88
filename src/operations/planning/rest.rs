//! REST routes of planning (FilaOps's `/mrp/*` and `/buy-list`, issue 32): declarations
//! only. Any signed-in user reads and acts on planned orders; running MRP is for admins.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::post("/mrp/run", stored_op!("mrp_run.graphql", "run"), "mrpRun.run")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Run MRP (`planning_horizon_days` 1-365, default 30; `include_draft_orders`, `regenerate_planned` default true): the unfirmed planned orders are replaced; answers the run"),
    Route::get("/mrp/runs", stored_op!("mrp_runs.graphql", "run"), "mrpRuns")
        .summary("Recent MRP runs, newest first (`limit` 1-100, default 10), as `{runs, last_successful_run}`"),
    Route::get("/mrp/runs/{run_id}", stored_op!("mrp_run_get.graphql", "run"), "mrpRunDetails")
        .summary("One MRP run"),
    Route::get("/mrp/exceptions", include_str!("rest/mrp_exceptions.graphql"), "mrpExceptions")
        .summary("What a run (`run_id`, default the latest) found: late orders, excess supply, items without a vendor, circular BOMs"),
    Route::get("/mrp/planned-orders", stored_op!("planned_orders.graphql", "planned"), "plannedOrders")
        .summary("Planned orders by need date as `{items, total, page, page_size}` (`status`, `order_type`, `product_id`, `exceptions_first`, `page`, `page_size` up to 200)"),
    Route::post("/mrp/planned-orders/release", stored_op!("planned_orders_release.graphql", "release"), "plannedOrdersRelease.released")
        .body(Body::Fields)
        .summary("Release several planned orders at once (`ids`, `vendor_id`, `notes`): buys become draft purchase orders, one per vendor; makes become draft production orders"),
    Route::get("/mrp/planned-orders/{order_id}", stored_op!("planned_order_get.graphql", "planned"), "plannedOrder")
        .summary("One planned order"),
    Route::post("/mrp/planned-orders/{order_id}/firm", stored_op!("planned_order_firm.graphql", "planned"), "plannedOrderFirm.plannedOrder")
        .body(Body::Fields)
        .summary("Firm a planned order (`notes`): later runs keep it"),
    Route::post("/mrp/planned-orders/{order_id}/release", stored_op!("planned_order_release.graphql", "release"), "plannedOrdersRelease.release")
        .body(Body::Fields)
        .summary("Release a planned order (`vendor_id` for a buy without a planned vendor, `notes`) as `{planned_order_id, order_type, created_purchase_order_id, created_purchase_order_code, created_production_order_id, created_production_order_code}`"),
    Route::delete("/mrp/planned-orders/{order_id}", include_str!("rest/planned_order_cancel.graphql"), "plannedOrderCancel")
        .summary("Cancel (delete) a planned order that is not released"),
    Route::get("/mrp/requirements", include_str!("rest/mrp_requirements.graphql"), "mrpRequirements")
        .refuses()
        .summary("Net requirements of one unit of `product_id`, or of what `production_order_id` still has to make"),
    Route::get("/mrp/supply-demand/{product_id}", include_str!("rest/mrp_supply_demand.graphql"), "mrpSupplyDemand")
        .summary("An item's dated supply and demand with the running projected balance (`days_ahead` 1-365, default 30)"),
    Route::get("/mrp/explode-bom/{product_id}", include_str!("rest/mrp_explode_bom.graphql"), "mrpExplodeBom")
        .refuses()
        .summary("A product's BOM exploded through every level for `quantity` (default 1)"),
    Route::get("/buy-list", include_str!("rest/buy_list.graphql"), "buyList")
        .summary("The live buy list: bought items still short after netting all open demand against stock, open purchase orders and safety stock, by preferred vendor (`vendor_id`)"),
    Route::post("/buy-list/purchase-orders", include_str!("rest/buy_list_order.graphql"), "buyListOrder.result")
        .body(Body::Input("input"))
        .status(201)
        .summary("Order the buy list (`item_ids`, `vendor_id` for items without a vendor): draft purchase orders, one per vendor"),
];
