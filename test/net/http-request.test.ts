// The booking client's transport over node:http: what fetch() did for it, kept (no redirect followed,
// one deadline over the whole answer, a cap on its size) and an answer cut off never taken for whole.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { httpRequest } from '../../src/net/http-request.ts';

const servers: (http.Server | https.Server)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const get = (url: string, o: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
  httpRequest(new URL(url), {
    method: 'GET',
    headers: { authorization: 'Bearer secret-token' },
    timeoutMs: o.timeoutMs ?? 2000,
    maxBodyBytes: o.maxBodyBytes ?? 1024,
  });

describe('httpRequest', () => {
  it('answers status, headers and the body as text, and sends the headers and body given', async () => {
    let seen: { method?: string; auth?: string; length?: string; body?: string } = {};
    const base = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { method: req.method, auth: req.headers.authorization, length: req.headers['content-length'], body };
        res.setHeader('x-ratelimit-remaining', '7');
        res.end('{"ok":"ção"}');
      });
    });
    const a = await httpRequest(new URL(`${base}/x`), {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
      body: '{"n":"é"}',
      timeoutMs: 2000,
      maxBodyBytes: 1024,
    });
    expect(a.status).toBe(200);
    expect(a.header('x-ratelimit-remaining')).toBe('7');
    expect(a.text).toBe('{"ok":"ção"}');
    expect(seen).toEqual({ method: 'POST', auth: 'Bearer t', length: String(Buffer.byteLength('{"n":"é"}')), body: '{"n":"é"}' });
  });

  it('never follows a redirect: the token is not carried to another origin', async () => {
    let elsewhere = 0;
    const other = await serve((_req, res) => {
      elsewhere++;
      res.end('{}');
    });
    const base = await serve((_req, res) => {
      res.writeHead(302, { location: `${other}/steal` });
      res.end();
    });
    const a = await get(`${base}/x`);
    expect(a.status).toBe(302);
    expect(a.header('location')).toBe(`${other}/steal`);
    expect(elsewhere).toBe(0);
  });

  it("one deadline covers the answer's body too: a body that stalls fails with a TimeoutError", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":'); // and nothing more
    });
    const started = Date.now();
    await expect(get(`${base}/x`, { timeoutMs: 200 })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('an answer over the cap is null, whether declared or streamed', async () => {
    const declared = await serve((_req, res) => res.end('x'.repeat(2000)));
    expect((await get(`${declared}/x`)).text).toBeNull();
    const streamed = await serve((_req, res) => {
      res.writeHead(200); // chunked, no length given
      res.write('y'.repeat(800));
      res.end('y'.repeat(800));
    });
    expect((await get(`${streamed}/x`)).text).toBeNull();
    const under = await serve((_req, res) => res.end('z'.repeat(1024)));
    expect((await get(`${under}/x`)).text).toBe('z'.repeat(1024));
  });

  it('an answer cut off mid-body is an error, never a shorter body', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"half":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await expect(get(`${base}/x`)).rejects.toMatchObject({ cause: { code: 'ECONNRESET' } });
  });

  it("a refused connection is an error whose cause carries the system's code, as with fetch()", async () => {
    const base = await serve((_req, res) => res.end());
    const port = new URL(base).port;
    await new Promise((r) => servers.pop()!.close(r));
    await expect(get(`http://127.0.0.1:${port}/x`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });

  it('speaks TLS to an https:// URL and refuses a certificate nobody vouches for, sending nothing', async () => {
    const tlsDir = new URL('../fixtures/tls/', import.meta.url);
    let requests = 0;
    const s = https.createServer(
      { key: readFileSync(new URL('localhost-key.pem', tlsDir)), cert: readFileSync(new URL('localhost-cert.pem', tlsDir)) },
      (_req, res) => {
        requests++;
        res.end('secret answer');
      },
    );
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const failed = await get(`https://127.0.0.1:${(s.address() as AddressInfo).port}/`).then(
      () => undefined,
      (e: Error & { cause?: { code?: string } }) => e,
    );
    expect((failed?.cause ?? failed) as { code?: string }).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(requests).toBe(0);
  });
});
