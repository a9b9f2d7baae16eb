// A typed signal: what changed, announced to whoever subscribed. The store announces committed
// changes with one, and the wiring decides who hears them (feeds, the Google writer).

export class Signal<T> {
  private readonly listeners = new Set<(change: T) => void>();
  private held: T[] | null = null;

  /** Returns the unsubscribe function. */
  subscribe(listener: (change: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(change: T): void {
    if (this.held) this.held.push(change);
    else for (const listener of this.listeners) listener(change);
  }

  /**
   * Runs fn, keeping what it emits until fn returns, then announcing it; nothing when fn throws.
   * For a caller that commits several changes in one outer transaction: listeners hear of them once
   * they are committed, not while the transaction is still open.
   */
  hold<R>(fn: () => R): R {
    if (this.held) return fn(); // already held further out: that one announces
    this.held = [];
    let changes: T[];
    let result: R;
    try {
      result = fn();
    } finally {
      changes = this.held;
      this.held = null;
    }
    for (const change of changes) this.emit(change);
    return result;
  }
}
