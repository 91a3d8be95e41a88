-- Indexes for what the lists actually do: `sku = $1` and `ORDER BY sku` (a plain btree; the
-- unique index on upper(sku) keeps uniqueness case-insensitive), the ILIKE '%text%' searches
-- (trigram GIN indexes: a btree cannot serve a leading wildcard), and newest-first lists.
-- The GIN indexes take writes directly (no pending list): master data is written rarely and
-- searched constantly, and a pending list makes the planner shun the index until a vacuum.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX items_sku ON items (sku);
CREATE INDEX items_sku_trgm ON items USING gin (sku gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX items_name_trgm ON items USING gin (name gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX items_upc_trgm ON items USING gin (upc gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX items_created_at ON items (created_at DESC, id DESC);

CREATE INDEX customers_email_trgm ON customers USING gin (email gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX customers_first_name_trgm ON customers USING gin (first_name gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX customers_last_name_trgm ON customers USING gin (last_name gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX customers_company_name_trgm ON customers USING gin (company_name gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX customers_customer_number_trgm ON customers USING gin (customer_number gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX customers_created_at ON customers (created_at DESC, id DESC);

CREATE INDEX vendors_code_trgm ON vendors USING gin (code gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX vendors_name_trgm ON vendors USING gin (name gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX vendors_email_trgm ON vendors USING gin (email gin_trgm_ops) WITH (fastupdate = off);

CREATE INDEX printers_code_trgm ON printers USING gin (code gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX printers_name_trgm ON printers USING gin (name gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX printers_model_trgm ON printers USING gin (model gin_trgm_ops) WITH (fastupdate = off);

CREATE INDEX users_created_at ON users (created_at DESC, id DESC);
