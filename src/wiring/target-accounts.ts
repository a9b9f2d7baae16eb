// Every calendar account as a part of the daemon, and the set of them changing while serving. The
// config's accounts (config/accounts.ts: `accounts:` or the single form, `default`) are built once;
// the accounts connected on the web (`Services.connectedAccounts`) are read at start, again when
// `accounts` is woken (after a person confirms, or an admin removes one) and once per poll period
// as a safety net. A new one gets its part at once: its jobs on the scheduler, its status section,
// its readiness and its push receiver; a removed one's jobs are taken off and its part stopped (its
// links stay, and so do its events). The push routes are mounted once and ask the accounts of the
// moment, so an account added later is reached by them too.
import { Hono } from 'hono';
import { sectionSettings } from '../config/accounts.ts';
import type { Config } from '../config/schema.ts';
import { hashOf } from '../core/hash.ts';
import type { Job, JobName } from '../jobs/job.ts';
import { googleNotificationRoutes } from '../http/google-notification-routes.ts';
import { microsoftNotificationRoutes } from '../http/microsoft-notification-routes.ts';
import { readNotices } from '../microsoft/subscriptions.ts';
import { accountId, targetJobs } from '../sync/target/adapter.ts';
import type { ConnectedAccount } from '../sync/target/connected-account.ts';
import type { Part, PushReceiver } from './part.ts';
import type { AccountSpec } from './account-spec.ts';
import type { Services } from './services.ts';

/** Where an account's jobs run: the scheduler (tests: a fake). */
export interface JobHost {
  add(job: Job): void;
  remove(name: JobName): Promise<void>;
}

export interface TargetAccounts {
  /** Every account's part now: the config's in the order written (google, caldav, microsoft), then the connected ones. */
  parts(): Part[];
  /** POST /google/notifications, /microsoft/notifications and /microsoft/lifecycle, for every account. */
  routes: Hono;
  /**
   * Its own part, listed before the accounts': the `accounts` job (reads the connected accounts again,
   * builds the new ones and drops the removed ones); its start marks serve as started, so accounts
   * added from then on are started as they come.
   */
  part: Part;
}

/** An account connected on the web, as an account of the config: its kind's section settings, its own credentials and one calendar. */
function connectedSpec(config: Config, a: ConnectedAccount): AccountSpec {
  const base = sectionSettings(config);
  switch (a.kind) {
    case 'google':
      return {
        kind: 'google',
        name: a.name,
        connected: true,
        config: { ...base.google, credentials: { ...a.client }, calendars: [{ calendar_key: a.calendarKey, calendar_id: a.calendar }] },
        tokens: a.tokens,
      };
    case 'microsoft':
      return {
        kind: 'microsoft',
        name: a.name,
        connected: true,
        config: {
          ...base.microsoft,
          tenant: a.client.tenant,
          credentials: { client_id: a.client.client_id },
          calendars: [{ calendar_key: a.calendarKey, user: 'me', calendar: a.calendar }],
        },
        tokens: a.tokens,
        ...(a.client.client_secret ? { clientSecret: a.client.client_secret } : {}),
      };
    case 'caldav':
      return {
        kind: 'caldav',
        name: a.name,
        connected: true,
        config: {
          ...base.caldav,
          url: a.url,
          username: a.username,
          password: a.password,
          calendars: [{ calendar_key: a.calendarKey, calendar: a.calendar }],
        },
      };
  }
}

/** What identifies a connected account's part: a change in any of it (another calendar, a new password) builds it anew. */
function fingerprint(a: ConnectedAccount): string {
  const { tokens: _tokens, ...rest } = a as ConnectedAccount & { tokens?: unknown };
  return hashOf(JSON.stringify(rest));
}

export function createTargetAccounts(
  s: Services,
  d: { configured: AccountSpec[]; build(spec: AccountSpec): Part; jobs: JobHost },
): TargetAccounts {
  const log = s.log.child({ module: 'accounts' });
  const configured = d.configured.map((spec) => d.build(spec));
  const taken = new Set(d.configured.map((spec) => accountId(spec)));
  const connected = new Map<string, { part: Part; print: string; writer: JobName }>();
  let serving = false;
  /** Names already warned about (a config account of the same name): said once, not every poll period. */
  const clashes = new Set<string>();
  const clash = (id: string) => {
    if (!clashes.has(id)) log.warn({ account: id }, 'a connected account has the name of an account in the config; the config one is used');
    clashes.add(id);
  };

  /** Builds its part; `register`: its jobs go on the scheduler now (the runtime registers those of the first read itself). */
  const add = (a: ConnectedAccount, register: boolean): void => {
    const id = accountId(a);
    const part = d.build(connectedSpec(s.config, a));
    connected.set(id, { part, print: fingerprint(a), writer: targetJobs(a).writer });
    if (register) for (const job of part.jobs ?? []) d.jobs.add(job);
  };
  const drop = async (id: string): Promise<void> => {
    const entry = connected.get(id);
    if (!entry) return;
    connected.delete(id);
    for (const job of entry.part.jobs ?? []) await d.jobs.remove(job.name);
    await entry.part.stop?.();
  };

  /** Reads the connected accounts; returns the ids added and removed. */
  const refresh = async (): Promise<{ added: string[]; removed: string[] }> => {
    const now = new Map<string, ConnectedAccount>();
    for (const a of s.connectedAccounts()) {
      const id = accountId(a);
      // Refused at invite time; a config edited since then wins, and says so.
      if (taken.has(id)) clash(id);
      else now.set(id, a);
    }
    const removed = [...connected.keys()].filter(
      (id) => now.get(id) === undefined || fingerprint(now.get(id)!) !== connected.get(id)!.print,
    );
    for (const id of removed) await drop(id);
    const added = [...now.keys()].filter((id) => !connected.has(id));
    for (const id of added) {
      try {
        add(now.get(id)!, true);
      } catch (e) {
        log.warn({ err: e, account: id }, 'a connected account could not be set up');
        continue;
      }
      const entry = connected.get(id)!;
      if (serving) await entry.part.start?.().catch((e: unknown) => log.warn({ err: e, account: id }, 'part start failed'));
      s.wake(entry.writer);
    }
    // An account whose settings changed was dropped and built anew: told as neither.
    const fresh = added.filter((id) => !removed.includes(id));
    const gone = removed.filter((id) => !added.includes(id));
    if (fresh.length || gone.length) log.info({ added: fresh, removed: gone }, 'connected accounts changed');
    return { added, removed };
  };

  // Read at start: a one-shot `sync` mirrors the connected accounts too.
  for (const a of s.connectedAccounts()) {
    const id = accountId(a);
    if (taken.has(id)) {
      clash(id);
      continue;
    }
    try {
      add(a, false);
    } catch (e) {
      log.warn({ err: e, account: id }, 'a connected account could not be set up');
    }
  }

  const parts = () => [...configured, ...[...connected.values()].map((e) => e.part)];
  const receivers = (kind: PushReceiver['kind']) => parts().flatMap((p) => (p.push?.kind === kind ? [p.push] : []));
  const findGoogle = (channelId: string) => {
    for (const r of receivers('google')) {
      const token = r.secretOf(channelId);
      if (token !== undefined) return { r, token };
    }
    return undefined;
  };
  const findMicrosoft = (subscription: string) => {
    for (const r of receivers('microsoft')) {
      const state = r.secretOf(subscription);
      if (state !== undefined) return { r, state };
    }
    return undefined;
  };
  const routes = new Hono();
  routes.route(
    '/',
    googleNotificationRoutes({
      liveChannelToken: (id) => findGoogle(id)?.token,
      wake: (id) => findGoogle(id)?.r.changed(id),
    }),
  );
  routes.route(
    '/',
    microsoftNotificationRoutes({
      clientStateOf: (id) => findMicrosoft(id)?.state,
      readNotices,
      changed: (id) => findMicrosoft(id)?.r.changed(id),
      lifecycle: (id, event) => findMicrosoft(id)?.r.lifecycle?.(id, event),
    }),
  );

  return {
    parts,
    routes,
    part: {
      name: 'accounts',
      jobs: [
        {
          name: 'accounts',
          schedule: s.config.poll.schedule,
          inSync: false,
          async run() {
            const { added, removed } = await refresh();
            if (!added.length && !removed.length) return { status: 'success', idle: true };
            return { status: 'success', summary: `${added.length} accounts added, ${removed.length} removed` };
          },
        },
      ],
      async start() {
        serving = true;
      },
    },
  };
}
