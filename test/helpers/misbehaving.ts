// Small HTTP servers on 127.0.0.1 that misbehave the way a hostile or misconfigured upstream does:
// a recorder that notes every request it receives (it must receive nothing in the tests that use it
// as the far end of a redirect or a link), and a server whose answer the test writes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Misbehaving {
  /** http://127.0.0.1:PORT (no trailing slash). */
  origin: string;
  requests: Received[];
  close(): Promise<void>;
}

/** Answers every request with `answer` (a 404 if none), after reading its body; every request is noted. */
export async function startServer(answer?: (req: Received, res: ServerResponse) => void): Promise<Misbehaving> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      if (answer) answer(received, res);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Answers every request with a redirect (307 keeps method and body) to `to` + the request's path. */
export function startRedirector(to: string, status = 307): Promise<Misbehaving> {
  return startServer((req, res) => res.writeHead(status, { location: `${to}${req.url}` }).end());
}
