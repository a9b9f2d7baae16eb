-- Alerts (docs/reference/behaviour.md, "Alerts"): per problem key, what was last decided and sent,
-- so a restart sends no duplicate; and the latest messages sent, for the status page. Only the
-- latest 50 messages are kept, by the trigger below.
CREATE TABLE alert_state (
  key             TEXT PRIMARY KEY,
  since_ms        INTEGER NOT NULL,
  active          INTEGER NOT NULL,
  announced       INTEGER NOT NULL,
  last_sent_ms    INTEGER,
  sentence        TEXT NOT NULL
);

CREATE TABLE alert_messages (
  id              INTEGER PRIMARY KEY,
  sent_at_ms      INTEGER NOT NULL,
  -- problem | recovered
  event           TEXT NOT NULL,
  key             TEXT NOT NULL,
  sentence        TEXT NOT NULL,
  since_ms        INTEGER NOT NULL,
  -- JSON: {"ntfy": "sent"} or the channel's failure in our words, per configured channel.
  channels        TEXT NOT NULL
);

CREATE TRIGGER alert_messages_bounded AFTER INSERT ON alert_messages BEGIN
  DELETE FROM alert_messages WHERE id <= NEW.id - 50;
END;
