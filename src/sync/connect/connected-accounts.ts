// The connected accounts as the runtime reads them (sync/target/connected-account.ts): each stored
// connection with its credentials opened, and the client of `connect:` it signed in with. A key that
// does not open them is one clear error (store/connect-store.ts), never an account left out quietly.
import { UserError } from '../../core/errors.ts';
import type { Config } from '../../config/schema.ts';
import type { Clock } from '../../core/clock.ts';
import type { Connection, ConnectKind, ConnectStore } from '../../store/connect-store.ts';
import type { ConnectedAccount, ConnectedAccounts, TokenStore } from '../target/connected-account.ts';

/** What is sealed per connection: a refresh token (Google, Microsoft) or a CalDAV account. */
export type StoredSecrets = { refresh_token: string; issued_at: number } | { url: string; username: string; password: string };

function tokens(store: ConnectStore, kind: ConnectKind, name: string, clock: Clock): TokenStore {
  return {
    load() {
      const s = store.secrets(kind, name);
      return s ? (JSON.parse(s) as { refresh_token?: string }).refresh_token : undefined;
    },
    save(token) {
      store.saveSecrets(kind, name, JSON.stringify({ refresh_token: token, issued_at: clock.now() } satisfies StoredSecrets));
    },
  };
}

/**
 * When a connected account's refresh token was issued (sealed with it), for the Google "Testing"
 * trap (core/alerts/testing-trap.ts); null when unknown or unreadable (a wrong key is said by the
 * connect part, not here).
 */
export function connectedTokenIssuedAt(store: ConnectStore, kind: ConnectKind, name: string): number | null {
  try {
    const stored = JSON.parse(store.secrets(kind, name) ?? '{}') as { issued_at?: unknown };
    return typeof stored.issued_at === 'number' ? stored.issued_at : null;
  } catch {
    return null;
  }
}

const missingClient = (account: string, key: string) =>
  new UserError(
    `the connected account ${account} signed in with ${key}, which is no longer in the config: put it back, or remove ${account} (\`calbridge connections remove ${account}\`)`,
  );

/**
 * `strict`: a connection that cannot be opened (another secret_key, none, a client no longer
 * configured) throws its clear error; otherwise it is left out of the list, so every other account
 * keeps writing, and the connect part says why on /readyz, the status page and in the log.
 */
export function connectedAccountsOf(store: ConnectStore, config: Config, clock: Clock, o: { strict?: boolean } = {}): ConnectedAccounts {
  return () =>
    store.list().flatMap((c): ConnectedAccount[] => {
      try {
        return [opened(c)];
      } catch (e) {
        if (o.strict || !(e instanceof UserError)) throw e;
        return [];
      }
    });

  function opened(c: Connection): ConnectedAccount {
    const account = `${c.kind}.${c.name}`;
    // Opened here, every time: a wrong key is said at once, not at the first token refresh.
    const secrets = JSON.parse(store.secrets(c.kind, c.name) ?? '{}') as Partial<{ url: string; username: string; password: string }>;
    const common = { name: c.name, calendarKey: c.calendarKey, calendar: c.calendar };
    if (c.kind === 'google') {
      const client = config.connect?.google_client;
      if (!client) throw missingClient(account, 'connect.google_client');
      return { kind: 'google', ...common, client: { ...client }, tokens: tokens(store, c.kind, c.name, clock) };
    }
    if (c.kind === 'microsoft') {
      const client = config.connect?.microsoft_client;
      if (!client) throw missingClient(account, 'connect.microsoft_client');
      return {
        kind: 'microsoft',
        ...common,
        client: {
          client_id: client.client_id,
          tenant: client.tenant,
          ...(client.client_secret ? { client_secret: client.client_secret } : {}),
        },
        tokens: tokens(store, c.kind, c.name, clock),
      };
    }
    return { kind: 'caldav', ...common, url: secrets.url ?? '', username: secrets.username ?? '', password: secrets.password ?? '' };
  }
}
