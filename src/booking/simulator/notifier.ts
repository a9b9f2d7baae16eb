// Notifications POSTed to registered webhooks on every change, in the documented envelope or the two
// variants seen in practice (bare record; envelope with an upper-case event).
import type { SimEvent, SimStore } from './store.ts';
import { toWire, type RecordShape, type SimAppointment } from './model.ts';

export type NotifyShape = 'envelope' | 'bare' | 'upper';

export interface NotifyOptions {
  shape?: NotifyShape;
  /** Off: changes are recorded in `notifications` but nothing is sent. */
  deliver?: boolean;
  /** Maps a registered https:// callback to where it can really be reached (a local http:// daemon). */
  rewriteCallback?: (url: string) => string;
  /** Sent as "Authorization: Bearer <authToken>" (the dashboard's optional auth token). */
  authToken?: string;
  /** Extra attempts after a non-2xx answer or a network error. */
  retries?: number;
  retryDelayMs?: number;
}

export interface Notification {
  event: string;
  url: string;
  body: unknown;
  /** HTTP status of the last attempt; 0 for a network error; undefined while not sent or suppressed. */
  status?: number;
  attempts: number;
  suppressed: boolean;
}

const UPPER: Record<SimEvent, string> = {
  'appointment.created': 'CREATED',
  'appointment.updated': 'UPDATED',
  'appointment.canceled': 'CANCELED',
  'appointment.deleted': 'DELETED',
};

function subscribed(events: string[], event: SimEvent): boolean {
  // A removal is news to anyone who follows cancellations.
  return events.includes(event) || (event === 'appointment.deleted' && events.includes('appointment.canceled'));
}

export class Notifier {
  readonly notifications: Notification[] = [];
  suppressed = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: SimStore,
    private readonly options: NotifyOptions,
    private readonly recordShape: () => RecordShape,
  ) {
    store.onChange((event, a) => this.changed(event, a));
  }

  /** Resolves when every delivery started so far has finished (tests wait on it). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private body(event: SimEvent, a: SimAppointment): unknown {
    const record = toWire(a, this.recordShape(), this.store.zone);
    const shape = this.options.shape ?? 'envelope';
    if (shape === 'bare') return record;
    const timestamp = new Date(this.store.now()).toISOString();
    return { event: shape === 'upper' ? UPPER[event] : event, timestamp, data: record };
  }

  private changed(event: SimEvent, a: SimAppointment): void {
    for (const hook of this.store.webhooks.values()) {
      if (!subscribed(hook.events, event)) continue;
      const url = this.options.rewriteCallback ? this.options.rewriteCallback(hook.url) : hook.url;
      const n: Notification = { event, url, body: this.body(event, a), attempts: 0, suppressed: this.suppressed };
      this.notifications.push(n);
      if (this.suppressed || this.options.deliver === false) continue;
      const p = this.send(n).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  private async send(n: Notification): Promise<void> {
    const retries = this.options.retries ?? 2;
    for (let i = 0; i <= retries; i++) {
      n.attempts++;
      try {
        const res = await fetch(n.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(this.options.authToken ? { authorization: `Bearer ${this.options.authToken}` } : {}),
          },
          body: JSON.stringify(n.body),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        n.status = res.status;
        if (res.ok) return;
      } catch {
        n.status = 0;
      }
      if (i < retries) await new Promise((r) => setTimeout(r, (this.options.retryDelayMs ?? 200) * (i + 1)));
    }
  }
}
