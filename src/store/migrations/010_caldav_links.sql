-- CalDAV as a second calendar target. Its links (what we last wrote per appointment) live in their
-- own table with the columns of google_links, so each target's writer and reverse sync keep their own
-- state and Google's rows are untouched. event_id holds the resource name's key ({key}.ics);
-- calendar_id the calendar as configured (caldav.calendars[].calendar).
CREATE TABLE caldav_links (
  appointment_key   TEXT PRIMARY KEY REFERENCES appointments (appointment_key),
  calendar_id       TEXT NOT NULL,
  event_id          TEXT NOT NULL,
  generation        INTEGER NOT NULL DEFAULT 0,
  present           INTEGER NOT NULL DEFAULT 0,   -- 1 while our resource exists on the server
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
  deferred_since_ms INTEGER
);
CREATE INDEX caldav_links_by_event ON caldav_links (calendar_id, event_id);

-- Which target a reverse-sync action came from: each target's reverse sync and reschedules job see
-- only their own (a move made in CalDAV puts the CalDAV event back, never Google's). Every existing
-- row came from Google.
ALTER TABLE reschedules ADD COLUMN target TEXT NOT NULL DEFAULT 'google';
CREATE INDEX reschedules_by_target ON reschedules (target, appointment_key, id);
