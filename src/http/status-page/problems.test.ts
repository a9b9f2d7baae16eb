// Problems for people: each once, appointments named by their search code, in the locale.
import { describe, expect, it } from 'vitest';
import { pageProblems } from './problems.ts';
import { messagesFor } from '../../core/i18n/index.ts';

const KEY = '7d0b3c1e-0000-4000-a000-000000000001';
const ready = { ready: true, reasons: [], warnings: [] };
const failing = {
  google: { enabled: true, failed: 1, failures: [{ appointmentKey: KEY, lastError: `event for ${KEY}: 403 forbidden` }] },
};

describe('pageProblems', () => {
  it('names an appointment that cannot be written by its search code, never its key', () => {
    const [p, ...rest] = pageProblems(ready, failing, { m: messagesFor('en'), zone: 'America/Sao_Paulo', codeOf: () => 'AG00012' });
    expect(rest).toEqual([]);
    expect(p?.text).toBe('1 appointment (AG00012) could not be written to Google; calbridge keeps retrying by itself.');
    expect(p?.detail).toBe('Google said: event for AG00012: 403 forbidden');
    expect(JSON.stringify(p)).not.toContain(KEY);
  });

  it('tells a problem two parts report alike once', () => {
    const twice = { ready: true, reasons: [], warnings: ['the booking API has not answered successfully yet (details in status: booking_api)', 'the booking API has not answered successfully yet'] };
    expect(pageProblems(twice, {}, { m: messagesFor('pt-BR'), zone: 'America/Sao_Paulo' })).toEqual([
      { text: 'A API do sistema de agendamento ainda não respondeu com sucesso.', todo: 'Confira booking.base_url e booking.token, e se o sistema de agendamento está no ar.' },
    ]);
  });

  it('tells a refused CalDAV password once, not also as failing writes and a failed round', () => {
    const warnings = [
      'CalDAV: the server refused the username and password; check caldav.username and the password',
      'CalDAV reverse sync: the last round failed for at least one calendar (details in status: caldav.reverse_sync)',
    ];
    const status = { caldav: { enabled: true, failed: 3, failures: [{ appointmentKey: KEY, lastError: '401' }] } };
    const problems = pageProblems({ ready: true, reasons: [], warnings }, status, { m: messagesFor('en'), zone: 'UTC' });
    expect(problems.map((p) => p.text)).toEqual(['The CalDAV server refused the username or password, so no appointment reaches the CalDAV calendar.']);
  });
});
