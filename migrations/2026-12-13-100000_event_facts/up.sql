-- One named fact an order event carries (FilaOps's activity panels show it as "key: value"):
-- a payment's number, the units a receipt took in.
ALTER TABLE sales_order_events
    ADD COLUMN metadata_key text CHECK (char_length(metadata_key) <= 100),
    ADD COLUMN metadata_value text CHECK (char_length(metadata_value) <= 255);
ALTER TABLE purchase_order_events
    ADD COLUMN metadata_key text CHECK (char_length(metadata_key) <= 100),
    ADD COLUMN metadata_value text CHECK (char_length(metadata_value) <= 255);
