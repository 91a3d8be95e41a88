-- Stock and books (DOMAIN invariants 1-4): the general ledger (chart of accounts, fiscal
-- periods, journal entries whose debits equal credits, enforced here) and the inventory
-- ledger (append-only transactions, balances per item and location kept in the same
-- database transaction).

-- ============================================================== general ledger

CREATE TABLE gl_accounts (
    id               BIGSERIAL PRIMARY KEY,
    account_code     TEXT NOT NULL UNIQUE CHECK (account_code ~ '^[0-9]{4}$'),
    name             TEXT NOT NULL CHECK (name <> ''),
    account_type     TEXT NOT NULL CHECK (account_type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
    schedule_c_line  TEXT,
    parent_id        BIGINT REFERENCES gl_accounts (id),
    is_system        BOOLEAN NOT NULL DEFAULT FALSE,
    active           BOOLEAN NOT NULL DEFAULT TRUE,
    description      TEXT,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The chart of CONTRACT 6.8. System accounts are the ones postings use.
INSERT INTO gl_accounts (account_code, name, account_type, is_system, schedule_c_line) VALUES
    ('1000', 'Cash', 'asset', TRUE, NULL),
    ('1100', 'Accounts Receivable', 'asset', TRUE, NULL),
    ('1200', 'Raw Materials Inventory', 'asset', TRUE, NULL),
    ('1210', 'WIP Inventory', 'asset', TRUE, NULL),
    ('1220', 'Finished Goods Inventory', 'asset', TRUE, NULL),
    ('1230', 'Packaging Inventory', 'asset', TRUE, NULL),
    ('1300', 'Prepaid Expenses', 'asset', FALSE, NULL),
    ('1500', 'Equipment', 'asset', FALSE, NULL),
    ('1510', 'Accumulated Depreciation', 'asset', FALSE, NULL),
    ('2000', 'Accounts Payable', 'liability', TRUE, NULL),
    ('2100', 'Sales Tax Payable', 'liability', TRUE, NULL),
    ('2200', 'Credit Card Payable', 'liability', FALSE, NULL),
    ('3000', 'Owner''s Equity', 'equity', TRUE, NULL),
    ('3100', 'Owner''s Draw', 'equity', FALSE, NULL),
    ('3200', 'Retained Earnings', 'equity', FALSE, NULL),
    ('4000', 'Sales Revenue', 'revenue', TRUE, '1'),
    ('4100', 'Service Revenue', 'revenue', FALSE, '1'),
    ('4200', 'Shipping Revenue', 'revenue', TRUE, '1'),
    ('4900', 'Returns and Allowances', 'revenue', FALSE, '2'),
    ('5000', 'COGS - Materials', 'expense', TRUE, '4'),
    ('5010', 'Shipping Supplies Expense', 'expense', TRUE, '22'),
    ('5020', 'Scrap Expense', 'expense', TRUE, '4'),
    ('5030', 'Inventory Adjustment', 'expense', TRUE, '4'),
    ('5100', 'COGS - Direct Labor', 'expense', FALSE, '4'),
    ('5200', 'COGS - Other', 'expense', FALSE, '4'),
    ('6000', 'Advertising', 'expense', FALSE, '8'),
    ('6100', 'Car and Truck Expenses', 'expense', FALSE, '9'),
    ('6200', 'Contract Labor', 'expense', FALSE, '11'),
    ('6300', 'Depreciation', 'expense', FALSE, '13'),
    ('6400', 'Insurance', 'expense', FALSE, '15'),
    ('6500', 'Legal and Professional Services', 'expense', FALSE, '17'),
    ('6600', 'Office Expense', 'expense', FALSE, '18'),
    ('6700', 'Rent or Lease', 'expense', FALSE, '20b'),
    ('6800', 'Repairs and Maintenance', 'expense', FALSE, '21'),
    ('6900', 'Supplies', 'expense', FALSE, '22'),
    ('7000', 'Taxes and Licenses', 'expense', FALSE, '23'),
    ('7100', 'Travel', 'expense', FALSE, '24a'),
    ('7200', 'Utilities', 'expense', FALSE, '25'),
    ('7300', 'Software and Subscriptions', 'expense', FALSE, '27a'),
    ('8000', 'Bank Fees', 'expense', FALSE, '27a'),
    ('8100', 'Payment Processing Fees', 'expense', FALSE, '27a');

CREATE TABLE gl_fiscal_periods (
    id          BIGSERIAL PRIMARY KEY,
    year        INTEGER NOT NULL CHECK (year BETWEEN 1900 AND 9999),
    period      INTEGER NOT NULL CHECK (period BETWEEN 1 AND 12),
    start_date  DATE NOT NULL,
    end_date    DATE NOT NULL CHECK (end_date >= start_date),
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    closed_by   BIGINT REFERENCES users (id) ON DELETE SET NULL,
    closed_at   TIMESTAMPTZ,
    UNIQUE (year, period)
);

CREATE SEQUENCE gl_journal_entry_seq;

CREATE TABLE gl_journal_entries (
    id                BIGSERIAL PRIMARY KEY,
    entry_number      TEXT NOT NULL UNIQUE,
    entry_date        DATE NOT NULL,
    description       TEXT NOT NULL,
    source_type       TEXT,
    source_id         BIGINT,
    status            TEXT NOT NULL DEFAULT 'posted' CHECK (status IN ('draft', 'posted', 'voided')),
    fiscal_period_id  BIGINT NOT NULL REFERENCES gl_fiscal_periods (id),
    created_by        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    posted_by         BIGINT REFERENCES users (id) ON DELETE SET NULL,
    posted_at         TIMESTAMPTZ,
    voided_by         BIGINT REFERENCES users (id) ON DELETE SET NULL,
    voided_at         TIMESTAMPTZ,
    void_reason       TEXT,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX gl_journal_entries_date ON gl_journal_entries (entry_date, id);
CREATE INDEX gl_journal_entries_source ON gl_journal_entries (source_type, source_id);

CREATE TABLE gl_journal_entry_lines (
    id                BIGSERIAL PRIMARY KEY,
    journal_entry_id  BIGINT NOT NULL REFERENCES gl_journal_entries (id),
    account_id        BIGINT NOT NULL REFERENCES gl_accounts (id),
    debit_amount      NUMERIC(16, 2) NOT NULL DEFAULT 0 CHECK (debit_amount >= 0),
    credit_amount     NUMERIC(16, 2) NOT NULL DEFAULT 0 CHECK (credit_amount >= 0),
    memo              TEXT,
    line_order        INTEGER NOT NULL DEFAULT 0,
    -- A line is a debit or a credit, never both, never neither.
    CHECK ((debit_amount = 0) <> (credit_amount = 0))
);
CREATE INDEX gl_journal_entry_lines_entry ON gl_journal_entry_lines (journal_entry_id);
CREATE INDEX gl_journal_entry_lines_account ON gl_journal_entry_lines (account_id, journal_entry_id);

-- Invariant 4, in the database: at commit, every entry that was written has at least two
-- lines and its debits equal its credits exactly. Deferred, so an entry and its lines are
-- written by separate statements of one transaction.
CREATE FUNCTION gl_entry_must_balance() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    entry BIGINT;
    debits NUMERIC;
    credits NUMERIC;
    lines INTEGER;
BEGIN
    IF TG_TABLE_NAME = 'gl_journal_entries' THEN
        entry := NEW.id;
    ELSE
        entry := COALESCE(NEW.journal_entry_id, OLD.journal_entry_id);
    END IF;
    SELECT COALESCE(SUM(debit_amount), 0), COALESCE(SUM(credit_amount), 0), count(*)
      INTO debits, credits, lines
      FROM gl_journal_entry_lines WHERE journal_entry_id = entry;
    IF lines < 2 OR debits <> credits THEN
        RAISE EXCEPTION 'journal entry % does not balance: % lines, debits %, credits %',
            entry, lines, debits, credits
            USING ERRCODE = 'check_violation', CONSTRAINT = 'gl_entry_balances';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER gl_entry_balances
    AFTER INSERT ON gl_journal_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gl_entry_must_balance();
CREATE CONSTRAINT TRIGGER gl_entry_lines_balance
    AFTER INSERT OR UPDATE OR DELETE ON gl_journal_entry_lines
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gl_entry_must_balance();

-- Ledgers are appended, never edited: lines never change; an entry may only change status
-- (void), never its date, number, period or amounts; nothing is deleted.
CREATE FUNCTION ledger_row_is_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are never changed or deleted; post a reversing entry instead', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation', CONSTRAINT = 'ledger_append_only';
END $$;
CREATE TRIGGER gl_journal_entry_lines_append_only
    BEFORE UPDATE OR DELETE ON gl_journal_entry_lines
    FOR EACH ROW EXECUTE FUNCTION ledger_row_is_immutable();
CREATE TRIGGER gl_journal_entries_no_delete
    BEFORE DELETE ON gl_journal_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_row_is_immutable();
CREATE FUNCTION gl_entry_keeps_its_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.entry_number <> OLD.entry_number OR NEW.entry_date <> OLD.entry_date
       OR NEW.fiscal_period_id <> OLD.fiscal_period_id THEN
        RAISE EXCEPTION 'a journal entry''s number, date and period never change'
            USING ERRCODE = 'restrict_violation', CONSTRAINT = 'ledger_append_only';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER gl_journal_entries_keep_facts
    BEFORE UPDATE ON gl_journal_entries
    FOR EACH ROW EXECUTE FUNCTION gl_entry_keeps_its_facts();

-- A closed period takes no postings (the application says so politely first; this is the
-- guarantee).
CREATE FUNCTION gl_period_must_be_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM gl_fiscal_periods WHERE id = NEW.fiscal_period_id) <> 'open' THEN
        RAISE EXCEPTION 'fiscal period % is closed', NEW.fiscal_period_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'gl_period_open';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER gl_journal_entries_period_open
    BEFORE INSERT ON gl_journal_entries
    FOR EACH ROW EXECUTE FUNCTION gl_period_must_be_open();

-- ============================================================== inventory ledger

CREATE TABLE inventory_balances (
    id                  BIGSERIAL UNIQUE,
    item_id             BIGINT NOT NULL REFERENCES items (id) ON DELETE RESTRICT,
    location_id         BIGINT NOT NULL REFERENCES locations (id) ON DELETE RESTRICT,
    on_hand_quantity    NUMERIC(18, 4) NOT NULL DEFAULT 0,
    allocated_quantity  NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (allocated_quantity >= 0),
    available_quantity  NUMERIC(18, 4) GENERATED ALWAYS AS (on_hand_quantity - allocated_quantity) STORED,
    last_counted_at     TIMESTAMPTZ,
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, location_id)
);
CREATE INDEX inventory_balances_location ON inventory_balances (location_id, item_id);

CREATE TABLE inventory_transactions (
    id                 BIGSERIAL PRIMARY KEY,
    item_id            BIGINT NOT NULL REFERENCES items (id) ON DELETE RESTRICT,
    location_id        BIGINT NOT NULL REFERENCES locations (id) ON DELETE RESTRICT,
    transaction_type   TEXT NOT NULL CHECK (transaction_type IN (
                           'receipt', 'issue', 'transfer', 'adjustment', 'consumption', 'scrap',
                           'shipment', 'reservation', 'release', 'reservation_release',
                           'production', 'machine_time', 'negative_adjustment')),
    -- The signed change: of on hand for stock movements, of allocated for reservation,
    -- release and reservation_release.
    quantity           NUMERIC(18, 4) NOT NULL CHECK (quantity <> 0),
    affects_on_hand    BOOLEAN GENERATED ALWAYS AS
                           (transaction_type NOT IN ('reservation', 'release', 'reservation_release')) STORED,
    unit               TEXT NOT NULL,
    cost_per_unit      NUMERIC(14, 4),
    -- quantity x cost_per_unit, signed like quantity (the value that entered or left stock).
    total_cost         NUMERIC(18, 4),
    reference_type     TEXT,
    reference_id       BIGINT,
    lot_number         TEXT,
    serial_number      TEXT,
    reason             TEXT,
    notes              TEXT,
    -- The other side of a transfer.
    to_location_id     BIGINT REFERENCES locations (id),
    journal_entry_id   BIGINT REFERENCES gl_journal_entries (id),
    requires_approval  BOOLEAN NOT NULL DEFAULT FALSE,
    approved_by        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    approved_at        TIMESTAMPTZ,
    created_by         BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX inventory_transactions_item_location ON inventory_transactions (item_id, location_id, id);
CREATE INDEX inventory_transactions_recent ON inventory_transactions (created_at DESC, id DESC);
CREATE INDEX inventory_transactions_location ON inventory_transactions (location_id, id);
CREATE INDEX inventory_transactions_reference ON inventory_transactions (reference_type, reference_id);
CREATE INDEX inventory_transactions_journal ON inventory_transactions (journal_entry_id) WHERE journal_entry_id IS NOT NULL;
CREATE INDEX inventory_transactions_approval ON inventory_transactions (id) WHERE requires_approval AND approved_at IS NULL;

-- Append-only: the one change allowed is filling in what was empty (the journal entry the
-- posting produced, the approval of a negative-stock transaction).
CREATE FUNCTION inventory_transaction_is_appended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'inventory transactions are never deleted; post a reversing transaction instead'
            USING ERRCODE = 'restrict_violation', CONSTRAINT = 'ledger_append_only';
    END IF;
    IF (NEW.item_id, NEW.location_id, NEW.transaction_type, NEW.quantity, NEW.unit,
        NEW.cost_per_unit, NEW.total_cost, NEW.created_at)
       IS DISTINCT FROM
       (OLD.item_id, OLD.location_id, OLD.transaction_type, OLD.quantity, OLD.unit,
        OLD.cost_per_unit, OLD.total_cost, OLD.created_at)
       OR (OLD.journal_entry_id IS NOT NULL AND NEW.journal_entry_id IS DISTINCT FROM OLD.journal_entry_id)
       OR (OLD.approved_at IS NOT NULL AND NEW.approved_at IS DISTINCT FROM OLD.approved_at) THEN
        RAISE EXCEPTION 'inventory transactions are never changed; post a reversing transaction instead'
            USING ERRCODE = 'restrict_violation', CONSTRAINT = 'ledger_append_only';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER inventory_transactions_append_only
    BEFORE UPDATE OR DELETE ON inventory_transactions
    FOR EACH ROW EXECUTE FUNCTION inventory_transaction_is_appended();
