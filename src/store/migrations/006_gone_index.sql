-- The deletion breaker counts the appointments that became gone in the last hour on every decision
-- to make one gone; only gone rows are indexed, so the index stays small and the count cheap.
CREATE INDEX appointments_by_gone ON appointments (gone_at_ms) WHERE gone_at_ms IS NOT NULL;
