-- Reverse sync: what each change seen in Google led to, and Google push channels.

-- A row per action taken on a change seen in Google (reschedule, cancel, recreate, restore, ignore).
-- Reschedules and cancels are stored as pending before anything is sent, so a crash loses nothing.
ALTER TABLE reschedules ADD COLUMN kind TEXT NOT NULL DEFAULT 'reschedule';
ALTER TABLE reschedules ADD COLUMN from_start_ms INTEGER;   -- the booking start the person moved it from
ALTER TABLE reschedules ADD COLUMN observed_etag TEXT;      -- the Google state acted on: seen again, it is not news
ALTER TABLE reschedules ADD COLUMN calendar_id TEXT;
ALTER TABLE reschedules ADD COLUMN event_id TEXT;
ALTER TABLE reschedules ADD COLUMN reason TEXT;             -- e.g. conflict | refused | booking-changed | policy
ALTER TABLE reschedules ADD COLUMN last_error TEXT;         -- the latest transient failure, while retrying
CREATE INDEX reschedules_by_appointment ON reschedules (appointment_key, id);

-- events.watch channels, one live per calendar; older ones kept as stopped until they expire.
CREATE TABLE google_channels (
  id             TEXT PRIMARY KEY,
  calendar_id    TEXT NOT NULL,
  resource_id    TEXT,
  token          TEXT NOT NULL,
  address        TEXT NOT NULL,
  expiration_ms  INTEGER NOT NULL,
  state          TEXT NOT NULL,        -- opening | active | stopped
  created_at_ms  INTEGER NOT NULL,
  updated_at_ms  INTEGER NOT NULL
);
CREATE INDEX google_channels_by_calendar ON google_channels (calendar_id, state);
