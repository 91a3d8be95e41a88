ALTER TABLE quotes DROP COLUMN image_filename;
