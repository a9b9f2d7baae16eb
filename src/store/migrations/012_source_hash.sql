-- The hash of the record the booking service last gave for each appointment (its JSON text, with
-- what reading it depends on: calbridge's version, the reader's options and poll.filters). A poll
-- compares each listed record's hash with this one and parses, normalises and writes only the
-- records that differ: a pass over unchanged appointments writes nothing. NULL (every row until it
-- is next stored): compare in full.
ALTER TABLE appointments ADD COLUMN source_hash TEXT;

-- What a poll and status read of every appointment, from indexes alone: a row is over a kilobyte
-- (the record as JSON), an index entry a few dozen bytes; 100,000 rows are 100 MB to read through.
-- The stored hashes of a page of listed records:
CREATE INDEX appointments_source ON appointments (appointment_key, source_hash, gone_at_ms);
-- The keys in the poll's window (what the listing missed):
CREATE INDEX appointments_window ON appointments (start_ms, appointment_key, status) WHERE gone_at_ms IS NULL;
-- The counts status shows (asked on every status request, also while an import runs):
CREATE INDEX appointments_by_status ON appointments (status, gone_at_ms);
