// `google auth` where no browser can reach the loopback address (a server, `docker compose run`):
// the person pastes the address the browser ended on, or the code alone; the code is exchanged at
// the fake Google's token endpoint and the refresh token is stored, never printed.
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { runGoogleAuth } from '../helpers/google-auth.ts';
import { currentRefreshToken } from '../../src/google/auth.ts';
import { readConsentAnswer } from '../../src/google/consent-answer.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import { openDatabase } from '../../src/store/db.ts';
import { systemClock } from '../../src/core/clock.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const calbridge = calbridgeProcesses();

let fake: GoogleSimulator | undefined;
let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = fake = undefined;
});

/** Runs `google auth` with a keyboard the test types on; resolves the consent URL once printed. */
async function headlessAuth() {
  fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
  const google = {
    credentials: { client_id: 'client-1', client_secret: 'client-secret-1' },
    api_root: fake.rootUrl,
    token_url: fake.tokenUrl,
  };
  t = createTestContext({ config: testConfig({ google }) });
  t.ctx.db.close(); // the command opens the database itself, as it does beside a running serve
  return runGoogleAuth(t.ctx.config);
}

describe('google auth on a host without a browser', () => {
  it('stores the refresh token from a pasted redirect address, without the browser ever reaching calbridge', async () => {
    const auth = await headlessAuth();
    const url = await auth.consentUrl;
    const redirect = fake!.authorize(url); // the browser elsewhere, after "Allow": it cannot load this address
    auth.type(`  ${redirect}  `);
    expect(await auth.exit).toBe(0);

    const [issued] = fake!.tokens.refreshTokens;
    expect(issued).toBeDefined();
    expect(auth.stored()).toBe(issued);
    const output = auth.printed.join('\n');
    expect(output).not.toContain(issued);
    expect(output).not.toContain(new URL(redirect).searchParams.get('code'));
    expect(output).toContain('paste it here');
  });

  it('takes the code alone', async () => {
    const auth = await headlessAuth();
    const code = new URL(fake!.authorize(await auth.consentUrl)).searchParams.get('code')!;
    auth.type(code);
    expect(await auth.exit).toBe(0);
    expect(auth.stored()).toBe(fake!.tokens.refreshTokens[0]);
  });

  it('explains a paste from another consent or without a code, and keeps waiting for the right one', async () => {
    const auth = await headlessAuth();
    const redirect = new URL(fake!.authorize(await auth.consentUrl));
    const foreign = new URL(redirect);
    foreign.searchParams.set('state', 'another-run');
    auth.type(foreign.toString());
    auth.type('http://127.0.0.1:1234/?scope=calendar');
    auth.type('yes I allowed it');
    auth.type(redirect.toString());
    expect(await auth.exit).toBe(0);
    expect(auth.printed.filter((l) => l.includes('Paste the address again'))).toHaveLength(3);
    expect(auth.printed.join('\n')).toContain('belongs to another consent');
  });

  it("fails with Google's reason when the person denied access", async () => {
    const auth = await headlessAuth();
    const url = new URL(await auth.consentUrl);
    auth.type(`http://127.0.0.1:9/?error=access_denied&state=${url.searchParams.get('state')}`);
    await expect(auth.exit).rejects.toThrow('Google consent failed: access_denied');
    expect(auth.stored()).toBeUndefined();
  });

  it('says what to do when the code was already used', async () => {
    const auth = await headlessAuth();
    const redirect = fake!.authorize(await auth.consentUrl);
    const used = new URLSearchParams({
      grant_type: 'authorization_code',
      code: new URL(redirect).searchParams.get('code')!,
      redirect_uri: new URL(await auth.consentUrl).searchParams.get('redirect_uri')!,
      client_id: 'client-1',
      client_secret: 'client-secret-1',
    });
    expect((await fetch(fake!.tokenUrl, { method: 'POST', body: used })).status).toBe(200); // someone was quicker
    auth.type(redirect);
    await expect(auth.exit).rejects.toThrow(/invalid_grant.*run google auth again and use the new URL/);
  });
});

describe('google auth as a process whose stdin is the keyboard (docker compose run)', () => {
  it('takes the address pasted on stdin and stores the refresh token', async () => {
    fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
    t = createTestContext();
    const config = join(t.dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'server: {public_url: "https://calendar.example.com"}',
        'database: {path: calbridge.db}',
        'booking: {base_url: "https://booking.example.com", token: booking-token-0123456789}',
        'webhook: {secret: webhook-secret-0123456789}',
        'google:',
        '  credentials: {client_id: client-1, client_secret: "${file:client_secret}"}',
        `  api_root: ${fake.rootUrl}`,
        `  token_url: ${fake.tokenUrl}`,
      ].join('\n'),
    );
    writeFileSync(join(t.dir, 'client_secret'), 'client-secret-1\n');
    const auth = calbridge.spawn(['google', 'auth', '--config', config], { stdin: true, secrets: ['client-secret-1'] });
    const consentUrl = await waitFor(
      'the consent URL',
      () =>
        auth
          .stdout()
          .split('\n')
          .find((l) => l.includes('redirect_uri=')),
      { process: auth, everyMs: 50 },
    );
    auth.child.stdin!.write(`${fake.authorize(consentUrl)}\n`);
    expect(await auth.exited, auth.output()).toBe(0);
    const output = auth.output();
    const [issued] = fake.tokens.refreshTokens;
    const db = openDatabase(join(t.dir, 'calbridge.db'));
    try {
      const cfg = { credentials: { client_id: 'client-1', client_secret: 'client-secret-1' } } as Parameters<typeof currentRefreshToken>[1];
      expect(currentRefreshToken(new KvStore(db, systemClock, 'kv'), cfg)).toBe(issued);
    } finally {
      db.close();
    }
    expect(output).toContain('Stored the refresh token');
    expect(output).not.toContain(issued);
  });
});

describe('reading a pasted answer', () => {
  const state = 'abc123';
  it.each([
    [
      'the redirect address',
      `http://127.0.0.1:4000/?state=${state}&code=4/0Aabc-def_ghi&scope=https://www.googleapis.com/auth/calendar`,
      { kind: 'code', code: '4/0Aabc-def_ghi' },
    ],
    ['the address in quotes', `"http://127.0.0.1:4000/?code=4/0Aabc-def_ghi&state=${state}"`, { kind: 'code', code: '4/0Aabc-def_ghi' }],
    ['the query alone', `code=4%2F0Aabc-def_ghi&state=${state}`, { kind: 'code', code: '4/0Aabc-def_ghi' }],
    ['a bare code', '4/0Aabc-def_ghi', { kind: 'code', code: '4/0Aabc-def_ghi' }],
    ['a refusal', `http://127.0.0.1:4000/?error=access_denied&state=${state}`, { kind: 'error', error: 'access_denied' }],
  ])('reads %s', (_what, pasted, expected) => {
    expect(readConsentAnswer(pasted, state)).toEqual(expected);
  });

  it.each([
    ['another consent', 'http://127.0.0.1:4000/?state=other&code=4/0Aabc'],
    ['an address without a code', 'http://127.0.0.1:4000/'],
    ['words', 'done, thanks'],
    ['nothing', '   '],
  ])('refuses %s', (_what, pasted) => {
    expect(readConsentAnswer(pasted, state).kind).toBe('invalid');
  });
});
