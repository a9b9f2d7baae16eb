// The words of a target's backfill entry: the count as people read it, and which calendars.
import { describe, expect, it } from 'vitest';
import { backfillWords, targetPlace } from './activity-words.ts';

describe('a backfill in words', () => {
  it('says how many were added where, with thousands separated', () => {
    expect(backfillWords(20_000, targetPlace('google', ['primary']))).toMatchObject({
      kind: 'backfill',
      direction: 'booking-to-targets',
      summary: 'added 20,000 appointments to Google Calendar (primary)',
      reason: null,
    });
    expect(backfillWords(1, 'Google Calendar').summary).toBe('added 1 appointment to Google Calendar');
  });

  it('names every calendar a target writes to, once each', () => {
    expect(targetPlace('google', ['primary', 'spa@group.calendar.google.com', 'primary'])).toBe('Google Calendar (primary, spa@group.calendar.google.com)');
    expect(targetPlace('caldav', ['Clinic'])).toBe('the CalDAV calendar (Clinic)');
    expect(targetPlace('caldav', ['Clinic', 'Spa'])).toBe('the CalDAV calendars (Clinic, Spa)');
  });
});
