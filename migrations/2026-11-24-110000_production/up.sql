-- Production (CONTRACT 5.12, 6.2, 6.7; DOMAIN "Postings"): work centers with printers as
-- their resources, routings per product, production orders `WO-YYYY-NNNN` with their
-- operations (copied from the routing on release), their materials (the BOM snapshotted on
-- release, with what is reserved and consumed), the spools they used and the serial numbers
-- of the units they made. Sales orders arrive later: `sales_order_id` and
-- `sales_order_line_id` have no foreign key yet.

CREATE TABLE work_centers (
    id            BIGSERIAL PRIMARY KEY,
    code          TEXT NOT NULL CHECK (code <> '' AND code = upper(code) AND char_length(code) <= 50),
    name          TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 255),
    center_type   TEXT NOT NULL DEFAULT 'printer_pool'
                  CHECK (center_type IN ('printer_pool', 'post_processing', 'qc', 'packing', 'assembly', 'other')),
    hourly_rate   NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (hourly_rate >= 0),
    description   TEXT,
    active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX work_centers_code_unique ON work_centers (upper(code));
SELECT diesel_manage_updated_at('work_centers');

-- The printers' work center (the column exists since 2026-11-22-000020).
ALTER TABLE printers ADD CONSTRAINT printers_work_center_fk
    FOREIGN KEY (work_center_id) REFERENCES work_centers (id) ON DELETE SET NULL;

CREATE TABLE routings (
    id          BIGSERIAL PRIMARY KEY,
    product_id  BIGINT NOT NULL REFERENCES items (id),
    code        TEXT NOT NULL CHECK (code <> '' AND code = upper(code) AND char_length(code) <= 50),
    name        TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 255),
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    notes       TEXT,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (product_id, version)
);
CREATE UNIQUE INDEX routings_one_active_per_product ON routings (product_id) WHERE active;
SELECT diesel_manage_updated_at('routings');

CREATE TABLE routing_operations (
    id              BIGSERIAL PRIMARY KEY,
    routing_id      BIGINT NOT NULL REFERENCES routings (id) ON DELETE CASCADE,
    sequence        INTEGER NOT NULL CHECK (sequence >= 0),
    operation_code  TEXT NOT NULL CHECK (operation_code <> '' AND char_length(operation_code) <= 50),
    operation_name  TEXT NOT NULL CHECK (operation_name <> '' AND char_length(operation_name) <= 255),
    work_center_id  BIGINT NOT NULL REFERENCES work_centers (id),
    setup_minutes   NUMERIC(12, 2) NOT NULL DEFAULT 0 CHECK (setup_minutes >= 0),
    -- Minutes per unit.
    run_minutes     NUMERIC(12, 2) NOT NULL DEFAULT 0 CHECK (run_minutes >= 0),
    notes           TEXT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX routing_operations_routing ON routing_operations (routing_id, sequence, id);
CREATE INDEX routing_operations_work_center ON routing_operations (work_center_id);
SELECT diesel_manage_updated_at('routing_operations');

CREATE SEQUENCE production_order_seq;

CREATE TABLE production_orders (
    id                       BIGSERIAL PRIMARY KEY,
    code                     TEXT NOT NULL UNIQUE,
    product_id               BIGINT NOT NULL REFERENCES items (id),
    bom_id                   BIGINT REFERENCES boms (id) ON DELETE SET NULL,
    routing_id               BIGINT REFERENCES routings (id) ON DELETE SET NULL,
    sales_order_id           BIGINT,
    sales_order_line_id      BIGINT,
    location_id              BIGINT NOT NULL REFERENCES locations (id),
    quantity_ordered         NUMERIC(18, 4) NOT NULL CHECK (quantity_ordered > 0),
    quantity_completed       NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_completed >= 0),
    quantity_scrapped        NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_scrapped >= 0),
    source                   TEXT NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'sales_order', 'mrp_planned')),
    order_type               TEXT NOT NULL DEFAULT 'MAKE_TO_ORDER' CHECK (order_type IN ('MAKE_TO_ORDER', 'MAKE_TO_STOCK')),
    status                   TEXT NOT NULL DEFAULT 'draft'
                             CHECK (status IN ('draft', 'released', 'in_progress', 'on_hold', 'complete', 'cancelled', 'split', 'scrapped', 'short')),
    priority                 INTEGER NOT NULL DEFAULT 3 CHECK (priority BETWEEN 1 AND 5),
    qc_status                TEXT NOT NULL DEFAULT 'not_required'
                             CHECK (qc_status IN ('not_required', 'pending', 'passed', 'failed', 'waived')),
    qc_notes                 TEXT,
    qc_inspected_by          BIGINT REFERENCES users (id) ON DELETE SET NULL,
    qc_inspected_at          TIMESTAMPTZ,
    due_date                 DATE,
    scheduled_start          TIMESTAMPTZ,
    scheduled_end            TIMESTAMPTZ,
    actual_start             TIMESTAMPTZ,
    actual_end               TIMESTAMPTZ,
    estimated_time_minutes   NUMERIC(12, 2) NOT NULL DEFAULT 0,
    estimated_material_cost  NUMERIC(18, 4) NOT NULL DEFAULT 0,
    estimated_labor_cost     NUMERIC(18, 4) NOT NULL DEFAULT 0,
    -- Value consumed into WIP for this order (cents), and labour booked.
    actual_material_cost     NUMERIC(18, 4) NOT NULL DEFAULT 0,
    actual_labor_cost        NUMERIC(18, 4) NOT NULL DEFAULT 0,
    assigned_to              TEXT,
    notes                    TEXT,
    remake_of_id             BIGINT REFERENCES production_orders (id) ON DELETE SET NULL,
    remake_reason            TEXT,
    scrap_reason             TEXT,
    parent_id                BIGINT REFERENCES production_orders (id) ON DELETE SET NULL,
    created_by               BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at               TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at               TIMESTAMPTZ NOT NULL DEFAULT now(),
    released_at              TIMESTAMPTZ,
    completed_at             TIMESTAMPTZ
);
-- The list's order (CONTRACT 5.12): priority, due date (NULLs last), newest first.
CREATE INDEX production_orders_listing ON production_orders (priority, due_date NULLS LAST, created_at DESC, id DESC);
CREATE INDEX production_orders_status ON production_orders (status);
CREATE INDEX production_orders_product ON production_orders (product_id);
CREATE INDEX production_orders_sales_order ON production_orders (sales_order_id) WHERE sales_order_id IS NOT NULL;
SELECT diesel_manage_updated_at('production_orders');

CREATE TABLE production_order_operations (
    id                    BIGSERIAL PRIMARY KEY,
    production_order_id   BIGINT NOT NULL REFERENCES production_orders (id) ON DELETE CASCADE,
    routing_operation_id  BIGINT REFERENCES routing_operations (id) ON DELETE SET NULL,
    work_center_id        BIGINT NOT NULL REFERENCES work_centers (id),
    printer_id            BIGINT REFERENCES printers (id) ON DELETE SET NULL,
    sequence              INTEGER NOT NULL,
    operation_code        TEXT NOT NULL,
    operation_name        TEXT NOT NULL,
    status                TEXT NOT NULL DEFAULT 'pending'
                          CHECK (status IN ('pending', 'queued', 'running', 'complete', 'skipped')),
    quantity_completed    NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_completed >= 0),
    quantity_scrapped     NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_scrapped >= 0),
    planned_setup_minutes NUMERIC(12, 2) NOT NULL DEFAULT 0,
    planned_run_minutes   NUMERIC(12, 2) NOT NULL DEFAULT 0,
    actual_setup_minutes  NUMERIC(12, 2),
    actual_run_minutes    NUMERIC(12, 2),
    scheduled_start       TIMESTAMPTZ,
    scheduled_end         TIMESTAMPTZ,
    actual_start          TIMESTAMPTZ,
    actual_end            TIMESTAMPTZ,
    operator_name         TEXT,
    notes                 TEXT,
    created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at            TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX production_order_operations_order ON production_order_operations (production_order_id, sequence, id);
CREATE INDEX production_order_operations_printer ON production_order_operations (printer_id, status) WHERE printer_id IS NOT NULL;
SELECT diesel_manage_updated_at('production_order_operations');

CREATE TABLE production_order_materials (
    id                    BIGSERIAL PRIMARY KEY,
    production_order_id   BIGINT NOT NULL REFERENCES production_orders (id) ON DELETE CASCADE,
    -- The operation that consumes it (the first one); null before release.
    operation_id          BIGINT REFERENCES production_order_operations (id) ON DELETE SET NULL,
    bom_line_id           BIGINT REFERENCES bom_lines (id) ON DELETE SET NULL,
    component_id          BIGINT NOT NULL REFERENCES items (id),
    -- In the component's stocking unit, scrap factor included.
    quantity_required     NUMERIC(18, 4) NOT NULL CHECK (quantity_required >= 0),
    quantity_allocated    NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_allocated >= 0),
    quantity_consumed     NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_consumed >= 0),
    unit                  TEXT NOT NULL,
    -- The location the reservation was made at.
    location_id           BIGINT NOT NULL REFERENCES locations (id),
    created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at            TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX production_order_materials_order ON production_order_materials (production_order_id, id);
CREATE INDEX production_order_materials_component ON production_order_materials (component_id);
SELECT diesel_manage_updated_at('production_order_materials');

-- Which spools an order used (CONTRACT 6.7: `weight_consumed_kg` held grams; here named as it is).
CREATE TABLE production_order_spools (
    id                   BIGSERIAL PRIMARY KEY,
    production_order_id  BIGINT NOT NULL REFERENCES production_orders (id) ON DELETE RESTRICT,
    spool_id             BIGINT NOT NULL REFERENCES spools (id) ON DELETE RESTRICT,
    weight_consumed_g    NUMERIC(14, 4) NOT NULL CHECK (weight_consumed_g > 0),
    created_by           BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX production_order_spools_order ON production_order_spools (production_order_id);
CREATE INDEX production_order_spools_spool ON production_order_spools (spool_id);

-- spool_usage.production_order_id keeps no foreign key: the spools area's consume route
-- records usage for any order number (its tests and imports rely on it).

CREATE SEQUENCE serial_number_seq;

-- Finished units (CONTRACT 6.7), one per unit of a serial-tracked product.
CREATE TABLE serial_numbers (
    id                   BIGSERIAL PRIMARY KEY,
    serial_number        TEXT NOT NULL UNIQUE,
    product_id           BIGINT NOT NULL REFERENCES items (id),
    production_order_id  BIGINT REFERENCES production_orders (id) ON DELETE RESTRICT,
    status               TEXT NOT NULL DEFAULT 'manufactured'
                         CHECK (status IN ('manufactured', 'in_stock', 'sold', 'shipped', 'returned', 'scrapped')),
    qc_passed            BOOLEAN NOT NULL DEFAULT FALSE,
    qc_date              TIMESTAMPTZ,
    qc_notes             TEXT,
    sales_order_id       BIGINT,
    sales_order_line_id  BIGINT,
    sold_at              TIMESTAMPTZ,
    shipped_at           TIMESTAMPTZ,
    tracking_number      TEXT,
    returned_at          TIMESTAMPTZ,
    return_reason        TEXT,
    manufactured_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX serial_numbers_order ON serial_numbers (production_order_id);
CREATE INDEX serial_numbers_product ON serial_numbers (product_id);
