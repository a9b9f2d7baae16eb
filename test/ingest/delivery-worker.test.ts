// The delivery worker against the simulator over HTTP: notifications are hints, the appointment is
// re-read; repeats, disorder and crashes change nothing more; failures stay pending and visible.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { BookingError } from '../../src/booking/errors.ts';
import type { BookingApi } from '../../src/booking/port.ts';
import { MAX_DELIVERY_BACKOFF_MS, retryDelayMs } from '../../src/sync/delivery-worker.ts';
import { countRequests } from '../helpers/simulator.ts';
import { testDelivery } from '../helpers/delivery.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { envelopeFor, ingestHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const pathOf = (key: string) => `/api/v3/appointments/${key}/`;
const deliveryRows = (x: Harness) =>
  x.t.ctx.db.prepare('SELECT appointment_key, state, attempts, next_attempt_ms, last_error FROM deliveries ORDER BY id').all() as {
    appointment_key: string;
    state: string;
    attempts: number;
    next_attempt_ms: number;
    last_error: string | null;
  }[];

describe('delivery worker', () => {
  it('re-reads the appointment and stores what the booking service says now, not what the body said', async () => {
    h = await ingestHarness();
    const a = h.sim.create({ start: '2026-07-01T10:00:00-03:00', person: { full_name: 'João Araújo' } });
    const forged = {
      event: 'appointment.created',
      data: { ...(envelopeFor(h.sim, a.appointment_key).data as object), status: 'CANCELED' },
    };
    expect((await h.post(forged)).status).toBe(200);
    const result = await h.deliveries.run();
    expect(result.status).toBe('success');
    const stored = h.t.ctx.appointments.get(a.appointment_key);
    expect(stored?.appointment.status).toBe('CONFIRMED');
    expect(stored?.appointment.person.fullName).toBe('João Araújo');
    expect(stored?.appointment.start).toBe(Date.parse('2026-07-01T13:00:00Z'));
    expect(deliveryRows(h)).toMatchObject([{ state: 'done', last_error: null }]);
  });

  it('stores a delivery posted 50 times at once exactly once, and applies it once', async () => {
    h = await ingestHarness();
    const a = h.sim.create();
    const body = JSON.stringify(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    const answers = await Promise.all(Array.from({ length: 50 }, () => h!.post(body)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const outcomes = await Promise.all(answers.map(async (r) => ((await r.json()) as { status: string }).status));
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(1);
    expect(deliveryRows(h)).toHaveLength(1);

    const changes: number[] = [];
    h.t.ctx.appointments.changes.subscribe(({ revision }) => changes.push(revision));
    await h.deliveries.run();
    await h.deliveries.run();
    expect(countRequests(h.sim, 'GET', pathOf(a.appointment_key))).toBe(1);
    expect(changes).toEqual([1]);
    expect(h.t.ctx.appointments.get(a.appointment_key)?.revision).toBe(1);
  });

  it('an older delivery arriving after a newer one leaves the newer state', async () => {
    h = await ingestHarness();
    const a = h.sim.create({ status: 'PENDING' });
    const older = envelopeFor(h.sim, a.appointment_key, 'appointment.created');
    h.sim.update(a.appointment_key, { status: 'CONFIRMED' });
    const newer = envelopeFor(h.sim, a.appointment_key, 'appointment.updated');
    await h.post(newer);
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(a.appointment_key)).toMatchObject({ revision: 1, appointment: { status: 'CONFIRMED' } });
    expect((await (await h.post(older)).json()) as object).toEqual({ status: 'stored' });
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(a.appointment_key)).toMatchObject({ revision: 1, appointment: { status: 'CONFIRMED' } });
  });

  it('coalesces several deliveries for one appointment into one re-read', async () => {
    h = await ingestHarness();
    const a = h.sim.create();
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    h.sim.update(a.appointment_key, { status: 'PENDING' });
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.updated'));
    h.sim.reschedule(a.appointment_key, a.start + 3_600_000);
    await h.post({ event: 'UPDATED', data: { appointment_key: a.appointment_key } });
    const result = await h.deliveries.run();
    expect(result.summary).toBe('3 deliveries for 1 appointment: 1 changed, 0 gone, 0 unchanged');
    expect(countRequests(h.sim, 'GET', pathOf(a.appointment_key))).toBe(1);
    expect(h.t.ctx.appointments.get(a.appointment_key)?.appointment).toMatchObject({ status: 'PENDING', start: a.start + 3_600_000 });
  });

  it('a backlog of 3,000 deliveries of 10 appointments, interleaved, costs one re-read per appointment', async () => {
    h = await ingestHarness();
    const keys = Array.from({ length: 10 }, () => h!.sim.create().appointment_key);
    const now = Date.now() - 60_000;
    // Stored as a busy receiver stores them: the appointments take turns, oldest first.
    h.t.ctx.deliveries.insertMany(Array.from({ length: 3000 }, (_, i) => testDelivery(i, keys[i % keys.length]!, now + i)));
    const result = await h.deliveries.run();
    expect(result.summary).toBe('3000 deliveries for 10 appointments: 10 changed, 0 gone, 0 unchanged');
    for (const key of keys) expect(countRequests(h.sim, 'GET', pathOf(key))).toBe(1);
    expect(h.t.ctx.deliveries.counts()).toMatchObject({ pending: 0, done: 3000 });
  });

  it('a backlog left by the process before a restart costs one re-read per appointment too', async () => {
    h = await ingestHarness();
    const keys = Array.from({ length: 5 }, () => h!.sim.create().appointment_key);
    const before = new DeliveryStore(h.t.ctx.db); // the store of the process that ran before
    before.insertMany(Array.from({ length: 300 }, (_, i) => testDelivery(i, keys[i % keys.length]!, Date.now() - 60_000 + i)));
    const result = await h.deliveries.run();
    expect(result.summary).toBe('300 deliveries for 5 appointments: 5 changed, 0 gone, 0 unchanged');
    expect(h.t.ctx.deliveries.counts()).toMatchObject({ pending: 0, done: 300 });
    for (const key of keys) expect(countRequests(h.sim, 'GET', pathOf(key))).toBe(1);
  });

  it('applies every delivery another process stores while this one runs, though without remembering them', async () => {
    h = await ingestHarness();
    const keys = Array.from({ length: 5 }, () => h!.sim.create().appointment_key);
    await h.deliveries.run(); // this process has looked at the table once
    const other = new DeliveryStore(h.t.ctx.db); // a second process on the same database
    other.insertMany(Array.from({ length: 300 }, (_, i) => testDelivery(i, keys[i % keys.length]!, Date.now() - 60_000 + i)));
    const result = await h.deliveries.run();
    expect(result.summary).toMatch(/^300 deliveries for \d+ appointments: 5 changed, 0 gone, \d+ unchanged$/);
    expect(h.t.ctx.deliveries.counts()).toMatchObject({ pending: 0, done: 300 });
    for (const key of keys) expect(h.t.ctx.appointments.get(key)?.revision).toBe(1);
  });

  it('webhooks are acknowledged, and committed, while a large backlog drains', async () => {
    h = await ingestHarness();
    const keys = Array.from({ length: 50 }, () => h!.sim.create().appointment_key);
    const now = Date.now() - 60_000;
    h.t.ctx.deliveries.insertMany(Array.from({ length: 5000 }, (_, i) => testDelivery(i, keys[i % keys.length]!, now + i)));
    const draining = h.deliveries.run();
    const fresh = Array.from({ length: 40 }, () => h!.sim.create().appointment_key);
    const answers: number[] = [];
    for (const key of fresh) answers.push((await h.post(envelopeFor(h.sim, key, 'appointment.created'))).status);
    expect(answers).toEqual(Array(40).fill(200));
    // Each 200 means committed: the deliveries are in the database before the worker is done.
    const stored = h.t.ctx.db
      .prepare(`SELECT COUNT(*) AS n FROM deliveries WHERE appointment_key IN (${fresh.map(() => '?').join(',')})`)
      .get(...fresh) as { n: number };
    expect(stored.n).toBe(40);
    await draining;
    await h.deliveries.run();
    expect(h.t.ctx.deliveries.counts()).toMatchObject({ pending: 0, done: 5040 });
    for (const key of [...keys, ...fresh]) expect(h.t.ctx.appointments.get(key)?.revision).toBe(1);
    for (const key of keys) expect(countRequests(h.sim, 'GET', pathOf(key))).toBe(1);
  });

  it('a 404 makes the appointment gone; the row is kept', async () => {
    h = await ingestHarness();
    const a = h.sim.create();
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    await h.deliveries.run();
    h.sim.remove(a.appointment_key);
    await h.post({ event: 'DELETED', data: { appointment_key: a.appointment_key } });
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(a.appointment_key)).toMatchObject({ revision: 2, goneReason: 'not found at the booking service' });
  });

  it('a record outside poll.filters is marked gone, like a cancelled one', async () => {
    h = await ingestHarness({ config: { poll: { filters: { calendar_key: 'c0000000-0000-4000-a000-000000000001' } } } });
    const a = h.sim.create();
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(a.appointment_key)?.goneAt).toBeNull();
    h.sim.update(a.appointment_key, { calendar: { calendar_key: 'c0000000-0000-4000-a000-000000000002', name: 'Outra' } });
    await h.post(envelopeFor(h.sim, a.appointment_key));
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(a.appointment_key)?.goneReason).toBe('out of scope');
    const other = h.sim.create({ calendar: { calendar_key: 'c0000000-0000-4000-a000-000000000002' } });
    await h.post(envelopeFor(h.sim, other.appointment_key, 'appointment.created'));
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(other.appointment_key)).toBeUndefined();
  });

  it('a failure leaves the delivery pending with a backoff and a visible error, then it is applied', async () => {
    const clock = new ManualClock(Date.now());
    h = await ingestHarness({ clock });
    const a = h.sim.create();
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    h.sim.failNext({ status: 503, count: 1, pathIncludes: a.appointment_key });
    const first = await h.deliveries.run();
    expect(first.failed).toBe(1);
    expect(first.summary).toContain('1 to retry');
    const [row] = deliveryRows(h);
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row?.last_error).toMatch(/503|unavailable/i);
    expect(row!.next_attempt_ms).toBeGreaterThan(clock.now());
    const status = h.part.status?.().ingest as { deliveries: { pending: number; retrying: number; last_errors: { error: string }[] } };
    expect(status.deliveries).toMatchObject({ pending: 1, retrying: 1 });
    expect(status.deliveries.last_errors[0]?.error).toMatch(/503|unavailable/i);

    expect((await h.deliveries.run()).summary).toBe('no pending deliveries'); // not due yet
    expect(h.t.ctx.appointments.get(a.appointment_key)).toBeUndefined();
    clock.advance(10 * 60_000);
    await h.deliveries.run();
    expect(h.t.ctx.appointments.get(a.appointment_key)?.revision).toBe(1);
    expect(deliveryRows(h)).toMatchObject([{ state: 'done', last_error: null }]);
  });

  it('a 429 with a huge Retry-After parks a delivery for at most 30 minutes', async () => {
    const clock = new ManualClock(Date.now());
    h = await ingestHarness({ clock });
    const a = h.sim.create();
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    h.sim.failNext({ status: 429, retryAfterSeconds: 31_536_000_000, pathIncludes: a.appointment_key }); // a thousand years
    expect((await h.deliveries.run()).summary).toContain('1 to retry');
    const [row] = deliveryRows(h);
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row!.next_attempt_ms - clock.now()).toBeLessThanOrEqual(30 * 60_000);
    clock.advance(30 * 60_000);
    await h.deliveries.run();
    expect(deliveryRows(h)).toMatchObject([{ state: 'done', last_error: null }]);
    expect(h.t.ctx.appointments.get(a.appointment_key)?.revision).toBe(1);
  });

  it('crashing between applying and marking done changes nothing more when run again', async () => {
    h = await ingestHarness();
    const a = h.sim.create();
    await h.post(envelopeFor(h.sim, a.appointment_key, 'appointment.created'));
    await h.deliveries.run();
    // What a crash right after the upsert leaves behind: the state applied, the delivery still pending.
    h.t.ctx.db.prepare("UPDATE deliveries SET state = 'pending', processed_at_ms = NULL").run();
    const changes: string[] = [];
    h.t.ctx.appointments.changes.subscribe(({ key }) => changes.push(key));
    await h.deliveries.run();
    expect(changes).toEqual([]);
    expect(h.t.ctx.appointments.get(a.appointment_key)?.revision).toBe(1);
    expect(deliveryRows(h)).toMatchObject([{ state: 'done' }]);
  });

  it('an appointment whose write fails in the database leaves the answers settled with it applied', async () => {
    // The six answers are held until all six were asked, so they are settled together, in one transaction.
    let asked = 0;
    let release!: () => void;
    const allAsked = new Promise<void>((resolve) => (release = resolve));
    h = await ingestHarness({
      booking: (real): BookingApi => ({
        ...bind(real),
        getAppointment: async (key) => {
          const answer = await real.getAppointment(key);
          if (++asked === 6) release();
          await allAsked;
          return answer;
        },
      }),
    });
    const keys = Array.from({ length: 6 }, () => h!.sim.create().appointment_key);
    const bad = keys[2]!;
    // A real failure inside that transaction (no stand-in store).
    h.t.ctx.db.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON appointments WHEN NEW.appointment_key = '${bad}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    const now = Date.now() - 60_000;
    h.t.ctx.deliveries.insertMany(keys.map((key, i) => testDelivery(i, key, now + i)));
    await expect(h.deliveries.run()).rejects.toThrow(/refused/);
    const state = (key: string) => h!.t.ctx.db.prepare('SELECT state FROM deliveries WHERE appointment_key = ?').pluck().get(key) as string;
    // The run ends at the failure; answers settled after it are still committed.
    await vi.waitFor(() => {
      for (const key of keys.filter((k) => k !== bad)) expect(state(key)).toBe('done');
    });
    for (const key of keys.filter((k) => k !== bad)) expect(h.t.ctx.appointments.get(key)).toBeDefined();
    expect(state(bad)).toBe('pending');
    expect(h.t.ctx.appointments.get(bad)).toBeUndefined();

    h.t.ctx.db.exec('DROP TRIGGER refuse');
    asked = 5; // the one left is asked alone
    const result = await h.deliveries.run();
    expect(result.summary).toBe('1 delivery for 1 appointment: 1 changed, 0 gone, 0 unchanged');
    expect(h.t.ctx.deliveries.counts()).toMatchObject({ pending: 0, done: 6 });
  });

  it('a record that cannot be read fails the delivery with the reason, and stores nothing', async () => {
    h = await ingestHarness({
      booking: (real): BookingApi => ({ ...bind(real), getAppointment: async (key) => ({ appointment_key: key, status: 'CONFIRMED' }) }),
    });
    await h.post({ event: 'appointment.created', data: { appointment_key: 'no-start' } });
    const result = await h.deliveries.run();
    expect(result.failed).toBe(1);
    expect(deliveryRows(h)).toMatchObject([{ state: 'failed', last_error: 'appointment no-start has no start_date or start' }]);
    expect(h.t.ctx.appointments.counts().total).toBe(0);
    expect(
      h.part
        .readiness?.()
        .warnings.map((w) => w.text)
        .join(' '),
    ).toMatch(/1 webhook deliveries failed/);
  });
});

describe('retry delay', () => {
  it.each([
    [0, undefined, 2_500, 5_000],
    [1, undefined, 5_000, 10_000],
    [20, undefined, 15 * 60_000, 30 * 60_000],
    [0, new BookingError('rate_limited', 'slow down', undefined, 429, 30_000), 30_000, 30_000],
    [
      0,
      new BookingError('rate_limited', 'a thousand years', undefined, 429, 1000 * 365 * 86_400_000),
      MAX_DELIVERY_BACKOFF_MS,
      MAX_DELIVERY_BACKOFF_MS,
    ],
    [40, undefined, 15 * 60_000, MAX_DELIVERY_BACKOFF_MS],
  ] as const)('after %i attempts (%s) waits between %i and %i ms', (attempts, error, min, max) => {
    for (const r of [0, 0.5, 0.999]) {
      const ms = retryDelayMs(attempts, error, () => r);
      expect(ms).toBeGreaterThanOrEqual(min);
      expect(ms).toBeLessThanOrEqual(max);
    }
  });
});

function bind(api: BookingApi): BookingApi {
  return {
    listPages: (f) => api.listPages(f),
    getAppointment: (k) => api.getAppointment(k),
    updateStatus: (k, s) => api.updateStatus(k, s),
    reschedule: (k, s) => api.reschedule(k, s),
    cancel: (k, o) => api.cancel(k, o),
    listWebhooks: () => api.listWebhooks(),
    createWebhook: (u, e) => api.createWebhook(u, e),
    updateWebhook: (k, u, e) => api.updateWebhook(k, u, e),
    deleteWebhook: (k) => api.deleteWebhook(k),
  };
}
