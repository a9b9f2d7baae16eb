-- Rendered feed events, kept so a restart assembles feeds without rendering them again.
-- `variant` is a hash of what shapes the text besides the appointment (privacy, title template).
CREATE TABLE feed_fragments (
  variant          TEXT NOT NULL,
  appointment_key  TEXT NOT NULL,
  revision         INTEGER NOT NULL,
  body             TEXT NOT NULL,             -- the folded VEVENT, CRLF line endings
  PRIMARY KEY (variant, appointment_key)
);

-- Per feed (by a hash of its token, never the token): the last served ETag and its Last-Modified,
-- so Last-Modified grows when an event leaves the feed and survives a restart.
CREATE TABLE feed_state (
  feed_id           TEXT PRIMARY KEY,
  etag              TEXT NOT NULL,
  last_modified_ms  INTEGER NOT NULL
);
