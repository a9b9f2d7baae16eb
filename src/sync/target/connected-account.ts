// An account a person connected through a link (docs/reference/http.md, "Connect"): stored in the
// database with its credentials encrypted, and from then on an account like those of the config.
// The connect side produces these; the runtime turns each into a target part like a YAML account.

/** Where an account's refresh token lives; a rotated token is saved at once. */
export interface TokenStore {
  load(): string | undefined;
  save(token: string): void;
}

export type ConnectedAccount =
  | {
      kind: 'google';
      name: string;
      calendarKey: string;
      /** The Google calendar id picked by the person. */
      calendar: string;
      client: { client_id: string; client_secret: string };
      tokens: TokenStore;
    }
  | {
      kind: 'microsoft';
      name: string;
      calendarKey: string;
      /** The Outlook calendar id picked by the person (mailbox "me", delegated). */
      calendar: string;
      client: { client_id: string; client_secret?: string; tenant: string };
      tokens: TokenStore;
    }
  | {
      kind: 'caldav';
      name: string;
      calendarKey: string;
      /** The calendar collection's URL picked by the person. */
      calendar: string;
      url: string;
      username: string;
      password: string;
    };

/** The connected accounts now: cheap; the runtime reads it at start and when woken with 'accounts'. */
export type ConnectedAccounts = () => ConnectedAccount[];
