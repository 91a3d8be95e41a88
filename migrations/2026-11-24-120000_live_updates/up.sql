-- Live updates of the shop floor. A committed change to a production order, one of its
-- operations, or a printer's status is announced on the `strata_live` channel, and every
-- Strata process that has a GraphQL subscriber listens there (src/production/live.rs).
-- Triggers, not application code, so every path that changes these rows (REST, GraphQL,
-- another area's rules, a script) is announced, and NOTIFY is transactional: a rolled-back
-- change announces nothing, and a committed one is announced once, after the commit.

CREATE FUNCTION strata_live_production_order(order_id bigint) RETURNS void
LANGUAGE sql AS $$
    SELECT pg_notify('strata_live', json_build_object(
        'kind', 'production_order',
        'id', o.id,
        'code', o.code,
        'status', o.status,
        'qc_status', o.qc_status,
        'quantity_ordered', o.quantity_ordered::text,
        'quantity_completed', o.quantity_completed::text,
        'quantity_scrapped', o.quantity_scrapped::text
    )::text)
    FROM production_orders o
    WHERE o.id = order_id
$$;

CREATE FUNCTION strata_live_production_order_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM strata_live_production_order(NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER production_orders_live
AFTER INSERT OR UPDATE OF status, qc_status, quantity_ordered, quantity_completed, quantity_scrapped
ON production_orders
FOR EACH ROW EXECUTE FUNCTION strata_live_production_order_row();

-- An operation starting or finishing changes what its order is doing on the floor.
CREATE FUNCTION strata_live_operation_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status OR NEW.printer_id IS DISTINCT FROM OLD.printer_id THEN
        PERFORM strata_live_production_order(NEW.production_order_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER production_order_operations_live
AFTER UPDATE ON production_order_operations
FOR EACH ROW EXECUTE FUNCTION strata_live_operation_row();

CREATE FUNCTION strata_live_printer_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status OR NEW.active IS DISTINCT FROM OLD.active THEN
        PERFORM pg_notify('strata_live', json_build_object(
            'kind', 'printer',
            'id', NEW.id,
            'code', NEW.code,
            'name', NEW.name,
            'status', NEW.status,
            'active', NEW.active
        )::text);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER printers_live
AFTER INSERT OR UPDATE ON printers
FOR EACH ROW EXECUTE FUNCTION strata_live_printer_row();
