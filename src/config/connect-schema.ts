// `server.secret_key` and the `connect:` section (docs/reference/configuration.md, "connect"): people
// connect their own calendars through a link. Kept beside schema.ts so the section reads in one place.
import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const bool = () => z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** Encrypts credentials stored in the database; 32 characters or more (`openssl rand -base64 33` makes one). */
export const secretKey = optional(
  z.string().min(32, 'must be at least 32 characters (it encrypts the stored credentials; `openssl rand -base64 33` makes one)'),
);

const googleClient = z.strictObject({
  client_id: z.string().min(1, 'is required (the OAuth client of type "Web application")'),
  client_secret: z.string().min(1, 'is required (the OAuth client of type "Web application")'),
});

const microsoftClient = z.strictObject({
  client_id: z.string().min(1, "is required (the Application (client) ID from the app's Overview page in Entra ID)"),
  /** A "Web" platform app has one; a public client ("Mobile and desktop") none. */
  client_secret: optional(z.string().min(1)),
  tenant: z.string().trim().min(1).default('common'),
});

export const connect = z.strictObject({
  enabled: bool().default(false),
  /** Whose redirect URI is {public_url}/connect/callback. */
  google_client: googleClient.optional(),
  microsoft_client: microsoftClient.optional(),
  /** Google's consent page; advanced: tests point it at the simulator. */
  google_auth_url: httpUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
  /**
   * Lets a CalDAV server given through a link be on a private address (this host, the LAN, link-local):
   * for a clinic whose own Nextcloud is on its network. Off: a person holding an invite cannot make
   * calbridge call what only its host can reach (docs/reference/http.md, "Connect").
   */
  caldav_private_addresses: bool().default(false),
});

export type ConnectConfig = z.output<typeof connect>;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** Whether an http:// public_url may still carry a sign-in: only on this machine (tests, the demo). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK.test(url.hostname);
}

/** What `connect.enabled` needs elsewhere in the config, as problems at their YAML paths. */
export function connectProblems(c: {
  server: { public_url: string; secret_key?: string | undefined };
  connect?: ConnectConfig | undefined;
}): { path: (string | number)[]; message: string }[] {
  if (!c.connect?.enabled) return [];
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (c.server.secret_key === undefined)
    problems.push({
      path: ['server', 'secret_key'],
      message:
        "is required while connect is enabled: it encrypts the connected calendars' credentials; set it to 32 characters or more, e.g. secret_key: ${file:/run/secrets/calbridge_key}",
    });
  const url = new URL(c.server.public_url);
  if (url.protocol !== 'https:' && !isLoopbackUrl(url))
    problems.push({
      path: ['server', 'public_url'],
      message:
        'must be an https:// URL while connect is enabled: people sign in to Google, Microsoft or their CalDAV server through it (http is allowed only on 127.0.0.1 or localhost)',
    });
  return problems;
}
