// Credentials for Google (google.credentials, docs/reference/configuration.md): a service-account key, or an OAuth client
// with a refresh token from the config or stored by `google auth`. token_url is honoured in both, so
// the whole flow, refresh included, runs against a fake.
import { createSign } from 'node:crypto';
import type { OAuth2Client } from 'google-auth-library';
import { authLib } from './library.ts';
import type { GoogleConfig } from '../config/schema.ts';
import { readServiceAccountKey, type ServiceAccountKey } from '../config/service-account-key.ts';
import type { KvStore } from '../store/kv-store.ts';
import { sha256Hex } from '../core/hash.ts';
import { errorMessage } from '../core/errors.ts';
import type { HttpAnswer } from '../net/http-request.ts';
import { Outbound } from '../net/outbound.ts';
import { OffOriginError } from '../net/origin.ts';
import { originFetch } from '../net/origin-fetch.ts';
import { GoogleError } from './errors.ts';

/**
 * Events only: every call calbridge makes (events insert, get, update, patch, delete, list, watch, and
 * channels.stop) takes this scope, and it cannot delete calendars or change who they are shared with.
 */
export const SCOPE = 'https://www.googleapis.com/auth/calendar.events';
/** The kv key of an account's stored refresh token; the account `default` keeps the key it always had. */
const refreshTokenKey = (account: string) => (account === 'default' ? 'google.refresh_token' : `google.${account}.refresh_token`);

/** Where an account's refresh token lives between runs; a rotated one is saved at once. */
export interface RefreshTokens {
  load(): string | undefined;
  save(token: string): void;
}

/** Stored by `google auth` and on rotation; tied to the config's own token so editing it wins. */
interface StoredRefreshToken {
  refresh_token: string;
  config_token_hash: string;
  /** When Google issued it (ms): a refusal 6 to 8 days later is the "Testing" app's 7-day expiry. Absent before alerts existed. */
  issued_at?: number;
}

const configTokenHash = (cfg: GoogleConfig) => sha256Hex(cfg.credentials.refresh_token ?? '');

export function storeRefreshToken(kv: KvStore, cfg: GoogleConfig, refreshToken: string, issuedAt = Date.now(), account = 'default'): void {
  kv.set(refreshTokenKey(account), {
    refresh_token: refreshToken,
    config_token_hash: configTokenHash(cfg),
    issued_at: issuedAt,
  } satisfies StoredRefreshToken);
}

/** When the refresh token in use was issued, if it is a stored one that says so (a token from the config does not). */
export function refreshTokenIssuedAt(kv: KvStore, cfg: GoogleConfig, account = 'default'): number | null {
  const stored = kv.get<StoredRefreshToken>(refreshTokenKey(account));
  return stored && stored.config_token_hash === configTokenHash(cfg) && typeof stored.issued_at === 'number' ? stored.issued_at : null;
}

/** The refresh token in use: the stored one unless the config's own token changed since it was stored. */
export function currentRefreshToken(kv: KvStore, cfg: GoogleConfig, account = 'default'): string | undefined {
  const stored = kv.get<StoredRefreshToken>(refreshTokenKey(account));
  if (stored && stored.config_token_hash === configTokenHash(cfg)) return stored.refresh_token;
  return cfg.credentials.refresh_token;
}

/** An account's refresh tokens in the database's kv table (`google auth --account NAME` stores there). */
export function storedRefreshTokens(kv: KvStore, cfg: GoogleConfig, account: string): RefreshTokens {
  return {
    load: () => currentRefreshToken(kv, cfg, account),
    save: (token) => storeRefreshToken(kv, cfg, token, Date.now(), account),
  };
}

export type { OAuth2Client };

/** Who Google sees calling with each client, for messages that say whom to share a calendar with. */
const accounts = new WeakMap<OAuth2Client, string>();

export function accountOf(client: OAuth2Client): string {
  return accounts.get(client) ?? 'the Google account that gave calbridge access (`calbridge google auth`)';
}

/**
 * What the auth client sends (the token refresh, the code exchange) goes through net/origin-fetch.ts:
 * to google.token_url's origin only, no redirect followed. The library's default follows them, and
 * a 307 to plain http would carry the refresh token and client secret there.
 */
function tokenTransport(cfg: GoogleConfig) {
  return { fetchImplementation: originFetch(new URL(cfg.token_url), 'google.token_url'), maxRedirects: 0 };
}

export function oauthClient(cfg: GoogleConfig, redirectUri?: string): OAuth2Client {
  return new (authLib().OAuth2Client)({
    clientId: cfg.credentials.client_id,
    clientSecret: cfg.credentials.client_secret,
    redirectUri,
    endpoints: { oauth2TokenUrl: cfg.token_url },
    transporterOptions: tokenTransport(cfg),
    // Not forceRefreshOnFailure: the library would then refresh and resend on every 403, rate
    // limits included; our retry (retry.ts) refreshes on a 401 instead.
  });
}

function readKey(file: string): ServiceAccountKey {
  const read = readServiceAccountKey(file);
  if (!read.ok)
    throw new GoogleError('auth', `the service account key (google.credentials.service_account_file) cannot be used: ${read.problem}`);
  return read.key;
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A token endpoint answers a few hundred bytes of JSON. */
const TOKEN_ANSWER_BYTES = 64 * 1024;

type TokenAnswer = { access_token?: string; expires_in?: number; error?: string; error_description?: string };

/** The answer's JSON, or nothing to go on (not JSON, or too large to be one). */
function parseTokenAnswer(text: string | null): TokenAnswer {
  try {
    const value: unknown = text === null ? null : JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as TokenAnswer) : {};
  } catch {
    return {};
  }
}

/**
 * The JWT-bearer grant of a service account, sent to the configured token URL over node:http, as
 * every request of calbridge's own is (src/net/http-request.ts).
 */
async function serviceAccountToken(key: ServiceAccountKey, tokenUrl: string): Promise<{ access_token: string; expiry_date: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const unsigned = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ iss: key.client_email, scope: SCOPE, aud: tokenUrl, iat, exp: iat + 3600 })}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(key.private_key).toString('base64url');
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${unsigned}.${signature}` });
  let res: HttpAnswer;
  try {
    // To token_url's origin only; a redirect is not followed (net/outbound.ts).
    res = await new Outbound({ origin: new URL(tokenUrl), setting: 'google.token_url' }).send(new URL(tokenUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      timeoutMs: 30_000,
      maxBodyBytes: TOKEN_ANSWER_BYTES,
    });
  } catch (e) {
    if (e instanceof OffOriginError) throw new GoogleError('invalid', e.message);
    throw new GoogleError('transient', `the token endpoint did not answer: ${errorMessage(e)}`);
  }
  const data = parseTokenAnswer(res.text);
  if (res.status < 200 || res.status >= 300 || !data.access_token) {
    const what = `${data.error ?? res.status}${data.error_description ? ` (${data.error_description})` : ''}`;
    if (res.status >= 500) throw new GoogleError('transient', `the token endpoint answered ${what}`, res.status);
    // Sharing plays no part here: Google refuses the key itself (deleted or disabled), or the signed time.
    throw new GoogleError(
      'auth',
      `Google refused the key of the service account ${key.client_email}: ${what}. The key may be deleted or disabled in the Google Cloud console (create a new one, docs/google-setup.md), or this machine's clock is off`,
      res.status,
      data.error,
    );
  }
  return { access_token: data.access_token, expiry_date: Date.now() + (data.expires_in ?? 3600) * 1000 };
}

export interface GoogleAuth {
  client: OAuth2Client;
  mode: 'service_account' | 'oauth';
}

/** Makes the next request fetch a new access token (after a 401). */
export function forgetAccessToken(client: OAuth2Client): void {
  const { refresh_token } = client.credentials;
  client.setCredentials(refresh_token ? { refresh_token } : {});
}

/**
 * Builds the auth client; throws GoogleError('auth') when no usable credentials are configured.
 * `authCommand` is what a person runs to sign in again (`calbridge google auth --account ana`).
 */
export function createGoogleAuth(cfg: GoogleConfig, tokens: RefreshTokens, authCommand = 'calbridge google auth'): GoogleAuth {
  const file = cfg.credentials.service_account_file;
  if (file) {
    const key = readKey(file);
    const client = new (authLib().OAuth2Client)({ transporterOptions: tokenTransport(cfg) });
    client.refreshHandler = () => serviceAccountToken(key, cfg.token_url);
    accounts.set(client, `the service account ${key.client_email}`);
    return { client, mode: 'service_account' };
  }
  const refreshToken = tokens.load();
  if (!refreshToken) {
    throw new GoogleError('auth', `no Google refresh token: run \`${authCommand}\` once (or set google.credentials.refresh_token)`);
  }
  const client = oauthClient(cfg);
  client.setCredentials({ refresh_token: refreshToken });
  // Google may rotate the refresh token; keep the newest, or the next restart would use a dead one.
  client.on('tokens', (answer) => {
    if (answer.refresh_token && answer.refresh_token !== refreshToken) tokens.save(answer.refresh_token);
  });
  return { client, mode: 'oauth' };
}
