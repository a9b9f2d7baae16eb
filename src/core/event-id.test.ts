import { describe, expect, it } from 'vitest';
import { base32hex, eventIdFor } from './event-id.ts';

const VALID = /^[a-v0-9]{5,1024}$/;

describe('eventIdFor', () => {
  it.each([
    ['733d9fee-c3ce-41f6-a941-122b7f72dc4c', 0, '733d9feec3ce41f6a941122b7f72dc4c'],
    ['733D9FEE-C3CE-41F6-A941-122B7F72DC4C', 0, '733d9feec3ce41f6a941122b7f72dc4c'],
    ['733d9fee-c3ce-41f6-a941-122b7f72dc4c', 2, '733d9feec3ce41f6a941122b7f72dc4cv2'],
  ])('a UUID key %s (generation %i) gives its lowercase hex', (key, generation, id) => {
    expect(eventIdFor(key, generation)).toBe(id);
  });

  it.each(['APT-42', 'a', 'ü-ключ', 'x'.repeat(2000)])('any other key (%s) gives a valid, stable id', (key) => {
    const id = eventIdFor(key);
    expect(id).toMatch(VALID);
    expect(id).toHaveLength(52);
    expect(eventIdFor(key)).toBe(id);
    expect(eventIdFor(key, 1)).not.toBe(id);
    expect(eventIdFor(key, 1)).toMatch(VALID);
  });

  it('keeps different keys apart', () => {
    expect(eventIdFor('APT-1')).not.toBe(eventIdFor('APT-2'));
  });

  it('encodes base32hex as RFC 4648 does', () => {
    expect(base32hex(Buffer.from('foobar'))).toBe('cpnmuoj1e8');
  });
});
