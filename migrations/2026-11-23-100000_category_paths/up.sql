-- Each category keeps its path from the root (`Filament > PLA`), so an item page reads it
-- with one index lookup per row instead of a recursive query per row. Triggers keep it
-- right for every writer (forms, imports, seeding, moves of whole subtrees).
ALTER TABLE item_categories ADD COLUMN path TEXT;

WITH RECURSIVE tree(id, path) AS (
    SELECT id, name FROM item_categories WHERE parent_id IS NULL
    UNION ALL
    SELECT c.id, tree.path || ' > ' || c.name FROM item_categories c JOIN tree ON c.parent_id = tree.id
)
UPDATE item_categories SET path = tree.path FROM tree WHERE item_categories.id = tree.id;

-- A row's path is its parent's path and its own name, recomputed on every write of the row.
CREATE FUNCTION item_categories_set_path() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.path := COALESCE((SELECT p.path || ' > ' FROM item_categories p WHERE p.id = NEW.parent_id), '')
        || NEW.name;
    RETURN NEW;
END $$;
CREATE TRIGGER item_categories_set_path BEFORE INSERT OR UPDATE ON item_categories
    FOR EACH ROW EXECUTE FUNCTION item_categories_set_path();

-- When a path changes (rename or move), the children recompute theirs, and so on down.
CREATE FUNCTION item_categories_cascade_path() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.path IS DISTINCT FROM OLD.path THEN
        UPDATE item_categories SET path = NULL WHERE parent_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER item_categories_cascade_path AFTER UPDATE ON item_categories
    FOR EACH ROW EXECUTE FUNCTION item_categories_cascade_path();
