// One step of a history: a fast-check command that acts on the world, keeps the model in step and
// says, once run, what it did in words (the report of a failing history is these lines).
import type fc from 'fast-check';
import type { World } from './world.ts';
import { DURATION_MS, type Model } from './model.ts';

export abstract class Step implements fc.AsyncCommand<Model, World> {
  private done = '';

  /** What the step will try, before it ran (fast-check prints this for steps of a shrunk history). */
  abstract plan(): string;

  /** Does it; returns what happened, targets resolved ("booking moves AG00003 09:00 -> 11:30"). */
  protected abstract act(m: Model, w: World): Promise<string>;

  check(_m: Readonly<Model>): boolean {
    return true;
  }

  async run(m: Model, w: World): Promise<void> {
    m.step++;
    this.done = await this.act(m, w);
    m.note(this.done);
    markContested(m, w);
  }

  toString(): string {
    return this.done ? `${this.plan()} [${this.done}]` : this.plan();
  }
}

/** A person's move is contested once another appointment of its booking calendar holds its new slot. */
function markContested(m: Model, w: World): void {
  for (const move of m.moves) {
    if (move.contested) continue;
    const a = m.byKey(move.key);
    if (a && w.occupants(a.calendarKey, move.to, move.to + DURATION_MS, a.key).length) move.contested = true;
  }
}
