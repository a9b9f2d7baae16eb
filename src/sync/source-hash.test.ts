// The source hash a poll compares instead of reading a record again: the same record under the same
// settings hashes alike; a different record, or settings under which reading it gives another stored
// state (the reader's options, poll.filters), hash differently, so such records are applied again.
import { describe, expect, it } from 'vitest';
import type { PollFilters } from '../config/schema.ts';
import type { ReaderOptions } from '../core/reader.ts';
import { sourceHashOf } from './apply-record.ts';

const reader: ReaderOptions = { timezone: 'America/Sao_Paulo', defaultDurationMinutes: 60, serviceDurations: {} };
const filters = {} as PollFilters;
const record = JSON.stringify({ appointment_key: 'a-1', status: 'CONFIRMED', start_date: '2026-11-23T10:00:00' });

describe('source hash', () => {
  it('is the same for the same record and settings, also from equal settings objects', () => {
    expect(sourceHashOf({ reader, filters }, record)).toBe(sourceHashOf({ reader: { ...reader }, filters: { ...filters } }, record));
  });

  it('differs when the record differs in any byte', () => {
    expect(sourceHashOf({ reader, filters }, record.replace('10:00', '10:01'))).not.toBe(sourceHashOf({ reader, filters }, record));
  });

  it('differs when the reader options or poll.filters differ', () => {
    const base = sourceHashOf({ reader, filters }, record);
    expect(sourceHashOf({ reader: { ...reader, defaultDurationMinutes: 30 }, filters }, record)).not.toBe(base);
    expect(sourceHashOf({ reader: { ...reader, timezone: 'Europe/Lisbon' }, filters }, record)).not.toBe(base);
    expect(sourceHashOf({ reader, filters: { calendar_keys: ['c-1'] } as unknown as PollFilters }, record)).not.toBe(base);
  });
});
