DELETE FROM sales_order_events WHERE event_type = 'message';
ALTER TABLE sales_order_events DROP CONSTRAINT sales_order_events_event_type_check;
ALTER TABLE sales_order_events ADD CONSTRAINT sales_order_events_event_type_check
    CHECK (event_type IN ('created', 'status_change', 'payment', 'production', 'address_updated',
                          'shipping_updated', 'note', 'shipping', 'invoice', 'amendment'));
DROP TABLE order_messages;
