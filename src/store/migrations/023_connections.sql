-- Calendars people connect through a link (docs/reference/http.md, "Connect").
-- An invite is found by the SHA-256 of its link's secret part, never stored in clear; while a
-- sign-in is under way it holds the hash of the OAuth state and the PKCE verifier (sealed), and
-- between the sign-in and the confirmation the credentials and the calendars to pick from (sealed).
CREATE TABLE connect_invites (
  id_hash         TEXT PRIMARY KEY,
  kind            TEXT NOT NULL,
  calendar_key    TEXT NOT NULL,
  name            TEXT NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  expires_at_ms   INTEGER NOT NULL,
  used_at_ms      INTEGER,
  state_hash      TEXT UNIQUE,
  verifier        BLOB,
  pending         BLOB
);

-- One row per connected account, named `{kind}.{name}` everywhere; `sealed` holds its refresh token
-- or CalDAV password (AES-256-GCM under server.secret_key), nothing else here is a secret.
CREATE TABLE connections (
  kind            TEXT NOT NULL,
  name            TEXT NOT NULL,
  calendar_key    TEXT NOT NULL,
  calendar        TEXT NOT NULL,
  calendar_name   TEXT NOT NULL,
  sealed          BLOB NOT NULL,
  created_at_ms   INTEGER NOT NULL,
  PRIMARY KEY (kind, name)
);
