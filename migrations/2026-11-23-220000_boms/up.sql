-- Bills of materials (CONTRACT 5.7, DOMAIN "BOM"): versions per product, at most one active;
-- lines name a component, a quantity in a unit of the component's class, a scrap factor and
-- the stage that consumes it. Multi-level: a component may have its own BOM; cycles are
-- refused by the rules (a recursive walk under the products' BOM lock).
CREATE TABLE boms (
    id                    BIGSERIAL PRIMARY KEY,
    product_id            BIGINT NOT NULL REFERENCES items (id),
    code                  TEXT NOT NULL,
    name                  TEXT NOT NULL,
    version               INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    revision              TEXT,
    active                BOOLEAN NOT NULL DEFAULT true,
    assembly_time_minutes NUMERIC(12, 2) CHECK (assembly_time_minutes >= 0),
    effective_date        DATE,
    notes                 TEXT,
    -- Labour and machine cost per unit, entered by hand (no routing rates yet).
    process_cost          NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (process_cost >= 0),
    -- The component cost per unit as of the last recalculation (multi-level roll-up).
    material_cost         NUMERIC(18, 4) NOT NULL DEFAULT 0,
    created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (product_id, version)
);
-- One active BOM per product, whatever the application does.
CREATE UNIQUE INDEX boms_one_active_per_product ON boms (product_id) WHERE active;
CREATE INDEX boms_code ON boms (upper(code));
SELECT diesel_manage_updated_at('boms');

CREATE TABLE bom_lines (
    id             BIGSERIAL PRIMARY KEY,
    bom_id         BIGINT NOT NULL REFERENCES boms (id) ON DELETE CASCADE,
    component_id   BIGINT NOT NULL REFERENCES items (id),
    quantity       NUMERIC(18, 4) NOT NULL CHECK (quantity > 0),
    unit           TEXT NOT NULL,
    sequence       INTEGER NOT NULL DEFAULT 10 CHECK (sequence >= 0),
    consume_stage  TEXT NOT NULL DEFAULT 'production' CHECK (consume_stage IN ('production', 'shipping')),
    is_cost_only   BOOLEAN NOT NULL DEFAULT false,
    scrap_factor   NUMERIC(5, 2) NOT NULL DEFAULT 0 CHECK (scrap_factor >= 0 AND scrap_factor < 100),
    notes          TEXT,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX bom_lines_bom ON bom_lines (bom_id, sequence, id);
CREATE INDEX bom_lines_component ON bom_lines (component_id);
SELECT diesel_manage_updated_at('bom_lines');
