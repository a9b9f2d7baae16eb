// The CalDAV server of a history's world: a real Radicale (one per history, in its own folder), one
// calendar every booking calendar maps to, and a phone's calendar app for the people who move and
// delete events there. The daemon reaches it through a gate (gate.ts) that plays fault windows and
// lets the history count every call: the writes after agreement, the wasted ones, and where
// calbridge last put each event (not a person).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEvent, type ReadEvent } from '../../src/caldav/event-reader.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { movedObject } from '../caldav/mirror-env.ts';
import { startRadicale, type Radicale } from '../caldav/radicale.ts';
import { PASSWORD, USER } from '../caldav/setup.ts';
import { startGate, type HttpGate } from './gate.ts';
import { clockTime, ZONE } from './model.ts';
import { PersonDeletions, writesSince, type WritesSince } from './person-deletions.ts';

export const CALDAV_CALENDAR = 'Clinic';
const FOLDER = 'clinic';
const WRITES = new Set(['PUT', 'DELETE']);

/** One call calbridge made to the CalDAV server, as the server answered it. */
interface CalDavCall {
  method: string;
  path: string;
  status: number;
}

/** mulberry32: the fault windows' draws, seeded by the history, so a seed replays the same faults. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const keyOfPath = (path: string): string | null => {
  const m = /\/([^/]+)\.ics$/.exec(path);
  return m ? decodeURIComponent(m[1]!) : null;
};

const sameShown = (a: ReadEvent, b: ReadEvent) =>
  a.start === b.start &&
  a.end === b.end &&
  a.summary === b.summary &&
  a.description === b.description &&
  a.status === b.status &&
  a.ourHash === b.ourHash;

export class CalDavSide {
  /** Every call calbridge made that reached the server, in order. */
  readonly log: CalDavCall[] = [];
  /** A listing (sync-collection REPORT) or a read of the object shows calbridge a person's deletion. */
  private readonly deletions = new PersonDeletions<CalDavCall>(
    this.log,
    (c, id) => (c.method === 'REPORT' && c.status < 300) || (c.method === 'GET' && keyOfPath(c.path) === id && c.status < 500),
  );
  /** Successful PUTs that left the object as it was (times, title, description, status, our hash): wasted calls. */
  readonly rewrites: string[] = [];
  /** Per appointment, the start calbridge last wrote (not a person's edit), and how many writes it made. */
  readonly writtenStarts = new Map<string, number>();
  readonly writeCounts = new Map<string, number>();
  private faults: { rate: number; after: boolean } | null = null;
  private readonly random: () => number;
  /** A PUT under way: the object before it, and the body sent. */
  private readonly before = new Map<string, ReadEvent | null>();
  private readonly pendingBodies = new Map<string, string>();

  private constructor(
    private readonly radicale: Radicale,
    readonly app: CalendarApp,
    private readonly calendarUrl: string,
    seed: number,
    private readonly codeOf: (key: string) => string,
  ) {
    this.random = seeded(seed);
  }

  static async start(seed: number, codeOf: (key: string) => string): Promise<CalDavSide> {
    const radicale = await startRadicale({ users: { [USER]: PASSWORD } });
    const app = new CalendarApp(radicale.url, USER, PASSWORD);
    const calendarUrl = await app.makeCalendar(`/${USER}/${FOLDER}/`, CALDAV_CALENDAR);
    return new CalDavSide(radicale, app, calendarUrl, seed, codeOf);
  }

  /** The config section's server and account (calendars, reverse sync and the rest come from the world). */
  account(url: string): { url: string; username: string; password: string } {
    return { url, username: USER, password: PASSWORD };
  }

  /** The gate one life of the daemon talks to the server through. */
  gate(): Promise<HttpGate> {
    return startGate(this.radicale.url, {
      fault: (method) => {
        if (!this.faults || this.random() >= this.faults.rate) return 'none';
        return this.faults.after && WRITES.has(method) ? 'lose' : 'refuse';
      },
      onRequest: (method, path, body) => {
        const key = keyOfPath(path);
        if (method === 'PUT' && key) {
          this.before.set(path, this.object(key) ?? null);
          this.pendingBodies.set(path, body);
        }
      },
      onAnswer: (method, path, status) => {
        this.log.push({ method, path, status });
        const key = keyOfPath(path);
        if (method !== 'PUT' || !key || status < 200 || status >= 300) return;
        const written = this.parse(this.pendingBodies.get(path) ?? '');
        const before = this.before.get(path);
        if (written) {
          this.writeCounts.set(key, (this.writeCounts.get(key) ?? 0) + 1);
          this.writtenStarts.set(key, written.start);
          if (before && sameShown(before, written))
            this.rewrites.push(`${this.codeOf(key)}: a CalDAV PUT of ${clockTime(written.start)} over the very same object`);
        }
      },
    });
  }

  private parse(ics: string): ReadEvent | undefined {
    try {
      return readEvent(ics, ZONE);
    } catch {
      return undefined;
    }
  }

  setFaults(on: boolean, after: boolean): void {
    this.faults = on ? { rate: 0.3, after } : null;
  }

  private folder(): string {
    return join(this.radicale.storage, 'collection-root', USER, FOLDER);
  }

  /** The object of an appointment as the server stores it now (a cancelled one counts as deleted). */
  object(key: string): ReadEvent | undefined {
    try {
      const e = this.parse(readFileSync(join(this.folder(), `${encodeURIComponent(key)}.ics`), 'utf8'));
      return e && e.status !== 'CANCELLED' ? e : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every live object the calendar holds, by appointment key (null: not one of ours). */
  objects(): { key: string | null; event: ReadEvent }[] {
    return readdirSync(this.folder())
      .filter((f) => f.endsWith('.ics'))
      .flatMap((f) => {
        const e = this.parse(readFileSync(join(this.folder(), f), 'utf8'));
        return e && e.status !== 'CANCELLED' ? [{ key: e.key, event: e }] : [];
      });
  }

  private url(key: string): string {
    return new URL(`${encodeURIComponent(key)}.ics`, this.calendarUrl).href;
  }

  /** A person drags the event in their app: a PUT of the edited object on the ETag it had. False when the save failed. */
  async personMoves(key: string, start: number, end: number): Promise<boolean> {
    const current = await this.app.get(this.url(key));
    if (current.status !== 200 || !current.etag) return false;
    const saved = await this.app.save(this.url(key), movedObject(current.body, start, end), current.etag);
    return saved.status >= 200 && saved.status < 300;
  }

  async personDeletes(key: string): Promise<boolean> {
    const current = await this.app.get(this.url(key));
    if (current.status !== 200) return false;
    const status = await this.app.delete(this.url(key), current.etag ?? undefined);
    const deleted = status >= 200 && status < 300;
    if (deleted) this.deletions.note(key);
    return deleted;
  }

  /** Writes (PUT, DELETE) since log position `from`, in words (person-deletions.ts). */
  writesSince(from: number): WritesSince {
    return writesSince(
      this.log,
      from,
      (c) => WRITES.has(c.method),
      (c) => (c.method === 'DELETE' && c.status === 404 ? keyOfPath(c.path) : null),
      this.deletions,
      (c) => `CalDAV ${c.method} of ${c.path} (answered ${c.status})`,
    );
  }

  writeCount(): number {
    return this.log.filter((c) => WRITES.has(c.method)).length;
  }

  close(): Promise<void> {
    return this.radicale.stop();
  }
}
