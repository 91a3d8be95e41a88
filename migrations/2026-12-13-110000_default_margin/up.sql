-- The margin the price suggestions aim for (price = cost / (1 - margin)): a percentage
-- below 100, none until the company sets one.
ALTER TABLE company_settings
    ADD COLUMN default_margin_percent numeric(5, 2)
        CHECK (default_margin_percent >= 0 AND default_margin_percent <= 99.99);
