// The deletion breaker by rate, against the simulator over HTTP: deletions that trickle in one by one
// (webhook re-reads answering 404, polls below the count breaker's minimum, records leaving
// poll.filters) stop at poll.max_gone_per_hour; the held ones stay as they were, show in status,
// readiness and metrics, and go through when the rate drops or with `sync --allow-mass-changes`.
import { afterEach, describe, expect, it } from 'vitest';
import { withoutBreakers } from '../../src/commands/sync.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/log.ts';
import { buildRuntime } from '../../src/wiring/runtime.ts';
import { envelopeFor, ingestHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface BreakerStatus {
  max_gone_per_hour: number | null;
  gone_last_hour: number;
  held: number;
  held_appointments: { appointment_key: string; reason: string }[];
}
const breakerStatus = (x: Harness) => (x.part.status!().ingest as { deletion_breaker: BreakerStatus }).deletion_breaker;

async function heldMetric(x: Harness): Promise<number> {
  const metric = await x.t.ctx.metrics.registry.getSingleMetric('calbridge_appointments_gone_held_total')?.get();
  return (metric?.values ?? []).reduce((n, v) => n + v.value, 0);
}

/** `n` appointments in the poll window, stored through their webhooks. */
async function stored(x: Harness, n: number): Promise<string[]> {
  const keys = Array.from({ length: n }, (_, i) => x.sim.create({ start: Date.now() + (i + 1) * DAY }).appointment_key);
  for (const key of keys) await x.post(envelopeFor(x.sim, key, 'appointment.created'));
  await x.deliveries.run();
  return keys;
}

/** Deletes each at the booking service and announces it by webhook, one worker run per deletion. */
async function deleteOneByOne(x: Harness, keys: string[]): Promise<string[]> {
  const summaries: string[] = [];
  for (const key of keys) {
    x.sim.remove(key);
    await x.post({ event: 'DELETED', data: { appointment_key: key } });
    summaries.push((await x.deliveries.run()).summary ?? '');
  }
  return summaries;
}

describe('deletion breaker by rate', () => {
  it('deletions that trickle in by webhook one at a time stop at poll.max_gone_per_hour; the rest are held and reported', async () => {
    const clock = new ManualClock(Date.now());
    h = await ingestHarness({ clock, config: { poll: { max_gone_per_hour: 5 } } });
    const keys = await stored(h, 20);
    const summaries = await deleteOneByOne(h, keys.slice(0, 8));
    expect(summaries.at(-1)).toBe('1 delivery for 1 appointment: 0 changed, 0 gone, 0 unchanged, 1 held by the deletion breaker');
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 15, gone: 5 });
    for (const key of keys.slice(5, 8)) expect(h.t.ctx.appointments.get(key)).toMatchObject({ goneAt: null, revision: 1 });

    expect(breakerStatus(h)).toMatchObject({ max_gone_per_hour: 5, gone_last_hour: 5, held: 3 });
    expect(breakerStatus(h).held_appointments).toEqual(
      keys.slice(5, 8).map((k) => ({ appointment_key: k, reason: 'not found at the booking service', since: expect.any(String) })),
    );
    expect(
      h.part
        .readiness?.()
        .warnings.map((w) => w.text)
        .join(' '),
    ).toMatch(/deletion breaker holds 3 appointments .*poll\.max_gone_per_hour 5.*--allow-mass-changes/);
    expect(await heldMetric(h)).toBe(3);

    // An hour later the rate has dropped: the poll re-reads the held ones and they go.
    clock.advance(HOUR + 60_000);
    const pass = await h.poll.run();
    expect(pass.summary).toMatch(/3 gone, 12 unchanged$/);
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 12, gone: 8 });
    expect(breakerStatus(h)).toMatchObject({ held: 0, held_appointments: [] });
    expect(
      h.part
        .readiness?.()
        .warnings.map((w) => w.text)
        .join(' '),
    ).not.toMatch(/deletion breaker/);
  });

  it('polls that each stay below the count breaker cannot remove appointments faster than the rate', async () => {
    h = await ingestHarness({ config: { poll: { max_gone_per_hour: 5 } } });
    const keys = Array.from({ length: 30 }, (_, i) => h!.sim.create({ start: Date.now() + (i + 1) * DAY }).appointment_key);
    await h.poll.run();
    const summaries: string[] = [];
    for (let pass = 0; pass < 3; pass++) {
      for (const k of keys.slice(pass * 3, pass * 3 + 3)) h.sim.remove(k); // three a pass: the count breaker's floor
      summaries.push((await h.poll.run()).summary ?? '');
    }
    expect(summaries.map((s) => s.replace(/^listed \d+ \(.*?\): /, '').replace(/; \d+ not announced by any webhook$/, ''))).toEqual([
      '0 new, 0 changed, 3 gone, 27 unchanged',
      '0 new, 0 changed, 2 gone, 24 unchanged, 1 held by the deletion breaker',
      // the one held before is re-read with this pass's three: all four held
      '0 new, 0 changed, 0 gone, 21 unchanged, 4 held by the deletion breaker',
    ]);
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 25, gone: 5 });
    expect(breakerStatus(h).held).toBe(4);
  });

  it("held appointments do not trip the poll's count breaker again on every later pass", async () => {
    h = await ingestHarness({ config: { poll: { max_gone_per_hour: 1 } } });
    const keys = Array.from({ length: 10 }, (_, i) => h!.sim.create({ start: Date.now() + (i + 1) * DAY }).appointment_key);
    await h.poll.run();
    let last: Awaited<ReturnType<typeof h.poll.run>> | undefined;
    for (const k of keys.slice(0, 5)) {
      h.sim.remove(k); // one a pass: 1 gone, then 4 held, 4 missing from the listing at the end
      last = await h.poll.run();
    }
    expect(last).toMatchObject({ status: 'success' });
    expect(last?.summary).toMatch(/0 gone, 5 unchanged, 4 held by the deletion breaker/);
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 9, gone: 1 });
  });

  it('a record leaving poll.filters counts against the same rate', async () => {
    const calendar = 'c0000000-0000-4000-a000-000000000001';
    h = await ingestHarness({ config: { poll: { max_gone_per_hour: 2, filters: { calendar_key: calendar } } } });
    const keys = await stored(h, 4);
    await deleteOneByOne(h, keys.slice(0, 2));
    h.sim.update(keys[2]!, { calendar: { calendar_key: 'c0000000-0000-4000-a000-000000000002', name: 'Outra' } });
    await h.post(envelopeFor(h.sim, keys[2]!));
    expect((await h.deliveries.run()).summary).toContain('1 held by the deletion breaker');
    expect(h.t.ctx.appointments.get(keys[2]!)).toMatchObject({ goneAt: null });
    expect(breakerStatus(h).held_appointments).toEqual([{ appointment_key: keys[2], reason: 'out of scope', since: expect.any(String) }]);
  });

  it('held deletions go through with `sync --allow-mass-changes`, even outside the poll window', async () => {
    h = await ingestHarness({ config: { poll: { max_gone_per_hour: 2 } } });
    const keys = await stored(h, 6);
    const far = h.sim.create({ start: Date.now() + 400 * DAY }); // beyond future_days: only the breaker's list brings it back
    await h.post(envelopeFor(h.sim, far.appointment_key, 'appointment.created'));
    await h.deliveries.run();
    await deleteOneByOne(h, [...keys.slice(0, 3), far.appointment_key]);
    expect(breakerStatus(h).held).toBe(2);

    // What `sync --allow-mass-changes` runs: a runtime over the same database with the breakers off.
    const allowed = buildRuntime(withoutBreakers(h.t.ctx.config), {
      log: silentLogger(),
      clock: h.t.clock,
      booking: h.t.ctx.booking,
      wake: () => undefined,
      processMetrics: false,
    });
    try {
      expect((await allowed.scheduler.runNow('poll')).summary).toMatch(/2 gone, 3 unchanged$/);
    } finally {
      await allowed.close();
    }
    expect(h.t.ctx.appointments.get(far.appointment_key)?.goneReason).toBe('not found at the booking service');
    expect(h.t.ctx.appointments.counts()).toMatchObject({ active: 3, gone: 4 });
    expect(breakerStatus(h).held).toBe(0);
  });

  it('a held appointment that the booking service lists again is held no more', async () => {
    h = await ingestHarness({ config: { poll: { max_gone_per_hour: 1 } } });
    const keys = await stored(h, 5);
    await deleteOneByOne(h, keys.slice(0, 1));
    // A single 404 in the service's own shape for an appointment that exists (a glitch on its side).
    h.sim.failNext({ status: 404, pathIncludes: keys[1] });
    await h.post(envelopeFor(h.sim, keys[1]!));
    expect((await h.deliveries.run()).summary).toContain('1 held by the deletion breaker');
    expect(breakerStatus(h).held).toBe(1);
    expect((await h.poll.run()).summary).toMatch(/0 gone, 4 unchanged$/);
    expect(breakerStatus(h)).toMatchObject({ held: 0 });
    expect(h.t.ctx.appointments.get(keys[1]!)).toMatchObject({ goneAt: null, revision: 1 });
  });
});
