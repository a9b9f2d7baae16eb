// A person's own Microsoft sign-in through a connect link (docs/reference/http.md, "Connect"): the
// authorize URL at `{authority_url}{tenant}/oauth2/v2.0/authorize` (authorization code with PKCE,
// delegated Calendars.ReadWrite and offline_access), the code exchanged at the token endpoint, and the
// calendars of that mailbox it may change (`/me/calendars`, canEdit). Plain requests through net/
// (json-call.ts), each to its own configured origin.
import { getJson, postForm } from '../net/json-call.ts';

export interface MicrosoftSignInOptions {
  /** microsoft.authority_url and microsoft.graph_root (their defaults without a microsoft section). */
  authorityUrl: string;
  graphRoot: string;
  tenant: string;
  clientId: string;
  clientSecret?: string | undefined;
}

export interface SignedIn {
  refreshToken: string;
  calendars: { id: string; name: string; primary: boolean }[];
}

export function microsoftSignIn(o: MicrosoftSignInOptions) {
  const scope = `${new URL(o.graphRoot).origin}/Calendars.ReadWrite offline_access`;
  const endpoint = (what: 'authorize' | 'token') => new URL(`${encodeURIComponent(o.tenant)}/oauth2/v2.0/${what}`, o.authorityUrl);
  return {
    consentUrl(p: { redirectUri: string; state: string; challenge: string }): string {
      const u = endpoint('authorize');
      u.search = new URLSearchParams({
        client_id: o.clientId,
        response_type: 'code',
        redirect_uri: p.redirectUri,
        response_mode: 'query',
        scope,
        state: p.state,
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
        prompt: 'select_account',
      }).toString();
      return u.href;
    },

    async finish(p: { code: string; redirectUri: string; verifier: string }): Promise<SignedIn> {
      const token = await postForm(endpoint('token'), 'microsoft.authority_url', {
        grant_type: 'authorization_code',
        client_id: o.clientId,
        ...(o.clientSecret ? { client_secret: o.clientSecret } : {}),
        code: p.code,
        redirect_uri: p.redirectUri,
        code_verifier: p.verifier,
        scope,
      });
      const { access_token, refresh_token, error } = token.json;
      if (token.status !== 200 || typeof access_token !== 'string')
        throw new Error(`Microsoft's token endpoint answered ${token.status}${typeof error === 'string' ? ` ${error}` : ''}`);
      if (typeof refresh_token !== 'string') throw new Error('Microsoft gave no refresh token (offline_access was not granted)');
      const url = new URL('v1.0/me/calendars', o.graphRoot);
      url.searchParams.set('$select', 'id,name,canEdit,isDefaultCalendar');
      url.searchParams.set('$top', '100');
      const list = await getJson(url, 'microsoft.graph_root', access_token);
      if (list.status !== 200) throw new Error(`Graph's calendar list answered ${list.status}`);
      const calendars = (Array.isArray(list.json.value) ? (list.json.value as Record<string, unknown>[]) : [])
        .filter((c) => typeof c.id === 'string' && c.canEdit === true)
        .map((c) => ({
          id: c.id as string,
          name: typeof c.name === 'string' ? c.name : (c.id as string),
          primary: c.isDefaultCalendar === true,
        }));
      return { refreshToken: refresh_token, calendars };
    },
  };
}
