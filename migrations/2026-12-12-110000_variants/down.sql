DROP INDEX items_parent;
ALTER TABLE items
    DROP CONSTRAINT items_variant_not_own_parent,
    DROP COLUMN variant_color_id,
    DROP COLUMN variant_material_type_id,
    DROP COLUMN is_template,
    DROP COLUMN parent_product_id;
