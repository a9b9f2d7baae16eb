// `google auth`: OAuth consent for a Google user through a loopback redirect on 127.0.0.1 (the
// out-of-band flow is gone and the device flow does not allow Calendar scopes). The refresh token
// is stored in the database, never printed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Command } from './command.ts';
import { wholeNumberOption } from './args.ts';
import { UserError, errorMessage } from '../core/errors.ts';
import { openDatabase } from '../store/db.ts';
import { KvStore } from '../store/kv-store.ts';
import { systemClock } from '../core/clock.ts';
import { oauthClient, SCOPE, storeRefreshToken } from '../google/auth.ts';

export const googleAuthCommand: Command = {
  name: 'google auth',
  summary: 'OAuth consent for a Google user (loopback redirect), stores the refresh token',
  help:
    'Prints a consent URL; open it in a browser on this machine and allow access. Google redirects to\n' +
    'http://127.0.0.1:<port>/ where this command waits, exchanges the code and stores the refresh token\n' +
    'in the database. Needs google.credentials.client_id and client_secret (an OAuth client of type\n' +
    '"Desktop app"). Exit status 0 when stored, 1 otherwise.',
  options: {
    port: { type: 'string', description: 'loopback port to listen on (default: any free port)' },
    timeout: { type: 'string', description: 'seconds to wait for the consent (default 300)' },
  },
  async run({ values, io, loadConfig }) {
    const config = loadConfig();
    const cfg = config.google;
    if (!cfg) throw new UserError('google is not configured: add a google section with credentials.client_id and client_secret');
    if (!cfg.credentials.client_id || !cfg.credentials.client_secret) {
      throw new UserError('google auth needs an OAuth client: set google.credentials.client_id and client_secret (a service account needs no consent)');
    }
    const timeoutS = wholeNumberOption(values.timeout, 'timeout', 300, 1, 86_400);
    const port = wholeNumberOption(values.port, 'port', 0, 0, 65535);
    const state = randomBytes(16).toString('hex');

    let settle!: (r: { code?: string; error?: string }) => void;
    const answered = new Promise<{ code?: string; error?: string }>((r) => (settle = r));
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      if (url.searchParams.get('state') !== state || (!code && !error)) {
        res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('This is not the answer calbridge is waiting for.');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(code ? 'calbridge is authorised. You can close this tab.' : `Google said: ${error}`);
      settle(code ? { code } : { error: error ?? 'unknown' });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const timer = setTimeout(() => settle({ error: `no answer within ${timeoutS} seconds` }), timeoutS * 1000);
    try {
      const client = oauthClient(cfg, redirectUri);
      // prompt=consent makes Google return a refresh token even for a user who agreed before.
      const url = client.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [SCOPE], state });
      io.out('Open this URL in a browser on this machine and allow calbridge to manage your calendar:');
      io.out(url);
      io.out(`Waiting on ${redirectUri} ...`);
      const answer = await answered;
      if (!answer.code) throw new UserError(`Google consent failed: ${answer.error}`);
      let refreshToken: string | null | undefined;
      try {
        refreshToken = (await client.getToken({ code: answer.code, redirect_uri: redirectUri })).tokens.refresh_token;
      } catch (e) {
        throw new UserError(`exchanging the code at ${cfg.token_url} failed: ${errorMessage(e)}`);
      }
      if (!refreshToken) throw new UserError('Google returned no refresh token; remove calbridge from your Google account\'s third-party access and run this again');
      const db = openDatabase(config.database.path, { synchronous: config.database.synchronous });
      try {
        storeRefreshToken(new KvStore(db, systemClock, 'kv'), cfg, refreshToken);
      } finally {
        db.close();
      }
      io.out(`Stored the refresh token in ${config.database.path}. A running serve picks it up at its next Google pass.`);
      return 0;
    } finally {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close();
    }
  },
};
