//! REST routes of shipping: shipping an order (admins; spec `POST /shipments/` and CONTRACT
//! `POST /sales-orders/{id}/ship`, one transaction, `Idempotency-Key`) and the shipments list.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/shipments/", stored_op!("shipments_list.graphql", "shipment"), "shipments")
        .summary("Shipments, newest first, as `{items, total}` (`sales_order_id`, `limit`, `offset`)"),
    Route::post("/shipments/", stored_op!("shipment_create.graphql", "ship_result", "shipment"), "shipmentCreate.result")
        .access(Admin)
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Ship an order (`sales_order_id`, `carrier`, `service`, `tracking_number?`): finished goods and shipping-stage packaging issued, 5000 COGS / 1220 FG (+ 5010 / 1230), the invoice 1100 AR / 4000 + 2100 + 4200, the order `shipped`, in one transaction"),
    Route::post("/sales-orders/{id}/ship", stored_op!("sales_order_ship.graphql", "ship_result", "shipment"), "salesOrderShip.result")
        .aliases(&["/admin/fulfillment/ship/{id}/mark-shipped", "/admin/fulfillment/ship-from-stock/{id}/ship"])
        .access(Admin)
        .body(Body::Input("input"))
        .idempotent()
        .summary("Ship the order (`carrier` default USPS, `service` default Priority, `tracking_number?` generated when missing); 400 without a shipping address or when the order cannot ship"),
];
