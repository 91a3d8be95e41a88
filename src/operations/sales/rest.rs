//! REST routes of sales orders (CONTRACT 5.2; any signed-in user, non-admins on their own
//! orders) and payments (CONTRACT 5.4; admins): declarations only. Posting routes take an
//! `Idempotency-Key`.

use crate::platform::auth::Access::{Admin, Public};
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/sales-orders/", stored_op!("sales_orders_list.graphql", "sales_order_summary", "sales_order_line", "fulfillment"), "salesOrders.nodes")
        .refuses()
        .bad_request_for(&["sort_by", "sort_order"])
        .summary("Sales orders, a bare array, newest first; non-admins see their own (`status` repeatable, `status_filter`, `fulfillment_state` comma list (400 for an unknown state), `customer_id`, `source`, `shipped_after`, `search` (order number, customer, email, product, tracking or source order number), `sort_by` order_date|fulfillment_priority|fulfillment_percent|customer_name|created_at|due_date|total_amount, `sort_order`, `skip`, `limit` capped at 100), each with its lines and fulfillment"),
    Route::post("/sales-orders/", stored_op!("sales_order_create.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderCreate.salesOrder")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/sales-orders/{id}")
        .idempotent()
        .summary("Create a pending order `SO-YYYY-NNNN`: prices from the products' selling prices, tax from the company settings, grand total = subtotal + shipping + tax (404 `Product ID {id} not found`, 400 discontinued or unpriced products)"),
    Route::get("/sales-orders/status-transitions", stored_op!("sales_order_status_transitions.graphql"), "salesOrderStatusTransitions")
        .summary("The status flow of CONTRACT 6.1 (`current_status` for one status's moves)"),
    Route::get("/sales-orders/payment-statuses", stored_op!("sales_payment_statuses.graphql"), "salesPaymentStatuses")
        .summary("The payment statuses with their meaning"),
    Route::get("/sales-orders/can-ship", stored_op!("sales_orders_can_ship.graphql"), "salesOrdersShipReadiness")
        .keyed_by("sales_order_id")
        .summary("The shipping queue's preflight: `{order_id: {can_ship, reasons: [text]}}` for every order ready to ship (at most 500; non-admins their own)"),
    Route::get("/sales-orders/{id}/can-ship", stored_op!("sales_order_can_ship.graphql"), "salesOrderBlockingIssues")
        .summary("Whether this order (any status) can ship now: `{can_ship, reasons: [text]}` (owner or admin)"),
    Route::get("/sales-orders/{id}", stored_op!("sales_order_get.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrder")
        .summary("One order with its lines and fulfillment (owner or admin: 403 `Not authorized to view this order`)"),
    Route::get("/sales-orders/{id}/blocking-issues", stored_op!("sales_order_blocking_issues.graphql"), "salesOrderBlockingIssues")
        .summary("Whether the order can ship now: `{sales_order_id, order_number, status, can_ship, blocking_issues: [text]}` (status, address, lines not fully reserved, production still running)"),
    Route::post("/sales-orders/{id}/pre-flight-check", stored_op!("sales_order_blocking_issues.graphql"), "salesOrderBlockingIssues")
        .aliases(&["/admin/fulfillment/ship-from-stock/{id}/check"])
        .summary("The checks run before shipping, as `GET /{id}/blocking-issues` answers them; changes nothing"),
    Route::get("/sales-orders/{id}/material-requirements", stored_op!("sales_order_material_requirements.graphql"), "salesOrderMaterialRequirements")
        .summary("Components still needed through the products' BOMs (production stage for what is not reserved, packaging for what is not shipped) against available stock, with shortages"),
    Route::get("/sales-orders/{id}/packing-slip/pdf", stored_op!("packing_slip_pdf.graphql"), "packingSlipPdf")
        .download()
        .summary("The order's packing slip, a PDF shown inline (owner or admin): ship-to, tracking, SKU, item, quantities ordered and shipped; no prices"),
    Route::patch("/sales-orders/{id}/status", stored_op!("sales_order_status.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderStatus.salesOrder")
        .access(Admin)
        .forbidden_message("Only administrators can update order status")
        .body(Body::Input("input"))
        .idempotent()
        .summary("Move the order along CONTRACT 6.1 (admins; 400 `Invalid sales order status transition: ...`); confirming reserves stock and creates production orders for the shortfall (then `in_production`)"),
    Route::patch("/sales-orders/{id}/address", stored_op!("sales_order_address.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderAddress.salesOrder")
        .body(Body::Input("input"))
        .summary("Change where an order ships (owner or admin; all fields optional; 400 `Cannot change the address of a {status} order` once shipped or cancelled)"),
    Route::patch("/sales-orders/{id}/shipping", stored_op!("sales_order_shipping.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderShipping.salesOrder")
        .access(Admin)
        .body(Body::Input("input"))
        .summary("Record an order's `tracking_number`, `carrier` or `shipped_at` (admins)"),
    Route::patch("/sales-orders/{id}/payment", stored_op!("sales_order_payment.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderPayment.salesOrder")
        .access(Admin)
        .body(Body::Input("input"))
        .summary("Record an order's `payment_method` and `payment_transaction_id`, or flag its `payment_status` (admins): `overdue` for an unpaid balance past due, `refunded` once refunds gave everything back; otherwise the status follows the payments (400 naming what is paid)"),
    Route::post("/sales-orders/convert/{quote_id}", stored_op!("sales_order_convert_quote.graphql"), "quoteConvert.result")
        .status(201)
        .idempotent()
        .summary("The original's name of `POST /quotes/{id}/convert`"),
    Route::patch("/sales-orders/{id}/lines", stored_op!("sales_order_lines_edit.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderLinesEdit.salesOrder")
        .access(Admin)
        .body(Body::Input("input"))
        .idempotent()
        .summary("Amend lines: `{lines: [{line_id, new_quantity?, new_unit_price?, reason}]}` on a pending, confirmed, in-production or on-hold order (400 otherwise, naming the allowed statuses); never below what shipped or production made (400), never under what is invoiced; reservations, totals, payment status and invoice payments follow, each change in the order's history"),
    Route::post("/sales-orders/{id}/lines", stored_op!("sales_order_line_add.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderLineAdd.salesOrder")
        .access(Admin)
        .body(Body::Input("input"))
        .idempotent()
        .summary("Add a line: `{product_id, quantity, unit_price?, notes?, reason}` on a pending, confirmed, in-production or on-hold order (400 otherwise); priced like the order's lines (the customer's price level) unless `unit_price` is given; a confirmed order reserves stock for it; totals, payment status and invoice payments follow; recorded in the order's history. Answers the order"),
    Route::delete("/sales-orders/{id}/lines/{line_id}", stored_op!("sales_order_line_remove.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderLineRemove.salesOrder")
        .access(Admin)
        .summary("Remove a line (400 `Cannot remove the last line from an order. Cancel the order instead.`, 400 once shipped, 409 while production orders exist for it): its reservation given back, the totals recomputed; answers the order"),
    Route::get("/sales-orders/{id}/close-short-preview", stored_op!("sales_order_close_short_preview.graphql"), "salesOrderCloseShortPreview")
        .access(Admin)
        .summary("What closing the order short would do, changing nothing: per line `ordered_qty`, `shipped_qty`, `reserved_qty`, `achievable_qty`, `will_adjust`, `reason`; the running production orders (cancelled on close), `all_pos_resolved`, `unresolved_pos`, the totals after, what is invoiced, `can_close` and `blocking_reason`"),
    Route::post("/sales-orders/{id}/close-short", stored_op!("sales_order_close_short.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderCloseShort.salesOrder")
        .access(Admin)
        .body(Body::Fields)
        .idempotent()
        .summary("Close the order short (`reason` required): running production orders cancelled, lines reduced to what is shipped, reserved or in stock (a line with nothing removed), totals and reservations follow, the order becomes ready to ship (400 with the preview's reason when it may not: status, nothing short, nothing to ship)"),
    Route::post("/sales-orders/{id}/cancel", stored_op!("sales_order_cancel.graphql", "sales_order", "sales_order_line", "fulfillment"), "salesOrderCancel.salesOrder")
        .body(Body::Fields)
        .idempotent()
        .summary("Cancel (owner or admin; `cancellation_reason`): pending, confirmed or on hold only (400 `Cannot cancel order with status '{s}'`), not while production orders run; reservations released"),
    Route::delete("/sales-orders/{id}", stored_op!("sales_order_delete.graphql"), "salesOrderDelete.result")
        .access(Admin)
        .status(204)
        .summary("Delete a pending or cancelled order with no running production orders and no payments"),
    Route::post("/sales-orders/{id}/generate-production-orders", stored_op!("sales_order_generate_production_orders.graphql"), "salesOrderGenerateProductionOrders.result")
        .idempotent()
        .summary("Create production orders for what the lines lack beyond their reservations and existing production orders"),
    Route::get("/sales-orders/{id}/events", stored_op!("sales_order_events.graphql", "sales_event"), "salesOrder")
        .summary("The order's history, oldest first"),
    Route::post("/sales-orders/{id}/events", stored_op!("sales_order_note_add.graphql", "sales_event"), "salesOrderNoteAdd.event")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Add a note to the order's history (`title` 1-255, `description?`): owner or admin"),
    Route::get("/sales-orders/{id}/shipping-events", stored_op!("sales_order_shipping_events.graphql", "shipping_event"), "salesOrder")
        .summary("The order's tracking updates, oldest first"),
    Route::post("/sales-orders/{id}/shipping-events", stored_op!("sales_order_shipping_event_record.graphql", "shipping_event"), "salesOrderShippingEventRecord.shipping_event")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .access(Admin)
        .summary("Record a tracking update on a shipped order (`event_type` label_created, picked_up, in_transit, out_for_delivery, delivered, delivery_attempted, exception, returned_to_sender; `description?`, `location?`, `event_at?`, `source` manual or carrier): delivered moves a shipped order to delivered"),
    Route::get("/sales-orders/{id}/required-orders", include_str!("rest/sales_order_required_orders.graphql"), "salesOrder")
        .summary("The production orders making the order: `{order_id, order_number, production_orders}`"),
    Route::get("/sales-orders/{id}/fulfillment-status", stored_op!("sales_order_fulfillment.graphql", "sales_order_line", "fulfillment"), "salesOrder")
        .summary("The order's fulfillment: state, lines ready and blocked, percent"),
    Route::get("/admin/orders/import/template", stored_op!("order_import_template.graphql"), "orderImportTemplate")
        .access(Public)
        .raw("text/csv; charset=utf-8")
        .summary("The order CSV template (CONTRACT 5.11's header and an example order of two lines)"),
    Route::post("/admin/orders/import/preview", stored_op!("order_import_preview.graphql", "order_import"), "orderImport")
        .body(Body::Multipart)
        .access(Admin)
        .summary("Check an order CSV (multipart `file`; `create_customers`, `source`) without importing: what each order would become"),
    Route::post("/admin/orders/import", stored_op!("order_import.graphql", "order_import"), "orderImport")
        .body(Body::Multipart)
        .access(Admin)
        .idempotent()
        .summary("Import orders from a CSV (multipart `file`; `create_customers` default true, `source` manual|squarespace|shopify|woocommerce|etsy|tiktok, default judged from the header): rows sharing an Order ID become one pending order; bad, already imported and cancelled orders are skipped and listed: `{total_rows, created, skipped, errors}` and more"),
    Route::post("/orders/import/", stored_op!("order_import.graphql", "order_import"), "orderImport")
        .body(Body::Multipart)
        .access(Admin)
        .idempotent()
        .summary("The spec's name of `POST /admin/orders/import`"),
    Route::get("/admin/customers/{id}/orders", stored_op!("customer_orders.graphql"), "customerOrders")
        .access(Admin)
        .summary("A customer's latest orders, newest first (`limit`, default 20, up to 100): `{id, order_number, status, grand_total, payment_status, created_at}`; 404 `Customer not found`"),
    Route::get("/payments", stored_op!("payments_list.graphql", "payment"), "payments")
        .access(Admin)
        .summary("Payments, newest first, as `{items, total, page, page_size, total_pages}` (`order_id`, `payment_method`, `status`, `payment_type`, `from_date`, `to_date`, `search`, `page`, `page_size` up to 100)"),
    Route::post("/payments", stored_op!("payment_record.graphql", "payment"), "paymentRecord.payment")
        .access(Admin)
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Record a payment `PAY-YYYY-NNNN` (1000 Cash / 1100 AR); the order's payment status is recomputed"),
    Route::post("/payments/refund", stored_op!("payment_refund.graphql", "payment"), "paymentRefund.payment")
        .access(Admin)
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Record a refund (stored negative; never more than is paid; 1100 AR / 1000 Cash)"),
    Route::get("/payments/dashboard", stored_op!("payments_dashboard.graphql"), "paymentsDashboard")
        .access(Admin)
        .summary("Payments today, this week and this month, orders with a balance and what they owe"),
    Route::get("/payments/order/{id}/summary", stored_op!("payment_order_summary.graphql"), "paymentOrderSummary")
        .access(Admin)
        .summary("What an order owes: total, paid, refunded, balance"),
    Route::get("/payments/{id}", stored_op!("payment_get.graphql", "payment"), "payment")
        .access(Admin)
        .summary("One payment"),
    Route::patch("/payments/{id}", stored_op!("payment_update.graphql", "payment"), "paymentUpdate.payment")
        .access(Admin)
        .body(Body::Input("input"))
        .idempotent()
        .summary("Change a payment's notes, or void it (`status: voided`)"),
    Route::delete("/payments/{id}", stored_op!("payment_void.graphql"), "paymentVoid.payment")
        .access(Admin)
        .status(204)
        .idempotent()
        .summary("Void a payment: its entry reversed, the order's payment status recomputed"),
    Route::get("/quotes/", stored_op!("quotes_list.graphql", "quote"), "quotes.nodes")
        .summary("Quotes, a bare array, newest first (`status`, `search` in number, product, customer name and e-mail, `skip`, `limit` up to 200); `expired` is computed"),
    Route::post("/quotes/", stored_op!("quote_create.graphql", "quote"), "quoteCreate.quote")
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/quotes/{id}")
        .idempotent()
        .summary("Write a pending quote `Q-YYYY-NNNN` (`apply_tax` null: as the company settings say; `valid_days` 1-365, default 30)"),
    Route::get("/quotes/stats", stored_op!("quote_stats.graphql"), "quoteStats")
        .summary("Quote counts per status, expired, total and pending value"),
    Route::get("/quotes/{id}", stored_op!("quote_get.graphql", "quote"), "quote")
        .summary("One quote"),
    Route::get("/quotes/{id}/image", stored_op!("quote_image_get.graphql"), "quoteImage")
        .download()
        .summary("The quote's picture, PNG or JPEG (404 `This quote has no image` when none is attached)"),
    Route::post("/quotes/{id}/image", stored_op!("quote_image_upload.graphql", "quote"), "quoteImageUpload.quote")
        .body(Body::Multipart)
        .summary("Attach a picture of the part (multipart `file`, PNG or JPEG by content), replacing any previous one: the quote with `has_image`"),
    Route::delete("/quotes/{id}/image", stored_op!("quote_image_delete.graphql", "quote"), "quoteImageDelete.quote")
        .summary("Remove the quote's picture (404 when none is attached): the quote"),
    Route::get("/quotes/{id}/pdf", stored_op!("quote_pdf.graphql"), "quotePdf")
        .download()
        .summary("The quote as a PDF, shown inline: item, quantity, prices, tax, shipping, total, validity, the company's quote terms and footer"),
    Route::patch("/quotes/{id}", stored_op!("quote_update.graphql", "quote"), "quoteUpdate.quote")
        .body(Body::Input("input"))
        .summary("Change a quote (400 `Cannot edit a converted quote`); the totals follow"),
    Route::patch("/quotes/{id}/status", stored_op!("quote_status.graphql", "quote"), "quoteStatus.quote")
        .body(Body::Input("input"))
        .summary("Change a quote's status (400 `Cannot change status of a converted quote`); approved records who and when"),
    Route::post("/quotes/{id}/convert", stored_op!("quote_convert.graphql"), "quoteConvert.result")
        .status(201)
        .idempotent()
        .summary("Convert an approved or accepted quote to a pending sales order: `{message, order_id, order_number}`"),
    Route::delete("/quotes/{id}", stored_op!("quote_delete.graphql"), "quoteDelete.quote")
        .status(204)
        .summary("Delete a quote (400 `Cannot delete a converted quote`)"),
];
