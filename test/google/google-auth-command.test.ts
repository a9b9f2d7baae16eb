// `google auth`: consent URL printed, loopback redirect answered, code exchanged at the fake's token
// endpoint, refresh token stored in the database and never printed; the writer then uses it.
import { afterEach, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { googleAuthCommand } from '../../src/commands/google-auth.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { currentRefreshToken } from '../../src/google/auth.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import { openDatabase } from '../../src/store/db.ts';
import { systemClock } from '../../src/core/clock.ts';
import type { CommandArgs } from '../../src/commands/command.ts';

let fake: GoogleSimulator;
let t: TestContext;
afterEach(async () => {
  await t?.close();
  await fake?.close();
});

it('stores the refresh token from the consent and never prints it', async () => {
  fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
  const google = { credentials: { client_id: 'client-1', client_secret: 'client-secret-1' }, api_root: fake.rootUrl, token_url: fake.tokenUrl };
  t = createTestContext({ config: testConfig({ google }) });
  t.ctx.db.close();
  const printed: string[] = [];
  let consent: (url: string) => void;
  const consentUrl = new Promise<string>((r) => (consent = r));
  const args: CommandArgs = {
    values: { timeout: '20' },
    positionals: [],
    verbose: false,
    io: {
      out: (line) => {
        printed.push(line);
        if (line.includes('redirect_uri=')) consent(line);
      },
      err: (line) => printed.push(line),
      isTty: false,
    },
    loadConfig: () => t.ctx.config,
    openRuntime: () => Promise.reject(new Error('not needed')),
  };
  const running = googleAuthCommand.run(args);
  const redirect = fake.authorize(await consentUrl); // what the browser does after "Allow"
  expect(new URL(redirect).hostname).toBe('127.0.0.1');
  expect((await fetch(redirect)).status).toBe(200);
  expect(await running).toBe(0);

  const [issued] = fake.tokens.refreshTokens;
  const db = openDatabase(t.ctx.config.database.path);
  try {
    expect(currentRefreshToken(new KvStore(db, systemClock, 'kv'), t.ctx.config.google!)).toBe(issued);
  } finally {
    db.close();
  }
  expect(printed.join('\n')).not.toContain(issued);
});
