-- A write to a calendar target is recorded as started before it is sent, and cleared with its
-- outcome: a process killed while waiting for the answer leaves this set, so the next one knows the
-- event may hold that write (an insert that landed, a delete that went through) and reads it before
-- deciding, instead of trusting what the link says it last wrote.
ALTER TABLE google_links ADD COLUMN write_started_ms INTEGER;  -- NULL: no write of unknown outcome
ALTER TABLE caldav_links ADD COLUMN write_started_ms INTEGER;
