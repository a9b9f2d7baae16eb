import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '../core/clock.ts';
import { defaultBurst, Pacer, WINDOW_MS } from './pacer.ts';

/** A pacer on a manual clock whose waits move the clock: time passes only when someone waits. */
function manual(rpm: number, burst?: number) {
  const clock = new ManualClock(0);
  const pacer = new Pacer(rpm, clock, async (ms) => clock.advance(ms), burst);
  return { clock, pacer };
}

/** The most grants in any closed window of `ms`. */
function busiest(times: number[], ms: number): number {
  let most = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while ((times[j] as number) < (times[i] as number) - ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('Pacer', () => {
  it('never lets more than requests_per_minute through in any 60-second window (and a quarter second more), whatever the demand', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1200 }),
        fc.option(fc.integer({ min: 1, max: 1200 }), { nil: undefined }),
        // Gaps between callers: many at once (0), a trickle, and quiet spells that refill the bucket.
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 90_000 })), {
          minLength: 1,
          maxLength: 1500,
        }),
        async (rpm, burst, gaps) => {
          const { clock, pacer } = manual(rpm, burst);
          const times: number[] = [];
          for (const gap of gaps) {
            clock.advance(gap);
            await pacer.take();
            times.push(clock.now());
          }
          expect(WINDOW_MS).toBeGreaterThan(60_000);
          expect(busiest(times, WINDOW_MS)).toBeLessThanOrEqual(rpm);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('lets a burst through at once, then holds a backfill at the refill rate, about 95 % of the configured rate', async () => {
    const { clock, pacer } = manual(600);
    expect(pacer.burst).toBe(defaultBurst(600));
    expect(pacer.burst).toBe(30);
    for (let i = 0; i < 30; i++) await pacer.take();
    expect(clock.now()).toBe(0); // thirty changes go out together
    // A backfill: 600 in the first minute, the quota, and the 601st only after the window.
    for (let i = 0; i < 570; i++) await pacer.take();
    expect(clock.now()).toBeLessThanOrEqual(WINDOW_MS);
    await pacer.take();
    expect(clock.now()).toBeGreaterThan(WINDOW_MS);
    // Later it runs at the refill rate: 570 more in a little over a minute (about 95 % of 600 a minute).
    const from = clock.now();
    for (let i = 0; i < 570; i++) await pacer.take();
    expect(clock.now() - from).toBeLessThanOrEqual(WINDOW_MS);
    expect(clock.now() - from).toBeGreaterThan(60_000);
  });

  it('serves concurrent callers in order and lets the calls they guard overlap', async () => {
    const { clock, pacer } = manual(600);
    const order: number[] = [];
    await Promise.all(Array.from({ length: 40 }, (_, i) => pacer.take().then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 40 }, (_, i) => i));
    // The first thirty did not wait for one another; the other ten waited for refills only.
    expect(clock.now()).toBe(Math.ceil((10 * (WINDOW_MS + 1)) / 571));
  });

  it('a usage limit pauses every caller until the pause ends, and the bucket starts empty after it', async () => {
    const { clock, pacer } = manual(600);
    await pacer.take();
    pacer.pauseUntil(clock.now() + 30_000);
    expect(pacer.pausedUntilMs).toBe(30_000);
    const waiting = [pacer.take(), pacer.take()];
    await Promise.all(waiting);
    // Both waited out the pause; the second then waited for a token to refill.
    expect(clock.now()).toBeGreaterThanOrEqual(30_000 + Math.floor((WINDOW_MS + 1) / 571));
    // A shorter pause asked later never shortens the one in force.
    pacer.pauseUntil(clock.now() + 60_000);
    pacer.pauseUntil(clock.now() + 1_000);
    expect(pacer.pausedUntilMs).toBe(clock.now() + 60_000);
  });

  it('at one request a minute, lets one through a minute', async () => {
    const { clock, pacer } = manual(1);
    await pacer.take();
    await pacer.take();
    expect(clock.now()).toBe(WINDOW_MS + 1);
  });
});
