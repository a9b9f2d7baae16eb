// The demo's Outlook: the Graph simulator as calbridge's Microsoft 365 (app-only sign-in against
// its token endpoint), beside the simulated Google: the reception's mailbox (every appointment)
// and each professional's own (their booking calendar), each an account of `microsoft.accounts`;
// simulated people who drag or delete events in each now and then (the reverse sync's delta
// queries bring their moves back to the booking service), and the /demo/outlook page that shows them.
import { randomBytes } from 'node:crypto';
import type { Hono, MiddlewareHandler } from 'hono';
import { messagesFor, type Messages } from '../core/i18n/index.ts';
import { seededRandom } from '../core/random.ts';
import { demoCalendarPath, demoCalendarView, type ViewAccount } from '../http/demo-calendar-view.ts';
import type { PageLink } from '../http/status-page.ts';
import { KEY_PROPERTY } from '../microsoft/graph-event.ts';
import { outlookPersonEdit } from '../microsoft/simulator/people.ts';
import { startGraphSimulator, type GraphSimulator } from '../microsoft/simulator/index.ts';
import { editLine } from './demo-edit-line.ts';
import type { DemoProfessional } from './demo-google.ts';

const MAILBOX = 'reception@demo-clinic.example';
/** A professional's mailbox: firstname@ the clinic's domain. */
const mailboxOf = (p: DemoProfessional) => `${p.account}@demo-clinic.example`;
const TENANT = '0d3c6e1a-5b7f-4c2d-9e8a-1f2b3c4d5e6f';
const CLIENT_ID = '2c9f4e7b-8a1d-4f3e-b6c5-7d8e9f0a1b2c';

export interface DemoMicrosoft {
  simulator: GraphSimulator;
  /** calbridge's microsoft section for it (a config value, before defaults). */
  section: Record<string, unknown>;
  /** The /demo/outlook page and the status page's link to it. */
  pages(guard: MiddlewareHandler): { routes: Hono; links: PageLink[] };
  /** Simulated people start editing Outlook, every `intervalMs`; each edit is told to `onEdit`. */
  startPeople(intervalMs: number, onEdit: (line: string) => void): void;
  close(): Promise<void>;
}

export async function startDemoMicrosoft(o: {
  zone: string;
  seed: number;
  messages?: Messages;
  /** Professionals with an Outlook mailbox of their own. */
  professionals: readonly DemoProfessional[];
}): Promise<DemoMicrosoft> {
  const secret = `demo~${randomBytes(18).toString('base64url')}`;
  const mailboxes = [MAILBOX, ...o.professionals.map(mailboxOf)];
  const simulator = await startGraphSimulator({ clientId: CLIENT_ID, clientSecret: secret, mailboxes, tenantId: TENANT });
  const m = o.messages ?? messagesFor('en');
  const credentials = { client_id: CLIENT_ID, client_secret: secret };
  const section = {
    tenant: TENANT,
    authority_url: simulator.authorityUrl,
    graph_root: simulator.graphRoot,
    // One organisation, one app (app-only, admin consent once): each mailbox its own account, its own pacer and status.
    accounts: [
      { name: 'default', credentials, calendars: [{ calendar_key: '*', user: MAILBOX, calendar: 'Calendar' }] },
      ...o.professionals.map((p) => ({
        name: p.account,
        credentials,
        calendars: [{ calendar_key: p.calendar.calendar_key, user: mailboxOf(p), calendar: 'Calendar' }],
      })),
    ],
    requests_per_minute: 1000,
    // The demo's public_url is not https, so Graph cannot notify it: a delta query every 10 s instead.
    reverse_sync: { schedule: '*/10 * * * * *', push_notifications: false },
  };
  const random = seededRandom(o.seed + 35);
  const timers: NodeJS.Timeout[] = [];

  // Each mailbox's calendars, named by the mailbox (Outlook names its default calendar in the user's language).
  const viewAccount = (id: string, heading: string, address: string): ViewAccount => {
    const box = simulator.mailbox(address);
    return {
      id,
      heading,
      calendars: [...box.calendars.values()].map((c) => ({
        id: c.id,
        name: box.address,
        events: [...box.events.values()]
          .filter((e) => e.calendarId === c.id && !e.isAllDay)
          .map((e) => ({
            summary: e.subject,
            start: e.start,
            end: e.end,
            status: e.showAs === 'tentative' ? 'tentative' : 'confirmed',
            appointmentKey: e.extended.find((p) => p.id === KEY_PROPERTY)?.value ?? null,
          })),
      })),
    };
  };
  const viewAccounts = (): ViewAccount[] => [
    viewAccount('microsoft.default', m.demo.clinicAccount, MAILBOX),
    ...o.professionals.map((p) => viewAccount(`microsoft.${p.account}`, m.demo.ownAccount(p.person), mailboxOf(p))),
  ];

  return {
    simulator,
    section,
    pages: (guard) => ({
      routes: demoCalendarView({ app: 'outlook', accounts: viewAccounts, zone: o.zone, guard, messages: m }),
      links: [{ href: demoCalendarPath('outlook'), label: m.demoOutlook.link }],
    }),
    startPeople(intervalMs, onEdit) {
      const edits = (app: string, address: string) => {
        const timer = setInterval(() => {
          const line = editLine(outlookPersonEdit({ mailbox: simulator.mailbox(address), zone: o.zone, random }), app, o.zone, m);
          if (line) onEdit(line);
        }, intervalMs);
        timer.unref();
        timers.push(timer);
      };
      edits('Outlook', MAILBOX);
      for (const p of o.professionals) edits(`Outlook (${p.person})`, mailboxOf(p));
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await simulator.close();
    },
  };
}
