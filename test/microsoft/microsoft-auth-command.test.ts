// `calbridge microsoft auth` through the CLI against the Graph simulator: the address and code
// printed, the wait, the refresh token stored in the database and never printed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { microsoftRefreshTokenKey } from '../../src/microsoft/auth.ts';
import { systemClock } from '../../src/core/clock.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { openDatabase } from '../../src/store/db.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { CLIENT_ID, MAILBOX } from './env.ts';

let sim: GraphSimulator;
let dir: string;
let file: string;
beforeEach(async () => {
  sim = await startGraphSimulator({ clientId: CLIENT_ID, mailboxes: [MAILBOX], deviceInterval: 0 });
  dir = mkdtempSync(join(tmpdir(), 'calbridge-ms-auth-'));
  file = join(dir, 'config.yaml');
});
afterEach(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(credentials: string): void {
  writeFileSync(
    file,
    `server: { public_url: "https://cal.example.com" }
database: { path: calbridge.db }
booking: { base_url: "https://booking.example.com", token: booking-token-0123456789 }
webhook: { secret: ms-auth-webhook-secret-0123456789, register: false }
microsoft:
  tenant: consumers
  credentials: ${credentials}
  authority_url: "${sim.authorityUrl}"
  graph_root: "${sim.graphRoot}"
`,
  );
}

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCli(['microsoft', 'auth', ...args, '--config', file], {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    isTty: false,
  });
  return { code, out, err };
}

const stored = () => {
  const db = openDatabase(join(dir, 'calbridge.db'));
  try {
    return new KvStore(db, systemClock, 'kv').get<{ token: string }>(microsoftRefreshTokenKey('default'))?.token;
  } finally {
    db.close();
  }
};

describe('calbridge microsoft auth', () => {
  it('prints the address and the code, waits for the sign-in, stores the refresh token and never prints it', async () => {
    writeConfig(`{ client_id: ${CLIENT_ID} }`);
    const r = await run();
    const line = await waitFor('the code to enter', () => r.out.find((l) => l.includes('enter the code')));
    const code = /enter the code (\S+)/.exec(line)![1]!;
    expect(line).toContain(`${sim.url}/devicelogin`);
    expect(sim.tokens.pendingUserCodes()).toEqual([code]);
    sim.tokens.approveDevice(code, MAILBOX);
    expect(await r.code).toBe(0);
    const [issued] = sim.tokens.counts.refreshTokens;
    expect(stored()).toBe(issued);
    expect([...r.out, ...r.err].join('\n')).not.toContain(issued!);
    expect(sim.log.find((e) => e.kind === 'devicecode')?.path).toBe('/consumers/oauth2/v2.0/devicecode');
  });

  it('a declined sign-in exits 1 saying so, and stores nothing', async () => {
    writeConfig(`{ client_id: ${CLIENT_ID} }`);
    const r = await run();
    const line = await waitFor('the code to enter', () => r.out.find((l) => l.includes('enter the code')));
    sim.tokens.declineDevice(/enter the code (\S+)/.exec(line)![1]!);
    expect(await r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/sign-in failed: the sign-in was declined/);
  });

  it('a config with an app-only secret on a shared tenant is refused as invalid; an unknown account is a usage error', async () => {
    writeConfig(
      `{ client_id: ${CLIENT_ID}, client_secret: "q8Q~not-a-guid-secret" }\n  calendars: [{ calendar_key: "*", user: ${MAILBOX} }]`,
    );
    // tenant consumers with a secret is refused by check-config already:
    const refused = await run();
    expect(await refused.code).toBe(2);
    writeConfig(`{ client_id: ${CLIENT_ID} }`);
    const other = await run('--account', 'carla');
    expect(await other.code).toBe(2);
    expect(other.err.join('\n')).toMatch(/no Microsoft account "carla"/);
  });
});
