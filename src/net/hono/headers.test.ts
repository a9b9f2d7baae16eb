import { describe, expect, it } from 'vitest';
import { LightHeaders } from './headers.ts';

describe('LightHeaders', () => {
  it('reads names in any case, joins repeated values and keeps each Set-Cookie apart', () => {
    const h = new LightHeaders({ 'Content-Type': 'text/plain' });
    h.append('vary', 'Accept');
    h.append('VARY', 'Accept-Encoding');
    h.append('Set-Cookie', 'a=1');
    h.append('set-cookie', 'b=2');
    expect(h.get('content-type')).toBe('text/plain');
    expect(h.get('Vary')).toBe('Accept, Accept-Encoding');
    expect(h.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect([...h]).toEqual([
      ['content-type', 'text/plain'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['vary', 'Accept, Accept-Encoding'],
    ]);
    h.set('vary', 'Origin');
    h.delete('Content-Type');
    expect(h.has('content-type')).toBe(false);
    expect(Object.fromEntries(h)).toEqual({ 'set-cookie': 'b=2', vary: 'Origin' });
  });

  it('refuses a header name that is not a token and a value that would split the header in two', () => {
    const h = new LightHeaders();
    expect(() => h.set('bad name', 'x')).toThrow(/not a valid header name/);
    expect(() => h.set('x-ok', 'one\r\nInjected: two')).toThrow(/CR or LF/);
    expect(() => new LightHeaders([['only-one']] as unknown as [string, string][])).toThrow(/\[name, value\]/);
    expect(h.get('x-ok')).toBeNull();
  });

  it('trims a value of surrounding whitespace, as Fetch normalizes it', () => {
    expect(new LightHeaders([['x-a', '  padded\t']]).get('x-a')).toBe('padded');
  });

  it("reads a Node request's raw headers in place, and copies them on the first change", () => {
    const raw = ['Host', 'example.test', 'Accept', 'text/html', 'accept', 'text/plain', 'Cookie', 'a=1', 'cookie', 'b=2'];
    const h = LightHeaders.fromNodeRaw(raw);
    expect(h.get('ACCEPT')).toBe('text/html, text/plain');
    expect(h.get('cookie')).toBe('a=1; b=2');
    expect(h.get('absent')).toBeNull();
    h.set('x-added', 'yes');
    expect(h.get('host')).toBe('example.test');
    expect([...h.keys()]).toEqual(['accept', 'cookie', 'host', 'x-added']);
    expect(raw).toHaveLength(10); // Node's array is never written to
  });

  it('takes a list of pairs, a record (array values repeated) or another Headers', () => {
    const fromRecord = new LightHeaders({ 'set-cookie': ['a=1', 'b=2'], etag: '"x"' });
    expect(fromRecord.getSetCookie()).toEqual(['a=1', 'b=2']);
    const copy = new LightHeaders(fromRecord);
    copy.set('etag', '"y"');
    expect(fromRecord.get('etag')).toBe('"x"');
    expect(copy.get('etag')).toBe('"y"');
    expect(Object.prototype.toString.call(copy)).toBe('[object Headers]');
  });
});
