// The end of a history: the faults stop and the daemon is left to finish, as it would on its own
// schedule, until it knows of nothing left to do. Agreement is the first moment, watched after every
// job, at which everything a person can see agrees; from then on, through the rest of the settling
// and 20 seconds of schedule after it, nothing may be written anywhere: any write after agreement is
// one no person needed (but for a delete that learns of a person's deletion, person-deletions.ts).
import type { World } from './world.ts';
import type { JobName } from './daemon.ts';
import { writesSince as sideWrites, type WritesSince } from './person-deletions.ts';

const POLL_EVERY_MS = 5 * 60_000;
/** Time between passes while work is left: retries back off up to minutes, so the steps grow. */
const STEPS_MS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600].map((s) => s * 1000);
const MAX_CYCLES = 30;
const TARGETS = ['google', 'caldav', 'microsoft'] as const;
const CYCLE: JobName[] = [
  'deliveries',
  ...TARGETS.map((t) => `${t}-writer` as const),
  ...TARGETS.map((t) => `${t}-reverse-sync` as const),
  ...TARGETS.map((t) => `${t}-reschedules` as const),
  ...TARGETS.map((t) => `${t}-writer` as const),
];

/** Where the calls log of each service stood at a moment (what was sent before it), and when. */
export interface Mark {
  google: number;
  caldav: number;
  outlook: number;
  booking: number;
  at: number;
}

export interface Settled {
  cycles: number;
  /** The first moment `agrees` held (watched after every job); null when it never did while settling. */
  agreedAt: Mark | null;
}

export const mark = (w: World): Mark => ({
  google: w.fake.log.length,
  caldav: w.caldav.log.length,
  outlook: w.outlook.graph.log.length,
  booking: w.sim.requests.length,
  at: w.clock.now(),
});

/**
 * Runs the daemon until a whole pass of its jobs finds nothing to do; throws when it never does.
 * `agrees` (everything a person sees agrees) is asked after every job until it first holds.
 */
export async function settle(w: World, agrees?: () => Promise<boolean>): Promise<Settled> {
  let agreedAt: Mark | null = null;
  const watch = async () => {
    if (agreedAt === null && agrees && (await agrees())) agreedAt = mark(w);
  };
  w.setFaults({ google: false, caldav: false, outlook: false, booking: false });
  await watch();
  // The scheduled poll comes: it finds what lost webhooks never announced.
  await w.passTime(POLL_EVERY_MS);
  await w.life.run('poll');
  await watch();
  let lastPoll = w.clock.now();
  // The booking service's retries bring whatever was neither delivered nor lost, newest first, so
  // that older news arrives last: a notification is a hint, never the state.
  for (const i of w.undelivered().reverse()) {
    await w.deliver(i);
    await watch();
  }

  let last = '';
  for (let cycle = 1; cycle <= MAX_CYCLES; cycle++) {
    const before = w.writeCalls();
    await w.passTime(STEPS_MS[Math.min(cycle - 1, STEPS_MS.length - 1)]!);
    if (w.clock.now() - lastPoll >= POLL_EVERY_MS) {
      await w.life.run('poll');
      lastPoll = w.clock.now();
      await watch();
    }
    for (const job of CYCLE) {
      await w.life.run(job);
      await watch();
    }
    await w.life.drainWakes();
    await watch();
    const after = w.writeCalls();
    const pending = w.life.pending();
    last = `pending ${JSON.stringify(pending)}, writes in the last pass: ${JSON.stringify({ google: after.google - before.google, caldav: after.caldav - before.caldav, outlook: after.outlook - before.outlook, booking: after.booking - before.booking })}`;
    if (
      after.google === before.google &&
      after.caldav === before.caldav &&
      after.outlook === before.outlook &&
      after.booking === before.booking &&
      pending.deliveries + pending.google + pending.caldav + pending.outlook + pending.reschedules === 0
    ) {
      return { cycles: cycle, agreedAt };
    }
  }
  throw new Error(`the daemon did not settle in ${MAX_CYCLES} passes (${last})`);
}

/** 20 seconds of the daemon's schedule (deliveries every 2 s, each writer every 5 s, ...). */
export async function quietPeriod(w: World): Promise<void> {
  for (let second = 1; second <= 20; second++) {
    await w.passTime(1000);
    if (second % 2 === 0) await w.life.run('deliveries');
    // The reverse sync runs far more often here than its schedule would: it can only find more.
    for (const t of TARGETS) {
      if (second % 5 === 0) await w.life.run(`${t}-writer`);
      if (second % 5 === 0) await w.life.run(`${t}-reverse-sync`);
      if (second % 10 === 0) await w.life.run(`${t}-reschedules`);
    }
    if (second === 10) await w.life.run('poll');
  }
}

/**
 * Every write call since `from` to Google, CalDAV, Outlook or the booking service, in words (one
 * answered 409, 412 or 410 included); apart, the deletes that learned of a person's deletion no
 * read had shown calbridge (person-deletions.ts), which are not writes it could have spared.
 */
export function writesSince(w: World, from: Mark): WritesSince {
  const google = sideWrites(
    w.fake.log,
    from.google,
    (r) => ['insert', 'update', 'patch', 'delete'].includes(r.kind),
    (r) => (r.kind === 'delete' && (r.status === 404 || r.status === 410) ? (r.eventId ?? null) : null),
    w.googleDeletions,
    (r) => `Google ${r.kind} of event ${r.eventId ?? '?'} in ${r.calendarId ?? '?'} (answered ${r.status})`,
  );
  const caldav = w.caldav.writesSince(from.caldav);
  const outlook = w.outlook.writesSince(from.outlook);
  const booking = w.sim.requests.slice(from.booking).filter((r) => r.path.startsWith('/api/v3/appointments/') && r.method !== 'GET');
  return {
    wasted: [...google.wasted, ...caldav.wasted, ...outlook.wasted, ...booking.map((r) => `booking service ${r.method} ${r.path}`)],
    learned: google.learned + caldav.learned + outlook.learned,
  };
}
