-- Ingest: deliveries findable by appointment (was a change announced?), and rejected webhook
-- bodies kept for diagnosis. Only authenticated callers' rejections are written here, so a
-- stranger guessing secrets never causes a write.

CREATE INDEX deliveries_by_appointment ON deliveries (appointment_key, received_at_ms);

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
