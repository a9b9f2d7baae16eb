-- Several calendar accounts of one kind: each Google account opens its own push channels, so a
-- channel row says whose it is ({kind}.{name}, as status and links name accounts). Channels opened
-- before there were accounts belong to the single-account form, the account `default`.
ALTER TABLE google_channels ADD COLUMN account TEXT NOT NULL DEFAULT 'google.default';
CREATE INDEX google_channels_by_account ON google_channels (account, state, expiration_ms);
