// The attack: find a token, a secret or a document number on the status page, in /api/status or in
// the activity kept in the database, after a busy stretch of both-way sync with a booking service
// that echoes document numbers in its refusals and a Google that hands out tokens.
import { afterEach, expect, it } from 'vitest';
import { slot, startReverseEnv, type ReverseEnv } from '../reverse/harness.ts';
import { statusPageRoutes } from '../../src/http/status-page.ts';
import { configuredSecrets, redactStatus } from '../../src/http/status-page/redact.ts';
import { agenda } from '../../src/http/status-page/agenda.ts';
import { feedUrls } from '../../src/feeds/feed-urls.ts';

let env: ReverseEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('shows no token, secret or document number on the page, in /api/status or in the activity', async () => {
  env = await startReverseEnv();
  const { sim, fake, t } = env;
  const documents = ['123.456.789-09', '98765432100', '11122233344'];
  const keys = documents.map((doc, i) => sim.create({ start: slot(i * 2), identification_code: doc }).appointment_key);
  await env.settle(1);
  await env.run('google-channels');
  await env.run('google-reverse-sync');
  // A move that goes through, one onto a taken slot, one refused with a document number in the reason, a deletion.
  env.moveInGoogle(keys[0]!, slot(1));
  env.moveInGoogle(keys[1]!, slot(4));
  await env.settle(2);
  sim.refuseReschedules(`Paciente CPF ${documents[0]} com pendência; token ${sim.token}`);
  env.moveInGoogle(keys[2]!, slot(7));
  env.deleteInGoogle(keys[1]!);
  await env.settle(2);

  // The runtime's own page and document (its routes want the admin token this config has not).
  const { config } = t.ctx;
  const configured = configuredSecrets(config);
  const status = () => t.runtime.status();
  const app = statusPageRoutes({
    clock: t.ctx.clock,
    status,
    readiness: () => t.runtime.readiness(),
    feeds: feedUrls(config),
    secrets: configured,
    zone: config.booking.timezone,
    agenda: (now) => agenda({ config, appointments: t.ctx.appointments, links: t.ctx.targetStores('google.default').links }, now),
  });
  const page = await (await app.request('/status')).text();
  const api = JSON.stringify(redactStatus(status(), configured));
  const entries = t.ctx.activity.recent(1000);
  const stored = JSON.stringify(entries);
  const kinds = [...new Set(entries.map((e) => e.kind))];
  expect(kinds).toEqual(expect.arrayContaining(['booked', 'google-write', 'rescheduled', 'reverted', 'refused', 'recreated']));

  // The feeds' own section shows its URL on purpose (the page is behind the admin token): nowhere else.
  const feeds = feedUrls(t.ctx.config);
  const elsewhere = page.slice(0, page.indexOf('id="subscribe"')) + page.slice(page.indexOf('id="details"'));
  const channelTokens = [...fake.channels.values()].flatMap((c) => (c.token ? [c.token] : []));
  expect(channelTokens.length).toBeGreaterThan(0);
  const secrets = [...configured, sim.token, ...fake.tokens.refreshTokens, ...channelTokens];
  const digits = documents.flatMap((d) => [d, d.replace(/\D/g, '')]);
  for (const [where, text] of [
    ['page', elsewhere],
    ['/api/status', api],
    ['activity', stored],
  ] as const) {
    for (const s of [...secrets, ...digits]) expect(text, `${where} shows ${s}`).not.toContain(s);
    expect(text, `${where} shows an access token`).not.toMatch(/ya29\./);
  }
  expect(page).toContain(feeds[0]!.webcal);
  expect(stored).toContain('Paciente CPF ••• com pendência');
});
