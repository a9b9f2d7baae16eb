// What a person reads in an event calbridge writes, by server.locale: the feed's default description,
// and the Google and CalDAV events' texts through their templates ({status_label}): status in words,
// service names, the professional; never a status code or a key, and in Portuguese no English.
import { describe, expect, it } from 'vitest';
import { renderEvent } from '../../src/ical/render-event.ts';
import { desiredEvent, isDesired } from '../../src/core/mirror/desired-event.ts';
import { desiredObject, mirrorMapping } from '../../src/caldav/desired-object.ts';
import { messagesFor } from '../../src/core/i18n/index.ts';
import { testConfig } from '../helpers/context.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { ENGLISH, RAW } from '../helpers/locale-scan.ts';

const a = testAppointment({
  status: 'NO_SHOW',
  calendar: { calendarKey: 'cal-ines', name: 'Dra. Inês Moura' },
  services: [
    { serviceKey: 'e82a7df3-1c2d-4e5f-8a9b-0c1d2e3f4a5b', name: null },
    { serviceKey: 's-2', name: 'Fisioterapia' },
  ],
});
const unfold = (ics: string) => ics.replace(/\r\n[ \t]/g, '');
const texts = (ics: string) =>
  [...unfold(ics).matchAll(/^(?:SUMMARY|DESCRIPTION):(.*)$/gm)]
    .map((m) => m[1]!.replace(/\\n/g, '\n').replace(/\\([,;\\])/g, '$1'))
    .join('\n');

describe.each([
  ['en', 'Services: Fisioterapia\nProfessional: Dra. Inês Moura', 'Status: No-show'],
  ['pt-BR', 'Serviços: Fisioterapia\nProfissional: Dra. Inês Moura', 'Situação: Não compareceu'],
] as const)('events in %s', (locale, services, status) => {
  const m = messagesFor(locale);

  it('a feed event describes the booking in words by default: no service key, no status code', () => {
    const text = texts(
      renderEvent(
        { appointment: a, revision: 1, changedAt: a.start },
        { privacy: 'full', title: '{person.full_name}', description: null, messages: m },
      ),
    );
    expect(text).toContain(services);
    expect(text).toContain(status);
    expect(text).not.toMatch(RAW);
    if (locale === 'pt-BR') expect(text.replace(/\S+@\S+/g, '').match(ENGLISH)).toBeNull();
  });

  it('feeds[].description is a template like the others', () => {
    const config = testConfig({
      feeds: [{ name: 'Clínica', token: 'feed-token-clinica-0123456789', description: '{status_label} · {services}' }],
    });
    const feed = config.feeds[0]!;
    expect(texts(renderEvent({ appointment: a, revision: 1, changedAt: a.start }, { ...feed, messages: m }))).toContain(
      `${status.split(': ')[1]} · Fisioterapia`,
    );
  });

  it('Google and CalDAV events carry {status_label} in words', () => {
    const mapping = {
      calendars: [{ calendar_key: '*', calendar_id: 'primary' }],
      statuses: ['NO_SHOW'],
      title: '{person.full_name} · {status_label}',
      description: '{calendar.name}\n{services}',
      messages: m,
    };
    const google = desiredEvent(a, 1, false, mapping);
    expect(isDesired(google) && google.body.summary).toBe(`${a.person.fullName} · ${status.split(': ')[1]}`);
    const caldav = desiredObject(
      a,
      1,
      false,
      mirrorMapping(
        {
          calendars: [{ calendar_key: '*', calendar: 'Clinic' }],
          statuses: ['NO_SHOW'],
          title: mapping.title,
          description: mapping.description,
        },
        m,
      ),
      a.start,
    );
    const text = isDesired(caldav) ? texts(caldav.body) : '';
    expect(text).toContain(status.split(': ')[1]);
    expect(text).not.toMatch(RAW);
  });
});
