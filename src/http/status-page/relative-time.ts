// "3 min ago" for the times in the status document, so a person sees at a glance how fresh things are.
import { messagesFor, type Messages } from '../../core/i18n/index.ts';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
// Epoch-millisecond fields are recognised by name and a plausible range (2000..2100), never by size alone.
const EPOCH_MS_KEY = /(?:^|_)(?:at|time)_?ms$|AtMs$/i;
const EPOCH_MIN = Date.UTC(2000, 0, 1);
const EPOCH_MAX = Date.UTC(2100, 0, 1);

/** The instant a status value stands for, if it is a time: an ISO string, or epoch ms under an `*_at_ms` key. */
export function instantOf(key: string, value: unknown): number | undefined {
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  if (typeof value === 'number' && EPOCH_MS_KEY.test(key) && value >= EPOCH_MIN && value < EPOCH_MAX) return value;
  return undefined;
}

const UNITS: [limitMs: number, unitMs: number, label: 's' | 'min' | 'h' | 'd'][] = [
  [60_000, 1000, 's'],
  [3_600_000, 60_000, 'min'],
  [86_400_000, 3_600_000, 'h'],
  [Infinity, 86_400_000, 'd'],
];

/** "just now", "3 min ago", "in 2 h", "5 d ago": coarse on purpose, rounded down. */
export function relativeTime(instant: number, now: number, m: Messages = messagesFor('en')): string {
  const diff = instant - now;
  const abs = Math.abs(diff);
  if (abs < 5000) return m.relative.now;
  for (const [limit, unit, label] of UNITS) {
    if (abs < limit) {
      const n = Math.floor(abs / unit);
      return diff < 0 ? m.relative.ago(n, label) : m.relative.in(n, label);
    }
  }
  return ''; // unreachable: the last unit has no limit
}
