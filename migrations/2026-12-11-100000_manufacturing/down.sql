ALTER TABLE material_types DROP COLUMN density_g_cm3, DROP COLUMN filament_diameter_mm, DROP COLUMN is_abrasive;
DROP TABLE routing_operation_materials;
ALTER TABLE production_order_operations DROP COLUMN operation_type;
ALTER TABLE routing_operations
    DROP COLUMN operation_type, DROP COLUMN description, DROP COLUMN wait_minutes,
    DROP COLUMN move_minutes, DROP COLUMN runtime_source, DROP COLUMN slicer_file_path,
    DROP COLUMN units_per_cycle, DROP COLUMN scrap_rate_percent, DROP COLUMN is_active;
DELETE FROM routings WHERE is_template;
DROP INDEX routings_template_code;
ALTER TABLE routings DROP CONSTRAINT routings_product_or_template,
    DROP COLUMN is_template, DROP COLUMN revision, DROP COLUMN effective_date,
    ALTER COLUMN product_id SET NOT NULL;
DROP TABLE operation_types;
