-- A sales order's tracking history (CONTRACT 5.2 `/sales-orders/{id}/shipping-events`): what
-- the carrier reported (label created, picked up, in transit, out for delivery, delivered,
-- a failed attempt, an exception, returned to sender), recorded by a person or a carrier
-- feed. A delivered event moves a shipped order to delivered.
CREATE TABLE shipping_events (
    id BIGSERIAL PRIMARY KEY,
    sales_order_id BIGINT NOT NULL REFERENCES sales_orders (id) ON DELETE CASCADE,
    shipment_id BIGINT REFERENCES shipments (id) ON DELETE SET NULL,
    event_type TEXT NOT NULL,
    description TEXT,
    location TEXT,
    carrier TEXT,
    tracking_number TEXT,
    event_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    source TEXT NOT NULL DEFAULT 'manual',
    created_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX shipping_events_order ON shipping_events (sales_order_id, event_at, id);
