// Appointments for feed tests: realistic names (accents, emoji) and contact details the privacy
// tests look for in rendered bodies.
import type { Appointment } from '../../src/core/appointment.ts';

const HOUR = 3_600_000;

export function appointment(n: number, overrides: Partial<Appointment> = {}): Appointment {
  const start = Date.UTC(2026, 5, 16, 12, 0) + n * HOUR;
  return {
    key: `apt${String(n).padStart(5, '0')}`,
    searchCode: `SC${n}X`,
    status: 'CONFIRMED',
    start,
    end: start + HOUR,
    timezone: 'America/Sao_Paulo',
    calendar: { calendarKey: 'cal-a', name: 'Consultório Dra. Inês' },
    person: {
      personKey: `p${n}`,
      fullName: `José Conceição Ñúñez 🦷 ${n}`,
      email: `jose.${n}@example.com`,
      phone: `+55 11 9${String(1000_0000 + n).slice(0, 8)}`,
      documentNumber: `DOC-${String(123_456_789 + n)}`,
    },
    clientKey: 'client-1',
    services: [{ serviceKey: 'svc-clean', name: 'Limpeza, avaliação; retorno' }],
    tagKeys: ['tag-new'],
    ownerUser: 'owner@example.com',
    externalId: null,
    createdAt: null,
    raw: { note: 'raw record' },
    ...overrides,
  };
}

export function rescheduled(a: Appointment, byMs: number): Appointment {
  return { ...a, start: a.start + byMs, end: a.end + byMs };
}
