// The words of a target's backfill entry: the count as people read it, and which calendars.
import { describe, expect, it } from 'vitest';
import { activityWords, backfillWords, directionLabel, ENGLISH, targetPlace } from './activity-words.ts';
import { messagesFor } from './i18n/index.ts';

describe('a backfill in words', () => {
  it('says how many were added where, with thousands separated', () => {
    expect(backfillWords(20_000, targetPlace('google', ['primary']))).toMatchObject({
      kind: 'backfill',
      direction: 'booking-to-targets',
      summary: 'added 20,000 appointments to Google Calendar (primary)',
      reason: null,
    });
    expect(backfillWords(1, 'Google Calendar').summary).toBe('added 1 appointment to Google Calendar');
  });

  it('names every calendar a target writes to, once each', () => {
    expect(targetPlace('google', ['primary', 'spa@group.calendar.google.com', 'primary'])).toBe(
      'Google Calendar (primary, spa@group.calendar.google.com)',
    );
    expect(targetPlace('caldav', ['Clinic'])).toBe('the CalDAV calendar (Clinic)');
    expect(targetPlace('caldav', ['Clinic', 'Spa'])).toBe('the CalDAV calendars (Clinic, Spa)');
  });
});

describe('activity in the configured outputs and the locale', () => {
  const subject = {
    label: 'AG00012',
    zone: 'America/Sao_Paulo',
    start: Date.UTC(2026, 5, 16, 13),
    status: 'NO_SHOW',
    gone: false,
    goneReason: null,
  };
  const caldavOnly = { m: messagesFor('en'), outputs: ['caldav'] as const };

  it('names only the targets that are configured: with CalDAV alone, nothing is "removed from Google"', () => {
    const gone = activityWords({ kind: 'booking', key: 'k' }, { ...subject, gone: true }, caldavOnly);
    expect(gone?.summary).toBe('no longer at the booking service → removed from the CalDAV calendar');
    const cancelled = activityWords(
      { kind: 'booking', key: 'k', before: { start: subject.start, status: 'CONFIRMED', gone: false } },
      { ...subject, status: 'CANCELED' },
      { m: messagesFor('en'), outputs: ['caldav', 'feeds'] },
    );
    expect(cancelled?.summary).toBe('cancelled at the booking service → removed from the CalDAV calendar');
    expect(directionLabel('booking-to-targets', caldavOnly)).toBe('booking → CalDAV');
  });

  it('names Outlook among the targets when Microsoft is configured, in both languages', () => {
    const outlookAndFeeds = { m: messagesFor('en'), outputs: ['microsoft', 'feeds'] as const };
    const gone = activityWords({ kind: 'booking', key: 'k' }, { ...subject, gone: true }, outlookAndFeeds);
    expect(gone?.summary).toBe('no longer at the booking service → removed from Outlook and the feeds');
    expect(directionLabel('booking-to-targets', { m: messagesFor('en'), outputs: ['google', 'microsoft', 'feeds'] })).toBe(
      'booking → Google/Outlook/feeds',
    );
    const pt = activityWords({ kind: 'booking', key: 'k' }, { ...subject, gone: true }, { ...outlookAndFeeds, m: messagesFor('pt-BR') });
    expect(pt?.summary).toBe('não está mais no sistema de agendamento → removido do Outlook e dos feeds');
  });

  it('tells the status in words, never its code, in Portuguese with pt-BR', () => {
    const pt = { m: messagesFor('pt-BR'), outputs: ['google', 'feeds'] as const };
    const changed = activityWords(
      { kind: 'booking', key: 'k', before: { start: subject.start, status: 'CONFIRMED', gone: false } },
      subject,
      pt,
    );
    expect(changed?.summary).toBe('agora não compareceu no sistema de agendamento (era confirmado)');
    const booked = activityWords({ kind: 'booking', key: 'k' }, subject, ENGLISH);
    expect(booked?.summary).toBe('booked for Tue 16 Jun 10:00 (no-show)');
    const gone = activityWords({ kind: 'booking', key: 'k' }, { ...subject, gone: true }, pt);
    expect(gone?.summary).toBe('não está mais no sistema de agendamento → removido do Google e dos feeds');
  });
});

describe("a person's change the booking service cannot take, put back", () => {
  const subject = {
    label: 'AG00012',
    zone: 'Europe/Vienna',
    start: Date.UTC(2026, 5, 15, 7),
    status: 'CONFIRMED',
    gone: false,
    goneReason: null,
  };
  const putBack = (reason: string, target?: 'caldav') =>
    activityWords(
      { kind: 'reverse', key: 'k', action: { kind: 'restore', reason }, movedTo: subject.start, ...(target ? { target } : {}) },
      subject,
    );

  it('says what the person did, that it was put back, and why, in Google and in CalDAV alike', () => {
    expect(putBack('length')).toMatchObject({
      direction: 'reverted',
      summary: 'made longer or shorter in Google → put back to its booked length',
      reason: 'the booking service takes a new start, not a new length',
    });
    expect(putBack('length', 'caldav')?.summary).toBe('made longer or shorter in the CalDAV calendar → put back to its booked length');
    expect(putBack('title')?.summary).toBe('renamed in Google → title put back');
    expect(putBack('not-a-time', 'caldav')?.summary).toBe('made all-day or repeating in the CalDAV calendar → put back');
  });

  it("an earlier write of calbridge's seen late is not told as a person's move, in English and in Portuguese", () => {
    const earlier = (m = ENGLISH) =>
      activityWords(
        {
          kind: 'reverse',
          key: 'k',
          action: { kind: 'restore', reason: 'earlier-write' },
          movedTo: subject.start + 4 * 3_600_000,
          target: 'microsoft',
        },
        subject,
        m,
      );
    expect(earlier()).toMatchObject({
      direction: 'reverted',
      summary: "Outlook showed an earlier time written by calbridge (Mon 15 Jun 13:00), not a person's move → set to the booked time",
    });
    expect(earlier()?.summary).not.toContain('moved in');
    expect(earlier({ m: messagesFor('pt-BR'), outputs: ['microsoft'] as const })?.summary).toBe(
      'um horário anterior gravado pelo calbridge aparecia no Outlook (seg. 15 jun. 13:00), não uma mudança de alguém → voltou ao horário agendado',
    );
  });
});
