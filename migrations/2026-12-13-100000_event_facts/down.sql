ALTER TABLE purchase_order_events DROP COLUMN metadata_value, DROP COLUMN metadata_key;
ALTER TABLE sales_order_events DROP COLUMN metadata_value, DROP COLUMN metadata_key;
