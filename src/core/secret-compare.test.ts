import { describe, expect, it } from 'vitest';
import { secretEquals, secretMatcher, secretsMatcher } from './secret-compare.ts';

describe('secretsMatcher', () => {
  const feedOf = secretsMatcher(['front-desk-token-0123456789', 'dr-silva-token-0123456789', 'rooms-token-0123456789']);

  it('names which secret was presented', () => {
    expect(feedOf('front-desk-token-0123456789')).toBe(0);
    expect(feedOf('dr-silva-token-0123456789')).toBe(1);
    expect(feedOf('rooms-token-0123456789')).toBe(2);
  });

  it('takes no near miss for a match: a prefix, a longer string, another case, nothing', () => {
    for (const given of [
      'front-desk-token-012345678',
      'front-desk-token-01234567890',
      'FRONT-DESK-TOKEN-0123456789',
      '',
      ' front-desk-token-0123456789',
    ]) {
      expect(feedOf(given)).toBe(-1);
    }
  });

  it('is not fooled by what an earlier request left behind: a prefix after the whole token', () => {
    expect(feedOf('dr-silva-token-0123456789')).toBe(1);
    expect(feedOf('dr-silva-token-012345')).toBe(-1);
    expect(feedOf('dr-silva')).toBe(-1);
  });

  it('refuses a text longer than anything it keeps, and still answers the next request right', () => {
    expect(feedOf('front-desk-token-0123456789'.repeat(100))).toBe(-1);
    expect(feedOf('front-desk-token-0123456789')).toBe(0);
    const long = secretsMatcher(['s'.repeat(300)]);
    expect(long('s'.repeat(300))).toBe(0);
    expect(long('s'.repeat(299))).toBe(-1);
    expect(long('s'.repeat(301))).toBe(-1);
  });

  it('answers the first of two equal secrets, and -1 with none configured', () => {
    expect(secretsMatcher(['same-secret-0123456789', 'same-secret-0123456789'])('same-secret-0123456789')).toBe(0);
    expect(secretsMatcher([])('anything')).toBe(-1);
  });

  it('compares text beyond ASCII by its characters', () => {
    expect(secretsMatcher(['senha-ção-0123456789'])('senha-ção-0123456789')).toBe(0);
    expect(secretsMatcher(['senha-ção-0123456789'])('senha-cao-0123456789')).toBe(-1);
  });
});

describe('secretMatcher and secretEquals', () => {
  it('accept the one secret and nothing else', () => {
    const isAdmin = secretMatcher('admin-token-0123456789');
    expect(isAdmin('admin-token-0123456789')).toBe(true);
    expect(isAdmin('admin-token-012345678')).toBe(false);
    expect(secretEquals('webhook-secret-0123', 'webhook-secret-0123')).toBe(true);
    expect(secretEquals('webhook-secret-0124', 'webhook-secret-0123')).toBe(false);
  });
});
