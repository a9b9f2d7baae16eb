-- What the last failed write of each link tried to make the target show (the desired event's hash in
-- its calendar, or no event for a delete), cleared when a write succeeds. The writer keeps a failed
-- write's backoff only while the appointment still wants that same content: a new change (moved,
-- cancelled) is tried at once instead of waiting out the backoff of content nobody wants any more.
ALTER TABLE google_links ADD COLUMN failed_hash TEXT;  -- NULL: no failure, or one recorded before this column
ALTER TABLE caldav_links ADD COLUMN failed_hash TEXT;
