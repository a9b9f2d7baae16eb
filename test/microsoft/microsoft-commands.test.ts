// The commands over a config with a microsoft section, through the real CLI against the booking and
// Graph simulators: `sync --dry-run` lists the Outlook writes and makes none, `sync` makes them once,
// `status --json` shows the account's section.
import { afterEach, expect, it } from 'vitest';
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { cliFolder } from '../helpers/cli-env.ts';
import { cli } from '../helpers/run-cli.ts';
import { CLIENT_ID, CLIENT_SECRET, MAILBOX, TENANT } from './env.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('sync --dry-run lists the Outlook events it would write and writes none; sync writes each once', async () => {
  let graph!: GraphSimulator;
  const { file, sim } = await cliFolder(cleanups, async () => {
    graph = await startGraphSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, mailboxes: [MAILBOX] });
    cleanups.push(() => graph.close());
    return `microsoft:
  tenant: ${TENANT}
  credentials: { client_id: ${CLIENT_ID}, client_secret: "${CLIENT_SECRET}" }
  authority_url: "${graph.authorityUrl}"
  graph_root: "${graph.graphRoot}"
  calendars: [{ calendar_key: "*", user: ${MAILBOX}, calendar: Calendar }]
`;
  });
  const keys = [0, 1, 2].map((i) => sim.create({ start: Date.now() + (26 + i) * 3_600_000 }).appointment_key);

  const dry = await cli('sync', '--dry-run', '--config', file);
  expect(dry.code).toBe(0);
  expect(dry.out).toMatch(/microsoft: 3 create/);
  expect(dry.out).toMatch(new RegExp(`  microsoft create event ${keys[0]} in ${MAILBOX}/Calendar`));
  for (const k of keys) expect(dry.out).toContain(k);
  expect(graph.writes()).toBe(0);

  const real = await cli('sync', '--config', file);
  expect(real.code).toBe(0);
  const written = [...graph.mailbox().events.values()].map((e) => e.extended.find((p) => p.id === KEY_PROPERTY)?.value).sort();
  expect(written).toEqual([...keys].sort());
  const again = await cli('sync', '--config', file);
  expect(again.code).toBe(0);
  expect(graph.mailbox().events.size).toBe(3);

  const status = await cli('status', '--json', '--config', file);
  const doc = JSON.parse(status.out) as { targets: Record<string, unknown> };
  expect(doc.targets['microsoft.default']).toMatchObject({
    enabled: true,
    kind: 'microsoft',
    sign_in: 'app-only',
    calendars: [`${MAILBOX}/Calendar`],
    auth: { ok: true },
  });
  expect(status.out).not.toContain(CLIENT_SECRET);
});
