-- Which appointments each feed holds, kept here instead of in memory: with 100,000 appointments the
-- daemon held two JavaScript map entries per appointment and feed just to know whether a change
-- touched a feed. Written by the serving process as changes arrive; the body's order is read from
-- the second index, so an assembly walks it instead of sorting in memory.
CREATE TABLE feed_members (
  feed_id          TEXT NOT NULL,       -- as feed_state.feed_id: a hash of the token
  appointment_key  TEXT NOT NULL,
  start_ms         INTEGER NOT NULL,
  revision         INTEGER NOT NULL,    -- the appointment's revision the feed shows
  changed_at_ms    INTEGER NOT NULL,
  PRIMARY KEY (feed_id, appointment_key)
) WITHOUT ROWID;
CREATE INDEX feed_members_in_order ON feed_members (feed_id, start_ms, appointment_key);

-- The assembled body lives in a file named for the feed and its hash (the ETag). `shape` is a hash of
-- everything besides the members that makes the body (name, refresh, privacy, title, filters, the
-- rendering's version): while it matches and no member changed since (a change sets it NULL), a
-- restarted daemon serves that file instead of assembling the feed again.
ALTER TABLE feed_state ADD COLUMN shape TEXT;
