// The delivery worker's turns beside the webhook receiver, on fake timers (no wall-clock timing).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReceiverGate } from './receiver-gate.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Resolves the gate's turn and reports whether it came within `ms` of fake time. */
async function turnWithin(gate: ReceiverGate, ms: number): Promise<boolean> {
  let came = false;
  void gate.turn().then(() => (came = true));
  await vi.advanceTimersByTimeAsync(ms);
  return came;
}

describe('receiver gate', () => {
  it('lets background work run flat out while no webhook arrives', async () => {
    const gate = new ReceiverGate({ now: () => Date.now() });
    gate.spent(50);
    expect(await turnWithin(gate, 0)).toBe(true);
  });

  it('while webhooks arrive, background work takes at most its share of the event loop', async () => {
    const gate = new ReceiverGate({ now: () => Date.now(), share: 0.1, idleMs: 20 });
    gate.begin(); // a webhook is being answered
    gate.spent(2); // the worker's last step kept the loop 2 ms: the next waits 18 ms
    expect(await turnWithin(gate, 17)).toBe(false);
    expect(await turnWithin(gate, 2)).toBe(true);
    gate.end();
  });

  it('a receiver that is never idle still lets the backlog drain', async () => {
    const gate = new ReceiverGate({ now: () => Date.now(), share: 0.1, idleMs: 20 });
    let turns = 0;
    let stop = false;
    void (async () => {
      while (!stop) {
        await gate.turn();
        turns++;
        gate.spent(1);
      }
    })();
    // A webhook every millisecond for a second.
    for (let i = 0; i < 1000; i++) {
      gate.begin();
      gate.end();
      await vi.advanceTimersByTimeAsync(1);
    }
    stop = true;
    // A step that kept the loop 1 ms earns 9 ms of waiting at a share of 0.1; on fake timers the
    // step itself takes no time, so a turn every 9 ms: about 111 in the second.
    const expected = 1000 / 9;
    expect(turns).toBeGreaterThanOrEqual(Math.floor(expected * 0.9));
    expect(turns).toBeLessThanOrEqual(Math.ceil(expected * 1.1));
  });

  it('lets waiting steps through one at a time, each after the last one has told what it spent', async () => {
    const gate = new ReceiverGate({ now: () => Date.now(), share: 0.1, idleMs: 20 });
    gate.begin(); // webhooks keep arriving
    const through: number[] = [];
    // The worker's concurrent re-reads all ask at once; each step keeps the loop 1 ms.
    for (let i = 0; i < 4; i++) {
      void gate.turn().then(() => {
        through.push(Date.now());
        gate.spent(1);
      });
    }
    await vi.advanceTimersByTimeAsync(40);
    gate.end();
    // The first at once, then one every 9 ms (1 ms of work earns 9 ms of waiting), not all four together.
    expect(through.length).toBeGreaterThanOrEqual(4);
    const gaps = through.slice(1).map((t, i) => t - through[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(9);
  });

  it('work done while the receiver was idle is not held against it once webhooks arrive', async () => {
    const gate = new ReceiverGate({ now: () => Date.now(), share: 0.1, idleMs: 20 });
    gate.spent(1000); // a second of draining at a calm moment
    gate.begin();
    gate.end();
    gate.spent(1);
    expect(await turnWithin(gate, 10)).toBe(true);
  });

  it('a receiver that falls idle frees background work at once, whatever its share still owed', async () => {
    const gate = new ReceiverGate({ now: () => Date.now(), share: 0.1, idleMs: 20 });
    gate.begin();
    gate.spent(200); // a long step while webhooks arrived: 1.8 s owed
    gate.end();
    expect(await turnWithin(gate, 19)).toBe(false);
    expect(await turnWithin(gate, 21)).toBe(true);
  });
});
