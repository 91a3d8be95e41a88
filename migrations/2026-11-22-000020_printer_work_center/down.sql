DROP INDEX IF EXISTS printers_brand_status;
DROP INDEX IF EXISTS printers_work_center;
ALTER TABLE printers DROP COLUMN work_center_id;
