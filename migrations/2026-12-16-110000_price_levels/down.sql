ALTER TABLE sales_order_lines DROP COLUMN price_level_name, DROP COLUMN list_price;
ALTER TABLE customers DROP COLUMN price_level_id;
DROP TABLE price_level_items;
DROP TABLE price_levels;
