// The booking simulator on a random 127.0.0.1 port and a real BookingClient pointed at it, with
// retries off by default so failures show at once. Close the simulator in afterEach.
import { BookingClient, type BookingClientOptions } from '../../src/booking/client.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/booking/simulator/index.ts';
import { silentLogger } from '../../src/log.ts';

export const TEST_ZONE = 'America/Sao_Paulo';

export function startTestSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ timezone: TEST_ZONE, ...options });
}

export function simulatorClient(sim: Simulator, options: Partial<BookingClientOptions> = {}): BookingClient {
  return new BookingClient({
    baseUrl: sim.url,
    token: sim.token,
    timezone: TEST_ZONE,
    timeoutMs: 5000,
    arrayFormat: 'repeat',
    maxPages: 100,
    log: silentLogger(),
    maxRetries: 0,
    sleep: async () => undefined,
    ...options,
  });
}

/** The simulator's requests of one kind so far, e.g. count('GET', '/api/v3/appointments/k/'). */
export function countRequests(sim: Simulator, method: string, path: string | RegExp): number {
  return sim.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))).length;
}
