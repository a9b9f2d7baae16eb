// Which alert messages to send (docs/reference/behaviour.md, "Alerts"): pure, given the problems seen
// now, what was stored about each key and the time. A problem is announced once it has lasted
// `afterMs`; its recovery once it clears, only if it was announced; and a key is never announced
// again within an hour of its last message, so a problem that comes and goes does not make a storm.

/** Something wrong now, in our words: what broke and what to do. */
export interface Problem {
  /** `google.default.auth`, `booking.api`, `caldav.default.writes`, `db.writable`. */
  key: string;
  sentence: string;
  /** When it began, where the source knows; otherwise when it was first seen. */
  since?: number;
}

/** What is kept per key between ticks (and restarts). */
export interface AlertState {
  key: string;
  /** When the current (or last) problem began. */
  since: number;
  /** Whether the problem is present (as of the last tick). */
  active: boolean;
  /** A `problem` message went out for the current episode, and no `recovered` yet. */
  announced: boolean;
  /** The last message of any kind for this key; null before the first. */
  lastSentAt: number | null;
  /** The problem's latest sentence (the recovered message names what was wrong). */
  sentence: string;
}

export type AlertEvent = 'problem' | 'recovered';

export interface AlertMessage {
  event: AlertEvent;
  key: string;
  /** The problem's sentence (for `recovered` too: the sender words it as resolved). */
  sentence: string;
  /** When the problem began. */
  since: number;
}

export interface AlertDecision {
  send: AlertMessage[];
  /** Every key's state after this tick; keys absent here are forgotten. */
  next: AlertState[];
}

/** No key gets a `problem` message within this long of its last message. */
const QUIET_MS = 60 * 60_000;

export function decideAlerts(input: {
  now: number;
  afterMs: number;
  problems: readonly Problem[];
  stored: readonly AlertState[];
}): AlertDecision {
  const { now, afterMs } = input;
  const stored = new Map(input.stored.map((s) => [s.key, s]));
  const send: AlertMessage[] = [];
  const next: AlertState[] = [];
  const seen = new Set<string>();

  for (const p of input.problems) {
    if (seen.has(p.key)) continue; // one message per key, whoever reported it twice
    seen.add(p.key);
    const before = stored.get(p.key);
    // A new episode begins when the key was clear; an ongoing one keeps its start.
    const since = before?.active ? Math.min(before.since, p.since ?? before.since) : Math.min(p.since ?? now, now);
    const state: AlertState = {
      key: p.key,
      since,
      active: true,
      announced: before?.announced ?? false,
      lastSentAt: before?.lastSentAt ?? null,
      sentence: p.sentence,
    };
    const lasted = now - since >= afterMs;
    const quiet = state.lastSentAt === null || now - state.lastSentAt >= QUIET_MS;
    if (!state.announced && lasted && quiet) {
      send.push({ event: 'problem', key: p.key, sentence: p.sentence, since });
      state.announced = true;
      state.lastSentAt = now;
    }
    next.push(state);
  }

  for (const before of input.stored) {
    if (seen.has(before.key)) continue;
    if (before.announced) {
      // Cleared after it was announced: say so once, at once (it answers the problem message).
      send.push({ event: 'recovered', key: before.key, sentence: before.sentence, since: before.since });
      next.push({ ...before, active: false, announced: false, lastSentAt: now });
    } else if (before.lastSentAt !== null && now - before.lastSentAt < QUIET_MS) {
      // Kept while its quiet hour runs, so a quick return is not announced again.
      next.push({ ...before, active: false });
    }
    // Otherwise it cleared before it was worth a message (or long ago): forgotten.
  }
  return { send, next };
}

/**
 * The state to keep when `message` reached no one (every channel failed): as if it had not been
 * decided, so the next tick tries again.
 */
export function undelivered(next: readonly AlertState[], message: AlertMessage, stored: readonly AlertState[]): AlertState[] {
  const before = stored.find((s) => s.key === message.key);
  return next.map((s) => {
    if (s.key !== message.key) return s;
    if (message.event === 'recovered') return before ?? s;
    return { ...s, announced: before?.announced ?? false, lastSentAt: before?.lastSentAt ?? null };
  });
}
