//! REST routes of invoices (FilaOps's `/invoices*`, admins) and the receivables ageing:
//! declarations only. Writing, paying, sending and voiding take an `Idempotency-Key`.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/invoices", stored_op!("invoices_list.graphql", "invoice_summary"), "invoices.nodes")
        .access(Admin)
        .summary("Invoices, a bare array, newest first unless sorted (`status` all|open|overdue|draft|sent|partially_paid|paid|voided, `search` in invoice and order numbers, customer name, company and e-mail, `sales_order_id`, `customer_id`, `sort_by` created_at|due_date|invoice_number|total|amount_due|customer_name, `sort_order`, `limit` 1-500, `offset`)"),
    Route::post("/invoices", stored_op!("invoice_create.graphql", "invoice"), "invoiceCreate.invoice")
        .access(Admin)
        .body(Body::Input("input"))
        .status(201)
        .location("/api/v1/invoices/{id}")
        .idempotent()
        .summary("Write an invoice `INV-YYYY-NNNN` for what a confirmed (or later) order has not been billed yet, or for `amount` of it (a deposit), and book it Dr 1100 / Cr 4000, 2100, 4200: customer, address, lines, tax and terms snapshotted, due date from the customer's terms (400 `Cannot invoice an order with status '{s}'`, 400 `Sales order {SO} is fully invoiced ({INV})`, 422 an amount over what is left)"),
    Route::get("/invoices/summary", stored_op!("invoice_summary.graphql"), "invoiceSummary")
        .access(Admin)
        .summary("`{overdue_count, overdue_amount, total_ar, open_count, draft_count, paid_last_30_days}`"),
    Route::get("/invoices/{id}", stored_op!("invoice_get.graphql", "invoice"), "invoice")
        .access(Admin)
        .summary("One invoice with its lines, `order_number` and `amount_due` (404 `Invoice not found`)"),
    Route::patch("/invoices/{id}", stored_op!("invoice_update.graphql", "invoice"), "invoiceUpdate.invoice")
        .access(Admin)
        .body(Body::Input("input"))
        .idempotent()
        .summary("Record a payment against the invoice (`amount_paid` with `payment_method`, `payment_reference`; at most its balance) or mark a draft sent (`status: sent`); any other status is refused (422): sending, voiding and payments change it"),
    Route::get("/invoices/{id}/pdf", stored_op!("invoice_pdf.graphql"), "invoicePdf")
        .access(Admin)
        .download()
        .summary("The invoice as a PDF on the company's letterhead: bill-to, dates and terms, lines, tax, shipping, total, paid and due"),
    Route::post("/invoices/{id}/send", stored_op!("invoice_send.graphql", "invoice"), "invoiceSend.invoice")
        .access(Admin)
        .body(Body::Fields)
        .idempotent()
        .summary("Send the invoice (`to` optional, default the customer's e-mail): with mail configured its PDF is e-mailed through the job queue; the sending is recorded and a draft becomes sent (400 for a voided invoice, 422 without an address to send to)"),
    Route::post("/invoices/{id}/void", stored_op!("invoice_void.graphql", "invoice"), "invoiceVoid.invoice")
        .access(Admin)
        .body(Body::Input("input"))
        .idempotent()
        .summary("Void the invoice (`reason` required): its receivable entry mirrored (400 `Invoice is already voided`, 409 while payments are applied to it: refund or void them first)"),
    Route::get("/admin/accounting/ar-aging", stored_op!("receivables_aging.graphql"), "receivablesAging")
        .access(Admin)
        .summary("What customers owe by lateness (current, 1-30, 31-60, 61-90, over 90 days past due), per customer and in total, with 1100's balance and whether they agree"),
];
