DROP TABLE bulk_exports;
