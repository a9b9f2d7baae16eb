// A database whose connected calendars were sealed with another server.secret_key: said plainly on
// /readyz, and nothing is taken for a missing account or connected again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import { testConfig, unreachableBooking } from '../helpers/context.ts';

const dir = mkdtempSync(join(tmpdir(), 'calbridge-wrong-key-'));
const opened: Runtime[] = [];
afterEach(async () => {
  for (const r of opened.splice(0)) await r.close();
});

function runtime(secretKey: string | undefined): Runtime {
  const config = testConfig({
    server: secretKey ? { secret_key: secretKey } : {},
    database: { path: join(dir, 'calbridge.db') },
    connect: { enabled: secretKey !== undefined },
  });
  const r = buildRuntime(config, { log: silentLogger(), booking: unreachableBooking, processMetrics: false });
  opened.push(r);
  return r;
}

it('says the stored connections were sealed with another secret_key, or that the key is missing', async () => {
  const first = runtime('the-first-secret-key-0123456789abcdef');
  const store = first.services.connections;
  const invite = store.openInvite(store.createInvite({ kind: 'caldav', calendarKey: 'k', name: 'bruno', expiresAt: Date.now() + 60_000 }))!;
  store.confirm(
    invite,
    { calendar: 'https://dav.example/bruno/office/', calendarName: 'Office' },
    JSON.stringify({ url: 'https://dav.example/', username: 'bruno', password: 'pw-of-bruno' }),
  );
  expect(first.readiness().warnings.filter((w) => w.includes('secret_key'))).toEqual([]);
  await first.close();

  const other = runtime('another-secret-key-0123456789abcdefgh');
  // The daemon keeps serving (webhooks, feeds, every other account); the account is left out, and kept.
  expect(other.services.connectedAccounts()).toEqual([]);
  expect(other.readiness().warnings.filter((w) => w.includes('secret_key'))).toEqual([
    expect.stringContaining('the stored connections were encrypted with another server.secret_key'),
  ]);
  expect(other.services.connections.list().map((c) => c.name)).toEqual(['bruno']); // kept, not dropped
  await other.close();

  const none = runtime(undefined);
  expect(none.readiness().warnings.filter((w) => w.includes('secret_key'))).toEqual([
    expect.stringContaining('server.secret_key is not set'),
  ]);
  await none.close();
  rmSync(dir, { recursive: true, force: true });
});
