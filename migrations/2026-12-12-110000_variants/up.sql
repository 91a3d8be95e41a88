-- Item variants: a template item (its routing names variable materials) and the items made
-- from it, one per material and colour, each with its own BOM and routing.
ALTER TABLE items
    ADD COLUMN parent_product_id BIGINT REFERENCES items (id),
    ADD COLUMN is_template BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN variant_material_type_id BIGINT REFERENCES material_types (id),
    ADD COLUMN variant_color_id BIGINT REFERENCES colors (id),
    ADD CONSTRAINT items_variant_not_own_parent CHECK (parent_product_id IS NULL OR parent_product_id <> id);
CREATE INDEX items_parent ON items (parent_product_id) WHERE parent_product_id IS NOT NULL;
