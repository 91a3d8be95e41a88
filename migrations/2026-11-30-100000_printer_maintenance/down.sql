DROP TABLE printer_maintenance;
