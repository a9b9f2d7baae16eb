// How an object a calendar app left becomes an event the mirror core decides on: times a reschedule
// cannot carry are none (so the event is put back), a cancelled one is a deletion, and CalDAV's
// failures keep their kind and status in the port's words.
import { describe, expect, it } from 'vitest';
import { resourceKeyOf, targetErrorOf, targetEventOf } from './caldav-target.ts';
import { CalDavError } from './errors.ts';
import { TargetError } from '../core/mirror/target.ts';

const event = (lines: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:k@calbridge',
    'DTSTAMP:20260101T000000Z',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe('an object as the mirror sees it', () => {
  it('a timed event: its instants and our hash', () => {
    const e = targetEventOf('k', '"e1"', event(['DTSTART:20260601T130000Z', 'DTEND:20260601T140000Z', 'X-CALBRIDGE-HASH:abc']), 'UTC');
    expect(e).toEqual({
      id: 'k',
      etag: '"e1"',
      deleted: false,
      start: Date.UTC(2026, 5, 1, 13),
      end: Date.UTC(2026, 5, 1, 14),
      ourHash: 'abc',
      title: '',
      description: '',
      status: 'confirmed',
    });
  });

  it('what an app shows besides the times: title, description, status (absent ones as an app shows them)', () => {
    const e = targetEventOf(
      'k',
      '"e1"',
      event([
        'DTSTART:20260601T130000Z',
        'DTEND:20260601T140000Z',
        'SUMMARY:Ann · AB12',
        'DESCRIPTION:Clinic A\\nann@example.com',
        'STATUS:TENTATIVE',
      ]),
      'UTC',
    );
    expect(e).toMatchObject({ title: 'Ann · AB12', description: 'Clinic A\nann@example.com', status: 'tentative' });
  });

  it('made all-day, or repeating: no time to reschedule to', () => {
    expect(targetEventOf('k', '"e"', event(['DTSTART;VALUE=DATE:20260601']), 'UTC')).toMatchObject({
      start: null,
      end: null,
      deleted: false,
    });
    expect(
      targetEventOf('k', '"e"', event(['DTSTART:20260601T130000Z', 'DTEND:20260601T140000Z', 'RRULE:FREQ=DAILY']), 'UTC'),
    ).toMatchObject({ start: null });
  });

  it('cancelled in the app: a deletion', () => {
    expect(targetEventOf('k', '"e"', event(['DTSTART:20260601T130000Z', 'STATUS:CANCELLED']), 'UTC').deleted).toBe(true);
  });

  it('unreadable: kept, with no time, never taken for a deletion', () => {
    expect(targetEventOf('k', '"e"', 'not a calendar', 'UTC')).toEqual({
      id: 'k',
      etag: '"e"',
      deleted: false,
      start: null,
      end: null,
      ourHash: null,
    });
  });
});

describe('CalDAV failures in the port’s words', () => {
  it('keeps the status, so a refusal still proves the server answered', () => {
    const e = targetErrorOf(new CalDavError('auth', 'refused', 401)) as TargetError;
    expect(e).toBeInstanceOf(TargetError);
    expect(e).toMatchObject({ kind: 'auth', status: 401 });
    expect(targetErrorOf(new CalDavError('uid_conflict', 'trash bin', 400))).toMatchObject({ kind: 'conflict' });
    expect(targetErrorOf(new CalDavError('calendar_not_found', 'no such calendar'))).toMatchObject({ kind: 'not_found' });
  });

  it('names resource {key}.ics for life', () => {
    expect(resourceKeyOf('abc', 0)).toBe('abc');
  });
});
