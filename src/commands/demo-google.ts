// The demo's Google: Google Calendar simulators as calbridge's Google accounts (OAuth against each
// one's token endpoint, push notifications delivered to the daemon): the clinic's account, one
// calendar per booking calendar; each professional's own account (their own simulator: their own
// user and token), mapped to their booking calendar; and the Google of the "connect your calendar"
// invite, whose consent page waits for a click. Simulated people edit events in each now and then;
// the /demo/google page shows every account.
import { randomBytes } from 'node:crypto';
import type { Hono, MiddlewareHandler } from 'hono';
import { seededRandom } from '../core/random.ts';
import { messagesFor, type Messages } from '../core/i18n/index.ts';
import { startGoogleSimulator, type GoogleSimulator, type SimulatedEvent } from '../google/simulator/index.ts';
import { startPeople } from '../google/simulator/people.ts';
import { demoCalendarPath, demoCalendarView, type ViewAccount, type ViewEvent } from '../http/demo-calendar-view.ts';
import { editLine } from './demo-edit-line.ts';
import type { PageLink } from '../http/status-page.ts';

/** A booking calendar of the booking simulator. */
export interface BookingCalendar {
  calendar_key: string;
  name: string;
}

/** A professional of the demo: their account's name, how people call them, and their booking calendar. */
export interface DemoProfessional {
  account: string;
  person: string;
  calendar: BookingCalendar;
}

export interface DemoGoogleOptions {
  zone: string;
  /** The https address the daemon asks Google to push to; the simulators deliver it to `daemonUrl()`. */
  publicUrl: string;
  /** Where the daemon listens, once it does. */
  daemonUrl: () => string;
  /** The simulated people's choices repeat with the seed. */
  seed: number;
  /** The demo's locale: the terminal's lines and the pages (English without). */
  messages?: Messages;
  /** The booking simulator's calendars: the clinic's account has one calendar for each. */
  calendars: readonly BookingCalendar[];
  /** Professionals with a Google account of their own, in the config. */
  professionals: readonly DemoProfessional[];
  /** The professional invited to connect their own Google calendar by a link. */
  invited: DemoProfessional;
}

export interface DemoGoogle {
  /** The clinic's account's simulator. */
  simulator: GoogleSimulator;
  /** Each professional's own simulator, by account name (the invited one's too). */
  own: ReadonlyMap<string, GoogleSimulator>;
  /** calbridge's google section (a config value, before defaults): the section's endpoints are the invited one's Google. */
  section: Record<string, unknown>;
  /** connect.google_client and connect.google_auth_url for the invite. */
  connect: { google_client: { client_id: string; client_secret: string }; google_auth_url: string };
  /** The /demo/google page and the status page's link to it. */
  pages(guard: MiddlewareHandler): { routes: Hono; links: PageLink[] };
  /** Simulated people start editing, every `intervalMs`; each edit is told to `onEdit`. */
  startPeople(intervalMs: number, onEdit: (line: string) => void): void;
  close(): Promise<void>;
}

const OTHER = { id: 'other@group.calendar.google.com', name: 'Other appointments' };
/** The invited professional's calendars: the one she will pick, and one only she may change. */
const INVITED_CALENDARS = { office: 'office@group.calendar.google.com' } as const;

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

/** Only events with a start and end time: the page shows their times. */
function viewEvent(e: SimulatedEvent): ViewEvent[] {
  if (!e.start?.dateTime || !e.end?.dateTime) return [];
  const appointmentKey = e.extendedProperties?.private?.appointment_key ?? null;
  return [
    { summary: e.summary ?? '', start: Date.parse(e.start.dateTime), end: Date.parse(e.end.dateTime), status: e.status, appointmentKey },
  ];
}

export async function startDemoGoogle(o: DemoGoogleOptions): Promise<DemoGoogle> {
  // One OAuth client (one Google Cloud project) for every account, as a clinic would have.
  const client = { client_id: 'calbridge-demo.apps.googleusercontent.com', client_secret: randomBytes(18).toString('base64url') };
  const m = o.messages ?? messagesFor('en');
  const d = m.demo;
  const start = (extra: Parameters<typeof startGoogleSimulator>[0] = {}) =>
    startGoogleSimulator({
      clientId: client.client_id,
      clientSecret: client.client_secret,
      autoNotify: true,
      pushAddress: (address) => address.replace(o.publicUrl, o.daemonUrl()),
      ...extra,
    });
  const started: GoogleSimulator[] = [];
  try {
    const simulator = await start();
    started.push(simulator);
    const own = new Map<string, GoogleSimulator>();
    for (const p of o.professionals) {
      const sim = await start();
      started.push(sim);
      own.set(p.account, sim);
    }
    // The invited professional's Google: the consent page waits for her click; her calendar list offers two.
    const invitedSim = await start({
      calendars: { primary: 'owner', [INVITED_CALENDARS.office]: 'owner' },
      calendarNames: { primary: o.invited.person, [INVITED_CALENDARS.office]: d.invitedOffice(o.invited.calendar.name) },
      consentPage: { lang: m.tag, title: d.consentTitle, asks: d.consentAsks(o.invited.person), allow: d.consentAllow },
    });
    started.push(invitedSim);
    own.set(o.invited.account, invitedSim);

    const clinicCalendars = o.calendars.map((c) => ({ key: c.calendar_key, id: calendarIdOf(c.name), name: c.name }));
    const names = new Map([...clinicCalendars.map((c) => [c.id, c.name] as const), [OTHER.id, d.otherCalendar]]);
    const account = (name: string, sim: GoogleSimulator, calendars: { calendar_key: string; calendar_id: string }[]) => ({
      name,
      credentials: { ...client, refresh_token: sim.issueRefreshToken() },
      api_root: sim.rootUrl,
      token_url: sim.tokenUrl,
      calendars,
    });
    const section = {
      // The section's endpoints are what an account connected by a link signs in to: the invited one's Google.
      api_root: invitedSim.rootUrl,
      token_url: invitedSim.tokenUrl,
      title: '{person.full_name} · {search_code}',
      // No quota to respect here; a person's move should be picked up at once.
      requests_per_minute: 6000,
      reverse_sync: { schedule: '*/30 * * * * *', push_url: `${o.publicUrl}/google/notifications` },
      accounts: [
        // The clinic's account keeps the name of the single form: what the demo always had.
        account('default', simulator, [
          ...clinicCalendars.map((c) => ({ calendar_key: c.key, calendar_id: c.id })),
          { calendar_key: '*', calendar_id: OTHER.id },
        ]),
        ...o.professionals.map((p) =>
          account(p.account, own.get(p.account)!, [{ calendar_key: p.calendar.calendar_key, calendar_id: 'primary' }]),
        ),
      ],
    };

    const ownView = (p: DemoProfessional, heading: string): ViewAccount => {
      const sim = own.get(p.account)!;
      const ids = p === o.invited ? Object.values(INVITED_CALENDARS) : ['primary'];
      return {
        id: `google.${p.account}`,
        heading,
        calendars: ids.map((id) => ({
          id,
          name: id === 'primary' ? p.calendar.name : d.invitedOffice(p.calendar.name),
          events: sim.events(id).flatMap(viewEvent),
        })),
      };
    };
    const viewAccounts = (): ViewAccount[] => [
      {
        id: 'google.default',
        heading: d.clinicAccount,
        calendars: [...names].map(([id, name]) => ({ id, name, events: simulator.events(id).flatMap(viewEvent) })),
      },
      ...o.professionals.map((p) => ownView(p, d.ownAccount(p.person))),
      ownView(o.invited, d.invitedAccount(o.invited.person)),
    ];

    const people: { stop(): void }[] = [];
    return {
      simulator,
      own,
      section,
      connect: { google_client: client, google_auth_url: invitedSim.authUrl },
      pages: (guard) => ({
        routes: demoCalendarView({ app: 'google', accounts: viewAccounts, zone: o.zone, guard, messages: m }),
        links: [{ href: demoCalendarPath('google'), label: m.demoGoogle.link }],
      }),
      startPeople(intervalMs, onEdit) {
        const edits = (app: string, calendars: () => string[], state: GoogleSimulator['state'], salt: number) =>
          startPeople({
            state,
            calendars,
            zone: o.zone,
            random: seededRandom(o.seed + salt),
            intervalMs,
            onEdit: (edit) => {
              const line = editLine(edit, app, o.zone, m);
              if (line) onEdit(line);
            },
          });
        people.push(edits('Google', () => [...names.keys()], simulator.state, 7));
        for (const [i, p] of o.professionals.entries())
          people.push(edits(`Google (${p.person})`, () => ['primary'], own.get(p.account)!.state, 11 + i));
        people.push(edits(`Google (${o.invited.person})`, () => Object.values(INVITED_CALENDARS), invitedSim.state, 23));
      },
      async close() {
        for (const p of people) p.stop();
        await Promise.all(started.map((s) => s.close()));
      },
    };
  } catch (e) {
    await Promise.all(started.map((s) => s.close()));
    throw e;
  }
}
