DROP TABLE shipping_events;
