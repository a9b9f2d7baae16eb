import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { appointment } from './appointments.ts';
import { checkFeed, unfold } from './ics-assert.ts';
import { feedHarness, OTHER_TOKEN, TOKEN, type FeedHarness } from './feed-harness.ts';

let h: FeedHarness;
afterEach(() => h?.close());

async function feedText(path: string): Promise<string> {
  const res = await h.get(path);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer()).toString('utf8');
}

describe('privacy', () => {
  it('limited and busy feeds contain no e-mail address, phone number or document number', async () => {
    h = feedHarness([
      { name: 'Full', token: TOKEN, privacy: 'full', title: '{person.full_name} {person.email}' },
      { name: 'Limited', token: OTHER_TOKEN, privacy: 'limited', title: '{person.full_name} {person.email} {person.phone}' },
      { name: 'Busy', token: 'busy-feed-token-0123456789', privacy: 'busy' },
    ]);
    const all = Array.from({ length: 40 }, (_, n) => appointment(n));
    for (const a of all) h.ctx.appointments.upsert(a);
    const secrets = all.flatMap((a) => [a.person.email!, a.person.phone!, a.person.documentNumber!]);
    const full = unfold(await feedText(`/feeds/${TOKEN}.ics`));
    expect(full).toContain(all[0]!.person.email!); // the scan below would find them if they leaked
    for (const path of [`/feeds/${OTHER_TOKEN}.ics`, '/feeds/busy-feed-token-0123456789.ics']) {
      const text = await feedText(path);
      expect(checkFeed(text)).toHaveLength(40);
      const flat = unfold(text);
      for (const s of secrets) expect(flat, path).not.toContain(s);
      expect(flat).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/); // any e-mail address at all
      expect(flat).not.toMatch(/\+?\d[\d ()-]{7,}\d/); // anything shaped like a phone or document number
    }
  });

  it('a template using {owner_user} cannot put an e-mail into a limited or busy feed', async () => {
    const title = '{owner_user} · {person.full_name} · {calendar.name} · {services} · {search_code} · {start}';
    h = feedHarness([
      { name: 'Limited', token: OTHER_TOKEN, privacy: 'limited', title },
      { name: 'Busy', token: 'busy-feed-token-0123456789', privacy: 'busy', title },
    ]);
    // Contact details where no privacy rule looks: owner_user, the name, the calendar and service names.
    const all = Array.from({ length: 12 }, (_, n) =>
      appointment(n, {
        ownerUser: `dr.ines+${n}@clinica.example.com.br`,
        person: { ...appointment(n).person, fullName: `Ana ${n} (ana.${n}@gmail.com, +55 (11) 98765-43${String(n).padStart(2, '0')})` },
        calendar: { calendarKey: 'cal-a', name: `Consultório · WhatsApp 11 3456-78${String(n).padStart(2, '0')}` },
        services: [{ serviceKey: 'svc', name: `Laudo CPF 123.456.789-${String(n).padStart(2, '0')}` }],
      }),
    );
    for (const a of all) h.ctx.appointments.upsert(a);
    for (const path of [`/feeds/${OTHER_TOKEN}.ics`, '/feeds/busy-feed-token-0123456789.ics']) {
      const text = await feedText(path);
      expect(checkFeed(text)).toHaveLength(12);
      const flat = unfold(text);
      expect(flat, path).not.toMatch(/@(?!calbridge\b)/); // no e-mail address at all (UIDs end in @calbridge)
      const timesLeftOut = flat.replace(/\d{8}T\d{6}Z/g, '').replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/g, ''); // DTSTART ..., {start}
      expect(timesLeftOut, path).not.toMatch(/\d(?:[\s().\-/]*\d){6,}/); // no phone or document number
    }
    const limited = checkFeed(await feedText(`/feeds/${OTHER_TOKEN}.ics`));
    expect(limited[3]?.summary).toBe('Ana 3 · Consultório · WhatsApp · Laudo CPF · SC3X · 2026-06-16 12:00');
  });
});

describe('changes written by another process', () => {
  it('are picked up within a second, without a change notice', async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    expect(checkFeed(await feedText(`/feeds/${TOKEN}.ics`))).toHaveLength(1);
    // A one-shot `sync` has its own connection and its own AppointmentStore.
    const other = openDatabase(h.ctx.config.database.path);
    try {
      const clock = new ManualClock(h.clock.now() + 60_000);
      const store = new AppointmentStore(other, clock);
      store.upsert(appointment(2));
      store.upsert(appointment(1, { status: 'CANCELED' }));
    } finally {
      other.close();
    }
    h.clock.advance(1000);
    expect(checkFeed(await feedText(`/feeds/${TOKEN}.ics`)).map((e) => e.uid)).toEqual(['apt00002@calbridge']);
  });
});

describe('status', () => {
  it("lists each feed's name, event count and last change, with the token masked", async () => {
    h = feedHarness([
      { name: 'Clinic', token: TOKEN },
      { name: 'Front desk', token: OTHER_TOKEN, filters: { calendar_key: 'cal-z' } },
    ]);
    h.ctx.appointments.upsert(appointment(1));
    h.ctx.appointments.upsert(appointment(2, { status: 'CANCELED' }));
    const status = h.part.status!().feeds;
    expect(status).toEqual({
      feeds: [
        {
          name: 'Clinic',
          privacy: 'full',
          events: 1,
          last_change: new Date(h.clock.now()).toISOString(),
          url: 'https://cal.example.com/feeds/****.ics',
          webcal: 'webcal://cal.example.com/feeds/****.ics',
        },
        {
          name: 'Front desk',
          privacy: 'full',
          events: 0,
          last_change: null,
          url: 'https://cal.example.com/feeds/****.ics',
          webcal: 'webcal://cal.example.com/feeds/****.ics',
        },
      ],
    });
    expect(JSON.stringify(status)).not.toContain(TOKEN);
    expect(await h.rendered()).toBe(0); // status counts without rendering
  });
});

describe('start', () => {
  it('prepares every feed in the background soon after start (not at once: /healthz first), so the first request renders nothing', async () => {
    h = feedHarness();
    for (let n = 0; n < 10; n++) h.ctx.appointments.upsert(appointment(n));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await h.part.start!();
      expect(await h.rendered()).toBe(0);
      vi.advanceTimersByTime(10_000);
    } finally {
      vi.useRealTimers();
    }
    expect(await h.rendered()).toBe(10);
    await feedText(`/feeds/${TOKEN}.ics`);
    expect(await h.rendered()).toBe(10);
    await h.part.stop!();
  });
});
