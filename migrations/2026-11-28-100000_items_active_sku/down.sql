DROP INDEX IF EXISTS items_active_sku;
