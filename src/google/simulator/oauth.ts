// The simulated OAuth token endpoint: refresh tokens, authorization codes from a consent the
// simulator "clicks", service-account assertions, and the access tokens every calendar call needs.
import { createHash, randomBytes } from 'node:crypto';

const token = () => randomBytes(18).toString('base64url');

export interface TokenCounts {
  issued: number;
  refreshed: number;
  /** Refresh tokens handed out for authorization codes or by issueRefreshToken(). */
  refreshTokens: string[];
}

export interface OAuthOptions {
  /** When set, the token endpoint checks the client's id and secret. */
  clientId?: string;
  clientSecret?: string;
  accessTokenTtlSeconds?: number;
}

export class TokenEndpoint {
  readonly tokens: TokenCounts = { issued: 0, refreshed: 0, refreshTokens: [] };
  private readonly accessTokens = new Map<string, number>();
  private readonly refreshTokens = new Set<string>();
  /** code -> the redirect it was given for and, with PKCE, the S256 challenge its verifier must meet. */
  private readonly codes = new Map<string, { redirect: string; challenge: string | null }>();
  /** Service-account assertions are refused from now on. */
  private revoked = false;
  /** Only refresh tokens issued here from now on are taken (the ones before were revoked). */
  private onlyIssued = false;

  constructor(private readonly options: OAuthOptions) {}

  private issueAccess() {
    const ttl = this.options.accessTokenTtlSeconds ?? 3600;
    const t = `ya29.${token()}`;
    this.accessTokens.set(t, Date.now() + ttl * 1000);
    this.tokens.issued++;
    return { access_token: t, expires_in: ttl, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/calendar' };
  }

  /** POST /token with a form body: [status, JSON body]. */
  answer(form: URLSearchParams): [number, unknown] {
    const o = this.options;
    const grant = form.get('grant_type');
    const clientOk =
      (!o.clientId || form.get('client_id') === o.clientId) && (!o.clientSecret || form.get('client_secret') === o.clientSecret);
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      if (this.revoked) return [400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }];
      return form.get('assertion')?.split('.').length === 3
        ? [200, this.issueAccess()]
        : [400, { error: 'invalid_grant', error_description: 'Invalid JWT.' }];
    }
    if (!clientOk) return [401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' }];
    if (grant === 'refresh_token') {
      const rt = form.get('refresh_token') ?? '';
      // Until one is issued here, any refresh token is taken (tests configure one of their own).
      if (!rt || ((this.onlyIssued || this.refreshTokens.size > 0) && !this.refreshTokens.has(rt))) {
        return [400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }];
      }
      this.tokens.refreshed++;
      return [200, this.issueAccess()];
    }
    if (grant === 'authorization_code') {
      const code = form.get('code') ?? '';
      const given = this.codes.get(code);
      if (!given || given.redirect !== form.get('redirect_uri'))
        return [400, { error: 'invalid_grant', error_description: 'Malformed auth code.' }];
      this.codes.delete(code);
      if (given.challenge !== null) {
        const verifier = form.get('code_verifier');
        if (!verifier) return [400, { error: 'invalid_grant', error_description: 'Missing code verifier.' }];
        if (createHash('sha256').update(verifier).digest('base64url') !== given.challenge)
          return [400, { error: 'invalid_grant', error_description: 'Invalid code verifier.' }];
      }
      return [200, { ...this.issueAccess(), refresh_token: this.issueRefreshToken() }];
    }
    return [400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grant}` }];
  }

  /** A refresh token as a finished consent gives one; from then on only issued ones are accepted. */
  issueRefreshToken(): string {
    const rt = `1//${token()}`;
    this.refreshTokens.add(rt);
    this.tokens.refreshTokens.push(rt);
    return rt;
  }

  /** Whether a calendar call's `Authorization` header holds a live access token from here. */
  allows(authorization: string | undefined): boolean {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const expires = bearer ? this.accessTokens.get(bearer) : undefined;
    return expires !== undefined && expires >= Date.now();
  }

  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /**
   * Every refresh token given so far answers invalid_grant from now on, as after a revoked consent;
   * one issued afterwards (a new consent, `issueRefreshToken`) works.
   */
  revoke(): void {
    this.revoked = true;
    this.onlyIssued = true;
    this.refreshTokens.clear();
    this.accessTokens.clear();
  }

  /** Throws what is wrong with a consent URL, as Google's page refuses it before asking anyone. */
  check(consentUrl: string): { redirect: string; challenge: string | null; u: URL } {
    const u = new URL(consentUrl);
    const redirect = u.searchParams.get('redirect_uri');
    if (!redirect) throw new Error('the consent URL has no redirect_uri');
    if (this.options.clientId && u.searchParams.get('client_id') !== this.options.clientId)
      throw new Error('the consent URL names another client_id');
    const challenge = u.searchParams.get('code_challenge');
    const method = u.searchParams.get('code_challenge_method');
    // Google takes plain too; calbridge must send S256, so the simulator holds it to that.
    if (challenge !== null && method !== 'S256') throw new Error('code_challenge_method must be S256');
    return { redirect, challenge, u };
  }

  /** What the user's browser would do with a consent URL: the redirect back, with a code. */
  authorize(consentUrl: string): string {
    const { redirect, challenge, u } = this.check(consentUrl);
    const code = `4/${token()}`;
    this.codes.set(code, { redirect, challenge });
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    const state = u.searchParams.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return back.toString();
  }
}
