ALTER TABLE jobs DROP COLUMN relayed_at;
