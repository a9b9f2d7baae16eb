import { describe, expect, it } from 'vitest';
import { contentOf, failedContentOf, NO_EVENT, retryDueAt } from './retry-due.ts';

const BACKOFF_UNTIL = Date.UTC(2026, 5, 20, 13, 0);
const at10 = contentOf({ calendarId: 'primary', hash: 'hash-10h' });
const at11 = contentOf({ calendarId: 'primary', hash: 'hash-11h' });

describe('contentOf', () => {
  it('tells apart what a write tries to show: another event, the same event in another calendar, no event', () => {
    const all = [at10, at11, contentOf({ calendarId: 'b@group', hash: 'hash-10h' }), contentOf(null)];
    expect(new Set(all).size).toBe(all.length);
    expect(contentOf(null)).toBe(NO_EVENT);
    expect(contentOf({ calendarId: 'primary', hash: 'hash-10h' })).toBe(at10);
  });
});

describe('retryDueAt', () => {
  it.each<[string, Parameters<typeof retryDueAt>[0], string, number]>([
    ['no link yet (a new appointment)', undefined, at10, 0],
    ['nothing failed, nothing waiting', { nextAttemptMs: 0, failedContent: null }, at10, 0],
    ['the same content failed: its backoff holds', { nextAttemptMs: BACKOFF_UNTIL, failedContent: at10 }, at10, BACKOFF_UNTIL],
    ['moved since the failed write: tried at once', { nextAttemptMs: BACKOFF_UNTIL, failedContent: at10 }, at11, 0],
    ['cancelled since the failed write: the delete is tried at once', { nextAttemptMs: BACKOFF_UNTIL, failedContent: at10 }, NO_EVENT, 0],
    ['wanted again since the failed delete: tried at once', { nextAttemptMs: BACKOFF_UNTIL, failedContent: NO_EVENT }, at10, 0],
    [
      'the failed delete is still what is wanted: its backoff holds',
      { nextAttemptMs: BACKOFF_UNTIL, failedContent: NO_EVENT },
      NO_EVENT,
      BACKOFF_UNTIL,
    ],
    // A wait that is no failure's (the reverse sync's turn on a person's change), or a failure
    // recorded before its content was: the wait holds as before.
    ['a wait with no failed content', { nextAttemptMs: BACKOFF_UNTIL, failedContent: null }, at11, BACKOFF_UNTIL],
  ])('%s', (_name, link, content, due) => {
    expect(retryDueAt(link, content)).toBe(due);
  });
});

describe('failedContentOf', () => {
  it('a refusal of the write (a 5xx, a 403, a 400) records its content: a new change is tried at once', () => {
    for (const kind of ['transient', 'forbidden', 'invalid', 'not_found', 'precondition_failed'] as const) {
      expect(retryDueAt({ nextAttemptMs: BACKOFF_UNTIL, failedContent: failedContentOf(kind, at10) }, at11)).toBe(0);
    }
  });

  it('a usage limit records none: its wait holds whatever the appointment wants meanwhile', () => {
    for (const kind of ['quota_exceeded', 'rate_limited'] as const) {
      expect(failedContentOf(kind, at10)).toBeNull();
      expect(retryDueAt({ nextAttemptMs: BACKOFF_UNTIL, failedContent: failedContentOf(kind, at10) }, at11)).toBe(BACKOFF_UNTIL);
      expect(retryDueAt({ nextAttemptMs: BACKOFF_UNTIL, failedContent: failedContentOf(kind, at10) }, NO_EVENT)).toBe(BACKOFF_UNTIL);
    }
  });
});
