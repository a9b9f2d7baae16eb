import { describe, expect, it } from 'vitest';
import { createSealer, DamagedSealError, WrongKeyError } from './seal.ts';

const KEY = 'k'.repeat(40);

describe('sealed credentials', () => {
  it('opens what it sealed, and the plaintext is nowhere in the sealed bytes', () => {
    const s = createSealer(KEY);
    const sealed = s.seal('1//refresh-token-of-ana', 'google.ana');
    expect(sealed.includes(Buffer.from('refresh-token'))).toBe(false);
    expect(s.open(sealed, 'google.ana')).toBe('1//refresh-token-of-ana');
  });

  it('uses a fresh nonce every time', () => {
    const s = createSealer(KEY);
    expect(s.seal('same', 'x').equals(s.seal('same', 'x'))).toBe(false);
  });

  it('names another secret_key as such', () => {
    const sealed = createSealer(KEY).seal('secret', 'google.ana');
    expect(() => createSealer('z'.repeat(40)).open(sealed, 'google.ana')).toThrow(WrongKeyError);
  });

  it('refuses a value moved to another row or altered', () => {
    const s = createSealer(KEY);
    const sealed = s.seal('secret', 'google.ana');
    expect(() => s.open(sealed, 'google.bruno')).toThrow(DamagedSealError);
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => s.open(altered, 'google.ana')).toThrow(DamagedSealError);
    expect(() => s.open(Buffer.from('plain'), 'google.ana')).toThrow(DamagedSealError);
  });
});
