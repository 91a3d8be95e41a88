-- Identity: users (staff accounts), their refresh-token sessions, admin-approved password
-- reset requests, and the append-only security audit log.

CREATE TABLE users (
    id                  BIGSERIAL PRIMARY KEY,
    email               TEXT NOT NULL CHECK (email = lower(btrim(email)) AND email <> ''),
    password_hash       TEXT NOT NULL,
    first_name          TEXT,
    last_name           TEXT,
    company_name        TEXT,
    phone               TEXT,
    account_type        TEXT NOT NULL CHECK (account_type IN ('admin', 'operator')),
    status              TEXT NOT NULL DEFAULT 'active'
                        CHECK (status IN ('active', 'inactive', 'suspended')),
    email_verified      BOOLEAN NOT NULL DEFAULT FALSE,
    -- Bumped when every session must end at once (password reset); access tokens carry the
    -- value they were issued under and are refused when it no longer matches.
    session_version     INTEGER NOT NULL DEFAULT 0,
    last_login_at       TIMESTAMPTZ,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
SELECT diesel_manage_updated_at('users');

-- Refresh tokens are stored as SHA-256 hashes. Rotation links a token to the one that
-- replaced it; all tokens of one login share a family, so reuse of a rotated token can
-- revoke the whole family.
CREATE TABLE refresh_tokens (
    id              BIGSERIAL PRIMARY KEY,
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash      TEXT NOT NULL UNIQUE,
    family_id       UUID NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    revoked         BOOLEAN NOT NULL DEFAULT FALSE,
    revoked_at      TIMESTAMPTZ,
    replaced_by_id  BIGINT REFERENCES refresh_tokens (id) ON DELETE SET NULL,
    user_agent      TEXT,
    ip_address      TEXT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

-- Reset and approval tokens are stored as SHA-256 hashes; the raw values exist only in the
-- e-mails and responses that carry them.
CREATE TABLE password_reset_requests (
    id                   BIGSERIAL PRIMARY KEY,
    user_id              BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash           TEXT NOT NULL UNIQUE,
    approval_token_hash  TEXT NOT NULL UNIQUE,
    status               TEXT NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'approved', 'denied', 'completed', 'expired')),
    expires_at           TIMESTAMPTZ NOT NULL,
    admin_notified_at    TIMESTAMPTZ,
    approved_at          TIMESTAMPTZ,
    denied_at            TIMESTAMPTZ,
    completed_at         TIMESTAMPTZ,
    admin_notes          TEXT CHECK (char_length(admin_notes) <= 500),
    created_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_requests_user ON password_reset_requests (user_id, status);
SELECT diesel_manage_updated_at('password_reset_requests');

-- Security events. No foreign key to users: the history outlives the accounts it mentions.
CREATE TABLE security_audit_log (
    id           BIGSERIAL PRIMARY KEY,
    event_type   TEXT NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
    user_id      BIGINT,
    user_email   TEXT,
    ip_address   TEXT,
    user_agent   TEXT,
    request_id   TEXT,
    details      JSONB NOT NULL DEFAULT '{}'::jsonb,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX security_audit_log_created ON security_audit_log (created_at DESC, id DESC);
CREATE INDEX security_audit_log_event ON security_audit_log (event_type, created_at DESC);
CREATE INDEX security_audit_log_user ON security_audit_log (user_id, created_at DESC);

-- Append-only: rows are never changed or removed by the application.
CREATE FUNCTION security_audit_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'security_audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER security_audit_log_no_update BEFORE UPDATE OR DELETE ON security_audit_log
    FOR EACH ROW EXECUTE FUNCTION security_audit_log_append_only();
