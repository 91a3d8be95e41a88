-- The trigram indexes take writes through a small pending list instead of one GIN insertion
-- per trigram: an import of 5,000 items spent two thirds of its INSERT time in these
-- indexes, one key at a time. 256 kB keeps the list to a few pages, which a search scans in
-- well under a millisecond and which the inserting transaction merges in bulk when full, so
-- the planner keeps choosing the index (the reason the list was off).
ALTER INDEX items_sku_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX items_name_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX items_upc_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX customers_email_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX customers_first_name_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX customers_last_name_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX customers_company_name_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX customers_customer_number_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX vendors_code_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX vendors_name_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX vendors_email_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX printers_code_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX printers_name_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
ALTER INDEX printers_model_trgm SET (fastupdate = on, gin_pending_list_limit = 256);
