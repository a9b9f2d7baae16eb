// A faithful simulator of the booking service's API (src/booking/README.md): the demo's data source and the test double
// for everything that talks to the booking API. Listens on 127.0.0.1; see README.md for options.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Clock } from '../../core/clock.ts';
import { FaultPlan, type Faults, type ScriptedFailure } from './faults.ts';
import { toWire, type RecordShape, type SimAppointment, type SimAppointmentInput, type WireRecord } from './model.ts';
import { Notifier, type Notification, type NotifyOptions } from './notifier.ts';
import { simulatorRoutes } from './routes.ts';
import { calendarsFor, liveStep, seedAppointments } from './seed-data.ts';
import { SimStore, type SimWebhook } from './store.ts';
import { seededRandom } from '../../core/random.ts';
import { secretEquals } from '../../core/secret-compare.ts';

export type {
  Faults,
  ScriptedFailure,
  Notification,
  NotifyOptions,
  RecordShape,
  SimAppointment,
  SimAppointmentInput,
  SimWebhook,
  WireRecord,
};

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** Bearer token the API requires; a random 40-hex token when left out. */
  token?: string;
  timezone?: string;
  recordShape?: RecordShape;
  notify?: NotifyOptions;
  /** Realistic appointments to start with: a count, or a count and a random seed (default 1). */
  seed?: number | { count: number; random?: number };
  pageSize?: number;
  maxPageSize?: number;
  clock?: Clock;
  faults?: Faults;
  /** Origin written into pagination links instead of the simulator's own (a misconfigured proxy); '' for relative links. */
  linkOrigin?: string;
}

export interface SimRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  /** Headers as received, without Authorization. */
  headers: Record<string, string>;
  authorized: boolean;
  body: unknown;
}

export interface Simulator {
  url: string;
  port: number;
  token: string;
  requests: SimRequest[];
  notifications: Notification[];
  close(): Promise<void>;
  create(input?: SimAppointmentInput): SimAppointment;
  update(key: string, patch: SimAppointmentInput): SimAppointment;
  reschedule(key: string, startMs: number): SimAppointment;
  cancel(key: string, status?: string): SimAppointment;
  /** Deletes it outright: GET answers 404 from now on. */
  remove(key: string): void;
  get(key: string): SimAppointment | undefined;
  all(): SimAppointment[];
  /** The record as the API shows it now (in the current record shape). */
  record(key: string): WireRecord | undefined;
  webhooks(): SimWebhook[];
  /** Registers a webhook without the https check (the demo wires its daemon's http:// URL this way). */
  addWebhook(url: string, events: string[]): SimWebhook;
  setFaults(faults: Faults): void;
  failNext(failure: ScriptedFailure): void;
  suppressNotifications(on: boolean): void;
  /** Every reschedule answers 400 with this detail; null accepts them again. */
  refuseReschedules(detail: string | null): void;
  setRecordShape(shape: RecordShape): void;
  setLinkOrigin(origin: string | undefined): void;
  /** Resolves when notifications sent so far have been delivered (or given up). */
  idle(): Promise<void>;
  startLiving(options?: { intervalMs?: number; onStep?: (what: string) => void }): void;
  stopLiving(): void;
  /** One living-mode change now; returns what happened. */
  liveStep(): string;
  /** The booking calendars appointments are made in, in the seed's order. */
  calendars(): { calendar_key: string; name: string }[];
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const token = options.token ?? randomBytes(20).toString('hex');
  const zone = options.timezone ?? 'America/Sao_Paulo';
  const seed = typeof options.seed === 'number' ? { count: options.seed, random: 1 } : (options.seed ?? { count: 0, random: 1 });
  const now = () => (options.clock ?? { now: Date.now }).now();
  const store = new SimStore(zone, now, seed.random ?? 1);
  const random = seededRandom(seed.random ?? 1);
  const calendars = calendarsFor(random);
  let shape: RecordShape = options.recordShape ?? 'seed';
  let linkOrigin = options.linkOrigin;
  let refusal: string | undefined;
  const faults = new FaultPlan(seededRandom((seed.random ?? 1) + 101));
  faults.faults = options.faults ?? {};
  const notifier = new Notifier(store, options.notify ?? {}, () => shape);
  const requests: SimRequest[] = [];
  let origin = '';

  const app = new Hono();
  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    const headers = Object.fromEntries([...c.req.raw.headers.entries()].filter(([k]) => k !== 'authorization'));
    const text = ['POST', 'PUT', 'PATCH'].includes(c.req.method) ? await c.req.text() : '';
    let body: unknown = text || undefined;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      // kept as text
    }
    const query: Record<string, string[]> = {};
    for (const k of new Set(url.searchParams.keys())) query[k] = url.searchParams.getAll(k);
    const authorized = secretEquals(c.req.header('authorization') ?? '', `Bearer ${token}`);
    requests.push({ method: c.req.method, path: url.pathname, query, headers, authorized, body });
    if (faults.faults.delayMs) await new Promise((r) => setTimeout(r, faults.faults.delayMs));
    for (const [k, v] of Object.entries(faults.headers())) c.header(k, v);
    const failure = faults.next(url.pathname);
    if (failure) {
      for (const [k, v] of Object.entries(failure.headers)) c.header(k, v);
      c.header('content-type', 'application/json');
      return c.body(failure.text, failure.status as 429);
    }
    return next();
  });
  simulatorRoutes(app, {
    store,
    token,
    shape: () => shape,
    linkOrigin: () => linkOrigin ?? origin,
    defaultPageSize: options.pageSize ?? 20,
    maxPageSize: options.maxPageSize ?? 100,
    rescheduleRefusal: () => refusal,
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: options.host ?? '127.0.0.1' }, () => {
      s.off('error', reject);
      resolve(s as Server);
    });
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  if (seed.count > 0) seedAppointments(store, random, calendars, seed.count);

  let living: NodeJS.Timeout | undefined;
  const stopLiving = () => {
    if (living) clearInterval(living);
    living = undefined;
  };

  return {
    url: origin,
    port,
    token,
    requests,
    notifications: notifier.notifications,
    async close() {
      stopLiving();
      await new Promise<void>((r) => {
        server.close(() => r());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
    create: (input) => store.create(input),
    update: (key, patch) => store.update(key, patch),
    reschedule: (key, startMs) => store.reschedule(key, startMs),
    cancel: (key, status) => store.cancel(key, status),
    remove: (key) => store.remove(key),
    get: (key) => store.get(key),
    all: () => store.all(),
    record: (key) => {
      const a = store.get(key);
      return a && toWire(a, shape, zone);
    },
    webhooks: () => [...store.webhooks.values()].map((w) => ({ ...w, events: [...w.events] })),
    addWebhook: (url, events) => {
      const hook = { webhook_key: store.newKey(), url, events: [...events] };
      store.webhooks.set(hook.webhook_key, hook);
      return { ...hook, events: [...events] };
    },
    setFaults: (f) => void (faults.faults = { ...f }),
    failNext: (f) => faults.failNext(f),
    suppressNotifications: (on) => void (notifier.suppressed = on),
    refuseReschedules: (detail) => void (refusal = detail ?? undefined),
    setRecordShape: (s) => void (shape = s),
    setLinkOrigin: (o) => void (linkOrigin = o),
    idle: () => notifier.idle(),
    startLiving({ intervalMs = 5000, onStep } = {}) {
      stopLiving();
      living = setInterval(() => {
        const what = liveStep(store, random, calendars); // the step happens whether or not anyone listens
        onStep?.(what);
      }, intervalMs);
      living.unref();
    },
    stopLiving,
    liveStep: () => liveStep(store, random, calendars),
    calendars: () => calendars.map((c) => ({ calendar_key: c.calendar_key, name: c.name })),
  };
}
