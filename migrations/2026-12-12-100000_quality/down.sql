DROP TABLE scrap_records;
DROP TABLE qc_photos;
DROP TABLE qc_measurements;
DROP TABLE qc_inspections;
DROP FUNCTION qc_history_is_append_only();
DROP TABLE quality_plan_characteristics;
DROP TABLE quality_plans;
DROP TABLE defect_reasons;
ALTER TABLE company_settings DROP COLUMN quality_gate_action, DROP COLUMN quality_mode;
