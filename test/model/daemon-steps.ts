// What reaches the daemon and what it does: webhooks delivered in order, newest first (the older
// ones arrive stale), repeated or lost; its jobs, alone or all woken ones at once; time passing;
// a reverse-sync round whose listing is overtaken by our own write; crashes and restarts.
import fc from 'fast-check';
import { Step } from './step.ts';
import type { World, CrashPoint } from './world.ts';
import { JOBS, type JobName } from './daemon.ts';
import { SLOTS, type Model } from './model.ts';
import { BookingMove } from './booking-steps.ts';

class Deliver extends Step {
  constructor(
    private readonly count: number,
    private readonly order: 'oldest-first' | 'newest-first' | 'lose',
  ) {
    super();
  }
  plan(): string {
    return this.order === 'lose' ? `lose up to ${this.count} webhooks` : `deliver up to ${this.count} webhooks, ${this.order}`;
  }
  protected async act(_m: Model, w: World): Promise<string> {
    const waiting = w.undelivered();
    const chosen = this.order === 'newest-first' ? waiting.slice(-this.count).reverse() : waiting.slice(0, this.count);
    if (!chosen.length) return 'webhooks: none waiting';
    if (this.order === 'lose') {
      for (const i of chosen) w.lose(i);
      return `webhooks: lost ${chosen.map((i) => w.notificationLabel(i)).join(', ')}`;
    }
    const taken: string[] = [];
    for (const i of chosen) if (await w.deliver(i)) taken.push(w.notificationLabel(i));
    return `webhooks: delivered ${taken.join(', ') || 'none (refused)'}`;
  }
}

class Redeliver extends Step {
  constructor(private readonly pick: number) {
    super();
  }
  plan(): string {
    return 'deliver an old webhook again';
  }
  protected async act(_m: Model, w: World): Promise<string> {
    const done = w.deliveredOnes();
    const i = done[this.pick % Math.max(1, done.length)];
    if (i === undefined) return 'webhooks: nothing delivered yet to repeat';
    await w.deliver(i);
    return `webhooks: ${w.notificationLabel(i)} again (a retry, or news that is old by now)`;
  }
}

class RunJob extends Step {
  constructor(private readonly job: JobName) {
    super();
  }
  plan(): string {
    return `run ${this.job}`;
  }
  protected async act(_m: Model, w: World): Promise<string> {
    const r = await w.life.run(this.job);
    return `daemon: ${this.job}: ${r.status}${r.summary ? `, ${r.summary}` : ''}`;
  }
}

class RunWoken extends Step {
  plan(): string {
    return 'run the woken jobs together';
  }
  protected async act(_m: Model, w: World): Promise<string> {
    const jobs = [...w.life.woken];
    await w.life.runWoken();
    return `daemon: woken jobs ran together: ${jobs.join(', ') || 'none'}`;
  }
}

class Wait extends Step {
  constructor(private readonly seconds: number) {
    super();
  }
  plan(): string {
    return `${this.seconds} s pass`;
  }
  protected async act(_m: Model, w: World): Promise<string> {
    const woken = [...w.life.woken];
    await w.passTime(this.seconds * 1000);
    return `time: ${this.seconds} s pass${woken.length ? ` (after the woken ${woken.join(', ')} ran)` : ''}`;
  }
}

/**
 * The reverse sync's listing is answered, but slowly: meanwhile the waiting webhooks arrive, are
 * read and written to Google, so what the listing shows is older than our latest write.
 */
class OvertakenRound extends Step {
  /**
   * `full`: Google forgot the sync token first, so the round lists every event (a long, slow
   * listing). `move`: meanwhile the booking service moves an appointment (its webhook among those
   * that arrive), so the writer's pass changes an event the listing already showed.
   */
  constructor(
    private readonly full: boolean,
    private readonly move: BookingMove | null,
  ) {
    super();
  }
  plan(): string {
    return `a reverse-sync round${this.full ? ' listing everything' : ''} overtaken by ${this.move ? 'a booking move, ' : ''}webhooks, deliveries and a writer pass`;
  }
  protected async act(m: Model, w: World): Promise<string> {
    if (this.full) w.fake.state.invalidateSyncTokens();
    const hold = w.fake.holdNext({ kind: 'list' });
    const round = w.life.run('google-reverse-sync');
    const held = await Promise.race([hold.arrived.then(() => true), round.then(() => false)]);
    if (this.move) await this.move.run(m, w);
    const arrived = w.undelivered();
    for (const i of arrived) await w.deliver(i);
    await w.life.run('deliveries');
    const writer = await w.life.run('google-writer');
    hold.release();
    const r = await round;
    return (
      `daemon: reverse-sync round${this.full ? ' (sync tokens expired)' : ''} ${held ? 'held at its listing' : 'not held'} while ${arrived.length} webhooks arrived ` +
      `and the writer ran (${writer.summary ?? writer.status}); round: ${r.summary ?? r.status}`
    );
  }
}

class Crash extends Step {
  constructor(private readonly point: CrashPoint) {
    super();
  }
  plan(): string {
    return `kill the daemon (${this.point}) and start it again`;
  }
  protected async act(_m: Model, w: World): Promise<string> {
    const what = await w.crash(this.point);
    return `crash: killed ${what}; life ${w.lives} starts on the same database`;
  }
}

export const daemonSteps = [
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom('oldest-first' as const, 'oldest-first' as const, 'newest-first' as const, 'lose' as const),
      )
      .map(([n, o]) => new Deliver(n, o)),
  },
  { weight: 1, arbitrary: fc.nat(50).map((p) => new Redeliver(p)) },
  { weight: 6, arbitrary: fc.constantFrom(...JOBS).map((j) => new RunJob(j)) },
  { weight: 6, arbitrary: fc.constant(null).map(() => new RunWoken()) },
  { weight: 3, arbitrary: fc.constantFrom(1, 3, 6, 15, 40, 70).map((s) => new Wait(s)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.boolean(), fc.option(fc.tuple(fc.nat(50), fc.integer({ min: 0, max: SLOTS - 1 })), { nil: null }))
      .map(([full, move]) => new OvertakenRound(full, move && new BookingMove(...move))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<CrashPoint>('between-jobs', 'google-write-in-flight', 'reschedule-answer-lost').map((p) => new Crash(p)),
  },
];
