// The Microsoft identity platform's v2.0 endpoints as calbridge uses them, at
// `{authority}{tenant}/oauth2/v2.0/token` and `.../devicecode`: client credentials (app-only),
// refresh tokens that rotate (each use answers a new one; with `strictRotation`, the default here,
// an older one is refused, so a client that forgets to keep the new one fails in tests), and the
// device code flow that a person "approves" through `approveDevice`.
import { createHash, randomBytes } from 'node:crypto';

const token = (n = 24) => randomBytes(n).toString('base64url');

export type Identity = { kind: 'app'; tenant: string } | { kind: 'user'; mailbox: string };

export interface TokenOptions {
  clientId?: string;
  /** App-only needs it; the delegated client (a public client) has none. */
  clientSecret?: string;
  accessTokenTtlSeconds?: number;
  /** An older refresh token answers invalid_grant once a newer one was issued for it (default true). */
  strictRotation?: boolean;
  /** Seconds the device code flow asks a client to wait between polls (Graph says 5). */
  deviceInterval?: number;
}

export interface TokenCounts {
  clientCredentials: number;
  refreshed: number;
  /** Every refresh token handed out, newest last. */
  refreshTokens: string[];
}

interface DeviceCode {
  userCode: string;
  expiresAt: number;
  approvedFor: string | null;
  declined: boolean;
  redeemed: boolean;
}

type Answer = [number, Record<string, unknown>];

const aadError = (status: number, error: string, code: number, description: string): Answer => [
  status,
  {
    error,
    error_description: `AADSTS${code}: ${description}`,
    error_codes: [code],
    timestamp: new Date().toISOString(),
    trace_id: token(8),
    correlation_id: token(8),
  },
];

export class TokenEndpoint {
  readonly counts: TokenCounts = { clientCredentials: 0, refreshed: 0, refreshTokens: [] };
  private readonly access = new Map<string, { identity: Identity; expires: number }>();
  /**
   * refresh token → the mailbox it signs in, whether a newer one replaced it or it was revoked, and
   * whether it came from a confidential client's code (a "Web" app): such a one is refreshed only
   * with the client secret.
   */
  private readonly refresh = new Map<string, { mailbox: string; replaced: boolean; revoked?: boolean; confidential?: boolean }>();
  private readonly devices = new Map<string, DeviceCode>();
  /** Authorization codes: the redirect they were given for, the PKCE challenge and the mailbox that signed in. */
  private readonly codes = new Map<string, { redirect: string; challenge: string | null; mailbox: string; clientId: string }>();
  private revoked = false;

  constructor(
    private readonly o: TokenOptions,
    /** The mailbox a refresh token the simulator did not issue signs in (tests configure their own). */
    private readonly defaultMailbox: () => string,
  ) {}

  private issueAccess(identity: Identity): Record<string, unknown> {
    const ttl = this.o.accessTokenTtlSeconds ?? 3600;
    const t = `eyJ0eXAi.${token(30)}`;
    this.access.set(t, { identity, expires: Date.now() + ttl * 1000 });
    return { token_type: 'Bearer', expires_in: ttl, ext_expires_in: ttl, access_token: t };
  }

  /** A refresh token for this mailbox, as a finished sign-in gives one. */
  issueRefreshToken(mailbox = this.defaultMailbox(), confidential = false): string {
    const rt = `0.AX${token(40)}`;
    this.refresh.set(rt, { mailbox, replaced: false, confidential });
    this.counts.refreshTokens.push(rt);
    return rt;
  }

  /** POST {tenant}/oauth2/v2.0/devicecode. */
  deviceCode(form: URLSearchParams, origin: string): Answer {
    if (this.o.clientId && form.get('client_id') !== this.o.clientId)
      return aadError(400, 'unauthorized_client', 700016, 'Application was not found in the directory.');
    const device = token(32);
    const userCode = randomBytes(6).toString('hex').slice(0, 9).toUpperCase();
    this.devices.set(device, { userCode, expiresAt: Date.now() + 900_000, approvedFor: null, declined: false, redeemed: false });
    const verification = `${origin}/devicelogin`;
    return [
      200,
      {
        user_code: userCode,
        device_code: device,
        verification_uri: verification,
        expires_in: 900,
        interval: this.o.deviceInterval ?? 5,
        message: `To sign in, use a web browser to open the page ${verification} and enter the code ${userCode} to authenticate.`,
      },
    ];
  }

  /** What the person does in the browser: enters the code and signs in as this mailbox. */
  approveDevice(userCode: string, mailbox = this.defaultMailbox()): void {
    const d = [...this.devices.values()].find((x) => x.userCode === userCode);
    if (!d) throw new Error(`no device code ${userCode} is waiting`);
    d.approvedFor = mailbox;
  }

  declineDevice(userCode: string): void {
    const d = [...this.devices.values()].find((x) => x.userCode === userCode);
    if (d) d.declined = true;
  }

  /** The user codes waiting for a person (the demo and tests "see" the printed code here too). */
  pendingUserCodes(): string[] {
    return [...this.devices.values()].filter((d) => !d.approvedFor && !d.declined).map((d) => d.userCode);
  }

  /**
   * GET {tenant}/oauth2/v2.0/authorize: the person signs in as the default mailbox and consents at
   * once; the answer is the redirect back, with a code and the state. Throws for a request the real
   * page would refuse.
   */
  authorize(query: URLSearchParams, mailbox = this.defaultMailbox()): string {
    const clientId = query.get('client_id') ?? '';
    if (this.o.clientId && clientId !== this.o.clientId) throw new Error('AADSTS700016: Application was not found in the directory.');
    if (query.get('response_type') !== 'code') throw new Error('AADSTS900144: response_type must be code.');
    const redirect = query.get('redirect_uri');
    if (!redirect) throw new Error("AADSTS900144: The request body must contain the following parameter: 'redirect_uri'.");
    const challenge = query.get('code_challenge');
    if (challenge !== null && query.get('code_challenge_method') !== 'S256')
      throw new Error('AADSTS501491: code_challenge_method must be S256.');
    const code = `0.AW${token(30)}`;
    this.codes.set(code, { redirect, challenge, mailbox, clientId });
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return back.href;
  }

  /** POST {tenant}/oauth2/v2.0/token. */
  answer(tenant: string, form: URLSearchParams): Answer {
    const grant = form.get('grant_type');
    if (this.o.clientId && form.get('client_id') !== this.o.clientId) {
      return aadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${form.get('client_id')}' was not found in the directory '${tenant}'.`,
      );
    }
    if (grant === 'client_credentials') {
      if (['common', 'consumers', 'organizations'].includes(tenant.toLowerCase())) {
        return aadError(
          400,
          'invalid_request',
          90002,
          `Tenant '${tenant}' not found. Use a tenant-specific endpoint or configure the application to be multi-tenant.`,
        );
      }
      if (!form.get('client_secret') || (this.o.clientSecret && form.get('client_secret') !== this.o.clientSecret)) {
        return aadError(
          401,
          'invalid_client',
          7000215,
          'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        );
      }
      if (!(form.get('scope') ?? '').endsWith('/.default'))
        return aadError(
          400,
          'invalid_scope',
          1002012,
          'The provided value for scope is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier.',
        );
      if (this.revoked) return aadError(401, 'invalid_client', 7000222, 'The provided client secret keys are expired.');
      this.counts.clientCredentials++;
      return [200, this.issueAccess({ kind: 'app', tenant })];
    }
    if (grant === 'refresh_token') {
      const rt = form.get('refresh_token') ?? '';
      let known = this.refresh.get(rt);
      // Until the simulator issued one, any refresh token is taken (tests configure their own).
      if (!known && this.refresh.size === 0 && rt) known = { mailbox: this.defaultMailbox(), replaced: false };
      if (this.revoked || !known || known.revoked || (known.replaced && this.o.strictRotation !== false)) {
        return aadError(400, 'invalid_grant', 700082, 'The refresh token has expired due to inactivity or was revoked.');
      }
      if (known.confidential && (!form.get('client_secret') || form.get('client_secret') !== this.o.clientSecret))
        return aadError(
          401,
          'invalid_client',
          7000218,
          "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
        );
      if (this.refresh.has(rt)) this.refresh.set(rt, { ...known, replaced: true });
      this.counts.refreshed++;
      return [
        200,
        {
          ...this.issueAccess({ kind: 'user', mailbox: known.mailbox }),
          scope: form.get('scope') ?? '',
          refresh_token: this.issueRefreshToken(known.mailbox, known.confidential),
        },
      ];
    }
    if (grant === 'authorization_code') {
      const given = this.codes.get(form.get('code') ?? '');
      if (!given || given.redirect !== form.get('redirect_uri'))
        return aadError(400, 'invalid_grant', 70008, 'The provided authorization code or refresh token has expired or was already used.');
      this.codes.delete(form.get('code') ?? '');
      if (this.o.clientSecret && form.get('client_secret') !== this.o.clientSecret)
        return aadError(401, 'invalid_client', 7000215, 'Invalid client secret provided.');
      if (given.challenge !== null) {
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== given.challenge)
          return aadError(
            400,
            'invalid_grant',
            501481,
            'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
          );
      }
      return [
        200,
        {
          ...this.issueAccess({ kind: 'user', mailbox: given.mailbox }),
          scope: form.get('scope') ?? '',
          refresh_token: this.issueRefreshToken(given.mailbox, Boolean(form.get('client_secret'))),
        },
      ];
    }
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      const d = this.devices.get(form.get('device_code') ?? '');
      if (!d || d.redeemed) return aadError(400, 'invalid_grant', 70000, 'The provided value for the device code is not valid.');
      if (Date.now() > d.expiresAt)
        return aadError(400, 'expired_token', 70020, 'The provided value for the input parameter device_code is expired.');
      if (d.declined) return aadError(400, 'authorization_declined', 70000, 'The user declined the sign-in.');
      if (!d.approvedFor)
        return aadError(400, 'authorization_pending', 70016, 'OAuth 2.0 device flow error. Authorization is pending. Continue polling.');
      d.redeemed = true;
      return [
        200,
        {
          ...this.issueAccess({ kind: 'user', mailbox: d.approvedFor }),
          scope: form.get('scope') ?? '',
          refresh_token: this.issueRefreshToken(d.approvedFor),
        },
      ];
    }
    return aadError(400, 'unsupported_grant_type', 70003, `The app requested an unsupported grant type '${grant}'.`);
  }

  /** Who a Graph call's `Authorization` header signs in as, or null when it is no live token from here. */
  identity(authorization: string | undefined): Identity | null {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const t = bearer ? this.access.get(bearer) : undefined;
    return t && t.expires >= Date.now() ? t.identity : null;
  }

  expireAccessTokens(): void {
    this.access.clear();
  }

  /**
   * A person removed the app's access (account settings, "Apps and services"): every refresh token
   * issued so far is refused, and so are the access tokens; a new sign-in gives working ones again.
   */
  revokeRefreshTokens(): void {
    for (const [rt, known] of this.refresh) this.refresh.set(rt, { ...known, revoked: true });
    for (const [t, a] of this.access) if (a.identity.kind === 'user') this.access.delete(t);
  }

  /** Consent withdrawn / secret expired: every grant fails from now on. */
  revoke(): void {
    this.revoked = true;
    this.access.clear();
  }
}
