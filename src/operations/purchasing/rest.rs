//! REST routes of purchase orders (CONTRACT 5.14; any signed-in user): declarations only.
//! Posting routes (create, receive) take an `Idempotency-Key`.

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/purchase-orders/", stored_op!("purchase_orders_list.graphql"), "purchaseOrders")
        .summary("Purchase orders, newest first, as `{items, pagination}` (`status`, `vendor_id`, `search` (PO number or vendor), `sort_by`, `sort_order`, `limit` up to 500, `offset`)"),
    Route::post("/purchase-orders/", stored_op!("purchase_order_create.graphql", "po", "po_line"), "purchaseOrderCreate.purchaseOrder")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/purchase-orders/{id}")
        .idempotent()
        .summary("Create a draft purchase order `PO-YYYY-NNN` with its `lines` (a missing vendor is a 404)"),
    Route::get("/purchase-orders/low-stock", stored_op!("low_stock.graphql"), "purchaseLowStock")
        .summary("Low-stock items (available plus on order at or below the reorder point) with the vendor, purchase unit, quantity and last price to order at"),
    Route::post("/purchase-orders/from-low-stock", stored_op!("from_low_stock.graphql", "po", "po_line"), "purchaseOrdersFromLowStock.result")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Create draft orders for low-stock items, one per vendor (`item_ids?`, `vendor_id?` for items with no known vendor)"),
    Route::post("/purchase-orders/quick-reorder/{product_id}", stored_op!("quick_reorder.graphql", "po", "po_line"), "purchaseOrderQuickReorder.purchaseOrder")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Create a draft order for one item (`vendor_id?`, `quantity?`, `unit_cost?`; defaults from the item's vendor and low-stock suggestion)"),
    Route::get("/vendors/{vendor_id}/items", stored_op!("vendor_items.graphql", "vendor_item"), "vendorItems")
        .aliases(&["/purchase-orders/vendors/{vendor_id}/items"])
        .summary("What a vendor sells: last price, purchase unit, lead time, preferred"),
    Route::post("/vendors/{vendor_id}/items", stored_op!("vendor_item_save.graphql", "vendor_item"), "vendorItemSave.vendor_item")
        .aliases(&["/purchase-orders/vendors/{vendor_id}/items"])
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Put an item on a vendor's list or update its entry (`product_id`, `vendor_sku?`, `unit_cost?`, `purchase_unit?`, `lead_time_days?`, `is_preferred?`: one preferred vendor per item); 404 `Vendor not found`, 422 per field"),
    Route::get("/vendors/{vendor_id}/items/{item_id}", stored_op!("vendor_item_get.graphql", "vendor_item"), "vendorItem")
        .aliases(&["/purchase-orders/vendors/{vendor_id}/items/{item_id}"])
        .summary("One entry of a vendor's price list; 404 `Vendor item not found`"),
    Route::put("/vendors/{vendor_id}/items/{item_id}", stored_op!("vendor_item_update.graphql", "vendor_item"), "vendorItemUpdate.vendor_item")
        .aliases(&["/purchase-orders/vendors/{vendor_id}/items/{item_id}"])
        .body(Body::Input("input"))
        .summary("Change an entry of a vendor's price list (`vendor_sku?`, `unit_cost?`, `purchase_unit?`, `lead_time_days?`, `is_preferred?`; omitted fields keep their value); 404 `Vendor item not found`, 422 per field"),
    Route::delete("/vendors/{vendor_id}/items/{item_id}", stored_op!("vendor_item_delete.graphql", "vendor_item"), "vendorItemDelete.vendor_item")
        .aliases(&["/purchase-orders/vendors/{vendor_id}/items/{item_id}"])
        .status(204)
        .summary("Take an item off a vendor's price list; 404 `Vendor item not found`"),
    Route::get("/vendors/{vendor_id}/metrics", stored_op!("vendor_metrics.graphql"), "vendorMetrics")
        .summary("A vendor's orders, spend, on-time rate and average lead time"),
    Route::get("/admin/dashboard/purchasing-trend", stored_op!("purchasing_trend.graphql"), "purchasingTrendReport")
        .summary("Purchase orders received over a FilaOps `period` (WTD, MTD, QTD, YTD; default the last 365 days) with totals and the pipeline now, `data: [{date, received, spend}]`, and money placed per month over `months` (default 6) as `months: [{period, orders, total}]`"),
    Route::get("/purchase-orders/{id}", stored_op!("purchase_order_get.graphql", "po", "po_line"), "purchaseOrder")
        .summary("One purchase order with its lines"),
    Route::get("/purchase-orders/{id}/pdf", stored_op!("purchase_order_pdf.graphql"), "purchaseOrderPdf")
        .download()
        .summary("The order as a PDF to send the vendor, shown inline: vendor, lines in their purchase units with unit costs, tax, shipping, total and notes"),
    Route::put("/purchase-orders/{id}", stored_op!("purchase_order_update.graphql", "po", "po_line"), "purchaseOrderUpdate.purchaseOrder")
        .body(Body::Input("input"))
        .summary("Change an order's header (not once closed or cancelled; the vendor only on drafts)"),
    Route::delete("/purchase-orders/{id}", stored_op!("purchase_order_delete.graphql"), "purchaseOrderDelete.result")
        .summary("Delete a draft order (400 `Cannot delete PO in '{s}' status. Cancel it instead.` otherwise)"),
    Route::post("/purchase-orders/{id}/lines", stored_op!("purchase_order_line_add.graphql", "po_line"), "purchaseOrderLineAdd.line")
        .body(Body::Input("input"))
        .status(201)
        .summary("Add a line to a draft order"),
    Route::put("/purchase-orders/{id}/lines/{line_id}", stored_op!("purchase_order_line_update.graphql", "po_line"), "purchaseOrderLineUpdate.line")
        .body(Body::Input("input"))
        .summary("Change a line of a draft order"),
    Route::delete("/purchase-orders/{id}/lines/{line_id}", stored_op!("purchase_order_line_delete.graphql", "po_line"), "purchaseOrderLineDelete.line")
        .summary("Remove a line of a draft order"),
    Route::post("/purchase-orders/{id}/status", stored_op!("purchase_order_status.graphql", "po", "po_line"), "purchaseOrderStatus.purchaseOrder")
        .body(Body::Input("input"))
        .idempotent()
        .summary("Move the order along draft -> ordered -> shipped -> received -> closed (or cancelled); a bad move is 400 `Cannot transition from 'X' to 'Y'`"),
    Route::post("/purchase-orders/{id}/receive", stored_op!("purchase_order_receive.graphql"), "purchaseOrderReceive.result")
        .body(Body::Input("input"))
        .idempotent()
        .flatten(&["status"])
        .summary("Receive goods per line (partial receipts; more than remains is refused unless `allow_over_receipt`): stock at unit cost converted to the stocking unit, material lots, spools, the journal entry 1200 / 2000, and `received` once every line is complete, in one transaction"),
    Route::get("/purchase-orders/{id}/events", stored_op!("purchase_order_events.graphql", "po_event"), "purchaseOrder")
        .summary("The order's history, oldest first"),
    Route::post("/purchase-orders/{id}/events", stored_op!("purchase_order_event_add.graphql", "po_event"), "purchaseOrderEventAdd.events")
        .body(Body::Fields)
        .status(201)
        .summary("Add a note (`title`, `description?`) to the order's history"),
    Route::get("/purchase-orders/{id}/documents", stored_op!("purchase_order_documents.graphql", "po_document"), "purchaseOrder.documents")
        .summary("The order's documents, each with its `download_url`"),
    Route::post("/purchase-orders/{id}/documents", stored_op!("purchase_order_document_upload.graphql", "po_document"), "purchaseOrderDocumentUpload.document")
        .aliases(&["/purchase-orders/{id}/upload"])
        .body(Body::Multipart)
        .status(201)
        .summary("Attach a document (PDF, PNG, JPEG...; multipart `file`, `document_type?`, `notes?`)"),
    Route::get("/purchase-orders/{id}/documents/{doc_id}/download", stored_op!("purchase_order_document_download.graphql"), "purchaseOrderDocument")
        .download()
        .summary("The document's bytes, with its content type and name"),
    Route::delete("/purchase-orders/{id}/documents/{doc_id}", stored_op!("purchase_order_document_delete.graphql"), "purchaseOrderDocumentDelete")
        .summary("Remove a document from the order"),
    Route::get("/purchase-orders/{id}/lots", stored_op!("purchase_order_lots.graphql"), "purchaseOrderLots")
        .summary("The material lots received on the order"),
];
