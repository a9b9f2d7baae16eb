// When the booking API last answered successfully, and its last error: /readyz and status read
// it. Kept in sync_cursors, so a one-shot `status` sees what `serve` saw.
import type { Clock } from '../core/clock.ts';
import type { KvStore } from '../store/kv-store.ts';

const OK = 'booking.last_ok_at';
const ERROR = 'booking.last_error';

export interface BookingHealthState {
  lastOkAt: number | null;
  lastError: { at: number; message: string } | null;
}

/** A success is stored at most this often: the worker re-reads hundreds of records a second. */
const OK_EVERY_MS = 1000;

export class BookingHealth {
  /** The latest success in this process, and when one was last stored. */
  private lastOk: number | null = null;
  private storedOk = -Infinity;

  constructor(
    private readonly cursors: KvStore,
    private readonly clock: Clock,
  ) {}

  /** The API answered (a 404 is an answer too). */
  ok(): void {
    const now = this.clock.now();
    this.lastOk = now;
    if (Math.abs(now - this.storedOk) >= OK_EVERY_MS) {
      this.cursors.set(OK, now);
      this.storedOk = now;
    }
  }

  failed(message: string): void {
    this.cursors.set(ERROR, { at: this.clock.now(), message });
  }

  state(): BookingHealthState {
    const stored = this.cursors.get<number>(OK) ?? null;
    return {
      lastOkAt: stored === null || this.lastOk === null ? (stored ?? this.lastOk) : Math.max(stored, this.lastOk),
      lastError: this.cursors.get<{ at: number; message: string }>(ERROR) ?? null,
    };
  }
}
