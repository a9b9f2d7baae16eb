-- Microsoft Graph (Outlook) as a third calendar target. Its links live in their own table with the
-- columns of google_links; event_id holds our id (the appointment key, with its generation), since
-- Graph chooses event ids itself: Graph's id is kept in graph_ids beside it, with the change key and
-- hash of our last write, so a delta entry can be recognised as ours and as our own echo.
CREATE TABLE microsoft_links (
  appointment_key   TEXT PRIMARY KEY REFERENCES appointments (appointment_key),
  calendar_id       TEXT NOT NULL,
  event_id          TEXT NOT NULL,
  generation        INTEGER NOT NULL DEFAULT 0,
  present           INTEGER NOT NULL DEFAULT 0,
  written_hash      TEXT,
  etag              TEXT,
  written_start_ms  INTEGER,
  written_end_ms    INTEGER,
  written_revision  INTEGER,
  attempts          INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms   INTEGER NOT NULL DEFAULT 0,
  last_error        TEXT,
  updated_at_ms     INTEGER NOT NULL,
  deferred_etag     TEXT,
  deferred_since_ms INTEGER,
  write_started_ms  INTEGER,
  failed_hash       TEXT
);
CREATE INDEX microsoft_links_by_event ON microsoft_links (calendar_id, event_id);

-- Graph's event id of each of our events, per mapped calendar ("{user}/{calendar}") and our id.
CREATE TABLE graph_ids (
  calendar_id TEXT NOT NULL,
  event_key   TEXT NOT NULL,
  graph_id    TEXT NOT NULL,
  etag        TEXT,
  hash        TEXT,
  PRIMARY KEY (calendar_id, event_key)
);
CREATE UNIQUE INDEX graph_ids_by_graph_id ON graph_ids (calendar_id, graph_id);
