// Realistic appointments for the demo and for tests that want a busy service: several calendars and
// people (accented names), spread over past and future days in business hours. Deterministic per seed.
import { DateTime } from 'luxon';
import type { SimAppointment, SimAppointmentInput, SimService } from './model.ts';
import { pick, uuidFrom, type Random } from '../../core/random.ts';
import type { SimStore } from './store.ts';

const FIRST = [
  'João',
  'Maria',
  'José',
  'Ana',
  'Conceição',
  'Sebastião',
  'Lúcia',
  'André',
  'Helena',
  'Tomás',
  'Inês',
  'Márcio',
  'Zoë',
  'Begoña',
  'Renée',
  'Ígor',
];
const LAST = [
  'Araújo',
  'Gonçalves',
  'Conceição',
  'Magalhães',
  'Ribeiro',
  'Peña',
  'Sebastião',
  'Müller',
  'Lopes',
  'Simões',
  'Brandão',
  'Nóbrega',
];
const OWNERS = ['recepcao@clinica.example', 'ana.souza@clinica.example', 'marcos@clinica.example'];

interface CalendarDef {
  calendar_key: string;
  name: string;
  services: SimService[];
}

export function calendarsFor(random: Random): CalendarDef[] {
  const svc = (name: string, minutes: number): SimService => ({ service_key: uuidFrom(random), service_name: name, minutes });
  return [
    { calendar_key: uuidFrom(random), name: 'Dra. Lúcia Magalhães · Clínica Geral', services: [svc('Consulta', 30), svc('Retorno', 20)] },
    { calendar_key: uuidFrom(random), name: 'Fisioterapia — Sala 2', services: [svc('Sessão de fisioterapia', 50)] },
    { calendar_key: uuidFrom(random), name: 'Odontologia São João', services: [svc('Limpeza', 45), svc('Avaliação', 30)] },
  ];
}

const TAGS = ['d1a2b3c4-0000-4000-a000-00000000000a', 'd1a2b3c4-0000-4000-a000-00000000000b'];

function person(random: Random): SimAppointment['person'] {
  const first = pick(random, FIRST);
  const last = pick(random, LAST);
  const ascii = `${first}.${last}`
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const phone = `+55119${Math.floor(random() * 1e8)
    .toString()
    .padStart(8, '0')}`;
  return { person_key: uuidFrom(random), full_name: `${first} ${last}`, email: `${ascii}@example.com`, phone };
}

/** One plausible booking: a day within [-pastDays, +futureDays], on a half hour between 8:00 and 17:30. */
function plausibleBooking(
  random: Random,
  calendars: CalendarDef[],
  now: number,
  zone: string,
  days: { past: number; future: number },
): SimAppointmentInput {
  const cal = pick(random, calendars);
  const service = pick(random, cal.services);
  const day = Math.floor(random() * (days.past + days.future + 1)) - days.past;
  const slot = Math.floor(random() * 20);
  const start = DateTime.fromMillis(now, { zone })
    .startOf('day')
    .plus({ days: day, hours: 8, minutes: slot * 30 })
    .toMillis();
  const past = start < now;
  const roll = random();
  const status = past
    ? roll < 0.7
      ? 'ATTENDED'
      : roll < 0.85
        ? 'NO_SHOW'
        : 'CANCELED_CLIENT'
    : roll < 0.65
      ? 'CONFIRMED'
      : roll < 0.9
        ? 'PENDING'
        : 'PENDING_PAYMENT';
  return {
    status,
    start,
    end: start + (service.minutes ?? 60) * 60_000,
    calendar: { calendar_key: cal.calendar_key, name: cal.name },
    person: person(random),
    client_key: uuidFrom(random),
    identification_code: String(Math.floor(random() * 1e11)).padStart(11, '0'),
    services: [service],
    tag_keys: random() < 0.3 ? [pick(random, TAGS)] : [],
    owner_user: pick(random, OWNERS),
    created_at: now - Math.floor(random() * 30) * 86_400_000,
  };
}

export function seedAppointments(store: SimStore, random: Random, calendars: CalendarDef[], count: number): void {
  for (let i = 0; i < count; i++) {
    store.create(plausibleBooking(random, calendars, store.now(), store.zone, { past: 14, future: 30 }));
  }
}

/** One step of the living mode: book, confirm, reschedule, cancel or mark attended. */
export function liveStep(store: SimStore, random: Random, calendars: CalendarDef[]): string {
  const now = store.now();
  const future = store.all().filter((a) => a.start > now && !a.status.startsWith('CANCEL'));
  const roll = random();
  const target = future.length ? pick(random, future) : undefined;
  if (!target || roll < 0.35) {
    const a = store.create({ ...plausibleBooking(random, calendars, now, store.zone, { past: 0, future: 14 }), created_at: now });
    return `booked ${a.search_code}`;
  }
  if (roll < 0.55 && target.status.startsWith('PENDING')) {
    store.update(target.appointment_key, { status: 'CONFIRMED' });
    return `confirmed ${target.search_code}`;
  }
  if (roll < 0.75) {
    const shift = (Math.floor(random() * 8) - 4 || 1) * 30 * 60_000 + (random() < 0.3 ? 86_400_000 : 0);
    store.reschedule(target.appointment_key, target.start + shift);
    return `rescheduled ${target.search_code}`;
  }
  if (roll < 0.9) {
    store.cancel(target.appointment_key, random() < 0.5 ? 'CANCELED' : 'CANCELED_CLIENT');
    return `cancelled ${target.search_code}`;
  }
  const past = store.all().filter((a) => a.start < now && a.status === 'CONFIRMED');
  const done = past.length ? pick(random, past) : undefined;
  if (done) {
    store.update(done.appointment_key, { status: 'ATTENDED' });
    return `attended ${done.search_code}`;
  }
  return 'nothing happened';
}
