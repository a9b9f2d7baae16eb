import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.ts';
import { Pacer } from './pacer.ts';
import { withRetries, type Verdict } from './retry.ts';

const policy = { retries: 3, baseMs: 100, maxMs: 1000 };

/** Runs withRetries over `outcomes` (an Error fails the attempt), judging every failure with `verdict`. */
async function run(outcomes: (string | Error)[], verdict: (e: Error) => Partial<Verdict>, pacer?: Pacer) {
  const clock = new ManualClock(0);
  const waits: number[] = [];
  let attempts = 0;
  const result = await withRetries(
    async () => {
      const o = outcomes[attempts++] ?? new Error('no more outcomes');
      if (o instanceof Error) throw o;
      return o;
    },
    (e) => ({ error: e, retry: true, ...verdict(e as Error) }),
    {
      policy,
      now: () => clock.now(),
      random: () => 0.5,
      pacer,
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    },
  ).catch((e: unknown) => e);
  return { result, attempts, waits, clock };
}

describe('withRetries, the one retry loop', () => {
  it('retries what the adapter calls retryable, with the backoff growing, and returns the first success', async () => {
    const r = await run([new Error('a'), new Error('b'), 'ok'], () => ({}));
    expect(r.result).toBe('ok');
    expect(r.attempts).toBe(3);
    expect(r.waits).toEqual([75, 150]);
  });

  it("stops after the policy's retries with the last error, and at once on what is not retryable", async () => {
    const spent = await run([new Error('1'), new Error('2'), new Error('3'), new Error('4'), 'late'], () => ({}));
    expect((spent.result as Error).message).toBe('4');
    expect(spent.attempts).toBe(4);
    const final = await run([new Error('no'), 'never'], () => ({ retry: false }));
    expect((final.result as Error).message).toBe('no');
    expect(final.attempts).toBe(1);
  });

  it('waits at least what Retry-After asks, and not at all when that is longer than the longest wait', async () => {
    const floor = await run([new Error('429'), 'ok'], () => ({ waitMs: 700 }));
    expect(floor.waits).toEqual([700]);
    const tooLong = await run([new Error('429'), 'ok'], () => ({ waitMs: 5000 }));
    expect((tooLong.result as Error).message).toBe('429');
    expect(tooLong.waits).toEqual([]);
  });

  it('pauses the pacer for every caller on a rate limit, even one it does not retry', async () => {
    const clock = new ManualClock(0);
    const pacer = new Pacer(6000, clock, async (ms) => clock.advance(ms));
    const r = await run([new Error('slow down')], () => ({ rateLimited: true, waitMs: 800, retry: false }), pacer);
    expect((r.result as Error).message).toBe('slow down');
    await pacer.take(); // another caller of the same upstream
    expect(clock.now()).toBeGreaterThanOrEqual(800);
  });

  it('tries again at once, uncounted, when the adapter fixed something (a fresh token after a 401)', async () => {
    let once = false;
    const r = await run([new Error('401'), new Error('503'), new Error('503'), new Error('503'), 'ok'], (e) => {
      if (e.message === '401' && !once) {
        once = true;
        return { again: true };
      }
      return {};
    });
    expect(r.result).toBe('ok');
    expect(r.waits).toHaveLength(3);
  });
});
