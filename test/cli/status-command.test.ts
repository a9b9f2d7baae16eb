// `calbridge status` for people, in process through the real CLI on a real database written by
// `sync`: a verdict line, each problem once as a sentence with its fix, the counts, the latest
// activity, in the booking time zone and server.locale; --json stays the /api/status document.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { cliFolder } from '../helpers/cli-env.ts';
import { cli } from '../helpers/run-cli.ts';
import { startRadicale } from '../caldav/radicale.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { PASSWORD, USER } from '../caldav/setup.ts';
import { slot } from '../helpers/slot.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A CalDAV target on Radicale with `password`; `locale` in the server section. */
async function folder(password: string, locale: 'en' | 'pt-BR') {
  const radicale = await startRadicale();
  cleanups.push(() => radicale.stop());
  await new CalendarApp(radicale.url, USER, PASSWORD).makeCalendar(`/${USER}/clinic/`, 'Clinic');
  const env = await cliFolder(
    cleanups,
    async () => `caldav:
  url: "${radicale.url}"
  username: ${USER}
  password: ${password}
  calendars: [{ calendar_key: "*", calendar: Clinic }]
`,
  );
  writeFileSync(env.file, readFileSync(env.file, 'utf8').replace('server: { host:', `server: { locale: ${locale}, host:`));
  return env;
}

describe('calbridge status', () => {
  it('says all is well first, then the counts and the latest activity, in local time', async () => {
    const { file, sim } = await folder(PASSWORD, 'en');
    sim.create({ start: slot(1) });
    expect((await cli('sync', '--config', file)).code).toBe(0);
    const status = await cli('status', '--config', file);
    expect(status.code).toBe(0);
    const lines = status.out.split('\n');
    expect(lines[0]).toBe('calbridge: all is well.');
    expect(status.out).toMatch(
      /^Counts: 1 appointment · last poll (just now|\d+ s ago) · 1 event in CalDAV · moves in the CalDAV calendar come back on the schedule · 0 feeds$/m,
    );
    expect(status.out).toMatch(/^Latest activity:\n {2}\w{3} \d{1,2} \w{3} \d\d:\d\d {2}\S+ {2}\[booking → CalDAV\] booked for /m);
    expect(status.out).toContain('(America/Sao_Paulo). For every detail: calbridge status --json.');
    // Far from 361 lines of YAML, and no raw key or status code.
    expect(lines.length).toBeLessThan(20);
    expect(status.out).not.toMatch(/CONFIRMED|appointment_key|[0-9a-f]{8}-[0-9a-f]{4}-/);
    const json = JSON.parse((await cli('status', '--json', '--config', file)).out) as Record<string, unknown>;
    expect(json).toHaveProperty(['targets', 'caldav.default', 'kind'], 'caldav');
  });

  it('tells a wrong CalDAV password once, as one problem with its fix, in Portuguese with server.locale: pt-BR', async () => {
    const { file, sim } = await folder('wrong-password', 'pt-BR');
    sim.create({ start: slot(1) });
    sim.create({ start: slot(2) });
    await cli('sync', '--config', file);
    const status = await cli('status', '--config', file);
    expect(status.code).toBe(0);
    const lines = status.out.split('\n');
    expect(lines[0]).toBe('calbridge: 1 problema precisa de atenção.');
    expect(lines[1]).toBe('1. O servidor CalDAV recusou o usuário ou a senha, então nenhum agendamento chega ao calendário CalDAV.');
    expect(lines[2]).toMatch(/^ {3}O que fazer: Confira caldav\.username e caldav\.password/);
    expect(status.out).toMatch(/^Números: 2 agendamentos · última consulta /m);
    expect(status.out).not.toContain('wrong-password');
    // No English sentence: the words of the catalogue's English that a person would read.
    expect(status.out).not.toMatch(/\b(the|problem|appointments?|booked|moved|refused|Counts|Latest|is well)\b/);
  });
});
