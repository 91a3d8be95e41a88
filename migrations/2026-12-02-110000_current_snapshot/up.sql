-- The database's current snapshot as text: what the answer cache and the known viewers are
-- keyed by (src/http/answer_cache.rs). A function rather than `pg_current_snapshot()::text`
-- written into the statement, because diesel never keeps a statement with literal SQL in it
-- prepared: the viewer's statement, run on every request, would be parsed every time.
-- STABLE: it reads the calling statement's snapshot.
CREATE FUNCTION strata_current_snapshot() RETURNS text
    LANGUAGE sql STABLE
    AS $$ SELECT pg_current_snapshot()::text $$;
