// Background work gives way to the webhook receiver. The delivery worker shares the event loop
// with the receiver; each re-read and its commit are a few hundred microseconds of synchronous
// work, and a backlog of thousands of them would otherwise stand between webhooks and their 200s.
//
// So while webhooks arrive, the worker takes at most a small share of the event loop: after a step
// that kept the loop for t ms, its next step waits t·(1 − share)/share ms. While it waits, the
// deliveries it has not read yet pile up per appointment, where one re-read settles them all
// (DeliveryStore.settle): the busier the receiver, the less background work per webhook. Once the
// receiver has been idle for `idleMs`, the worker runs flat out, so a burst of changes at a calm
// moment reaches Google at once. The share also guarantees progress: a receiver that is never idle
// still sees its backlog drain, slowly.
//
// Chosen over a worker thread with its own SQLite connection: a second V8 isolate costs RSS for as
// long as it lives (the idle footprint counts), the apply path (feed fragments, the writers' change
// signal, metrics, activity) would have to cross threads as messages, and both connections would
// still take turns at SQLite's one write lock. BENCHMARKS.md, "The whole daemon under load", measures the result.

export interface ReceiverGateOptions {
  /** The receiver counts as busy until it has been idle this long. */
  idleMs?: number;
  /** The largest share of the event loop background work takes while the receiver is busy. */
  share?: number;
  now?: () => number;
}

export class ReceiverGate {
  private inFlight = 0;
  private lastActiveAt = Number.NEGATIVE_INFINITY;
  /** When background work may take its next step while the receiver is busy. */
  private nextStepAt = Number.NEGATIVE_INFINITY;
  private readonly idleMs: number;
  private readonly share: number;
  private readonly now: () => number;
  /** Background steps waiting for their turn, first come first served. */
  private readonly waiting: (() => void)[] = [];
  /** Whether a look at the waiting steps is scheduled (one at a time, however many wait). */
  private looking = false;

  constructor(options: ReceiverGateOptions = {}) {
    this.idleMs = options.idleMs ?? 20;
    // A twentieth rather than a tenth: measured in turns, more acks at 20 connections and fewer
    // re-reads per webhook (more deliveries settled by each); the whole-daemon bench in BENCHMARKS.md.
    // What the worker counts is its synchronous steps; the re-reads' answers, read in I/O callbacks,
    // add about half as much again.
    this.share = options.share ?? 0.05;
    this.now = options.now ?? (() => performance.now());
  }

  /** A webhook request is being answered. */
  begin(): void {
    this.inFlight++;
    this.lastActiveAt = this.now();
  }

  /** ...and has been answered. */
  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.lastActiveAt = this.now();
  }

  /** True while a webhook is being answered or was within the last `idleMs`. */
  busy(): boolean {
    return this.inFlight > 0 || this.now() - this.lastActiveAt < this.idleMs;
  }

  /** Background work kept the event loop for `ms` (measured by it): its next step waits accordingly. */
  spent(ms: number): void {
    const at = this.now();
    // Steps taken while the receiver was idle leave no debt for when it gets busy.
    if (!this.busy()) this.nextStepAt = at;
    else this.nextStepAt = Math.max(this.nextStepAt, at) + (ms * (1 - this.share)) / this.share;
  }

  /**
   * Resolves when background work may take its next step: at once while the receiver is idle,
   * else when its share allows. Always lets the I/O that is ready be read first (a setImmediate),
   * so a request that arrived meanwhile counts. Steps are let through one at a time, the next only
   * after the last one's synchronous part has run (and told `spent`), with one timer for all
   * waiting steps: the worker's concurrent re-reads each polling with a timer of their own made
   * thousands of timers and promises a second under a steady stream of webhooks.
   */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.lookIn(0);
    });
  }

  private lookIn(ms: number): void {
    if (this.looking) return;
    this.looking = true;
    const look = () => {
      this.looking = false;
      this.letOneThrough();
    };
    if (ms <= 0) setImmediate(look);
    else setTimeout(look, ms);
  }

  private letOneThrough(): void {
    const next = this.waiting[0];
    if (!next) return;
    const wait = this.nextStepAt - this.now();
    // Looked at again at least every idleMs: a receiver that fell idle meanwhile frees the worker.
    if (this.busy() && wait > 0) {
      this.lookIn(Math.max(1, Math.min(wait, this.idleMs)));
      return;
    }
    this.waiting.shift();
    next();
    // Its step runs as a microtask before the next immediate, so the next look sees what it spent.
    if (this.waiting.length) this.lookIn(0);
  }
}
