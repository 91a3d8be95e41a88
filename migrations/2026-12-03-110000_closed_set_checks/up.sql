-- Every closed-set column holds only what its Rust enum can read (issue 37): the values
-- below are the enums' (tests/it/closed_sets.rs compares every such CHECK with its enum).
-- NOT VALID first, so an older database with a stray row still starts; VALIDATE then checks
-- the rows already there and, if one is outside the set, leaves a warning instead of failing.

ALTER TABLE gl_journal_entries ADD CONSTRAINT gl_journal_entries_source_type_check CHECK (source_type IN ('adjustment', 'spool_adjustment', 'inventory_import', 'purchase_order', 'production_order', 'sales_order', 'payment', 'manual')) NOT VALID;
ALTER TABLE inventory_transactions ADD CONSTRAINT inventory_transactions_reference_type_check CHECK (reference_type IN ('sales_order', 'purchase_order', 'production_order', 'print_job', 'adjustment', 'spool_adjustment', 'cycle_count', 'transfer', 'inventory_import')) NOT VALID;
ALTER TABLE sales_order_events ADD CONSTRAINT sales_order_events_event_type_check CHECK (event_type IN ('created', 'status_change', 'payment', 'production', 'address_updated', 'shipping_updated', 'note', 'shipping')) NOT VALID;
ALTER TABLE sales_orders ADD CONSTRAINT sales_orders_fulfillment_state_check CHECK (fulfillment_state IN ('ready_to_ship', 'partially_ready', 'blocked', 'shipped', 'cancelled')) NOT VALID;
ALTER TABLE shipping_events ADD CONSTRAINT shipping_events_event_type_check CHECK (event_type IN ('label_created', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'delivery_attempted', 'exception', 'returned_to_sender')) NOT VALID;
ALTER TABLE shipping_events ADD CONSTRAINT shipping_events_source_check CHECK (source IN ('manual', 'carrier')) NOT VALID;

DO $$
DECLARE c record;
BEGIN
    FOR c IN SELECT * FROM (VALUES
        ('gl_journal_entries', 'gl_journal_entries_source_type_check'),
        ('inventory_transactions', 'inventory_transactions_reference_type_check'),
        ('sales_order_events', 'sales_order_events_event_type_check'),
        ('sales_orders', 'sales_orders_fulfillment_state_check'),
        ('shipping_events', 'shipping_events_event_type_check'),
        ('shipping_events', 'shipping_events_source_check')
    ) AS v(tbl, con) LOOP
        BEGIN
            EXECUTE format('ALTER TABLE %I VALIDATE CONSTRAINT %I', c.tbl, c.con);
        EXCEPTION WHEN check_violation THEN
            RAISE WARNING 'rows of % hold values outside %; new rows are checked', c.tbl, c.con;
        END;
    END LOOP;
END $$;
