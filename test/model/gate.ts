// What a killed process can no longer do, for a daemon that runs in this process: once cut, nothing
// it sends reaches the booking service, Google or the CalDAV server, and no answer to what it sent
// reaches it. Requests already on the wire are applied (or not) by the other side, as with a real
// SIGKILL. The calendar servers' gates also play fault windows and let the history see each call.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BookingApi } from '../../src/booking/port.ts';

class ProcessKilled extends Error {
  override name = 'ProcessKilled';
  constructor() {
    super('the daemon was killed');
  }
}

/** An HTTP forwarder in front of a calendar server (the fake Google, Radicale) for one life of the daemon. */
export interface HttpGate {
  /** Where the daemon's client is pointed (Google's api_root and token_url live under it). */
  url: string;
  cut(): void;
}

/** What a history does to the calls through a gate: a fault window, and a look at each call. */
export interface GateHooks {
  /** Before a call is forwarded: `refuse` answers 503 without forwarding, `lose` forwards it and loses the answer. */
  fault?(method: string): 'none' | 'refuse' | 'lose';
  /** Before a call is forwarded, with its whole body. */
  onRequest?(method: string, path: string, body: string): void;
  /** Once the server answered a forwarded call (whether or not the answer reaches the daemon). */
  onAnswer?(method: string, path: string, status: number, body: string): void;
  /**
   * The server's own address in its answers (Graph's nextLink and deltaLink) is given as the gate's,
   * as the real service's links are on the address the client called.
   */
  ownLinks?: boolean;
  /** Listen on this port (a later life's gate on the earlier one's: a stored deltaLink still points at it). */
  port?: number;
}

export async function startGate(target: string, hooks: GateHooks = {}): Promise<HttpGate> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let cut = false;
  let self = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (cut) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (cut) return void req.socket.destroy();
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const fault = hooks.fault?.(method) ?? 'none';
      if (fault === 'refuse') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
      hooks.onRequest?.(method, path, body.toString('utf8'));
      const up = request(
        { host: upstream.hostname, port: upstream.port, method, path, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const back: Buffer[] = [];
          answer.on('data', (c: Buffer) => back.push(c));
          answer.on('end', () => {
            hooks.onAnswer?.(method, path, answer.statusCode ?? 0, Buffer.concat(back).toString('utf8'));
            if (cut) return void req.socket.destroy();
            if (fault === 'lose') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('answer lost');
            let out = Buffer.concat(back);
            const headers = { ...answer.headers };
            if (hooks.ownLinks) {
              out = Buffer.from(out.toString('utf8').replaceAll(upstream.origin, self), 'utf8');
              delete headers['transfer-encoding'];
              headers['content-length'] = String(out.length);
            }
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(out);
          });
        },
      );
      up.on('socket', (s) => {
        if (sockets.has(s)) return; // a kept-alive socket, already known
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(hooks.port ?? 0, '127.0.0.1', r));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    cut() {
      cut = true;
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * The booking API as one life of the daemon sees it. `afterReschedule` runs once a reschedule was
 * applied by the booking service and before its answer is handed back: a crash there loses the answer.
 */
export interface BookingGate {
  api: BookingApi;
  cut(): void;
}

export function gateBooking(
  inner: BookingApi,
  hooks: { beforeReschedule?(key: string, start: number): void; afterReschedule?(key: string): void } = {},
): BookingGate {
  let cut = false;
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    if (cut) throw new ProcessKilled();
    const result = await call();
    if (cut) throw new ProcessKilled();
    return result;
  };
  const api: BookingApi = {
    listPages(filters) {
      const pages = inner.listPages(filters)[Symbol.asyncIterator]();
      return { [Symbol.asyncIterator]: () => ({ next: () => guard(() => pages.next()) }) };
    },
    getAppointment: (key) => guard(() => inner.getAppointment(key)),
    updateStatus: (key, status) => guard(() => inner.updateStatus(key, status)),
    reschedule: (key, start) =>
      guard(async () => {
        hooks.beforeReschedule?.(key, start);
        await inner.reschedule(key, start);
        hooks.afterReschedule?.(key);
      }),
    cancel: (key, options) => guard(() => inner.cancel(key, options)),
    listWebhooks: () => guard(() => inner.listWebhooks()),
    createWebhook: (url, events) => guard(() => inner.createWebhook(url, events)),
    updateWebhook: (key, url, events) => guard(() => inner.updateWebhook(key, url, events)),
    deleteWebhook: (key) => guard(() => inner.deleteWebhook(key)),
  };
  return { api, cut: () => void (cut = true) };
}
