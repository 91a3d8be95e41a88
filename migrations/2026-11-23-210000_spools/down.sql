DROP TABLE spool_usage;
DROP TABLE spools;
DROP TABLE material_colors;
DROP TABLE colors;
DROP TABLE material_types;
