-- Manufacturing in depth (issue 33): operation types, routing operations as resources with
-- their own materials, routing templates, and the material properties printer compatibility
-- reads.

-- Operation types: what a routing step is (print, QC, pack...), the stages at which its
-- materials are consumed, and whether it is an inspection. System types are seeded and keep
-- their stages and QC flag; admins add custom ones.
CREATE TABLE operation_types (
    id                      BIGSERIAL PRIMARY KEY,
    code                    TEXT NOT NULL UNIQUE
                            CHECK (code ~ '^[A-Z0-9_]{1,30}$'),
    label                   TEXT NOT NULL CHECK (label <> '' AND char_length(label) <= 100),
    description             TEXT,
    category                TEXT CHECK (category IN ('print', 'assembly', 'quality', 'finishing', 'shipping', 'other')),
    consume_stages          TEXT[] NOT NULL
                            CHECK (cardinality(consume_stages) >= 1
                                   AND consume_stages <@ ARRAY['production', 'assembly', 'finishing', 'shipping', 'any']::TEXT[]),
    is_qc                   BOOLEAN NOT NULL DEFAULT false,
    is_system               BOOLEAN NOT NULL DEFAULT false,
    is_active               BOOLEAN NOT NULL DEFAULT true,
    sort_order              INTEGER NOT NULL DEFAULT 0,
    default_work_center_id  BIGINT REFERENCES work_centers (id) ON DELETE SET NULL,
    created_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at              TIMESTAMPTZ NOT NULL DEFAULT now()
);
SELECT diesel_manage_updated_at('operation_types');

INSERT INTO operation_types (code, label, category, consume_stages, is_qc, is_system, sort_order, description) VALUES
    ('FDM_PRINT', 'FDM Print', 'print', '{production,any}', false, true, 10, 'Its materials are consumed when the step runs (production stage).'),
    ('RESIN_PRINT', 'Resin Print', 'print', '{production,any}', false, true, 20, 'Its materials are consumed when the step runs (production stage).'),
    ('ASSEMBLY', 'Assembly', 'assembly', '{assembly,production,any}', false, true, 30, 'Its materials are consumed when the step runs (assembly stage).'),
    ('QUALITY_CONTROL', 'Quality Control', 'quality', '{any}', true, true, 40, 'An inspection; consumes nothing by itself.'),
    ('SUPPORT_REMOVAL', 'Support Removal / Cleanup', 'finishing', '{any}', false, true, 50, 'Finishing; consumes nothing by itself.'),
    ('SANDING', 'Sanding', 'finishing', '{any}', false, true, 60, 'Finishing; consumes nothing by itself.'),
    ('PAINTING', 'Painting', 'finishing', '{finishing,any}', false, true, 70, 'Its materials (paint, primer) are consumed at finishing.'),
    ('PACK_SHIP', 'Pack / Ship', 'shipping', '{shipping,any}', false, true, 80, 'Its materials (boxes, labels) are consumed when the order ships.'),
    ('GENERAL', 'Other (consumes at production)', 'other', '{production,any}', false, true, 90, 'Its materials are consumed when the step runs.');

-- Routings: templates are routings without a product.
ALTER TABLE routings
    ALTER COLUMN product_id DROP NOT NULL,
    ADD COLUMN is_template BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN revision TEXT NOT NULL DEFAULT '1.0' CHECK (revision <> '' AND char_length(revision) <= 20),
    ADD COLUMN effective_date DATE,
    ADD CONSTRAINT routings_product_or_template CHECK ((product_id IS NULL) = is_template);
CREATE UNIQUE INDEX routings_template_code ON routings (upper(code)) WHERE is_template;

-- Routing operations: typed, with wait and move time, how the run time was found, and soft
-- deletion (orders made from a step keep naming it).
ALTER TABLE routing_operations
    ADD COLUMN operation_type TEXT REFERENCES operation_types (code) ON UPDATE CASCADE,
    ADD COLUMN description TEXT,
    ADD COLUMN wait_minutes NUMERIC(12, 2) NOT NULL DEFAULT 0 CHECK (wait_minutes >= 0),
    ADD COLUMN move_minutes NUMERIC(12, 2) NOT NULL DEFAULT 0 CHECK (move_minutes >= 0),
    ADD COLUMN runtime_source TEXT NOT NULL DEFAULT 'manual' CHECK (runtime_source IN ('manual', 'slicer', 'calculated')),
    ADD COLUMN slicer_file_path TEXT CHECK (char_length(slicer_file_path) <= 500),
    ADD COLUMN units_per_cycle INTEGER NOT NULL DEFAULT 1 CHECK (units_per_cycle >= 1),
    ADD COLUMN scrap_rate_percent NUMERIC(5, 2) NOT NULL DEFAULT 0 CHECK (scrap_rate_percent BETWEEN 0 AND 100),
    ADD COLUMN is_active BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE production_order_operations
    ADD COLUMN operation_type TEXT REFERENCES operation_types (code) ON UPDATE CASCADE;

-- Existing steps get the type their code names (PRINT is an FDM print, QC an inspection...).
CREATE FUNCTION strata_operation_type_for(code TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE upper(btrim(code))
        WHEN 'PRINT' THEN 'FDM_PRINT'
        WHEN 'EXTRUDE' THEN 'GENERAL' WHEN 'MOLD' THEN 'GENERAL' WHEN 'CUT' THEN 'GENERAL' WHEN 'MACHINE' THEN 'GENERAL'
        WHEN 'ASSEMBLE' THEN 'ASSEMBLY' WHEN 'BUILD' THEN 'ASSEMBLY' WHEN 'WELD' THEN 'ASSEMBLY'
        WHEN 'QC' THEN 'QUALITY_CONTROL' WHEN 'INSPECT' THEN 'QUALITY_CONTROL' WHEN 'TEST' THEN 'QUALITY_CONTROL'
        WHEN 'CLEAN' THEN 'SUPPORT_REMOVAL'
        WHEN 'SAND' THEN 'SANDING'
        WHEN 'PAINT' THEN 'PAINTING' WHEN 'COAT' THEN 'PAINTING'
        WHEN 'PACK' THEN 'PACK_SHIP' WHEN 'SHIP' THEN 'PACK_SHIP' WHEN 'LABEL' THEN 'PACK_SHIP'
    END
$$;
UPDATE routing_operations SET operation_type = strata_operation_type_for(operation_code);
UPDATE production_order_operations SET operation_type = strata_operation_type_for(operation_code);
DROP FUNCTION strata_operation_type_for(TEXT);

-- What each routing step consumes: per unit made, per batch (a print plate of
-- `units_per_cycle`), or once per order; scrap in percent; variable lines are swapped for a
-- variant's material.
CREATE TABLE routing_operation_materials (
    id                    BIGSERIAL PRIMARY KEY,
    routing_operation_id  BIGINT NOT NULL REFERENCES routing_operations (id) ON DELETE CASCADE,
    component_id          BIGINT NOT NULL REFERENCES items (id),
    quantity              NUMERIC(18, 6) NOT NULL CHECK (quantity > 0),
    quantity_per          TEXT NOT NULL DEFAULT 'unit' CHECK (quantity_per IN ('unit', 'batch', 'order')),
    unit                  TEXT NOT NULL DEFAULT 'EA' CHECK (unit <> '' AND char_length(unit) <= 20),
    scrap_factor          NUMERIC(5, 2) NOT NULL DEFAULT 0 CHECK (scrap_factor BETWEEN 0 AND 100),
    is_cost_only          BOOLEAN NOT NULL DEFAULT false,
    is_optional           BOOLEAN NOT NULL DEFAULT false,
    is_variable           BOOLEAN NOT NULL DEFAULT false,
    notes                 TEXT,
    created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT routing_operation_materials_once UNIQUE (routing_operation_id, component_id)
);
CREATE INDEX routing_operation_materials_component ON routing_operation_materials (component_id);
SELECT diesel_manage_updated_at('routing_operation_materials');

-- Material properties printer compatibility reads beyond enclosure and temperatures.
ALTER TABLE material_types
    ADD COLUMN density_g_cm3 NUMERIC(6, 3) CHECK (density_g_cm3 > 0),
    ADD COLUMN filament_diameter_mm NUMERIC(4, 2) NOT NULL DEFAULT 1.75 CHECK (filament_diameter_mm > 0),
    ADD COLUMN is_abrasive BOOLEAN NOT NULL DEFAULT false;
UPDATE material_types SET is_abrasive = true WHERE code ~* '(^|[-_ ])(CF|GF)([-_ ]|$)|CARBON|GLASS';
