DROP TABLE security_audit_log;
DROP FUNCTION security_audit_log_append_only();
DROP TABLE password_reset_requests;
DROP TABLE refresh_tokens;
DROP TABLE users;
