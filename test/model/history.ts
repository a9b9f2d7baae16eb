// One seeded random history, run and judged: fast-check generates the steps (and shrinks a failing
// history to a short one), a fresh world plays them, the daemon settles, the promises are checked.
// The CI test and `npm run soak` both call runHistory; a seed alone reproduces a history.
import fc from 'fast-check';
import { Model } from './model.ts';
import { World } from './world.ts';
import { Book, bookingSteps } from './booking-steps.ts';
import { calendarSteps } from './calendar-steps.ts';
import { daemonSteps } from './daemon-steps.ts';
import { mark, quietPeriod, settle, writesSince, type Settled } from './settle.ts';
import { agreement, noRewrites, personMoves, reschedules } from './properties.ts';

const MAX_STEPS = 100;
/** Histories CI plays (seeds 1 to CI_RUNS): enough for every planted bug (plants.ts), within ~3 minutes. */
export const CI_RUNS = 60;

const step = fc.oneof(...bookingSteps, ...calendarSteps, ...daemonSteps);
/**
 * Up to MAX_STEPS steps; with `minSteps`, at least that many generated (a long history for the soak:
 * fast-check's commands have no lower bound, so they come as an array, which shrinks no shorter).
 */
const stepsOf = (minSteps: number) =>
  minSteps > 0
    ? fc.array(step, { minLength: minSteps, maxLength: Math.ceil(minSteps * 1.1) })
    : fc.commands([step], { maxCommands: MAX_STEPS, size: 'max' });

class BrokenPromise extends Error {
  override name = 'BrokenPromise';
}

function verdict(m: Model, w: World, failures: [string, string[]][]): void {
  const broken = failures.filter(([, problems]) => problems.length);
  if (!broken.length) return;
  const lines = broken.flatMap(([promise, problems]) => [`broken promise: ${promise}`, ...problems.map((p) => `  - ${p}`)]);
  lines.push(`history (${m.step} steps, ${w.lives} lives of the daemon):`, ...m.log.map((l) => `  ${l}`));
  throw new BrokenPromise(lines.join('\n'));
}

async function settleOrBreak(m: Model, w: World, agrees?: () => Promise<boolean>): Promise<Settled | undefined> {
  try {
    return await settle(w, agrees);
  } catch (e) {
    verdict(m, w, [['the daemon settles once the faults stop', [(e as Error).message]]]);
    return undefined;
  }
}

interface Counted {
  steps: number;
  writesAfterAgreement: number;
  /** Deletes after agreement that learned of a person's deletion no read had shown (person-deletions.ts). */
  learnedDeletions: number;
}

/** Plays one history to its end and checks every promise; throws BrokenPromise with the report. */
async function play(
  seed: number,
  history: Iterable<fc.AsyncCommand<Model, World>>,
  counted: Counted,
  log?: (lines: string[]) => void,
): Promise<void> {
  const w = await World.start(seed);
  const m = new Model();
  try {
    // The starting point: four appointments booked in two calendars, mirrored and in the feeds.
    for (const [calendar, slot] of [
      [0, 0],
      [0, 3],
      [1, 1],
      [1, 6],
    ] as const)
      await new Book(calendar, slot, false).run(m, w);
    await settleOrBreak(m, w);
    m.note('daemon: settled; the history begins');
    const prologue = m.step;
    await fc.asyncModelRun(() => ({ model: m, real: w }), history);
    counted.steps += m.step - prologue;
    // Agreement: the first moment everything a person sees agrees (watched after every job).
    const settled = await settleOrBreak(m, w, async () => (await agreement(m, w)).length === 0);
    m.note('daemon: settled; faults stopped');
    verdict(m, w, [
      ['the booking service, Google, CalDAV, Outlook and every feed agree', await agreement(m, w)],
      [
        "reschedules only for people's moves, never onto a taken slot; no cancellation or status change at the booking service",
        reschedules(m, w),
      ],
      ["a person's uncontested move is what the booking service holds", personMoves(m, w)],
      ['no calendar is written what its event already shows', noRewrites(m, w)],
    ]);
    // Agreed at the end if not before (the verdict above holds); then 20 s of schedule.
    const agreedAt = settled?.agreedAt ?? mark(w);
    await quietPeriod(w);
    const { wasted: afterAgreement, learned } = writesSince(w, agreedAt);
    counted.writesAfterAgreement += afterAgreement.length;
    counted.learnedDeletions += learned;
    verdict(m, w, [
      ['from the first moment everything agrees, through settling and 20 s of schedule, nothing is written anywhere', afterAgreement],
    ]);
  } finally {
    log?.(m.log);
    await w.close();
  }
}

export interface HistoryOutcome {
  seed: number;
  ok: boolean;
  /** Steps played over every run of this seed (shrinking replays many). */
  steps: number;
  /** Writes to Google or the booking service in the quiet period after agreement (each one a broken promise). */
  writesAfterAgreement: number;
  /** Deletes after agreement that learned of a person's deletion no read had shown: not counted as writes. */
  learnedDeletions: number;
  ms: number;
  /** For a failure: fast-check's report of the shrunk history, with ours inside. */
  report?: string;
}

export async function runHistory(
  seed: number,
  options: {
    shrinkMs?: number;
    log?: (lines: string[]) => void;
    minSteps?: number;
  } = {},
): Promise<HistoryOutcome> {
  const started = Date.now();
  const counted: Counted = { steps: 0, writesAfterAgreement: 0, learnedDeletions: 0 };
  const details = await fc.check(
    fc.asyncProperty(stepsOf(options.minSteps ?? 0), (history) => play(seed, history, counted, options.log)),
    // The time limit only ever cuts shrinking short (fast-check looks at it between runs); 0 skips shrinking.
    options.shrinkMs === 0
      ? { seed, numRuns: 1, endOnFailure: true }
      : { seed, numRuns: 1, interruptAfterTimeLimit: options.shrinkMs ?? 120_000, markInterruptAsFailure: false },
  );
  const ms = Date.now() - started;
  if (!details.failed) return { seed, ok: true, ...counted, ms };
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const report = [
    `history seed ${seed} broke a promise (shrunk ${details.numShrinks} times; fast-check path ${JSON.stringify(details.counterexamplePath)})`,
    error,
    `reproduce: npm run soak -- --seed ${seed}`,
  ].join('\n');
  return { seed, ok: false, ...counted, ms, report };
}
