// A Hono app served over node:http by src/net/hono-server.ts (@hono/node-server with the feeds'
// shortcut in front), asked over real sockets.
import { request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { listen, portOf, remoteAddressOf, type Shortcut } from '../../src/net/hono-server.ts';

let server: Server;
let base: string;
const errors: unknown[] = [];

/** Answers /short/cut itself, leaves /short/app to the app, throws on /short/throws before writing anything and on /short/half after. */
const shortcut: Shortcut = (incoming, outgoing) => {
  if (incoming.url === '/short/throws') throw new Error('the shortcut failed');
  if (incoming.url === '/short/half') {
    outgoing.writeHead(200, { 'content-length': '10' });
    outgoing.write('half');
    throw new Error('the shortcut failed mid-answer');
  }
  if (incoming.url !== '/short/cut') return false;
  outgoing.writeHead(204, { 'x-answered-by': 'shortcut' });
  outgoing.end();
  return true;
};

beforeAll(async () => {
  const app = new Hono();
  app.get('/json', (c) => c.json({ hello: 'world' }));
  app.get('/cookies', (c) => {
    c.header('Set-Cookie', 'a=1', { append: true });
    c.header('Set-Cookie', 'b=2', { append: true });
    return c.text('two cookies');
  });
  app.post('/echo', async (c) => c.json({ got: await c.req.json(), type: c.req.header('content-type'), from: remoteAddressOf(c.env) }));
  app.get(
    '/stream',
    () =>
      new Response(
        new ReadableStream({
          start(ctl) {
            ctl.enqueue(new TextEncoder().encode('one,'));
            ctl.enqueue(new TextEncoder().encode('two'));
            ctl.close();
          },
        }),
      ),
  );
  app.get('/path', (c) => c.text(`${c.req.path}?${c.req.query('q') ?? ''}`));
  app.get('/short/*', (c) => c.text('the app answered'));
  const broken = (() => {
    throw new Error('outside Hono');
  }) as unknown as Hono['fetch'];
  server = await listen(
    (req, env) => (new URL(req.url).pathname === '/broken' ? broken(req, env) : app.fetch(req, env)),
    { port: 0, host: '127.0.0.1', shortcut },
    (e) => errors.push(e),
  );
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function ask(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (body += d))
        .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** One raw HTTP/1.1 exchange, for request targets a client library would not send. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(portOf(server), '127.0.0.1', () => socket.end(text));
    let got = '';
    socket
      .setEncoding('utf8')
      .on('data', (d: string) => (got += d))
      .on('end', () => resolve(got))
      .on('error', reject);
  });
}

describe('a Hono app over node:http', () => {
  it('answers JSON with its type and length, so the connection is kept and not chunked', async () => {
    const a = await ask('/json');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body)));
    expect(a.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(a.body)).toEqual({ hello: 'world' });
  });

  it("gives a POST handler its JSON body, its headers and the caller's address", async () => {
    const a = await ask('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"n":[1,2,3]}' });
    expect(JSON.parse(a.body)).toEqual({ got: { n: [1, 2, 3] }, type: 'application/json', from: '127.0.0.1' });
  });

  it('sends each Set-Cookie as a header of its own', async () => {
    const a = await ask('/cookies');
    expect(a.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(a.body).toBe('two cookies');
  });

  it('streams a web stream body', async () => {
    expect((await ask('/stream')).body).toBe('one,two');
  });

  it("answers HEAD with the GET route's headers and no body", async () => {
    const a = await ask('/json', { method: 'HEAD' });
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.body).toBe('');
  });

  it('routes by the path and query whatever the Host header says', async () => {
    expect((await ask('/path?q=1', { headers: { Host: 'evil.test:81' } })).body).toBe('/path?1');
    expect((await ask('/path?q=1', { headers: { Host: 'evil.test/other' } })).status).toBe(400); // not a host
    const absolute = await raw(
      'GET http://calendar.example.com/path?q=2 HTTP/1.1\r\nHost: calendar.example.com\r\nConnection: close\r\n\r\n',
    );
    expect(absolute).toMatch(/^HTTP\/1.1 200/);
    expect(absolute).toContain('/path?2');
  });

  it('answers 400 to a request target that is neither a path nor an http URL, and 500 when the app throws', async () => {
    const bad = await raw('GET ftp://x/y HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(bad).toMatch(/^HTTP\/1.1 400/);
    const failed = await ask('/broken');
    expect(failed.status).toBe(500);
    expect(errors.map((e) => (e as Error).message)).toContain('outside Hono');
    expect((await ask('/json')).status).toBe(200); // and the server goes on
  });

  it('lets the shortcut answer what it takes, and the app everything else, also when the shortcut throws', async () => {
    const cut = await ask('/short/cut');
    expect(cut.status).toBe(204);
    expect(cut.headers['x-answered-by']).toBe('shortcut');
    expect((await ask('/short/app')).body).toBe('the app answered');
    const thrown = await ask('/short/throws');
    expect(thrown.status).toBe(200);
    expect(thrown.body).toBe('the app answered');
    // Past its headers nothing can be taken back: the connection is closed, short of its length.
    await expect(ask('/short/half')).rejects.toThrow();
    expect((await ask('/short/app')).body).toBe('the app answered');
  });
});
