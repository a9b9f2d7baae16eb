// What an operator reads of a running daemon, through its own app (no socket): the status page,
// /api/status and /metrics with the admin token, /readyz without, as a probe asks. The target
// status tests (Microsoft, CalDAV) read the same pages; one place keeps the token header and the
// schema check of /api/status the same for each.
import { statusDocument, type StatusDocument } from '../../src/status/status-document.ts';
import type { Runtime } from '../../src/wiring/runtime.ts';

export interface Answer {
  status: number;
  text: string;
}

export interface OperatorView {
  /** GET `path` with the admin token. */
  get(path: string): Promise<Answer>;
  /** /api/status, checked against the status document's schema. */
  apiStatus(): Promise<StatusDocument>;
  /** /readyz without a token. */
  readyz(): Promise<Answer>;
}

/** Marks the runtime serving (as `serve` does once started, so /readyz judges the parts) and reads it as an operator. */
export function startServing(runtime: Runtime, adminToken: string): OperatorView {
  runtime.lifecycle.set('serving');
  const answer = async (res: Response): Promise<Answer> => ({ status: res.status, text: await res.text() });
  const get = async (path: string) => answer(await runtime.app.request(path, { headers: { authorization: `Bearer ${adminToken}` } }));
  return {
    get,
    apiStatus: async () => statusDocument.parse(JSON.parse((await get('/api/status')).text)),
    readyz: async () => answer(await runtime.app.request('/readyz')),
  };
}
