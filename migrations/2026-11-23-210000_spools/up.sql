-- Material spools (CONTRACT 5.10, 6.7) and the material catalogue the materials import
-- fills (CONTRACT 5.11): material types, colours and which colours each type comes in.
-- Spool weights are grams. A spool tracks a physical roll of stock that the inventory
-- ledger already holds; weight corrections and consumption post through the ledger.

CREATE TABLE material_types (
    id           BIGSERIAL PRIMARY KEY,
    code         TEXT NOT NULL CHECK (code <> '' AND code = upper(code) AND char_length(code) <= 50),
    name         TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 255),
    description  TEXT,
    active       BOOLEAN NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX material_types_code_unique ON material_types (code);
SELECT diesel_manage_updated_at('material_types');

CREATE TABLE colors (
    id          BIGSERIAL PRIMARY KEY,
    code        TEXT NOT NULL CHECK (code <> '' AND code = upper(code) AND char_length(code) <= 50),
    name        TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 255),
    hex_code    TEXT CHECK (hex_code ~ '^#[0-9A-F]{6}$'),
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX colors_code_unique ON colors (code);
SELECT diesel_manage_updated_at('colors');

CREATE TABLE material_colors (
    id                BIGSERIAL PRIMARY KEY,
    material_type_id  BIGINT NOT NULL REFERENCES material_types (id) ON DELETE RESTRICT,
    color_id          BIGINT NOT NULL REFERENCES colors (id) ON DELETE RESTRICT,
    -- The stock item of this type in this colour (the import's product).
    item_id           BIGINT REFERENCES items (id) ON DELETE SET NULL,
    active            BOOLEAN NOT NULL DEFAULT TRUE,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (material_type_id, color_id)
);
CREATE INDEX material_colors_color ON material_colors (color_id);
CREATE INDEX material_colors_item ON material_colors (item_id) WHERE item_id IS NOT NULL;

CREATE TABLE spools (
    id                   BIGSERIAL PRIMARY KEY,
    spool_number         TEXT NOT NULL CHECK (spool_number <> '' AND char_length(spool_number) <= 100),
    product_id           BIGINT NOT NULL REFERENCES items (id) ON DELETE RESTRICT,
    initial_weight_g     NUMERIC(14, 4) NOT NULL CHECK (initial_weight_g > 0),
    current_weight_g     NUMERIC(14, 4) NOT NULL CHECK (current_weight_g >= 0),
    status               TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'empty', 'expired', 'damaged')),
    received_date        DATE NOT NULL DEFAULT CURRENT_DATE,
    expiry_date          DATE,
    location_id          BIGINT REFERENCES locations (id) ON DELETE RESTRICT,
    supplier_lot_number  TEXT,
    notes                TEXT,
    created_by           BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Spool numbers are unique ignoring case.
CREATE UNIQUE INDEX spools_number_unique ON spools (upper(spool_number));
CREATE INDEX spools_product ON spools (product_id, status);
CREATE INDEX spools_location ON spools (location_id) WHERE location_id IS NOT NULL;
SELECT diesel_manage_updated_at('spools');

CREATE TABLE spool_usage (
    id                        BIGSERIAL PRIMARY KEY,
    spool_id                  BIGINT NOT NULL REFERENCES spools (id) ON DELETE RESTRICT,
    -- No foreign key yet: production orders arrive in a later migration.
    production_order_id       BIGINT,
    production_order_code     TEXT,
    weight_consumed_g         NUMERIC(14, 4) NOT NULL CHECK (weight_consumed_g > 0),
    -- The consumption this usage posted in the stock ledger.
    inventory_transaction_id  BIGINT REFERENCES inventory_transactions (id),
    created_by                BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at                TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX spool_usage_spool ON spool_usage (spool_id, id);
CREATE INDEX spool_usage_production_order ON spool_usage (production_order_id) WHERE production_order_id IS NOT NULL;
