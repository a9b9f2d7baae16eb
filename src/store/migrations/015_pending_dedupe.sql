-- A webhook is a duplicate only of a delivery still pending: a repeat of one already processed is
-- queued again anyway (the same bytes can announce a new change). So the dedupe key needs to be
-- unique among pending rows only, and the receiver's insert no longer adds an entry at a random
-- place in an index over every delivery kept for retention: the unique index now holds the backlog
-- alone. Keys are the first 16 bytes of the body's SHA-256 as a BLOB (they were 64 hex characters),
-- so an index page holds three times as many. The store's insert with and without this change is
-- measured side by side by `npm run bench` (BENCHMARKS.md, "Webhook acknowledgement"). A repeat of
-- a processed delivery is now a new row; the processed one stays in the history until retention
-- prunes it.
--
-- SQLite cannot drop a UNIQUE constraint, so the table is rebuilt, with the same columns, indexes
-- and triggers (migration 005), and the counts recomputed.

CREATE TABLE deliveries_rebuilt (
  id               INTEGER PRIMARY KEY,
  dedupe_key       BLOB NOT NULL,                    -- sha256(raw body)[0..16], unique while pending
  appointment_key  TEXT,
  event            TEXT,
  body             TEXT NOT NULL,
  received_at_ms   INTEGER NOT NULL,
  state            TEXT NOT NULL DEFAULT 'pending',  -- pending | done | failed
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms  INTEGER NOT NULL DEFAULT 0,
  last_error       TEXT,
  processed_at_ms  INTEGER,
  last_seen_ms     INTEGER
);

-- A key of 64 hex characters becomes its first 16 bytes, so a repeat of a delivery still pending
-- across the upgrade is still known as one.
INSERT INTO deliveries_rebuilt (id, dedupe_key, appointment_key, event, body, received_at_ms, state, attempts, next_attempt_ms, last_error, processed_at_ms, last_seen_ms)
SELECT id,
       CASE WHEN typeof(dedupe_key) = 'text' AND length(dedupe_key) = 64 AND unhex(dedupe_key) IS NOT NULL THEN unhex(substr(dedupe_key, 1, 32)) ELSE dedupe_key END,
       appointment_key, event, body, received_at_ms, state, attempts, next_attempt_ms, last_error, processed_at_ms, last_seen_ms
FROM deliveries;

DROP TABLE deliveries;
ALTER TABLE deliveries_rebuilt RENAME TO deliveries;

CREATE UNIQUE INDEX deliveries_dedupe_pending ON deliveries (dedupe_key) WHERE state = 'pending';
CREATE INDEX deliveries_pending ON deliveries (state, next_attempt_ms);
CREATE INDEX deliveries_pending_since ON deliveries (received_at_ms) WHERE state = 'pending';
CREATE INDEX deliveries_processed ON deliveries (processed_at_ms) WHERE state != 'pending';
CREATE INDEX deliveries_with_error ON deliveries (id) WHERE last_error IS NOT NULL;

CREATE TRIGGER deliveries_count_insert AFTER INSERT ON deliveries BEGIN
  UPDATE delivery_counts SET n = n + 1
  WHERE bucket = CASE WHEN NEW.state = 'pending' AND NEW.attempts > 0 THEN 'retrying' ELSE NEW.state END;
END;

CREATE TRIGGER deliveries_count_update AFTER UPDATE OF state, attempts ON deliveries
WHEN (CASE WHEN OLD.state = 'pending' AND OLD.attempts > 0 THEN 'retrying' ELSE OLD.state END)
  != (CASE WHEN NEW.state = 'pending' AND NEW.attempts > 0 THEN 'retrying' ELSE NEW.state END)
BEGIN
  UPDATE delivery_counts SET n = n - 1
  WHERE bucket = CASE WHEN OLD.state = 'pending' AND OLD.attempts > 0 THEN 'retrying' ELSE OLD.state END;
  UPDATE delivery_counts SET n = n + 1
  WHERE bucket = CASE WHEN NEW.state = 'pending' AND NEW.attempts > 0 THEN 'retrying' ELSE NEW.state END;
END;

CREATE TRIGGER deliveries_count_delete AFTER DELETE ON deliveries BEGIN
  UPDATE delivery_counts SET n = n - 1
  WHERE bucket = CASE WHEN OLD.state = 'pending' AND OLD.attempts > 0 THEN 'retrying' ELSE OLD.state END;
END;

UPDATE delivery_counts SET n = (
  SELECT COUNT(*) FROM deliveries
  WHERE CASE WHEN state = 'pending' AND attempts > 0 THEN 'retrying' ELSE state END = delivery_counts.bucket
);
