// What the parts are built from: the config, the clock, the logger, the metrics, one booking client,
// and one of each store over the one database. Built once by buildRuntime; a part takes what it
// needs from here and hands its use cases only that.
import { slotLock, type SlotLock } from '../sync/slot-lock.ts';
import type { Config } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { Wake } from '../jobs/job.ts';
import type { BookingApi } from '../booking/port.ts';
import type { HeldWrites } from '../sync/dry-run/planned.ts';
import type { Db } from '../store/db.ts';
import { AppointmentStore } from '../store/appointment-store.ts';
import { atomicOf, type Atomic } from '../store/atomic.ts';
import { ChannelStore } from '../store/channel-store.ts';
import { DeliveryStore } from '../store/delivery-store.ts';
import { FeedFragmentStore } from '../store/feed-fragment-store.ts';
import { LinkStore } from '../store/link-store.ts';
import { KvStore } from '../store/kv-store.ts';
import type { Leases } from '../store/leases.ts';
import { RejectionStore } from '../store/rejection-store.ts';
import { RescheduleStore } from '../store/reschedule-store.ts';
import { ActivityStore } from '../store/activity-store.ts';
import { ConnectStore } from '../store/connect-store.ts';
import { createSealer } from '../core/seal.ts';
import { connectedAccountsOf } from '../sync/connect/connected-accounts.ts';
import { voiceOf } from '../config/voice.ts';
import { configuredSecrets } from '../http/status-page/redact.ts';
import type { ConnectedAccounts } from '../sync/target/connected-account.ts';
import type { ResolveHost } from '../net/address-guard.ts';

export interface TargetStores {
  links: LinkStore;
  actions: RescheduleStore;
  /** Google push channels (only Google accounts open any). */
  channels: ChannelStore;
}

/** What buildRuntime hands in; the services add the stores over its database. */
export interface ServiceDeps {
  config: Config;
  /** The database handle: for the stores below and WAL checkpoints; no use case gets it. */
  db: Db;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  booking: BookingApi;
  /** Runs a job now (or right after its current run). */
  wake: Wake;
  /** Set in a dry run: calendar targets hold their writes back here (see wiring/target-part.ts). */
  held?: HeldWrites;
  /** The scheduler's leases: built before the scheduler, which the wake reaches. */
  leases: Leases;
  /** The calendar accounts connected on the web (sync/target/connected-account.ts); default: none. */
  connectedAccounts?: ConnectedAccounts;
  /**
   * How the address check of CalDAV accounts connected by a link resolves names (net/address-guard.ts);
   * the system's resolver by default. Tests answer through it (a name that answers differently later).
   */
  resolveHost?: ResolveHost;
}

export interface Services extends ServiceDeps {
  /** The accounts connected on the web now; the runtime reads it at start and when `accounts` is woken. */
  connectedAccounts: ConnectedAccounts;
  /** Runs a few store calls as one transaction, for a use case that must commit them together. */
  atomic: Atomic;
  appointments: AppointmentStore;
  deliveries: DeliveryStore;
  rejections: RejectionStore;
  /** A calendar target account's links, reverse-sync actions and push channels (`google.default`): the same stores over its own rows. */
  targetStores(account: string): TargetStores;
  /** Reverse-sync actions across every account: retention's prune, the activity's echo check. */
  anyActions: RescheduleStore;
  fragments: FeedFragmentStore;
  /** Recent activity in words (status page, /api/status); booking changes are recorded as they are stored. */
  activity: ActivityStore;
  kv: KvStore;
  cursors: KvStore;
  /** Invites and the accounts connected through them (credentials sealed under server.secret_key). */
  connections: ConnectStore;
  /** One move at a time takes a booking slot, whichever calendar it was made in. */
  slotLock: SlotLock;
}

export function createServices(deps: ServiceDeps): Services {
  const { db, clock } = deps;
  const appointments = new AppointmentStore(db, clock);
  const stores = new Map<string, TargetStores>();
  const targetStores = (account: string) => {
    let s = stores.get(account);
    if (!s)
      stores.set(
        account,
        (s = {
          links: new LinkStore(db, clock, account),
          actions: new RescheduleStore(db, clock, account),
          channels: new ChannelStore(db, clock, account),
        }),
      );
    return s;
  };
  // The booking service's echo of a reschedule sent for any target is not news.
  const anyActions = new RescheduleStore(db, clock, '*');
  const latestOfAny = { latest: (key: string) => anyActions.latestOfAny(key) };
  const activity = new ActivityStore(db, clock, appointments, latestOfAny, configuredSecrets(deps.config), voiceOf(deps.config));
  // A bulk import's new appointments are told in one entry, by the poll that stored them.
  appointments.changes.subscribe(
    ({ key, before, imported }) => void (imported || activity.record({ kind: 'booking', key, ...(before ? { before } : {}) })),
  );
  const secretKey = deps.config.server.secret_key;
  const connections = new ConnectStore(db, clock, secretKey ? createSealer(secretKey) : undefined);
  return {
    ...deps,
    connections,
    connectedAccounts: deps.connectedAccounts ?? connectedAccountsOf(connections, deps.config, clock),
    atomic: atomicOf(db),
    appointments,
    deliveries: new DeliveryStore(db),
    rejections: new RejectionStore(db),
    targetStores,
    anyActions,
    activity,
    fragments: new FeedFragmentStore(db),
    kv: new KvStore(db, clock, 'kv'),
    cursors: new KvStore(db, clock, 'sync_cursors'),
    slotLock: slotLock(),
  };
}
