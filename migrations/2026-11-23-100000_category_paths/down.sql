DROP TRIGGER item_categories_cascade_path ON item_categories;
DROP TRIGGER item_categories_set_path ON item_categories;
DROP FUNCTION item_categories_cascade_path();
DROP FUNCTION item_categories_set_path();
ALTER TABLE item_categories DROP COLUMN path;
