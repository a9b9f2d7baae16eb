// What a killed process can no longer do, for a daemon that runs in this process: once cut, nothing
// it sends reaches the booking service or Google, and no answer to what it sent reaches it. Requests
// already on the wire are applied (or not) by the other side, as with a real SIGKILL.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BookingApi } from '../../src/booking/port.ts';

class ProcessKilled extends Error {
  override name = 'ProcessKilled';
  constructor() {
    super('the daemon was killed');
  }
}

/** An HTTP forwarder in front of the fake Google for one life of the daemon. */
export interface GoogleGate {
  /** Where the daemon's Google client is pointed (api_root and token_url live under it). */
  url: string;
  cut(): void;
}

export async function startGoogleGate(target: string): Promise<GoogleGate> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let cut = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (cut) return void req.socket.destroy();
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        if (cut) return void answer.destroy();
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('socket', (s) => {
      if (sockets.has(s)) return; // a kept-alive socket, already known
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
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
