-- The state of an event the writer leaves to the reverse sync (a person's move or deletion met on a
-- 412), and since when: kept here rather than in one process's memory, so a restart or a one-shot
-- `sync` beside `serve` does not start the grace period over. Cleared by the next recorded write.
ALTER TABLE google_links ADD COLUMN deferred_etag TEXT;
ALTER TABLE google_links ADD COLUMN deferred_since_ms INTEGER;  -- NULL: nothing is left to the reverse sync
