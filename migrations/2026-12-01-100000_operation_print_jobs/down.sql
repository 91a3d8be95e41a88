ALTER TABLE production_order_operations
    DROP COLUMN bambu_plate_index,
    DROP COLUMN bambu_task_id;
