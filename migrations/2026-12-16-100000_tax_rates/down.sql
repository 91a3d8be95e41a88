ALTER TABLE invoices DROP COLUMN tax_rate_name;
ALTER TABLE quotes DROP COLUMN tax_rate_name, DROP COLUMN tax_rate_id;
ALTER TABLE sales_orders DROP COLUMN tax_rate_name, DROP COLUMN tax_rate_id;
ALTER TABLE customers DROP COLUMN tax_rate_id, DROP COLUMN tax_exempt_certificate,
    DROP COLUMN tax_exempt;
DROP TABLE tax_rates;
