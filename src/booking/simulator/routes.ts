// The booking API as the service documents it, trailing slashes and all: appointments, reschedule, cancel,
// webhooks; bearer auth; DRF page-number pagination; DRF-style {"detail": "..."} errors.
import type { Context, Hono } from 'hono';
import { DateTime } from 'luxon';
import { secretEquals } from '../../core/secret-compare.ts';
import { STATUSES } from '../../core/appointment.ts';
import { compileFilters, FilterError } from './filters.ts';
import { isCancelledStatus, toWire, type RecordShape, type SimAppointment } from './model.ts';
import type { SimStore } from './store.ts';

export interface RouteDeps {
  store: SimStore;
  token: string;
  shape: () => RecordShape;
  /** Origin written into `next` links (a proxy that rewrites it is simulated by changing this); '' for relative links. */
  linkOrigin: () => string;
  defaultPageSize: number;
  maxPageSize: number;
  /** When set, every reschedule is refused with this detail. */
  rescheduleRefusal: () => string | undefined;
}

const A = '/api/v3/appointments';
const W = '/api/v3/webhooks';

const detail = (c: Context, status: 400 | 401 | 404, text: string) => c.json({ detail: text }, status);

async function jsonBody(c: Context): Promise<Record<string, unknown> | undefined> {
  try {
    const b: unknown = await c.req.json();
    return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One page of items, each rendered only when it is on that page (a listing of 100,000 stays quick). */
function paginate<T>(c: Context, d: RouteDeps, items: T[], render: (item: T) => unknown) {
  const url = new URL(c.req.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  const size = Math.min(d.maxPageSize, Number(url.searchParams.get('page_size') ?? d.defaultPageSize) || d.defaultPageSize);
  const pages = Math.max(1, Math.ceil(items.length / size));
  if (!Number.isInteger(page) || page < 1 || page > pages) return detail(c, 404, 'Invalid page.');
  const link = (n: number) => {
    const origin = d.linkOrigin();
    const u = new URL(url.pathname + url.search, origin || url.origin);
    if (n === 1) u.searchParams.delete('page');
    else u.searchParams.set('page', String(n));
    return origin ? u.href : `${u.pathname}${u.search}`; // '' gives relative links
  };
  return c.json({
    count: items.length,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: items.slice((page - 1) * size, page * size).map(render),
  });
}

export function simulatorRoutes(app: Hono, d: RouteDeps): void {
  const { store } = d;
  const wire = (key: string) => {
    const a = store.get(key);
    return a && toWire(a, d.shape(), store.zone);
  };

  app.use('/api/*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const [scheme, value] = header.split(/\s+/, 2);
    if (!header) return detail(c, 401, 'Authentication credentials were not provided.');
    if (scheme?.toLowerCase() !== 'bearer' || !value || !secretEquals(value, d.token)) return detail(c, 401, 'Invalid token.');
    return next();
  });

  // The last listing's matches, for its next pages: filtered once per state and query, not per page.
  let matched: { version: number; query: string; items: SimAppointment[] } | null = null;
  app.get(`${A}/`, (c) => {
    try {
      const params = new URL(c.req.url).searchParams;
      const query = [...params]
        .filter(([k]) => k !== 'page')
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      if (matched?.version !== store.version || matched.query !== query) {
        matched = { version: store.version, query, items: store.inOrder().filter(compileFilters(params, store.zone)) };
      }
      return paginate(c, d, matched.items, (a) => toWire(a, d.shape(), store.zone));
    } catch (e) {
      if (e instanceof FilterError) return detail(c, 400, e.message);
      throw e;
    }
  });

  app.get(`${A}/:key/`, (c) => {
    const rec = wire(c.req.param('key'));
    return rec ? c.json(rec) : detail(c, 404, 'Not found.');
  });

  app.patch(`${A}/:key/`, async (c) => {
    const key = c.req.param('key');
    if (!store.get(key)) return detail(c, 404, 'Not found.');
    const body = await jsonBody(c);
    const status = typeof body?.status === 'string' ? body.status : undefined;
    if (!status) return detail(c, 400, 'status: This field is required.');
    if (!(STATUSES as readonly string[]).includes(status)) return detail(c, 400, `status: "${status}" is not a valid choice.`);
    store.update(key, { status });
    return c.json(wire(key));
  });

  app.patch(`${A}/:key/reschedule/`, async (c) => {
    const key = c.req.param('key');
    const current = store.get(key);
    if (!current) return detail(c, 404, 'Not found.');
    const refusal = d.rescheduleRefusal();
    if (refusal) return detail(c, 400, refusal);
    const body = await jsonBody(c);
    const text = typeof body?.start_date === 'string' ? body.start_date : undefined;
    if (!text) return detail(c, 400, 'start_date: This field is required.');
    const dt = DateTime.fromISO(text, { setZone: true });
    if (!dt.isValid || !/(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
      return detail(c, 400, `start_date: Enter a valid date/time with a UTC offset (ISO 8601), got "${text}".`);
    }
    if (isCancelledStatus(current.status)) return detail(c, 400, 'A cancelled appointment cannot be rescheduled.');
    store.reschedule(key, dt.toMillis());
    return c.json(wire(key));
  });

  app.delete(`${A}/:key/`, (c) => {
    const key = c.req.param('key');
    const current = store.get(key);
    if (!current) return detail(c, 404, 'Not found.');
    if (!isCancelledStatus(current.status)) store.cancel(key);
    return c.body(null, 204);
  });

  const webhookInput = async (c: Context): Promise<{ url: string; events: string[] } | string> => {
    const body = await jsonBody(c);
    const url = body?.url;
    const events = body?.events;
    if (typeof url !== 'string' || !url) return 'url: This field is required.';
    if (!/^https:\/\//i.test(url) || !URL.canParse(url)) return `url: The callback URL must use HTTPS, got "${url}".`;
    if (!Array.isArray(events) || events.length === 0 || !events.every((e) => typeof e === 'string')) {
      return 'events: A non-empty list of event names is required.';
    }
    return { url, events: events as string[] };
  };

  app.get(`${W}/`, (c) => paginate(c, d, [...store.webhooks.values()], (w) => w));

  app.post(`${W}/`, async (c) => {
    const input = await webhookInput(c);
    if (typeof input === 'string') return detail(c, 400, input);
    const hook = { webhook_key: store.newKey(), ...input };
    store.webhooks.set(hook.webhook_key, hook);
    return c.json(hook, 201);
  });

  app.put(`${W}/:key/`, async (c) => {
    const key = c.req.param('key');
    if (!store.webhooks.has(key)) return detail(c, 404, 'Not found.');
    const input = await webhookInput(c);
    if (typeof input === 'string') return detail(c, 400, input);
    const hook = { webhook_key: key, ...input };
    store.webhooks.set(key, hook);
    return c.json(hook);
  });

  app.delete(`${W}/:key/`, (c) => (store.webhooks.delete(c.req.param('key')) ? c.body(null, 204) : detail(c, 404, 'Not found.')));

  app.notFound((c) => detail(c, 404, 'Not found.'));
}
