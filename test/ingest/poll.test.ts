// The poll against the simulator over HTTP: changes no webhook announced are found and counted;
// an outage, an empty listing or a listing that lost records deletes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { BookingApi } from '../../src/booking/port.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { countRequests } from '../helpers/simulator.ts';
import { envelopeFor, ingestHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;
const LIST = '/api/v3/appointments/';

/** The real client, with the listing replaced. */
function withListing(real: BookingApi, listPages: BookingApi['listPages']): BookingApi {
  return {
    listPages,
    getAppointment: (k) => real.getAppointment(k),
    updateStatus: (k, s) => real.updateStatus(k, s),
    reschedule: (k, s) => real.reschedule(k, s),
    cancel: (k, o) => real.cancel(k, o),
    listWebhooks: () => real.listWebhooks(),
    createWebhook: (u, e) => real.createWebhook(u, e),
    updateWebhook: (k, u, e) => real.updateWebhook(k, u, e),
    deleteWebhook: (k) => real.deleteWebhook(k),
  };
}

type PollStatus = { poll: { last: { outcome: string; unannounced: number; error?: string }; unannounced_changes_total: number } };
const pollStatus = (x: Harness) => x.part.status!().ingest as PollStatus;

describe('poll', () => {
  it('loads every page of the window and nothing outside it', async () => {
    h = await ingestHarness({ sim: { pageSize: 7 }, config: { poll: { past_days: 7, future_days: 30 } } });
    const now = Date.now();
    const inside = Array.from({ length: 20 }, (_, i) => h!.sim.create({ start: now + (i - 5) * DAY }).appointment_key);
    h.sim.create({ start: now - 10 * DAY });
    h.sim.create({ start: now + 40 * DAY });
    const result = await h.poll.run();
    expect(result.status).toBe('success');
    expect(result.summary).toMatch(/^listed 20 \(.*\): 20 new, 0 changed, 0 gone, 0 unchanged$/);
    expect(
      h.t.ctx.appointments
        .listAll()
        .map((s) => s.appointment.key)
        .sort(),
    ).toEqual([...inside].sort());
    expect(countRequests(h.sim, 'GET', LIST)).toBe(3);
  });

  it('finds a create, a reschedule and a cancel that no webhook announced, and counts them', async () => {
    h = await ingestHarness();
    const now = Date.now();
    const a = h.sim.create({ start: now + DAY });
    const b = h.sim.create({ start: now + 2 * DAY });
    await h.poll.run();
    expect(pollStatus(h).poll.last.unannounced).toBe(0); // the first pass is the initial load

    const c = h.sim.create({ start: now + 3 * DAY });
    h.sim.reschedule(a.appointment_key, a.start + 2 * 3_600_000);
    h.sim.cancel(b.appointment_key, 'CANCELED_CLIENT');
    const result = await h.poll.run();
    expect(result.summary).toContain('1 new, 2 changed, 0 gone');
    expect(result.summary).toContain('3 not announced by any webhook');
    const store = h.t.ctx.appointments;
    expect(store.get(c.appointment_key)?.revision).toBe(1);
    expect(store.get(a.appointment_key)?.appointment.start).toBe(a.start + 2 * 3_600_000);
    expect(store.get(b.appointment_key)?.appointment.status).toBe('CANCELED_CLIENT');
    expect(pollStatus(h).poll.unannounced_changes_total).toBe(3);
    await expect(h.t.ctx.metrics.registry.getSingleMetricAsString('calbridge_poll_unannounced_changes_total')).resolves.toMatch(/ 3$/m);
  });

  it('does not count a change whose webhook arrived (even if not yet applied)', async () => {
    h = await ingestHarness();
    const a = h.sim.create({ start: Date.now() + DAY });
    await h.poll.run();
    h.sim.update(a.appointment_key, { status: 'PENDING' });
    await h.post(envelopeFor(h.sim, a.appointment_key));
    const result = await h.poll.run();
    expect(result.summary).toContain('1 changed');
    expect(result.summary).not.toContain('not announced');
  });

  it('warns when polls keep finding changes no webhook announced', async () => {
    h = await ingestHarness();
    const a = h.sim.create({ start: Date.now() + DAY });
    await h.poll.run();
    h.sim.update(a.appointment_key, { status: 'PENDING' });
    await h.poll.run();
    expect(h.part.readiness?.().warnings).toEqual([]);
    h.sim.update(a.appointment_key, { status: 'CONFIRMED' });
    await h.poll.run();
    const readiness = h.part.readiness?.();
    expect(readiness?.reasons).toEqual([]);
    expect(readiness?.warnings.map((w) => w.text).join('\n')).toMatch(/webhooks seem silent: the last two polls found 2 changes/);
  });

  it('an outage changes nothing and shows in status and readiness', async () => {
    const clock = new ManualClock(Date.now());
    h = await ingestHarness({ clock });
    const keys = [1, 2, 3].map((d) => h!.sim.create({ start: clock.now() + d * DAY }).appointment_key);
    await h.poll.run();
    for (const k of keys) h.sim.remove(k);
    h.sim.failNext({ status: 503, count: 5, pathIncludes: LIST });
    const result = await h.poll.run();
    expect(result.status).toBe('failed');
    expect(result.summary).toMatch(/^the listing failed, nothing was changed: /);
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 3, gone: 0 });
    expect(pollStatus(h).poll.last).toMatchObject({ outcome: 'failed' });
    expect(h.part.readiness?.().warnings).toEqual([]); // the last success is recent
    clock.advance(16 * 60_000); // three periods of */5 and a bit
    const readiness = h.part.readiness?.();
    // A warning, never a reason to be unready: webhooks and feeds still work while the API is down.
    expect(readiness?.reasons).toEqual([]);
    expect(readiness?.warnings.map((w) => w.text).join(' ')).toMatch(/booking API has not answered successfully since /);
    // The API's error text stays in status (a timestamp in a warning may well contain "503").
    expect(readiness?.warnings.map((w) => w.text).join(' ')).not.toMatch(/temporarily unavailable/i);
    expect(JSON.stringify(pollStatus(h))).toMatch(/temporarily unavailable/);
  });

  it('an empty listing deletes nothing (the breaker)', async () => {
    let empty = false;
    h = await ingestHarness({
      booking: (real) =>
        withListing(real, (f) =>
          empty
            ? (async function* () {
                yield [];
              })()
            : real.listPages(f),
        ),
    });
    for (let d = 1; d <= 10; d++) h.sim.create({ start: Date.now() + d * DAY });
    await h.poll.run();
    empty = true;
    const result = await h.poll.run();
    expect(result).toMatchObject({ status: 'failed' });
    expect(result.summary).toMatch(/listing came back empty while 10 appointments are stored/);
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 10, gone: 0 });
    expect(countRequests(h.sim, 'GET', /^\/api\/v3\/appointments\/[^/]+\/$/)).toBe(0); // not even re-read
    expect(
      h.part
        .readiness?.()
        .warnings.map((w) => w.text)
        .join(' '),
    ).toMatch(/stopped by the breaker/);
  });

  it('re-reads what the listing missed: only a 404 or a cancelled status makes it gone', async () => {
    let drop = new Set<string>();
    h = await ingestHarness({
      booking: (real) =>
        withListing(real, (f) =>
          (async function* () {
            for await (const page of real.listPages(f))
              yield page.filter((r) => !drop.has((r as { appointment_key: string }).appointment_key));
          })(),
        ),
    });
    const now = Date.now();
    const keys = Array.from({ length: 10 }, (_, i) => h!.sim.create({ start: now + (i + 1) * DAY }).appointment_key);
    await h.poll.run();
    const [lost, removed, cancelled] = keys as [string, string, string];
    drop = new Set([lost, removed, cancelled]); // a page shift loses three records
    h.sim.remove(removed);
    h.sim.cancel(cancelled);
    const result = await h.poll.run();
    expect(result.summary).toContain('1 changed, 1 gone, 8 unchanged');
    expect(h.t.ctx.appointments.get(lost)).toMatchObject({ goneAt: null, revision: 1 });
    expect(h.t.ctx.appointments.get(removed)?.goneReason).toBe('not found at the booking service');
    expect(h.t.ctx.appointments.get(cancelled)).toMatchObject({ goneAt: null, appointment: { status: 'CANCELED' } });
  });

  it('a cancelled appointment that left poll.filters with its webhook lost is gone after the next poll (not kept in feeds showing cancelled ones)', async () => {
    h = await ingestHarness({ config: { poll: { filters: { tag_keys: ['mirror'] } } } });
    const keys = Array.from(
      { length: 4 },
      (_, i) => h!.sim.create({ start: Date.now() + (i + 1) * DAY, tag_keys: ['mirror'] }).appointment_key,
    );
    const cancelled = keys[0]!;
    h.sim.cancel(cancelled);
    await h.poll.run();
    expect(h.t.ctx.appointments.get(cancelled)).toMatchObject({ goneAt: null, appointment: { status: 'CANCELED' } });
    h.sim.update(cancelled, { tag_keys: ['private'] }); // its webhook never arrives
    const result = await h.poll.run();
    expect(result.summary).toContain('1 gone');
    expect(h.t.ctx.appointments.get(cancelled)?.goneReason).toBe('out of scope');
  });

  it('a pass that would remove more than poll.breaker_share of the window stops and changes nothing', async () => {
    h = await ingestHarness({ config: { poll: { breaker_share: 0.3 } } });
    const keys = Array.from({ length: 20 }, (_, i) => h!.sim.create({ start: Date.now() + (i + 1) * DAY }).appointment_key);
    await h.poll.run();
    for (const k of keys.slice(0, 8)) h.sim.remove(k);
    const result = await h.poll.run();
    expect(result.status).toBe('failed');
    expect(result.summary).toMatch(/misses 8 of 20 stored appointments .* poll.breaker_share 0.3/);
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 20, gone: 0 });
  });

  it('with the breaker off (a share of 1, as `sync --allow-mass-changes` sets it) the same pass goes through', async () => {
    h = await ingestHarness({ config: { poll: { breaker_share: 1 } } });
    const keys = Array.from({ length: 20 }, (_, i) => h!.sim.create({ start: Date.now() + (i + 1) * DAY }).appointment_key);
    await h.poll.run();
    for (const k of keys.slice(0, 8)) h.sim.remove(k);
    expect((await h.poll.run()).status).toBe('success');
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 12, gone: 8 });
  });

  it('never runs two passes at once', async () => {
    h = await ingestHarness({ sim: { pageSize: 5 } });
    for (let d = 1; d <= 12; d++) h.sim.create({ start: Date.now() + d * DAY });
    h.sim.setFaults({ delayMs: 30 });
    const [one, two] = await Promise.all([h.poll.run(), h.poll.run()]);
    expect(two).toBe(one);
    expect(countRequests(h.sim, 'GET', LIST)).toBe(3);
  });

  it('lists the window in booking.timezone calendar days across a DST change', async () => {
    // 2026-03-10 12:00 in New York is EDT; seven calendar days earlier (03-03 12:00) was EST.
    const clock = new ManualClock(Date.parse('2026-03-10T16:00:00Z'));
    h = await ingestHarness({ clock, config: { booking: { timezone: 'America/New_York' }, poll: { past_days: 7, future_days: 240 } } });
    await h.poll.run();
    const list = h.sim.requests.find((r) => r.path === LIST);
    expect(list?.query.start_date).toEqual(['2026-03-03T12:00:00']);
    expect(list?.query.end_date).toEqual(['2026-11-05T12:00:00']); // after the November change, back in EST
    const last = (h.part.status!().ingest as { poll: { last: { window: { from: string; to: string } } } }).poll.last.window;
    expect(last).toEqual({ from: '2026-03-03T17:00:00.000Z', to: '2026-11-05T17:00:00.000Z' });
  });
});
