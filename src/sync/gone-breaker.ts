// The deletion breaker by rate. Every path that makes an appointment gone (a 404 on a webhook's
// re-read, on the poll's re-read or on the reverse sync's, a record outside poll.filters) asks here
// first, so deletions that trickle in one by one stop as surely as a mass deletion in one poll. At
// most `perHour` appointments become gone in any rolling hour; beyond that they are held: left as
// they were, listed in status, counted in metrics, and re-read by every poll until the rate drops or
// `sync --allow-mass-changes` lets them through. The rate is read from the appointments table
// (gone_at_ms), so `serve` and a one-shot `sync` share it.
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { KvStore } from '../store/kv-store.ts';

const HOUR = 3_600_000;
const HELD = 'gone_breaker.held';
/** Held appointments kept by key (the newest); beyond them more are still held, but re-read only in the poll window. */
const KEEP_HELD = 500;

export type GoneVerdict = 'gone' | 'held' | 'unchanged';

export interface HeldGone {
  key: string;
  reason: string;
  /** When it was first held; its row not seen alive since (seen_at_ms) means it still is. */
  since: number;
}

export interface GoneBreakerDeps {
  appointments: AppointmentStore;
  cursors: KvStore;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  /** poll.max_gone_per_hour; Infinity turns the breaker off (`sync --allow-mass-changes`). */
  perHour: number;
}

export class GoneBreaker {
  /** The rate was full when last counted; it cannot drop below the limit before this time. */
  private fullUntil = 0;
  private readonly heldTotal;
  private readonly heldNow;

  constructor(private readonly d: GoneBreakerDeps) {
    this.heldTotal = d.metrics.counter(
      'appointments_gone_held_total',
      'Appointments the deletion breaker kept from becoming gone, by reason, counted once when first held',
      ['reason'],
    );
    this.heldNow = d.metrics.gauge(
      'appointments_gone_held',
      'Appointments held by the deletion breaker now (as last seen by this process)',
    );
  }

  get perHour(): number {
    return this.d.perHour;
  }

  /** Makes a stored appointment gone if the rate allows it; 'unchanged' when it is unknown or gone already. */
  markGone(key: string, reason: string): GoneVerdict {
    const stored = this.d.appointments.get(key);
    if (!stored || stored.goneAt !== null) return 'unchanged';
    if (this.full()) {
      this.hold(key, reason, stored.seenAt);
      return 'held';
    }
    if (!this.d.appointments.markGone(key, reason)) return 'unchanged';
    if (this.entries().some((e) => e.key === key)) this.save(this.entries().filter((e) => e.key !== key));
    return 'gone';
  }

  /** Appointments held now: neither gone since, nor seen alive since they were first held. */
  held(): HeldGone[] {
    return this.entries().filter((e) => {
      const s = this.d.appointments.get(e.key);
      return s !== undefined && s.goneAt === null && s.seenAt <= e.since;
    });
  }

  /** Forgets the held ones that are held no more (the poll calls it after each pass). */
  prune(): void {
    const before = this.entries();
    const now = this.held();
    if (now.length !== before.length) this.save(now);
  }

  /** Appointments that became gone in the last hour. */
  goneLastHour(): number {
    return this.d.appointments.goneTimesSince(this.d.clock.now() - HOUR).length;
  }

  /** For readiness: held entries as stored, without re-checking each row. */
  heldCount(): number {
    return this.entries().length;
  }

  private full(): boolean {
    if (!Number.isFinite(this.d.perHour)) return false;
    const now = this.d.clock.now();
    if (now <= this.fullUntil) return true;
    const times = this.d.appointments.goneTimesSince(now - HOUR);
    if (times.length < this.d.perHour) return false;
    // It stays full until the oldest of the newest `perHour` leaves the rolling hour.
    this.fullUntil = (times[times.length - this.d.perHour] ?? now) + HOUR;
    return true;
  }

  private hold(key: string, reason: string, seenAt: number): void {
    const entries = this.entries();
    const had = entries.find((e) => e.key === key);
    if (had && seenAt <= had.since) return; // held again by a later re-read: nothing new
    this.save([...entries.filter((e) => e.key !== key), { key, reason, since: this.d.clock.now() }]);
    this.heldTotal.inc({ reason });
    this.d.log.warn(
      { appointment: key, reason, limit: this.d.perHour },
      'deletion breaker: more appointments became gone in the last hour than poll.max_gone_per_hour; this one is held as it was',
    );
  }

  private entries(): HeldGone[] {
    return this.d.cursors.get<HeldGone[]>(HELD) ?? [];
  }

  private save(entries: HeldGone[]): void {
    const kept = entries.slice(-KEEP_HELD);
    this.d.cursors.set(HELD, kept);
    this.heldNow.set(kept.length);
  }
}
