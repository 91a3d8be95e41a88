ALTER TABLE quotes ADD COLUMN image_filename TEXT;
