// The demo's Google: the Google Calendar simulator as calbridge's Google (OAuth against its token
// endpoint, its push notifications delivered to the daemon), one calendar per booking calendar,
// simulated people editing events now and then, and the /demo/google page that shows them.
import { randomBytes } from 'node:crypto';
import type { Hono, MiddlewareHandler } from 'hono';
import type { Simulator } from '../booking/simulator/index.ts';
import { seededRandom } from '../core/random.ts';
import { messagesFor, type Messages } from '../core/i18n/index.ts';
import { startGoogleSimulator, type GoogleSimulator, type SimulatedEvent } from '../google/simulator/index.ts';
import { startPeople } from '../google/simulator/people.ts';
import { demoCalendarPath, demoCalendarView, type ViewCalendar, type ViewEvent } from '../http/demo-calendar-view.ts';
import { editLine } from './demo-edit-line.ts';
import type { PageLink } from '../http/status-page.ts';

export interface DemoGoogleOptions {
  zone: string;
  /** The https address the daemon asks Google to push to; the simulator delivers it to `daemonUrl()`. */
  publicUrl: string;
  /** Where the daemon listens, once it does. */
  daemonUrl: () => string;
  /** The simulated people's choices repeat with the seed. */
  seed: number;
  /** The demo's locale: the terminal's lines and the calendar page (English without). */
  messages?: Messages;
}

export interface DemoGoogle {
  simulator: GoogleSimulator;
  /** calbridge's google section for it (a config value, before defaults). */
  section: Record<string, unknown>;
  /** The /demo/google page and the status page's link to it. */
  pages(guard: MiddlewareHandler): { routes: Hono; links: PageLink[] };
  /** Simulated people start editing, every `intervalMs`; each edit is told to `onEdit`. */
  startPeople(intervalMs: number, onEdit: (line: string) => void): void;
  close(): Promise<void>;
}

const OTHER = { id: 'other@group.calendar.google.com', name: 'Other appointments' };

/** "Fisioterapia — Sala 2" → "fisioterapia-sala-2@group.calendar.google.com": readable, shaped like Google's. */
function calendarIdOf(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug || 'calendar'}@group.calendar.google.com`;
}

export async function startDemoGoogle(booking: Simulator, o: DemoGoogleOptions): Promise<DemoGoogle> {
  const client = { client_id: 'calbridge-demo.apps.googleusercontent.com', client_secret: randomBytes(18).toString('base64url') };
  const simulator = await startGoogleSimulator({
    clientId: client.client_id,
    clientSecret: client.client_secret,
    autoNotify: true,
    pushAddress: (address) => address.replace(o.publicUrl, o.daemonUrl()),
  });
  const booked = new Map(booking.all().map((a) => [a.calendar.calendar_key, a.calendar.name]));
  const calendars = [...booked].map(([key, name]) => ({ key, id: calendarIdOf(name), name }));
  const m = o.messages ?? messagesFor('en');
  const names = new Map([...calendars.map((c) => [c.id, c.name] as const), [OTHER.id, m.demo.otherCalendar]]);
  const section = {
    credentials: { ...client, refresh_token: simulator.issueRefreshToken() },
    api_root: simulator.rootUrl,
    token_url: simulator.tokenUrl,
    calendars: [...calendars.map((c) => ({ calendar_key: c.key, calendar_id: c.id })), { calendar_key: '*', calendar_id: OTHER.id }],
    title: '{person.full_name} · {search_code}',
    // No quota to respect here; a person's move should be picked up at once.
    requests_per_minute: 6000,
    reverse_sync: { schedule: '*/30 * * * * *', push_url: `${o.publicUrl}/google/notifications` },
  };

  // Only events with a start and end time: the page shows their times.
  const viewEvent = (e: SimulatedEvent): ViewEvent[] => {
    if (!e.start?.dateTime || !e.end?.dateTime) return [];
    const appointmentKey = e.extendedProperties?.private?.appointment_key ?? null;
    return [
      { summary: e.summary ?? '', start: Date.parse(e.start.dateTime), end: Date.parse(e.end.dateTime), status: e.status, appointmentKey },
    ];
  };
  const viewCalendars = (): ViewCalendar[] =>
    [...names].map(([id, name]) => ({ id, name, events: simulator.events(id).flatMap(viewEvent) }));

  let people: { stop(): void } | undefined;
  return {
    simulator,
    section,
    pages: (guard) => ({
      routes: demoCalendarView({ app: 'google', calendars: viewCalendars, zone: o.zone, guard, messages: m }),
      links: [{ href: demoCalendarPath('google'), label: m.demoGoogle.link }],
    }),
    startPeople(intervalMs, onEdit) {
      people = startPeople({
        state: simulator.state,
        calendars: () => [...names.keys()],
        zone: o.zone,
        random: seededRandom(o.seed + 7),
        intervalMs,
        onEdit: (edit) => {
          const line = editLine(edit, 'Google', o.zone, m);
          if (line) onEdit(line);
        },
      });
    },
    async close() {
      people?.stop();
      await simulator.close();
    },
  };
}
