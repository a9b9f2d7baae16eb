// Everything one history runs against: the booking simulator and the fake Google over HTTP, one
// SQLite file, and the daemon living on it (restarted after each crash). The simulator's webhooks
// are not sent by themselves: they wait in an outbox, and the history delivers, loses, repeats or
// reorders them, as a booking service with retries and a flaky network does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { listen as listenHono } from '../../src/net/hono-server.ts';
import ICAL from 'ical.js';
import type { Config } from '../../src/config/schema.ts';
import { startSimulator, type Simulator, type SimAppointment } from '../../src/booking/simulator/index.ts';
import { overlaps } from '../../src/core/mirror/reschedule-decide.ts';
import { startGoogleSimulator, type LoggedRequest, type SimulatedEvent, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { testConfig, TEST_WEBHOOK_SECRET } from '../helpers/context.ts';
import { simulatorClient } from '../helpers/simulator.ts';
import { CLIENT } from '../google/google-env.ts';
import { SkewClock } from './skew-clock.ts';
import { gateBooking, startGate, type BookingGate, type HttpGate } from './gate.ts';
import { CALDAV_CALENDAR, CalDavSide } from './caldav-side.ts';
import { OutlookSide } from './outlook-side.ts';
import { startLife, type DaemonLife } from './daemon.ts';
import { PersonDeletions } from './person-deletions.ts';
import { C1, C2, GOOGLE_CALENDARS, isCancelled, ZONE, clockTime } from './model.ts';

const PUBLIC_URL = 'https://calbridge.test';
export const FEEDS = {
  everything: { name: 'Everything', token: 'model-feed-everything-0123456789' },
  clinicOne: { name: 'Clinic one', token: 'model-feed-clinic-one-0123456789', calendarKey: C1 },
};
const WRITE_KINDS = new Set(['insert', 'update', 'patch', 'delete']);

export interface FeedEvent {
  key: string;
  start: number;
  end: number;
  cancelled: boolean;
}

const HASH = 'calbridge_hash';
const sameContent = (a: SimulatedEvent, b: SimulatedEvent) =>
  a.status === b.status &&
  a.summary === b.summary &&
  a.description === b.description &&
  Date.parse(a.start?.dateTime ?? '') === Date.parse(b.start?.dateTime ?? '') &&
  Date.parse(a.end?.dateTime ?? '') === Date.parse(b.end?.dateTime ?? '') &&
  a.extendedProperties?.private?.[HASH] === b.extendedProperties?.private?.[HASH];

export type CrashPoint = 'between-jobs' | 'google-write-in-flight' | 'reschedule-answer-lost';

export class World {
  life!: DaemonLife;
  lives = 0;
  /** Reschedules the booking service applied, per appointment. */
  readonly rescheduled = new Map<string, number>();
  /** Reschedules sent while another appointment held the slot: each a broken promise. */
  readonly takenSlotReschedules: string[] = [];
  /** Successful Google writes that left the event as it was (our hash, times, title, status): wasted calls. */
  readonly rewrites: string[] = [];
  /** Per appointment, the start of the last event calbridge wrote to Google (not a person's edit), and how many it wrote. */
  readonly writtenStarts = new Map<string, number>();
  readonly writeCounts = new Map<string, number>();
  private readonly delivered = new Set<number>();
  private readonly lost = new Set<number>();
  private gates: { google: HttpGate; caldav: HttpGate; outlook: HttpGate; booking: BookingGate } | undefined;
  /** People's deletions in Google; a listing or a read of the event shows calbridge one (person-deletions.ts). */
  readonly googleDeletions: PersonDeletions<LoggedRequest>;
  private crashAfterReschedule = false;

  private constructor(
    readonly sim: Simulator,
    readonly fake: GoogleSimulator,
    readonly caldav: CalDavSide,
    readonly outlook: OutlookSide,
    readonly clock: SkewClock,
    readonly url: string,
    private readonly server: Server,
    private readonly dir: string,
    private readonly route: { fetch: (r: Request) => Response | Promise<Response> },
  ) {
    this.googleDeletions = new PersonDeletions(
      fake.log,
      (c, id) => (c.kind === 'list' && c.status < 300) || (c.kind === 'get' && c.eventId === id && c.status < 500),
    );
  }

  static async start(seed: number): Promise<World> {
    const clock = new SkewClock();
    const route = { fetch: (_r: Request): Response | Promise<Response> => new Response('down', { status: 503 }) };
    const server: Server = await listenHono((r) => route.fetch(r), { port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sim = await startSimulator({
      timezone: ZONE,
      clock,
      notify: { deliver: false, rewriteCallback: (u) => u.replace(PUBLIC_URL, url) },
    });
    sim.addWebhook(`${PUBLIC_URL}/webhooks/${TEST_WEBHOOK_SECRET}/`, [
      'appointment.created',
      'appointment.updated',
      'appointment.canceled',
    ]);
    const fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret, seed });
    const codeOf = (key: string) => sim.get(key)?.search_code ?? key;
    const caldav = await CalDavSide.start(seed, codeOf);
    const outlook = await OutlookSide.start(seed, codeOf);
    const world = new World(sim, fake, caldav, outlook, clock, url, server, mkdtempSync(join(tmpdir(), 'calbridge-model-')), route);
    world.watchRewrites();
    await world.startLife();
    return world;
  }

  private config(googleRoot: string, caldavRoot: string, outlookRoot: string): Config {
    return testConfig({
      server: { host: '127.0.0.1', port: 0, public_url: PUBLIC_URL },
      database: { path: join(this.dir, 'calbridge.db') },
      booking: { base_url: this.sim.url, token: this.sim.token, timezone: ZONE },
      poll: { filters: { tag_keys: ['mirror'] } },
      google: {
        credentials: CLIENT,
        api_root: `${googleRoot}/`,
        token_url: `${googleRoot}/token`,
        requests_per_minute: 10_000,
        calendars: [
          { calendar_key: C2, calendar_id: 'second' },
          { calendar_key: '*', calendar_id: 'primary' },
        ],
        // The history runs the rounds; the schedule never fires by itself here.
        reverse_sync: { schedule: '0 0 1 1 *', push_notifications: false, on_conflict: 'revert', on_delete: 'recreate' },
      },
      caldav: {
        ...this.caldav.account(caldavRoot),
        calendars: [{ calendar_key: '*', calendar: CALDAV_CALENDAR }],
        requests_per_minute: 10_000,
        reverse_sync: { schedule: '0 0 1 1 *', on_conflict: 'revert', on_delete: 'recreate' },
      },
      microsoft: this.outlook.section(outlookRoot),
      feeds: [
        { name: FEEDS.everything.name, token: FEEDS.everything.token },
        { name: FEEDS.clinicOne.name, token: FEEDS.clinicOne.token, filters: { calendar_key: C1 }, include_cancelled: true },
      ],
    });
  }

  private async startLife(): Promise<void> {
    const google = await startGate(this.fake.url);
    const caldav = await this.caldav.gate();
    const outlook = await this.outlook.gate();
    const booking = gateBooking(simulatorClient(this.sim, { maxRetries: 1 }), {
      beforeReschedule: (key, start) => this.checkSlot(key, start),
      afterReschedule: (key) => {
        this.rescheduled.set(key, (this.rescheduled.get(key) ?? 0) + 1);
        if (this.crashAfterReschedule) this.kill();
      },
    });
    this.gates = { google, caldav, outlook, booking };
    this.life = startLife({
      life: ++this.lives,
      config: this.config(google.url, caldav.url, outlook.url),
      clock: this.clock,
      booking: booking.api,
    });
    this.route.fetch = (r) => this.life.app.fetch(r);
  }

  /** Notes every update that Google accepted and that changed nothing the event showed or carried. */
  private watchRewrites(): void {
    const state = this.fake.state;
    const insert = state.insert.bind(state);
    state.insert = (calendarId, body) => this.noteWrite(insert(calendarId, body));
    for (const method of ['update', 'patch'] as const) {
      const apply = state[method].bind(state);
      state[method] = (calendarId, id, body, ifMatch) => {
        const before = state.events(calendarId, { includeDeleted: true }).find((e) => e.id === id);
        const after = apply(calendarId, id, body, ifMatch);
        if (before && sameContent(before, after)) {
          const key = after.extendedProperties?.private?.appointment_key ?? id;
          const code = this.sim.get(key)?.search_code ?? key;
          this.rewrites.push(`${code}: a ${method} of ${clockTime(Date.parse(after.start?.dateTime ?? ''))} over the very same event`);
        }
        return this.noteWrite(after);
      };
    }
  }

  private noteWrite(event: SimulatedEvent): SimulatedEvent {
    const key = event.extendedProperties?.private?.appointment_key;
    const start = Date.parse(event.start?.dateTime ?? '');
    if (key) this.writeCounts.set(key, (this.writeCounts.get(key) ?? 0) + 1);
    if (key && event.status !== 'cancelled' && Number.isFinite(start)) this.writtenStarts.set(key, start);
    return event;
  }

  /** The promise of on_conflict: revert, checked at the booking service the moment a reschedule arrives. */
  private checkSlot(key: string, start: number): void {
    const a = this.sim.get(key);
    if (!a) return;
    const end = start + (a.end - a.start);
    const holders = this.occupants(a.calendar.calendar_key, start, end, key);
    if (holders.length) {
      this.takenSlotReschedules.push(
        `${a.search_code} to ${clockTime(start)} while ${holders.map((h) => h.search_code).join(', ')} held that slot`,
      );
    }
  }

  /** Active appointments of a booking calendar overlapping [start, end), other than `except`. */
  occupants(calendarKey: string, start: number, end: number, except?: string): SimAppointment[] {
    return this.sim
      .all()
      .filter(
        (o) =>
          o.appointment_key !== except &&
          o.calendar.calendar_key === calendarKey &&
          !isCancelled(o.status) &&
          overlaps(start, end, o.start, o.end),
      );
  }

  private kill(): void {
    this.crashAfterReschedule = false;
    this.gates?.google.cut();
    this.gates?.caldav.cut();
    this.gates?.outlook.cut();
    this.gates?.booking.cut();
    this.route.fetch = () => new Response('down', { status: 503 });
    this.life.kill();
  }

  /** Kills the daemon at `point` and starts it again on the same database file. */
  async crash(point: CrashPoint): Promise<string> {
    let what = 'between two jobs';
    if (point === 'google-write-in-flight') {
      const holds = (['insert', 'update', 'delete'] as const).map((kind) => this.fake.holdNext({ kind }));
      const pass = this.life.run('google-writer').catch(() => undefined);
      const arrived = await Promise.race([...holds.map((h) => h.arrived.then((r) => r)), pass.then(() => undefined)]);
      what = arrived ? `with a Google ${arrived.kind} applied and its answer not yet back` : 'after a writer pass with nothing to write';
      this.kill();
      for (const h of holds) h.release();
      await pass;
    } else if (point === 'reschedule-answer-lost') {
      this.crashAfterReschedule = true;
      await this.life.run('google-reschedules').catch(() => undefined);
      what = this.crashAfterReschedule
        ? 'after a reschedules run with nothing sent'
        : 'with a reschedule applied and its answer not yet back';
      if (this.crashAfterReschedule) this.kill();
    } else {
      this.kill();
    }
    await this.startLife();
    return what;
  }

  /**
   * Time passes for the daemon. Its scheduler runs a woken job at once, so whatever was woken runs
   * first: a history never lets a minute go by with, say, a reverse round asked for and not run.
   */
  async passTime(ms: number): Promise<void> {
    await this.life.drainWakes();
    this.clock.advance(ms);
  }

  /** Notifications the booking service produced that were never delivered nor lost, oldest first. */
  undelivered(): number[] {
    return this.sim.notifications.map((_n, i) => i).filter((i) => !this.delivered.has(i) && !this.lost.has(i));
  }

  deliveredOnes(): number[] {
    return [...this.delivered].sort((a, b) => a - b);
  }

  lose(i: number): void {
    this.lost.add(i);
  }

  /** POSTs notification `i` to the daemon as the booking service would; true when it was taken. */
  async deliver(i: number): Promise<boolean> {
    const n = this.sim.notifications[i];
    if (!n) return false;
    try {
      const res = await fetch(n.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(n.body) });
      await res.arrayBuffer();
      if (res.ok) this.delivered.add(i);
      return res.ok;
    } catch {
      return false;
    }
  }

  notificationLabel(i: number): string {
    const n = this.sim.notifications[i];
    const data = (n?.body as { data?: { search_code?: string; start_date?: string; status?: string } } | undefined)?.data;
    return `#${i} ${n?.event ?? '?'} ${data?.search_code ?? '?'} (${data?.status ?? '?'} ${data?.start_date?.slice(11, 16) ?? '?'})`;
  }

  /** Our live events for an appointment, in every mapped calendar. */
  liveEvents(key: string): { calendarId: string; event: SimulatedEvent }[] {
    return GOOGLE_CALENDARS.flatMap((calendarId) =>
      this.fake
        .events(calendarId)
        .filter((e) => e.extendedProperties?.private?.appointment_key === key)
        .map((event) => ({ calendarId, event })),
    );
  }

  async feed(token: string): Promise<FeedEvent[]> {
    const res = await fetch(`${this.url}/feeds/${token}.ics`);
    if (!res.ok) throw new Error(`the feed answered ${res.status}`);
    const calendar = new ICAL.Component(ICAL.parse(await res.text()));
    return calendar.getAllSubcomponents('vevent').map((v) => {
      const event = new ICAL.Event(v);
      return {
        key: event.uid.replace(/@calbridge$/, ''),
        start: event.startDate.toJSDate().getTime(),
        end: event.endDate.toJSDate().getTime(),
        cancelled: String(v.getFirstPropertyValue('status') ?? '') === 'CANCELLED',
      };
    });
  }

  /** Calls that change something, as each service counted them (failed ones included). */
  writeCalls(): { google: number; caldav: number; outlook: number; booking: number } {
    return {
      google: this.fake.log.filter((r) => WRITE_KINDS.has(r.kind)).length,
      caldav: this.caldav.writeCount(),
      outlook: this.outlook.writeCount(),
      booking: this.sim.requests.filter((r) => r.path.startsWith('/api/v3/appointments/') && r.method !== 'GET').length,
    };
  }

  setFaults(on: { google?: boolean; caldav?: boolean; outlook?: boolean; booking?: boolean; afterWrite?: boolean }): void {
    if (on.caldav !== undefined) this.caldav.setFaults(on.caldav, on.afterWrite ?? false);
    if (on.outlook !== undefined) this.outlook.setFaults(on.outlook, on.afterWrite ?? false);
    if (on.google !== undefined) {
      this.fake.setFaults(on.google ? { rate: 0.3, kinds: [429, '403rate', 500, 503, 'network'], after: on.afterWrite ?? false } : null);
    }
    if (on.booking !== undefined) this.sim.setFaults(on.booking ? { rate429: 0.15, rate503: 0.15, retryAfterSeconds: 0 } : {});
  }

  async close(): Promise<void> {
    this.gates?.google.cut();
    this.gates?.caldav.cut();
    this.gates?.outlook.cut();
    await this.life.close().catch(() => undefined);
    await new Promise<void>((r) => {
      this.server.close(() => r());
      (this.server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await this.sim.close();
    await this.fake.close();
    await this.caldav.close();
    await this.outlook.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
