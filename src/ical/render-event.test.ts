import { describe, expect, it } from 'vitest';
import { renderEvent, styleVariant } from './render-event.ts';
import { assembleFeed, renderHeader } from '../feeds/assemble.ts';
import type { Appointment } from '../core/appointment.ts';
import { appointment } from '../../test/feeds/appointments.ts';
import { checkFeed, unfold } from '../../test/feeds/ics-assert.ts';

const changedAt = Date.UTC(2026, 5, 10, 9, 30, 15);

function feedOf(appointments: Appointment[], privacy: 'full' | 'limited' | 'busy' = 'full', title = '{person.full_name}'): string {
  const header = renderHeader({ name: 'Clínica São João 🦷', refresh_minutes: 30 });
  const fragments = appointments.map((a, i) => renderEvent({ appointment: a, revision: i + 3, changedAt }, { privacy, title }));
  return assembleFeed(header, fragments).body.toString('utf8');
}

describe('renderEvent', () => {
  it('writes UID, SEQUENCE, DTSTAMP and LAST-MODIFIED from the stored state, times in UTC', () => {
    const a = appointment(1);
    const [event] = checkFeed(feedOf([a]));
    expect(event).toMatchObject({
      uid: 'apt00001@calbridge',
      sequence: 3,
      dtstamp: '2026-06-10T09:30:15Z',
      lastModified: '2026-06-10T09:30:15Z',
      start: '2026-06-16T13:00:00Z',
      end: '2026-06-16T14:00:00Z',
      status: 'CONFIRMED',
    });
  });

  it.each([
    ['PENDING', 'TENTATIVE'],
    ['PENDING_FORM', 'TENTATIVE'],
    ['CONFIRMED', 'CONFIRMED'],
    ['ATTENDED', 'CONFIRMED'],
    ['IN_PROGRESS', 'CONFIRMED'],
    ['CANCELED', 'CANCELLED'],
  ])('status %s is shown as %s', (status, expected) => {
    const [event] = checkFeed(feedOf([appointment(1, { status })]));
    expect(event?.status).toBe(expected);
  });

  it('is the same text every time for the same inputs', () => {
    const input = { appointment: appointment(7), revision: 2, changedAt };
    const style = { privacy: 'full' as const, title: '{person.full_name} · {search_code}' };
    expect(renderEvent(input, style)).toBe(renderEvent(input, style));
  });

  it('titles from the template and describes the booking in a full feed; accents and emoji survive folding', () => {
    const a = appointment(2, {
      person: { ...appointment(2).person, fullName: 'Maria da Graça Ñandú 👩🏽‍⚕️🦷 Conceição de Assunção Magalhães' },
    });
    const body = feedOf([a], 'full', '{person.full_name} · {services}');
    expect(body).toMatch(/\r\nSUMMARY:[^\r\n]*\r\n [^\r\n]/); // the title is folded
    const [event] = checkFeed(body);
    expect(event?.summary).toBe('Maria da Graça Ñandú 👩🏽‍⚕️🦷 Conceição de Assunção Magalhães · Limpeza, avaliação; retorno');
    expect(event?.description).toContain('Professional: Consultório Dra. Inês');
    expect(event?.description).toContain('Status: Confirmed');
    expect(event?.description).toContain('E-mail: jose.2@example.com');
    expect(event?.description).toContain(`Phone: ${a.person.phone}`);
    expect(event?.description).toContain('Code: SC2X');
  });

  it('a limited event has the name but no e-mail, phone or document number, whatever the template asks', () => {
    const a = appointment(3);
    const body = feedOf([a], 'limited', '{person.full_name} {person.email} {person.phone}');
    const [event] = checkFeed(body);
    expect(event?.summary).toBe(a.person.fullName);
    expect(event?.description).toContain('Services: Limpeza, avaliação; retorno');
    for (const secret of [a.person.email!, a.person.phone!, a.person.documentNumber!, 'example.com'])
      expect(unfold(body)).not.toContain(secret);
  });

  it('a busy event is "Busy" and the times only', () => {
    const a = appointment(4);
    const body = feedOf([a], 'busy');
    const [event] = checkFeed(body);
    expect(event?.summary).toBe('Busy');
    expect(event?.description).toBeNull();
    for (const secret of [a.person.fullName!, a.person.email!, a.person.phone!, a.calendar.name!, 'Limpeza', 'SC4X'])
      expect(unfold(body)).not.toContain(secret);
  });

  it('drops control characters a record may carry and still parses', () => {
    const a = appointment(5, { person: { ...appointment(5).person, fullName: 'Ana\u0000\u0007 Bell\r\nline two' } });
    const [event] = checkFeed(feedOf([a]));
    expect(event?.summary).toBe('Ana Bell\nline two');
  });
});

describe('styleVariant', () => {
  it('differs by privacy and title, except that a busy feed has no title to vary', () => {
    expect(styleVariant({ privacy: 'full', title: '{person.full_name}' })).not.toBe(
      styleVariant({ privacy: 'limited', title: '{person.full_name}' }),
    );
    expect(styleVariant({ privacy: 'full', title: 'a' })).not.toBe(styleVariant({ privacy: 'full', title: 'b' }));
    expect(styleVariant({ privacy: 'busy', title: 'a' })).toBe(styleVariant({ privacy: 'busy', title: 'b' }));
  });
});

describe('the calendar', () => {
  it('names itself and hints its refresh interval, with no METHOD and no time zone', () => {
    const body = feedOf([]);
    checkFeed(body);
    expect(body).toContain('\r\nNAME:Clínica São João 🦷\r\n');
    expect(body).toContain('\r\nX-WR-CALNAME:Clínica São João 🦷\r\n');
    expect(body).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT30M\r\n');
    expect(body).toContain('\r\nX-PUBLISHED-TTL:PT30M\r\n');
    expect(body).not.toMatch(/METHOD|VTIMEZONE|TZID/);
  });
});
