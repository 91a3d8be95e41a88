-- Purchasing (CONTRACT 5.14, 6.3, 6.7): purchase orders with lines bought in a purchase unit
-- (converted to the item's stocking unit on receipt), their status events and documents,
-- the material lots a receipt creates, and what each vendor sells (last price, lead time).
-- Stock and money move through the two ledgers; nothing here holds a balance.

CREATE SEQUENCE purchase_order_number_seq;
CREATE SEQUENCE material_lot_number_seq;

CREATE TABLE purchase_orders (
    id                 BIGSERIAL PRIMARY KEY,
    po_number          TEXT NOT NULL UNIQUE CHECK (po_number <> ''),
    vendor_id          BIGINT NOT NULL REFERENCES vendors (id) ON DELETE RESTRICT,
    status             TEXT NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'ordered', 'shipped', 'received', 'closed', 'cancelled')),
    order_date         DATE,
    expected_date      DATE,
    shipped_date       DATE,
    received_date      DATE,
    tracking_number    TEXT CHECK (char_length(tracking_number) <= 200),
    carrier            TEXT CHECK (char_length(carrier) <= 100),
    subtotal           NUMERIC(14, 2) NOT NULL DEFAULT 0 CHECK (subtotal >= 0),
    tax_amount         NUMERIC(14, 2) NOT NULL DEFAULT 0 CHECK (tax_amount >= 0),
    shipping_cost      NUMERIC(14, 2) NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
    total_amount       NUMERIC(14, 2) NOT NULL DEFAULT 0 CHECK (total_amount >= 0),
    payment_method     TEXT CHECK (char_length(payment_method) <= 100),
    payment_reference  TEXT CHECK (char_length(payment_reference) <= 200),
    document_url       TEXT CHECK (char_length(document_url) <= 2000),
    notes              TEXT,
    created_by         BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX purchase_orders_vendor ON purchase_orders (vendor_id, id);
CREATE INDEX purchase_orders_status ON purchase_orders (status, id);
SELECT diesel_manage_updated_at('purchase_orders');

-- Quantities and unit costs are in the line's purchase unit; a receipt converts them to
-- the item's stocking unit (filament bought in KG, stocked in G).
CREATE TABLE purchase_order_lines (
    id                 BIGSERIAL PRIMARY KEY,
    purchase_order_id  BIGINT NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
    line_number        INTEGER NOT NULL CHECK (line_number > 0),
    product_id         BIGINT NOT NULL REFERENCES items (id) ON DELETE RESTRICT,
    quantity_ordered   NUMERIC(14, 4) NOT NULL CHECK (quantity_ordered > 0),
    quantity_received  NUMERIC(14, 4) NOT NULL DEFAULT 0 CHECK (quantity_received >= 0),
    unit_cost          NUMERIC(14, 4) NOT NULL CHECK (unit_cost >= 0),
    purchase_unit      TEXT NOT NULL REFERENCES units_of_measure (code),
    notes              TEXT,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (purchase_order_id, line_number)
);
CREATE INDEX purchase_order_lines_product ON purchase_order_lines (product_id);
SELECT diesel_manage_updated_at('purchase_order_lines');

CREATE TABLE purchase_order_events (
    id                 BIGSERIAL PRIMARY KEY,
    purchase_order_id  BIGINT NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
    event_type         TEXT NOT NULL CHECK (event_type IN ('created', 'status_change', 'receipt', 'note', 'document')),
    title              TEXT NOT NULL CHECK (title <> '' AND char_length(title) <= 255),
    description        TEXT,
    old_status         TEXT,
    new_status         TEXT,
    created_by         BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX purchase_order_events_po ON purchase_order_events (purchase_order_id, id);

CREATE TABLE purchase_order_documents (
    id                 BIGSERIAL PRIMARY KEY,
    purchase_order_id  BIGINT NOT NULL REFERENCES purchase_orders (id) ON DELETE CASCADE,
    document_type      TEXT NOT NULL DEFAULT 'other'
                       CHECK (document_type IN ('invoice', 'packing_slip', 'receipt', 'quote', 'shipping_label', 'other')),
    original_name      TEXT NOT NULL,
    stored_name        TEXT NOT NULL UNIQUE,
    content_type       TEXT NOT NULL,
    size_bytes         BIGINT NOT NULL CHECK (size_bytes >= 0),
    notes              TEXT,
    uploaded_by        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX purchase_order_documents_po ON purchase_order_documents (purchase_order_id, id);

-- Material lots (CONTRACT 6.7): one per received line, `{MATERIALCODE}-{YYYY}-{NNNN}`.
-- Quantities are in the item's stocking unit.
CREATE TABLE material_lots (
    id                      BIGSERIAL PRIMARY KEY,
    lot_number              TEXT NOT NULL CHECK (lot_number <> '' AND char_length(lot_number) <= 100),
    product_id              BIGINT NOT NULL REFERENCES items (id) ON DELETE RESTRICT,
    vendor_id               BIGINT REFERENCES vendors (id) ON DELETE RESTRICT,
    purchase_order_id       BIGINT REFERENCES purchase_orders (id) ON DELETE RESTRICT,
    purchase_order_line_id  BIGINT REFERENCES purchase_order_lines (id) ON DELETE RESTRICT,
    vendor_lot_number       TEXT CHECK (char_length(vendor_lot_number) <= 100),
    quantity_received       NUMERIC(14, 4) NOT NULL CHECK (quantity_received > 0),
    quantity_consumed       NUMERIC(14, 4) NOT NULL DEFAULT 0 CHECK (quantity_consumed >= 0),
    quantity_scrapped       NUMERIC(14, 4) NOT NULL DEFAULT 0 CHECK (quantity_scrapped >= 0),
    quantity_adjusted       NUMERIC(14, 4) NOT NULL DEFAULT 0,
    status                  TEXT NOT NULL DEFAULT 'active'
                            CHECK (status IN ('active', 'depleted', 'quarantine', 'expired', 'recalled')),
    inspection_status       TEXT NOT NULL DEFAULT 'pending'
                            CHECK (inspection_status IN ('pending', 'passed', 'failed', 'waived')),
    received_date           DATE NOT NULL DEFAULT CURRENT_DATE,
    expiration_date         DATE,
    unit_cost               NUMERIC(14, 4),
    location_id             BIGINT REFERENCES locations (id) ON DELETE RESTRICT,
    inventory_transaction_id BIGINT REFERENCES inventory_transactions (id),
    notes                   TEXT,
    created_by              BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at              TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX material_lots_number_unique ON material_lots (upper(lot_number));
CREATE INDEX material_lots_product ON material_lots (product_id, id);
CREATE INDEX material_lots_po ON material_lots (purchase_order_id) WHERE purchase_order_id IS NOT NULL;
SELECT diesel_manage_updated_at('material_lots');

-- What a vendor sells: kept by purchase orders (last price and when), lead time, and the
-- preferred vendor of an item for replenishment.
CREATE TABLE vendor_items (
    id              BIGSERIAL PRIMARY KEY,
    vendor_id       BIGINT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    item_id         BIGINT NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    vendor_sku      TEXT CHECK (char_length(vendor_sku) <= 100),
    last_price      NUMERIC(14, 4) CHECK (last_price >= 0),
    purchase_unit   TEXT REFERENCES units_of_measure (code),
    lead_time_days  INTEGER CHECK (lead_time_days >= 0),
    is_preferred    BOOLEAN NOT NULL DEFAULT FALSE,
    last_ordered_at TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (vendor_id, item_id)
);
CREATE INDEX vendor_items_item ON vendor_items (item_id);
SELECT diesel_manage_updated_at('vendor_items');
