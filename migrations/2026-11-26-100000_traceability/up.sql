-- Traceability (CONTRACT 5.19, 6.7): the links a trace walks, and one view of them.

-- A spool knows the lot it was received in (receipts set it; older spools are matched by
-- their supplier lot number, which receipts filled with the lot number).
ALTER TABLE spools ADD COLUMN material_lot_id BIGINT REFERENCES material_lots (id) ON DELETE SET NULL;
CREATE INDEX spools_lot ON spools (material_lot_id) WHERE material_lot_id IS NOT NULL;
UPDATE spools s SET material_lot_id = l.id
  FROM material_lots l
 WHERE l.product_id = s.product_id AND upper(l.lot_number) = upper(s.supplier_lot_number);

-- A shipped unit knows its order, line and shipment (shipping assigns units to lines).
ALTER TABLE serial_numbers ADD COLUMN shipment_id BIGINT REFERENCES shipments (id) ON DELETE SET NULL;
ALTER TABLE serial_numbers ADD CONSTRAINT serial_numbers_sales_order_fk
    FOREIGN KEY (sales_order_id) REFERENCES sales_orders (id) ON DELETE SET NULL;
ALTER TABLE serial_numbers ADD CONSTRAINT serial_numbers_sales_order_line_fk
    FOREIGN KEY (sales_order_line_id) REFERENCES sales_order_lines (id) ON DELETE SET NULL;
CREATE INDEX serial_numbers_sales_order ON serial_numbers (sales_order_id) WHERE sales_order_id IS NOT NULL;
-- Units waiting to ship, oldest first, per product.
CREATE INDEX serial_numbers_available ON serial_numbers (product_id, manufactured_at, id)
    WHERE sales_order_id IS NULL AND status IN ('manufactured', 'in_stock');
CREATE INDEX serial_numbers_number_upper ON serial_numbers (upper(serial_number));
CREATE INDEX production_orders_parent ON production_orders (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX material_lots_po_line ON material_lots (purchase_order_line_id) WHERE purchase_order_line_id IS NOT NULL;

-- Every link of the genealogy, downstream: what a node became or went to. A forward trace
-- walks it from `src` to `dst`, a backward trace from `dst` to `src`, both with one
-- recursive query. `quantity` is what flowed along the link where that is known (grams of
-- filament from a spool, units of a lot), in `unit`.
CREATE VIEW trace_edges AS
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
     WHERE so.customer_id IS NOT NULL;
