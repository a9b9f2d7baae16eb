// The booking API for a dry run: every read goes to the booking service, every write is held back.
// A held reschedule or cancellation is then shown by later reads of that appointment, as the booking
// service would show it after the real request, so the rest of the pass (the re-read after a
// reschedule, the writer) decides as it would in a real one.
import type { BookingApi, Webhook } from '../../booking/port.ts';
import { appointmentKeyOf, readAppointment, type ReaderOptions } from '../../core/reader.ts';
import type { HeldWrites } from './planned.ts';

type Change = { start: number } | { status: string };

/** The raw record as the booking service would return it after the held change. */
function changed(raw: unknown, change: Change, reader: ReaderOptions): unknown {
  const read = readAppointment(raw, reader);
  if (!read.ok || typeof raw !== 'object' || raw === null) return raw;
  const r = { ...(raw as Record<string, unknown>) };
  if ('status' in change) {
    r.status = change.status;
    return r;
  }
  const a = read.appointment;
  const endKey = 'end_date' in r ? 'end_date' : 'end';
  r['start_date' in r ? 'start_date' : 'start'] = new Date(change.start).toISOString();
  if (r[endKey] !== undefined && r[endKey] !== null) r[endKey] = new Date(change.start + (a.end - a.start)).toISOString();
  return r;
}

export function captureBooking(real: BookingApi, reader: ReaderOptions, held: HeldWrites): BookingApi {
  const changes = new Map<string, Change[]>();
  const shown = (raw: unknown): unknown => {
    const key = appointmentKeyOf(raw);
    return (key ? (changes.get(key) ?? []) : []).reduce((r, c) => changed(r, c, reader), raw);
  };
  const hold = (key: string, change: Change): void => void changes.set(key, [...(changes.get(key) ?? []), change]);
  const heldWebhook = (detail: string, w: Webhook): Promise<Webhook> => {
    held.hold({ kind: 'booking', op: 'webhook', appointmentKey: null, detail });
    return Promise.resolve(w);
  };

  return {
    async *listPages(filters) {
      for await (const page of real.listPages(filters)) yield page.map(shown);
    },
    getAppointment: async (key) => shown(await real.getAppointment(key)),
    async updateStatus(key, status) {
      held.hold({ kind: 'booking', op: 'status', appointmentKey: key, detail: status });
      hold(key, { status });
    },
    async reschedule(key, start) {
      held.hold({ kind: 'booking', op: 'reschedule', appointmentKey: key, detail: start });
      hold(key, { start });
    },
    async cancel(key) {
      held.hold({ kind: 'booking', op: 'cancel', appointmentKey: key, detail: 'CANCELED' });
      hold(key, { status: 'CANCELED' });
    },
    listWebhooks: () => real.listWebhooks(),
    createWebhook: (url, events) => heldWebhook(`create ${url}`, { webhook_key: 'dry-run', url, events }),
    updateWebhook: (key, url, events) => heldWebhook(`update ${key}`, { webhook_key: key, url, events }),
    deleteWebhook: async (key) => void (await heldWebhook(`delete ${key}`, { webhook_key: key, url: '', events: [] })),
  };
}
