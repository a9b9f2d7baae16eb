// GET /demo/google and /demo/outlook: the demo's simulated Google and Outlook calendars, read-only,
// a section per calendar account (the clinic's, each professional's own), by day, so each mirror can
// be seen next to the feed. One look for both; the page's words are its catalogue group. Mounted
// only by `demo`; it gets plain events, not the simulators.
import { Hono, type MiddlewareHandler } from 'hono';
import { DateTime } from 'luxon';
import { html, trusted, type Html } from './status-page/html.ts';
import { STYLE } from './status-page/style.ts';
import { PAGE_HEADERS } from './status-page.ts';
import { messagesFor, type Messages } from '../core/i18n/index.ts';

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

/** One calendar account's calendars, under a heading of its own. */
export interface ViewAccount {
  /** The account as the status page names it: google.default, google.ana. */
  id: string;
  heading: string;
  calendars: ViewCalendar[];
}

/** Which simulated calendar app the page shows: its address and its words in the catalogue. */
export type DemoCalendarApp = 'google' | 'outlook';
const PAGES = {
  google: { path: '/demo/google', words: (m: Messages) => m.demoGoogle },
  outlook: { path: '/demo/outlook', words: (m: Messages) => m.demoOutlook },
} as const;
type Words = Messages['demoGoogle'];

/** The page's address, for the status page's link to it. */
export const demoCalendarPath = (app: DemoCalendarApp): string => PAGES[app].path;

export interface DemoCalendarViewDeps {
  app: DemoCalendarApp;
  accounts: () => ViewAccount[];
  /** booking.timezone */
  zone: string;
  /** The admin guard /status has. */
  guard: MiddlewareHandler;
  /** server.locale's catalogue (English without). */
  messages?: Messages;
}

const REFRESH_SECONDS = 15;

type Row = ViewEvent & { calendar: string };

function dayTable(rows: Row[], zone: string, g: Words): Html {
  const t = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
  return html`<table class="agenda events"><thead><tr><th>${g.time}</th><th>${g.event}</th><th>${g.calendar}</th></tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr class="event" data-appointment="${r.appointmentKey ?? ''}" data-start="${new Date(r.start).toISOString()}"><td data-label="${g.time}" class="time">${t(r.start)}&ndash;${t(r.end)}</td><td data-label="${g.event}"><b>${r.summary}</b>${r.status === 'tentative' ? html`<span class="sub">${g.tentative}</span>` : ''}</td><td data-label="${g.calendar}">${r.calendar}</td></tr>`,
  )}</tbody></table>`;
}

/** One account's events by day: the coming days open, the earlier ones folded. */
function accountSection(account: ViewAccount, zone: string, now: number, m: Messages, g: Words): Html {
  const rows: Row[] = account.calendars
    .flatMap((c) => c.events.map((e) => ({ ...e, calendar: c.name })))
    .sort((a, b) => a.start - b.start || a.summary.localeCompare(b.summary));
  const days = new Map<string, Row[]>();
  for (const r of rows) {
    const day = DateTime.fromMillis(r.start, { zone }).toISODate() ?? '';
    days.set(day, [...(days.get(day) ?? []), r]);
  }
  const today = DateTime.fromMillis(now, { zone }).toISODate() ?? '';
  const title = (day: string) => DateTime.fromISO(day, { zone }).setLocale(m.tag).toFormat('cccc d LLLL');
  const past = [...days].filter(([d]) => d < today);
  const coming = [...days].filter(([d]) => d >= today);
  return html`<section class="account" data-account="${account.id}"><h2>${account.heading} <span class="muted">${account.id}</span></h2>
<p>${g.about(rows.length, account.calendars.length, account.calendars.map((c) => c.name).join(', '))}</p>
${coming.length ? coming.map(([day, list]) => html`<h3 class="day" id="${account.id}-day-${day}">${day === today ? g.today : ''}${title(day)}</h3>${dayTable(list, zone, g)}`) : html`<p class="muted">${g.noUpcoming}</p>`}
${past.length ? html`<details><summary>${g.earlier(past.reduce((n, [, l]) => n + l.length, 0))}</summary>${past.map(([day, list]) => html`<h3>${title(day)}</h3>${dayTable(list, zone, g)}`)}</details>` : ''}
</section>`;
}

function renderCalendarView(accounts: ViewAccount[], zone: string, now: number, m: Messages, g: Words): string {
  const body = html`<!doctype html>
<html lang="${m.tag}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<meta name="robots" content="noindex">
<title>${g.title}</title>
<style>${trusted(STYLE)}</style></head>
<body><main>
<header><h1>${g.heading} <span class="muted">${g.simulated}</span></h1><span class="muted">${m.page.timesIn(zone)}</span><a class="link" href="/status">${g.statusPage}</a></header>
${accounts.map((a) => accountSection(a, zone, now, m, g))}
<p class="muted">${g.refreshes(REFRESH_SECONDS)}</p>
</main></body></html>`;
  return body.value;
}

/** GET /demo/google or /demo/outlook, behind the guard of /status. */
export function demoCalendarView(deps: DemoCalendarViewDeps): Hono {
  const view = new Hono();
  const { path, words } = PAGES[deps.app];
  const m = deps.messages ?? messagesFor('en');
  view.use(path, deps.guard);
  view.get(path, (c) => c.html(renderCalendarView(deps.accounts(), deps.zone, Date.now(), m, words(m)), 200, PAGE_HEADERS));
  return view;
}
