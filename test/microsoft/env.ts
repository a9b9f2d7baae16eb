// A Microsoft account's connection against the Graph simulator, for the tests of the adapter.
import { systemClock } from '../../src/core/clock.ts';
import { PROP_HASH, PROP_KEY, type EventBody } from '../../src/core/mirror/desired-event.ts';
import type { Credentials } from '../../src/microsoft/auth.ts';
import { connectGraph, type GraphConnection } from '../../src/microsoft/connect.ts';
import { memoryGraphIds, type GraphIds } from '../../src/microsoft/graph-ids.ts';
import type { GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import type { RetryPolicy } from '../../src/net/retry-policy.ts';

export const MAILBOX = 'ana@clinic.example';
export const TENANT = 'b2c1a5e4-0d1f-4c6a-9f1e-3c2d4b5a6e7f';
export const CLIENT_ID = '6731de76-14a6-49ae-97bc-6eba6914391e';
export const CLIENT_SECRET = 'q8Q~simulated-client-secret';
const H = 3_600_000;
const FAST: RetryPolicy = { retries: 6, baseMs: 2, maxMs: 50 };

export interface Env {
  connection: GraphConnection;
  ids: GraphIds;
}

export function connect(
  sim: GraphSimulator,
  o: { credentials?: Credentials; tenant?: string; policy?: RetryPolicy; rpm?: number; ids?: GraphIds } = {},
): Env {
  const ids = o.ids ?? memoryGraphIds();
  const connection = connectGraph({
    authorityUrl: sim.authorityUrl,
    graphRoot: sim.graphRoot,
    tenant: o.tenant ?? TENANT,
    clientId: CLIENT_ID,
    credentials: o.credentials ?? { kind: 'app', clientSecret: CLIENT_SECRET },
    requestsPerMinute: o.rpm ?? 100_000,
    ids,
    window: () => ({ start: Date.UTC(2026, 5, 1), end: Date.UTC(2026, 6, 31) }),
    clock: systemClock,
    policy: o.policy ?? FAST,
    timeoutMs: 5000,
  });
  return { connection, ids };
}

/** Our event for appointment `key` at that hour (UTC) on 2026-06-15, in São Paulo's zone. */
export function body(key: string, hourUtc: number, hash = 'h1'): EventBody {
  const start = Date.UTC(2026, 5, 15, hourUtc);
  const local = (ms: number) => `${new Date(ms - 3 * H).toISOString().slice(0, 19)}-03:00`;
  return {
    summary: `Ana · ${key}`,
    description: 'Clinic',
    status: 'confirmed',
    start: { dateTime: local(start), timeZone: 'America/Sao_Paulo' },
    end: { dateTime: local(start + H), timeZone: 'America/Sao_Paulo' },
    privateProperties: { [PROP_KEY]: key, calbridge_revision: '1', [PROP_HASH]: hash },
  };
}

export const at = (hourUtc: number) => Date.UTC(2026, 5, 15, hourUtc);
