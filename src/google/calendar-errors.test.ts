// Google's refusals about a calendar, said as what to do; the kind the writer decides on never changes.
import { describe, expect, it } from 'vitest';
import { GoogleError } from './errors.ts';
import { explainCalendarError } from './calendar-errors.ts';

const ACCOUNT = 'the service account cb@p.iam.gserviceaccount.com';
const explain = (e: GoogleError, op: string) => explainCalendarError(e, op, 'c_1@group.calendar.google.com', ACCOUNT) as GoogleError;

describe('calendar errors', () => {
  it.each(['insert', 'list', 'watch'])('says a 404 on %s is about the calendar: its ID or its sharing', (op) => {
    const e = explain(new GoogleError('not_found', 'Google answered 404 notFound: Not Found', 404, 'notFound'), op);
    expect(e.kind).toBe('not_found');
    expect(e.message).toMatch(
      /^calendar "c_1@group\.calendar\.google\.com" was not found \(Google answered 404 notFound\): its ID is wrong, or it is not shared with the service account cb@p/,
    );
  });

  it('leaves a 404 on one event alone: the event is gone, which the writer handles', () => {
    const original = new GoogleError('not_found', 'Google answered 404 notFound: Not Found', 404, 'notFound');
    expect(explain(original, 'get')).toBe(original);
    expect(explain(original, 'update')).toBe(original);
  });

  it('says a read-only share needs "Make changes to events"', () => {
    const e = explain(
      new GoogleError(
        'forbidden',
        'Google answered 403 requiredAccessLevel: You need to have writer access to this calendar.',
        403,
        'requiredAccessLevel',
      ),
      'update',
    );
    expect(e.kind).toBe('forbidden');
    expect(e.message).toContain(
      `without write access (Google answered 403 requiredAccessLevel): share the calendar with ${ACCOUNT} with "Make changes to events"`,
    );
  });

  it("keeps Google's own words where they say it best, and Google's refusal to revive an event", () => {
    const off = new GoogleError(
      'forbidden',
      'Google answered 403 accessNotConfigured: Google Calendar API has not been used in project 1 before or it is disabled.',
      403,
      'accessNotConfigured',
    );
    expect(explain(off, 'insert')).toBe(off);
    const revival = new GoogleError('forbidden', 'Google answered 403 forbidden: Forbidden', 403, 'forbidden');
    expect(explain(revival, 'update')).toBe(revival);
    expect(explain(revival, 'insert').message).toMatch(
      /^Google refuses the service account cb@p\.iam\.gserviceaccount\.com access to calendar/,
    );
  });
});
