-- Sales (CONTRACT 5.2-5.4, 6.1, 6.4; DOMAIN "Postings"): quotes `Q-YYYY-NNNN`, sales orders
-- `SO-YYYY-NNNN` with their lines (what is allocated and shipped per line), events, shipments
-- `SHP-YYYY-NNNN` and payments `PAY-YYYY-NNNN`. The fulfillment state, percent and priority of
-- an order are generated columns over `lines_total` / `lines_ready`, which a trigger keeps
-- right from the lines, so they filter and sort like any column.

CREATE SEQUENCE sales_order_seq;
CREATE SEQUENCE quote_seq;
CREATE SEQUENCE payment_seq;
CREATE SEQUENCE shipment_seq;

CREATE TABLE quotes (
    id                      BIGSERIAL PRIMARY KEY,
    quote_number            TEXT NOT NULL UNIQUE,
    user_id                 BIGINT REFERENCES users (id) ON DELETE SET NULL,
    product_id              BIGINT REFERENCES items (id) ON DELETE SET NULL,
    product_name            TEXT NOT NULL CHECK (product_name <> '' AND char_length(product_name) <= 255),
    description             TEXT,
    quantity                INTEGER NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 10000),
    unit_price              NUMERIC(18, 2) NOT NULL CHECK (unit_price >= 0),
    subtotal                NUMERIC(18, 2) NOT NULL DEFAULT 0,
    tax_rate                NUMERIC(7, 6) NOT NULL DEFAULT 0,
    tax_amount              NUMERIC(18, 2) NOT NULL DEFAULT 0,
    shipping_cost           NUMERIC(18, 2) NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
    total_price             NUMERIC(18, 2) NOT NULL DEFAULT 0,
    status                  TEXT NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'approved', 'rejected', 'accepted', 'cancelled', 'converted')),
    customer_id             BIGINT REFERENCES customers (id) ON DELETE SET NULL,
    customer_name           TEXT,
    customer_email          TEXT,
    material_type           TEXT NOT NULL DEFAULT 'PLA',
    color                   TEXT,
    customer_notes          TEXT,
    admin_notes             TEXT,
    rejection_reason        TEXT,
    shipping_name           TEXT,
    shipping_address_line1  TEXT,
    shipping_address_line2  TEXT,
    shipping_city           TEXT,
    shipping_state          TEXT,
    shipping_zip            TEXT,
    shipping_country        TEXT,
    shipping_phone          TEXT,
    expires_at              TIMESTAMPTZ NOT NULL,
    approved_at             TIMESTAMPTZ,
    approved_by             BIGINT REFERENCES users (id) ON DELETE SET NULL,
    approval_method         TEXT,
    converted_at            TIMESTAMPTZ,
    sales_order_id          BIGINT,
    created_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at              TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX quotes_status ON quotes (status);
CREATE INDEX quotes_customer ON quotes (customer_id) WHERE customer_id IS NOT NULL;
SELECT diesel_manage_updated_at('quotes');

CREATE TABLE sales_orders (
    id                         BIGSERIAL PRIMARY KEY,
    order_number               TEXT NOT NULL UNIQUE,
    user_id                    BIGINT REFERENCES users (id) ON DELETE SET NULL,
    customer_id                BIGINT REFERENCES customers (id) ON DELETE SET NULL,
    quote_id                   BIGINT REFERENCES quotes (id) ON DELETE SET NULL,
    order_type                 TEXT NOT NULL DEFAULT 'line_item' CHECK (order_type IN ('quote_based', 'line_item')),
    source                     TEXT NOT NULL DEFAULT 'manual'
                               CHECK (source IN ('portal', 'manual', 'squarespace', 'woocommerce', 'shopify', 'etsy', 'tiktok')),
    source_order_id            TEXT,
    status                     TEXT NOT NULL DEFAULT 'pending'
                               CHECK (status IN ('draft', 'pending', 'pending_confirmation', 'confirmed', 'in_production',
                                                 'ready_to_ship', 'shipped', 'delivered', 'completed', 'cancelled', 'on_hold')),
    payment_status             TEXT NOT NULL DEFAULT 'pending'
                               CHECK (payment_status IN ('pending', 'partial', 'paid', 'refunded', 'overdue')),
    fulfillment_status         TEXT NOT NULL DEFAULT 'pending'
                               CHECK (fulfillment_status IN ('pending', 'ready', 'picking', 'packing', 'shipped', 'delivered')),
    rush_level                 TEXT NOT NULL DEFAULT 'standard' CHECK (rush_level IN ('standard', 'rush', 'super_rush', 'urgent')),
    product_name               TEXT,
    customer_name              TEXT,
    customer_email             TEXT,
    customer_phone             TEXT,
    subtotal                   NUMERIC(18, 2) NOT NULL DEFAULT 0,
    tax_rate                   NUMERIC(7, 6) NOT NULL DEFAULT 0,
    tax_amount                 NUMERIC(18, 2) NOT NULL DEFAULT 0,
    shipping_cost              NUMERIC(18, 2) NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0),
    grand_total                NUMERIC(18, 2) NOT NULL DEFAULT 0,
    payment_method             TEXT,
    payment_transaction_id     TEXT,
    paid_at                    TIMESTAMPTZ,
    shipping_address_line1     TEXT,
    shipping_address_line2     TEXT,
    shipping_city              TEXT,
    shipping_state             TEXT,
    shipping_zip               TEXT,
    shipping_country           TEXT,
    tracking_number            TEXT,
    carrier                    TEXT,
    shipped_at                 TIMESTAMPTZ,
    delivered_at               TIMESTAMPTZ,
    customer_notes             TEXT,
    internal_notes             TEXT,
    production_notes           TEXT,
    cancelled_at               TIMESTAMPTZ,
    cancellation_reason        TEXT,
    due_date                   DATE,
    estimated_completion_date  DATE,
    actual_completion_date     TIMESTAMPTZ,
    confirmed_at               TIMESTAMPTZ,
    -- Kept by the trigger on sales_order_lines.
    lines_total                INTEGER NOT NULL DEFAULT 0,
    lines_ready                INTEGER NOT NULL DEFAULT 0,
    fulfillment_state          TEXT GENERATED ALWAYS AS (
        CASE WHEN status = 'cancelled' THEN 'cancelled'
             WHEN status IN ('shipped', 'delivered', 'completed') THEN 'shipped'
             WHEN lines_total > 0 AND lines_ready >= lines_total THEN 'ready_to_ship'
             WHEN lines_ready > 0 THEN 'partially_ready'
             ELSE 'blocked' END) STORED,
    fulfillment_priority       INTEGER GENERATED ALWAYS AS (
        CASE WHEN status = 'cancelled' THEN 5
             WHEN status IN ('shipped', 'delivered', 'completed') THEN 4
             WHEN lines_total > 0 AND lines_ready >= lines_total THEN 1
             WHEN lines_ready > 0 THEN 2
             ELSE 3 END) STORED,
    fulfillment_percent        NUMERIC(6, 2) GENERATED ALWAYS AS (
        CASE WHEN lines_total = 0 THEN 0
             ELSE round(lines_ready * 100.0 / lines_total, 2) END) STORED,
    created_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at                 TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sales_orders_listing ON sales_orders (created_at DESC, id DESC);
CREATE INDEX sales_orders_user ON sales_orders (user_id, created_at DESC);
CREATE INDEX sales_orders_status ON sales_orders (status);
CREATE INDEX sales_orders_fulfillment ON sales_orders (fulfillment_priority, id);
CREATE INDEX sales_orders_customer ON sales_orders (customer_id) WHERE customer_id IS NOT NULL;
SELECT diesel_manage_updated_at('sales_orders');

ALTER TABLE quotes ADD CONSTRAINT quotes_sales_order_fk
    FOREIGN KEY (sales_order_id) REFERENCES sales_orders (id) ON DELETE SET NULL;

CREATE TABLE sales_order_lines (
    id                  BIGSERIAL PRIMARY KEY,
    sales_order_id      BIGINT NOT NULL REFERENCES sales_orders (id) ON DELETE CASCADE,
    line_number         INTEGER NOT NULL,
    product_id          BIGINT NOT NULL REFERENCES items (id),
    quantity            INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10000),
    unit_price          NUMERIC(18, 2) NOT NULL CHECK (unit_price >= 0),
    discount            NUMERIC(18, 2) NOT NULL DEFAULT 0 CHECK (discount >= 0),
    total               NUMERIC(18, 2) NOT NULL,
    -- Where stock is reserved for the line and shipped from.
    location_id         BIGINT REFERENCES locations (id),
    quantity_allocated  NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_allocated >= 0),
    quantity_shipped    NUMERIC(18, 4) NOT NULL DEFAULT 0 CHECK (quantity_shipped >= 0),
    notes               TEXT,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (sales_order_id, line_number)
);
CREATE INDEX sales_order_lines_product ON sales_order_lines (product_id);
SELECT diesel_manage_updated_at('sales_order_lines');

-- A line is ready when its whole quantity is allocated (or shipped).
CREATE FUNCTION sales_order_lines_fulfillment() RETURNS trigger AS $$
DECLARE
    so BIGINT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        so := OLD.sales_order_id;
    ELSE
        so := NEW.sales_order_id;
    END IF;
    UPDATE sales_orders s
       SET lines_total = c.total, lines_ready = c.ready
      FROM (SELECT count(*)::int AS total,
                   count(*) FILTER (WHERE l.quantity_allocated + l.quantity_shipped >= l.quantity)::int AS ready
              FROM sales_order_lines l WHERE l.sales_order_id = so) c
     WHERE s.id = so AND (s.lines_total, s.lines_ready) IS DISTINCT FROM (c.total, c.ready);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER sales_order_lines_fulfillment
    AFTER INSERT OR UPDATE OR DELETE ON sales_order_lines
    FOR EACH ROW EXECUTE FUNCTION sales_order_lines_fulfillment();

CREATE TABLE sales_order_events (
    id              BIGSERIAL PRIMARY KEY,
    sales_order_id  BIGINT NOT NULL REFERENCES sales_orders (id) ON DELETE CASCADE,
    event_type      TEXT NOT NULL,
    title           TEXT NOT NULL,
    description     TEXT,
    old_status      TEXT,
    new_status      TEXT,
    created_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sales_order_events_order ON sales_order_events (sales_order_id, id);

CREATE TABLE shipments (
    id                BIGSERIAL PRIMARY KEY,
    shipment_number   TEXT NOT NULL UNIQUE,
    sales_order_id    BIGINT NOT NULL REFERENCES sales_orders (id),
    carrier           TEXT NOT NULL,
    service           TEXT NOT NULL,
    tracking_number   TEXT NOT NULL,
    cost_of_goods     NUMERIC(18, 2) NOT NULL DEFAULT 0,
    packaging_cost    NUMERIC(18, 2) NOT NULL DEFAULT 0,
    shipped_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    created_by        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX shipments_order ON shipments (sales_order_id);
CREATE INDEX shipments_listing ON shipments (shipped_at DESC, id DESC);

CREATE TABLE payments (
    id                BIGSERIAL PRIMARY KEY,
    payment_number    TEXT NOT NULL UNIQUE,
    sales_order_id    BIGINT NOT NULL REFERENCES sales_orders (id),
    -- Refunds are negative.
    amount            NUMERIC(18, 2) NOT NULL CHECK (amount <> 0),
    payment_method    TEXT NOT NULL
                      CHECK (payment_method IN ('cash', 'check', 'credit_card', 'paypal', 'venmo', 'zelle', 'wire', 'other')),
    payment_type      TEXT NOT NULL DEFAULT 'payment' CHECK (payment_type IN ('payment', 'refund', 'adjustment')),
    status            TEXT NOT NULL DEFAULT 'completed' CHECK (status IN ('pending', 'completed', 'failed', 'voided')),
    transaction_id    TEXT,
    check_number      TEXT,
    notes             TEXT,
    payment_date      TIMESTAMPTZ NOT NULL DEFAULT now(),
    recorded_by       BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX payments_order ON payments (sales_order_id);
CREATE INDEX payments_listing ON payments (payment_date DESC, id DESC);
SELECT diesel_manage_updated_at('payments');
