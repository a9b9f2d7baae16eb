import { describe, expect, it } from 'vitest';
import type { HttpAnswer, RequestOptions } from './http-request.ts';
import { Outbound } from './outbound.ts';
import { OffOriginError } from './origin.ts';

/** A transport answering from a table of URL → [status, location?]; it records every URL asked. */
function table(answers: Record<string, [number, string?]>) {
  const asked: string[] = [];
  const transport = async (url: URL, _o: RequestOptions): Promise<HttpAnswer> => {
    asked.push(url.href);
    const [status, location] = answers[url.href] ?? [404];
    return { status, text: '', header: (n) => (n === 'location' ? location : undefined) };
  };
  return { asked, transport };
}

const get: RequestOptions = { method: 'GET', headers: {}, timeoutMs: 1000, maxBodyBytes: 1000 };

describe('Outbound', () => {
  it('follows a redirect within its origin, up to its limit', async () => {
    const t = table({ 'https://dav.example/a': [301, '/b'], 'https://dav.example/b': [200] });
    const out = new Outbound({ origin: new URL('https://dav.example/'), setting: 'caldav.url', maxRedirects: 3, transport: t.transport });
    const res = await out.send(new URL('https://dav.example/a'), get);
    expect(res.status).toBe(200);
    expect(res.url.href).toBe('https://dav.example/b');
  });

  it.each([
    ['another host', 'https://elsewhere.example/a'],
    ['another port of the same host', 'https://dav.example:8443/a'],
    ['the same host over http', 'http://dav.example/a'],
  ])('refuses a redirect to %s, sending nothing there, naming it', async (_what, location) => {
    const t = table({ 'https://dav.example/a': [307, location] });
    const out = new Outbound({ origin: new URL('https://dav.example/'), setting: 'caldav.url', maxRedirects: 3, transport: t.transport });
    const e = await out.send(new URL('https://dav.example/a'), get).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(OffOriginError);
    expect((e as Error).message).toContain(location);
    expect((e as Error).message).toContain('caldav.url');
    expect(t.asked).toEqual(['https://dav.example/a']);
  });

  it('returns a same-origin 3xx as the answer when it follows none, and sends nothing to another origin at all', async () => {
    const t = table({ 'https://api.example/a': [302, '/b'] });
    const out = new Outbound({ origin: new URL('https://api.example'), setting: 'booking.base_url', transport: t.transport });
    expect((await out.send(new URL('https://api.example/a'), get)).status).toBe(302);
    await expect(out.send(new URL('https://api.example:444/a'), get)).rejects.toBeInstanceOf(OffOriginError);
    expect(t.asked).toEqual(['https://api.example/a']);
  });
});
