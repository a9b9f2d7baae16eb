// A normalised appointment for tests: plain defaults, every field present, overrides on top.
import type { Appointment } from '../../src/core/appointment.ts';

export function testAppointment(over: Partial<Appointment> = {}): Appointment {
  const start = Date.UTC(2026, 5, 15, 13, 0);
  return {
    key: '733d9fee-c3ce-41f6-a941-122b7f72dc4c',
    searchCode: 'AB12',
    status: 'CONFIRMED',
    start,
    end: start + 3_600_000,
    timezone: 'America/Sao_Paulo',
    calendar: { calendarKey: 'cal-a', name: 'Clinic A' },
    person: { personKey: 'p-1', fullName: 'João Araújo', email: 'joao@example.com', phone: '+5511999990000', documentNumber: null },
    clientKey: null,
    services: [],
    tagKeys: [],
    ownerUser: null,
    externalId: null,
    createdAt: null,
    raw: {},
    ...over,
  };
}
