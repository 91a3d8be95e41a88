-- Invoices (issue 34): the document a customer receives for an order, snapshotting who and
-- what was billed. Shipping an order writes one for what is not invoiced yet; a deposit or a
-- partial bill can be written by hand. An invoice's journal entry is the one receivable
-- posting for it (Dr 1100 / Cr 4000 + 2100 + 4200), still sourced to its sales order so the
-- journals read it as before. Payments stay on the order and are applied to its invoices
-- oldest first; what no invoice takes yet sits in 2300 Customer Deposits, so that 1100 is
-- always the sum of the open invoices' balances.
CREATE SEQUENCE invoice_seq;

CREATE TABLE invoices (
    id                BIGSERIAL PRIMARY KEY,
    invoice_number    TEXT NOT NULL UNIQUE,
    sales_order_id    BIGINT NOT NULL REFERENCES sales_orders (id),
    shipment_id       BIGINT REFERENCES shipments (id),
    customer_id       BIGINT REFERENCES customers (id) ON DELETE SET NULL,
    customer_name     TEXT,
    customer_email    TEXT,
    customer_company  TEXT,
    bill_to_line1     TEXT,
    bill_to_city      TEXT,
    bill_to_state     TEXT,
    bill_to_zip       TEXT,
    payment_terms     TEXT NOT NULL DEFAULT 'cod'
        CHECK (payment_terms IN ('cod', 'prepay', 'net15', 'net30', 'net60', 'card_on_file')),
    invoice_date      DATE NOT NULL,
    due_date          DATE NOT NULL,
    subtotal          NUMERIC(14, 2) NOT NULL,
    discount_amount   NUMERIC(14, 2) NOT NULL DEFAULT 0,
    tax_rate          NUMERIC(7, 6) NOT NULL DEFAULT 0,
    tax_amount        NUMERIC(14, 2) NOT NULL DEFAULT 0,
    shipping_amount   NUMERIC(14, 2) NOT NULL DEFAULT 0,
    total             NUMERIC(14, 2) NOT NULL,
    status            TEXT NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'sent', 'partially_paid', 'paid', 'voided')),
    amount_paid       NUMERIC(14, 2) NOT NULL DEFAULT 0,
    paid_at           TIMESTAMPTZ,
    payment_method    TEXT CHECK (payment_method IN ('cash', 'check', 'credit_card', 'paypal', 'venmo', 'zelle', 'wire', 'other')),
    payment_reference TEXT,
    sent_at           TIMESTAMPTZ,
    sent_to           TEXT,
    voided_at         TIMESTAMPTZ,
    voided_by_id      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    void_reason       TEXT,
    journal_entry_id  BIGINT REFERENCES gl_journal_entries (id),
    created_by        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT invoices_total_adds_up CHECK (total = subtotal - discount_amount + tax_amount + shipping_amount),
    CONSTRAINT invoices_paid_within_total CHECK (amount_paid >= 0 AND amount_paid <= GREATEST(total, 0)),
    CONSTRAINT invoices_void_has_reason CHECK (status <> 'voided' OR void_reason IS NOT NULL)
);
CREATE INDEX invoices_sales_order ON invoices (sales_order_id);
CREATE INDEX invoices_customer ON invoices (customer_id);
CREATE INDEX invoices_open_due ON invoices (due_date) WHERE status IN ('draft', 'sent', 'partially_paid');

CREATE TABLE invoice_lines (
    id                  BIGSERIAL PRIMARY KEY,
    invoice_id          BIGINT NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
    sales_order_line_id BIGINT REFERENCES sales_order_lines (id) ON DELETE SET NULL,
    product_id          BIGINT REFERENCES items (id) ON DELETE SET NULL,
    sku                 TEXT,
    description         TEXT NOT NULL,
    quantity            NUMERIC(14, 4) NOT NULL,
    unit_price          NUMERIC(14, 2) NOT NULL,
    base_price          NUMERIC(14, 2),
    discount_percent    NUMERIC(5, 2),
    line_total          NUMERIC(14, 2) NOT NULL
);
CREATE INDEX invoice_lines_invoice ON invoice_lines (invoice_id);

-- What customers paid ahead of their invoices.
INSERT INTO gl_accounts (account_code, name, account_type, is_system, schedule_c_line)
VALUES ('2300', 'Customer Deposits', 'liability', TRUE, NULL)
ON CONFLICT (account_code) DO UPDATE SET is_system = TRUE;

ALTER TABLE gl_journal_entries DROP CONSTRAINT gl_journal_entries_source_type_check;
ALTER TABLE gl_journal_entries ADD CONSTRAINT gl_journal_entries_source_type_check
    CHECK (source_type IN ('adjustment', 'spool_adjustment', 'inventory_import', 'purchase_order',
                           'production_order', 'sales_order', 'payment', 'manual', 'customer_deposit'));

-- The invoices already booked: every shipped order's invoice entry becomes an invoice, with
-- the order's figures and lines and the payments it has, so the books do not change.
WITH booked AS (
    SELECT DISTINCT ON (e.source_id) e.id AS entry_id, e.source_id AS order_id, e.entry_date, e.created_by
    FROM gl_journal_entries e
    JOIN gl_journal_entry_lines l ON l.journal_entry_id = e.id
    JOIN gl_accounts a ON a.id = l.account_id
    WHERE e.source_type = 'sales_order' AND a.account_code = '1100' AND l.debit_amount > 0
    ORDER BY e.source_id, e.id
), paid AS (
    SELECT sales_order_id, SUM(amount) AS paid FROM payments WHERE status = 'completed' GROUP BY sales_order_id
), inserted AS (
    INSERT INTO invoices (invoice_number, sales_order_id, shipment_id, customer_id, customer_name,
        customer_email, customer_company, bill_to_line1, bill_to_city, bill_to_state, bill_to_zip,
        payment_terms, invoice_date, due_date, subtotal, discount_amount, tax_rate, tax_amount, shipping_amount, total,
        status, amount_paid, journal_entry_id, created_by, created_at)
    SELECT 'INV-' || to_char(b.entry_date, 'YYYY') || '-' || lpad(nextval('invoice_seq')::text, 4, '0'),
           so.id,
           (SELECT s.id FROM shipments s WHERE s.sales_order_id = so.id ORDER BY s.id LIMIT 1),
           so.customer_id, so.customer_name, so.customer_email, c.company_name,
           c.billing_address_line1, c.billing_city, c.billing_state, c.billing_zip,
           COALESCE(c.payment_terms, 'cod'), b.entry_date,
           b.entry_date + CASE COALESCE(c.payment_terms, 'cod')
               WHEN 'net15' THEN 15 WHEN 'net30' THEN 30 WHEN 'net60' THEN 60 ELSE 0 END,
           so.subtotal, so.subtotal + so.tax_amount + so.shipping_cost - so.grand_total,
           so.tax_rate, so.tax_amount, so.shipping_cost, so.grand_total,
           CASE WHEN GREATEST(COALESCE(p.paid, 0), 0) >= so.grand_total AND so.grand_total > 0 THEN 'paid'
                WHEN COALESCE(p.paid, 0) > 0 THEN 'partially_paid'
                ELSE 'draft' END,
           LEAST(GREATEST(COALESCE(p.paid, 0), 0), GREATEST(so.grand_total, 0)),
           b.entry_id, b.created_by, COALESCE(so.shipped_at, now())
    FROM booked b
    JOIN sales_orders so ON so.id = b.order_id
    LEFT JOIN customers c ON c.id = so.customer_id
    LEFT JOIN paid p ON p.sales_order_id = so.id
    ORDER BY b.entry_date, b.entry_id
    RETURNING id, sales_order_id
)
INSERT INTO invoice_lines (invoice_id, sales_order_line_id, product_id, sku, description, quantity,
                           unit_price, line_total)
SELECT i.id, l.id, l.product_id, it.sku, COALESCE(it.name, 'Item'), l.quantity, l.unit_price, l.total
FROM inserted i
JOIN sales_order_lines l ON l.sales_order_id = i.sales_order_id
LEFT JOIN items it ON it.id = l.product_id;

-- An order's history records its invoices and amendments.
ALTER TABLE sales_order_events DROP CONSTRAINT sales_order_events_event_type_check;
ALTER TABLE sales_order_events ADD CONSTRAINT sales_order_events_event_type_check
    CHECK (event_type IN ('created', 'status_change', 'payment', 'production', 'address_updated',
                          'shipping_updated', 'note', 'shipping', 'invoice', 'amendment'));
