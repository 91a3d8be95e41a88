-- Receivables (issue 34): how a customer pays and how much it may owe. Net terms need an
-- admin's approval, kept with who gave it and when; a credit limit caps what confirming an
-- order may take the customer's open balance to (none: no cap).
ALTER TABLE customers
    ADD COLUMN payment_terms TEXT NOT NULL DEFAULT 'cod'
        CHECK (payment_terms IN ('cod', 'prepay', 'net15', 'net30', 'net60', 'card_on_file')),
    ADD COLUMN credit_limit NUMERIC(14, 2) CHECK (credit_limit >= 0),
    ADD COLUMN approved_for_terms BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN approved_for_terms_at TIMESTAMPTZ,
    ADD COLUMN approved_for_terms_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    ADD CONSTRAINT customers_net_terms_approved
        CHECK (payment_terms NOT IN ('net15', 'net30', 'net60') OR approved_for_terms);
