// A VTIMEZONE for one event, from the host's time zone data (Intl, through luxon): a DTSTART with
// TZID needs its VTIMEZONE in the same object (RFC 4791 §4.1). Rather than recurrence rules, which
// describe only today's rules, it lists the zone's actual offset changes from a year before the
// event to a year after it, so a person moving the event within that span keeps exact times even
// in a client that trusts our definition over its own.
import { DateTime, IANAZone } from 'luxon';

const DAY = 86_400_000;
const MINUTE = 60_000;
/** DST changes are months apart; a week's step cannot jump over two of them. */
const STEP = 7 * DAY;
const SPAN = 366 * DAY;

const offsetAt = (zone: string, ms: number): number => IANAZone.create(zone).offset(ms);

/** The first minute at which the offset differs from the one at `lo` (which differs at `hi`). */
function changeBetween(zone: string, lo: number, hi: number): number {
  const before = offsetAt(zone, lo);
  while (hi - lo > MINUTE) {
    const mid = lo + Math.max(MINUTE, Math.floor((hi - lo) / 2 / MINUTE) * MINUTE);
    if (offsetAt(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** An onset is written in the wall-clock time that was in force just before it (RFC 5545 §3.6.5). */
function onset(instant: number, offsetBefore: number): string {
  return DateTime.fromMillis(instant + offsetBefore * MINUTE, { zone: 'UTC' }).toFormat("yyyyLLdd'T'HHmmss");
}

function observance(zone: string, instant: number, from: number, to: number): string[] {
  const kind = DateTime.fromMillis(instant, { zone }).isInDST ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`,
    `DTSTART:${onset(instant, from)}`,
    `TZOFFSETFROM:${formatOffset(from)}`,
    `TZOFFSETTO:${formatOffset(to)}`,
    `END:${kind}`,
  ];
}

interface Change {
  at: number;
  before: number;
  after: number;
}

// Offsets change at most a few times a year and every event of a day asks about the same years.
const changesByYear = new Map<string, Change[]>();

/** The zone's offset changes in one UTC year, (Jan 1, next Jan 1]. */
function changesIn(zone: string, year: number): Change[] {
  const id = `${zone} ${year}`;
  const known = changesByYear.get(id);
  if (known) return known;
  const changes: Change[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let offset = offsetAt(zone, Date.UTC(year, 0, 1));
  for (let t = Date.UTC(year, 0, 1); t < end; ) {
    const next = Math.min(t + STEP, end);
    if (offsetAt(zone, next) === offset) {
      t = next;
      continue;
    }
    const at = changeBetween(zone, t, next);
    const after = offsetAt(zone, at);
    changes.push({ at, before: offset, after });
    offset = after;
    t = at;
  }
  changesByYear.set(id, changes);
  return changes;
}

/** BEGIN:VTIMEZONE ... END:VTIMEZONE with CRLF line ends, covering [start - 1 year, end + 1 year]. */
export function renderVTimezone(zone: string, start: number, end: number): string {
  // From a local midnight, so the text stays the same while the event stays on the same day.
  const first = DateTime.fromMillis(start - SPAN, { zone })
    .startOf('day')
    .toMillis();
  const last = end + SPAN;
  const initial = offsetAt(zone, first);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`, ...observance(zone, first, initial, initial)];
  for (let year = new Date(first).getUTCFullYear(); year <= new Date(last).getUTCFullYear(); year++) {
    for (const c of changesIn(zone, year)) if (c.at > first && c.at <= last) lines.push(...observance(zone, c.at, c.before, c.after));
  }
  lines.push('END:VTIMEZONE');
  return `${lines.join('\r\n')}\r\n`;
}
