-- A reverse-sync decision notes the times the event showed in the state it was made on. When the
-- booking service later wants exactly those times while the link still holds that state (a
-- put-back asked for, not yet written), the writer reads the event before writing: it may already
-- show all the writer wants, and is then taken as it is, with no write of what it shows.
ALTER TABLE reschedules ADD COLUMN shown_start_ms INTEGER;
ALTER TABLE reschedules ADD COLUMN shown_end_ms INTEGER;
