// A toy calendar target, in memory: the smallest adapter of the port (src/core/mirror/target.ts),
// to show what adding a target takes. Events have a version; a change journal gives the cursors.
import type { CalendarTarget, ChangeBatch, TargetEvent } from '../../src/core/mirror/target.ts';
import { TargetError } from '../../src/core/mirror/target.ts';
import type { TargetFixture } from './target-contract.ts';

export interface ToyBody {
  key: string;
  start: number;
  end: number;
  hash: string;
}

interface Stored {
  body: ToyBody;
  version: number;
}

export class ToyCalendar implements CalendarTarget<ToyBody> {
  readonly calendars = new Map<string, Map<string, Stored>>();
  /** Every change in order: [calendar, id]; a cursor is a position in it. */
  private readonly journal: [string, string][] = [];
  private version = 0;

  private calendar(id: string): Map<string, Stored> {
    const c = this.calendars.get(id);
    if (!c) throw new TargetError('not_found', `calendar ${id} was not found`, 404);
    return c;
  }

  private event(id: string, s: Stored | undefined): TargetEvent {
    if (!s) return { id, etag: null, deleted: true, start: null, end: null, ourHash: null };
    return { id, etag: String(s.version), deleted: false, start: s.body.start, end: s.body.end, ourHash: s.body.hash };
  }

  /** Any change, ours or a person's. */
  write(cal: string, id: string, body: ToyBody | undefined): number {
    const c = this.calendar(cal);
    if (body) c.set(id, { body, version: ++this.version });
    else c.delete(id);
    this.journal.push([cal, id]);
    return this.version;
  }

  async put(cal: string, id: string, body: ToyBody, condition: Parameters<CalendarTarget<ToyBody>['put']>[3]) {
    const now = this.calendar(cal).get(id);
    if (condition.kind === 'absent' && now) return { kind: 'exists' as const };
    if (condition.kind === 'etag' && String(now?.version) !== condition.etag)
      return now ? { kind: 'changed' as const } : { kind: 'missing' as const };
    return { kind: 'written' as const, etag: String(this.write(cal, id, body)) };
  }

  async get(cal: string, id: string) {
    const s = this.calendar(cal).get(id);
    return s ? { kind: 'found' as const, event: this.event(id, s) } : { kind: 'missing' as const };
  }

  async remove(cal: string, id: string, etag: string | null) {
    const s = this.calendar(cal).get(id);
    if (!s) return { kind: 'missing' as const };
    if (etag !== null && String(s.version) !== etag) return { kind: 'changed' as const };
    this.write(cal, id, undefined);
    return { kind: 'removed' as const };
  }

  async changes(cal: string, cursor: string | null): Promise<ChangeBatch> {
    const c = this.calendar(cal);
    const end = String(this.journal.length);
    if (cursor === null) return { mode: 'full', events: [...c].map(([id, s]) => this.event(id, s)), cursor: end };
    const ids = new Set(
      this.journal
        .slice(Number(cursor))
        .filter(([at]) => at === cal)
        .map(([, id]) => id),
    );
    return { mode: 'incremental', events: [...ids].map((id) => this.event(id, c.get(id))), cursor: end };
  }
}

export const toyTarget: TargetFixture<ToyBody> = {
  name: 'a toy calendar (in memory)',
  async start() {
    const toy = new ToyCalendar();
    let calendars = 0;
    return {
      target: toy,
      async calendar() {
        const id = `toy-${++calendars}`;
        toy.calendars.set(id, new Map());
        return id;
      },
      id: (n) => `e${n}`,
      body: (key, start, end, hash) => ({ key, start, end, hash }),
      async personMoves(cal, id, start, end) {
        const s = toy.calendars.get(cal)!.get(id)!;
        toy.write(cal, id, { ...s.body, start, end });
      },
      async personDeletes(cal, id) {
        toy.write(cal, id, undefined);
      },
      keepsTombstones: false,
      stop: async () => undefined,
    };
  },
};
