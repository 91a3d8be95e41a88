ALTER TABLE company_settings DROP COLUMN locale, DROP COLUMN currency_code;
