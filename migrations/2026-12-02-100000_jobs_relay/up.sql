-- The job queue over the key-value store (src/jobs/kv.rs, when KVSTORE_URL is set): when a
-- job's id was last handed to the store's ready list. NULL: not handed over since it became
-- due (new, or rescheduled after a failed attempt). A job handed over more than a lease ago
-- that no worker holds is handed over again, so a store that loses its lists loses no job.
ALTER TABLE jobs ADD COLUMN relayed_at TIMESTAMPTZ;
