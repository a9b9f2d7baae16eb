// Everything kept is bounded: the retention job prunes what is past its retention, keeps what is
// within it, and never touches work still to do. A real database, the real job, a manual clock.
import { describe, expect, it } from 'vitest';
import { RETENTION_MS } from '../../src/sync/retention.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { RescheduleStore, type NewAction } from '../../src/store/reschedule-store.ts';
import { testDelivery as delivery } from '../helpers/delivery.ts';
import type { TestContext } from '../helpers/context.ts';
import { appointment } from '../google/google-env.ts';
import { retentionContexts } from './retention-context.ts';

const DAY = 24 * 60 * 60_000;
const open = retentionContexts();

function setup() {
  const s = open();
  return { ...s, deliveries: new DeliveryStore(s.t.ctx.db), actions: new RescheduleStore(s.t.ctx.db, s.clock, 'google.default') };
}

const rows = (t: TestContext, sql: string) => t.ctx.db.prepare(sql).all();

describe('retention', () => {
  it('prunes processed deliveries past their retention, keeps recent ones, and never a pending one however old', async () => {
    const s = setup();
    const start = s.clock.now();
    s.deliveries.insertMany([delivery(1, 'old-done', start), delivery(2, 'old-failed', start), delivery(3, 'old-pending', start)]);
    s.deliveries.settle('old-done', start, start, () => ({ value: 'applied' }));
    s.deliveries.settle('old-failed', start, start, () => ({ value: 'unreadable', failed: 'unreadable' }));
    s.clock.advance(RETENTION_MS.deliveries - DAY);
    s.deliveries.insertMany([delivery(4, 'recent', s.clock.now())]);
    s.deliveries.settle('recent', s.clock.now(), s.clock.now(), () => ({ value: 'applied' }));

    s.clock.advance(2 * DAY); // the first three are now past a week, the recent one is 2 days old
    const result = await s.job.run();
    expect(result).toMatchObject({ status: 'success' });
    expect(result.summary).toMatch(/pruned 2 processed deliveries/);
    expect(rows(s.t, 'SELECT appointment_key, state FROM deliveries ORDER BY id')).toEqual([
      { appointment_key: 'old-pending', state: 'pending' },
      { appointment_key: 'recent', state: 'done' },
    ]);
    expect(s.deliveries.counts()).toMatchObject({ pending: 1, done: 1, failed: 0 });

    s.clock.advance(365 * DAY);
    await s.job.run();
    expect(rows(s.t, `SELECT appointment_key FROM deliveries WHERE state = 'pending'`)).toEqual([{ appointment_key: 'old-pending' }]);
  });

  it('prunes webhook announcements older than their retention and keeps newer ones', async () => {
    const s = setup();
    const start = s.clock.now();
    s.deliveries.insertMany([delivery(1, 'a', start)]);
    s.deliveries.settle('a', start, start, () => ({ value: 'applied' }));
    s.clock.advance(RETENTION_MS.announcements - DAY);
    s.deliveries.insertMany([delivery(2, 'b', s.clock.now())]);
    s.deliveries.settle('b', s.clock.now(), s.clock.now(), () => ({ value: 'applied' }));
    s.clock.advance(2 * DAY);
    await s.job.run();
    expect(rows(s.t, 'SELECT appointment_key FROM webhook_announcements')).toEqual([{ appointment_key: 'b' }]);
  });

  it('prunes settled reverse-sync actions past their retention, but never a pending one, nor an appointment’s latest action or completed reschedule', async () => {
    const s = setup();
    const [a, b, c] = [appointment(1), appointment(2), appointment(3)];
    for (const x of [a, b, c]) s.t.ctx.appointments.upsert(x);
    const action = (key: string, start: number, over: Partial<NewAction> = {}): NewAction => ({
      kind: 'reschedule',
      appointmentKey: key,
      newStart: start,
      newEnd: start + 3_600_000,
      observedEtag: `"e${start}"`,
      calendarId: 'primary',
      eventId: `ev${start}`,
      state: 'pending',
      ...over,
    });
    // a: an old completed reschedule, an old revert, then an old 'ignore' as its latest action.
    const aDone = s.actions.record(action(a.key, 1000));
    s.actions.finish(aDone.id, 'done', 'rescheduled');
    const aReverted = s.actions.record(action(a.key, 2000));
    s.actions.finish(aReverted.id, 'reverted', 'conflict');
    const aLatest = s.actions.record(action(a.key, 3000, { kind: 'ignore', state: 'done' }));
    // b: an old move still pending (the booking service has not answered yet).
    const bPending = s.actions.record(action(b.key, 4000));
    // c: an old refused move, and a recent one within retention.
    const cOld = s.actions.record(action(c.key, 5000));
    s.actions.finish(cOld.id, 'reverted', 'refused');
    s.clock.advance(RETENTION_MS.reverseActions + DAY);
    const cRecent = s.actions.record(action(c.key, 6000));
    s.actions.finish(cRecent.id, 'reverted', 'refused');
    s.clock.advance(DAY);

    const result = await s.job.run();
    expect(result.summary).toMatch(/ 2 settled reverse-sync actions/); // a's revert and c's old refusal
    expect(rows(s.t, 'SELECT id FROM reschedules ORDER BY id').map((r) => (r as { id: number }).id)).toEqual([
      aDone.id, // a's latest completed reschedule: the reverse sync compares with where it put a
      aLatest.id, // a's latest action: a Google state seen again is compared with it
      bPending.id, // still to be sent
      cRecent.id, // within retention
    ]);
    expect(s.actions.lastRescheduledTo(a.key)).toBe(1000);
    expect(s.actions.latest(b.key)?.state).toBe('pending');
  });

  it('deletes a large backlog in batches and reports it in status', async () => {
    const s = setup();
    const old = s.clock.now();
    s.t.ctx.db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2345)
      INSERT INTO deliveries (dedupe_key, appointment_key, body, received_at_ms, state, attempts, processed_at_ms)
      SELECT 'b' || i, 'k' || i, '', ${old}, 'done', 1, ${old} FROM n`);
    s.clock.advance(RETENTION_MS.deliveries + 1);
    await s.job.run();
    expect(s.deliveries.counts().done).toBe(0);
    expect(s.part.status!().retention).toMatchObject({
      kept_days: { processed_deliveries: 7, webhook_announcements: 7, settled_reverse_actions: 30 },
      last_run_at: new Date(s.clock.now()).toISOString(),
      last_deleted: { processed_deliveries: 2345, webhook_announcements: 0, settled_reverse_actions: 0 },
    });
  });

  it('is not part of a one-shot sync pass, and runs when serve starts', async () => {
    const s = setup();
    expect(s.job.inSync).toBe(false);
    await s.part.start!();
    expect(s.t.woken).toEqual(['retention']);
  });
});
