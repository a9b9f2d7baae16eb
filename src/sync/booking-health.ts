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

export class BookingHealth {
  constructor(
    private readonly cursors: KvStore,
    private readonly clock: Clock,
  ) {}

  /** The API answered (a 404 is an answer too). */
  ok(): void {
    this.cursors.set(OK, this.clock.now());
  }

  failed(message: string): void {
    this.cursors.set(ERROR, { at: this.clock.now(), message });
  }

  state(): BookingHealthState {
    return {
      lastOkAt: this.cursors.get<number>(OK) ?? null,
      lastError: this.cursors.get<{ at: number; message: string }>(ERROR) ?? null,
    };
  }
}
