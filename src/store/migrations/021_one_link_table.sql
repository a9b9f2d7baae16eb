-- One link table for every calendar target. google_links, caldav_links and microsoft_links had the same columns;
-- their rows move here under the account they belong to, named {kind}.{name} as status names it
-- (the single-account form is the account `default`), so a further target or a second account of
-- one is more rows, not another table. Every stored link is copied before the old tables go.
CREATE TABLE links (
  target            TEXT NOT NULL,                -- the account: google.default, caldav.default
  appointment_key   TEXT NOT NULL REFERENCES appointments (appointment_key),
  calendar_id       TEXT NOT NULL,
  event_id          TEXT NOT NULL,
  generation        INTEGER NOT NULL DEFAULT 0,   -- bumped when a target refuses to revive a deleted id
  present           INTEGER NOT NULL DEFAULT 0,   -- 1 while our event exists in the target
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
  failed_hash       TEXT,
  PRIMARY KEY (target, appointment_key)
);
CREATE INDEX links_by_event ON links (target, calendar_id, event_id);

INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
  written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms,
  deferred_etag, deferred_since_ms, write_started_ms, failed_hash)
SELECT 'google.default', appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
  written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms,
  deferred_etag, deferred_since_ms, write_started_ms, failed_hash
FROM google_links;

INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
  written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms,
  deferred_etag, deferred_since_ms, write_started_ms, failed_hash)
SELECT 'caldav.default', appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
  written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms,
  deferred_etag, deferred_since_ms, write_started_ms, failed_hash
FROM caldav_links;

INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
  written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms,
  deferred_etag, deferred_since_ms, write_started_ms, failed_hash)
SELECT 'microsoft.default', appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
  written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms,
  deferred_etag, deferred_since_ms, write_started_ms, failed_hash
FROM microsoft_links;

DROP TABLE google_links;
DROP TABLE caldav_links;
DROP TABLE microsoft_links;

-- Reverse-sync actions name the same account.
UPDATE reschedules SET target = target || '.default' WHERE target IN ('google', 'caldav', 'microsoft');

-- Each target's saved state under its account's name, one pattern for all: {account}.writer,
-- {account}.reverse_sync.last_round, {account}.reverse.cursor:{calendar}.
UPDATE sync_cursors SET name = 'google.default.writer' WHERE name = 'google.writer';
UPDATE sync_cursors SET name = 'caldav.default.writer' WHERE name = 'caldav.writer';
UPDATE sync_cursors SET name = 'microsoft.default.writer' WHERE name = 'microsoft.writer';
UPDATE sync_cursors SET name = 'google.default.reverse_sync.last_round' WHERE name = 'reverse_sync.last_round';
UPDATE sync_cursors SET name = 'caldav.default.reverse_sync.last_round' WHERE name = 'caldav.reverse_sync.last_round';
UPDATE sync_cursors SET name = 'microsoft.default.reverse_sync.last_round' WHERE name = 'microsoft.reverse_sync.last_round';
UPDATE sync_cursors SET name = 'google.default.reverse.cursor:' || substr(name, length('google.reverse.sync_token:') + 1)
  WHERE name LIKE 'google.reverse.sync\_token:%' ESCAPE '\';
UPDATE sync_cursors SET name = 'caldav.default.reverse.cursor:' || substr(name, length('caldav.reverse.cursor:') + 1)
  WHERE name LIKE 'caldav.reverse.cursor:%';
UPDATE sync_cursors SET name = 'microsoft.default.reverse.cursor:' || substr(name, length('microsoft.reverse.cursor:') + 1)
  WHERE name LIKE 'microsoft.reverse.cursor:%';
