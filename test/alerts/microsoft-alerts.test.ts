// Alerts for a Microsoft account, through the same runtime as serve, against the Graph simulator
// (docs/reference/behaviour.md, "Alerts"): a person removes calbridge's access to their Outlook (the
// delegated refresh token revoked), writes fail, and exactly one problem message keyed
// `microsoft.default.auth` says to run `calbridge microsoft auth` again; after that sign-in, one
// recovered message. No token or secret in any message.
import { afterEach, expect, it } from 'vitest';
import { microsoftRefreshTokenKey, refreshTokensIn } from '../../src/microsoft/auth.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { testConfig } from '../helpers/context.ts';
import { CLIENT_ID, MAILBOX } from '../microsoft/env.ts';
import { startAlertingDaemon, type AlertingDaemon } from './alerting-daemon.ts';

let graph: GraphSimulator | undefined;
let daemon: AlertingDaemon | undefined;
afterEach(async () => {
  await daemon?.close();
  await graph?.close();
  graph = daemon = undefined;
});

it('a revoked Microsoft sign-in: one problem message naming `calbridge microsoft auth`, one recovered after a new sign-in', async () => {
  graph = await startGraphSimulator({ clientId: CLIENT_ID, mailboxes: [MAILBOX] });
  const firstToken = graph.tokens.issueRefreshToken();
  const microsoft = {
    tenant: 'common',
    credentials: { client_id: CLIENT_ID, refresh_token: firstToken },
    authority_url: graph.authorityUrl,
    graph_root: graph.graphRoot,
    calendars: [{ calendar_key: '*', user: 'me', calendar: 'Calendar' }],
    reverse_sync: { enabled: false },
  };
  daemon = await startAlertingDaemon('microsoft', (url) => testConfig({ microsoft, alerts: { after_minutes: 0, webhook: `${url}/hook` } }));
  const { receiver, clock } = daemon;
  const { r, writer, tick } = daemon.start();
  const messages = () => receiver.received.map((m) => JSON.parse(m.body) as { event: string; key: string; sentence: string });

  r.services.appointments.upsert(testAppointment({ key: 'apt-1' }));
  expect((await writer()).status).toBe('success');
  await tick();
  expect(receiver.received).toEqual([]);

  graph.tokens.revokeRefreshTokens();
  r.services.appointments.upsert(testAppointment({ key: 'apt-2', start: Date.UTC(2026, 5, 15, 15) }));
  expect((await writer()).status).toBe('failed');
  const section = r.status().targets['microsoft.default']!;
  expect(section.auth.ok).toBe(false);
  expect(r.readiness().warnings).toContainEqual(expect.stringMatching(/^Microsoft: the sign-in was refused/));
  await tick();
  clock.advance(5 * 60_000);
  await writer();
  await tick();
  expect(messages().map((m) => `${m.event} ${m.key}`)).toEqual(['problem microsoft.default.auth']);
  expect(messages()[0]!.sentence).toContain('run `calbridge microsoft auth` again');

  // The person signs in again, as `calbridge microsoft auth` stores it.
  refreshTokensIn(r.services.kv, microsoftRefreshTokenKey('default'), firstToken).save(graph.tokens.issueRefreshToken());
  expect((await writer()).status).toBe('success');
  clock.advance(60_000);
  await tick();
  expect(messages().map((m) => `${m.event} ${m.key}`)).toEqual(['problem microsoft.default.auth', 'recovered microsoft.default.auth']);
  expect(graph.mailbox().events.size).toBe(2);

  const everything = receiver.received.map((m) => JSON.stringify(m.headers) + m.body).join('\n');
  for (const secret of graph.tokens.counts.refreshTokens) expect(everything).not.toContain(secret);
});
