-- The print job a Bambu Lab printer runs for an operation (CONTRACT 5.12's operation shape):
-- the printer's task id and the plate of a multi-plate project, recorded when it starts.
ALTER TABLE production_order_operations
    ADD COLUMN bambu_task_id TEXT,
    ADD COLUMN bambu_plate_index INTEGER CHECK (bambu_plate_index BETWEEN 1 AND 64);
