// Group commit for webhook deliveries: every delivery that arrives while the event loop is busy
// shares the next transaction, and each caller is answered only after that commit. One fsync-free
// WAL commit per batch instead of per request keeps durability close to the bare request rate.
import type { DeliveryStore, NewDelivery } from './delivery-store.ts';

export type WriteOutcome = 'stored' | 'duplicate';

interface Waiting {
  delivery: NewDelivery;
  resolve(outcome: WriteOutcome): void;
  reject(error: unknown): void;
}

export interface DeliveryWriterOptions {
  /** Largest batch in one transaction; more waits for the next turn. */
  maxBatch?: number;
  /** Called after a commit that stored at least one new delivery (wakes the worker). */
  onStored?: (count: number) => void;
}

export class DeliveryWriter {
  private queue: Waiting[] = [];
  private scheduled = false;
  private readonly maxBatch: number;

  constructor(
    private readonly store: DeliveryStore,
    private readonly options: DeliveryWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 512;
  }

  /** Resolves once the delivery is committed (or known already); rejects when storage failed. */
  write(delivery: NewDelivery): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      this.schedule();
    });
  }

  /** Commits whatever is queued now (graceful stop). */
  flush(): void {
    while (this.queue.length) this.commit();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the I/O callbacks of this turn: requests read in the same turn share a batch.
    setImmediate(() => {
      this.scheduled = false;
      this.commit();
      if (this.queue.length) this.schedule();
    });
  }

  private commit(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    let fresh: boolean[];
    try {
      fresh = this.store.insertMany(batch.map((w) => w.delivery));
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    batch.forEach((w, i) => {
      w.resolve(fresh[i] ? 'stored' : 'duplicate');
    });
    const stored = fresh.filter(Boolean).length;
    if (stored > 0) this.options.onStored?.(stored);
  }
}
