// `microsoft auth`: the device code sign-in of a delegated Microsoft account, headless. It prints
// the address and the code a person enters in any browser (a phone will do), waits while Microsoft
// is asked every few seconds, and stores the refresh token in the database, never printing it.
// The daemon rotates it from then on (src/microsoft/README.md).
import type { Command } from './command.ts';
import { wholeNumberOption } from './args.ts';
import { UserError } from '../core/errors.ts';

export const microsoftAuthCommand: Command = {
  name: 'microsoft auth',
  summary: 'device code sign-in for a Microsoft account (prints the address and code to enter, waits), stores its refresh token',
  help:
    'Prints an address (https://microsoft.com/devicelogin) and a code. Open the address in any browser,\n' +
    'on any device, enter the code and sign in with the account whose calendar calbridge should write.\n' +
    'This command waits until you have (or the code expires, after about 15 minutes), then stores the\n' +
    'refresh token in the database, never printing it. Needs microsoft.credentials.client_id of an app\n' +
    'registration that allows public client flows (docs/microsoft-setup.md) and no client_secret.\n' +
    'Exit status 0 when stored, 1 otherwise.',
  options: {
    account: { type: 'string', description: 'the account to sign in (the single-account form is "default")' },
    timeout: { type: 'string', description: 'seconds to wait for the sign-in (default: until the code expires)' },
  },
  async run({ values, io, loadConfig }) {
    const { withKvStore } = await import('../store/kv-file.ts');
    const { finishDeviceCode, microsoftRefreshTokenKey, refreshTokensIn, startDeviceCode } = await import('../microsoft/auth.ts');
    const { GraphError } = await import('../microsoft/errors.ts');
    const { systemClock } = await import('../core/clock.ts');
    const { realSleep } = await import('../net/pacer.ts');
    const config = loadConfig();
    const cfg = config.microsoft;
    if (!cfg)
      throw new UserError('microsoft is not configured: add a microsoft section with credentials.client_id (docs/microsoft-setup.md)');
    const { microsoftAccounts, pickAccount } = await import('../config/accounts.ts');
    const picked = pickAccount('Microsoft', microsoftAccounts(cfg), typeof values.account === 'string' ? values.account : undefined);
    if (!picked.ok) throw new UserError(picked.reason, 2);
    const { name: account, config: own } = picked.account;
    const clientId = own.credentials?.client_id;
    if (!clientId) throw new UserError('microsoft auth needs microsoft.credentials.client_id');
    if (own.credentials?.client_secret) {
      throw new UserError(
        'microsoft.credentials has a client_secret: that is app-only sign-in, which needs no person to sign in; remove the secret to sign in as a person',
      );
    }
    const timeoutS = wholeNumberOption(values.timeout, 'timeout', 0, 0, 86_400);
    const endpoints = { authorityUrl: own.authority_url, tenant: own.tenant, graphRoot: own.graph_root, clientId };
    try {
      const start = await startDeviceCode(endpoints, systemClock, realSleep);
      const deadline = timeoutS ? Math.min(start.expiresAt, systemClock.now() + timeoutS * 1000) : start.expiresAt;
      io.out(`To sign in, open ${start.verificationUri} in a browser and enter the code ${start.userCode}`);
      io.out(`Waiting for the sign-in (until ${new Date(deadline).toLocaleTimeString()}) ...`);
      const refreshToken = await finishDeviceCode(endpoints, { ...start, expiresAt: deadline }, systemClock, realSleep);
      withKvStore(config.database.path, { synchronous: config.database.synchronous }, (kv) => {
        refreshTokensIn(kv, microsoftRefreshTokenKey(account), own.credentials?.refresh_token).save(refreshToken);
      });
      io.out(`Signed in. Stored the refresh token in ${config.database.path}; a running serve uses it at its next Microsoft pass.`);
      return 0;
    } catch (e) {
      if (e instanceof GraphError) throw new UserError(`Microsoft sign-in failed: ${e.message}`);
      throw e;
    }
  },
};
