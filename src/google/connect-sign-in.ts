// A person's own Google sign-in through a connect link (docs/reference/http.md, "Connect"): the
// consent URL (authorization code with PKCE, offline access), the code exchanged at google.token_url,
// and the calendars that account may change (calendarList, writer or owner). Plain requests through
// net/ (json-call.ts): the client secret goes to token_url's origin only, the access token to
// api_root's only, and Google's libraries are not loaded for two requests.
import { postForm, getJson } from '../net/json-call.ts';
import { SCOPE } from './auth.ts';

/** Listing the person's calendars to pick from; nothing else is read. */
const LIST_SCOPE = 'https://www.googleapis.com/auth/calendar.calendarlist.readonly';

export interface GoogleSignInOptions {
  /** connect.google_auth_url */
  authUrl: string;
  /** google.token_url and google.api_root (their defaults without a google section). */
  tokenUrl: string;
  apiRoot: string;
  clientId: string;
  clientSecret: string;
}

export interface SignedIn {
  refreshToken: string;
  calendars: { id: string; name: string; primary: boolean }[];
}

export function googleSignIn(o: GoogleSignInOptions) {
  return {
    consentUrl(p: { redirectUri: string; state: string; challenge: string }): string {
      const u = new URL(o.authUrl);
      u.search = new URLSearchParams({
        client_id: o.clientId,
        redirect_uri: p.redirectUri,
        response_type: 'code',
        scope: `${SCOPE} ${LIST_SCOPE}`,
        // offline + consent: a refresh token even for a person who agreed before.
        access_type: 'offline',
        prompt: 'consent',
        state: p.state,
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
      }).toString();
      return u.href;
    },

    async finish(p: { code: string; redirectUri: string; verifier: string }): Promise<SignedIn> {
      const token = await postForm(new URL(o.tokenUrl), 'google.token_url', {
        grant_type: 'authorization_code',
        code: p.code,
        redirect_uri: p.redirectUri,
        client_id: o.clientId,
        client_secret: o.clientSecret,
        code_verifier: p.verifier,
      });
      const { access_token, refresh_token, error } = token.json;
      if (token.status !== 200 || typeof access_token !== 'string')
        throw new Error(`Google's token endpoint answered ${token.status}${typeof error === 'string' ? ` ${error}` : ''}`);
      if (typeof refresh_token !== 'string') throw new Error('Google gave no refresh token (offline access was not granted)');
      const calendars: SignedIn['calendars'] = [];
      let pageToken: string | undefined;
      // A person has a handful of calendars; ten pages of 250 is more than anyone.
      for (let page = 0; page < 10; page++) {
        const url = new URL('calendar/v3/users/me/calendarList', o.apiRoot);
        url.searchParams.set('minAccessRole', 'writer');
        url.searchParams.set('maxResults', '250');
        if (pageToken) url.searchParams.set('pageToken', pageToken);
        const list = await getJson(url, 'google.api_root', access_token);
        if (list.status !== 200) throw new Error(`Google's calendar list answered ${list.status}`);
        for (const item of Array.isArray(list.json.items) ? (list.json.items as Record<string, unknown>[]) : []) {
          const role = item.accessRole;
          if (typeof item.id !== 'string' || (role !== 'owner' && role !== 'writer')) continue;
          const name = item.summaryOverride ?? item.summary;
          calendars.push({ id: item.id, name: typeof name === 'string' ? name : item.id, primary: item.primary === true });
        }
        pageToken = typeof list.json.nextPageToken === 'string' ? list.json.nextPageToken : undefined;
        if (!pageToken) break;
      }
      return { refreshToken: refresh_token, calendars };
    },
  };
}
