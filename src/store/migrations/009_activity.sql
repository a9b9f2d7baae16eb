-- Recent activity for people (the status page, /api/status, the demo's log): what changed, in which
-- direction and why, in words. Only the latest 1,000 entries are kept, by the trigger below, in the
-- same transaction as each insert: the table never grows past that in any process.
CREATE TABLE activity (
  id               INTEGER PRIMARY KEY,
  at_ms            INTEGER NOT NULL,
  appointment_key  TEXT,
  -- The booking service's search code (e.g. AG00012), or the key when it has none.
  label            TEXT,
  -- booked, changed, moved, cancelled, gone, google-write, rescheduled, reverted, refused, recreated, ...
  kind             TEXT NOT NULL,
  -- booking-to-targets | google-to-booking | reverted | refused
  direction        TEXT NOT NULL,
  summary          TEXT NOT NULL,
  reason           TEXT,
  -- The start the entry is about (where it was moved to), to tell our own echo from news.
  start_ms         INTEGER
);

CREATE INDEX activity_by_appointment ON activity (appointment_key, id);

CREATE TRIGGER activity_bounded AFTER INSERT ON activity BEGIN
  DELETE FROM activity WHERE id <= NEW.id - 1000;
END;
