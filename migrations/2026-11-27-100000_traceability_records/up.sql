-- Traceability records an admin keeps by hand (CONTRACT 5.19, 6.7): material drawn from a
-- lot by a production order without a spool (`production_lot_consumptions`), and what each
-- customer's orders must carry (`customer_traceability_profiles`, one per customer; the
-- original keyed them by the customer's user id, ours are customers).

CREATE TABLE production_lot_consumptions (
    id BIGSERIAL PRIMARY KEY,
    production_order_id BIGINT NOT NULL REFERENCES production_orders (id) ON DELETE CASCADE,
    material_lot_id BIGINT NOT NULL REFERENCES material_lots (id) ON DELETE RESTRICT,
    serial_number_id BIGINT REFERENCES serial_numbers (id) ON DELETE SET NULL,
    bom_line_id BIGINT REFERENCES bom_lines (id) ON DELETE SET NULL,
    quantity_consumed NUMERIC(18, 4) NOT NULL CHECK (quantity_consumed > 0),
    consumed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    notes TEXT,
    created_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX production_lot_consumptions_order ON production_lot_consumptions (production_order_id);
CREATE INDEX production_lot_consumptions_lot ON production_lot_consumptions (material_lot_id);
CREATE INDEX production_lot_consumptions_serial ON production_lot_consumptions (serial_number_id)
    WHERE serial_number_id IS NOT NULL;

CREATE TABLE customer_traceability_profiles (
    id BIGSERIAL PRIMARY KEY,
    customer_id BIGINT NOT NULL UNIQUE REFERENCES customers (id) ON DELETE CASCADE,
    traceability_level TEXT NOT NULL DEFAULT 'none'
        CHECK (traceability_level IN ('none', 'lot', 'serial', 'full')),
    requires_coc BOOLEAN NOT NULL DEFAULT false,
    requires_coa BOOLEAN NOT NULL DEFAULT false,
    requires_first_article BOOLEAN NOT NULL DEFAULT false,
    record_retention_days INTEGER NOT NULL DEFAULT 2555
        CHECK (record_retention_days BETWEEN 1 AND 36500),
    custom_serial_prefix TEXT,
    compliance_standards TEXT,
    notes TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
SELECT diesel_manage_updated_at('customer_traceability_profiles');

-- A lot's consumption by a production order (and by the unit, when one is named) is a link
-- of the genealogy, so traces and recalls reach orders that drew on a lot directly.
CREATE OR REPLACE VIEW trace_edges AS
    SELECT 'vendor'::text AS src_kind, po.vendor_id AS src_id,
           'purchase_order'::text AS dst_kind, po.id AS dst_id,
           NULL::numeric AS quantity, NULL::text AS unit
      FROM purchase_orders po
    UNION ALL
    SELECT 'purchase_order', l.purchase_order_id, 'material_lot', l.id, l.quantity_received, i.unit
      FROM material_lots l JOIN items i ON i.id = l.product_id
     WHERE l.purchase_order_id IS NOT NULL
    UNION ALL
    SELECT 'material_lot', s.material_lot_id, 'spool', s.id, s.initial_weight_g, 'G'
      FROM spools s
     WHERE s.material_lot_id IS NOT NULL
    UNION ALL
    SELECT 'spool', u.spool_id, 'production_order', u.production_order_id, u.weight_consumed_g, 'G'
      FROM spool_usage u JOIN production_orders o ON o.id = u.production_order_id
    UNION ALL
    SELECT 'production_order', o.parent_id, 'production_order', o.id, NULL, NULL
      FROM production_orders o
     WHERE o.parent_id IS NOT NULL
    UNION ALL
    SELECT 'production_order', sn.production_order_id, 'serial_number', sn.id, 1, 'EA'
      FROM serial_numbers sn
     WHERE sn.production_order_id IS NOT NULL
    UNION ALL
    SELECT 'serial_number', sn.id, 'sales_order', sn.sales_order_id, 1, 'EA'
      FROM serial_numbers sn
     WHERE sn.sales_order_id IS NOT NULL
    UNION ALL
    SELECT 'production_order', o.id, 'sales_order', o.sales_order_id, o.quantity_completed, 'EA'
      FROM production_orders o
     WHERE o.sales_order_id IS NOT NULL
    UNION ALL
    SELECT 'sales_order', so.id, 'customer', so.customer_id, NULL, NULL
      FROM sales_orders so
     WHERE so.customer_id IS NOT NULL
    UNION ALL
    SELECT 'material_lot', c.material_lot_id, 'production_order', c.production_order_id,
           c.quantity_consumed, i.unit
      FROM production_lot_consumptions c
      JOIN material_lots l ON l.id = c.material_lot_id
      JOIN items i ON i.id = l.product_id
    UNION ALL
    SELECT 'material_lot', c.material_lot_id, 'serial_number', c.serial_number_id,
           c.quantity_consumed, i.unit
      FROM production_lot_consumptions c
      JOIN material_lots l ON l.id = c.material_lot_id
      JOIN items i ON i.id = l.product_id
     WHERE c.serial_number_id IS NOT NULL;
