// A link keeps what its last failed write tried to show (migration 014), in both targets' tables, for
// as long as that failure is the link's retry state: a success, a revision with nothing to write, or
// a wait left to the reverse sync clears it, so an old failure never decides a later retry.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { LinkStore } from '../../src/store/link-store.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { appointment } from '../google/google-env.ts';

let t: TestContext;
const clock = new ManualClock();
const key = appointment(1).key;
const target = { calendarId: 'cal', eventId: 'evt1', generation: 0 };
const written = { ...target, present: true, hash: 'h1', etag: '"1"', start: 1, end: 2, revision: 1 };

beforeEach(() => {
  t = createTestContext({ clock });
  t.ctx.appointments.upsert(appointment(1));
});
afterEach(() => t.close());

describe.each(['google.default', 'caldav.default'])('%s', (table) => {
  const links = () => new LinkStore(t.ctx.db, clock, table);

  it('a failure records what it tried; the next failure replaces it and counts on', () => {
    links().recordFailure(key, target, 'HTTP 500', 1000, 'cal#h2');
    expect(links().get(key)).toMatchObject({
      attempts: 1,
      nextAttemptMs: 1000,
      failedContent: 'cal#h2',
      lastError: 'HTTP 500',
      present: false,
    });
    links().recordFailure(key, target, 'HTTP 503', 3000, 'cal#h3');
    expect(links().get(key)).toMatchObject({ attempts: 2, nextAttemptMs: 3000, failedContent: 'cal#h3' });
    expect(links().plannableOne(key)?.link).toMatchObject({ failedContent: 'cal#h3' });
  });

  it('a successful write clears it with the failure', () => {
    links().recordWrite(key, written);
    links().recordFailure(key, target, 'HTTP 500', 1000, 'cal#h2');
    links().recordWrite(key, { ...written, hash: 'h2' });
    expect(links().get(key)).toMatchObject({ attempts: 0, nextAttemptMs: 0, failedContent: null, lastError: null });
    expect(links().failures()).toEqual([]);
  });

  it('nothing left to write clears it; so does a wait left to the reverse sync, keeping that wait', () => {
    links().recordWrite(key, written);
    links().recordFailure(key, target, 'HTTP 500', 1000, 'cal#h2');
    links().recordRevision(key, 2);
    expect(links().get(key)).toMatchObject({ failedContent: null, attempts: 0 });
    links().recordFailure(key, target, 'HTTP 500', 1000, 'cal#h2');
    links().leaveToReverse(key, { etag: '"p"', since: 5 }, 9000);
    expect(links().get(key)).toMatchObject({ failedContent: null, nextAttemptMs: 9000 });
  });
});
