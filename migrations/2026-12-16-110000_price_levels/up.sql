-- Price levels (issue 34): named tiers (wholesale, distributor) with a discount off the
-- items' selling prices and, for chosen items, a price of their own; assigned to customers
-- and applied when an order is created (the line keeps the list price and the level).
CREATE TABLE price_levels (
    id               BIGSERIAL PRIMARY KEY,
    name             TEXT NOT NULL CHECK (name <> ''),
    discount_percent NUMERIC(5, 2) NOT NULL DEFAULT 0
                     CHECK (discount_percent >= 0 AND discount_percent <= 100),
    description      TEXT,
    is_active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX price_levels_name ON price_levels (lower(name));

-- A level's own price for an item (beats the level's discount).
CREATE TABLE price_level_items (
    price_level_id BIGINT NOT NULL REFERENCES price_levels (id) ON DELETE CASCADE,
    item_id        BIGINT NOT NULL REFERENCES items (id),
    unit_price     NUMERIC(12, 2) NOT NULL CHECK (unit_price >= 0),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (price_level_id, item_id)
);

ALTER TABLE customers ADD COLUMN price_level_id BIGINT REFERENCES price_levels (id);

-- What the line would have cost at the item's selling price, and the level that priced it.
ALTER TABLE sales_order_lines
    ADD COLUMN list_price NUMERIC(12, 2),
    ADD COLUMN price_level_name TEXT;
