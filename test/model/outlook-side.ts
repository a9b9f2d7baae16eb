// Outlook in a history's world: the Graph simulator with one mailbox, whose default calendar every
// booking calendar maps to, and the people who move and delete events there. The daemon reaches it
// (sign-in and Graph alike) through a gate (gate.ts), so a crash cuts it off as it cuts off the
// others. The simulator plays the fault windows itself; the history watches each write to count
// the wasted ones and where calbridge last put each event (not a person).
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import { startGraphSimulator, type GraphSimulator, type LoggedRequest, type SimulatedEvent } from '../../src/microsoft/simulator/index.ts';
import { startGate, type HttpGate } from './gate.ts';
import { clockTime } from './model.ts';
import { PersonDeletions, writesSince, type WritesSince } from './person-deletions.ts';

const MAILBOX = 'reception@clinic.example';
const TENANT = 'b2c1a5e4-0d1f-4c6a-9f1e-3c2d4b5a6e7f';
const CLIENT_ID = '6731de76-14a6-49ae-97bc-6eba6914391e';
const CLIENT_SECRET = 'q8Q~model-client-secret';
const WRITE_KINDS = new Set(['create', 'patch', 'delete']);

/** The Graph id an event call names (the last segment of its path). */
const eventIdOf = (path: string): string | null => {
  const m = /\/events\/([^/?]+)/.exec(path);
  return m ? decodeURIComponent(m[1]!) : null;
};
const keyOf = (e: SimulatedEvent): string | undefined => e.extended.find((p) => p.id === KEY_PROPERTY)?.value;
const sameShown = (a: SimulatedEvent, b: SimulatedEvent) =>
  a.start === b.start && a.end === b.end && a.subject === b.subject && a.body.content === b.body.content && a.showAs === b.showAs;

export class OutlookSide {
  /** Successful PATCHes that left the event as it was (times, subject, body, free/busy): wasted calls. */
  readonly rewrites: string[] = [];
  /** Per appointment, the start calbridge last wrote (not a person's edit), and how many writes it made. */
  readonly writtenStarts = new Map<string, number>();
  readonly writeCounts = new Map<string, number>();
  /** A delta listing or a read of the event shows calbridge a person's deletion. */
  private readonly deletions: PersonDeletions<LoggedRequest>;

  private constructor(
    readonly graph: GraphSimulator,
    private readonly codeOf: (key: string) => string,
  ) {
    this.deletions = new PersonDeletions(
      graph.log,
      (c, id) => (c.kind === 'delta' && c.status < 300) || (c.kind === 'get' && eventIdOf(c.path) === id && c.status < 500),
    );
    this.watchWrites();
  }

  static async start(seed: number, codeOf: (key: string) => string): Promise<OutlookSide> {
    const graph = await startGraphSimulator({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      mailboxes: [MAILBOX],
      retryAfterSeconds: 0,
      seed,
    });
    return new OutlookSide(graph, codeOf);
  }

  /** The config section, with sign-in and Graph both at the gate's address. */
  section(gateUrl: string): Record<string, unknown> {
    return {
      tenant: TENANT,
      credentials: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
      authority_url: `${gateUrl}/`,
      graph_root: `${gateUrl}/`,
      calendars: [{ calendar_key: '*', user: MAILBOX, calendar: 'Calendar' }],
      requests_per_minute: 1000,
      reverse_sync: { schedule: '0 0 1 1 *', push_notifications: false, on_conflict: 'revert', on_delete: 'recreate' },
    };
  }

  /**
   * Every life's gate on the same port: Graph's deltaLink, stored as the cursor, names the address
   * the daemon called, and graph_root does not change across a restart.
   */
  async gate(): Promise<HttpGate> {
    const gate = await startGate(this.graph.url, { ownLinks: true, ...(this.port ? { port: this.port } : {}) });
    this.port = Number(new URL(gate.url).port);
    return gate;
  }

  private port: number | undefined;

  private mailbox() {
    return this.graph.mailbox(MAILBOX);
  }

  /** Notes every create and PATCH calbridge makes (a person's edits do not go through these). */
  private watchWrites(): void {
    const box = this.mailbox();
    const note = (e: SimulatedEvent) => {
      const key = keyOf(e);
      if (!key) return;
      this.writeCounts.set(key, (this.writeCounts.get(key) ?? 0) + 1);
      this.writtenStarts.set(key, e.start);
    };
    const create = box.create.bind(box);
    box.create = (calendarId, body) => {
      const made = create(calendarId, body);
      if (!made.repeated) note(made.event);
      return made;
    };
    const patch = box.patch.bind(box);
    box.patch = (id, calendarId, body, ifMatch) => {
      const before = box.events.get(id);
      const copy = before && { ...before, body: { ...before.body } };
      const after = patch(id, calendarId, body, ifMatch);
      if (copy && sameShown(copy, after))
        this.rewrites.push(`${this.codeOf(keyOf(after) ?? id)}: an Outlook PATCH of ${clockTime(after.start)} over the very same event`);
      note(after);
      return after;
    };
  }

  /** Our live event of an appointment (deleted events leave the calendar in Graph). */
  event(key: string): SimulatedEvent | undefined {
    return [...this.mailbox().events.values()].find((e) => keyOf(e) === key);
  }

  events(): { key: string | null; event: SimulatedEvent }[] {
    return [...this.mailbox().events.values()].map((event) => ({ key: keyOf(event) ?? null, event }));
  }

  personMoves(key: string, start: number, end: number): boolean {
    const e = this.event(key);
    if (!e) return false;
    this.mailbox().userEdit(e.id, { start, end });
    return true;
  }

  personDeletes(key: string): boolean {
    const e = this.event(key);
    if (!e) return false;
    this.mailbox().userDelete(e.id);
    this.deletions.note(e.id);
    return true;
  }

  setFaults(on: boolean, after: boolean): void {
    this.graph.setFaults(on ? { rate: 0.3, kinds: [429, 500, 503, 504, 'network'], after } : null);
  }

  /** Writes (create, PATCH, DELETE) since log position `from`, in words. */
  writesSince(from: number): WritesSince {
    return writesSince(
      this.graph.log,
      from,
      (r) => WRITE_KINDS.has(r.kind),
      (r) => (r.kind === 'delete' && r.status === 404 ? eventIdOf(r.path) : null),
      this.deletions,
      (r) => `Outlook ${r.kind} of ${r.path} (answered ${r.status})`,
    );
  }

  writeCount(): number {
    return this.graph.log.filter((r) => WRITE_KINDS.has(r.kind)).length;
  }

  close(): Promise<void> {
    return this.graph.close();
  }
}
