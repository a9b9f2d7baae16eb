// Everything a part needs, built once by main.ts (the composition root) and passed in.
import type { Config } from './config/schema.ts';
import type { Clock } from './core/clock.ts';
import type { Db } from './store/db.ts';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics.ts';
import type { AppointmentStore } from './store/appointment-store.ts';
import type { Leases } from './store/leases.ts';
import type { KvStore } from './store/kv-store.ts';
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
