-- Bulk exports (issue 16): a GraphQL query run as a background job for the user who asked,
-- its rows written to a file under UPLOADS_DIR that expires.
CREATE TABLE bulk_exports (
    id            BIGSERIAL PRIMARY KEY,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    query         TEXT NOT NULL CHECK (query <> ''),
    variables     JSONB NOT NULL DEFAULT '{}'::jsonb,
    format        TEXT NOT NULL CHECK (format IN ('jsonl', 'csv')),
    status        TEXT NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued', 'running', 'completed', 'failed', 'expired')),
    rows_written  BIGINT NOT NULL DEFAULT 0 CHECK (rows_written >= 0),
    size_bytes    BIGINT NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
    error         TEXT,
    storage_key   TEXT,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at    TIMESTAMPTZ,
    completed_at  TIMESTAMPTZ,
    expires_at    TIMESTAMPTZ
);

CREATE INDEX bulk_exports_user_idx ON bulk_exports (user_id, id DESC);
CREATE INDEX bulk_exports_expiry_idx ON bulk_exports (expires_at) WHERE status = 'completed';
