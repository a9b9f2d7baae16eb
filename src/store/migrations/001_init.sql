-- The first schema: the tables design.md names. Times are epoch milliseconds (UTC).

-- Current state of each appointment; `revision` grows on every material change.
CREATE TABLE appointments (
  appointment_key TEXT PRIMARY KEY,
  status          TEXT NOT NULL,
  start_ms        INTEGER NOT NULL,
  end_ms          INTEGER NOT NULL,
  calendar_key    TEXT,
  data            TEXT NOT NULL,            -- the normalised Appointment as JSON (raw record inside)
  material_hash   TEXT NOT NULL,
  revision        INTEGER NOT NULL DEFAULT 1,
  changed_at_ms   INTEGER NOT NULL,         -- time of the last material change
  seen_at_ms      INTEGER NOT NULL,         -- last time the source confirmed this state
  gone_at_ms      INTEGER,                  -- set when 404 or out of scope; the row is kept
  gone_reason     TEXT
);
CREATE INDEX appointments_by_start ON appointments (start_ms);
CREATE INDEX appointments_by_changed ON appointments (changed_at_ms);

-- Raw webhook deliveries, committed before the 200; processed later by the delivery worker.
CREATE TABLE deliveries (
  id               INTEGER PRIMARY KEY,
  dedupe_key       TEXT NOT NULL UNIQUE,
  appointment_key  TEXT,
  event            TEXT,
  body             TEXT NOT NULL,
  received_at_ms   INTEGER NOT NULL,
  state            TEXT NOT NULL DEFAULT 'pending',  -- pending | done | failed
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms  INTEGER NOT NULL DEFAULT 0,
  last_error       TEXT,
  processed_at_ms  INTEGER
);
CREATE INDEX deliveries_pending ON deliveries (state, next_attempt_ms);

-- What we last wrote to Google for each appointment.
CREATE TABLE google_links (
  appointment_key   TEXT PRIMARY KEY REFERENCES appointments (appointment_key),
  calendar_id       TEXT NOT NULL,
  event_id          TEXT NOT NULL,
  generation        INTEGER NOT NULL DEFAULT 0,   -- bumped when Google refuses to revive a deleted id
  present           INTEGER NOT NULL DEFAULT 0,   -- 1 while our event exists in Google
  written_hash      TEXT,
  etag              TEXT,
  written_start_ms  INTEGER,
  written_end_ms    INTEGER,
  written_revision  INTEGER,
  attempts          INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms   INTEGER NOT NULL DEFAULT 0,
  last_error        TEXT,
  updated_at_ms     INTEGER NOT NULL
);
CREATE INDEX google_links_by_event ON google_links (calendar_id, event_id);

-- Moves made in Google, stored before anything is sent to the booking service.
CREATE TABLE reschedules (
  id               INTEGER PRIMARY KEY,
  appointment_key  TEXT NOT NULL REFERENCES appointments (appointment_key),
  new_start_ms     INTEGER NOT NULL,
  new_end_ms       INTEGER NOT NULL,
  state            TEXT NOT NULL DEFAULT 'pending',   -- pending | done | reverted | failed
  detail           TEXT,                              -- the booking service's reason, when refused
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms  INTEGER NOT NULL DEFAULT 0,
  created_at_ms    INTEGER NOT NULL,
  updated_at_ms    INTEGER NOT NULL
);
CREATE INDEX reschedules_pending ON reschedules (state, next_attempt_ms);

-- Cursors: Google sync tokens, watch channels, last poll, and the like.
CREATE TABLE sync_cursors (
  name           TEXT PRIMARY KEY,
  value          TEXT NOT NULL,
  updated_at_ms  INTEGER NOT NULL
);

-- One job of a kind at a time, across processes (serve and a one-shot sync).
CREATE TABLE leases (
  name           TEXT PRIMARY KEY,
  owner          TEXT NOT NULL,
  expires_at_ms  INTEGER NOT NULL
);

-- Small values: stored credentials, counters that must survive a restart.
CREATE TABLE kv (
  key            TEXT PRIMARY KEY,
  value          TEXT NOT NULL,
  updated_at_ms  INTEGER NOT NULL
);
