DROP TRIGGER printers_live ON printers;
DROP FUNCTION strata_live_printer_row();
DROP TRIGGER production_order_operations_live ON production_order_operations;
DROP FUNCTION strata_live_operation_row();
DROP TRIGGER production_orders_live ON production_orders;
DROP FUNCTION strata_live_production_order_row();
DROP FUNCTION strata_live_production_order(bigint);
