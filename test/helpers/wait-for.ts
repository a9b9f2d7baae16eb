// Waiting on state, never on speed: a process test polls for what it needs to see, for as long as a
// loaded machine may take, and fails at once (with the process's output) when the calbridge process
// it waits on has ended instead. A count of attempts or a short deadline would assume a fast machine.

/** Most of a process test's minute: long enough for two busy cores, short enough to fail with a message. */
export const PATIENCE_MS = 45_000;

type Maybe<T> = T | undefined | null | false;

export interface WaitOptions {
  /** The process whose end means the state will never come. */
  process?: { hasExited(): boolean; output(): string };
  /** Give up after this long (default PATIENCE_MS). */
  ms?: number;
  /** Between two looks (default 100 ms). */
  everyMs?: number;
}

/** Resolves with the first value `check` gives that is not undefined, null or false. */
export async function waitFor<T>(what: string, check: () => Maybe<T> | Promise<Maybe<T>>, options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.ms ?? PATIENCE_MS);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (options.process?.hasExited()) throw new Error(`calbridge ended before ${what}:\n${options.process.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${options.process ? `:\n${options.process.output()}` : ''}`);
    await new Promise((r) => setTimeout(r, options.everyMs ?? 100));
  }
}

/** Whether a daemon at `base` answers /healthz with 200 now. */
export const healthy = (base: string): Promise<boolean> =>
  fetch(`${base}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
