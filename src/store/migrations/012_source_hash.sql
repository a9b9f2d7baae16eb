-- The hash of the record the booking service last gave for each appointment (its JSON text, with
-- what reading it depends on: calbridge's version, the reader's options and poll.filters). A poll
-- compares each listed record's hash with this one in SQL and parses, normalises and writes only the
-- records that differ: a pass over unchanged appointments writes nothing. NULL (every row until it
-- is next stored): compare in full.
ALTER TABLE appointments ADD COLUMN source_hash TEXT;
