-- What feed filters read, as columns of their own: filters never look inside the stored JSON by the
-- code's field names, so renaming a field in the code cannot silently empty a feed. Filled once here
-- from the JSON (as the code named its fields up to this version), then written by every upsert.
ALTER TABLE appointments ADD COLUMN client_key TEXT;
ALTER TABLE appointments ADD COLUMN person_key TEXT;
ALTER TABLE appointments ADD COLUMN owner_user TEXT;
ALTER TABLE appointments ADD COLUMN service_keys TEXT NOT NULL DEFAULT '[]';   -- JSON array of the service keys
ALTER TABLE appointments ADD COLUMN tag_keys TEXT NOT NULL DEFAULT '[]';       -- JSON array of the tag keys

UPDATE appointments SET
  client_key = json_extract(data, '$.clientKey'),
  person_key = json_extract(data, '$.person.personKey'),
  owner_user = json_extract(data, '$.ownerUser'),
  tag_keys = COALESCE(json_extract(data, '$.tagKeys'), '[]'),
  service_keys = (SELECT json_group_array(json_extract(value, '$.serviceKey')) FROM json_each(appointments.data, '$.services'));
