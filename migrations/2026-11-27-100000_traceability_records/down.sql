-- The view as it was, then the tables.
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
     WHERE so.customer_id IS NOT NULL;

DROP TABLE customer_traceability_profiles;
DROP TABLE production_lot_consumptions;
