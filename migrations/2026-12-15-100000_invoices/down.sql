DELETE FROM sales_order_events WHERE event_type IN ('invoice', 'amendment');
ALTER TABLE sales_order_events DROP CONSTRAINT sales_order_events_event_type_check;
ALTER TABLE sales_order_events ADD CONSTRAINT sales_order_events_event_type_check CHECK (event_type IN ('created', 'status_change', 'payment', 'production', 'address_updated', 'shipping_updated', 'note', 'shipping')) NOT VALID;
ALTER TABLE gl_journal_entries DROP CONSTRAINT gl_journal_entries_source_type_check;
DELETE FROM gl_journal_entry_lines WHERE journal_entry_id IN
    (SELECT id FROM gl_journal_entries WHERE source_type = 'customer_deposit');
DELETE FROM gl_journal_entries WHERE source_type = 'customer_deposit';
ALTER TABLE gl_journal_entries ADD CONSTRAINT gl_journal_entries_source_type_check
    CHECK (source_type IN ('adjustment', 'spool_adjustment', 'inventory_import', 'purchase_order',
                           'production_order', 'sales_order', 'payment', 'manual')) NOT VALID;
UPDATE gl_accounts SET is_system = FALSE WHERE account_code = '2300';
DROP TABLE invoice_lines;
DROP TABLE invoices;
DROP SEQUENCE invoice_seq;
