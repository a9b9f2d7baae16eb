// A CalDAV account connected by a link whose address is inside this network (connected while the
// admin allowed it, or a name that answers 127.0.0.1 since) is refused at every pass, not only at the
// form: its writer fails saying why and no request reaches the server. An account of the config at
// the very same address, and the connected one with connect.caldav_private_addresses, write there.
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import type { ConnectedAccount } from '../../src/sync/target/connected-account.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { countedRadicale } from './counted-radicale.ts';

const USER = 'bruno';
const PASSWORD = 'bruno-app-password-9d2e';
const KEY = 'cal-bruno';

const server = countedRadicale(USER, PASSWORD);
let sim: Simulator;
let t: TestContext | undefined;

beforeAll(async () => {
  sim = await startTestSimulator();
  const tomorrow = DateTime.now().setZone(TEST_ZONE).plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
  sim.create({ appointment_key: 'apt-1', start: tomorrow.toMillis(), calendar: { calendar_key: KEY, name: 'Bruno' } });
});
afterAll(async () => {
  await sim?.close();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const bruno: ConnectedAccount = {
  kind: 'caldav',
  name: 'bruno',
  calendarKey: KEY,
  calendar: '',
  url: '',
  username: USER,
  password: PASSWORD,
};

async function pass(config: Record<string, unknown>, connected: ConnectedAccount[]) {
  t = createTestContext({
    config: testConfig(config),
    booking: simulatorClient(sim),
    clock: systemClock,
    connectedAccounts: () => connected,
    tuning: { caldavRetry: { retries: 0, baseMs: 1, maxMs: 1 }, caldavItemBackoff: { baseMs: 0, maxMs: 0 } },
  });
  await t.runtime.scheduler.runNow('poll');
  const before = server.requests();
  const result = await t.runtime.scheduler.runNow('caldav.bruno-writer');
  return { result, reached: server.requests() - before, target: t.runtime.status().targets['caldav.bruno']! };
}

it("refuses a connected account's pass to an address inside this network, and says why", async () => {
  const { result, reached, target } = await pass({}, [{ ...bruno, url: server.url, calendar: server.office }]);
  expect(reached).toBe(0);
  expect(result).toMatchObject({ failed: 1 });
  expect(target.last_error).toContain('127.0.0.1, loopback (127.0.0.0/8): an address inside this network');
  expect(target.mirrored).toBe(0);
});

it('writes there for the same account with connect.caldav_private_addresses', async () => {
  const { reached, target } = await pass({ connect: { caldav_private_addresses: true } }, [
    { ...bruno, url: server.url, calendar: server.office },
  ]);
  expect(reached).toBeGreaterThan(0);
  expect(target.mirrored).toBe(1);
});

it('writes there for an account the admin configured at the same address, without the opt-in', async () => {
  const { reached, target } = await pass(
    {
      caldav: {
        accounts: [
          {
            name: 'bruno',
            url: server.url,
            username: USER,
            password: PASSWORD,
            calendars: [{ calendar_key: KEY, calendar: server.office }],
          },
        ],
      },
    },
    [],
  );
  expect(reached).toBeGreaterThan(0);
  expect(target.mirrored).toBe(1);
});
