-- Bounded and cheap to ask: every table that grows is pruned by the `retention` job through an index,
-- and the questions /readyz, status and the delivery worker ask repeatedly are answered without
-- reading the deliveries table row by row.

-- Delivery counts per bucket, kept by the triggers below in the same transaction as the change, so
-- they are exact in every process (serve, a one-shot sync) and never need a COUNT(*) over deliveries.
-- `retrying` is a pending delivery that was tried at least once; `pending` counts the others.
CREATE TABLE delivery_counts (
  bucket  TEXT PRIMARY KEY,     -- pending | retrying | done | failed
  n       INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO delivery_counts (bucket, n) VALUES ('pending', 0), ('retrying', 0), ('done', 0), ('failed', 0);
UPDATE delivery_counts SET n = (
  SELECT COUNT(*) FROM deliveries
  WHERE CASE WHEN state = 'pending' AND attempts > 0 THEN 'retrying' ELSE state END = delivery_counts.bucket
);

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

-- The oldest pending delivery (readiness, status, the lag gauge), from an index over pending rows
-- only: as small as the backlog, whatever the table holds. (The worker's due() keeps using
-- deliveries_pending: with a partial index instead, SQLite prefers walking the table in id order.)
CREATE INDEX deliveries_pending_since ON deliveries (received_at_ms) WHERE state = 'pending';
-- Processed rows by when they were processed: the range the retention job deletes.
CREATE INDEX deliveries_processed ON deliveries (processed_at_ms) WHERE state != 'pending';
-- The few rows with an error, newest first, for status (no row of a clean run is in it).
CREATE INDEX deliveries_with_error ON deliveries (id) WHERE last_error IS NOT NULL;

-- Nothing reads a delivery's body once it is processed (the worker re-reads the appointment from the
-- booking service); the code clears it when it marks a delivery processed, this clears the old ones.
UPDATE deliveries SET body = '' WHERE state != 'pending' AND body != '';

-- Retention ranges of the other growing tables.
CREATE INDEX webhook_announcements_by_time ON webhook_announcements (last_received_at_ms);
CREATE INDEX reschedules_settled ON reschedules (updated_at_ms) WHERE state != 'pending';

-- Readiness asks how many push channels are open: a keyed lookup, not a pass over the table.
CREATE INDEX google_channels_by_state ON google_channels (state, expiration_ms);
