-- Every stored webhook wrote an entry into two indexes of pending deliveries: deliveries_pending
-- (state, next_attempt_ms), which also held every processed delivery kept for retention, and
-- deliveries_pending_since. A webhook that was never tried needs one: the index of fresh
-- deliveries by arrival, where each new entry lands on its last page. Deliveries tried and left
-- pending (the booking service did not answer) are found through two indexes of their own, by due
-- time and by arrival; a delivery enters them only when it is retried, off the receiver's path.
-- The receiver's commit writes a page less, and settling a delivery takes it out of one index
-- instead of moving it inside one and out of another.
DROP INDEX deliveries_pending;
DROP INDEX deliveries_pending_since;
CREATE INDEX deliveries_fresh ON deliveries (received_at_ms) WHERE state = 'pending' AND attempts = 0;
CREATE INDEX deliveries_retry_due ON deliveries (next_attempt_ms) WHERE state = 'pending' AND attempts > 0;
CREATE INDEX deliveries_retry_since ON deliveries (received_at_ms) WHERE state = 'pending' AND attempts > 0;
