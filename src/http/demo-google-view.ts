// GET /demo/google: the demo's simulated Google calendars, read-only, by day, so the mirror can be
// seen next to the feed. Mounted only by `demo`; it gets plain events, not the simulator itself.
import { Hono, type MiddlewareHandler } from 'hono';
import { DateTime } from 'luxon';
import { html, trusted, type Html } from './status-page/html.ts';
import { STYLE } from './status-page/style.ts';
import { PAGE_HEADERS } from './status-page.ts';

export interface ViewEvent {
  summary: string;
  /** Epoch ms. */
  start: number;
  end: number;
  /** Tentative (a pending booking) or confirmed. */
  status: string;
  /** From the event's private properties: which appointment calbridge wrote it for. */
  appointmentKey: string | null;
}

export interface ViewCalendar {
  id: string;
  /** The booking calendar it mirrors. */
  name: string;
  events: ViewEvent[];
}

export interface DemoGoogleViewDeps {
  calendars: () => ViewCalendar[];
  /** booking.timezone */
  zone: string;
  /** The admin guard /status has. */
  guard: MiddlewareHandler;
}

const REFRESH_SECONDS = 15;

type Row = ViewEvent & { calendar: string };

function dayTable(rows: Row[], zone: string): Html {
  const t = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
  return html`<table class="agenda events"><thead><tr><th>Time</th><th>Event</th><th>Calendar</th></tr></thead><tbody>${rows.map(
    (r) => html`<tr class="event" data-appointment="${r.appointmentKey ?? ''}" data-start="${new Date(r.start).toISOString()}"><td data-label="Time" class="time">${t(r.start)}&ndash;${t(r.end)}</td><td data-label="Event"><b>${r.summary}</b>${r.status === 'tentative' ? html`<span class="sub">tentative</span>` : ''}</td><td data-label="Calendar">${r.calendar}</td></tr>`,
  )}</tbody></table>`;
}

export function renderGoogleView(calendars: ViewCalendar[], zone: string, now: number): string {
  const rows: Row[] = calendars.flatMap((c) => c.events.map((e) => ({ ...e, calendar: c.name }))).sort((a, b) => a.start - b.start || a.summary.localeCompare(b.summary));
  const days = new Map<string, Row[]>();
  for (const r of rows) {
    const day = DateTime.fromMillis(r.start, { zone }).toISODate() ?? '';
    days.set(day, [...(days.get(day) ?? []), r]);
  }
  const today = DateTime.fromMillis(now, { zone }).toISODate() ?? '';
  const title = (day: string) => DateTime.fromISO(day, { zone }).setLocale('en').toFormat('cccc d LLLL');
  const past = [...days].filter(([d]) => d < today);
  const coming = [...days].filter(([d]) => d >= today);
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<meta name="robots" content="noindex">
<title>Simulated Google Calendar · calbridge demo</title>
<style>${trusted(STYLE)}</style></head>
<body><main>
<header><h1>Google Calendar <span class="muted">(simulated)</span></h1><span class="muted">Times in ${zone}</span><a class="link" href="/status">Status page</a></header>
<section id="about"><p>What calbridge mirrored into the demo's simulated Google calendars: ${rows.length} events in ${calendars.length} calendars
(${calendars.map((c, i) => html`${i ? ', ' : ''}${c.name}`)}). Simulated people move and delete these events now and then; the status page's activity says what calbridge did about each.</p></section>
${coming.length ? coming.map(([day, list]) => html`<section class="day" id="day-${day}"><h2>${day === today ? 'Today, ' : ''}${title(day)}</h2>${dayTable(list, zone)}</section>`) : html`<section><p class="muted">No upcoming events.</p></section>`}
${past.length ? html`<section id="earlier"><details><summary>Earlier days (${past.reduce((n, [, l]) => n + l.length, 0)} events)</summary>${past.map(([day, list]) => html`<h3>${title(day)}</h3>${dayTable(list, zone)}`)}</details></section>` : ''}
<p class="muted">This page refreshes every ${REFRESH_SECONDS} seconds.</p>
</main></body></html>`;
  return body.value;
}

/** GET /demo/google, behind the guard of /status. */
export function demoGoogleView(deps: DemoGoogleViewDeps): Hono {
  const view = new Hono();
  view.use('/demo/*', deps.guard);
  view.get('/demo/google', (c) => c.html(renderGoogleView(deps.calendars(), deps.zone, Date.now()), 200, PAGE_HEADERS));
  return view;
}
