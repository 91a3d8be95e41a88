//! REST routes of traceability (CONTRACT 5.19; the trace reads are open to any signed-in
//! user, the unit and lot registers to admins): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/traceability/forward/spool/{spool_id}", stored_op!("trace_forward_spool.graphql", "forward_trace", "trace_graph", "trace_spool", "trace_lot", "trace_production_order", "trace_sales_order", "trace_serial"), "traceForwardSpool")
        .aliases(&["/spools/traceability/spool/{spool_id}"])
        .summary("Everything downstream of a spool: the spool, `purchase_info` (lot, PO, vendor), `usage` per production order (grams, sales order, serial numbers) and a `summary` with the affected customers"),
    Route::get("/traceability/forward/{serial}", stored_op!("trace_forward.graphql", "forward_trace", "trace_graph", "trace_spool", "trace_lot", "trace_production_order", "trace_sales_order", "trace_serial"), "traceForward")
        .summary("Everything downstream of a finished unit's serial number, a material lot number or a spool number (tried in that order): production orders, units, sales orders, customers, in the shape of the spool trace; 404 when the number names nothing"),
    Route::get("/traceability/backward/serial/{serial_number}", stored_op!("trace_backward_serial.graphql", "lineage", "trace_graph", "trace_spool", "trace_lot", "trace_production_order", "trace_sales_order", "trace_serial"), "traceBackwardSerial")
        .aliases(&["/admin/traceability/recall/backward/{serial_number}"])
        .summary("Everything upstream of a finished unit: product, production order, `material_lineage` (spool, grams, lot, purchase order, vendor) and the sales order it went out on"),
    Route::get("/traceability/backward/sales-order/{so_id}", stored_op!("trace_backward_sales_order.graphql", "lineage", "trace_graph", "trace_spool", "trace_lot", "trace_production_order", "trace_sales_order", "trace_serial"), "traceBackwardSalesOrder")
        .summary("Everything upstream of a sales order: its production orders and units, and the spools, lots, purchase orders and vendors of their material"),
    Route::post("/traceability/recall-impact", stored_op!("recall_impact.graphql", "forward_trace", "trace_graph", "trace_spool", "trace_lot", "trace_production_order", "trace_sales_order", "trace_serial"), "recallImpact")
        .body(Body::Input("input"))
        .refuses()
        .summary("What suspect lots and spools reached (`lot_numbers`, `spool_numbers`, `lot_ids`, `spool_ids`; 1-500 in all): production orders, units shipped and on hand, sales orders and customers with counts; unknown numbers in `not_found`, 404 when none exists"),
    Route::get("/traceability/graph", stored_op!("trace_graph.graphql", "trace_graph"), "trace")
        .summary("The genealogy as a graph (`code`, or `kind` and `id`; `direction` forward or backward): typed nodes and links for a graph view"),
    Route::get("/admin/traceability/recall/forward/{lot_number}", stored_op!("trace_forward_lot.graphql", "forward_trace", "trace_graph", "trace_spool", "trace_lot", "trace_production_order", "trace_sales_order", "trace_serial"), "traceForwardLot")
        .access(Admin)
        .summary("Everything downstream of a material lot: its spools, production orders, units, sales orders and customers"),
    Route::get("/admin/traceability/consumptions/production/{production_order_id}", stored_op!("production_order_lineage.graphql", "lineage", "trace_spool", "trace_lot"), "productionOrderLineage")
        .aliases(&["/spools/traceability/production-order/{production_order_id}"])
        .access(Admin)
        .summary("The spools a production order consumed, with grams, lot, purchase order and vendor"),
    Route::get("/admin/traceability/serials", stored_op!("serials_list.graphql", "serial"), "serialNumbers")
        .access(Admin)
        .flatten(&["page"])
        .summary("Finished units newest first as `{items, total, offset, limit}` (`search` in serial, tracking number or SKU; `status`, `product_id`, `production_order_id`, `sales_order_id`, `limit` up to 500, `offset`)"),
    Route::get("/admin/traceability/serials/lookup/{serial_number}", stored_op!("serial_lookup.graphql", "serial"), "serialNumberLookup")
        .access(Admin)
        .summary("One finished unit by serial number (ignoring case)"),
    Route::get("/admin/traceability/serials/{serial_id}", stored_op!("serial_get.graphql", "serial"), "serialNumber")
        .access(Admin)
        .summary("One finished unit by id"),
    Route::get("/admin/traceability/lots", stored_op!("lots_list.graphql", "trace_lot"), "materialLots")
        .access(Admin)
        .flatten(&["page"])
        .summary("Material lots newest first as `{items, total, offset, limit}` (`search` in lot or vendor lot number; `status`, `product_id`, `vendor_id`, `limit` up to 500, `offset`)"),
    Route::get("/admin/traceability/lots/{lot_id}", stored_op!("lot_get.graphql", "trace_lot"), "materialLot")
        .access(Admin)
        .summary("One material lot by id"),
    Route::post("/admin/traceability/serials", stored_op!("serial_create.graphql", "serial"), "serialNumberCreate.serial_numbers")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .access(Admin)
        .summary("Number new finished units of a serial-tracked product (`product_id`, `production_order_id?`, `quantity` 1-1000, `status` manufactured or in_stock): a bare array of the units"),
    Route::patch("/admin/traceability/serials/{serial_id}", stored_op!("serial_update.graphql", "serial"), "serialNumberUpdate.serialNumber")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a unit: `status` (manufactured -> in_stock or scrapped, in_stock -> scrapped, sold or shipped -> returned with a `return_reason`, returned -> in_stock or scrapped), `qc_passed`, `qc_notes`, `tracking_number`"),
    Route::post("/admin/traceability/lots", stored_op!("lot_create.graphql", "trace_lot"), "materialLotCreate.materialLot")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .location("/api/v1/admin/traceability/lots/{id}")
        .access(Admin)
        .summary("Record a lot by hand (`product_id`, `quantity_received`, `lot_number?` else generated, vendor, purchase order, dates, cost, status, inspection): it posts no stock"),
    Route::patch("/admin/traceability/lots/{lot_id}", stored_op!("lot_update.graphql", "trace_lot"), "materialLotUpdate.materialLot")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a lot's `status` (quarantine, recall), `inspection_status`, `expiration_date`, `vendor_lot_number`, `location_id` or `notes`"),
    Route::post("/admin/traceability/lots/generate-number", include_str!("rest/lot_generate_number.graphql"), "materialLotNumberGenerate")
        .body(Body::Fields)
        .access(Admin)
        .summary("Hand out the next lot number of an item (`product_id`): `{lot_number}`, `{MATERIALCODE}-{YYYY}-{NNNN}`"),
    Route::post("/admin/traceability/consumptions", include_str!("rest/consumption_record.graphql"), "lotConsumptionRecord.consumption")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .access(Admin)
        .summary("Record material a production order drew from a lot (`production_order_id`, `material_lot_id`, `quantity_consumed`, `serial_number_id?`, `bom_line_id?`): at most what the lot has left; a lot drawn to nothing is depleted"),
    Route::get("/admin/traceability/profiles", stored_op!("profiles_list.graphql", "profile"), "traceabilityProfiles")
        .access(Admin)
        .summary("Customers' traceability profiles (a bare array, by customer name)"),
    Route::post("/admin/traceability/profiles", stored_op!("profile_create.graphql", "profile"), "traceabilityProfileCreate.profile")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .access(Admin)
        .summary("Give a customer a traceability profile (`customer_id`, `traceability_level` none, lot, serial or full, `requires_coc`, `requires_coa`, `requires_first_article`, `record_retention_days` 1-36500, `custom_serial_prefix`, `compliance_standards`); one per customer"),
    Route::get("/admin/traceability/profiles/{user_id}", stored_op!("profile_get.graphql", "profile"), "traceabilityProfile")
        .access(Admin)
        .summary("One customer's traceability profile (`user_id` is the customer's id); 404 when none"),
    Route::patch("/admin/traceability/profiles/{user_id}", stored_op!("profile_update.graphql", "profile"), "traceabilityProfileUpdate.profile")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change a customer's traceability profile (`user_id` is the customer's id)"),
];
