// Access tokens for Graph from the identity platform's v2.0 token endpoint
// (`{authority_url}{tenant}/oauth2/v2.0/token`), by plain OAuth requests over net/'s client
// (README.md says why not @azure/msal-node):
// - app-only: client credentials, scope `{graph origin}/.default`; the tenant must be a real one;
// - delegated: a refresh token, which rotates: every answer carries a new one, stored at once
//   (`RefreshTokens.save`), since Microsoft may refuse an older one later;
// - the device code flow `calbridge microsoft auth` uses to get the first refresh token.
import type { Clock } from '../core/clock.ts';
import { hashOf } from '../core/hash.ts';
import type { HttpAnswer as Answer, httpRequest } from '../net/http-request.ts';
import { OffOriginError } from '../net/origin.ts';
import { Outbound } from '../net/outbound.ts';
import { withRetries, type Verdict } from '../net/retry.ts';
import type { Sleep } from '../net/pacer.ts';
import { AUTH_HELP, errorFromAnswer, errorFromFailure, GraphError } from './errors.ts';
import type { AccessTokens } from './graph-http.ts';

/** Delegated permissions a refresh token is asked for (offline_access makes the refresh token). */
const delegatedScope = (graphRoot: string) => `${new URL(graphRoot).origin}/Calendars.ReadWrite offline_access`;
const appOnlyScope = (graphRoot: string) => `${new URL(graphRoot).origin}/.default`;

export interface AuthEndpoints {
  authorityUrl: string;
  tenant: string;
  graphRoot: string;
  clientId: string;
  timeoutMs?: number;
  request?: typeof httpRequest;
}

const endpoint = (e: AuthEndpoints, what: 'token' | 'devicecode') =>
  new URL(`${encodeURIComponent(e.tenant)}/oauth2/v2.0/${what}`, e.authorityUrl);

/** One form POST to the authority, through net/'s outbound client bound to its origin; network failures and 5xx are tried twice more. */
async function post(
  e: AuthEndpoints,
  what: 'token' | 'devicecode',
  form: Record<string, string>,
  sleep: Sleep,
  accept: readonly number[] = [],
): Promise<{ status: number; json: Record<string, unknown>; answer: Answer }> {
  const url = endpoint(e, what);
  const label = `POST ${url.pathname}`;
  const out = new Outbound({
    origin: new URL(e.authorityUrl),
    setting: 'microsoft.authority_url',
    ...(e.request ? { transport: e.request } : {}),
  });
  const attempt = async () => {
    const answer = await out.send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'calbridge' },
      body: new URLSearchParams(form).toString(),
      timeoutMs: e.timeoutMs ?? 15_000,
      maxBodyBytes: 1024 * 1024,
    });
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(answer.text ?? '{}') as Record<string, unknown>;
    } catch {
      // a proxy's page: judged by its status below
    }
    if (answer.status === 200 || accept.includes(answer.status)) return { status: answer.status, json, answer };
    const err = errorFromAnswer(label, answer, Date.now());
    // Whatever the authority refuses (a wrong tenant, client, secret or grant) is a sign-in problem.
    if (answer.status >= 400 && answer.status < 500 && err.kind !== 'rate_limited' && err.kind !== 'auth') {
      throw new GraphError('auth', `${err.message}; ${AUTH_HELP}`, answer.status, err.code);
    }
    throw err;
  };
  const judge = (x: unknown): Verdict => {
    const err = x instanceof OffOriginError ? new GraphError('invalid', x.message) : errorFromFailure(label, x);
    return { error: err, retry: err.kind === 'transient' };
  };
  return withRetries(attempt, judge, { policy: { retries: 2, baseMs: 500, maxMs: 4000 }, sleep, now: () => Date.now() });
}

/** The kv key of a delegated account's refresh token; the single-account form is the account "default". */
export const microsoftRefreshTokenKey = (account: string) => `microsoft.${account}.refresh_token`;

/** Where a delegated account's refresh token lives between runs (the database's kv table). */
export interface RefreshTokens {
  load(): string | undefined;
  save(token: string): void;
}

/**
 * The stored refresh token unless the config's own changed since it was stored: editing the config
 * (a new token pasted in) wins over an older rotation.
 */
export function refreshTokensIn(
  kv: { get<T>(key: string): T | undefined; set(key: string, value: unknown): void },
  key: string,
  configured: string | undefined,
): RefreshTokens {
  const tie = configured ? hashOf(configured).slice(0, 16) : null;
  return {
    load() {
      const stored = kv.get<{ token: string; configured: string | null }>(key);
      if (stored && stored.configured === tie) return stored.token;
      return configured;
    },
    save(token) {
      kv.set(key, { token, configured: tie });
    },
  };
}

/** A delegated account signed in through a web client (connected by a link) also sends that client's secret. */
export type Credentials =
  | { kind: 'app'; clientSecret: string }
  | { kind: 'delegated'; refreshTokens: RefreshTokens; clientSecret?: string };

export interface TokenSourceOptions extends AuthEndpoints {
  credentials: Credentials;
  clock: Clock;
  sleep: Sleep;
}

/** Access tokens on demand: one request at a time, kept until five minutes before they expire. */
export function createTokenSource(o: TokenSourceOptions): AccessTokens & { lastError(): GraphError | null } {
  let current: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;
  let lastError: GraphError | null = null;

  async function fetchToken(): Promise<string> {
    const c = o.credentials;
    let form: Record<string, string>;
    if (c.kind === 'app') {
      form = { client_id: o.clientId, client_secret: c.clientSecret, scope: appOnlyScope(o.graphRoot), grant_type: 'client_credentials' };
    } else {
      const rt = c.refreshTokens.load();
      if (!rt)
        throw new GraphError('auth', 'this Microsoft account has no refresh token yet; run `calbridge microsoft auth` once to sign in');
      form = {
        client_id: o.clientId,
        ...(c.clientSecret ? { client_secret: c.clientSecret } : {}),
        refresh_token: rt,
        scope: delegatedScope(o.graphRoot),
        grant_type: 'refresh_token',
      };
    }
    const { json } = await post(o, 'token', form, o.sleep);
    if (typeof json.access_token !== 'string') throw new GraphError('invalid', 'the token endpoint answered without an access_token');
    // Rotation: keep the new refresh token before anything else can fail.
    if (c.kind === 'delegated' && typeof json.refresh_token === 'string') c.refreshTokens.save(json.refresh_token);
    const ttl = typeof json.expires_in === 'number' ? json.expires_in : Number(json.expires_in ?? 3600);
    current = { token: json.access_token, expiresAt: o.clock.now() + Math.max(60, ttl - 300) * 1000 };
    return json.access_token;
  }

  return {
    async token() {
      if (current && current.expiresAt > o.clock.now()) return current.token;
      pending ??= fetchToken()
        .then((t) => {
          lastError = null;
          return t;
        })
        .catch((e: unknown) => {
          lastError = e instanceof GraphError ? e : errorFromFailure('token', e);
          throw lastError;
        })
        .finally(() => (pending = null));
      return pending;
    },
    invalidate() {
      current = null;
    },
    lastError: () => lastError,
  };
}

export interface DeviceCodeStart {
  userCode: string;
  verificationUri: string;
  deviceCode: string;
  intervalSeconds: number;
  expiresAt: number;
}

/** Starts a device code sign-in: the address and code a person enters. */
export async function startDeviceCode(e: AuthEndpoints, clock: Clock, sleep: Sleep): Promise<DeviceCodeStart> {
  const { json } = await post(e, 'devicecode', { client_id: e.clientId, scope: delegatedScope(e.graphRoot) }, sleep);
  const { user_code, device_code, verification_uri, interval, expires_in } = json;
  if (typeof user_code !== 'string' || typeof device_code !== 'string' || typeof verification_uri !== 'string') {
    throw new GraphError('invalid', 'the device code endpoint answered without user_code, device_code and verification_uri');
  }
  return {
    userCode: user_code,
    deviceCode: device_code,
    verificationUri: verification_uri,
    intervalSeconds: Number(interval ?? 5),
    expiresAt: clock.now() + Number(expires_in ?? 900) * 1000,
  };
}

/** Polls until the person signed in (the refresh token), declined or the code expired (thrown). */
export async function finishDeviceCode(e: AuthEndpoints, start: DeviceCodeStart, clock: Clock, sleep: Sleep): Promise<string> {
  let interval = start.intervalSeconds;
  for (;;) {
    if (clock.now() > start.expiresAt)
      throw new GraphError('auth', 'the sign-in code expired before anyone entered it; run `calbridge microsoft auth` again');
    await sleep(interval * 1000);
    const { status, json } = await post(
      e,
      'token',
      { client_id: e.clientId, device_code: start.deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' },
      sleep,
      [400],
    );
    if (status === 200) {
      if (typeof json.refresh_token !== 'string')
        throw new GraphError('invalid', 'the sign-in finished without a refresh token (was offline_access granted?)');
      return json.refresh_token;
    }
    const error = json.error;
    if (error === 'authorization_pending') continue;
    if (error === 'slow_down') {
      interval += 5;
      continue;
    }
    if (error === 'authorization_declined') throw new GraphError('auth', 'the sign-in was declined');
    if (error === 'expired_token')
      throw new GraphError('auth', 'the sign-in code expired before anyone entered it; run `calbridge microsoft auth` again');
    throw new GraphError(
      'auth',
      `the sign-in failed: ${typeof error === 'string' ? error : status}`,
      status,
      typeof error === 'string' ? error : undefined,
    );
  }
}
