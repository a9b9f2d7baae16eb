// "3 min ago" for the times in the status document, so a person sees at a glance how fresh things are.
import { messagesFor, type Messages } from '../../core/i18n/index.ts';

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
