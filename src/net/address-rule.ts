// Which resolved addresses a CalDAV account connected by a link may reach (docs/reference/http.md,
// "Connect"): public ones only. The person holding an invite is trusted with that invite, not with
// what only calbridge's host can reach: loopback, the private networks, link-local (the cloud
// metadata address among them), unique-local, and the ranges no server answers on. Pure: an address
// in, the range that refuses it out. The check at connection time is address-guard.ts.

/** A range an address is refused for, in words for an error ("loopback (127.0.0.0/8)"). */
export type InsideRange = string;

interface Range {
  bytes: number[];
  bits: number;
  name: string;
}

const v4 = (cidr: string, name: string): Range => {
  const [ip, bits] = cidr.split('/');
  return { bytes: ip!.split('.').map(Number), bits: Number(bits), name: `${name} (${cidr})` };
};
const v6 = (cidr: string, name: string): Range => {
  const [ip, bits] = cidr.split('/');
  return { bytes: parseV6(ip!)!, bits: Number(bits), name: `${name} (${cidr})` };
};

// IANA's special-purpose registries (RFC 6890 and its updates), the parts that are not the public internet.
const V4: Range[] = [
  v4('0.0.0.0/8', '"this network", which reaches this host'),
  v4('10.0.0.0/8', 'a private network'),
  v4('100.64.0.0/10', 'a carrier-grade NAT network'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local, where cloud metadata answers'),
  v4('172.16.0.0/12', 'a private network'),
  v4('192.0.0.0/24', 'reserved for protocol assignments'),
  v4('192.0.2.0/24', 'reserved for documentation'),
  v4('192.168.0.0/16', 'a private network'),
  v4('198.18.0.0/15', 'reserved for benchmarking'),
  v4('198.51.100.0/24', 'reserved for documentation'),
  v4('203.0.113.0/24', 'reserved for documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved (and broadcast)'),
];

const V6: Range[] = [
  v6('::1/128', 'loopback'),
  v6('::/128', 'the unspecified address, which reaches this host'),
  v6('::/96', 'IPv4-compatible, deprecated'),
  v6('100::/64', 'reserved for discarding'),
  v6('2001:db8::/32', 'reserved for documentation'),
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local, deprecated'),
  v6('ff00::/8', 'multicast'),
];

function parseV4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** 16 bytes, or undefined; takes `::` and a dotted IPv4 tail (`::ffff:127.0.0.1`), not a zone (`%eth0`). */
function parseV6(text: string): number[] | undefined {
  let tail: number[] = [];
  let rest = text;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const four = parseV4(dotted[2]!);
    if (!four) return undefined;
    tail = four;
    rest = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const back = halves.length === 2 ? groups(halves[1]!) : [];
  const wanted = 8 - tail.length / 2;
  const missing = wanted - head.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const words = [...head, ...Array<string>(missing).fill('0'), ...back];
  if (!words.every((w) => /^[0-9a-f]{1,4}$/i.test(w))) return undefined;
  return [...words.flatMap((w) => [parseInt(w, 16) >> 8, parseInt(w, 16) & 0xff]), ...tail];
}

function within(bytes: number[], r: Range): boolean {
  for (let bit = 0; bit < r.bits; bit += 8) {
    const take = Math.min(8, r.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (r.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

const insideV4 = (bytes: number[]): InsideRange | undefined => V4.find((r) => within(bytes, r))?.name;

/**
 * The range that keeps an account connected by a link from `address` (an IPv4 or IPv6 address as a
 * resolver or a URL gives it, brackets allowed), or undefined when it is a public address. An address
 * that cannot be read is refused too. IPv4 inside IPv6 (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`,
 * 6to4 `2002:…`) is judged by the IPv4 address it carries.
 */
export function insideRange(address: string): InsideRange | undefined {
  const text = address.replace(/^\[(.*)\]$/, '$1');
  const four = parseV4(text);
  if (four) return insideV4(four);
  const bytes = parseV6(text);
  if (!bytes) return 'not an address';
  const isPrefix = (prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (isPrefix([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return insideV4(bytes.slice(12));
  if (isPrefix([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return insideV4(bytes.slice(12));
  if (isPrefix([0x20, 0x02])) {
    const carried = insideV4(bytes.slice(2, 6));
    if (carried) return carried;
  }
  return V6.find((r) => within(bytes, r))?.name;
}
