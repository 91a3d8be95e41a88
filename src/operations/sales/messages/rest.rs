//! REST routes of customer messages (FilaOps's `/notifications*`, any signed-in user):
//! declarations only. One path parameter name serves every `/notifications/{id}` route (the
//! router allows one spelling per position): a thread's UUID, or a message's number for
//! `mark-read`. Writing takes an `Idempotency-Key`.

use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/notifications", stored_op!("message_threads.graphql"), "messageThreads.nodes")
        .summary("The inbox: message threads, latest activity first, a bare array of `{thread_id, thread_subject, sales_order_id, order_number, customer_name, message_count, unread_count, last_message_at, last_message_preview, last_sender_name, awaiting_reply}` (`unread_only`, `sales_order_id`, `search`, `skip`, `limit` 1-200)"),
    Route::get("/notifications/unread-count", stored_op!("message_unread_count.graphql"), "unreadMessageCount")
        .wrap("unread_count")
        .summary("`{unread_count}`: messages nobody on the team has read (the badge)"),
    Route::post("/notifications", stored_op!("message_thread_start.graphql", "order_message"), "messageThreadStart.message")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Start a thread (`subject`, `body`, `sales_order_id`): your message to the order's customer (`sender_type: admin`, e-mailed when mail is configured unless `email_customer: false`) or theirs recorded here (`sender_type: customer`, `source` email|phone|portal; unread for the team). It joins the order's history"),
    Route::get("/notifications/{id}", stored_op!("message_thread.graphql", "order_message"), "messageThread")
        .summary("A thread's messages, oldest first, a bare array (404 `Thread not found`)"),
    Route::post("/notifications/{id}/reply", stored_op!("message_reply.graphql", "order_message"), "messageReply.message")
        .body(Body::Input("input"))
        .idempotent()
        .summary("Reply in a thread (`body` 1-5000): yours marks the thread read and is e-mailed to the order's customer when mail is configured (404 `Thread not found`)"),
    Route::post("/notifications/{id}/read", stored_op!("message_thread_read.graphql"), "messageThreadMarkRead")
        .summary("Mark a thread's messages read: `{marked_read}` (404 `Thread not found`)"),
    Route::post("/notifications/{id}/mark-read", stored_op!("message_mark_read.graphql", "order_message"), "messageMarkRead")
        .summary("Mark one message read (`id` the message's number; 404 `Notification not found`)"),
];
