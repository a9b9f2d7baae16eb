// The CalDAV adapter's transport (node:http, src/caldav/http.ts) against raw servers that answer
// what real ones sometimes do: a byte order mark before the XML, an answer far too large, a server
// that never answers, a port nobody listens on. Each is an answer or a clear error, never a hang.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_ANSWER_BYTES } from '../../src/caldav/http.ts';
import { adapter, failure } from './setup.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const calendarHome = (url: string) =>
  '<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">' +
  `<d:response><d:href>${new URL(url).pathname}cal/</d:href><d:propstat><d:prop><d:displayname>Clinic</d:displayname>` +
  '<d:resourcetype><d:collection/><c:calendar/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>';

describe('the CalDAV transport', () => {
  it('reads a multistatus that starts with a byte order mark, and sends Basic auth', async () => {
    const seen: (string | undefined)[] = [];
    const url = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end(`\uFEFF${calendarHome(`http://x${req.url}`)}`);
    });
    const found = await adapter(url).calendars();
    expect(found.map((c) => c.displayName)).toContain('Clinic');
    expect(seen[0]).toBe(`Basic ${Buffer.from('alice:alice-app-password').toString('base64')}`);
  });

  it('hands over an object whose text starts with a byte order mark without it, as fetch() did', async () => {
    const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar', etag: '"e1"' }).end(`\uFEFF${ics}`));
    const got = await adapter(url).get(`${url}cal/`, 'a1');
    expect(got).toEqual({ kind: 'found', ics, etag: '"e1"' });
  });

  it('refuses an answer larger than it will read, naming the request', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(207, { 'content-type': 'application/xml', 'content-length': String(MAX_ANSWER_BYTES + 1) });
      res.write('<d:multistatus xmlns:d="DAV:">'); // and never the rest
    });
    const e = await failure(adapter(url).calendars());
    // Discovery says the address does not answer like a CalDAV server, and why.
    expect(e.kind).toBe('not_caldav');
    expect(e.message).toMatch(/PROPFIND \/.*larger than 256 MiB/);
  });

  it('gives up on a server that never answers after the timeout, as a transient failure', async () => {
    const url = await serve(() => undefined);
    const started = Date.now();
    const e = await failure(adapter(url, { timeoutMs: 300 }).calendars());
    expect(e.kind).toBe('transient');
    expect(e.message).toMatch(/no answer in time/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("says a refused connection is transient, with the system's reason", async () => {
    const url = await serve(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    const e = await failure(adapter(url).calendars());
    expect(e.kind).toBe('transient');
    expect(e.message).toMatch(/ECONNREFUSED/);
  });
});
