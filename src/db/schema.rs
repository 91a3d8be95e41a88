//! The diesel table definitions, matching `migrations/`. Kept by hand (no libpq for the
//! diesel CLI's `print-schema`); a test compares them with the migrated database.

diesel::table! {
    service_metadata (key) {
        key -> Text,
        value -> Text,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    users (id) {
        id -> Int8,
        email -> Text,
        password_hash -> Text,
        first_name -> Nullable<Text>,
        last_name -> Nullable<Text>,
        company_name -> Nullable<Text>,
        phone -> Nullable<Text>,
        account_type -> Text,
        status -> Text,
        email_verified -> Bool,
        session_version -> Int4,
        last_login_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    refresh_tokens (id) {
        id -> Int8,
        user_id -> Int8,
        token_hash -> Text,
        family_id -> Uuid,
        expires_at -> Timestamptz,
        revoked -> Bool,
        revoked_at -> Nullable<Timestamptz>,
        replaced_by_id -> Nullable<Int8>,
        user_agent -> Nullable<Text>,
        ip_address -> Nullable<Text>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    password_reset_requests (id) {
        id -> Int8,
        user_id -> Int8,
        token_hash -> Text,
        approval_token_hash -> Text,
        status -> Text,
        expires_at -> Timestamptz,
        admin_notified_at -> Nullable<Timestamptz>,
        approved_at -> Nullable<Timestamptz>,
        denied_at -> Nullable<Timestamptz>,
        completed_at -> Nullable<Timestamptz>,
        admin_notes -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    security_audit_log (id) {
        id -> Int8,
        event_type -> Text,
        outcome -> Text,
        user_id -> Nullable<Int8>,
        user_email -> Nullable<Text>,
        ip_address -> Nullable<Text>,
        user_agent -> Nullable<Text>,
        request_id -> Nullable<Text>,
        details -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::joinable!(refresh_tokens -> users (user_id));
diesel::joinable!(password_reset_requests -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    service_metadata,
    users,
    refresh_tokens,
    password_reset_requests,
    security_audit_log,
);
