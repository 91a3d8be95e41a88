DROP TABLE bom_lines;
DROP TABLE boms;
