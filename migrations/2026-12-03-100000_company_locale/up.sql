-- The currency and locale the company works in (FilaOps's setup wizard sets them; its app
-- formats money and dates with them).
ALTER TABLE company_settings
    ADD COLUMN currency_code TEXT NOT NULL DEFAULT 'USD'
        CHECK (currency_code ~ '^[A-Z]{3}$'),
    ADD COLUMN locale TEXT NOT NULL DEFAULT 'en-US'
        CHECK (locale ~ '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$');
