ALTER TABLE company_settings DROP COLUMN default_margin_percent;
