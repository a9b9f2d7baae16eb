// Problems for people: each once, appointments named by their search code, in the locale.
import { describe, expect, it } from 'vitest';
import { pageProblems } from './problems.ts';
import { messagesFor } from '../../core/i18n/index.ts';
import type { OverallReadiness, Warning } from '../../core/readiness.ts';
import type { StatusDocument, TargetSection } from '../../status/status-document.ts';

const KEY = '7d0b3c1e-0000-4000-a000-000000000001';
const NOW = '2026-06-15T12:00:00.000Z';

function target(kind: string, o: Partial<TargetSection> = {}): TargetSection {
  return {
    enabled: true,
    kind,
    account: `${kind}.default`,
    calendars: ['primary'],
    auth: { ok: true, error: null },
    mirrored: 0,
    pending: 0,
    failed: 0,
    failures: [],
    last_pass_at: null,
    last_success_at: null,
    last_error: null,
    breaker: null,
    requests_per_minute: 600,
    reverse_sync: { enabled: false },
    ...o,
  };
}
const doc = (...targets: TargetSection[]): StatusDocument => ({
  version: 'test',
  now: NOW,
  targets: Object.fromEntries(targets.map((t) => [t.account, t])),
});
const readiness = (notes: Warning[] = []): OverallReadiness => ({ ready: true, reasons: [], warnings: notes.map((n) => n.text), notes });
const failure = (lastError: string) => ({
  appointment_key: KEY,
  event_id: 'ev1',
  attempts: 3,
  next_attempt_at: NOW,
  last_error: lastError,
});

describe('pageProblems', () => {
  it('tells an account of accounts: to sign in with its --account, and one connected on the web to connect again by an invite', () => {
    const refused = { auth: { ok: false, error: 'invalid_grant: run `calbridge google auth` again', mode: 'oauth' as const } };
    const m = messagesFor('en');
    const [ana, bia] = pageProblems(
      readiness(),
      doc(
        target('google', { account: 'google.ana', ...refused }),
        target('google', { account: 'google.bia', connected: true, ...refused }),
      ),
      { m, zone: 'UTC' },
    );
    expect(ana?.text).toMatch(/^google\.ana: Google refused/);
    expect(ana?.todo).toContain('`calbridge google auth --account ana`');
    expect(ana?.detail).toBe('Google said: invalid_grant: run `calbridge google auth --account ana` again');
    expect(bia?.text).toMatch(/^google\.bia: Google refused/);
    // bia is in no config: no `google auth --account bia` can sign her in.
    expect(bia?.todo).not.toContain('google auth');
    // Google ends an app in "Testing"'s sign-ins after 7 days, a connected one's too: publish it, then connect again.
    expect(bia?.todo).toBe(`${m.signIn.googlePublishFirst} ${m.signIn.connectAgain('google', 'bia')}`);
    expect(bia?.todo).toContain('is still in "Testing", Google ends its sign-ins after 7 days: publish it first');
    expect(bia?.todo).toContain('make a new invite on the status page (Connected calendars)');
    expect(bia?.todo).toContain('`calbridge connect invite --target google --name bia');
    expect(bia?.detail).toBeUndefined();
  });

  it('tells a CalDAV calendar connected on the web whose app password is refused to connect again, in the locale', () => {
    const m = messagesFor('pt-BR');
    const bruno = target('caldav', { account: 'caldav.bruno', connected: true, auth: { ok: false, error: '401' } });
    const [p] = pageProblems(readiness(), doc(bruno), { m, zone: 'UTC' });
    expect(p?.text).toMatch(/^caldav\.bruno: /);
    expect(p?.todo).toBe(m.signIn.connectAgain('caldav', 'bruno'));
    expect(p?.todo).not.toContain('caldav.password');
  });

  it('names an appointment that cannot be written by its search code, never its key', () => {
    const failing = doc(target('google', { failed: 1, failures: [failure(`event for ${KEY}: 403 forbidden`)] }));
    const [p, ...rest] = pageProblems(readiness(), failing, { m: messagesFor('en'), zone: 'America/Sao_Paulo', codeOf: () => 'AG00012' });
    expect(rest).toEqual([]);
    expect(p?.text).toBe('1 appointment (AG00012) could not be written to Google; calbridge keeps retrying by itself.');
    expect(p?.detail).toBe('Google said: event for AG00012: 403 forbidden');
    expect(JSON.stringify(p)).not.toContain(KEY);
  });

  it('tells a problem two parts report alike once', () => {
    const twice = readiness([
      { text: 'the booking API has not answered successfully yet', see: 'ingest.booking_api' },
      { text: 'the booking API has not answered successfully yet' },
    ]);
    expect(pageProblems(twice, doc(), { m: messagesFor('pt-BR'), zone: 'America/Sao_Paulo' })).toEqual([
      {
        text: 'A API do sistema de agendamento ainda não respondeu com sucesso.',
        todo: 'Confira booking.base_url e booking.token, e se o sistema de agendamento está no ar.',
      },
    ]);
  });

  it('tells a refused CalDAV password once, not also as failing writes and a failed round', () => {
    const notes: Warning[] = [
      {
        text: 'CalDAV: the server refused the username and password; check caldav.username and the password',
        cause: { account: 'caldav.default', kind: 'auth' },
      },
      {
        text: 'CalDAV reverse sync: the last round failed for at least one calendar',
        see: 'targets.caldav.default.reverse_sync',
        cause: { account: 'caldav.default', kind: 'round_failed' },
      },
    ];
    const status = doc(target('caldav', { failed: 3, failures: [failure('401')] }));
    const problems = pageProblems(readiness(notes), status, { m: messagesFor('en'), zone: 'UTC' });
    expect(problems.map((p) => p.text)).toEqual([
      'The CalDAV server refused the username or password, so no appointment reaches the CalDAV calendar.',
    ]);
  });
});
