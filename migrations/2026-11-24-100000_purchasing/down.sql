DROP TABLE vendor_items;
DROP TABLE material_lots;
DROP TABLE purchase_order_documents;
DROP TABLE purchase_order_events;
DROP TABLE purchase_order_lines;
DROP TABLE purchase_orders;
DROP SEQUENCE material_lot_number_seq;
DROP SEQUENCE purchase_order_number_seq;
