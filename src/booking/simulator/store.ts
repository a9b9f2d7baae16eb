// The simulator's state: appointments and webhooks in memory, and one change event per mutation
// (the notifier turns those into deliveries).
import { DateTime } from 'luxon';
import { isCancelledStatus, toMs, type SimAppointment, type SimAppointmentInput } from './model.ts';
import { seededRandom, uuidFrom, type Random } from '../../core/random.ts';
import { STATUSES } from '../../core/appointment.ts';

export type SimEvent = 'appointment.created' | 'appointment.updated' | 'appointment.canceled' | 'appointment.deleted';
export type ChangeListener = (event: SimEvent, appointment: SimAppointment) => void;

export interface SimWebhook {
  webhook_key: string;
  url: string;
  events: string[];
}

export class SimStore {
  readonly appointments = new Map<string, SimAppointment>();
  readonly webhooks = new Map<string, SimWebhook>();
  private readonly listeners: ChangeListener[] = [];
  private codes = 0;
  readonly random: Random;
  /** Grows with every mutation: what a listing computed from the appointments stays valid while it holds. */
  private revision = 0;
  private sorted: { revision: number; list: readonly SimAppointment[] } | null = null;

  constructor(
    readonly zone: string,
    readonly now: () => number,
    seed = 1,
  ) {
    this.random = seededRandom(seed * 7919 + 17);
  }

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Changes whenever an appointment is created, changed or removed. */
  get version(): number {
    return this.revision;
  }

  private emit(event: SimEvent, a: SimAppointment): void {
    this.revision++;
    for (const l of this.listeners) l(event, structuredClone(a));
  }

  newKey(): string {
    return uuidFrom(this.random);
  }

  create(input: SimAppointmentInput = {}): SimAppointment {
    const start = toMs(input.start ?? input.start_date, this.zone) ?? this.nextHour();
    const a: SimAppointment = {
      appointment_key: input.appointment_key ?? this.newKey(),
      search_code: input.search_code ?? `AG${String(++this.codes).padStart(5, '0')}`,
      status: 'CONFIRMED',
      start,
      end: start + 3_600_000,
      calendar: { calendar_key: 'c0000000-0000-4000-a000-000000000001', name: 'Agenda Geral', ...input.calendar },
      person: {
        person_key: this.newKey(),
        full_name: 'Maria da Conceição',
        email: 'maria@example.com',
        phone: '+5511987654321',
        ...input.person,
      },
      client_key: input.client_key ?? 'b0000000-0000-4000-a000-000000000001',
      identification_code: input.identification_code ?? '',
      external_id: input.external_id ?? '',
      services: input.services ?? [],
      tag_keys: input.tag_keys ?? [],
      owner_user: input.owner_user ?? 'recepcao@example.com',
      created_at: toMs(input.created_at, this.zone) ?? this.now(),
    };
    this.apply(a, { ...input, start: undefined, start_date: undefined, created_at: undefined, appointment_key: undefined });
    if (input.end === undefined && input.end_date === undefined) {
      const minutes = a.services.reduce((m, s) => m + (s.minutes ?? 0), 0);
      a.end = a.start + (minutes || 60) * 60_000;
    }
    this.appointments.set(a.appointment_key, a);
    this.emit('appointment.created', a);
    return structuredClone(a);
  }

  update(key: string, patch: SimAppointmentInput): SimAppointment {
    const a = this.must(key);
    const wasCancelled = isCancelledStatus(a.status);
    this.apply(a, patch);
    this.emit(!wasCancelled && isCancelledStatus(a.status) ? 'appointment.canceled' : 'appointment.updated', a);
    return structuredClone(a);
  }

  reschedule(key: string, start: number): SimAppointment {
    const a = this.must(key);
    const length = a.end - a.start;
    return this.update(key, { start, end: start + length });
  }

  cancel(key: string, status = 'CANCELED'): SimAppointment {
    return this.update(key, { status });
  }

  remove(key: string): void {
    const a = this.must(key);
    this.appointments.delete(key);
    this.emit('appointment.deleted', a);
  }

  get(key: string): SimAppointment | undefined {
    const a = this.appointments.get(key);
    return a && structuredClone(a);
  }

  /** In start order, as a listing returns them. */
  all(): SimAppointment[] {
    return this.inOrder().map((a) => structuredClone(a));
  }

  /** The stored objects themselves in start order, for reading only (a listing copies just its page). */
  inOrder(): readonly SimAppointment[] {
    // Sorted once per state, not on every page: a listing of 100,000 is 1,000 pages.
    if (this.sorted?.revision !== this.revision) {
      const list = [...this.appointments.values()].sort((x, y) => x.start - y.start || (x.appointment_key < y.appointment_key ? -1 : 1));
      this.sorted = { revision: this.revision, list };
    }
    return this.sorted.list;
  }

  private must(key: string): SimAppointment {
    const a = this.appointments.get(key);
    if (!a) throw new Error(`simulator: no appointment ${key}`);
    return a;
  }

  private apply(a: SimAppointment, p: SimAppointmentInput): void {
    if (p.status !== undefined) {
      const status = p.status.toUpperCase();
      if (!(STATUSES as readonly string[]).includes(status)) throw new Error(`simulator: unknown status ${p.status}`);
      a.status = status;
    }
    const start = toMs(p.start ?? p.start_date, this.zone);
    const end = toMs(p.end ?? p.end_date, this.zone);
    if (start !== undefined) {
      if (end === undefined) a.end = start + (a.end - a.start);
      a.start = start;
    }
    if (end !== undefined) a.end = end;
    if (p.search_code !== undefined) a.search_code = p.search_code;
    if (p.calendar) a.calendar = { ...a.calendar, ...p.calendar };
    if (p.person) a.person = { ...a.person, ...p.person };
    if (p.client_key !== undefined) a.client_key = p.client_key;
    if (p.identification_code !== undefined) a.identification_code = p.identification_code;
    if (p.external_id !== undefined) a.external_id = p.external_id;
    if (p.services) a.services = p.services;
    if (p.service_keys) a.services = p.service_keys.map((k) => ({ service_key: k, service_name: k }));
    if (p.tag_keys) a.tag_keys = p.tag_keys;
    if (p.owner_user !== undefined) a.owner_user = p.owner_user;
  }

  /** The next full hour from now, in the simulator's zone. */
  private nextHour(): number {
    return DateTime.fromMillis(this.now(), { zone: this.zone }).startOf('hour').plus({ hours: 1 }).toMillis();
  }
}
