// Google's token endpoint and API root that answer with a redirect (307 keeps the method and the
// body) to plain http on another port: nothing is sent there, not the refresh token and client
// secret, not an event body; and what was not written is not counted as written.
import { afterEach, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { cliFolder } from '../helpers/cli-env.ts';
import { cli } from '../helpers/run-cli.ts';
import { startRedirector, startServer, type Misbehaving } from '../helpers/misbehaving.ts';
import { CLIENT } from './google-env.ts';
import { slot } from '../helpers/slot.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function track<T extends Misbehaving | GoogleSimulator>(s: Promise<T>): Promise<T> {
  const started = await s;
  cleanups.push(() => started.close());
  return started;
}

/** A config whose google section takes `urls(fake)`, the booking simulator holding one appointment. */
async function folder(urls: (fake: GoogleSimulator) => Promise<{ token_url: string; api_root: string }>) {
  let fake!: GoogleSimulator;
  const { file, sim } = await cliFolder(cleanups, async () => {
    fake = await track(startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret }));
    const u = await urls(fake);
    return `google:
  credentials: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret}, refresh_token: ${CLIENT.refresh_token} }
  api_root: "${u.api_root}"
  token_url: "${u.token_url}"
`;
  });
  sim.create({ start: slot(1) });
  return { file, fake };
}

it('a token endpoint that redirects (307) to plain http on another port: that listener receives nothing', async () => {
  const thief = await track(
    startServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"stolen","expires_in":3600}'),
    ),
  );
  const redirector = await track(startRedirector(thief.origin));
  const { file, fake } = await folder(async (f) => ({ token_url: `${redirector.origin}/token`, api_root: f.rootUrl }));

  const run = await cli('sync', '--config', file);
  expect(redirector.requests.length).toBeGreaterThan(0);
  expect(thief.requests).toEqual([]);
  expect(fake.log.filter((r) => r.kind === 'insert')).toEqual([]);
  expect(`${run.out}\n${run.err}`).toContain(redirector.origin);
});

it('a Google API root that redirects (307) to plain http: no event body is sent there, and nothing counts as written', async () => {
  let redirector!: Misbehaving;
  const { file, fake } = await folder(async (f) => {
    // The far end is the simulator itself, on another port: a followed redirect would write the events.
    redirector = await track(startRedirector(f.rootUrl.replace(/\/$/, '')));
    return { token_url: f.tokenUrl, api_root: `${redirector.origin}/` };
  });

  const run = await cli('sync', '--config', file);
  expect(redirector.requests.length).toBeGreaterThan(0);
  expect(fake.log.filter((r) => r.kind !== 'token')).toEqual([]);
  expect(run.out).not.toMatch(/\b[1-9]\d* (written|created)/);
  expect(`${run.out}\n${run.err}`).toContain(redirector.origin);
});
