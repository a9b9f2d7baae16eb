// Shared set-up for booking tests: a simulator on a random port and a client pointed at it whose
// retry waits are recorded instead of slept.
import { afterEach } from 'vitest';
import { BookingClient, type BookingClientOptions } from '../../src/booking/client.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/booking/simulator/index.ts';
import { silentLogger } from '../../src/log.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ timezone: 'America/Sao_Paulo', ...options });
  onCleanup(() => sim.close());
  return sim;
}

export function clientFor(sim: Simulator, options: Partial<BookingClientOptions> = {}): { client: BookingClient; waits: number[] } {
  const waits: number[] = [];
  const client = new BookingClient({
    baseUrl: sim.url,
    token: sim.token,
    timezone: 'America/Sao_Paulo',
    timeoutMs: 5000,
    arrayFormat: 'repeat',
    maxPages: 50,
    log: silentLogger(),
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return { client, waits };
}

export async function collect(pages: AsyncIterable<unknown[]>): Promise<Record<string, unknown>[][]> {
  const out: Record<string, unknown>[][] = [];
  for await (const page of pages) out.push(page as Record<string, unknown>[]);
  return out;
}

export const keysOf = (pages: Record<string, unknown>[][]): string[] =>
  pages
    .flat()
    .map((r) => String(r.appointment_key))
    .sort();
