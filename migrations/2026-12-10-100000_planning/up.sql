-- Planning (issue 32): MRP runs with their planned orders and exceptions, the machines of a
-- work center that are not printers (resources), working hours per work center, maintenance
-- windows that block a printer or a resource, and what scheduling and netting need to know
-- about items, vendors' catalog entries and materials.

-- Stock kept back for surprises: MRP plans so the projected balance never falls below it.
ALTER TABLE items ADD COLUMN safety_stock NUMERIC(14, 4) NOT NULL DEFAULT 0 CHECK (safety_stock >= 0);

-- A vendor's own minimum and pack size for an item (stocking unit): planned buys round up to them.
ALTER TABLE vendor_items
    ADD COLUMN min_order_qty NUMERIC(14, 4) CHECK (min_order_qty > 0),
    ADD COLUMN pack_size     NUMERIC(14, 4) CHECK (pack_size > 0);

-- What a material asks of a printer (the scheduler checks it against the printer's capabilities).
ALTER TABLE material_types
    ADD COLUMN requires_enclosure BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN nozzle_temp_c      INTEGER CHECK (nozzle_temp_c BETWEEN 100 AND 500),
    ADD COLUMN bed_temp_c         INTEGER CHECK (bed_temp_c BETWEEN 0 AND 200);
UPDATE material_types SET requires_enclosure = TRUE WHERE upper(code) IN ('ABS', 'ASA', 'PC', 'PA', 'NYLON', 'PA-CF', 'PC-ABS');

-- Machines of a work center that are not printers (a wash station, a UV cure), FilaOps's resources.
CREATE TABLE resources (
    id                     BIGSERIAL PRIMARY KEY,
    work_center_id         BIGINT NOT NULL REFERENCES work_centers (id) ON DELETE RESTRICT,
    code                   TEXT NOT NULL CHECK (code <> '' AND char_length(code) <= 50),
    name                   TEXT NOT NULL CHECK (name <> '' AND char_length(name) <= 200),
    machine_type           TEXT CHECK (char_length(machine_type) <= 100),
    serial_number          TEXT CHECK (char_length(serial_number) <= 100),
    bambu_device_id        TEXT CHECK (char_length(bambu_device_id) <= 100),
    bambu_ip_address       TEXT CHECK (char_length(bambu_ip_address) <= 50),
    capacity_hours_per_day NUMERIC(5, 2) CHECK (capacity_hours_per_day BETWEEN 0 AND 24),
    status                 TEXT NOT NULL DEFAULT 'available'
                           CHECK (status IN ('available', 'busy', 'maintenance', 'offline')),
    is_active              BOOLEAN NOT NULL DEFAULT TRUE,
    created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX resources_code_unique ON resources (upper(code));
CREATE INDEX resources_work_center ON resources (work_center_id);
SELECT diesel_manage_updated_at('resources');

-- An operation is booked on a printer or on a resource, never both.
ALTER TABLE production_order_operations
    ADD COLUMN resource_id BIGINT REFERENCES resources (id) ON DELETE SET NULL,
    ADD CONSTRAINT production_order_operations_one_machine
        CHECK (printer_id IS NULL OR resource_id IS NULL);
CREATE INDEX production_order_operations_printer_time
    ON production_order_operations (printer_id, scheduled_start) WHERE printer_id IS NOT NULL;
CREATE INDEX production_order_operations_resource_time
    ON production_order_operations (resource_id, scheduled_start) WHERE resource_id IS NOT NULL;

-- Working hours of a work center: open periods per weekday (0 = Monday), minutes from
-- midnight UTC. A work center without any row is open around the clock.
CREATE TABLE work_center_hours (
    id             BIGSERIAL PRIMARY KEY,
    work_center_id BIGINT NOT NULL REFERENCES work_centers (id) ON DELETE CASCADE,
    weekday        SMALLINT NOT NULL CHECK (weekday BETWEEN 0 AND 6),
    opens_minute   SMALLINT NOT NULL CHECK (opens_minute BETWEEN 0 AND 1439),
    closes_minute  SMALLINT NOT NULL CHECK (closes_minute BETWEEN 1 AND 1440),
    CONSTRAINT work_center_hours_order CHECK (opens_minute < closes_minute)
);
CREATE INDEX work_center_hours_center ON work_center_hours (work_center_id, weekday);

-- Days whose hours differ (a holiday: closed; a Saturday shift). Without periods the day is closed.
CREATE TABLE work_center_exceptions (
    id             BIGSERIAL PRIMARY KEY,
    work_center_id BIGINT NOT NULL REFERENCES work_centers (id) ON DELETE CASCADE,
    day            DATE NOT NULL,
    opens_minute   SMALLINT CHECK (opens_minute BETWEEN 0 AND 1439),
    closes_minute  SMALLINT CHECK (closes_minute BETWEEN 1 AND 1440),
    reason         TEXT CHECK (char_length(reason) <= 255),
    CONSTRAINT work_center_exceptions_period CHECK (
        (opens_minute IS NULL AND closes_minute IS NULL)
        OR (opens_minute IS NOT NULL AND closes_minute IS NOT NULL AND opens_minute < closes_minute))
);
CREATE INDEX work_center_exceptions_center ON work_center_exceptions (work_center_id, day);

-- Planned downtime of one printer or one resource.
CREATE TABLE maintenance_windows (
    id                 BIGSERIAL PRIMARY KEY,
    printer_id         BIGINT REFERENCES printers (id) ON DELETE CASCADE,
    resource_id        BIGINT REFERENCES resources (id) ON DELETE CASCADE,
    starts_at          TIMESTAMPTZ NOT NULL,
    ends_at            TIMESTAMPTZ NOT NULL,
    reason             TEXT CHECK (char_length(reason) <= 255),
    status             TEXT NOT NULL DEFAULT 'scheduled'
                       CHECK (status IN ('scheduled', 'in_progress', 'completed', 'cancelled')),
    maintenance_log_id BIGINT REFERENCES printer_maintenance (id) ON DELETE SET NULL,
    created_by         TEXT,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT maintenance_windows_one_machine CHECK ((printer_id IS NULL) <> (resource_id IS NULL)),
    CONSTRAINT maintenance_windows_order CHECK (ends_at > starts_at)
);
CREATE INDEX maintenance_windows_printer ON maintenance_windows (printer_id, starts_at);
CREATE INDEX maintenance_windows_resource ON maintenance_windows (resource_id, starts_at);
SELECT diesel_manage_updated_at('maintenance_windows');

-- One MRP run.
CREATE TABLE mrp_runs (
    id                     BIGSERIAL PRIMARY KEY,
    run_date               TIMESTAMPTZ NOT NULL DEFAULT now(),
    planning_horizon_days  INTEGER NOT NULL CHECK (planning_horizon_days BETWEEN 1 AND 365),
    status                 TEXT NOT NULL DEFAULT 'running'
                           CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
    orders_processed       INTEGER NOT NULL DEFAULT 0,
    components_analyzed    INTEGER NOT NULL DEFAULT 0,
    shortages_found        INTEGER NOT NULL DEFAULT 0,
    planned_orders_created INTEGER NOT NULL DEFAULT 0,
    exceptions_found       INTEGER NOT NULL DEFAULT 0,
    error_message          TEXT,
    completed_at           TIMESTAMPTZ,
    created_by             BIGINT REFERENCES users (id) ON DELETE SET NULL
);

-- What MRP proposes to buy or make.
CREATE TABLE planned_orders (
    id                 BIGSERIAL PRIMARY KEY,
    order_type         TEXT NOT NULL CHECK (order_type IN ('purchase', 'production')),
    product_id         BIGINT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    quantity           NUMERIC(14, 4) NOT NULL CHECK (quantity > 0),
    due_date           DATE NOT NULL,
    start_date         DATE NOT NULL,
    vendor_id          BIGINT REFERENCES vendors (id) ON DELETE SET NULL,
    source_demand_type TEXT CHECK (source_demand_type IN ('sales_order', 'production_order', 'planned_order', 'safety_stock')),
    source_demand_id   BIGINT,
    mrp_run_id         BIGINT REFERENCES mrp_runs (id) ON DELETE SET NULL,
    status             TEXT NOT NULL DEFAULT 'planned'
                       CHECK (status IN ('planned', 'firmed', 'released', 'cancelled')),
    is_late            BOOLEAN NOT NULL DEFAULT FALSE,
    converted_to_po_id BIGINT REFERENCES purchase_orders (id) ON DELETE SET NULL,
    converted_to_mo_id BIGINT REFERENCES production_orders (id) ON DELETE SET NULL,
    notes              TEXT CHECK (char_length(notes) <= 2000),
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    firmed_at          TIMESTAMPTZ,
    released_at        TIMESTAMPTZ,
    CONSTRAINT planned_orders_dates CHECK (start_date <= due_date)
);
CREATE INDEX planned_orders_status ON planned_orders (status, due_date);
CREATE INDEX planned_orders_product ON planned_orders (product_id);

-- What an MRP run found worth a look.
CREATE TABLE mrp_exceptions (
    id               BIGSERIAL PRIMARY KEY,
    mrp_run_id       BIGINT NOT NULL REFERENCES mrp_runs (id) ON DELETE CASCADE,
    product_id       BIGINT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('late', 'excess', 'no_vendor', 'cycle')),
    message          TEXT NOT NULL,
    due_date         DATE,
    quantity         NUMERIC(14, 4),
    planned_order_id BIGINT REFERENCES planned_orders (id) ON DELETE SET NULL
);
CREATE INDEX mrp_exceptions_run ON mrp_exceptions (mrp_run_id);

-- A booking moved (another time, printer or resource) changes what its order's board shows:
-- open boards hear of it through productionOrderChanged like a status change.
CREATE OR REPLACE FUNCTION strata_live_operation_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status
        OR NEW.printer_id IS DISTINCT FROM OLD.printer_id
        OR NEW.resource_id IS DISTINCT FROM OLD.resource_id
        OR NEW.scheduled_start IS DISTINCT FROM OLD.scheduled_start
        OR NEW.scheduled_end IS DISTINCT FROM OLD.scheduled_end THEN
        PERFORM strata_live_production_order(NEW.production_order_id);
    END IF;
    RETURN NULL;
END
$$;
