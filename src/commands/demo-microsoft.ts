// The demo's Outlook: the Graph simulator as calbridge's Microsoft 365 (app-only sign-in against
// its token endpoint, one mailbox, its default calendar), beside the simulated Google, and simulated
// people who drag or delete events in Outlook now and then; the reverse sync's delta queries bring
// their moves back to the booking service.
import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import { pick, seededRandom } from '../core/random.ts';
import { startGraphSimulator, type GraphSimulator } from '../microsoft/simulator/index.ts';

const MAILBOX = 'reception@demo-clinic.example';
const TENANT = '0d3c6e1a-5b7f-4c2d-9e8a-1f2b3c4d5e6f';
const CLIENT_ID = '2c9f4e7b-8a1d-4f3e-b6c5-7d8e9f0a1b2c';
const H = 3_600_000;

export interface DemoMicrosoft {
  simulator: GraphSimulator;
  /** calbridge's microsoft section for it (a config value, before defaults). */
  section: Record<string, unknown>;
  /** Simulated people start editing Outlook, every `intervalMs`; each edit is told to `onEdit`. */
  startPeople(intervalMs: number, onEdit: (line: string) => void): void;
  close(): Promise<void>;
}

export async function startDemoMicrosoft(o: { zone: string; seed: number }): Promise<DemoMicrosoft> {
  const secret = `demo~${randomBytes(18).toString('base64url')}`;
  const simulator = await startGraphSimulator({ clientId: CLIENT_ID, clientSecret: secret, mailboxes: [MAILBOX], tenantId: TENANT });
  const section = {
    tenant: TENANT,
    credentials: { client_id: CLIENT_ID, client_secret: secret },
    authority_url: simulator.authorityUrl,
    graph_root: simulator.graphRoot,
    calendars: [{ calendar_key: '*', user: MAILBOX, calendar: 'Calendar' }],
    requests_per_minute: 1000,
    // The demo's public_url is not https, so Graph cannot notify it: a delta query every 10 s instead.
    reverse_sync: { schedule: '*/10 * * * * *', push_notifications: false },
  };
  const random = seededRandom(o.seed + 35);
  const at = (ms: number) => DateTime.fromMillis(ms, { zone: o.zone }).setLocale('en').toFormat('ccc d LLL HH:mm');
  let timer: NodeJS.Timeout | undefined;

  /** One person's edit: a coming event dragged one to three hours later, or now and then deleted. */
  function edit(): string | undefined {
    const box = simulator.mailbox();
    const now = Date.now();
    const coming = [...box.events.values()].filter((e) => e.start > now + H);
    if (!coming.length) return undefined;
    const e = pick(random, coming);
    if (random() < 0.2) {
      box.userDelete(e.id);
      return `someone in Outlook deletes “${e.subject}” (${at(e.start)})`;
    }
    const shift = (1 + Math.floor(random() * 3)) * H;
    const from = e.start;
    box.userEdit(e.id, { start: e.start + shift, end: e.end + shift });
    return `someone in Outlook drags “${e.subject}” from ${at(from)} to ${at(from + shift)}`;
  }

  return {
    simulator,
    section,
    startPeople(intervalMs, onEdit) {
      timer = setInterval(() => {
        const line = edit();
        if (line) onEdit(line);
      }, intervalMs);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      await simulator.close();
    },
  };
}
