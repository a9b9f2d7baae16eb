// One Microsoft account's connection: its token source, its Graph client (one lane per mailbox)
// and the calendar target over them. The wiring builds one per account; tests build one against the
// simulator.
import type { Clock } from '../core/clock.ts';
import { realSleep, type Sleep } from '../net/pacer.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../net/retry-policy.ts';
import { createTokenSource, type Credentials } from './auth.ts';
import type { DeltaWindow } from './change-feed.ts';
import type { GraphError } from './errors.ts';
import { GraphHttp, type GraphHttpOptions } from './graph-http.ts';
import type { GraphIds } from './graph-ids.ts';
import { createGraphTarget, type GraphTarget } from './graph-target.ts';

export interface GraphConnectionOptions {
  authorityUrl: string;
  tenant: string;
  graphRoot: string;
  clientId: string;
  credentials: Credentials;
  /** microsoft.requests_per_minute: the pacer of each mailbox. */
  requestsPerMinute: number;
  ids: GraphIds;
  window: () => DeltaWindow;
  clock: Clock;
  sleep?: Sleep;
  policy?: RetryPolicy;
  timeoutMs?: number;
  onCall?: GraphHttpOptions['onCall'];
}

export interface GraphConnection {
  http: GraphHttp;
  target: GraphTarget;
  /** The last failure to get a token (refused credentials show in status), null once one worked. */
  authError(): GraphError | null;
}

export function connectGraph(o: GraphConnectionOptions): GraphConnection {
  const sleep = o.sleep ?? realSleep;
  const tokens = createTokenSource({
    authorityUrl: o.authorityUrl,
    tenant: o.tenant,
    graphRoot: o.graphRoot,
    clientId: o.clientId,
    credentials: o.credentials,
    clock: o.clock,
    sleep,
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
  });
  const http = new GraphHttp({
    graphRoot: o.graphRoot,
    tokens,
    requestsPerMinute: o.requestsPerMinute,
    clock: o.clock,
    sleep,
    policy: o.policy ?? DEFAULT_RETRY,
    timeoutMs: o.timeoutMs ?? 30_000,
    ...(o.onCall ? { onCall: o.onCall } : {}),
  });
  return {
    http,
    target: createGraphTarget({ http, ids: o.ids, graphRoot: o.graphRoot, window: o.window }),
    authError: () => tokens.lastError(),
  };
}
