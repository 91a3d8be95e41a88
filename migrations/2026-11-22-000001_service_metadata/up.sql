-- Facts about this installation that outlive a process: when it was first set up and by
-- which version. Later areas add their own tables in their own migrations.
CREATE TABLE service_metadata (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
SELECT diesel_manage_updated_at('service_metadata');

INSERT INTO service_metadata (key, value) VALUES ('installed_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
