// Long feed work (an assembly, a pass over every stored row) is cut into slices of a few
// milliseconds, letting the event loop go between them: in one piece it held webhooks and /healthz
// for up to a second at 100,000 appointments.

// Work lets the event loop go once it has run this long (answering a webhook takes far less).
const SLICE_MS = 10;

export class FeedCacheStopped extends Error {
  constructor() {
    super('the feeds stopped while a feed was being assembled or its members brought up to date');
  }
}

/** Lets the event loop go (to answer what came meanwhile) once SLICE_MS of work is done. */
export class Slice {
  private started = performance.now();

  constructor(private readonly stopped: () => boolean) {}

  /** The next pause lets the event loop go, however little was done. */
  endNow(): void {
    this.started = -Infinity;
  }

  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The daemon stopped meanwhile (its database closes): the work ends here, before it reads again.
    if (this.stopped()) throw new FeedCacheStopped();
    this.started = performance.now();
  }
}
