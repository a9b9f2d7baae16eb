// Google and CalDAV keep their own mirror state in one database: a link or a reverse-sync action of
// one target never shows in, supersedes or is pruned by the other's (migration 010).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { LinkStore } from '../../src/store/link-store.ts';
import { RescheduleStore, type NewAction } from '../../src/store/reschedule-store.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { appointment } from '../google/google-env.ts';

let t: TestContext;
const clock = new ManualClock();
const key = appointment(1).key;
const action = (over: Partial<NewAction>): NewAction => ({
  kind: 'reschedule',
  appointmentKey: key,
  newStart: 5000,
  newEnd: 6000,
  fromStart: 1000,
  observedEtag: '"e"',
  calendarId: 'Clinic',
  eventId: key,
  state: 'pending',
  ...over,
});

beforeEach(() => {
  t = createTestContext({ clock });
  t.ctx.appointments.upsert(appointment(1));
});
afterEach(() => t.close());

describe('state per calendar target', () => {
  it('links: a CalDAV write is not a Google link, and each counts its own', () => {
    const google = new LinkStore(t.ctx.db, clock, 'google.default');
    const caldav = new LinkStore(t.ctx.db, clock, 'caldav.default');
    caldav.recordWrite(key, {
      calendarId: 'Clinic',
      eventId: key,
      generation: 0,
      present: true,
      hash: 'h',
      etag: '"1"',
      start: 1,
      end: 2,
      revision: 1,
    });
    expect(google.get(key)).toBeUndefined();
    expect(google.plannable().find((r) => r.key === key)?.link).toBeUndefined();
    // One appointment planned on its own (a change taken at once) sees its own target's link too.
    expect(google.plannableOne(key)?.link).toBeUndefined();
    expect(caldav.plannableOne(key)?.link).toMatchObject({ present: true, etag: '"1"' });
    expect(caldav.byEvent('Clinic', key)).toMatchObject({ present: true, etag: '"1"' });
    expect(caldav.counts()).toEqual({ mirrored: 1, failed: 0 });
    expect(google.counts()).toEqual({ mirrored: 0, failed: 0 });
  });

  it('reverse-sync actions: each target sees, supersedes and counts only its own', () => {
    const google = new RescheduleStore(t.ctx.db, clock, 'google.default');
    const caldav = new RescheduleStore(t.ctx.db, clock, 'caldav.default');
    google.record(action({ observedEtag: '"g"', calendarId: 'primary' }));
    caldav.record(action({ observedEtag: '"c"' }));
    // The CalDAV move did not supersede Google's pending one.
    expect(google.due().map((r) => r.observedEtag)).toEqual(['"g"']);
    expect(caldav.due().map((r) => r.observedEtag)).toEqual(['"c"']);
    expect(google.latestDecision(key)).toMatchObject({ etag: '"g"', settled: false });
    expect(caldav.latestDecision(key)).toMatchObject({ etag: '"c"', settled: false });
    caldav.finish(caldav.due()[0]!.id, 'reverted', 'conflict', 'taken');
    expect(caldav.counts()).toMatchObject({ movesDetected: 1, reverted: 1, conflicts: 1, pending: 0 });
    expect(google.counts()).toMatchObject({ movesDetected: 1, reverted: 0, pending: 1 });
    expect(google.recentProblems()).toEqual([]);
    // A move put back onto a taken slot is the bridge doing its job: activity, not a problem.
    expect(caldav.recentProblems()).toEqual([]);
  });

  it('pruning keeps each target’s latest action of an appointment', () => {
    const google = new RescheduleStore(t.ctx.db, clock, 'google.default');
    const caldav = new RescheduleStore(t.ctx.db, clock, 'caldav.default');
    const g = google.record(action({ state: 'done', kind: 'restore' }));
    const c = caldav.record(action({ state: 'done', kind: 'restore' }));
    clock.advance(60 * 86_400_000);
    expect(google.prune(clock.now(), 100)).toBe(0);
    expect(google.get(g.id)).toBeDefined();
    expect(caldav.get(c.id)).toBeDefined();
  });
});
