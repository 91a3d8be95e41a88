-- Customer messages (issue 34): threads of notes to and from a customer, each usually tied to a
-- sales order, read by the whole team (FilaOps's `/notifications` inbox). A thread is the
-- messages sharing a `thread_id`; its subject and order are its first message's.
CREATE TABLE order_messages (
    id             BIGSERIAL PRIMARY KEY,
    thread_id      UUID NOT NULL,
    thread_subject TEXT CHECK (char_length(thread_subject) <= 200),
    sales_order_id BIGINT REFERENCES sales_orders (id) ON DELETE CASCADE,
    sender_type    TEXT NOT NULL CHECK (sender_type IN ('customer', 'admin', 'system')),
    sender_name    TEXT CHECK (char_length(sender_name) <= 200),
    body           TEXT NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
    source         TEXT NOT NULL CHECK (source IN ('system', 'admin', 'email', 'phone', 'portal')),
    -- Who wrote it here (staff, or whoever recorded a customer's message).
    created_by     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    -- Whether the customer was e-mailed this staff message (queued with mail configured).
    emailed_to     TEXT,
    read_at        TIMESTAMPTZ,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX order_messages_thread ON order_messages (thread_id, id);
CREATE INDEX order_messages_order ON order_messages (sales_order_id) WHERE sales_order_id IS NOT NULL;
CREATE INDEX order_messages_unread ON order_messages (thread_id) WHERE read_at IS NULL;

ALTER TABLE sales_order_events DROP CONSTRAINT sales_order_events_event_type_check;
ALTER TABLE sales_order_events ADD CONSTRAINT sales_order_events_event_type_check
    CHECK (event_type IN ('created', 'status_change', 'payment', 'production', 'address_updated',
                          'shipping_updated', 'note', 'shipping', 'invoice', 'amendment', 'message'));
