// `google auth`: consent URL printed, loopback redirect answered, code exchanged at the fake's token
// endpoint, refresh token stored in the database and never printed; the writer then uses it.
import { afterEach, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { runGoogleAuth, storedToken } from '../helpers/google-auth.ts';

let fake: GoogleSimulator;
let t: TestContext;
afterEach(async () => {
  await t?.close();
  await fake?.close();
});

it('stores the refresh token from the consent and never prints it', async () => {
  fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
  const google = {
    credentials: { client_id: 'client-1', client_secret: 'client-secret-1' },
    api_root: fake.rootUrl,
    token_url: fake.tokenUrl,
  };
  t = createTestContext({ config: testConfig({ google }) });
  t.ctx.db.close();
  const before = Date.now();
  const auth = runGoogleAuth(t.ctx.config, { keyboard: false, isTty: false });
  const redirect = fake.authorize(await auth.consentUrl); // what the browser does after "Allow"
  expect(new URL(redirect).hostname).toBe('127.0.0.1');
  expect((await fetch(redirect)).status).toBe(200);
  expect(await auth.exit).toBe(0);

  const [issued] = fake.tokens.refreshTokens;
  expect(auth.stored()).toBe(issued);
  // With when it was issued: a refusal a week later is the "Testing" app's expiry (docs/reference/behaviour.md, "Alerts").
  expect(auth.issuedAt()).toBeGreaterThanOrEqual(before);
  expect(auth.issuedAt()).toBeLessThanOrEqual(Date.now());
  expect(auth.printed.join('\n')).not.toContain(issued);
});

it('--account signs in one of google.accounts, its token kept apart from the others; an unknown name exits 2 with the names', async () => {
  fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
  const account = (name: string) => ({
    name,
    credentials: { client_id: 'client-1', client_secret: 'client-secret-1' },
    calendars: [{ calendar_key: '*', calendar_id: 'primary' }],
  });
  const google = { api_root: fake.rootUrl, token_url: fake.tokenUrl, accounts: [account('clinic'), account('ana')] };
  t = createTestContext({ config: testConfig({ google }) });
  t.ctx.db.close();

  const wrong = runGoogleAuth(t.ctx.config, { keyboard: false, isTty: false, account: 'bruno' });
  await expect(wrong.exit).rejects.toMatchObject({
    exitCode: 2,
    message: 'there is no Google account "bruno"; the accounts are: "clinic", "ana"',
  });

  const auth = runGoogleAuth(t.ctx.config, { keyboard: false, isTty: false, account: 'ana' });
  expect((await fetch(fake.authorize(await auth.consentUrl))).status).toBe(200);
  expect(await auth.exit).toBe(0);
  const [issued] = fake.tokens.refreshTokens;
  expect(auth.stored()).toBe(issued);
  expect(auth.printed.join('\n')).toContain('google.ana');
  expect(auth.printed.join('\n')).not.toContain(issued);
  // The clinic account has none yet: each account's token is its own.
  expect(storedToken(t.ctx.config, 'clinic')).toBeUndefined();
});
