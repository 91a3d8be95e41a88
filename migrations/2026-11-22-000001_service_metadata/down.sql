DROP TABLE service_metadata;
