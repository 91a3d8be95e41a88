ALTER TABLE customers
    DROP CONSTRAINT customers_net_terms_approved,
    DROP COLUMN approved_for_terms_by,
    DROP COLUMN approved_for_terms_at,
    DROP COLUMN approved_for_terms,
    DROP COLUMN credit_limit,
    DROP COLUMN payment_terms;
