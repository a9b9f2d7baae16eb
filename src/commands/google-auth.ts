// `google auth`: OAuth consent for a Google user. Google sends the browser back to a loopback
// address (the out-of-band flow is gone and the device flow does not allow Calendar scopes). With
// the browser on this machine, the loopback server here receives it. On a server or in a container
// the browser is elsewhere and that address fails to load there: the person pastes it (or the code
// alone) here instead. Both wait at once; the first answer wins. The refresh token is stored in the
// database, never printed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Command, CommandIo } from './command.ts';
import { wholeNumberOption } from './args.ts';
import { UserError, errorMessage } from '../core/errors.ts';
import { readConsentAnswer } from '../google/consent-answer.ts';

type ConsentResult = { code: string } | { error: string };

export const googleAuthCommand: Command = {
  name: 'google auth',
  summary: 'OAuth consent for a Google user (a browser here, or paste its answer on a server), stores the refresh token',
  help:
    'Prints a consent URL; open it in any browser and allow access. Google then sends the browser to\n' +
    'http://127.0.0.1:<port>/. With the browser on this machine, this command receives it there.\n' +
    'On a server or in a container (docker compose run --rm calbridge google auth) that address\n' +
    'fails to load in the browser: copy it from the address bar and paste it here, or paste the code\n' +
    'alone. The refresh token is stored in the database, never printed. Needs\n' +
    'google.credentials.client_id and client_secret (an OAuth client of type "Desktop app"), or with\n' +
    '--account NAME those of that entry of google.accounts. An unknown NAME exits 2 with the names.\n' +
    'Exit status 0 when stored, 1 otherwise.',
  options: {
    account: { type: 'string', description: 'the account of google.accounts to sign in (the single-account form is "default")' },
    port: { type: 'string', description: 'loopback port to listen on (default: any free port)' },
    timeout: { type: 'string', description: 'seconds to wait for the consent (default 300)' },
  },
  async run({ values, io, loadConfig }) {
    const { withKvStore } = await import('../store/kv-file.ts');
    const { oauthClient, SCOPE, storeRefreshToken } = await import('../google/auth.ts');
    const { googleAccounts, pickAccount } = await import('../config/accounts.ts');
    const config = loadConfig();
    if (!config.google) throw new UserError('google is not configured: add a google section with credentials.client_id and client_secret');
    const picked = pickAccount('Google', googleAccounts(config.google), typeof values.account === 'string' ? values.account : undefined);
    if (!picked.ok) throw new UserError(picked.reason, 2);
    const { name, config: cfg } = picked.account;
    const where = name === 'default' ? 'google.credentials' : `the credentials of google account "${name}"`;
    if (!cfg.credentials.client_id || !cfg.credentials.client_secret) {
      throw new UserError(
        `google auth needs an OAuth client: set client_id and client_secret in ${where} (a service account needs no consent)`,
      );
    }
    const timeoutS = wholeNumberOption(values.timeout, 'timeout', 300, 1, 86_400);
    const port = wholeNumberOption(values.port, 'port', 0, 0, 65535);
    const state = randomBytes(16).toString('hex');

    let settle!: (a: ConsentResult) => void;
    const answered = new Promise<ConsentResult>((r) => (settle = r));
    const server = await listenForRedirect(port, state, settle);
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const timer = setTimeout(() => settle({ error: `no answer within ${timeoutS} seconds` }), timeoutS * 1000);
    const stopReading = io.input ? await readPastedAnswers(io, io.input, state, settle) : () => {};
    try {
      const client = oauthClient(cfg, redirectUri);
      // prompt=consent makes Google return a refresh token even for a user who agreed before.
      const url = client.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [SCOPE], state });
      io.out('Open this URL in a browser and allow calbridge to manage your calendar:');
      io.out(url);
      io.out(`With the browser on this machine, that is all: calbridge is waiting on ${redirectUri}`);
      if (io.input) {
        io.out(`Elsewhere (a server, a container) the browser ends on an address starting with ${redirectUri} that does not load:`);
        io.out('copy that whole address from the address bar, paste it here and press Enter (the code alone works too).');
      }
      const answer = await answered;
      if ('error' in answer) throw new UserError(`Google consent failed: ${answer.error}`);
      let refreshToken: string | null | undefined;
      try {
        refreshToken = (await client.getToken({ code: answer.code, redirect_uri: redirectUri })).tokens.refresh_token;
      } catch (e) {
        // invalid_grant here: the code was used already, is older than a few minutes, or belongs to another run.
        throw new UserError(
          `exchanging the code at ${cfg.token_url} failed: ${errorMessage(e)}; run google auth again and use the new URL`,
        );
      }
      if (!refreshToken)
        throw new UserError(
          "Google returned no refresh token; remove calbridge from your Google account's third-party access and run this again",
        );
      withKvStore(config.database.path, { synchronous: config.database.synchronous }, (kv) =>
        storeRefreshToken(kv, cfg, refreshToken, Date.now(), name),
      );
      io.out(
        `Stored the refresh token of google.${name} in ${config.database.path}. A running serve picks it up at that account's next Google pass.`,
      );
      return 0;
    } finally {
      clearTimeout(timer);
      stopReading();
      server.closeAllConnections();
      server.close();
    }
  },
};

/** The loopback redirect: answers the browser and hands over the code (or Google's error). */
async function listenForRedirect(port: number, state: string, settle: (a: ConsentResult) => void): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (url.searchParams.get('state') !== state || (!code && !error)) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('This is not the answer calbridge is waiting for.');
      return;
    }
    res
      .writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
      .end(code ? 'calbridge is authorised. You can close this tab.' : `Google said: ${error}`);
    settle(code ? { code } : { error: error ?? 'unknown' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new UserError(`port ${port} on 127.0.0.1 is in use; give another --port, or none for any free one`, 1, { cause: e })
          : e,
      ),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

/**
 * Lines typed or pasted: the first that answers this consent settles it; others are explained.
 * node:readline is loaded here, not with the CLI: serve never needs it (half a megabyte resident).
 */
async function readPastedAnswers(
  io: CommandIo,
  input: NodeJS.ReadableStream,
  state: string,
  settle: (a: ConsentResult) => void,
): Promise<() => void> {
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const answer = readConsentAnswer(line, state);
    if (answer.kind === 'invalid') io.err(`calbridge google auth: ${answer.reason}. Paste the address again, or wait for the browser.`);
    else settle(answer.kind === 'code' ? { code: answer.code } : { error: answer.error });
  });
  return () => lines.close();
}
