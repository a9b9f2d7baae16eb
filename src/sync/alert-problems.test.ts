import { describe, expect, it } from 'vitest';
import { messagesFor } from '../core/i18n/index.ts';
import { alertProblems, type ProblemFacts } from './alert-problems.ts';

const NOW = Date.UTC(2026, 5, 15, 12);
const DAY = 86_400_000;
const facts = (status: Record<string, unknown>, over: Partial<ProblemFacts> = {}): ProblemFacts => ({ status, databaseProblem: undefined, googleTokenIssuedAt: null, now: NOW, words: messagesFor('en').alerts, ...over });
const google = (over: Record<string, unknown>) => ({ google: { enabled: true, auth: { mode: 'oauth', ok: true, error: null }, failed: 0, breaker: null, ...over } });
const refused = { auth: { mode: 'oauth', ok: false, error: 'invalid_grant: Token has been expired or revoked.' }, failed: 3 };

describe('alertProblems', () => {
  it.each<[string, ProblemFacts, string[]]>([
    ['all well', facts({ ...google({}), ingest: { booking_api: { last_ok_at: '2026-06-15T11:59:00Z', last_error: null }, deletion_breaker: { held: 0 } } }), []],
    ['credentials refused: one problem, not also the writes they fail', facts(google(refused)), ['google.default.auth']],
    ['writes failing', facts(google({ failed: 2 })), ['google.default.writes']],
    ['a breaker holding', facts({ caldav: { enabled: true, auth: { ok: true }, failed: 0, breaker: { deletes: 40, mirrored: 100 } } }), ['caldav.default.breaker']],
    ['a wrong CalDAV password', facts({ caldav: { enabled: true, auth: { ok: false, error: '401' }, failed: 0, breaker: null } }), ['caldav.default.auth']],
    ['the booking API failing since its last good answer', facts({ ingest: { booking_api: { last_ok_at: '2026-06-15T11:00:00Z', last_error: { at: '2026-06-15T11:30:00Z', message: 'HTTP 502' } } } }), ['booking.api']],
    ['an old booking error, answered since', facts({ ingest: { booking_api: { last_ok_at: '2026-06-15T11:40:00Z', last_error: { at: '2026-06-15T11:30:00Z', message: 'HTTP 502' } } } }), []],
    ['the deletion breaker holding', facts({ ingest: { deletion_breaker: { held: 12 } } }), ['booking.breaker']],
    ['push channels gone', facts({ reverse_sync: { push: { enabled: true, address: 'https://sync.clinic.example/google/notifications', channels_active: 0 } } }), ['google.default.push']],
    ['push off is no problem', facts({ reverse_sync: { push: { enabled: false, why: 'public_url is not https' } } }), []],
    ['the database not writable', facts({}, { databaseProblem: 'attempt to write a readonly database' }), ['db.writable']],
    ['Microsoft: the sign-in refused, and change notifications failing', facts({ microsoft: { enabled: true, auth: { ok: false, error: 'AADSTS' }, failed: 4, breaker: null, push: { on: true, lastError: 'HTTP 400' } } }), ['microsoft.default.auth', 'microsoft.default.push']],
    ['a disabled target says nothing', facts({ google: { enabled: false } }), []],
  ])('%s', (_name, f, keys) => {
    expect(alertProblems(f).map((p) => p.key)).toEqual(keys);
  });

  it.each<[number | null, boolean]>([
    [null, false],
    [5.9 * DAY, false],
    [6 * DAY, true],
    [7 * DAY, true],
    [8 * DAY, true],
    [8.1 * DAY, false],
    [30 * DAY, false],
  ])('a refusal %s ms after the token was issued is named as the "Testing" trap: %s', (age, trap) => {
    const [p] = alertProblems(facts(google(refused), { googleTokenIssuedAt: age === null ? null : NOW - age }));
    expect(p!.sentence.includes('"Testing"')).toBe(trap);
    expect(p!.sentence.includes('Publish the OAuth consent screen')).toBe(trap);
    expect(p!.sentence).toContain('calbridge google auth');
  });

  it('never quotes the upstream error text', () => {
    const [p] = alertProblems(facts(google({ auth: { mode: 'oauth', ok: false, error: 'invalid_grant: account ana@clinic.example 12345678901' } })));
    expect(p!.sentence).not.toContain('ana@clinic.example');
    expect(p!.sentence).not.toContain('12345678901');
  });

  it('a service account refused is told its own fix', () => {
    const [p] = alertProblems(facts(google({ auth: { mode: 'service_account', ok: false, error: 'invalid_grant' } }), { googleTokenIssuedAt: NOW - 7 * DAY }));
    expect(p!.sentence).toContain('service account');
    expect(p!.sentence).not.toContain('Testing');
  });

  it('speaks server.locale: the "Testing" trap in Portuguese', () => {
    const [p] = alertProblems(facts(google(refused), { googleTokenIssuedAt: NOW - 7 * DAY, words: messagesFor('pt-BR').alerts }));
    expect(p!.sentence).toContain('7 dias depois de concedido: o app OAuth está em "Teste"');
    expect(p!.sentence).toContain('Publique a tela de consentimento OAuth');
  });
});
