CREATE OR REPLACE FUNCTION strata_live_operation_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status OR NEW.printer_id IS DISTINCT FROM OLD.printer_id THEN
        PERFORM strata_live_production_order(NEW.production_order_id);
    END IF;
    RETURN NULL;
END
$$;
DROP TABLE mrp_exceptions;
DROP TABLE planned_orders;
DROP TABLE mrp_runs;
DROP TABLE maintenance_windows;
DROP TABLE work_center_exceptions;
DROP TABLE work_center_hours;
ALTER TABLE production_order_operations DROP CONSTRAINT production_order_operations_one_machine;
DROP INDEX production_order_operations_printer_time;
DROP INDEX production_order_operations_resource_time;
ALTER TABLE production_order_operations DROP COLUMN resource_id;
DROP TABLE resources;
ALTER TABLE material_types DROP COLUMN requires_enclosure, DROP COLUMN nozzle_temp_c, DROP COLUMN bed_temp_c;
ALTER TABLE vendor_items DROP COLUMN min_order_qty, DROP COLUMN pack_size;
ALTER TABLE items DROP COLUMN safety_stock;
