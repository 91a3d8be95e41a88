-- Answers of writes sent with an Idempotency-Key, so a retry by the same user within 24 hours
-- gets the first answer and changes nothing. A row without a status is a request in flight.
CREATE TABLE idempotency_keys (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    request_fingerprint TEXT NOT NULL,
    status SMALLINT,
    content_type TEXT,
    response_body BYTEA,
    location TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
