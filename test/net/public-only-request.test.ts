// The transport of CalDAV accounts connected by a link: a connection to an address inside this network
// is refused where it is made (the socket's own lookup), and an address written in the URL before
// anything is opened. The local server counts what reaches it; the unrestricted transport reaches it,
// so a refusal here is the rule's and not a server that was not there.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { httpRequest, publicOnlyRequest } from '../../src/net/http-request.ts';
import { insideNetworkCause, publicLookup, type ResolveHost } from '../../src/net/address-guard.ts';

const servers: (http.Server | https.Server)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function counting(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const s = http.createServer((_req, res) => {
    hits++;
    res.end('here');
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { port: (s.address() as AddressInfo).port, hits: () => hits };
}

const get = { method: 'GET', headers: { authorization: 'Basic c2VjcmV0' }, timeoutMs: 2000, maxBodyBytes: 1024 };

/** Answers every name from a table, counting the questions. */
function table(answers: Record<string, string[]>): { resolve: ResolveHost; asked: string[] } {
  const asked: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`${hostname}: not found`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

describe('publicOnlyRequest', () => {
  it('reaches nothing through a name that resolves inside this network; the unrestricted transport does', async () => {
    const server = await counting();
    const names = table({ 'dav.clinic.test': ['127.0.0.1'] });
    const refused = await publicOnlyRequest(names.resolve)(new URL(`http://dav.clinic.test:${server.port}/`), get).catch((e: unknown) => e);
    expect(insideNetworkCause(refused)?.message).toContain('dav.clinic.test resolves to 127.0.0.1, loopback (127.0.0.0/8)');
    expect(names.asked).toEqual(['dav.clinic.test']);
    expect(server.hits()).toBe(0);

    const reached = await httpRequest(new URL(`http://127.0.0.1:${server.port}/`), get);
    expect(reached.text).toBe('here');
    expect(server.hits()).toBe(1);
  });

  it('looks names up through the rule over https too', async () => {
    const tlsDir = new URL('../fixtures/tls/', import.meta.url);
    let hits = 0;
    const s = https.createServer(
      { key: readFileSync(new URL('localhost-key.pem', tlsDir)), cert: readFileSync(new URL('localhost-cert.pem', tlsDir)) },
      (_req, res) => {
        hits++;
        res.end('here');
      },
    );
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const names = table({ 'dav.clinic.test': ['127.0.0.1'] });
    const url = new URL(`https://dav.clinic.test:${(s.address() as AddressInfo).port}/`);
    const refused = await publicOnlyRequest(names.resolve)(url, get).catch((e: unknown) => e);
    expect(insideNetworkCause(refused)?.address).toBe('127.0.0.1');
    expect(names.asked).toEqual(['dav.clinic.test']);
    expect(hits).toBe(0);
  });

  it('refuses a name when any of its addresses is inside, whichever one a socket would pick', async () => {
    const server = await counting();
    const names = table({ 'dav.clinic.test': ['93.184.216.34', '::ffff:127.0.0.1'] });
    const refused = await publicOnlyRequest(names.resolve)(new URL(`http://dav.clinic.test:${server.port}/`), get).catch((e: unknown) => e);
    expect(insideNetworkCause(refused)?.address).toBe('::ffff:127.0.0.1');
    expect(server.hits()).toBe(0);
  });

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`],
    ['an IPv4-mapped IPv6 address', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ['127.0.0.1 spelled as one number', (port: number) => `http://2130706433:${port}/`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['0.0.0.0', (port: number) => `http://0.0.0.0:${port}/`],
  ])('refuses %s written in the URL without looking it up or connecting', async (_what, address) => {
    const server = await counting();
    const names = table({});
    const refused = await publicOnlyRequest(names.resolve)(new URL(address(server.port)), get).catch((e: unknown) => e);
    expect(insideNetworkCause(refused)?.message).toContain('inside this network');
    expect(names.asked).toEqual([]);
    expect(server.hits()).toBe(0);
  });

  it('looks the name up at every connection it opens, not once: an answer that changes is judged anew', async () => {
    const server = await counting();
    let answer = '10.1.2.3';
    const asked: string[] = [];
    const resolve: ResolveHost = async () => {
      asked.push(answer);
      return [{ address: answer, family: 4 }];
    };
    const request = publicOnlyRequest(resolve);
    const first = await request(new URL(`http://dav.clinic.test:${server.port}/`), get).catch((e: unknown) => e);
    expect(insideNetworkCause(first)?.address).toBe('10.1.2.3');
    answer = '127.0.0.1';
    const second = await request(new URL(`http://dav.clinic.test:${server.port}/`), get).catch((e: unknown) => e);
    expect(insideNetworkCause(second)?.address).toBe('127.0.0.1');
    expect(asked).toEqual(['10.1.2.3', '127.0.0.1']);
    expect(server.hits()).toBe(0);
  });

  // A public address cannot be reached from a test, so the lookup's answer for one is read as node:net
  // reads it: all addresses for a socket that tries each family (autoSelectFamily), one otherwise.
  it('answers public addresses as node:net asks for them: all of them, or the first of the family asked', async () => {
    const names = table({ 'dav.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    const lookup = publicLookup(names.resolve);
    const ask = (options: Parameters<typeof lookup>[1]) =>
      new Promise<unknown[]>((resolve) => lookup('dav.example.com', options, (...args) => resolve(args)));
    expect(await ask({ all: true })).toEqual([
      null,
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ],
    ]);
    expect(await ask({})).toEqual([null, '93.184.216.34', 4]);
    expect(await ask({ family: 6 })).toEqual([null, '2606:2800:220:1:248:1893:25c8:1946', 6]);
    const [refused] = await new Promise<unknown[]>((resolve) =>
      publicLookup(table({ 'dav.example.com': ['fd00::5'] }).resolve)('dav.example.com', { all: true }, (...args) => resolve(args)),
    );
    expect(insideNetworkCause(refused)?.range).toContain('unique-local');
  });
});
