-- Ingest: when a webhook last announced each appointment (was a change the poll found announced?),
-- and rejected webhook bodies kept for diagnosis. Only authenticated callers' rejections are written
-- here, so a stranger guessing secrets never causes a write.

-- Kept by the delivery worker as it finishes deliveries, not by the receiver: an index on
-- deliveries(appointment_key) would cost the receiver's hot path about a third of its insert time.
-- When a repeat of a still pending delivery last arrived: if that was after the worker asked the
-- booking service, the answer may predate the change the repeat announces, so it is asked again.
ALTER TABLE deliveries ADD COLUMN last_seen_ms INTEGER;

CREATE TABLE webhook_announcements (
  appointment_key      TEXT PRIMARY KEY,
  last_received_at_ms  INTEGER NOT NULL
) WITHOUT ROWID;

-- Rejections by reason since the database was created.
CREATE TABLE webhook_rejection_counts (
  reason         TEXT PRIMARY KEY,     -- unsupported_media_type | too_large | not_json | not_a_notification
  count          INTEGER NOT NULL,
  last_at_ms     INTEGER NOT NULL
);

-- The most recent rejected bodies (capped by the code that writes them), truncated.
CREATE TABLE webhook_rejection_samples (
  id              INTEGER PRIMARY KEY,
  reason          TEXT NOT NULL,
  status          INTEGER NOT NULL,
  detail          TEXT NOT NULL,
  content_type    TEXT,
  sample          TEXT,
  received_at_ms  INTEGER NOT NULL
);
