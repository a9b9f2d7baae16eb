-- The pending deliveries of one appointment, found by its key: the worker re-reads an appointment
-- once and settles every delivery that announced it (state, not messages), however many there are.
-- Partial: only pending rows are in it, so it stays as small as the backlog and adds one small
-- B-tree insert to the receiver's commit, unlike an index over the whole table (see 002_ingest).
CREATE INDEX deliveries_pending_by_key ON deliveries (appointment_key, received_at_ms) WHERE state = 'pending';
