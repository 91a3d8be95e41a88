-- Printer maintenance logs (the original's `/maintenance/` routes): what was done to a
-- printer, by whom, when, what it cost and when it is due again. The checks mirror
-- `printers::rules::check_maintenance` (the rule that performed_at is not in the future
-- depends on the clock, so it lives in the rules only).
CREATE TABLE printer_maintenance (
    id               BIGSERIAL PRIMARY KEY,
    printer_id       BIGINT NOT NULL REFERENCES printers (id) ON DELETE CASCADE,
    maintenance_type TEXT NOT NULL
                     CHECK (maintenance_type IN ('routine', 'repair', 'calibration', 'cleaning',
                                                 'nozzle_change', 'belt_tension',
                                                 'firmware_update', 'other')),
    description      TEXT NOT NULL CHECK (description <> '' AND char_length(description) <= 1000),
    performed_by     TEXT CHECK (performed_by <> '' AND char_length(performed_by) <= 100),
    performed_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    next_due_at      TIMESTAMPTZ,
    cost             NUMERIC(12, 2) CHECK (cost >= 0),
    downtime_minutes INTEGER CHECK (downtime_minutes >= 0),
    parts_used       TEXT CHECK (parts_used <> '' AND char_length(parts_used) <= 2000),
    notes            TEXT CHECK (notes <> '' AND char_length(notes) <= 5000),
    created_by       BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT printer_maintenance_due_after_performed
        CHECK (next_due_at IS NULL OR next_due_at > performed_at)
);
-- A printer's history newest first, and its latest log (`/maintenance/due`).
CREATE INDEX printer_maintenance_printer ON printer_maintenance (printer_id, performed_at DESC, id DESC);
-- The list across printers, newest first.
CREATE INDEX printer_maintenance_performed ON printer_maintenance (performed_at DESC, id DESC);
SELECT diesel_manage_updated_at('printer_maintenance');
