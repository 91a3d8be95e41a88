-- The durable job queue (src/jobs): work that must survive a crash and may be retried,
-- written in the same transaction as the business rows that cause it.
CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    payload JSONB NOT NULL,
    -- Attempts started so far (counted when a worker claims the job).
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    -- Not before this time (the backoff of a failed attempt).
    run_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- A worker holds the job until then; a crashed worker's job is taken up again after it.
    locked_until TIMESTAMPTZ,
    last_error TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Set when the job ran out of attempts or failed for good; kept for operators.
    failed_at TIMESTAMPTZ
);

CREATE INDEX jobs_due_idx ON jobs (run_at, id) WHERE failed_at IS NULL;
