-- Named tax rates (issue 34): a default, rates for shipping regions, a rate or an exemption
-- on the customer; orders, quotes and invoices keep the rate they were charged (its id and
-- its name as it was).
CREATE TABLE tax_rates (
    id          BIGSERIAL PRIMARY KEY,
    name        TEXT NOT NULL CHECK (name <> ''),
    -- A fraction: 0.0825 is 8.25 %.
    rate        NUMERIC(9, 6) NOT NULL CHECK (rate >= 0 AND rate <= 1),
    description TEXT,
    -- The shipping state or region it applies to (matched ignoring case), or none.
    region      TEXT CHECK (region IS NULL OR region <> ''),
    is_default  BOOLEAN NOT NULL DEFAULT FALSE,
    is_active   BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Deleting a rate deactivates it, and an inactive rate is never the default.
    CHECK (is_active OR NOT is_default)
);
-- One default at most; names and regions unique among the active rates.
CREATE UNIQUE INDEX tax_rates_one_default ON tax_rates ((TRUE)) WHERE is_default;
CREATE UNIQUE INDEX tax_rates_active_name ON tax_rates (lower(name)) WHERE is_active;
CREATE UNIQUE INDEX tax_rates_active_region ON tax_rates (upper(region))
    WHERE is_active AND region IS NOT NULL;

ALTER TABLE customers
    ADD COLUMN tax_exempt BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN tax_exempt_certificate TEXT,
    ADD COLUMN tax_rate_id BIGINT REFERENCES tax_rates (id);

ALTER TABLE sales_orders
    ADD COLUMN tax_rate_id BIGINT REFERENCES tax_rates (id),
    ADD COLUMN tax_rate_name TEXT;
ALTER TABLE quotes
    ADD COLUMN tax_rate_id BIGINT REFERENCES tax_rates (id),
    ADD COLUMN tax_rate_name TEXT;
ALTER TABLE invoices
    ADD COLUMN tax_rate_name TEXT;
