// The other side of the whole-daemon benchmark, in its own process so calbridge is measured alone:
// the booking simulator and the Google simulator (enforcing a rolling per-minute quota), or one
// Google simulator per simulated user (`googleUsers`: Google's quota is per user, so each named
// account of the config gets its own); with `graph`, the Graph simulator too (one mailbox, Graph's
// own limits, its change notifications delivered to serve's port). Driven by the benchmark over IPC:
// { id, cmd, ...args } in, { id, result } out; a Google command's `user` picks the simulator (0 when not given).
import { startSimulator } from '../../src/booking/simulator/index.ts';
import { startGoogleSimulator } from '../../src/google/simulator/index.ts';
import { startGraphSimulator, type GraphSimulator, type LoggedRequest as GraphRequest } from '../../src/microsoft/simulator/index.ts';
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import type { GraphArgs } from './processes.ts';

interface Args {
  seed: number;
  quota: number;
  clientId: string;
  clientSecret: string;
  googleUsers?: number;
  graph?: GraphArgs;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const booking = await startSimulator({ seed: { count: args.seed, random: 7 }, maxPageSize: 1000, notify: { deliver: false } });
const users = await Promise.all(
  Array.from({ length: args.googleUsers ?? 1 }, () =>
    startGoogleSimulator({ clientId: args.clientId, clientSecret: args.clientSecret, quotaPerMinute: args.quota }),
  ),
);
const google = users[0]!;
const g = args.graph;
const graph: GraphSimulator | undefined = g
  ? await startGraphSimulator({
      clientId: g.clientId,
      clientSecret: g.clientSecret,
      mailboxes: [g.mailbox],
      latencyMs: g.latencyMs,
      retryAfterSeconds: 1,
      ...(g.perMinute ? { perMailboxPerMinute: g.perMinute } : {}),
      pushAddress: (u) => u.replace(g.publicUrl, `http://127.0.0.1:${g.servePort}`),
    })
  : undefined;
const graphOf = () => {
  if (!graph) throw new Error('the fakes were started without the Graph simulator');
  return graph;
};

// When each call arrived (the simulators log a call on arrival and apply it right after).
const arrived = new WeakMap<object, number>();
function stampArrivals<T extends object>(log: T[]): void {
  const push = log.push.bind(log);
  log.push = (...items: T[]) => {
    const now = performance.now();
    for (const i of items) arrived.set(i, now);
    return push(...items);
  };
}
for (const user of users) stampArrivals(user.log);
if (graph) stampArrivals(graph.log);
stampArrivals(booking.requests);
const arrival = (l: object) => arrived.get(l) ?? 0;

// Graph's change notifications as they leave for serve (every change of an event is told at once to
// its calendar's subscriptions): the changes told, the posts serve has not answered yet, and when the
// last change was told, on the wall clock serve's /api/status uses too.
const told = { changes: 0, unanswered: 0, lastAt: 0 };
if (graph) {
  const subscriptions = graph.subscriptions;
  const tell = subscriptions.changed.bind(subscriptions);
  subscriptions.changed = async (...change: Parameters<typeof tell>) => {
    told.changes++;
    told.unanswered++;
    told.lastAt = Date.now();
    try {
      await tell(...change);
    } finally {
      told.unanswered--;
    }
  };
}

const calendarCalls = (user = google) => user.log.filter((l) => l.kind !== 'token' && l.kind !== 'other');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A booking webhook to serve, as the booking service posts it; `tag` makes each post a delivery of its own. */
async function postWebhook(o: { url: string; secret: string }, event: string, key: string, tag?: string): Promise<void> {
  const data = { appointment_key: key, ...(tag ? { n: tag } : {}) };
  const body = JSON.stringify({ event, timestamp: new Date().toISOString(), data });
  const res = await fetch(`${o.url}/webhooks/${o.secret}/`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
}

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
      await postWebhook(o, 'appointment.updated', key);
    }),
  );
  const deadline = performance.now() + 20_000;
  for (;;) {
    const written = new Map<string, number>();
    for (const l of google.log) {
      const t0 = l.eventId === undefined ? undefined : sent.get(l.eventId);
      if (t0 !== undefined && l.kind === 'update' && l.status === 200 && !written.has(l.eventId!)) written.set(l.eventId!, arrival(l));
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
 * The backfill as a calendar service saw it: from the first event created to the last, every
 * calendar call answered in between (a reverse-sync round that listed the calendar before the first
 * create is not the backfill's; a call refused by the service's limits was not answered).
 */
function backfillWindow<T extends object>(
  calls: T[],
  isCreate: (l: T) => boolean,
  answered: (l: T) => boolean,
): { calls: number; firstMs: number; lastMs: number; longestPause: { ms: number; fromMs: number } | null } | null {
  const creates = calls.filter(isCreate).map(arrival);
  if (creates.length === 0) return null;
  const firstMs = Math.min(...creates);
  const lastMs = Math.max(...creates);
  const within = calls
    .filter(answered)
    .map(arrival)
    .filter((t) => t >= firstMs && t <= lastMs);
  return { calls: within.length, firstMs, lastMs, longestPause: longestPause(within) };
}

// The Graph side: calls of the mailbox (tokens apart), and our appointment's event by its key property.
const graphCalls = () => graphOf().log.filter((l) => l.kind !== 'token');
const keyOf = (e: { extended: { id: string; value: string }[] }) => e.extended.find((p) => p.id === KEY_PROPERTY)?.value;
const graphEventOf = (key: string) => [...graphOf().mailbox().events.values()].find((e) => keyOf(e) === key);
const reschedulesOf = (key: string) =>
  booking.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/') && r.path.includes(key));

/**
 * A person moves each event in Outlook by `shiftMs`, one after another; each time from the move
 * (Graph's change notification leaves at once) to the reschedule PATCH arriving at the booking service.
 */
async function personMoves(o: { keys: string[]; shiftMs: number }): Promise<number[]> {
  const latencies: number[] = [];
  for (const [i, key] of o.keys.entries()) {
    const e = graphEventOf(key);
    if (!e) throw new Error(`no Outlook event for ${key}`);
    const before = reschedulesOf(key).length;
    const t0 = performance.now();
    graphOf()
      .mailbox()
      .userEdit(e.id, { start: e.start + o.shiftMs, end: e.end + o.shiftMs });
    for (;;) {
      const patch = reschedulesOf(key)[before];
      if (patch) {
        latencies.push(arrival(patch) - t0);
        break;
      }
      if (performance.now() - t0 > 30_000) throw new Error(`move ${i + 1} did not reach the booking service within 30 s`);
      await sleep(5);
    }
  }
  return latencies;
}

const commands: Record<string, (m: Record<string, unknown>) => unknown> = {
  listRequests: () => booking.requests.filter((r) => r.method === 'GET' && /\/appointments\/$/.test(r.path)).length,
  bookingRequests: () => booking.requests.length,
  googleStats: (m) => {
    const user = users[Number(m.user ?? 0)]!;
    const calls = calendarCalls(user);
    const times = calls.map(arrival);
    return {
      calls: calls.filter((l) => !l.limited).length,
      limited: calls.filter((l) => l.limited).length,
      inserts: calls.filter((l) => l.kind === 'insert' && l.status === 200).length,
      events: user.events('primary').length,
      firstMs: times.length ? Math.min(...times) : null,
      lastMs: times.length ? Math.max(...times) : null,
      backfill: backfillWindow(
        calls,
        (l) => l.kind === 'insert',
        (l) => !l.limited,
      ),
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
  graphStats: () => {
    const calls = graphCalls();
    const answered = (l: GraphRequest) => !l.throttled;
    return {
      calls: calls.filter(answered).length,
      throttled: calls.filter((l) => l.status === 429).length,
      creates: calls.filter((l) => l.kind === 'create' && l.status === 201).length,
      writes: graphOf().writes(),
      events: graphOf().mailbox().events.size,
      maxInFlight: graphOf().maxInFlight(),
      backfill: backfillWindow(calls, (l) => l.kind === 'create', answered),
    };
  },
  /** Forgets the Graph calls so far (and the most in flight), to count from here. */
  graphResetLog: () => graphOf().resetLog(),
  /**
   * The change notifications told so far (see `told`), the Graph calls logged since the last reset,
   * and how long ago the last of them arrived (ms; null when there is none).
   */
  graphTold: () => {
    const last = graphOf().log.at(-1);
    return { ...told, calls: graphCalls().length, quietMs: last ? performance.now() - arrival(last) : null };
  },
  /** New appointments in booking calendar `calendarKey`, `stepMs` apart from `startMs`; their keys. */
  newAppointments: (m) =>
    Array.from(
      { length: Number(m.count) },
      (_, i) =>
        booking.create({
          start: Number(m.startMs) + i * Number(m.stepMs),
          calendar: { calendar_key: String(m.calendarKey), name: 'Bench' },
        }).appointment_key,
    ),
  /** Each appointment moved by `shiftMs` at the booking service. */
  reschedule: (m) => {
    for (const key of m.keys as string[]) booking.reschedule(key, booking.get(key)!.start + Number(m.shiftMs));
    return null;
  },
  webhooks: async (m) => {
    for (const key of m.keys as string[]) await postWebhook(m as { url: string; secret: string }, String(m.event), key, `${m.tag}-${key}`);
    return null;
  },
  /** How many of the appointments have an Outlook event at their booking time. */
  graphAgrees: (m) => (m.keys as string[]).filter((key) => graphEventOf(key)?.start === booking.get(key)!.start).length,
  personMoves: (m) => personMoves(m as unknown as { keys: string[]; shiftMs: number }),
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
    ...(graph ? { graphRoot: graph.graphRoot } : {}),
  },
});
