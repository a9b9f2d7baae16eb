-- The receiver's commit wrote a page of this index for almost every webhook: its keys are digests,
-- so each new one lands at a random place, and a group commit of ten webhooks wrote about ten of
-- its pages besides the one page of the table they share (counted: 37 page writes a commit with
-- the index, 15 without). A repeat of a pending delivery is now recognised by the delivery store
-- in memory (DeliveryStore.insertMany), from the pending deliveries it knows; the key stays in the
-- row for that. A repeat it does not know (past its cap) is stored as a new row, which the same one
-- re-read settles with the first.
DROP INDEX deliveries_dedupe_pending;
