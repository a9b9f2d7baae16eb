// Microsoft Graph as the contract drives it: the product's Graph adapter against the Graph simulator
// over HTTP, a person's edits made in the simulator's own mailbox. Each case gets a calendar of its own.
import { systemClock } from '../../src/core/clock.ts';
import { PROP_HASH, PROP_KEY, type EventBody } from '../../src/core/mirror/desired-event.ts';
import { connectGraph } from '../../src/microsoft/connect.ts';
import { memoryGraphIds } from '../../src/microsoft/graph-ids.ts';
import { calendarRef } from '../../src/microsoft/graph-target.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { T0, type TargetFixture, type TargetUnderTest } from './target-contract.ts';

const MAILBOX = 'ana@clinic.example';
const DAY = 86_400_000;
const iso = (ms: number) => ({ dateTime: new Date(ms).toISOString().slice(0, 19), timeZone: 'UTC' });

/** The contract's Graph, with the simulator itself for the tests of what the adapter remembers. */
export async function startGraphContract(): Promise<TargetUnderTest<EventBody> & { sim: GraphSimulator; stop(): Promise<void> }> {
  {
    const sim = await startGraphSimulator({ clientId: 'client-1', clientSecret: 'secret-1', mailboxes: [MAILBOX], retryAfterSeconds: 0 });
    const ids = memoryGraphIds();
    const connection = connectGraph({
      authorityUrl: sim.authorityUrl,
      graphRoot: sim.graphRoot,
      tenant: 'contract-tenant',
      clientId: 'client-1',
      credentials: { kind: 'app', clientSecret: 'secret-1' },
      requestsPerMinute: 100_000,
      ids,
      // The delta window is fixed by each calendar's first call: a month either side of the cases' times.
      window: () => ({ start: T0 - 30 * DAY, end: T0 + 30 * DAY }),
      clock: systemClock,
      policy: { retries: 0, baseMs: 1, maxMs: 1 },
      timeoutMs: 5000,
    });
    const graphId = (cal: string, id: string) => ids.get(cal, id)!.graphId;
    let calendars = 0;
    return {
      target: connection.target,
      async calendar() {
        const name = `contract-${++calendars}`;
        sim.mailbox().addCalendar(name);
        return calendarRef(MAILBOX, name);
      },
      // Graph chooses its own event ids; ours is the appointment key, which the property carries.
      id: (n) => `k${n}`,
      body: (key, start, end, hash) => ({
        summary: key,
        description: '',
        status: 'confirmed',
        start: iso(start),
        end: iso(end),
        privateProperties: { [PROP_KEY]: key, [PROP_HASH]: hash },
      }),
      async personMoves(cal, id, start, end) {
        sim.mailbox().userEdit(graphId(cal, id), { start, end });
      },
      async personDeletes(cal, id) {
        sim.mailbox().userDelete(graphId(cal, id));
      },
      keepsTombstones: false,
      firstListing: 'incremental',
      changesCarryHash: false,
      missingCalendar: calendarRef(MAILBOX, 'no-such-calendar'),
      sim,
      stop: () => sim.close(),
    };
  }
}

export const graphSimulatorTarget: TargetFixture<EventBody> = {
  name: 'Microsoft Graph (simulator)',
  start: startGraphContract,
};
