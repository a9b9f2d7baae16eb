// A typed signal: what changed, announced to whoever subscribed. The store announces committed
// changes with one, and the wiring decides who hears them (feeds, the Google writer).

export class Signal<T> {
  private readonly listeners = new Set<(change: T) => void>();

  /** Returns the unsubscribe function. */
  subscribe(listener: (change: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(change: T): void {
    for (const listener of this.listeners) listener(change);
  }
}
