-- The item list's usual page: active items by SKU. With this index the page is read in
-- order (no sort) and its total is an index-only count of the active entries, instead of a
-- scan of every item row.
CREATE INDEX items_active_sku ON items (sku, id) WHERE active;
