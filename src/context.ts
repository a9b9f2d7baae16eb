// Everything a part needs, built once by main.ts (the composition root) and passed in.
import type { Config } from './config/schema.ts';
import type { Clock } from './core/clock.ts';
import type { Db } from './store/db.ts';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics.ts';
import { AppointmentStore } from './store/appointment-store.ts';
import { Leases } from './store/leases.ts';
import { KvStore } from './store/kv-store.ts';
import type { BookingApi } from './booking/port.ts';

export interface Context {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  appointments: AppointmentStore;
  leases: Leases;
  kv: KvStore;
  cursors: KvStore;
  booking: BookingApi;
  /** Wakes a job by name early (a new delivery, a push notification); a no-op outside `serve`. */
  wake(job: string): void;
}

export interface ContextDeps {
  config: Config;
  /** Opened by openDatabase (migrations applied). */
  db: Db;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  booking: BookingApi;
  /** Lease owner id: leaseOwner(...) in a daemon, any unique string elsewhere. */
  leaseOwner: string;
  wake(job: string): void;
}

/** The stores over one database, and the given adapters: the one way a Context is made. */
export function createContext(deps: ContextDeps): Context {
  const { db, clock } = deps;
  return {
    config: deps.config,
    db,
    clock,
    log: deps.log,
    metrics: deps.metrics,
    appointments: new AppointmentStore(db, clock),
    leases: new Leases(db, clock, deps.leaseOwner),
    kv: new KvStore(db, clock, 'kv'),
    cursors: new KvStore(db, clock, 'sync_cursors'),
    booking: deps.booking,
    wake: deps.wake,
  };
}
