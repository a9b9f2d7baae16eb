import { describe, expect, it } from 'vitest';
import { foldLine, foldLines } from './fold.ts';

const octets = (s: string) => Buffer.byteLength(s, 'utf8');
const unfold = (s: string) => s.replace(/\r\n /g, '');
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('foldLine', () => {
  const cases: [string, string][] = [
    ['short ASCII', 'SUMMARY:Hello'],
    ['exactly 75 octets', `SUMMARY:${'a'.repeat(67)}`],
    ['76 octets', `SUMMARY:${'a'.repeat(68)}`],
    ['long ASCII', `DESCRIPTION:${'x'.repeat(400)}`],
    ['two-octet letters across the limit', `SUMMARY:${'é'.repeat(60)}`],
    ['three-octet characters', `SUMMARY:${'€'.repeat(50)}`],
    ['emoji (four octets, two UTF-16 units) at every offset', `SUMMARY:${'a'.repeat(3)}${'🦷'.repeat(40)}`],
    ['mixed names', `SUMMARY:${'José Conceição Ñúñez 🦷 👩🏽‍⚕️ Zoë '.repeat(6)}`],
    ['combining accent', `SUMMARY:${'e\u0301'.repeat(50)}`],
  ];

  it.each(cases)('%s: lines of at most 75 octets that unfold to the original', (_name, line) => {
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    for (const [i, part] of parts.entries()) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      if (i > 0) expect(part.startsWith(' ')).toBe(true);
      expect(part).not.toMatch(loneSurrogate);
    }
    expect(unfold(folded)).toBe(line);
  });

  it('uses the room it has: a fold only where the next character would not fit', () => {
    const parts = foldLine(`SUMMARY:${'é'.repeat(100)}`).split('\r\n');
    // 8 ASCII + 33 two-octet letters = 74 octets; the 34th would make 76.
    expect(octets(parts[0]!)).toBe(74);
    // A continuation line: the space + 37 letters = 75 octets.
    expect(octets(parts[1]!)).toBe(75);
  });

  it('leaves a line of 75 octets alone and folds one of 76', () => {
    expect(foldLine(`X:${'a'.repeat(73)}`)).not.toContain('\r\n');
    expect(foldLine(`X:${'a'.repeat(74)}`)).toBe(`X:${'a'.repeat(73)}\r\n a`);
  });
});

describe('foldLines', () => {
  it('folds every line and keeps the trailing CRLF', () => {
    const text = `BEGIN:VEVENT\r\nSUMMARY:${'ã'.repeat(80)}\r\nEND:VEVENT\r\n`;
    const folded = foldLines(text);
    expect(folded.endsWith('END:VEVENT\r\n')).toBe(true);
    expect(unfold(folded)).toBe(text);
    expect(folded.split('\r\n').every((l) => octets(l) <= 75)).toBe(true);
  });
});
