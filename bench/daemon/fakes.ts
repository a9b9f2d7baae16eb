// The other side of the whole-daemon benchmark, in its own process so calbridge is measured alone:
// the booking simulator and the Google simulator (enforcing a rolling per-minute quota), or one
// Google simulator per simulated user (`googleUsers`: Google's quota is per user, so each named
// account of the config gets its own). Driven by the benchmark over IPC: { id, cmd, ...args } in,
// { id, result } out; a Google command's `user` picks the simulator (0 when not given).
import { startSimulator } from '../../src/booking/simulator/index.ts';
import { startGoogleSimulator, type LoggedRequest } from '../../src/google/simulator/index.ts';
import { eventIdFor } from '../../src/core/event-id.ts';

interface Args {
  seed: number;
  quota: number;
  clientId: string;
  clientSecret: string;
  googleUsers?: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const booking = await startSimulator({ seed: { count: args.seed, random: 7 }, maxPageSize: 1000, notify: { deliver: false } });
const users = await Promise.all(
  Array.from({ length: args.googleUsers ?? 1 }, () =>
    startGoogleSimulator({ clientId: args.clientId, clientSecret: args.clientSecret, quotaPerMinute: args.quota }),
  ),
);
const google = users[0]!;

// When each Google call arrived (the simulator logs it on arrival and applies it right after).
const arrived = new WeakMap<LoggedRequest, number>();
for (const user of users) {
  const push = user.log.push.bind(user.log);
  user.log.push = (...items: LoggedRequest[]) => {
    const now = performance.now();
    for (const i of items) arrived.set(i, now);
    return push(...items);
  };
}

const calendarCalls = (user = google) => user.log.filter((l) => l.kind !== 'token' && l.kind !== 'other');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function propagate(o: { url: string; secret: string; count: number; perSecond: number }): Promise<number[]> {
  const now = Date.now();
  const keys = booking
    .all()
    .filter((a) => a.start > now + 86_400_000 && a.status === 'CONFIRMED')
    .slice(0, o.count)
    .map((a) => a.appointment_key);
  const sent = new Map<string, number>();
  await Promise.all(
    keys.map(async (key, i) => {
      await sleep((i * 1000) / o.perSecond);
      const a = booking.get(key)!;
      booking.reschedule(key, a.start + 3_600_000);
      sent.set(eventIdFor(key), performance.now());
      const body = JSON.stringify({ event: 'appointment.updated', timestamp: new Date().toISOString(), data: { appointment_key: key } });
      const res = await fetch(`${o.url}/webhooks/${o.secret}/`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    }),
  );
  const deadline = performance.now() + 20_000;
  for (;;) {
    const written = new Map<string, number>();
    for (const l of google.log) {
      const t0 = l.eventId === undefined ? undefined : sent.get(l.eventId);
      if (t0 !== undefined && l.kind === 'update' && l.status === 200 && !written.has(l.eventId!))
        written.set(l.eventId!, arrived.get(l) ?? 0);
    }
    if (written.size === sent.size || performance.now() > deadline) return [...written].map(([id, t]) => t - sent.get(id)!);
    await sleep(20);
  }
}

/** The longest time between two consecutive calls, and when it began (ms, this process's clock). */
function longestPause(times: number[]): { ms: number; fromMs: number } | null {
  const sorted = [...times].sort((a, b) => a - b);
  let best: { ms: number; fromMs: number } | null = null;
  for (let i = 1; i < sorted.length; i++) {
    const ms = sorted[i]! - sorted[i - 1]!;
    if (!best || ms > best.ms) best = { ms, fromMs: sorted[i - 1]! };
  }
  return best;
}

/**
 * The backfill as Google saw it: from the first event inserted to the last, every calendar call in
 * between (a reverse-sync round that listed the calendar before the first insert is not the backfill's).
 */
function backfillWindow(
  calls: LoggedRequest[],
): { calls: number; firstMs: number; lastMs: number; longestPause: { ms: number; fromMs: number } | null } | null {
  const inserts = calls.filter((l) => l.kind === 'insert').map((l) => arrived.get(l) ?? 0);
  if (inserts.length === 0) return null;
  const firstMs = Math.min(...inserts);
  const lastMs = Math.max(...inserts);
  const within = calls
    .filter((l) => !l.limited)
    .map((l) => arrived.get(l) ?? 0)
    .filter((t) => t >= firstMs && t <= lastMs);
  return { calls: within.length, firstMs, lastMs, longestPause: longestPause(within) };
}

const commands: Record<string, (m: Record<string, unknown>) => unknown> = {
  listRequests: () => booking.requests.filter((r) => r.method === 'GET' && /\/appointments\/$/.test(r.path)).length,
  bookingRequests: () => booking.requests.length,
  googleStats: (m) => {
    const user = users[Number(m.user ?? 0)]!;
    const calls = calendarCalls(user);
    const times = calls.map((l) => arrived.get(l) ?? 0);
    return {
      calls: calls.filter((l) => !l.limited).length,
      limited: calls.filter((l) => l.limited).length,
      inserts: calls.filter((l) => l.kind === 'insert' && l.status === 200).length,
      events: user.events('primary').length,
      firstMs: times.length ? Math.min(...times) : null,
      lastMs: times.length ? Math.max(...times) : null,
      backfill: backfillWindow(calls),
      now: performance.now(),
    };
  },
  keys: () => booking.all().map((a) => a.appointment_key),
  // The appointments dealt round-robin to `count` booking calendars (keys returned), one per named
  // account of the config: the seed's three calendars cannot split them evenly.
  spreadCalendars: (m) => {
    const keys = Array.from({ length: Number(m.count) }, (_, i) => `c0000000-0000-4000-a000-${String(i + 1).padStart(12, '0')}`);
    booking.all().forEach((a, i) => {
      const k = i % keys.length;
      booking.update(a.appointment_key, { calendar: { calendar_key: keys[k]!, name: `Professional ${k + 1}` } });
    });
    return keys;
  },
  propagate: (m) => propagate(m as unknown as { url: string; secret: string; count: number; perSecond: number }),
};

process.on('message', (m: { id: number; cmd: string }) => {
  void (async () => {
    try {
      process.send!({ id: m.id, result: await commands[m.cmd]!(m as unknown as Record<string, unknown>) });
    } catch (e) {
      process.send!({ id: m.id, error: String(e) });
    }
  })();
});
process.send!({
  id: 0,
  result: {
    bookingUrl: booking.url,
    bookingToken: booking.token,
    googleRoot: google.rootUrl,
    tokenUrl: google.tokenUrl,
    googleUsers: users.map((u) => ({ root: u.rootUrl, tokenUrl: u.tokenUrl })),
  },
});
