import { describe, expect, it } from 'vitest';
import { LightResponse } from './response.ts';

describe('LightResponse', () => {
  it('gives a text body the text/plain type Fetch gives it, and keeps a type that was set', async () => {
    const plain = new LightResponse('hello');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    const json = new LightResponse('{"a":1}', { status: 201, headers: { 'Content-Type': 'application/json' } });
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ a: 1 });
    expect(new LightResponse(new Uint8Array([1, 2])).headers.has('content-type')).toBe(false);
  });

  it('reads a body once', async () => {
    const res = new LightResponse('once');
    expect(await res.text()).toBe('once');
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(/already been read/);
  });

  it('refuses a status out of range and a body on a 304', () => {
    expect(() => new LightResponse(null, { status: 99 })).toThrow(RangeError);
    expect(() => new LightResponse('x', { status: 304 })).toThrow(/no body/);
    expect(new LightResponse(null, { status: 304 }).body).toBeNull();
  });

  it('hands out its body as a web stream, and a Response made from another keeps its text and headers', async () => {
    const first = new LightResponse('streamed', { status: 202, headers: { etag: '"1"' } });
    const reader = first.body!.getReader();
    const { value } = await reader.read();
    expect(Buffer.from(value!).toString()).toBe('streamed');
    reader.releaseLock();
    // What Hono does when a middleware replaces c.res: new Response(old.body, old)
    const again = new LightResponse(first.body, first);
    expect(again.status).toBe(202);
    expect(again.headers.get('etag')).toBe('"1"');
    expect(again.nodeParts().body).toBe('streamed');
  });

  it('reads a stream body whole, and clones one so that both copies read it', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('part one, '));
        c.enqueue(new TextEncoder().encode('part two'));
        c.close();
      },
    });
    const res = new LightResponse(stream);
    const copy = res.clone();
    expect(await res.text()).toBe('part one, part two');
    expect(await copy.text()).toBe('part one, part two');
  });

  it('builds JSON and redirect answers as the static methods do', async () => {
    const json = LightResponse.json({ ok: true }, { status: 400 });
    expect(json.status).toBe(400);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.text()).toBe('{"ok":true}');
    expect(LightResponse.redirect('https://example.test/a', 303).headers.get('location')).toBe('https://example.test/a');
  });
});
