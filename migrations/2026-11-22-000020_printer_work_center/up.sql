-- Printers may be assigned to a work center (CONTRACT 5.13 `work_center_id`). Work centers
-- arrive with production; the foreign key is added by the migration that creates them.
ALTER TABLE printers ADD COLUMN work_center_id BIGINT CHECK (work_center_id > 0);
CREATE INDEX printers_work_center ON printers (work_center_id) WHERE work_center_id IS NOT NULL;
CREATE INDEX printers_brand_status ON printers (brand, status);
