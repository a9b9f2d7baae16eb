// RFC 5545 §3.1: a content line longer than 75 octets is folded with CRLF and one space. We count
// UTF-8 octets and never cut inside a code point; ical-generator's own folder encodes one character
// at a time and takes most of a large feed's render time.

const LIMIT = 75;

/** Folds one unfolded content line (no CRLF inside). */
export function foldLine(line: string): string {
  // At most 3 octets per UTF-16 unit (a surrogate pair is 4 octets for 2 units), so short lines pass.
  if (line.length * 3 <= LIMIT || Buffer.byteLength(line, 'utf8') <= LIMIT) return line;
  let out = '';
  let start = 0;
  let octets = 0;
  let limit = LIMIT;
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i);
    let size = 3;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = line.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size = 4;
        units = 2;
      }
    }
    if (octets + size > limit) {
      out += `${line.slice(start, i)}\r\n `;
      start = i;
      octets = 0;
      limit = LIMIT - 1; // the leading space of a continuation line counts
    }
    octets += size;
    i += units;
  }
  return out + line.slice(start);
}

/** Folds every line of CRLF-separated text; a trailing CRLF stays. */
export function foldLines(text: string): string {
  return text.split('\r\n').map(foldLine).join('\r\n');
}
