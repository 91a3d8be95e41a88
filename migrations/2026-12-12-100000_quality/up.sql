-- Quality management: the company's quality policy, a defect taxonomy, quality plans with
-- their characteristics, append-only inspections with measurements and photos, and a
-- record of every production scrap (reason, quantity, cost) for the quality dashboard.

ALTER TABLE company_settings
    ADD COLUMN quality_mode TEXT NOT NULL DEFAULT 'basic'
        CHECK (quality_mode IN ('off', 'basic', 'full')),
    ADD COLUMN quality_gate_action TEXT NOT NULL DEFAULT 'warn'
        CHECK (quality_gate_action IN ('off', 'warn', 'block'));

CREATE TABLE defect_reasons (
    id          BIGSERIAL PRIMARY KEY,
    code        TEXT NOT NULL CHECK (code <> '' AND char_length(code) <= 50),
    name        TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 100),
    description TEXT,
    category    TEXT CHECK (char_length(category) <= 50),
    severity    TEXT CHECK (severity IN ('minor', 'major', 'critical')),
    sequence    INTEGER NOT NULL DEFAULT 0,
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX defect_reasons_code_unique ON defect_reasons (lower(code));
SELECT diesel_manage_updated_at('defect_reasons');
INSERT INTO defect_reasons (code, name, category, severity, sequence) VALUES
    ('dimensional', 'Out of tolerance', 'dimensional', 'major', 10),
    ('layer_shift', 'Layer shift', 'functional', 'major', 20),
    ('warping', 'Warping', 'dimensional', 'major', 30),
    ('stringing', 'Stringing', 'cosmetic', 'minor', 40),
    ('surface', 'Surface finish', 'cosmetic', 'minor', 50),
    ('wrong_color', 'Wrong colour or material', 'functional', 'critical', 60),
    ('broken', 'Broken or cracked', 'functional', 'critical', 70);

CREATE TABLE quality_plans (
    id             BIGSERIAL PRIMARY KEY,
    product_id     BIGINT REFERENCES items (id) ON DELETE CASCADE,
    code           TEXT NOT NULL CHECK (code <> '' AND char_length(code) <= 50),
    name           TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 200),
    version        INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    revision       TEXT NOT NULL DEFAULT '1.0' CHECK (char_length(revision) <= 20),
    is_active      BOOLEAN NOT NULL DEFAULT TRUE,
    is_template    BOOLEAN NOT NULL DEFAULT FALSE,
    effective_date DATE,
    notes          TEXT,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- A template belongs to no product; a product's plan names it.
    CHECK ((is_template AND product_id IS NULL) OR (NOT is_template AND product_id IS NOT NULL))
);
CREATE INDEX quality_plans_product ON quality_plans (product_id) WHERE is_active;
SELECT diesel_manage_updated_at('quality_plans');

CREATE TABLE quality_plan_characteristics (
    id                   BIGSERIAL PRIMARY KEY,
    quality_plan_id      BIGINT NOT NULL REFERENCES quality_plans (id) ON DELETE CASCADE,
    code                 TEXT CHECK (char_length(code) <= 50),
    characteristic       TEXT NOT NULL CHECK (characteristic <> '' AND char_length(characteristic) <= 100),
    characteristic_type  TEXT NOT NULL DEFAULT 'variable' CHECK (characteristic_type IN ('variable', 'attribute')),
    nominal              NUMERIC(18, 4),
    lower_limit          NUMERIC(18, 4),
    upper_limit          NUMERIC(18, 4),
    unit                 TEXT CHECK (char_length(unit) <= 20),
    acceptance_criteria  TEXT,
    sequence             INTEGER NOT NULL DEFAULT 0,
    severity             TEXT CHECK (severity IN ('minor', 'major', 'critical')),
    routing_operation_id BIGINT REFERENCES routing_operations (id) ON DELETE SET NULL,
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (lower_limit IS NULL OR upper_limit IS NULL OR lower_limit <= upper_limit),
    -- An attribute is judged pass/fail against its criteria; a variable is measured.
    CHECK (characteristic_type = 'variable'
           OR (nominal IS NULL AND lower_limit IS NULL AND upper_limit IS NULL AND unit IS NULL)),
    CHECK (characteristic_type = 'attribute' OR acceptance_criteria IS NULL)
);
CREATE UNIQUE INDEX quality_plan_characteristics_code
    ON quality_plan_characteristics (quality_plan_id, code) WHERE code IS NOT NULL;

-- Every inspection ever made: never changed, never deleted (the trigger below).
CREATE TABLE qc_inspections (
    id                      BIGSERIAL PRIMARY KEY,
    production_order_id     BIGINT NOT NULL REFERENCES production_orders (id),
    production_operation_id BIGINT REFERENCES production_order_operations (id),
    result                  TEXT NOT NULL CHECK (result IN ('passed', 'failed', 'waived', 'conditional')),
    quantity_passed         NUMERIC(18, 4) CHECK (quantity_passed >= 0),
    quantity_failed         NUMERIC(18, 4) CHECK (quantity_failed >= 0),
    failure_reason          TEXT,
    notes                   TEXT,
    defect_reason_id        BIGINT REFERENCES defect_reasons (id),
    quality_plan_id         BIGINT REFERENCES quality_plans (id) ON DELETE SET NULL,
    inspector_user_id       BIGINT REFERENCES users (id) ON DELETE SET NULL,
    waiver_user_id          BIGINT REFERENCES users (id) ON DELETE SET NULL,
    gate_findings           TEXT[] NOT NULL DEFAULT '{}',
    inspected_at            TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX qc_inspections_order ON qc_inspections (production_order_id, id);
CREATE INDEX qc_inspections_operation ON qc_inspections (production_operation_id) WHERE production_operation_id IS NOT NULL;
CREATE INDEX qc_inspections_at ON qc_inspections (inspected_at);

CREATE TABLE qc_measurements (
    id                             BIGSERIAL PRIMARY KEY,
    qc_inspection_id               BIGINT NOT NULL REFERENCES qc_inspections (id),
    quality_plan_characteristic_id BIGINT REFERENCES quality_plan_characteristics (id) ON DELETE SET NULL,
    characteristic_code            TEXT CHECK (char_length(characteristic_code) <= 50),
    characteristic                 TEXT NOT NULL CHECK (characteristic <> '' AND char_length(characteristic) <= 100),
    nominal                        NUMERIC(18, 4),
    lower_limit                    NUMERIC(18, 4),
    upper_limit                    NUMERIC(18, 4),
    measured_value                 NUMERIC(18, 4),
    unit                           TEXT CHECK (char_length(unit) <= 20),
    conforms                       BOOLEAN,
    sequence                       INTEGER NOT NULL DEFAULT 0,
    CHECK (lower_limit IS NULL OR upper_limit IS NULL OR lower_limit <= upper_limit)
);
CREATE INDEX qc_measurements_inspection ON qc_measurements (qc_inspection_id, sequence, id);

CREATE FUNCTION qc_history_is_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'quality inspections are append-only: record a new inspection instead'
        USING ERRCODE = 'check_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER qc_inspections_append_only BEFORE UPDATE OR DELETE ON qc_inspections
    FOR EACH ROW EXECUTE FUNCTION qc_history_is_append_only();
CREATE TRIGGER qc_measurements_append_only BEFORE UPDATE OR DELETE ON qc_measurements
    FOR EACH ROW EXECUTE FUNCTION qc_history_is_append_only();

-- Photos of an inspection (images only, content sniffed, size-limited by the service),
-- stored under UPLOADS_DIR/qc/<inspection>/ by a generated name.
CREATE TABLE qc_photos (
    id               BIGSERIAL PRIMARY KEY,
    qc_inspection_id BIGINT NOT NULL REFERENCES qc_inspections (id),
    file_name        TEXT NOT NULL,
    caption          TEXT CHECK (char_length(caption) <= 255),
    mime_type        TEXT NOT NULL,
    file_size        BIGINT NOT NULL CHECK (file_size > 0),
    storage_key      TEXT NOT NULL,
    uploaded_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX qc_photos_inspection ON qc_photos (qc_inspection_id, id);

-- Every production scrap: the order (and operation) it came from, why, how many units and
-- the value written off to 5020 Scrap.
CREATE TABLE scrap_records (
    id                      BIGSERIAL PRIMARY KEY,
    production_order_id     BIGINT NOT NULL REFERENCES production_orders (id),
    production_operation_id BIGINT REFERENCES production_order_operations (id),
    reason_code             TEXT,
    quantity                NUMERIC(18, 4) NOT NULL CHECK (quantity >= 0),
    total_cost              NUMERIC(18, 2) NOT NULL DEFAULT 0,
    created_by              BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at              TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX scrap_records_at ON scrap_records (created_at);
CREATE INDEX scrap_records_order ON scrap_records (production_order_id);
