// The whole configuration (docs/reference/configuration.md) as one zod schema. Strict objects: an unknown key is almost
// always a typo, so it is an error. Defaults live here and nowhere else.
import { z } from 'zod';
import { DateTime } from 'luxon';
import { STATUSES } from '../core/appointment.ts';
import { unknownPlaceholders } from '../core/template.ts';
import { LOCALES } from '../core/i18n/index.ts';
import { cronScheduleProblem } from '../jobs/cron-schedule.ts';
import { connect, connectProblems, secretKey } from './connect-schema.ts';
import {
  caldavCalendarIdentity,
  googleCalendarIdentity,
  microsoftCalendarIdentity,
  sharedCalendarProblems,
  type CalendarClaim,
} from './shared-calendars.ts';

/** An empty string means unset, for every optional value (docs/reference/configuration.md, "General rules"): `${VAR:-}` leaves one. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const optionalText = () => optional(z.string());
const optionalSecret = optionalText();

/**
 * Values from `${VAR}` arrive as text: in number and boolean fields "8080" and "true" are read as the
 * number and boolean they spell, so `port: ${PORT:-8080}` works.
 */
const fromText = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t === 'true' ? true : t === 'false' ? false : v;
};
const num = <T extends z.ZodType>(schema: T) => z.preprocess(fromText, schema);
const bool = () => num(z.boolean());

const secret = (min: number) => z.string().min(min, `must be at least ${min} characters (it is the only thing guarding this route)`);

const timezone = z.string().refine((zone) => DateTime.local().setZone(zone).isValid, {
  message: 'is not an IANA time zone (e.g. America/Sao_Paulo)',
});

/** Runs in booking.timezone unless it starts with CRON_TZ=<zone> (jobs/cron-schedule.ts). */
const cronSchedule = z.string().superRefine((s, ctx) => {
  const problem = cronScheduleProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const template = z.string().superRefine((t, ctx) => {
  for (const name of unknownPlaceholders(t)) {
    ctx.addIssue({ code: 'custom', message: `unknown placeholder {${name}}` });
  }
});

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const share = num(z.number().min(0).max(1));

const stringOrList = optional(z.union([z.string(), z.array(z.string())]));

/** A status or a list of statuses, each one of the booking API's (any case, as the feed filter compares). */
const statusOrList = optional(
  z.union([z.string(), z.array(z.string())]).superRefine((v, ctx) => {
    for (const status of Array.isArray(v) ? v : [v]) {
      if (!(STATUSES as readonly string[]).includes(status.toUpperCase())) {
        ctx.addIssue({ code: 'custom', message: `unknown status "${status}" (one of ${STATUSES.join(', ')})` });
      }
    }
  }),
);

/** Booking API list filters as `poll.filters` takes them (docs/reference/configuration.md, "Filters"), each a single value. */
const pollFilters = z.strictObject({
  calendar_key: optionalText(),
  client_key: optionalText(),
  person_key: optionalText(),
  status: optional(z.enum(STATUSES)),
  email: optionalText(),
  phone: optionalText(),
  name: optionalText(),
  identification_code: optionalText(),
  external_id: optionalText(),
  search_code: optionalText(),
  is_cancelled: optional(bool()),
  service_keys: z.array(z.string()).optional(),
  tag_keys: z.array(z.string()).optional(),
  owner_user: optionalText(),
  created_at: optionalText(),
});

const feedFilters = z.strictObject({
  calendar_key: stringOrList,
  client_key: optionalText(),
  person_key: stringOrList,
  status: statusOrList,
  service_keys: z.array(z.string()).optional(),
  tag_keys: z.array(z.string()).optional(),
  owner_user: optionalText(),
});

/**
 * The admin token travels in an Authorization header: HTTP trims whitespace around a header value
 * and cannot carry control characters, so a token with either could never match.
 */
const adminToken = optional(
  secret(16).refine((t) => t === t.trim() && !/[\u0000-\u001f\u007f]/.test(t), {
    message: 'must not start or end with whitespace or hold control characters (an HTTP header cannot carry them)',
  }),
);

const server = z.strictObject({
  host: z.string().default('0.0.0.0'),
  port: num(z.number().int().min(0).max(65535)).default(8080),
  public_url: httpUrl,
  /** Guards /status and /api/* (and /metrics with metrics_auth). Without it they answer 401 to everyone. */
  admin_token: adminToken,
  /** `loopback` lets callers on this machine in without the token: the demo's; unsafe behind any proxy. */
  status_auth: z.enum(['token', 'loopback']).default('token'),
  /** The language of everything people read: the status page, activity, `status`, the demo, the default text of events. */
  locale: z.enum(LOCALES).default('en'),
  /** /metrics needs the admin token too (off by default, so scrapers stay simple). */
  metrics_auth: bool().default(false),
  /** Encrypts credentials stored in the database (calendars connected on the web); required while connect is enabled. */
  secret_key: secretKey,
});

const database = z.strictObject({
  // The container image sets CALBRIDGE_DATABASE_PATH=/data/calbridge.db, its volume.
  path: z
    .string()
    .min(1)
    .default(() => process.env.CALBRIDGE_DATABASE_PATH || 'data/calbridge.db'),
  synchronous: z.enum(['normal', 'full']).default('normal'),
});

const booking = z.strictObject({
  base_url: httpUrl,
  token: z.string().min(1, 'is required'),
  timezone: timezone.default('America/Sao_Paulo'),
  default_duration_minutes: num(z.number().int().positive()).default(60),
  service_durations: z.record(z.string(), num(z.number().int().positive())).default({}),
  page_size: num(z.number().int().positive().max(1000)).default(100),
  timeout_seconds: num(z.number().positive().max(300)).default(15),
  /** How array filters go on the query string: `repeat` (k=a&k=b) or `comma` (k=a,b). */
  array_format: z.enum(['repeat', 'comma']).default('repeat'),
  /** Safety cap on pages followed in one listing. */
  max_pages: num(z.number().int().positive()).default(500),
});

const webhook = z.strictObject({
  secret: secret(16),
  /** During a rotation: the old secret, still accepted, and its webhook moved to the new URL. */
  previous_secret: optional(secret(16)),
  auth_token: optionalSecret,
  register: bool().default(true),
  events: z.array(z.string().min(1)).min(1).default(['appointment.created', 'appointment.updated', 'appointment.canceled']),
});

const poll = z.strictObject({
  schedule: cronSchedule.default('*/5 * * * *'),
  past_days: num(z.number().int().min(0).max(3650)).default(7),
  future_days: num(z.number().int().min(0).max(3650)).default(90),
  filters: pollFilters.prefault({}),
  /** Breaker: a pass that would make more than this share of the window gone stops and reports. */
  breaker_share: share.default(0.3),
  /** Breaker by rate, poll and webhooks alike: at most this many appointments become gone in any rolling hour; more are held. */
  max_gone_per_hour: num(z.number().int().min(1)).default(20),
});

/** An account's name (docs/reference/configuration.md, "Accounts"): it names the account everywhere (`google.ana`). */
const accountName = z
  .string()
  .regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and "-" (it names the account: google.ana)')
  .max(40, 'must be at most 40 characters');

const STATUS_DEFAULT = [
  'CONFIRMED',
  'PENDING',
  'ATTENDED',
  'IN_PROGRESS',
  'NO_SHOW',
  'PENDING_PAYMENT',
  'PENDING_FORM',
  'PENDING_COMPANIONS',
] as const;

/** Settings an account may give for itself; left out, the section's apply. */
const accountOverrides = {
  statuses: z.array(z.enum(STATUSES)).optional(),
  title: template.optional(),
  description: template.optional(),
  breaker_share: share.optional(),
};

/** `accounts:` and the single form are two ways to say one thing: both at once is a mistake, and names must differ. */
function checkAccounts(
  section: string,
  accounts: readonly { name: string }[] | undefined,
  single: Record<string, unknown>,
  ctx: z.RefinementCtx,
): void {
  if (!accounts) return;
  for (const [key, value] of Object.entries(single)) {
    if (value !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `give either ${section}.${key} or ${section}.accounts, not both (with accounts, each account has its own)`,
      });
  }
  const seen = new Map<string, number>();
  accounts.forEach((a, i) => {
    const first = seen.get(a.name);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['accounts', i, 'name'],
        message: `is the same as ${section}.accounts[${first}].name; every account needs its own name`,
      });
    seen.set(a.name, i);
  });
}

/** Two accounts of a section mapping one real calendar (config/shared-calendars.ts says what is compared). */
function sharedCalendars(section: string, claims: readonly CalendarClaim[], ctx: z.RefinementCtx): void {
  for (const p of sharedCalendarProblems(section, claims)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
}

const credentials = z.strictObject({
  service_account_file: optionalText(),
  client_id: optionalText(),
  client_secret: optionalSecret,
  refresh_token: optionalSecret,
});
type Credentials = z.output<typeof credentials>;

function credentialsProblem(c: Credentials | undefined): string | undefined {
  if (!c) return 'is required (service_account_file, or client_id and client_secret)';
  const oauth = c.client_id !== undefined || c.client_secret !== undefined;
  if (c.service_account_file && oauth) return 'give either service_account_file or an OAuth client (client_id, client_secret), not both';
  if (!c.service_account_file && !oauth) return 'give service_account_file, or client_id and client_secret';
  if (oauth && (!c.client_id || !c.client_secret)) return 'an OAuth client needs both client_id and client_secret';
  return undefined;
}

const reverseSync = z.strictObject({
  enabled: bool().default(true),
  schedule: cronSchedule.default('*/2 * * * *'),
  push_notifications: bool().default(true),
  /** Where Google delivers push notifications; default {server.public_url}/google/notifications. Google takes only https. */
  push_url: optional(z.url({ protocol: /^https$/, error: 'must be an https:// URL (Google delivers push notifications only there)' })),
  on_conflict: z.enum(['revert', 'allow']).default('revert'),
  on_delete: z.enum(['recreate', 'cancel', 'ignore']).default('recreate'),
  send_email: bool().default(false),
});

const googleCalendars = z.array(z.strictObject({ calendar_key: z.string().min(1), calendar_id: z.string().min(1) })).min(1);
const GOOGLE_CALENDARS_DEFAULT = [{ calendar_key: '*', calendar_id: 'primary' }];

const googleAccount = z.strictObject({
  name: accountName,
  credentials,
  calendars: googleCalendars.default(GOOGLE_CALENDARS_DEFAULT),
  /** Advanced (proxies, tests): left out, the section's. */
  api_root: httpUrl.optional(),
  token_url: httpUrl.optional(),
  requests_per_minute: num(z.number().int().positive().max(10_000)).optional(),
  ...accountOverrides,
});

const google = z
  .strictObject({
    enabled: bool().default(true),
    // Required only while Google is enabled (docs/reference/configuration.md: where the section is used).
    credentials: credentials.optional(),
    api_root: httpUrl.default('https://www.googleapis.com/'),
    token_url: httpUrl.default('https://oauth2.googleapis.com/token'),
    // Left out: one catch-all to the primary calendar (given here, not as a default, so `accounts:` can tell it was not given).
    calendars: googleCalendars.optional(),
    /** Several accounts, each with its own credentials and calendars, instead of the two keys above. */
    accounts: z.array(googleAccount).min(1).optional(),
    statuses: z.array(z.enum(STATUSES)).default([...STATUS_DEFAULT]),
    title: template.default('{person.full_name} · {search_code}'),
    description: template.default('{calendar.name}\n{person.email}'),
    reverse_sync: reverseSync.prefault({}),
    /** Pacer: Google's per-user quota is 600 requests a minute; stay under it. */
    requests_per_minute: num(z.number().int().positive().max(10_000)).default(500),
    /** Breaker: a pass that would delete more than this share of the mirrored events stops and reports. */
    breaker_share: share.default(0.3),
  })
  .superRefine((g, ctx) => {
    if (!g.enabled) return;
    if (g.accounts) {
      checkAccounts('google', g.accounts, { credentials: g.credentials, calendars: g.calendars }, ctx);
      g.accounts.forEach((a, i) => {
        const problem = credentialsProblem(a.credentials);
        if (problem) ctx.addIssue({ code: 'custom', path: ['accounts', i, 'credentials'], message: problem });
      });
      const claims = g.accounts.flatMap((a, i) =>
        a.calendars.map(
          (c, j): CalendarClaim => ({
            account: i,
            path: ['accounts', i, 'calendars', j, 'calendar_id'],
            identity: googleCalendarIdentity(c.calendar_id),
          }),
        ),
      );
      sharedCalendars('google', claims, ctx);
      return;
    }
    const problem = credentialsProblem(g.credentials);
    if (problem) ctx.addIssue({ code: 'custom', path: ['credentials'], message: problem });
  })
  .transform((g) => ({ ...g, credentials: g.credentials ?? {}, calendars: g.calendars ?? GOOGLE_CALENDARS_DEFAULT }));

const caldavReverseSync = z.strictObject({
  enabled: bool().default(true),
  schedule: cronSchedule.default('*/1 * * * *'),
  on_conflict: z.enum(['revert', 'allow']).default('revert'),
  on_delete: z.enum(['recreate', 'cancel', 'ignore']).default('recreate'),
});

/** Basic auth sends the password with every request: it belongs in `password`, never in the URL. */
const caldavUrl = httpUrl.refine((u) => !new URL(u).username && !new URL(u).password, {
  message: 'must not carry a username or password; give them as caldav.username and caldav.password',
});

const caldavCalendars = z.array(z.strictObject({ calendar_key: z.string().min(1), calendar: z.string().trim().min(1) })).min(1);

const caldavAccount = z.strictObject({
  name: accountName,
  url: caldavUrl,
  username: z.string().min(1),
  password: z.string().min(1),
  calendars: caldavCalendars,
  requests_per_minute: num(z.number().int().positive().max(10_000)).optional(),
  ...accountOverrides,
});

const caldav = z
  .strictObject({
    enabled: bool().default(true),
    // Required only while CalDAV is enabled (docs/reference/configuration.md: where the section is used).
    url: optional(caldavUrl),
    username: optionalText(),
    password: optionalSecret,
    /** booking calendar -> CalDAV calendar (display name or collection URL); first match wins. */
    calendars: caldavCalendars.optional(),
    /** Several accounts, each with its own server, user, password and calendars, instead of the four keys above. */
    accounts: z.array(caldavAccount).min(1).optional(),
    statuses: z.array(z.enum(STATUSES)).default([...STATUS_DEFAULT]),
    title: template.default('{person.full_name} · {search_code}'),
    description: template.default('{calendar.name}\n{person.email}'),
    /** Pacer shared by every request to the server; hosted servers throttle bursts. */
    requests_per_minute: num(z.number().int().positive().max(10_000)).default(300),
    /** Breaker: a pass that would delete more than this share of the mirrored objects stops and reports (as for google). */
    breaker_share: share.default(0.3),
    reverse_sync: caldavReverseSync.prefault({}),
  })
  .superRefine((c, ctx) => {
    if (!c.enabled) return;
    if (c.accounts) {
      checkAccounts('caldav', c.accounts, { url: c.url, username: c.username, password: c.password, calendars: c.calendars }, ctx);
      const claims = c.accounts.flatMap((a, i) =>
        a.calendars.map(
          (cal, j): CalendarClaim => ({
            account: i,
            path: ['accounts', i, 'calendars', j, 'calendar'],
            identity: caldavCalendarIdentity(a.url, a.username, cal.calendar),
          }),
        ),
      );
      sharedCalendars('caldav', claims, ctx);
      return;
    }
    const required = {
      url: "the server's DAV root",
      username: 'the account name',
      password: 'an app password where the server offers them',
      calendars: 'at least one booking calendar -> CalDAV calendar',
    } as const;
    for (const [key, what] of Object.entries(required)) {
      if (c[key as keyof typeof required] === undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `is required while caldav is enabled (${what})` });
    }
  })
  .transform((c) => ({ ...c, url: c.url ?? '', username: c.username ?? '', password: c.password ?? '', calendars: c.calendars ?? [] }));

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The shared authorities: they name no directory, so app-only sign-in cannot use them. */
const SHARED_TENANTS = ['common', 'organizations', 'consumers'];

const microsoftTenant = z
  .string()
  .trim()
  .refine((t) => GUID.test(t) || SHARED_TENANTS.includes(t.toLowerCase()) || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(t), {
    message:
      "is not a directory (tenant) ID, a verified domain, or one of common, organizations, consumers; copy the Directory (tenant) ID from the app's Overview page in Entra ID",
  });

const microsoftCredentials = z.strictObject({
  client_id: optionalText(),
  client_secret: optionalSecret,
  refresh_token: optionalSecret,
});

const microsoftReverseSync = z.strictObject({
  enabled: bool().default(true),
  schedule: cronSchedule.default('*/2 * * * *'),
  /** Graph change notifications, only with an https public_url. */
  push_notifications: bool().default(true),
  on_conflict: z.enum(['revert', 'allow']).default('revert'),
  on_delete: z.enum(['recreate', 'cancel', 'ignore']).default('recreate'),
  send_email: bool().default(false),
});

const microsoftCalendar = z.strictObject({
  calendar_key: z.string().min(1),
  /** The mailbox: "me" (delegated) or its address or object id (app-only: required). */
  user: z
    .string()
    .trim()
    .default('me')
    .refine((u) => u === 'me' || GUID.test(u) || /^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/.test(u), {
      message: 'is neither "me" nor a mailbox address or object id; give the mailbox\'s address (e.g. reception@clinic.example)',
    }),
  /** The calendar's name in that mailbox, or its id. */
  calendar: z.string().trim().min(1).default('Calendar'),
});

const microsoftCalendars = z.array(microsoftCalendar).min(1);
const MICROSOFT_CALENDARS_DEFAULT = [{ calendar_key: '*', user: 'me', calendar: 'Calendar' }];

const microsoftAccount = z.strictObject({
  name: accountName,
  /** Left out: the section's tenant. */
  tenant: microsoftTenant.optional(),
  credentials: microsoftCredentials,
  calendars: microsoftCalendars.default(MICROSOFT_CALENDARS_DEFAULT),
  /** Advanced (national clouds, tests): left out, the section's. */
  authority_url: httpUrl.optional(),
  graph_root: httpUrl.optional(),
  requests_per_minute: num(z.number().int().positive().max(1000)).optional(),
  ...accountOverrides,
});

type Issue = (path: (string | number)[], message: string) => void;

/** One Microsoft sign-in (the section's, or an account's under `at`): what cannot be right, with the fix. */
function checkMicrosoftSignIn(
  tenant: string,
  c: z.output<typeof microsoftCredentials> | undefined,
  calendars: readonly { user: string }[],
  at: (string | number)[],
  issue: Issue,
): void {
  if (!c?.client_id) {
    issue(
      [...at, 'credentials', 'client_id'],
      "is required while microsoft is enabled: the Application (client) ID from the app's Overview page in Entra ID",
    );
    return;
  }
  if (!GUID.test(c.client_id))
    issue([...at, 'credentials', 'client_id'], "is not a GUID; copy the Application (client) ID from the app's Overview page in Entra ID");
  if (c.client_secret && c.refresh_token) {
    issue([...at, 'credentials'], "give client_secret (app-only sign-in) or refresh_token (a person's own account), not both");
    return;
  }
  if (c.client_secret) {
    // The ID Entra shows beside a secret is a GUID; the value people must copy never is.
    if (GUID.test(c.client_secret))
      issue(
        [...at, 'credentials', 'client_secret'],
        "looks like the secret's ID; copy its Value instead (shown once, when the secret is added)",
      );
    if (SHARED_TENANTS.includes(tenant.toLowerCase()))
      issue(
        at.length ? [...at, 'tenant'] : ['tenant'],
        `cannot be "${tenant}" for app-only sign-in (client_secret); give the Directory (tenant) ID from the app's Overview page`,
      );
    calendars.forEach((cal, i) => {
      if (cal.user === 'me')
        issue([...at, 'calendars', i, 'user'], 'cannot be "me" for app-only sign-in (client_secret): name the mailbox by its address');
    });
  }
}

const microsoft = z
  .strictObject({
    enabled: bool().default(true),
    tenant: microsoftTenant.default('common'),
    // Required only while Microsoft is enabled (where the section is used).
    credentials: microsoftCredentials.optional(),
    authority_url: httpUrl.default('https://login.microsoftonline.com/'),
    graph_root: httpUrl.default('https://graph.microsoft.com/'),
    // Left out: one catch-all to the signed-in person's own calendar (not a default, so `accounts:` can tell it was not given).
    calendars: microsoftCalendars.optional(),
    /** Several accounts, each with its own credentials and calendars, instead of the two keys above. */
    accounts: z.array(microsoftAccount).min(1).optional(),
    statuses: z.array(z.enum(STATUSES)).default([...STATUS_DEFAULT]),
    title: template.default('{person.full_name} · {search_code}'),
    description: template.default('{calendar.name}\n{person.email}'),
    /** Pacer per mailbox: Graph allows 10,000 requests per 10 minutes per mailbox and app. */
    requests_per_minute: num(z.number().int().positive().max(1000)).default(600),
    breaker_share: share.default(0.3),
    reverse_sync: microsoftReverseSync.prefault({}),
  })
  .superRefine((m, ctx) => {
    if (!m.enabled) return;
    const issue: Issue = (path, message) => ctx.addIssue({ code: 'custom', path, message });
    if (m.accounts) {
      checkAccounts('microsoft', m.accounts, { credentials: m.credentials, calendars: m.calendars }, ctx);
      m.accounts.forEach((a, i) => {
        checkMicrosoftSignIn(a.tenant ?? m.tenant, a.credentials, a.calendars, ['accounts', i], issue);
      });
      const claims = m.accounts.flatMap((a, i) =>
        a.calendars.map(
          (cal, j): CalendarClaim => ({
            account: i,
            path: ['accounts', i, 'calendars', j],
            identity: microsoftCalendarIdentity(cal.user, cal.calendar),
          }),
        ),
      );
      sharedCalendars('microsoft', claims, ctx);
      return;
    }
    checkMicrosoftSignIn(m.tenant, m.credentials, m.calendars ?? MICROSOFT_CALENDARS_DEFAULT, [], issue);
  })
  .transform((m) => ({ ...m, calendars: m.calendars ?? MICROSOFT_CALENDARS_DEFAULT }));

const feed = z.strictObject({
  name: z.string().min(1),
  token: secret(16),
  filters: feedFilters.prefault({}),
  privacy: z.enum(['full', 'limited', 'busy']).default('full'),
  include_cancelled: bool().default(false),
  title: template.default('{person.full_name}'),
  /** null: the locale's default (services, professional, status in words, contact details as privacy allows). */
  description: template.nullable().default(null),
  refresh_minutes: num(z.number().int().min(1).max(10_080)).default(15),
});

/** Every feed needs its own token: the token is the feed's address. */
const feeds = z.array(feed).superRefine((list, ctx) => {
  const seen = new Map<string, number>();
  list.forEach((f, i) => {
    const first = seen.get(f.token);
    if (first !== undefined) {
      ctx.addIssue({ code: 'custom', path: [i, 'token'], message: `is the same as feeds[${first}].token; every feed needs its own` });
    }
    seen.set(f.token, i);
  });
});

/** smtp:// or smtps://, with the account in the userinfo (percent-encoded); nodemailer reads it as is. */
const smtpUrl = z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL (smtps://user:password@host:465)' });

/** Tell a person when syncing breaks and when it recovers (docs/reference/behaviour.md, "Alerts"). */
const alerts = z.strictObject({
  /** A problem must last this long before it is sent; 0: at once. */
  after_minutes: num(z.number().int().min(0).max(10_080)).default(15),
  /** An ntfy topic URL: the sentence is POSTed to it as text. */
  ntfy: optional(httpUrl),
  /** POSTed JSON {event, key, sentence, since, status_url}. */
  webhook: optional(httpUrl),
  email: z
    .strictObject({
      smtp_url: smtpUrl,
      from: z.email({ error: 'must be an e-mail address' }),
      to: z.array(z.email({ error: 'must be an e-mail address' })).min(1),
    })
    .optional(),
});

export const configSchema = z
  .strictObject({
    server,
    database: database.prefault({}),
    booking,
    webhook,
    poll: poll.prefault({}),
    google: google.optional(),
    caldav: caldav.optional(),
    microsoft: microsoft.optional(),
    feeds: feeds.default([]),
    alerts: alerts.optional(),
    connect: connect.optional(),
  })
  .superRefine((c, ctx) => {
    for (const p of connectProblems(c)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });

export type Config = z.output<typeof configSchema>;

/**
 * Each calendar section as its schema's defaults alone (enabled: false, so nothing is required): the
 * settings of an account connected on the web when the config has no section of its kind.
 */
export function sectionDefaults() {
  return {
    google: google.parse({ enabled: false }),
    caldav: caldav.parse({ enabled: false }),
    microsoft: microsoft.parse({ enabled: false }),
  };
}
export type FeedConfig = Config['feeds'][number];
export type GoogleConfig = NonNullable<Config['google']>;
export type CalDavConfig = NonNullable<Config['caldav']>;
export type MicrosoftConfig = NonNullable<Config['microsoft']>;
export type AlertsConfig = NonNullable<Config['alerts']>;
export type BookingConfig = Config['booking'];
export type PollFilters = Config['poll']['filters'];
export type FeedFilters = FeedConfig['filters'];
