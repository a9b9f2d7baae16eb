// What the connect routes need from each provider, as plain functions the wiring builds from the
// adapters (google/connect-sign-in.ts, microsoft/connect-sign-in.ts, caldav/connect-check.ts).

export interface PickableCalendar {
  id: string;
  name: string;
  primary: boolean;
}

/** Google or Microsoft: authorization code with PKCE. */
export interface OAuthProvider {
  consentUrl(p: { redirectUri: string; state: string; challenge: string }): string;
  /** The refresh token and the calendars the account may change; throws when the provider refuses. */
  finish(p: { code: string; redirectUri: string; verifier: string }): Promise<{ refreshToken: string; calendars: PickableCalendar[] }>;
}

export type CalDavCheck =
  | { ok: true; calendars: PickableCalendar[] }
  /** inside: the address is inside this network (connect.caldav_private_addresses is off); nothing was sent there. */
  | { ok: false; reason: 'auth' | 'not_caldav' | 'unreachable' | 'none' | 'inside'; detail: string };

export interface ConnectProviders {
  google?: OAuthProvider;
  microsoft?: OAuthProvider;
  caldav: (url: string, username: string, password: string) => Promise<CalDavCheck>;
}
