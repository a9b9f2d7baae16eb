import { describe, expect, it } from 'vitest';
import { messagesFor } from '../core/i18n/index.ts';
import type { IngestSection, StatusDocument, TargetSection } from '../status/status-document.ts';
import { alertProblems, type ProblemFacts } from './alert-problems.ts';

const NOW = Date.UTC(2026, 5, 15, 12);
const DAY = 86_400_000;
type Doc = { targets?: Record<string, TargetSection>; ingest?: Partial<IngestSection> };
const facts = (d: Doc, over: Partial<ProblemFacts> = {}): ProblemFacts => ({
  // The ingest section is given in part: these rules read only its booking API and deletion breaker.
  status: {
    version: 't',
    now: new Date(NOW).toISOString(),
    targets: d.targets ?? {},
    ...(d.ingest ? { ingest: d.ingest as IngestSection } : {}),
  } satisfies StatusDocument,
  databaseProblem: undefined,
  googleTokenIssuedAt: null,
  now: NOW,
  words: messagesFor('en').alerts,
  signIn: messagesFor('en').signIn,
  ...over,
});
const section = (kind: string, over: Partial<TargetSection> = {}): TargetSection => ({
  enabled: true,
  kind,
  account: `${kind}.default`,
  calendars: ['primary'],
  auth: { ok: true, error: null, ...(kind === 'google' ? { mode: 'oauth' as const } : {}) },
  mirrored: 10,
  pending: 0,
  failed: 0,
  failures: [],
  last_pass_at: null,
  last_success_at: null,
  last_error: null,
  breaker: null,
  requests_per_minute: 600,
  reverse_sync: { enabled: false },
  ...over,
});
const target = (kind: string, over: Partial<TargetSection> = {}): Doc => ({ targets: { [`${kind}.default`]: section(kind, over) } });
const google = (over: Partial<TargetSection>) => target('google', over);
const refused: Partial<TargetSection> = {
  auth: { mode: 'oauth', ok: false, error: 'invalid_grant: Token has been expired or revoked.' },
  failed: 3,
};
const withPush = (
  push: { enabled: true; address: string; channels_active: number } | { enabled: false; why: string },
): TargetSection['reverse_sync'] =>
  ({
    enabled: true,
    calendars: ['primary'],
    on_conflict: 'revert',
    on_delete: 'recreate',
    last_round_at: null,
    last_ok_round_at: null,
    last_error: null,
    moves_detected: 0,
    restored_booking_wins: 0,
    held_by_breaker: 0,
    reschedules: { done: 0, reverted: 0, conflicts: 0, refused: 0, pending: 0, failed: 0 },
    deletions: { recreated: 0, cancelled: 0, ignored: 0 },
    problems: [],
    push,
  }) as TargetSection['reverse_sync'];

describe('alertProblems', () => {
  it.each<[string, ProblemFacts, string[]]>([
    [
      'all well',
      facts({
        ...google({}),
        ingest: {
          booking_api: { last_ok_at: '2026-06-15T11:59:00Z', last_error: null },
          deletion_breaker: { held: 0, held_appointments: [], max_gone_per_hour: null, gone_last_hour: 0 },
        } as Partial<IngestSection>,
      }),
      [],
    ],
    ['credentials refused: one problem, not also the writes they fail', facts(google(refused)), ['google.default.auth']],
    ['writes failing', facts(google({ failed: 2 })), ['google.default.writes']],
    [
      'a breaker holding',
      facts(target('caldav', { breaker: { deletes: 40, mirrored: 100, at: '2026-06-15T11:00:00.000Z' } })),
      ['caldav.default.breaker'],
    ],
    ['a wrong CalDAV password', facts(target('caldav', { auth: { ok: false, error: '401' } })), ['caldav.default.auth']],
    [
      'the booking API failing since its last good answer',
      facts({
        ingest: {
          booking_api: { last_ok_at: '2026-06-15T11:00:00Z', last_error: { at: '2026-06-15T11:30:00Z', message: 'HTTP 502' } },
          deletion_breaker: { held: 0, held_appointments: [], max_gone_per_hour: null, gone_last_hour: 0 },
        } as Partial<IngestSection>,
      }),
      ['booking.api'],
    ],
    [
      'an old booking error, answered since',
      facts({
        ingest: {
          booking_api: { last_ok_at: '2026-06-15T11:40:00Z', last_error: { at: '2026-06-15T11:30:00Z', message: 'HTTP 502' } },
          deletion_breaker: { held: 0, held_appointments: [], max_gone_per_hour: null, gone_last_hour: 0 },
        } as Partial<IngestSection>,
      }),
      [],
    ],
    [
      'the deletion breaker holding',
      facts({
        ingest: {
          deletion_breaker: { held: 12, held_appointments: [], max_gone_per_hour: null, gone_last_hour: 12 },
        } as Partial<IngestSection>,
      }),
      ['booking.breaker'],
    ],
    [
      'push channels gone',
      facts(
        google({
          reverse_sync: withPush({ enabled: true, address: 'https://sync.clinic.example/google/notifications', channels_active: 0 }),
        }),
      ),
      ['google.default.push'],
    ],
    ['push off is no problem', facts(google({ reverse_sync: withPush({ enabled: false, why: 'public_url is not https' }) })), []],
    ['the database not writable', facts({}, { databaseProblem: 'attempt to write a readonly database' }), ['db.writable']],
    [
      'Microsoft: the sign-in refused, and change notifications failing',
      facts(
        target('microsoft', {
          auth: { ok: false, error: 'AADSTS' },
          failed: 4,
          reverse_sync: withPush({ enabled: true, address: 'https://sync.clinic.example/microsoft/notifications', channels_active: 0 }),
        }),
      ),
      ['microsoft.default.auth', 'microsoft.default.push'],
    ],
    [
      'each account by its own name',
      facts({ targets: { 'google.ana': section('google', { account: 'google.ana', failed: 1 }), 'google.default': section('google') } }),
      ['google.ana.writes'],
    ],
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

  it('an account connected on the web is told to connect again by an invite, never to run `google auth --account`', () => {
    const problems = alertProblems(
      facts({
        targets: {
          'google.bia': section('google', {
            account: 'google.bia',
            connected: true,
            auth: { mode: 'oauth', ok: false, error: 'invalid_grant' },
          }),
          'caldav.bruno': section('caldav', { account: 'caldav.bruno', connected: true, auth: { ok: false, error: '401' } }),
          'google.ana': section('google', { account: 'google.ana', auth: { mode: 'oauth', ok: false, error: 'invalid_grant' } }),
        },
      }),
    );
    const said = Object.fromEntries(problems.map((p) => [p.key, p.sentence]));
    expect(said['google.bia.auth']).toMatch(/^google\.bia: Google refused the sign-in of this calendar, connected on the web/);
    expect(said['google.bia.auth']).toContain('make a new invite on the status page');
    expect(said['google.bia.auth']).toContain('`calbridge connect invite --target google --name bia');
    expect(said['google.bia.auth']).not.toContain('google auth');
    expect(said['caldav.bruno.auth']).toContain('`calbridge connect invite --target caldav --name bruno');
    expect(said['caldav.bruno.auth']).not.toContain('caldav.password');
    // One of the config's accounts is still signed in by the command, with its name.
    expect(said['google.ana.auth']).toContain('`calbridge google auth --account ana`');
  });

  it.each<[number, boolean]>([
    [3 * DAY, false],
    [7 * DAY, true],
    [20 * DAY, false],
  ])(
    'a connected Google calendar refused %s ms after it was connected: the "Testing" trap named: %s; always the fix to publish, then connect again',
    (age, trap) => {
      const bia = section('google', { account: 'google.bia', connected: true, auth: { mode: 'oauth', ok: false, error: 'invalid_grant' } });
      const [p] = alertProblems(
        facts({ targets: { 'google.bia': bia } }, { googleTokenIssuedAt: (a) => (a === 'google.bia' ? NOW - age : null) }),
      );
      expect(
        p!.sentence.startsWith(`google.bia: Google refused the sign-in of this calendar, connected on the web, ${age / DAY} days after`),
      ).toBe(trap);
      expect(p!.sentence).toContain('publish it first (Google Cloud console, OAuth consent screen, "Publish app")');
      expect(p!.sentence).toContain('Connect again: remove it and make a new invite');
      expect(p!.sentence).not.toContain('google auth');
    },
  );

  it('the same in Portuguese', () => {
    const bia = section('google', { account: 'google.bia', connected: true, auth: { mode: 'oauth', ok: false, error: 'invalid_grant' } });
    const pt = messagesFor('pt-BR');
    const [p] = alertProblems(
      facts({ targets: { 'google.bia': bia } }, { googleTokenIssuedAt: NOW - 7 * DAY, words: pt.alerts, signIn: pt.signIn }),
    );
    expect(p!.sentence).toContain('conectada pela web, 7 dias depois de concedido: o app OAuth de connect.google_client está em "Teste"');
    expect(p!.sentence).toContain('publique-a antes');
    expect(p!.sentence).toContain('Conecte de novo');
  });

  it('never quotes the upstream error text', () => {
    const [p] = alertProblems(
      facts(google({ auth: { mode: 'oauth', ok: false, error: 'invalid_grant: account ana@clinic.example 12345678901' } })),
    );
    expect(p!.sentence).not.toContain('ana@clinic.example');
    expect(p!.sentence).not.toContain('12345678901');
  });

  it('a service account refused is told its own fix', () => {
    const [p] = alertProblems(
      facts(google({ auth: { mode: 'service_account', ok: false, error: 'invalid_grant' } }), { googleTokenIssuedAt: NOW - 7 * DAY }),
    );
    expect(p!.sentence).toContain('service account');
    expect(p!.sentence).not.toContain('Testing');
  });

  it('speaks server.locale: the "Testing" trap in Portuguese', () => {
    const [p] = alertProblems(facts(google(refused), { googleTokenIssuedAt: NOW - 7 * DAY, words: messagesFor('pt-BR').alerts }));
    expect(p!.sentence).toContain('7 dias depois de concedido: o app OAuth está em "Teste"');
    expect(p!.sentence).toContain('Publique a tela de consentimento OAuth');
  });
});
