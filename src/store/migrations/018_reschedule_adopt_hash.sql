-- A person's move, when recorded, notes the hash the writer will want once the booking service
-- accepts it, if the event as the person left it already shows all of it. On acceptance the link
-- takes that hash with the person's edit, so the event is not written again with the times it shows.
ALTER TABLE reschedules ADD COLUMN adopt_hash TEXT;
